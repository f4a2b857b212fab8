; The VIC-II's picture, band by band. A stable raster-interrupt chain (no KERNAL: $01 = $35,
; our own vectors at $FFFA and $FFFE) splits the screen into six bands, each in its own mode
; with its own border and background colour:
;   rows  0-4   standard text; $D01E and $D01F, read every frame, shown as bits 7-0
;   rows  5-8   multicolour text (colour RAM 8-15 multicolour, 0-7 hires)
;   rows  9-12  extended background colour text
;   rows 13-16  hires bitmap
;   rows 17-21  multicolour bitmap
;   rows 22-24  standard text, 38 columns, XSCROLL changing every frame (a scroller)
; The top and bottom borders are open (RSEL cleared on line 249). Eight sprites: hires and
; multicolour, expanded in X or in X and Y, behind and in front of the graphics, sprite 4
; moving across X = 255/256, sprites 0 and 1 in the open bottom border, sprite 5 under the
; right border, overlapping each other (0 and 1, 2 and 3) and the graphics.
;
; Each split is written in the horizontal blanking between a band's last line and the next
; band's first line (a bad line). No sprite is fetched on the lines around a split, so the
; CPU's cycles there are the same every frame.

SCREEN   = $0400
COLOUR   = $D800
BITMAP   = $2000
SPRITE0  = 60                  ; the first shape's block: $0F00

FRAME_LINE  = 300              ; the frame's work, band 1's registers (out of sight)
BORDER_LINE = 249              ; RSEL off after line 247: the borders stay open
SPLITS   = 5                   ; bands 2-6 start by a split
; The split's delays (5 * loops - 1 cycles, plus pad cycles: 0 or 2 or more), found by
; tracing: $D012 is compared in the last cycle of line L+1 and $D018 written in cycle 54.
STABLE_LOOPS = 8
STABLE_PAD   = 3
SPLIT_LOOPS  = 14
SPLIT_PAD    = 3

; zero page (nothing else uses it: no KERNAL, no BASIC)
band     = $02                 ; the split that comes next, 0-4
save_a   = $03
save_x   = $04
save_y   = $05
tmp      = $06
xscroll  = $07                 ; band 6's XSCROLL, 7 down to 0
scroll   = $08                 ; the scroller's first character
s4x      = $09                 ; sprite 4's X, 2 bytes
s4right  = $0b                 ; sprite 4 moves right
ptr      = $0c                 ; 2 bytes
src      = $0e                 ; 2 bytes
count    = $10                 ; 2 bytes
cptr     = $12                 ; 2 bytes
row      = $14
col      = $15
pat      = $16                 ; 8 bytes: a bitmap cell's pattern

*=$0801
         byte $0b,$08,$0a,$00,$9e,"2064",$00,$00,$00

*=$0810
start    sei
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
         lda #0
         sta $d01a
         sta $d015
         lda $dd02                ; VIC bank 0 ($0000-$3FFF)
         ora #3
         sta $dd02
         lda $dd00
         ora #3
         sta $dd00
         jsr clear_bitmap
         jsr fill_text
         jsr fill_bitmaps
         jsr setup_sprites
         lda #8                   ; multicolour text %01 and ECM background 1
         sta $d022
         lda #12                  ; multicolour text %10 and ECM background 2
         sta $d023
         lda #13                  ; ECM background 3
         sta $d024
         lda #7
         sta xscroll
         lda #0
         sta scroll
         jsr draw_scroller
         lda #<frame_irq
         sta $fffe
         lda #>frame_irq
         sta $ffff
         lda #<FRAME_LINE
         sta $d012
         lda #$9b                 ; bit 7: line bit 8
         sta $d011
         lda #$ff
         sta $d019
         lda #1
         sta $d01a
         cli
main     jmp main                 ; everything happens in the interrupts

nmi      rti

; --- the interrupts -------------------------------------------------------------------

; A split, first half: on line L, with the CPU's usual jitter. Asks for an interrupt on
; line L+1 and waits for it in NOPs, so that one comes with at most a cycle's jitter.
split1   sta save_a
         stx save_x
         sty save_y
         lda #<split2
         sta $fffe
         lda #>split2
         sta $ffff
         ldx band
         lda splitline,x
         clc
         adc #1
         sta $d012
         lda #1
         sta $d019
         tsx
         cli
         nop
         nop
         nop
         nop
         nop
         nop
         nop
         nop
         nop
         nop
         nop
         nop
