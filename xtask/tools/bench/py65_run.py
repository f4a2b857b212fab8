#!/usr/bin/env python3
"""Runs a C64 PRG in py65 (the Python 6502 emulator) the way `cargo xtask bench` runs it in
its flat-RAM harnesses, and prints what happened, for the bench to compare with c64kit.

Flat 64 KiB RAM, the PRG at its load address, PC at the SYS address with S=$F6 and BASIC's
return addresses on the stack (an RTS from the program lands on $E147). The only KERNAL
calls are traps on the PC: $FFD2 CHROUT appends A to the transcript and returns; $FFE4 GETIN
returns the next key (or 0 with Z set when none is left, which ends the run: the engine
polls GETIN until a key comes). Any other PC in $E000-$FFFF is reported as an unexpected
KERNAL call.

Usage: py65_run.py PRG SYS_ADDRESS KEYS_HEX RUNS MAX_INSTRUCTIONS
Output, one line each: `run SECONDS INSTRUCTIONS CYCLES` per run, then `stop REASON` and
`transcript HEX` (of the last run).
"""

import sys
import time

from py65.devices.mpu6502 import MPU

CHROUT = 0xFFD2
GETIN = 0xFFE4
BASIC_RETURN = 0xE147


def run_once(prg, sys_address, keys, max_instructions):
    mpu = MPU()
    mem = mpu.memory
    load = prg[0] | (prg[1] << 8)
    data = prg[2:]
    mem[load:load + len(data)] = list(data)
    mem[0x14] = sys_address & 0xFF
    mem[0x15] = sys_address >> 8
    mem[0x01F7] = 0x46
    mem[0x01F8] = 0xE1
    mem[0x01F9] = 0xAD
    mem[0x01FA] = 0xA7
    mpu.sp = 0xF6
    mpu.a = mpu.x = mpu.y = 0
    mpu.p = 0x20
    mpu.pc = sys_address
    mpu.processorCycles = 0

    transcript = bytearray()
    pending = list(reversed(keys))
    step = mpu.step
    zero, negative, carry = mpu.ZERO, mpu.NEGATIVE, mpu.CARRY
    instructions = 0
    stop = "instruction budget reached"

    def rts():
        s = mpu.sp
        lo = mem[0x100 + ((s + 1) & 0xFF)]
        hi = mem[0x100 + ((s + 2) & 0xFF)]
        mpu.sp = (s + 2) & 0xFF
        mpu.pc = (((hi << 8) | lo) + 1) & 0xFFFF

    start = time.perf_counter()
    while instructions < max_instructions:
        pc = mpu.pc
        if pc >= 0xE000:
            if pc == CHROUT:
                transcript.append(mpu.a)
                rts()
                continue
            if pc == GETIN:
                if not pending:
                    stop = "input exhausted"
                    break
                a = pending.pop()
                mpu.a = a
                p = mpu.p & ~(zero | negative | carry)
                if a == 0:
                    p |= zero
                if a & 0x80:
                    p |= negative
                mpu.p = p
                rts()
                continue
            if pc == BASIC_RETURN:
                stop = "returned to BASIC"
                break
            stop = "unexpected KERNAL call $%04X" % pc
            break
        step()
        instructions += 1
    seconds = time.perf_counter() - start
    return seconds, instructions, mpu.processorCycles, stop, transcript


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as f:
        prg = f.read()
    sys_address = int(sys.argv[2], 0)
    keys = bytes.fromhex(sys.argv[3])
    runs = int(sys.argv[4])
    max_instructions = int(sys.argv[5])
    stop, transcript = "", b""
    for _ in range(runs):
        seconds, instructions, cycles, stop, transcript = run_once(
            prg, sys_address, keys, max_instructions
        )
        print("run %.6f %d %d" % (seconds, instructions, cycles), flush=True)
    print("stop " + stop)
    print("transcript " + transcript.hex())


if __name__ == "__main__":
    main()
