#!/usr/bin/env python3
"""Differential tester for programs/ryg3 (a development aid: CI never runs it).

Generates random keyboard scripts, runs each through the executable model of ryg3.md
(shared/ryg/model/ryg3_model.py, beside the checkout) and through our build in
`c64kit run`, and compares the CHROUT transcripts and the stop reasons. The model is
only an oracle while developing; nothing in the project depends on it.

    cargo build --release -p c64kit
    for v in 09 10 11; do target/release/c64kit asm programs/ryg3/ryg3-v$v.cbmprj -o /tmp/ryg3-v$v.prg; done
    python3 programs/ryg3/tools/difftest.py --count 200 --profile normal
    python3 programs/ryg3/tools/difftest.py --script ".d8|e1f2|.g|" --version 11   # one script

Script notation (as the model's): one key per character, `|` = RETURN, `{DEL}` = DEL.
Profiles:
  normal  short sessions: legal and illegal moves, every command, line-editor edits
  long    60-200 steps, mostly moves
  swap    150-400 steps with many .S (side swaps), shallow thinks
  loop    the mouse shuffles while the cats pass via .S until the game record overflows
          (hply 95..160, S14.2), then normal steps (.N loads the corrupted initial board)
Scripts on which the model reaches a case the spec leaves unspecified are skipped.
"""
import argparse
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
DEFAULT_MODEL = os.path.normpath(os.path.join(REPO, '..', 'shared', 'ryg', 'model'))