; Second half: drops its own stack frame, then takes the last cycle of jitter out by
; reading $D012 just as line L+1 ends.
split2   txs
         ldx #STABLE_LOOPS
@wait    dex
         bne @wait
WAIT_PAGE = 1 / (>@wait = >*)     ; a loop across a page would take longer
         if STABLE_PAD & 1
         bit tmp
         endif
         repeat (STABLE_PAD - 3 * (STABLE_PAD & 1)) / 2
         nop
         endrepeat
         lda $d012
         cmp $d012                ; still line L+1: one cycle early, the branch takes one more
         beq @stable
@stable  ldx band                 ; from here on the same cycle every frame
         lda d011tab,x
         sta @d011+1
         lda d016tab,x
         sta @d016+1
         ldy d020tab,x
         lda d021tab,x
         sta tmp
         lda d018tab,x
         ldx #SPLIT_LOOPS
@delay   dex
         bne @delay
DELAY_PAGE = 1 / (>@delay = >*)
         if SPLIT_PAD & 1
         bit tmp
         endif
         repeat (SPLIT_PAD - 3 * (SPLIT_PAD & 1)) / 2
         nop
         endrepeat
         ldx tmp
         sta $d018                ; cycle 54 of the band's last line: its last fetch is done
         stx $d021                ; 58: under the right border
         sty $d020                ; 62: the rest in the horizontal blanking
@d011    lda #0
         sta $d011
@d016    lda #0
         sta $d016                ; cycle 11 of the bad line, the last before BA holds the CPU
         lda #1
         sta $d019
         inc band
         ldx band
         cpx #SPLITS
         beq @last
         lda splitline,x
         sta $d012
         lda #<split1
         sta $fffe
         lda #>split1
         sta $ffff
         jmp irq_out
@last    lda #BORDER_LINE
         sta $d012
         lda #<border_irq
         sta $fffe
         lda #>border_irq
         sta $ffff
irq_out  ldy save_y
         ldx save_x
         lda save_a
         rti

; Line 249: RSEL off, so the border's compare with line 251 never matches (nor, in this
; frame, with 247, already past): the bottom border and the next top border stay open.
border_irq
         sta save_a
         lda #$93                 ; 24 rows; bit 7: line bit 8 of FRAME_LINE
         sta $d011
         lda #<FRAME_LINE
         sta $d012
         lda #<frame_irq
         sta $fffe
         lda #>frame_irq
         sta $ffff
         lda #1
         sta $d019
         lda save_a
         rti

; Line 300: band 1's registers, the frame's collisions on screen, sprite 4 and the scroller.
frame_irq
         sta save_a
         stx save_x
         sty save_y
         lda #0
         sta band
         lda splitline
         sta $d012
         lda #$1b                 ; 25 rows, text; line bit 8 clear
         sta $d011
         lda #$08
         sta $d016
         lda #$14                 ; screen $0400, characters $1000 (the ROM)
         sta $d018
         lda #14
         sta $d020
         lda #6
         sta $d021
         lda #<split1
         sta $fffe
         lda #>split1
         sta $ffff
         lda #1
         sta $d019
         lda $d01e                ; reading clears them: what this frame collided
         ldx #2*40+10
         jsr show_bits
         lda $d01f
         ldx #3*40+10
         jsr show_bits
         jsr move_sprite4
         jsr scroll_step
         jmp irq_out

; A as eight digits 0/1, bit 7 first, at SCREEN+X.
show_bits
         ldy #8
@bit     asl
         pha
         lda #$30
         adc #0
         sta SCREEN,x
         pla
         inx
         dey
         bne @bit
         rts

; Sprite 4 goes right and left between X 170 and 320, across 255/256 (the X MSB).
move_sprite4
         lda s4right
         beq @left
         clc
         lda s4x
         adc #2
         sta s4x
         lda s4x+1
         adc #0
         sta s4x+1
         beq @set
         lda s4x
         cmp #<320
         bcc @set
         lda #0
         sta s4right
         beq @set
