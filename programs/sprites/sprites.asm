; A small sprite game: a ship (sprite 0, joystick 2 at $DC00: left/right/up/down, fire
; shoots sprite 7) among six multicolour rocks (sprites 1-6) that fall and drift every
; frame, their colours changing every frame. A rock that hits the ship ($D01E) costs a life:
; the border flashes and the ship blinks while it cannot be hit again; a shot rock scores 10.
; With no lives left the game starts again, so with no input at all it runs for ever (the
; rocks keep moving, the ship idles): a steady workload for `cargo xtask bench`.
; No KERNAL ($01 = $35) and no interrupts: each frame starts when the raster reaches line
; 251, below the last text line, so every sprite change happens out of sight.

SCREEN   = $0400
COLOUR   = $D800
SPRITE0  = 60                  ; the first shape's block: $0F00
ROCKS    = 6
FRAME_LINE = 251
FLASH    = 50                  ; frames the ship cannot be hit after a hit
SHOT_SPEED = 6                 ; the bullet's speed, pixels a frame

; zero page (no KERNAL, no BASIC)
frame    = $02
seed     = $03
lives    = $04
score    = $05                 ; 3 bytes, BCD, most significant first
safe     = $08                 ; frames left in which the ship cannot be hit
shipx    = $09                 ; 2 bytes
shipy    = $0b
shot     = $0c                 ; the bullet flies
bx       = $0d                 ; 2 bytes
by       = $0f
hits     = $10                 ; $D01E of the last frame
joy      = $11                 ; $DC00: a line reads 0 while pressed
msb      = $12
tmp      = $13                 ; 2 bytes

*=$0801
         byte $0b,$08,$0a,$00,$9e,"2064",$00,$00,$00

*=$0810
start    sei
         cld
         lda #$35                 ; RAM at $A000 and $E000, I/O at $D000
         sta $01
         lda #$7f                 ; no CIA interrupts
         sta $dc0d
         sta $dd0d
         lda $dc0d
         lda $dd0d
         lda #<nmi
         sta $fffa
         lda #>nmi
         sta $fffb
         lda #0                   ; CIA 1's ports read the joysticks, drive nothing
         sta $dc02
         sta $dc03
         sta $d01a
         lda $dd02                ; VIC bank 0
         ora #3
         sta $dd02
         lda $dd00
         ora #3
         sta $dd00
         lda #$1b
         sta $d011
         lda #$08
         sta $d016
         lda #$14                 ; screen $0400, characters $1000
         sta $d018
         lda #11
         sta $d020
         lda #0
         sta $d021
         lda #$5a
         sta seed
         jsr draw_screen
         jsr new_game
         ldx #ROCKS-1
@rocks   jsr new_rock
         lda rockstart,x          ; spread over the screen from the start
         sta rocky,x
         dex
         bpl @rocks
         lda #SPRITE0
         sta SCREEN+$3f8
         ldx #ROCKS
@shapes  lda #SPRITE0+1
         sta SCREEN+$3f8,x
         dex
         bne @shapes
         lda #SPRITE0+2
         sta SCREEN+$3ff
         lda #%01111111           ; all but the bullet are multicolour
         sta $d01c
         lda #0
         sta $d017
         sta $d01d
         sta $d01b
         lda #12                  ; %01: cockpit, spots
         sta $d025
         lda #9                   ; %11: engines, spots
         sta $d026
         lda #7
         sta $d02e                ; the bullet, yellow
         lda $d01e                ; forget collisions from before
main     jsr wait_frame
         lda $d01e                ; what the frame just drawn collided
         sta hits
         jsr shoot_rocks
         jsr ship_hit
         jsr joystick
         jsr move_shot
         jsr move_rocks
         jsr colours
         jsr set_sprites
         jsr show_score
         inc frame
         jmp main

nmi      rti

; Waits until the raster reaches FRAME_LINE ($D012 reads 251 on that line only: there is no
; line 507).
wait_frame
@leave   lda $d012
         cmp #FRAME_LINE
         beq @leave
@reach   lda $d012
         cmp #FRAME_LINE
         bne @reach
         rts

new_game lda #3
         sta lives
         lda #0
         sta score
         sta score+1
         sta score+2
         sta shot
         lda #172
         sta shipx
         lda #0
         sta shipx+1
         lda #220
         sta shipy
         lda #FLASH
         sta safe
         rts