def sqname(s):
    return 'ABCDEFGH'[s % 8] + str(s // 8 + 1)


def legal_moves(m, side):
    b = m.board
    res = []
    for sq in range(64):
        p = b[sq]
        if side == 0 and p == 0:
            res += [(sq, t) for t in m.MN[sq] if b[t] == 6]
        if side == 1 and 1 <= p <= 5:
            res += [(sq, t) for t in m.CN[sq] if b[t] == 6]
    return res


def edit(tok, rng):
    """Decorate a command line with line-editor keys (DEL, a fifth key) now and then."""
    r = rng.random()
    if r < 0.06 and len(tok) >= 2:
        k = rng.randrange(1, len(tok))
        return tok[:k] + 'Z{DEL}' + tok[k:] + '|'
    if r < 0.09:
        return '{DEL}' + tok + '|'
    if r < 0.13 and len(tok) == 4:
        return tok + rng.choice('XQ|1.')
    if r < 0.15 and len(tok) == 4:
        return tok + '{DEL}{DEL}|'
    return tok + '|'


JUNK = ['.ds', '.du', '.de', '.df', '.dt', '.d0', '.d:', '.dq', '.ts', '.tu', '.te', '.tf', '.tt',
        '.t0', '.x', '.', '.bxy', '.gzz', 'x', '', 'e1', 'e1f', 'e9f2', 'i1f2', 'e1f9', 'a1a1',
        'h8g7', 'b8a7', 'e1e2', 'e1g3', '.q1', '.qx', 'e1f2e', '.zz']


def make_fuzz_model(M):
    class FuzzModel(M.RYG3):
        """The model, generating the script lazily whenever it wants a key at a line start,
        so that moves can be chosen from the real position."""

        def setup_fuzz(self, rng, profile):
            self.rng = rng
            self.profile = profile
            self.parts = []
            self.target = rng.randint(95, 160)
            self.looped = False
            self.steps = {'loop': 900, 'long': rng.randint(60, 200),
                          'swap': rng.randint(150, 400)}.get(profile, rng.randint(5, 40))
            self.depth_set = False
            self.tail_done = False
            self.fkeys = []
            self.fpos = 0

        def getkey(self):
            while self.fpos >= len(self.fkeys):
                if self.steps <= 0:
                    if self.tail_done:
                        raise M.EndOfInput()
                    self.tail_done = True
                    self.add(self.tail())
                    continue
                self.steps -= 1
                self.add(self.next_token())
            k = self.fkeys[self.fpos]
            self.fpos += 1
            return k

        def add(self, tok):
            self.parts.append(tok)
            self.fkeys.extend(M.script_to_keys(tok))

        def tail(self):
            rng = self.rng
            t = ''
            if rng.random() < 0.1:   # .Tn only at the end: a think after it never finishes
                t += '.t%d|' % rng.randint(1, 9) + rng.choice(['.b|', '.m|', '.e|', ''])
            if rng.random() < 0.05:
                t += '.q|.b|'
            return t

        def next_token(self):
            rng = self.rng
            r = rng.random()
            prof = self.profile
            if prof == 'loop':
                if self.hply < self.target and not self.looped:
                    mv = legal_moves(self, self.side)
                    if self.side == 0:
                        if not mv:
                            return '.s|'
                        down = [x for x in mv if x[1] < x[0]]
                        if down and (rng.random() < 0.6 or all(x[1] >= 48 for x in mv)):
                            mv = down
                        mv = [x for x in mv if x[1] < 56] or mv
                        f, t = rng.choice(mv)
                        return sqname(f) + sqname(t) + '|'
                    if mv and rng.random() < 0.08:
                        f, t = rng.choice(mv)
                        return sqname(f) + sqname(t) + '|'
                    return '.s|'
                self.looped = True
                prof = 'normal'
                r = rng.random()
                if rng.random() < 0.15:
                    return rng.choice(['.n|', '.n|.b|', '.n|.m|', '.n|.d2|.g|', '.b|', '.u|.b|'])
            if prof == 'swap':
                if r < 0.65:
                    mv = legal_moves(self, self.side)
                    if mv:
                        f, t = rng.choice(mv)
                        return sqname(f) + sqname(t) + '|'
                    return '.s|'
                if r < 0.87:
                    return '.s|'
                if r < 0.9:
                    return '.d%d|.g|' % rng.randint(1, 3)
                if r < 0.92:
                    return rng.choice(['.n|', '.u|', '.u|'])
                return rng.choice(['.b|', '.m|', '.e|', '.f|'])
            pmove = 0.75 if prof == 'long' else 0.5
            if r < pmove:
                side = self.side if rng.random() < 0.9 else 1 - self.side
                mv = legal_moves(self, side)
                if mv:
                    f, t = rng.choice(mv)
                    return edit(sqname(f) + sqname(t), rng)
            if r < pmove + 0.1:
                tok = '.g|'
                if not self.depth_set and rng.random() < 0.8:
                    self.depth_set = True
                    tok = '.d%d|' % rng.randint(1, 6) + tok
                return tok
            if r < pmove + 0.14:
                self.depth_set = True
                return '.d%d|' % rng.choice([1, 2, 3, 4, 5, 6, 7, 8])
            if r < pmove + 0.4:
                c = rng.choice(['.b', '.m', '.e', '.f', '.u', '.n', '.o', '.s', '.h', '.s', '.u',
                                '.b', '.m'])
                if prof == 'long' and c in ('.n', '.u', '.o'):
                    c = '.s'
                return edit(c, rng)
            c = rng.choice(JUNK)
            return edit(c, rng) if c else '|'

    return FuzzModel


def run_kit(kit, prg, script, max_cycles):
    inp = script.replace('|', '\n').lower().replace('{del}', '{DEL}')
    p = subprocess.run([kit, 'run', prg, '--input', inp, '--max-cycles', str(max_cycles)],
                       capture_output=True, text=True, errors='replace')
    reason = {0: 'returned to BASIC', 3: 'input exhausted'}.get(p.returncode, 'exit %d' % p.returncode)
    # c64kit renders DEL as {del}, the model as {14}; c64kit adds a closing newline only
    # after a partial last line, so compare modulo trailing newlines
    return p.stdout.replace('{del}', '{14}').rstrip('\n'), reason, p.stderr.strip()


def first_diff(a, b):
    al, bl = a.split('\n'), b.split('\n')
    for i in range(max(len(al), len(bl))):
        x = al[i] if i < len(al) else None
        y = bl[i] if i < len(bl) else None
        if x != y:
            return i, x, y
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--model', default=DEFAULT_MODEL, help='folder of ryg3_model.py')
    ap.add_argument('--kit', default=os.path.join(REPO, 'target', 'release', 'c64kit'))
    ap.add_argument('--prg', default='/tmp/ryg3-v{v}.prg', help='our builds; {v} = 09/10/11')
    ap.add_argument('--count', type=int, default=100)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--profile', default='normal', choices=['normal', 'long', 'swap', 'loop'])
    ap.add_argument('--version', choices=['09', '10', '11'], help='only this version')
    ap.add_argument('--script', help='run just this script and show the first difference')
    ap.add_argument('--max-cycles', type=int, default=400_000_000_000)
    args = ap.parse_args()
    sys.path.insert(0, args.model)
    sys.setrecursionlimit(10000)
    import ryg3_model as M

    if args.script:
        ver = args.version or '11'
        m = M.RYG3(ver, 0x20)
        exp = M.render(m.run(M.script_to_keys(args.script))).rstrip('\n')
        quit = m.cmd[0] == 0x2E and m.cmd[1] == 0x51
        got, reason, err = run_kit(args.kit, args.prg.format(v=ver), args.script, args.max_cycles)
        want = 'returned to BASIC' if quit else 'input exhausted'
        d = first_diff(exp, got)
        print(err)
        if d is None and reason == want:
            print('same transcript (%d lines), stop reason: %s' % (exp.count('\n') + 1, reason))
            return 0
        print('DIFFERENT: stop reason %s (model: %s); first differing line %s' % (reason, want, d))
        return 1

    FuzzModel = make_fuzz_model(M)
    ok = bad = skip = 0
    for k in range(args.count):
        rng = random.Random(args.seed * 100003 + k)
        ver = args.version or rng.choice(['09', '10', '11'])
        m = FuzzModel(ver, 0x20)
        m.setup_fuzz(rng, args.profile)
        try:
            exp = M.render(m.run([])).rstrip('\n')
        except M.Unspecified:
            skip += 1
            continue
        script = ''.join(m.parts)
        quit = m.cmd[0] == 0x2E and m.cmd[1] == 0x51
        want = 'returned to BASIC' if quit else 'input exhausted'
        got, reason, err = run_kit(args.kit, args.prg.format(v=ver), script, args.max_cycles)
        if got == exp and reason == want:
            ok += 1
            continue
        bad += 1
        print('MISMATCH v%s seed %d case %d: %r' % (ver, args.seed, k, script))
        print('  stop reason %s (model: %s); first differing line %s' % (reason, want, first_diff(exp, got)))
        if bad >= 5:
            break
    print('%d passed, %d failed, %d skipped' % (ok, bad, skip))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
