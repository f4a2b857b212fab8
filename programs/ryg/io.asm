; ============================================================================
; io.asm: keyboard, strings, numbers, the title and the board.
; ============================================================================

; getkey: waits for a key (GETIN returns 0 while there is none) -> A
getkey
         jsr GETIN
         beq getkey
         rts

; print_str: prints the 0-terminated string at A (lo) / Y (hi); the strings hold their RETURNs
print_str
print_str_nocr
         sta STRP
         sty STRP+1
         ldy #0
@l       lda (STRP),y
         beq @r
         jsr CHROUT
         iny
         bne @l
@r       rts

; print_hex: A as two hex digits
print_hex
         pha
         lsr
         lsr
         lsr
         lsr
         tax
         lda HEXDIGITS,x
         jsr CHROUT
         pla
         and #$0F
         tax
         lda HEXDIGITS,x
         jmp CHROUT

; print_dec2: A (0..99) as two decimal digits
print_dec2
         ldx #K_0
@l       cmp #10
         bcc @d
         sbc #10
         inx
         bne @l
@d       pha
         txa
         jsr CHROUT
         pla
         ora #K_0
         jmp CHROUT

; the title line: version and tree base
print_title
         lda #<s_title
         ldy #>s_title
         jsr print_str
         lda #VERSION
         jsr print_dec2
         lda #<s_base
         ldy #>s_base
         jsr print_str
         lda #>TREEBASE
         jsr print_hex
         lda #<TREEBASE
         jsr print_hex
         lda #")"
         jsr CHROUT
         lda #CR
         jmp CHROUT

; print_board: header, rows 0..7 ("R" mouse, "G" cat, "." empty usable, " " unused),
; then "JUGADA: nn"
print_board
         lda #<s_header
         ldy #>s_header
         jsr print_str
         lda #0
         sta BROW
@row     lda BROW
         ora #K_0
         jsr CHROUT
         lda #K_SPACE
         jsr CHROUT
         lda #0
         sta BCOL
@col     lda BROW
         eor BCOL
         and #1
         bne @unused
         lda BROW
         asl
         asl
         asl
         ora BCOL
         cmp POS
         beq @mouse
         ldx #4
@c       cmp POS,x
         beq @cat
         dex
         bne @c
         lda #K_DOT
         bne @out
@unused  lda #K_SPACE
         bne @out
@mouse   lda #K_R
         bne @out
@cat     lda #K_G
@out     jsr CHROUT
         inc BCOL
         lda BCOL
         cmp #8
         bne @col
         lda #CR
         jsr CHROUT
         inc BROW
         lda BROW
         cmp #8
         bne @row
         lda #<s_level
         ldy #>s_level
         jsr print_str
         lda LEVEL
         jsr print_dec2
         lda #CR
         jmp CHROUT
