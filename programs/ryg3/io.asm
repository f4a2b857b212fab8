; ============================================================================
; io.asm: character output, line editor, board display, move list, dumps
; (S3, S4, S5.3, S8, S13)
; ============================================================================

; putc: CHROUT, preserving A, X and Y
putc
         sta PSA
         stx PSX
         sty PSY
         jsr CHROUT
         lda PSA
         ldx PSX
         ldy PSY
         rts

; prstr: print the 0-terminated string at A (lo) / Y (hi); X preserved
prstr
         sta SPTR
         sty SPTR+1
         ldy #0
ps_loop
         lda (SPTR),y
         beq ps_ret
         jsr putc
         iny
         bne ps_loop
ps_ret
         rts

; phex2: two hex digits of A; X preserved
phex2
         sta HX
         lsr
         lsr
         lsr
         lsr
         tay
         lda HEXD,y
         jsr putc
         lda HX
         and #15
         tay
         lda HEXD,y
         jmp putc

; pname: square name of A ("E1"); nothing if A >= 64. Letter and digit are
; looked up through the (overwritable) column and row tables (S0).
pname
         cmp #64
         bcs pn_ret
         tax
         ldy COL,x
         lda LBYTES,y
         jsr putc
         ldy ROW,x
         lda LBYTES+8,y
         jsr putc
pn_ret
         rts

; getkey: poll GETIN until a non-zero byte arrives
getkey
         jsr GETIN
         cmp #0
         beq getkey
         rts

; ----------------------------------------------------------------------------
; read_command (S4): prompt, 5-state line editor, buffer CMD1..CMD4
; ----------------------------------------------------------------------------
read_command
         lda #0
         sta CMD1
         sta CMD2
         sta CMD3
         sta CMD4
         lda #<S_PROMPT
         ldy #>S_PROMPT
         jsr prstr
rd_st1
         jsr getkey
         cmp #K_DEL
         beq rd_st1             ; DEL ignored, not echoed
         sta CMD1
         jsr putc
         cmp #K_RETURN
         beq rd_done
rd_st2
         jsr getkey
         sta CMD2
         jsr putc
         cmp #K_DEL
         beq rd_st1
         cmp #K_RETURN
         beq rd_done
rd_st3
         jsr getkey
         sta CMD3
         jsr putc
         cmp #K_DEL
         beq rd_st2
         cmp #K_RETURN
         beq rd_done
rd_st4
         jsr getkey
         sta CMD4
         jsr putc
         cmp #K_DEL
         beq rd_st3
         cmp #K_RETURN
         beq rd_done
rd_st5
         jsr getkey
         cmp #K_DEL
         bne rd_end
         jsr putc               ; DEL echoed, back to state 4
         jmp rd_st4
rd_end
         lda #K_RETURN          ; any other key: echo RETURN, line finished
         jsr putc
rd_done
         rts

; ----------------------------------------------------------------------------
; board display (S8)
; ----------------------------------------------------------------------------
board_display
         lda #<S_LETTERS
         ldy #>S_LETTERS
         jsr prstr
         lda #56
         sta BDR
bd_row
         ldx BDR
         lda ROW,x
         clc
         adc #49
         sta BDL
         jsr putc
         lda #K_SPACE
         jsr putc
bd_sq
         lda BOARD,x
         beq bd_m
         cmp #5
         bcc bd_c
         cmp #6
         bne bd_nx              ; codes 5, 7..255 print nothing
         lda ROW,x
         clc
         adc COL,x
         and #1
         beq bd_x
         lda #K_DOT
         bne bd_put
bd_x
         lda #K_X
         bne bd_put
bd_m
         lda #K_M
         bne bd_put
bd_c
         lda #K_C
bd_put
         jsr putc
bd_nx
         inx
         txa
         and #7
         bne bd_sq
         lda #K_SPACE
         jsr putc
         lda BDL
         jsr putc
         lda #K_RETURN
         jsr putc
         lda BDR
         sec
         sbc #8
         sta BDR
         bcs bd_row
         lda #<S_LETTERS
         ldy #>S_LETTERS
         jsr prstr
         lda #<S_SIDE
         ldy #>S_SIDE
         jsr prstr
         lda #K_M
         ldx SIDE
         beq bd_side
         lda #K_C
