#!/usr/bin/env python3
"""Dev aid (not used by the build or CI): regenerate programs/ryg3/tables.asm from
/work/shared/ryg/ryg3-tables.toml (or the path given as argv[1]).

    python3 programs/ryg3/tools/gen_tables.py [path/to/ryg3-tables.toml] > programs/ryg3/tables.asm
"""
import sys
import tomllib

path = sys.argv[1] if len(sys.argv) > 1 else '/work/shared/ryg/ryg3-tables.toml'
with open(path, 'rb') as f:
    T = tomllib.load(f)

out = []
w = out.append


def table(label, values, comment=None):
    if comment:
        w('; ' + comment)
    for r in range(0, len(values), 8):
        chunk = values[r:r + 8]
        lab = label if r == 0 else ''
        w('%-12s byte %s' % (lab, ','.join('$%02X' % v for v in chunk)))


def string(label, s):
    """A message as explicit PETSCII bytes, 0-terminated ('\\r' = 13)."""
    shown = s.replace('\r', '\\r')
    w('; "%s"' % shown)
    vals = [ord(c) for c in s] + [0]
    for r in range(0, len(vals), 12):
        chunk = vals[r:r + 12]
        lab = label if r == 0 else ''
        w('%-12s byte %s' % (lab, ','.join('$%02X' % v for v in chunk)))


w('; tables.asm - constant data of the RYG3 engine (versions 09/10/11).')
w('; Generated from ryg3-tables.toml by tools/gen_tables.py; square order a1..h1, a2..h2, ..., a8..h8.')
w('; Copied into page-aligned RAM at start-up (see main.asm, init).')
w('')
hk = T['hash']['v10_v11']
h9 = T['hash']['v09']
for name in ('hash_mouse', 'hash_cat1', 'hash_cat2', 'hash_cat3', 'hash_cat4',
             'lock_cat1', 'lock_cat2', 'lock_cat3', 'lock_cat4'):
    assert hk[name] == h9[name]
lm10 = hk['lock_mouse']
lm9 = h9['lock_mouse']
diff = [i for i in range(64) if lm10[i] != lm9[i]]
assert diff == [15], diff

w('; ---- position keys (toml [hash.*]); one 64-byte table per piece code 0..4')
table('D_HASH_M', hk['hash_mouse'], 'hash_mouse')
table('D_HASH_C1', hk['hash_cat1'], 'hash_cat1')
table('D_HASH_C2', hk['hash_cat2'], 'hash_cat2')
table('D_HASH_C3', hk['hash_cat3'], 'hash_cat3')
table('D_HASH_C4', hk['hash_cat4'], 'hash_cat4')
w('; lock_mouse: the only difference between the v09 and v10/v11 data is entry 15 (h2)')
table('D_LOCK_M', lm10[:8])
w('%-12s byte %s' % ('', ','.join('$%02X' % v for v in lm10[8:15])))
w('  if VERSION = 9')
w('%-12s byte $%02X' % ('', lm9[15]))
w('  else')
w('%-12s byte $%02X' % ('', lm10[15]))
w('  endif')
table('D_LOCK_M16', lm10[16:])
table('D_LOCK_C1', hk['lock_cat1'], 'lock_cat1')
table('D_LOCK_C2', hk['lock_cat2'], 'lock_cat2')
table('D_LOCK_C3', hk['lock_cat3'], 'lock_cat3')
table('D_LOCK_C4', hk['lock_cat4'], 'lock_cat4')
w('')
w('; ---- evaluation square tables (toml [eval]); cats are subtracted')
ev = T['eval']
table('D_EVAL_M', ev['mouse'], 'mouse (rank index)')
table('D_EVAL_C1', ev['cat1'], 'cat1 (files a/b)')
table('D_EVAL_C2', ev['cat2'], 'cat2 (files c/d)')
table('D_EVAL_C3', ev['cat3'], 'cat3 (files e/f)')
table('D_EVAL_C4', ev['cat4'], 'cat4 (files g/h)')
w('')
w('; ---- initial board, column and row tables (toml [board], [geometry]); copied into the flat area')
table('D_INITB', T['board']['initial'], 'initial board: 0 mouse, 1..4 cats, 6 empty')
table('D_COL', T['geometry']['col'], 'column (file index) of each square')
table('D_ROW', T['geometry']['row'], 'row (rank index) of each square')
w('')
w('; ---- neighbour tables (toml [geometry].mouse_moves / cat_moves); 255 = off the board')
mm = T['geometry']['mouse_moves']
cm = T['geometry']['cat_moves']
for sq in range(64):
    assert cm[sq] == mm[sq][:2]
for k, name in enumerate(('NB_SW', 'NB_SE', 'NB_NE', 'NB_NW')):
    table(name, [mm[sq][k] for sq in range(64)], name[3:] + ' neighbour (cats use SW and SE only)')
w('')
w('; ---- character tables')
s = T['strings']
string('LBYTES', s['file_letters'] + s['rank_digits'])
string('HEXD', s['hex_digits'])
w('')
w('; ---- messages (toml [strings]), 0-terminated')
for label, key in (('S_PROMPT', 'prompt'), ('S_GO', 'go'), ('S_HELP', 'help'),
                   ('S_NEWGAME', 'new_game'), ('S_OFF', 'off'), ('S_QUIT', 'quit'),
                   ('S_SETDEPTH', 'set_depth'), ('S_SETTIME', 'set_time'),
                   ('S_SWITCH', 'switch'), ('S_UNDO', 'undo'), ('S_ILLEGAL', 'illegal'),
                   ('S_NOLEGAL', 'no_legal_moves'), ('S_COMPMOVE', 'computer_move'),
                   ('S_MOUSEWIN', 'mouse_wins'), ('S_CATSWIN', 'cats_win'),
                   ('S_LETTERS', 'letters_line'), ('S_MOUSELBL', 'hash_dump_mouse_label'),
                   ('S_CATSLBL', 'hash_dump_cats_label')):
    string(label, s[key])
string('S_HISTLBL', '\r' + s['history_dump_label'] + '\r')
string('S_SIDE', 'S: ')
string('S_PLY', ',P:')
string('S_HPLY', ',H:')
string('S_HASH', '#:')
string('S_LOCK', ',L:')
string('S_EVAL', ',E:')
string('S_DOTS', '...')
w('')
w('; end of tables.asm')
print('\n'.join(out))