; A shot rock (its bit and the bullet's in $D01E, and near the bullet) starts again at the
; top, and scores 10.
shoot_rocks
         lda shot
         beq @done
         bit hits
         bpl @done
         ldx #ROCKS-1
@rock    lda hits
         and rockbit,x
         beq @next
         jsr near_bullet
         bcc @next
         jsr new_rock
         lda #0
         sta shot
         sed
         clc
         lda score+2
         adc #$10
         sta score+2
         lda score+1
         adc #0
         sta score+1
         lda score
         adc #0
         sta score
         cld
         rts
@next    dex
         bpl @rock
@done    rts

; C set if rock X is within a sprite's size of the bullet.
near_bullet
         sec
         lda rocky,x
         sbc by
         bcs @dy
         eor #$ff
         adc #1
@dy      cmp #21
         bcs @far
         sec
         lda rockxl,x
         sbc bx
         sta tmp
         lda rockxh,x
         sbc bx+1
         bcs @right
         cmp #$ff                 ; left of the bullet: within 255 pixels?
         bne @far
         lda tmp
         eor #$ff
         adc #1
         jmp @dx
@right   bne @far
         lda tmp
@dx      cmp #24
         bcs @far
         sec
         rts
@far     clc
         rts

; A rock on the ship (not only the bullet) costs a life, unless the ship is still safe.
ship_hit lda safe
         beq @check
         dec safe
         rts
@check   lda hits
         lsr                      ; bit 0: the ship
         bcc @done
         and #%00111111           ; the rocks
         beq @done
         lda #FLASH
         sta safe
         dec lives
         bne @done
         jmp new_game
@done    rts

; Joystick 2 moves the ship 2 pixels a frame; fire shoots when no bullet flies.
joystick lda $dc00
         sta joy
         lsr
         bcs @down
         lda shipy
         cmp #60
         bcc @down
         dec shipy
         dec shipy
@down    lda joy
         and #2
         bne @left
         lda shipy
         cmp #228
         bcs @left
         inc shipy
         inc shipy
@left    lda joy
         and #4
         bne @right
         lda shipx+1
         bne @goleft
         lda shipx
         cmp #26
         bcc @right
@goleft  sec
         lda shipx
         sbc #2
         sta shipx
         bcs @right
         dec shipx+1
@right   lda joy
         and #8
         bne @fire
         lda shipx+1
         beq @goright
         lda shipx
         cmp #<320
         bcs @fire
@goright clc
         lda shipx
         adc #2
         sta shipx
         bcc @fire
         inc shipx+1
@fire    lda joy
         and #$10
         bne @done
         lda shot
         bne @done
         lda #1
         sta shot
         lda shipx
         sta bx
         lda shipx+1
         sta bx+1
         lda shipy
         sec
         sbc #8
         sta by
@done    rts

move_shot
         lda shot
         beq @done
         lda by
         sec
         sbc #SHOT_SPEED
         sta by
         cmp #40
         bcs @done
         lda #0
         sta shot
@done    rts

; Each rock falls 1-3 pixels a frame and drifts sideways, turning at the sides; below the
; screen it starts again at the top.
move_rocks
         ldx #ROCKS-1
@rock    lda rocky,x
         clc
         adc rockdy,x
         sta rocky,x
         bcs @again
         cmp #250
         bcc @side
@again   jsr new_rock
         jmp @next
@side    lda rockdx,x
         bmi @leftward
         clc
         adc rockxl,x
         sta rockxl,x
         bcc @right
         inc rockxh,x
@right   lda rockxh,x
         beq @next
         lda rockxl,x
         cmp #<320
         bcc @next
         bcs @turn
@leftward
         clc
         adc rockxl,x
         sta rockxl,x
         lda rockxh,x
         adc #$ff
         sta rockxh,x
         bne @next
         lda rockxl,x
         cmp #24
         bcs @next
@turn    lda rockdx,x
         eor #$ff
         clc
         adc #1
         sta rockdx,x
@next    dex
         bpl @rock
         rts

; Rock X at the top again, at a random X (24-279), drift and speed.
new_rock jsr random
         clc
         adc #24
         sta rockxl,x
         lda #0
         adc #0
         sta rockxh,x
         lda #30
         sta rocky,x
         jsr random
         and #3
         tay
         lda drifts,y
         sta rockdx,x
         jsr random
         and #3
         tay
         lda speeds,y
         sta rockdy,x
         rts

; An 8-bit Galois LFSR (taps $1D): never 0, period 255.
random   lda seed
         asl
         bcc @store
         eor #$1d
@store   sta seed
         rts

; Every rock a new colour every frame; the ship blinks and the border flashes after a hit.
colours  lda frame
         sta tmp
         ldx #ROCKS-1
@rock    lda tmp
         clc
         adc #3
         sta tmp
         and #15
         tay
         lda rockcolours,y
         sta $d028,x
         dex
         bpl @rock
         lda #13                  ; the ship: light green
         ldx safe
         beq @ship
         lda frame
         and #4
         beq @blink
         lda #2
         bne @ship
@blink   lda #1
@ship    sta $d027
         lda #11                  ; the border: dark grey, red for a moment after a hit
         ldx safe
         cpx #FLASH-10
         bcc @border
         lda #2
@border  sta $d020
         rts

; Positions (X MSBs gathered into $D010) and which sprites are on.
set_sprites
         lda #0
         sta msb
         lda bx
         sta $d00e
         lda by
         sta $d00f
         lda bx+1
         lsr
         rol msb
         ldx #ROCKS-1
@rock    txa
         asl
         tay
         lda rockxl,x
         sta $d002,y
         lda rocky,x
         sta $d003,y
         lda rockxh,x
         lsr
         rol msb
         dex
         bpl @rock
         lda shipx
         sta $d000
         lda shipy
         sta $d001
         lda shipx+1
         lsr
         rol msb
         lda msb
         sta $d010
         lda shot
         beq @off
         lda #$ff
         bne @on
@off     lda #$7f
@on      sta $d015
         rts

; "score 000000  lives 3" on the top line.
show_score
         ldx #0
         ldy #0
@byte    lda score,x
         lsr
         lsr
         lsr
         lsr
         ora #$30
         sta SCREEN+6,y
         lda score,x
         and #15
         ora #$30
         sta SCREEN+7,y
         iny
         iny
         inx
         cpx #3
         bne @byte
         lda lives
         ora #$30
         sta SCREEN+20
         rts

; The top line's text, and stars (dots in dark grey) from row 2 on.
draw_screen
         ldx #0
@clear   lda #$20
         sta SCREEN,x
         sta SCREEN+$100,x
         sta SCREEN+$200,x
         sta SCREEN+$2e8,x
         lda #12
         sta COLOUR,x
         sta COLOUR+$100,x
         sta COLOUR+$200,x
         sta COLOUR+$2e8,x
         inx
         bne @clear
         ldx #39
@title   lda title,x
         and #$3f                 ; PETSCII to screen codes
         sta SCREEN,x
         lda #1
         sta COLOUR,x
         dex
         bpl @title
         ldx #STAR_COUNT*2-2
@star    lda stars,x
         sta tmp
         lda stars+1,x
         sta tmp+1
         ldy #0
         lda #$2e
         sta (tmp),y
         dex
         dex
         bpl @star
         rts

title    text "score 000000  lives 3    c64kit sprites "

STAR_COUNT = 24                ; where they are (rows 2-24)
stars    word SCREEN+97,SCREEN+161,SCREEN+207,SCREEN+230,SCREEN+286,SCREEN+288
         word SCREEN+355,SCREEN+493,SCREEN+506,SCREEN+567,SCREEN+629,SCREEN+707
         word SCREEN+725,SCREEN+727,SCREEN+748,SCREEN+783,SCREEN+795,SCREEN+801
         word SCREEN+862,SCREEN+876,SCREEN+902,SCREEN+903,SCREEN+919,SCREEN+962
rockbit  byte 2,4,8,16,32,64
rockstart byte 30,70,110,150,190,230
drifts   byte $ff,1,$fe,2
speeds   byte 1,2,2,3
rockcolours byte 2,3,4,5,6,7,8,9,10,12,13,14,15,3,7,10

rockxl   byte 0,0,0,0,0,0
rockxh   byte 0,0,0,0,0,0
rocky    byte 0,0,0,0,0,0
rockdx   byte 0,0,0,0,0,0
rockdy   byte 0,0,0,0,0,0

; --- sprite shapes, blocks 60-62 -----------------------------------------------------

*=$0f00
; multicolour: the ship (%10 hull, %01 cockpit, %11 engines)
shape_ship
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00101000,%00000000
         byte %00000000,%00101000,%00000000
         byte %00000000,%00010100,%00000000
         byte %00000000,%10010110,%00000000
         byte %00000000,%10010110,%00000000
         byte %00000000,%10010110,%00000000
         byte %00000010,%10010110,%10000000
         byte %00000010,%10101010,%10000000
         byte %00001010,%10101010,%10100000
         byte %00001010,%10101010,%10100000
         byte %00001010,%10101010,%10100000
         byte %00101010,%10101010,%10101000
         byte %00101010,%10101010,%10101000
         byte %00101010,%10101010,%10101000
         byte %00000011,%11000011,%11000000
         byte %00000011,%11000011,%11000000
         byte %00000011,%11000011,%11000000
         byte 0
; multicolour: a rock (%10 rim in its own colour, %01/%11 spots)
shape_rock
         byte %00000000,%00101010,%00000000
         byte %00000000,%00101010,%00000000
         byte %00000000,%10100110,%10000000
         byte %00000010,%10110101,%10000000
         byte %00000010,%10110101,%10000000
         byte %00001010,%11110101,%10000000
         byte %00001001,%01010101,%10000000
         byte %00001001,%01010101,%10100000
         byte %00001001,%01010101,%11100000
         byte %00001001,%01010101,%11111000
         byte %00001001,%01011111,%01011000
         byte %00101001,%01011111,%01011000
         byte %00100101,%01011111,%01011000
         byte %00100101,%01011111,%01011000
         byte %00100111,%11110101,%01101000
         byte %00100111,%11110101,%01100000
         byte %00101011,%10100101,%10100000
         byte %00001010,%10101010,%10000000
         byte %00000000,%00001010,%10000000
         byte %00000000,%00000010,%00000000
         byte %00000000,%00000000,%00000000
         byte 0
; hires: the bullet
shape_bullet
         byte %00000000,%00011000,%00000000
         byte %00000000,%00011000,%00000000
         byte %00000000,%00011000,%00000000
         byte %00000000,%00011000,%00000000
         byte %00000000,%00011000,%00000000
         byte %00000000,%00011000,%00000000
         byte %00000000,%00011000,%00000000
         byte %00000000,%00011000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte 0