@left    sec
         lda s4x
         sbc #2
         sta s4x
         lda s4x+1
         sbc #0
         sta s4x+1
         bne @set
         lda s4x
         cmp #170
         bcs @set
         lda #1
         sta s4right
@set     lda s4x
         sta $d008
         lda s4x+1
         beq @low
         lda #MSB|$10
         bne @msb
@low     lda #MSB
@msb     sta $d010
         rts

; XSCROLL one pixel left a frame; every eighth frame the text moves a character.
scroll_step
         dec xscroll
         bpl @fine
         lda #7
         sta xscroll
         inc scroll
         lda scroll
         cmp #MSGLEN
         bne @draw
         lda #0
         sta scroll
@draw    jsr draw_scroller
@fine    lda xscroll              ; 38 columns (CSEL clear)
         sta d016tab+SPLITS-1
         rts

; Rows 22-24: 120 characters of the message from `scroll` on, wrapping.
draw_scroller
         ldy scroll
         ldx #0
@char    lda message,y
         and #$3f
         sta SCREEN+22*40,x
         iny
         cpy #MSGLEN
         bne @next
         ldy #0
@next    inx
         cpx #120
         bne @char
         rts

; --- setting up -----------------------------------------------------------------------

; $2000-$3FFF: 0, so the open borders ($3FFF, the idle fetch) show the background.
clear_bitmap
         lda #<BITMAP
         sta ptr
         lda #>BITMAP
         sta ptr+1
         ldx #32
         lda #0
         tay
@byte    sta (ptr),y
         iny
         bne @byte
         inc ptr+1
         dex
         bne @byte
         rts

; Rows 0-12 from rowtext (screen codes: PETSCII AND $3F), with ECM bits on rows 10-12;
; colour RAM from rowcolour (bit 7: the rainbow across the row, ORed with bits 0-3).
fill_text
         lda #<rowtext
         sta src
         lda #>rowtext
         sta src+1
         lda #<SCREEN
         sta ptr
         lda #>SCREEN
         sta ptr+1
         lda #<COLOUR
         sta cptr
         lda #>COLOUR
         sta cptr+1
         lda #0
         sta row
@row     ldy #0
@char    lda (src),y
         and #$3f
         ldx row
         cpx #10
         bcc @plain
         ora ecm40,y
@plain   sta (ptr),y
         lda rowcolour,x
         bpl @colour
         and #$7f
         ora rainbow40,y
@colour  sta (cptr),y
         iny
         cpy #40
         bne @char
         ldx #src
         jsr add40
         ldx #ptr
         jsr add40
         ldx #cptr
         jsr add40
         inc row
         lda row
         cmp #13
         bne @row
         ldx #39                  ; the scroller's colours
@scroll  lda rainbow40,x
         sta COLOUR+22*40,x
         sta COLOUR+23*40,x
         sta COLOUR+24*40,x
         dex
         bpl @scroll
         rts

; Adds 40 to the zero-page pointer at X.
add40    clc
         lda 0,x
         adc #40
         sta 0,x
         bcc @done
         inc 1,x
@done    rts

; Rows 13-16 hires, 17-21 multicolour: a label from the character ROM on the first row of
; each, a pattern in every cell of the others, colours from the tables.
fill_bitmaps
         ldx #7
@hires   lda hirespat,x
         sta pat,x
         dex
         bpl @hires
         lda #<(BITMAP+14*320)
         sta ptr
         lda #>(BITMAP+14*320)
         sta ptr+1
         lda #<(3*320)
         sta count
         lda #>(3*320)
         sta count+1
         jsr fill_pattern
         ldx #7
@multi   lda multipat,x
         sta pat,x
         dex
         bpl @multi
         lda #<(BITMAP+18*320)
         sta ptr
         lda #>(BITMAP+18*320)
         sta ptr+1
         lda #<(4*320)
         sta count
         lda #>(4*320)
         sta count+1
         jsr fill_pattern
         lda #<hireslabel
         sta src
         lda #>hireslabel
         sta src+1
         lda #<(BITMAP+13*320)
         sta ptr
         lda #>(BITMAP+13*320)
         sta ptr+1
         jsr draw_label
         lda #<multilabel
         sta src
         lda #>multilabel
         sta src+1
         lda #<(BITMAP+17*320)
         sta ptr
         lda #>(BITMAP+17*320)
         sta ptr+1
         jsr draw_label
         ldx #39
