; selftest.asm: unit tests that run on the C64 and report by exit status, as a cc65 test
; program's `return 1` does: ST ($90) is 0 when every product is right, else the number
; of the first wrong one. examples/testing/exit-status.toml expects 0.

CHROUT   = $FFD2
ST       = $90                    ; the KERNAL's status byte: the exit status on return

*=$0801
         byte $0b,$08,$0a,$00,$9e,"2064",$00,$00,$00

*=$0810
main     ldy #0                   ; the case number, counted from 0
@case    lda cases,y              ; each case: A, X, the product's low and high byte
         beq @passed              ; A = 0 ends the list
         ldx cases+1,y
         jsr mul8
         lda result
         cmp cases+2,y
         bne @failed
         lda result+1
         cmp cases+3,y
         bne @failed
         tya
         clc
         adc #4
         tay
         bne @case
@passed  lda #0
         sta ST
         rts
@failed  tya                      ; the case's number, counted from 1
         lsr
         lsr
         clc
         adc #1
         sta ST
         rts

cases    byte 12,10,120,0
         byte 255,255,$01,$fe
         byte 16,16,0,1
         byte 0

; mul8: A times X; the product in result (low byte first). As in mul.asm.
mul8     sta factor
         stx bits
         lda #0
         ldx #8
@round   lsr bits
         bcc @shift
         clc
         adc factor
@shift   ror a
         ror result
         dex
         bne @round
         sta result+1
         rts

factor   byte 0
bits     byte 0
result   byte 0,0
