; mul.asm: an 8-bit multiply, tested by calling the routine (examples/testing/asm.toml).
; RUN multiplies 12 by 10 and says so; the tests also call mul8 directly, as a unit.

CHROUT   = $FFD2

; The BASIC line "10 SYS2064" that RUN starts.
*=$0801
         byte $0b,$08,$0a,$00,$9e,"2064",$00,$00,$00

*=$0810
main     lda #12
         ldx #10
         jsr mul8
         ldx #0
@print   lda message,x            ; print the message, up to its 0
         beq @done
         jsr CHROUT
         inx
         bne @print
@done    rts

; mul8: A times X; the product in result (low byte first), its high byte also in A.
; Shift and add, 8 rounds: each bit of X, lowest first, adds A's value to the high byte.
mul8     sta factor
         stx bits
         lda #0
         ldx #8
@round   lsr bits                 ; the next bit of X into carry
         bcc @shift
         clc
         adc factor               ; add the factor to the high byte (carry: its 9th bit)
@shift   ror a                    ; the product one bit right: high byte...
         ror result               ; ...into the low byte
         dex
         bne @round
         sta result+1
         rts

factor   byte 0
bits     byte 0
result   byte 0,0
message  null "12 times 10 is in result",13