@colours lda #$10                 ; the labels: white on black, black on the background
         sta SCREEN+13*40,x
         lda #0
         sta SCREEN+17*40,x
         sta COLOUR+17*40,x
         lda hires40,x
         sta SCREEN+14*40,x
         sta SCREEN+15*40,x
         sta SCREEN+16*40,x
         lda mcscreen40,x
         sta SCREEN+18*40,x
         sta SCREEN+19*40,x
         sta SCREEN+20*40,x
         sta SCREEN+21*40,x
         lda mccolour40,x
         sta COLOUR+18*40,x
         sta COLOUR+19*40,x
         sta COLOUR+20*40,x
         sta COLOUR+21*40,x
         dex
         bpl @colours
         rts

; count bytes from ptr (a cell boundary) with the 8-byte pattern at pat.
fill_pattern
         ldy #0
@byte    tya
         and #7
         tax
         lda pat,x
         sta (ptr),y
         iny
         bne @count
         inc ptr+1
@count   lda count
         bne @low
         dec count+1
@low     dec count
         lda count
         ora count+1
         bne @byte
         rts

; The 40 characters at src drawn into the bitmap row at ptr from the character ROM
; (seen by the CPU at $D000 while CHAREN is clear); spaces leave the pattern.
draw_label
         lda #$33
         sta $01
         lda #0
         sta col
@char    ldy col
         lda (src),y
         and #$3f
         cmp #$20
         beq @next
         ldx #0
         stx count+1
         asl
         rol count+1
         asl
         rol count+1
         asl
         rol count+1
         sta count
         lda count+1
         ora #$d0
         sta count+1
         ldy #7
@glyph   lda (count),y
         sta (ptr),y
         dey
         bpl @glyph
@next    clc
         lda ptr
         adc #8
         sta ptr
         bcc @col
         inc ptr+1
@col     inc col
         lda col
         cmp #40
         bne @char
         lda #$35
         sta $01
         rts

; Positions, colours, shapes and modes of the eight sprites.
MSB      = %00100000              ; sprite 5 at X 326
setup_sprites
         ldx #15
@pos     lda spritepos,x
         sta $d000,x
         dex
         bpl @pos
         ldx #7
@each    lda spritecolour,x
         sta $d027,x
         lda spriteshape,x
         sta SCREEN+$3f8,x
         dex
         bpl @each
         lda #MSB
         sta $d010
         lda #%01011010           ; multicolour: 1, 3, 4, 6
         sta $d01c
         lda #%11000011           ; X expanded: 0, 1, 6, 7
         sta $d01d
         lda #%00000001           ; Y expanded: 0
         sta $d017
         lda #%10000100           ; behind the graphics: 2, 7
         sta $d01b
         lda #1                   ; multicolour %01
         sta $d025
         lda #7                   ; multicolour %11
         sta $d026
         lda #170
         sta s4x
         lda #0
         sta s4x+1
         lda #1
         sta s4right
         lda #$ff
         sta $d015
         rts

; --- data -----------------------------------------------------------------------------

