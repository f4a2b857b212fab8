; main.asm: a ball on the screen that joystick 2 moves; fire ends the program.
; Each change of the joystick is printed (UP, DOWN, LEFT, RIGHT, FIRE), so a run shows
; what the program saw:
;   c64kit asm examples/joystick/main.asm examples/joystick/ball.asm -I examples/lib \
;       -o joystick.prg --labels joystick.lbl
;   c64kit run joystick.prg --input "{JOY2 RIGHT 10f}{JOY2 DOWN 5f}{JOY2 FIRE}"

         incasm "c64.asm"

*=$0801
         byte $0b,$08,$0a,$00,$9e,"2064",$00,$00,$00    ; 10 SYS2064

*=$0810
main
         jsr draw_ball
         lda #$ff
         sta last
frame    lda RASTER               ; one step a frame: wait for line 250
         cmp #250
         bne frame
         lda JOY2
         and #$1f                 ; the five joystick lines
         cmp last
         beq move
         sta last
         jsr print_lines          ; the joystick changed: say what is pressed now
move     lda last
         and #$10
         beq done                 ; fire (a 0 bit) ends it
         jsr step_ball
@wait    lda RASTER               ; let line 250 pass before the next frame
         cmp #250
         beq @wait
         jmp frame
done     rts

; Prints the pressed lines of `last` (0 bits), as words, then RETURN.
print_lines
         ldx #0                   ; the line's bit
         ldy #0                   ; the word's first character in `words`
@line    lda last
         and bits,x
         bne @next
@char    lda words,y
         beq @next
         jsr CHROUT
         iny
         bne @char
@next    lda starts+1,x
         tay
         inx
         cpx #5
         bne @line
         lda #13
         jmp CHROUT

last     byte 0
bits     byte $01,$02,$04,$08,$10
starts   byte 0,w_down-words,w_left-words,w_right-words,w_fire-words
words    null "up "
w_down   null "down "
w_left   null "left "
w_right  null "right "
w_fire   null "fire "
