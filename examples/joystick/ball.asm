; ball.asm: the ball: where it is, drawing it and moving it as the joystick says.

         incasm "c64.asm"

BALL     = $51                    ; screen code of a filled circle
ROW      = $fb                    ; zero page pointer to the ball's row in screen memory

; The ball's cell: column x, row y.
x        byte 20
y        byte 12

draw_ball
         jsr row_address
         ldy x
         lda #BALL
         sta (ROW),y
         rts

erase_ball
         jsr row_address
         ldy x
         lda #$20                 ; a space
         sta (ROW),y
         rts

; ROW = SCREEN + 40 * y.
row_address
         lda #<SCREEN
         sta ROW
         lda #>SCREEN
         sta ROW+1
         ldx y
         beq @done
@add     clc
         lda ROW
         adc #40
         sta ROW
         bcc @same
         inc ROW+1
@same    dex
         bne @add
@done    rts

; One cell in each direction pressed in `last`, staying on the screen.
step_ball
         jsr erase_ball
         lda last
         lsr                      ; up
         bcs @down
         ldx y
         beq @down
         dec y
@down    lsr
         bcs @left
         ldx y
         cpx #24
         beq @left
         inc y
@left    lsr
         bcs @right
         ldx x
         beq @right
         dec x
@right   lsr
         bcs @draw
         ldx x
         cpx #39
         beq @draw
         inc x
@draw    jmp draw_ball