; The splits, bands 2-6: the line of the first interrupt (three before the band's last line)
; and the registers of the band. Within one page: indexed loads take no extra cycle.
         align 32
splitline byte 47+8*5,47+8*9,47+8*13,47+8*17,47+8*22
d011tab  byte $1b,$5b,$3b,$3b,$1b           ; text, ECM, bitmap, bitmap, text
d016tab  byte $18,$08,$08,$18,$07           ; multicolour, -, -, multicolour, 38 columns
d018tab  byte $14,$14,$18,$18,$14           ; characters at $1000 or bitmap at $2000
d020tab  byte 2,5,3,9,4                     ; borders: red, green, cyan, brown, purple
d021tab  byte 0,11,0,15,0                   ; backgrounds

;              X    Y
spritepos byte  60,240                      ; 0: hires, X+Y expanded, open bottom border
         byte 100,250                       ; 1: multicolour, X expanded, over 0
         byte 230, 56                       ; 2: hires, behind the text
         byte 240, 60                       ; 3: multicolour, over 2 and the text
         byte 170, 94                       ; 4: multicolour, moving in band 2
         byte 326-256,126                   ; 5: hires, under the right border
         byte  40,158                       ; 6: multicolour, X expanded, on the hires bitmap
         byte 150,192                       ; 7: hires, X expanded, behind multicolour bitmap
spritecolour byte 1,5,7,2,14,10,4,0
spriteshape byte SPRITE0,SPRITE0+1,SPRITE0+2,SPRITE0+1,SPRITE0+1,SPRITE0,SPRITE0+1,SPRITE0+3

hirespat byte $81,$42,$24,$18,$18,$24,$42,$81   ; an X in every cell
multipat byte $1b,$1b,$6c,$6c,$b1,$b1,$c6,$c6   ; four colours in diagonal stripes

; Colour RAM per text row 0-12 (bit 7: rainbow across the row).
rowcolour byte 1,15,7,7,13                  ; standard text
         byte 13,1,$88,15                   ; multicolour text: 8-15 multicolour
         byte 1,1,1,1                       ; ECM

; --- sprite shapes, blocks 60-63 -----------------------------------------------------

*=$0f00
; hires: a ring
shape_ball
         byte %00000000,%01111110,%00000000
         byte %00000001,%11111111,%10000000
         byte %00000111,%11111111,%11100000
         byte %00001111,%11111111,%11110000
         byte %00011111,%11111111,%11111000
         byte %00011111,%11111111,%11111000
         byte %00111111,%11111111,%11111100
         byte %00111111,%10000001,%11111100
         byte %00111111,%10000001,%11111100
         byte %00111111,%00000000,%11111100
         byte %01111111,%00000000,%11111110
         byte %00111111,%00000000,%11111100
         byte %00111111,%10000001,%11111100
         byte %00111111,%10000001,%11111100
         byte %00111111,%11111111,%11111100
         byte %00011111,%11111111,%11111000
         byte %00011111,%11111111,%11111000
         byte %00001111,%11111111,%11110000
         byte %00000111,%11111111,%11100000
         byte %00000001,%11111111,%10000000
         byte %00000000,%01111110,%00000000
         byte 0
; multicolour: a gem (%10 own colour, %01 $D025, %11 $D026)
shape_gem
         byte %00000000,%00101000,%00000000
         byte %00000000,%00101000,%00000000
         byte %00000000,%10101010,%00000000
         byte %00000000,%10101010,%00000000
         byte %00000010,%10010110,%10000000
         byte %00001010,%10010110,%10100000
         byte %00001010,%01010101,%10100000
         byte %00101001,%01111101,%01101000
         byte %00101001,%01111101,%01101000
         byte %10100101,%11111111,%01011010
         byte %10100101,%11111111,%01011010
         byte %10100101,%11111111,%01011010
         byte %00101001,%01111101,%01101000
         byte %00101001,%01111101,%01101000
         byte %00001010,%01010101,%10100000
         byte %00001010,%10010110,%10100000
         byte %00000010,%10010110,%10000000
         byte %00000000,%10101010,%00000000
         byte %00000000,%10101010,%00000000
         byte %00000000,%00101000,%00000000
         byte %00000000,%00101000,%00000000
         byte 0
; hires: a star
shape_star
         byte %11111000,%00111100,%00011111
         byte %11111100,%00111100,%00111111
         byte %01111110,%00111100,%01111110
         byte %00111111,%00111100,%11111100
         byte %00011111,%10111101,%11111000
         byte %00001111,%11111111,%11110000
         byte %00000111,%11111111,%11100000
         byte %00000011,%11111111,%11000000
         byte %00000001,%11111111,%10000000
         byte %11111111,%11111111,%11111111
         byte %11111111,%11111111,%11111111
         byte %11111111,%11111111,%11111111
         byte %00000001,%11111111,%10000000
         byte %00000011,%11111111,%11000000
         byte %00000111,%11111111,%11100000
         byte %00001111,%11111111,%11110000
         byte %00011111,%10111101,%11111000
         byte %00111111,%00111100,%11111100
         byte %01111110,%00111100,%01111110
         byte %11111100,%00111100,%00111111
         byte %11111000,%00111100,%00011111
         byte 0
; hires: stripes
shape_stripes
         byte %01111111,%11111111,%11111110
         byte %01111111,%11111111,%11111110
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %01111111,%11111111,%11111110
         byte %01111111,%11111111,%11111110
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %01111111,%11111111,%11111110
         byte %01111111,%11111111,%11111110
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %01111111,%11111111,%11111110
         byte %01111111,%11111111,%11111110
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %01111111,%11111111,%11111110
         byte %01111111,%11111111,%11111110
         byte %00000000,%00000000,%00000000
         byte %00000000,%00000000,%00000000
         byte %01111111,%11111111,%11111110
         byte 0

; --- text -------------------------------------------------------------------------------

; Rows 0-12, 40 characters each.
rowtext  text "vic-ii modes, sprites and raster splits "
         text "sprite    76543210     priority  sprites"
         text "d01e s-s  00000000     2 behind the text"
         text "d01f s-bg 00000000     3 in front of it "
         text "standard text         @@@@@@@@@@@@@@@@@ "
         text "multicolour text: colour ram 8-15       "
         text "hires chars in the same mode: ram 0-7   "
         text "abcdefghijklmnopqrstuvwxyz0123456789+-*/"
         text "sprite 4 crosses x 255 (the x msb)      "
         text "extended background colour mode         "
         text "bg $d021  bg $d022  bg $d023  $d024  @@@"
         text "four backgrounds by code bits 6-7    @@@"
         text "sprite 5 is under the right border   @@@"

hireslabel text "hires bitmap                            "
multilabel text "multicolour bitmap                      "

; The scroller's text, shown 120 characters at a time.
message  text "38 columns and xscroll: smooth scrolling in its own band. "
         text "the top and bottom borders are open; sprites 0 and 1 "
         text "show there. "
MSGLEN   = * - message

; colours across the row (ORed with 8: multicolour)
rainbow40
         byte $01,$07,$03,$05,$0d,$0a,$0f,$0e,$01,$07
         byte $03,$05,$0d,$0a,$0f,$0e,$01,$07,$03,$05
         byte $0d,$0a,$0f,$0e,$01,$07,$03,$05,$0d,$0a
         byte $0f,$0e,$01,$07,$03,$05,$0d,$0a,$0f,$0e
; extended background colour: bits 6-7 pick $D021-$D024, ten columns each
ecm40
         byte $00,$00,$00,$00,$00,$00,$00,$00,$00,$00
         byte $40,$40,$40,$40,$40,$40,$40,$40,$40,$40
         byte $80,$80,$80,$80,$80,$80,$80,$80,$80,$80
         byte $c0,$c0,$c0,$c0,$c0,$c0,$c0,$c0,$c0,$c0
; hires bitmap: pixel colour (high nibble) on black
hires40
         byte $40,$50,$60,$70,$10,$20,$30,$40,$50,$60
         byte $70,$10,$20,$30,$40,$50,$60,$70,$10,$20
         byte $30,$40,$50,$60,$70,$10,$20,$30,$40,$50
         byte $60,$70,$10,$20,$30,$40,$50,$60,$70,$10
; multicolour bitmap: %01 (high nibble) and %10 (low nibble) colours
mcscreen40
         byte $18,$18,$29,$29,$3a,$3a,$4b,$4b,$5c,$5c
         byte $6d,$6d,$7e,$7e,$1f,$1f,$28,$28,$39,$39
         byte $4a,$4a,$5b,$5b,$6c,$6c,$7d,$7d,$1e,$1e
         byte $2f,$2f,$38,$38,$49,$49,$5a,$5a,$6b,$6b
; multicolour bitmap: %11 colours (colour RAM)
mccolour40
         byte $02,$02,$02,$02,$05,$05,$05,$05,$06,$06
         byte $06,$06,$04,$04,$04,$04,$03,$03,$03,$03
         byte $07,$07,$07,$07,$01,$01,$01,$01,$0e,$0e
         byte $0e,$0e,$02,$02,$02,$02,$05,$05,$05,$05
