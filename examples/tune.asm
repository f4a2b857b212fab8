; tune.asm: a C major scale on the SID's voice 1, a quarter of a second a note, then
; silence and back to BASIC. Hear it as a WAV file:
;   c64kit asm examples/tune.asm -o tune.prg
;   c64kit run tune.prg --audio tune.wav

         incasm "lib/c64.asm"

FRAMES   = 12                     ; frames a note (50 a second on a PAL C64)
NOTES    = 8

*=$0801
         byte $0b,$08,$0a,$00,$9e,"2064",$00,$00,$00    ; 10 SYS2064

*=$0810
main
         lda #$0f                 ; volume 15, no filter
         sta SID+24
         lda #$09                 ; voice 1: attack 2 ms, decay 750 ms
         sta SID+5
         lda #$a4                 ; sustain 10 of 15, release 114 ms
         sta SID+6
         ldx #0
@note    lda freq_lo,x            ; the note's pitch
         sta SID+0
         lda freq_hi,x
         sta SID+1
         lda #$11                 ; triangle, gate on: the note starts
         sta SID+4
         ldy #FRAMES
         jsr wait_frames
         lda #$10                 ; gate off: the note fades
         sta SID+4
         ldy #2
         jsr wait_frames
         inx
         cpx #NOTES
         bne @note
         ldy #10                  ; let the last note fade out
         jsr wait_frames
         lda #0
         sta SID+24               ; silence
         rts

; Waits Y frames (line 250 each time).
wait_frames
@line    lda RASTER
         cmp #250
         bne @line
@pass    lda RASTER
         cmp #250
         beq @pass
         dey
         bne @line
         rts

; C4 D4 E4 F4 G4 A4 B4 C5 as the SID's frequency values on a PAL C64
; (value = Hz * 16777216 / 985248).
freq_lo  byte <4455,<5001,<5613,<5947,<6675,<7493,<8410,<8910
freq_hi  byte >4455,>5001,>5613,>5947,>6675,>7493,>8410,>8910