bd_side
         jsr putc
         lda #<S_PLY
         ldy #>S_PLY
         jsr prstr
         lda PLY
         jsr phex2
         lda #<S_HPLY
         ldy #>S_HPLY
         jsr prstr
         lda HPLY
         jsr phex2
         lda #K_RETURN
         jsr putc
         lda #<S_HASH
         ldy #>S_HASH
         jsr prstr
         lda CHASH
         jsr phex2
         lda #<S_LOCK
         ldy #>S_LOCK
         jsr prstr
         lda CLOCK
         jsr phex2
         lda #<S_EVAL
         ldy #>S_EVAL
         jsr prstr
         lda EV
         eor #$80
         jsr phex2
         lda #K_RETURN
         jsr putc
         jmp putc

; ----------------------------------------------------------------------------
; .M (S5.3): entries first_move[0] .. first_move[1]-1 (do-while, S14.1)
; ----------------------------------------------------------------------------
list_moves
         lda FIRST_MOVE
         sta LMI
         lda FIRST_MOVE+1
         sta LML
lm_loop
         ldx LMI
         lda MOVE_FROM,x
         jsr pname
         ldx LMI
         lda MOVE_TO,x
         jsr pname
         inc LMI
         lda LMI
         cmp LML
         beq lm_end
         lda #K_COMMA
         jsr putc
         jmp lm_loop
lm_end
         lda #K_RETURN
         jmp putc

; ----------------------------------------------------------------------------
; .E (S13.1): both best-move tables
; ----------------------------------------------------------------------------
dump_tables
         lda #0
         sta DSIDE
dt_table
         lda #0
         sta DX
         sta DTOT
         sta DCHK
dt_loop
         ldy DX
         lda DSIDE
         bne dt_get_c
         lda TM_FROM,y
         sta DF
         lda TM_TO,y
         sta DT
         lda TM_LOCK,y
         sta DL
         jmp dt_got
dt_get_c
         lda TC_FROM,y
         sta DF
         lda TC_TO,y
         sta DT
         lda TC_LOCK,y
         sta DL
dt_got
         lda DF
         cmp #$FF
         beq dt_next
         lda DX
         jsr phex2
         lda #K_COLON
         jsr putc
         lda DF
         jsr pname
         lda DT
         jsr pname
         lda DL
         jsr phex2
         lda #K_COMMA
         jsr putc
         inc DTOT
         lda DF
         eor DT
         eor DL
         eor DCHK
         sta DCHK
dt_next
         inc DX
         bne dt_loop
         lda #K_RETURN
         jsr putc
         lda DSIDE
         bne dt_lbl_c
         lda #<S_MOUSELBL
         ldy #>S_MOUSELBL
         jsr prstr
         ldx #COLL_M-VARS
         jmp dt_lbl
dt_lbl_c
         lda #<S_CATSLBL
         ldy #>S_CATSLBL
         jsr prstr
         ldx #COLL_C-VARS
dt_lbl
         lda #K_COLON
         jsr putc
         lda DTOT
         jsr phex2
         lda #K_COMMA
         jsr putc
         lda VARS+1,x           ; collision counter, high byte first
         jsr phex2
         lda VARS,x
         jsr phex2
         lda #K_COMMA
         jsr putc
         lda DCHK
         jsr phex2
         lda #K_RETURN
         jsr putc
         inc DSIDE
         lda DSIDE
         cmp #2
         beq dt_ret
         jmp dt_table
dt_ret
         rts

  if VERSION = 11
; ----------------------------------------------------------------------------
; .F (S13.2, v11): history table
; ----------------------------------------------------------------------------
dump_history
         lda #0
         sta DF                 ; from
dh_from
         ldx DF
         lda H64LO,x
         sta PHI
         lda H64HI,x
         sta PHI+1
         lda #0
         sta DT                 ; to
dh_to
         ldy DT
         lda (PHI),y
         beq dh_next
         sta DL
         lda DF
         jsr pname
         lda DT
         jsr pname
         lda #K_COLON
         jsr putc
         lda DL
         jsr phex2
         lda #K_COMMA
         jsr putc
dh_next
         inc DT
         lda DT
         cmp #64
         bne dh_to
         inc DF
         lda DF
         cmp #64
         bne dh_from
         lda #<S_HISTLBL
         ldy #>S_HISTLBL
         jmp prstr
  endif

; end of io.asm
