; Directives and expressions of the CBM prg Studio dialect (from kit/asm's tests).
base = $1234
VERSION = 3
DEBUG = 1
  Other EQU 7
*=$0801
 byte $0b,$08,$0a,$00,$9e,$32,$30,$36,$34,0,0,0
*=$0810
start lda #<base
 ldx #>base+1
 Operator Calc
 byte >base*2, <base/2
 operator hilo
 word base*2, base/2, *
 text "hello, world 64!",13,'Ab'
 null "ok"
 lda ($fb),y
 sta ($fb,x)
 jmp ($0314)
 lda (2+3)*2
 lax $10
 sax $1234
 dcp $10,x
 anc #1
 SETCOLOR 0, $d020
 WAIT 3
 if VERSION = 3
 byte 3
 else
 byte 0
 endif
 if VERSION <> 3
 byte 1
 endif
 ifdef DEBUG
 byte 1
 endif
 ifndef NOPE
 byte 2
 endif
 repeat 1, 2, row
 repeat 0, 1, col
 byte row*10+col
 endrepeat
 endrepeat
 repeat 0, 3, index
table_index byte index*2
 endrepeat
first ldx #2
@loop dex
 bne @loop
 beq @done
 nop
@done rts
 align 4,$ff
 bne *
defm SETCOLOR
 lda #/1
 sta /2
 endm
defm WAIT
 ldx #/1
@loop dex
 bne @loop
 endm
 byte %1010, 10, "a", '.', -1
 dc.b 4
 dc.w 3
 incbin "glyph.bin"
 incasm "consts.asm"
