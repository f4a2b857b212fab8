; bare.asm: a plain 6502 program for `c64kit run --bare` (64 KiB of RAM, no C64 around
; it, like sim65): adds 1 to 100 into $10/$11 and ends in a loop to itself, the way CPU
; test programs signal their end (exit code 6, the loop's address on stderr).
;   c64kit run --bare examples/bare.asm

SUM      = $10                    ; the sum, low byte first

*=$0400
start    lda #0
         sta SUM
         sta SUM+1
         ldx #100
@add     txa                      ; SUM += X
         clc
         adc SUM
         sta SUM
         bcc @next
         inc SUM+1
@next    dex
         bne @add
         lda SUM                  ; A/Y = 5050 ($13BA) for whoever looks at the trace
         ldy SUM+1
done     jmp done
