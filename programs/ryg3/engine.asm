; ============================================================================
; engine.asm: move generation, make/take back, keys, best-move tables,
; alpha-beta search with iterative deepening (S9 - S12)
; ============================================================================

; ----------------------------------------------------------------------------
; gen (S9.1): moves of SIDE at ply PLY, appended from first_move[ply];
; first_move[ply+1] = index after the last one (8-bit).
; Squares are visited in increasing order like a 0..63 scan, but only the
; occupied ones: OCC[row] has bit (sq AND 7) set iff board[sq] <> 6.
; ----------------------------------------------------------------------------
gen
         ldy PLY
         lda FIRST_MOVE,y
         sta GI
         ldy #0
         lda SIDE
         beq gm_row
         jmp gc_row
gen_end
         ldy PLY
         lda GI
         sta FIRST_MOVE+1,y
         rts

; ---- mouse to move: pieces with code 0; directions SW, SE, NE, NW
gm_row
         lda OCC,y
         bne gm_bits
gm_nextrow
         iny
         cpy #8
         bne gm_row
         beq gen_end
gm_bits
         sta GBITS
         sty GROW
gm_bit
         ldx GBITS
         lda LSBIDX,x
         ora ROW8,y
         tax                    ; x = square
         lda BOARD,x
         bne gm_clear           ; not the mouse
         stx GSQ
  if VERSION = 11
         lda H64LO,x
         sta PHI
         lda H64HI,x
         sta PHI+1
  endif
         ldy NB_SW,x
         cpy #255
         beq gm_d2
         lda BOARD,y
         cmp #6
         bne gm_d2
         jsr gen_add
gm_d2
         ldy NB_SE,x
         cpy #255
         beq gm_d3
         lda BOARD,y
         cmp #6
         bne gm_d3
         jsr gen_add
gm_d3
         ldy NB_NE,x
         cpy #255
         beq gm_d4
         lda BOARD,y
         cmp #6
         bne gm_d4
         jsr gen_add
gm_d4
         ldy NB_NW,x
         cpy #255
         beq gm_clear
         lda BOARD,y
         cmp #6
         bne gm_clear
         jsr gen_add
gm_clear
         ldy GROW
         ldx GBITS              ; clear the lowest set bit
         dex
         txa
         and GBITS
         sta GBITS
         bne gm_bit
         jmp gm_nextrow

; ---- cats to move: pieces with codes 1..5; directions SW, SE
gc_row
         lda OCC,y
         bne gc_bits
gc_nextrow
         iny
         cpy #8
         bne gc_row
         jmp gen_end
gc_bits
         sta GBITS
         sty GROW
gc_bit
         ldx GBITS
         lda LSBIDX,x
         ora ROW8,y
         tax                    ; x = square
         ldy BOARD,x
         dey
         cpy #5
         bcs gc_clear           ; not a code 1..5
         stx GSQ
  if VERSION = 11
         lda H64LO,x
         sta PHI
         lda H64HI,x
         sta PHI+1
  endif
         ldy NB_SW,x
         cpy #255
         beq gc_d2
         lda BOARD,y
         cmp #6
         bne gc_d2
         jsr gen_add
gc_d2
         ldy NB_SE,x
         cpy #255
         beq gc_clear
         lda BOARD,y
         cmp #6
         bne gc_clear
         jsr gen_add
gc_clear
         ldy GROW
         ldx GBITS              ; clear the lowest set bit
         dex
         txa
         and GBITS
         sta GBITS
         bne gc_bit
         jmp gc_nextrow

; add the move (GSQ, Y); X = GSQ on return
gen_add
         ldx GI
         lda GSQ
         sta MOVE_FROM,x
         tya
         sta MOVE_TO,x
  if VERSION = 10
         lda #0
         sta MOVE_SCORE,x
  endif
  if VERSION = 11
         lda (PHI),y            ; history[from][to]
         sta MOVE_SCORE,x
  endif
         inc GI
         ldx GSQ
         rts

; ----------------------------------------------------------------------------
; make_move(MFROM, MTO) (S9.2). Keys XOR-updated for the moving piece;
; EV updated incrementally (also for a piece overwritten at MTO).
; ----------------------------------------------------------------------------
make_move
         ldx HPLY
         lda MFROM
         sta GAME_FROM,x
         lda MTO
         sta GAME_TO,x
         inc PLY
         inc HPLY
         ldy MFROM
         ldx BOARD,y            ; p
         stx MPC
         lda PAGEOF,x
         sta PH+1
         sta PL+1
         sta PE+1
         lda (PH),y             ; hash ^= hash_p[from] ^ hash_p[to]
         ldy MTO
         eor (PH),y
         eor CHASH
         sta CHASH
         lda (PL),y             ; lock ^= lock_p[to] ^ lock_p[from]
         ldy MFROM
         eor (PL),y
         eor CLOCK
         sta CLOCK
         lda EV                 ; ev += eval_p[to] - eval_p[from]
         sec
         sbc (PE),y
         ldy MTO
         clc
         adc (PE),y
         sta EV
         ldx BOARD,y            ; q = piece overwritten at to (normally 6)
         cpx #6
         bne mm_q
mm_set                          ; Y = to
         lda MPC
         sta BOARD,y            ; board[to] = p
         cmp #6
         beq mm_o1
         ldx OCCROW,y           ; occupancy: to is occupied (unless p = 6)
         lda OCCBIT,y
         ora OCC,x
         sta OCC,x
mm_from
         ldy MFROM
         lda #6
         sta BOARD,y            ; board[from] = empty (last: from = to ends empty)
         ldx OCCROW,y
         lda OCCNBIT,y
         and OCC,x
         sta OCC,x
         lda SIDE
         eor #1
         sta SIDE
         rts
mm_o1
         ldx OCCROW,y
         lda OCCNBIT,y
         and OCC,x
         sta OCC,x
         jmp mm_from
mm_q
         lda PAGEOF,x
         sta PQ+1
         lda EV
         sec
         sbc (PQ),y
         sta EV
         jmp mm_set

; ----------------------------------------------------------------------------
; take_back (S9.3)
; ----------------------------------------------------------------------------
take_back
         lda SIDE
         eor #1
         sta SIDE
         dec PLY
         dec HPLY
         ldx HPLY
         lda GAME_FROM,x
         sta TBF
         ldy GAME_TO,x
         sty TBT
         ldx BOARD,y            ; p = board[to]
         stx MPC
         lda PAGEOF,x
         sta PH+1
         sta PL+1
         sta PE+1
         lda (PH),y             ; hash ^= hash_p[to] ^ hash_p[from]
         ldy TBF
         eor (PH),y
         eor CHASH
         sta CHASH
         lda (PL),y             ; lock ^= lock_p[from] ^ lock_p[to]
         ldy TBT
         eor (PL),y
         eor CLOCK
         sta CLOCK
         lda EV                 ; ev += eval_p[from] - eval_p[to]
         sec
         sbc (PE),y
         ldy TBF
         clc
         adc (PE),y
         sta EV
         ldx BOARD,y            ; q = board[from] (normally 6)
         cpx #6
         bne tb_q
tb_set                          ; Y = from
         lda MPC
         sta BOARD,y            ; board[from] = p
         cmp #6
         beq tb_o1
         ldx OCCROW,y           ; occupancy: from is occupied (unless p = 6)
         lda OCCBIT,y
         ora OCC,x
         sta OCC,x
tb_to
         ldy TBT
         lda #6
         sta BOARD,y            ; board[to] = empty (last)
         ldx OCCROW,y
         lda OCCNBIT,y
         and OCC,x
         sta OCC,x
         rts
tb_o1
         ldx OCCROW,y
         lda OCCNBIT,y
         and OCC,x
         sta OCC,x
         jmp tb_to
tb_q
         lda PAGEOF,x
         sta PQ+1
         lda EV
         sec
         sbc (PQ),y
         sta EV
         jmp tb_set

; ----------------------------------------------------------------------------
; full_keys (S10.2): CHASH/CLOCK from scratch
; ----------------------------------------------------------------------------
full_keys
         lda #0
         sta CHASH
         sta CLOCK
         tay
fk_loop
         ldx BOARD,y
         cpx #6
         beq fk_next
         lda PAGEOF,x
         sta PH+1
         sta PL+1
         lda (PH),y
         eor CHASH
         sta CHASH
         lda (PL),y
         eor CLOCK
         sta CLOCK
fk_next
         iny
         cpy #64
         bne fk_loop
         rts

; OCC from scratch (after the board was loaded)
occ_rebuild
         ldx #8
         lda #0
or_clr
         sta OCC,x
         dex
         bpl or_clr
         ldx #63
or_loop
         lda BOARD,x
         cmp #6
         beq or_next
         ldy OCCROW,x
         lda OCCBIT,x
         ora OCC,y
         sta OCC,y
or_next
         dex
         bpl or_loop
         rts

; EV from scratch (S10.1; eval() = EV + 128)
recompute_ev
         lda #0
         sta EV
         tay
re_loop
         ldx BOARD,y
         lda PAGEOF,x
         sta PE+1
         lda EV
         clc
         adc (PE),y
         sta EV
         iny
         cpy #64
         bne re_loop
         rts

; ----------------------------------------------------------------------------
; lookup (S11.2): table of SIDE, slot CHASH. Carry set = hit, HF/HT = move.
; ----------------------------------------------------------------------------
lookup
         ldx CHASH
         lda SIDE
         bne lk_cats
         lda TM_FROM,x
         cmp #$FF
         beq lk_miss
         sta HF
         lda TM_LOCK,x
         cmp CLOCK
         bne lk_miss
         lda TM_TO,x
         sta HT
         sec
         rts
lk_cats
         lda TC_FROM,x
         cmp #$FF
         beq lk_miss
         sta HF
         lda TC_LOCK,x
         cmp CLOCK
         bne lk_miss
         lda TC_TO,x
         sta HT
         sec
         rts
lk_miss
         clc
         rts

; ----------------------------------------------------------------------------
; store (S11.1): best move BFROM/BTO[X] into the table of SIDE at CHASH
; ----------------------------------------------------------------------------
store
         ldy CHASH
         lda SIDE
         bne st_cats
         lda TM_FROM,y
         cmp #$FF
         beq st_m
         inc COLL_M
         bne st_m
         inc COLL_M+1
st_m
         lda BFROM,x
         sta TM_FROM,y
         lda BTO,x
         sta TM_TO,y
         lda CLOCK
         sta TM_LOCK,y
         rts
st_cats
         lda TC_FROM,y
         cmp #$FF
         beq st_c
         inc COLL_C
         bne st_c
         inc COLL_C+1
st_c
         lda BFROM,x
         sta TC_FROM,y
         lda BTO,x
         sta TC_TO,y
         lda CLOCK
         sta TC_LOCK,y
         rts

; ----------------------------------------------------------------------------
; hash-move bonus (S12.4, v10/v11; assembled but never called in v09)
; ----------------------------------------------------------------------------
hash_bonus
         jsr lookup
         bcc hb_ret
         ldy PLY
         lda FIRST_MOVE+1,y
         sta TMP
         ldx FIRST_MOVE,y
hb_loop
         lda MOVE_FROM,x
         cmp HF
         bne hb_next
         lda MOVE_TO,x
         cmp HT
         bne hb_next
  if VERSION = 11
         lda #255               ; +255 saturating
  else
         lda MOVE_SCORE,x       ; +10 mod 256
         clc
         adc #10
  endif
         sta MOVE_SCORE,x
         rts
hb_next
         inx
         cpx TMP
         bne hb_loop
hb_ret
         rts

; ----------------------------------------------------------------------------
; reorder (S12.5, v10/v11; never called in v09): one pass over [c, last), c = CIDX[DEP]
; ----------------------------------------------------------------------------
reorder
         ldx DEP
         lda LIDX,x
         sta RLAST
         lda CIDX,x
         sta RC
         tax
         inx                    ; j = c + 1
         cpx RLAST
         beq ro_ret
         ldy RC
         lda MOVE_SCORE,y       ; A = score[c] (only a rotation changes it)
ro_loop
         cmp MOVE_SCORE,x
         bcc ro_rot             ; score[c] < score[j]
ro_next
         inx
         cpx RLAST
         bne ro_loop
         rts
ro_rot
         lda MOVE_FROM,x        ; e = entry j
         sta EF
         lda MOVE_TO,x
         sta ET
         lda MOVE_SCORE,x
         sta ES
         stx RJ
         txa
         tay
         dey                    ; Y = y - 1, X = y
ro_shift
         lda MOVE_FROM,y
         sta MOVE_FROM,x
         lda MOVE_TO,y
         sta MOVE_TO,x
         lda MOVE_SCORE,y
         sta MOVE_SCORE,x
         dey
         dex
         cpx RC
         bne ro_shift
         lda EF                 ; entry[c] = e
         sta MOVE_FROM,x
         lda ET
         sta MOVE_TO,x
         lda ES
         sta MOVE_SCORE,x       ; A = new score[c]
         ldx RJ
         jmp ro_next
ro_ret
         rts

; ----------------------------------------------------------------------------
; search (S12.2): remaining depth DEP; window ALPHA/BETA[DEP];
; result in SCORE[DEP]. Leaves (DEP = 0) are not counted.
; ----------------------------------------------------------------------------
search
         ldx DEP
         bne se_node
         lda EV
         eor #$80
         sta SCORE
         rts
se_node
         inc NODES
         bne se_n1
         inc NODES+1
         bne se_n1
         inc NODES+2
         bne se_n1
         inc NODES+3
se_n1
         lda #$FF
         sta BFROM,x
         sta BTO,x
         jsr gen
  if VERSION = 9
  else
         jsr hash_bonus
  endif
         ldx DEP
         ldy PLY
         lda FIRST_MOVE,y       ; bounds read after the bonus step (S14.1a)
         sta CIDX,x
         lda FIRST_MOVE+1,y
         sta LIDX,x
         cmp CIDX,x
         bne se_loop
         lda EV                 ; no move: score = eval, nothing stored
         eor #$80
         sta SCORE,x
         rts
se_loop
  if VERSION = 9
  else
         jsr reorder
         ldx DEP
  endif
         ldy CIDX,x
         lda MOVE_FROM,y
         sta MFROM
         lda MOVE_TO,y
         sta MTO
         jsr make_move
         ldx DEP
         lda ALPHA,x
         sta ALPHA-1,x
         lda BETA,x
         sta BETA-1,x
         dec DEP
         jsr search
         inc DEP
         jsr take_back
         ldx DEP
         lda SCORE-1,x          ; s = child's score
         ldy SIDE
         bne se_cats
         ; mouse node (maximiser)
         cmp ALPHA,x
  if VERSION = 9
         bcc se_m_no            ; improves if s >= alpha
  else
         beq se_m_no            ; improves if s > alpha
         bcc se_m_no
  endif
         sta ALPHA,x
         ldy CIDX,x
         lda MOVE_FROM,y
         sta BFROM,x
         lda MOVE_TO,y
         sta BTO,x
se_m_no
         lda ALPHA,x
         cmp BETA,x
         bcs se_done            ; alpha >= beta: cut-off
         bcc se_next
se_cats
         ; cats node (minimiser)
         cmp BETA,x
  if VERSION = 9
         beq se_c_imp           ; improves if s <= beta
         bcs se_c_no
  else
         bcs se_c_no            ; improves if s < beta
  endif
se_c_imp
         sta BETA,x
         ldy CIDX,x
         lda MOVE_FROM,y
         sta BFROM,x
         lda MOVE_TO,y
         sta BTO,x
se_c_no
         lda ALPHA,x
         cmp BETA,x
         bcs se_done            ; beta <= alpha: cut-off
se_next
         inc CIDX,x
         lda CIDX,x
         cmp LIDX,x
         beq se_done
         jmp se_loop
se_done
         lda SIDE
         bne se_sc_c
         lda ALPHA,x
         sta SCORE,x
         jmp se_store
se_sc_c
         lda BETA,x
         sta SCORE,x
se_store
         lda BFROM,x
         cmp #$FF
         beq se_ret
         jsr store
  if VERSION = 11
         ldx DEP                ; history[best] += d, saturating (S12.6)
         lda BFROM,x
         and #63
         tay
         lda H64LO,y
         sta PHI
         lda H64HI,y
         sta PHI+1
         ldy BTO,x
         lda (PHI),y
         clc
         adc DEP
         bcc se_h1
         lda #255
se_h1
         sta (PHI),y
  endif
se_ret
         rts

; ----------------------------------------------------------------------------
; think (S12.1, S12.7): iterative deepening with one iteration line and
; one PV line per depth
; ----------------------------------------------------------------------------
think
         lda #0
         sta PLY
         sta NODES
         sta NODES+1
         sta NODES+2
         sta NODES+3
         jsr full_keys
  if VERSION = 11
         lda #>HIST
         ldx #$10
         ldy #0
         jsr fill
  endif
         lda #0
         sta ITER
th_loop
         ldx ITER
         inx
         stx THD
         stx DEP
         lda #0
         sta ALPHA,x
         lda #255
         sta BETA,x
         jsr search
         ; "dd:nnnnnnnn,ss\r"
         lda THD
         jsr phex2
         lda #K_COLON
         jsr putc
         lda NODES+3
         jsr phex2
         lda NODES+2
         jsr phex2
         lda NODES+1
         jsr phex2
         lda NODES
         jsr phex2
         lda #K_COMMA
         jsr putc
         ldx THD
         lda SCORE,x
         jsr phex2
         lda #K_RETURN
         jsr putc
         ; principal variation, walked through the tables
         lda #0
         sta PVN
pv_loop
         jsr lookup
         bcs pv_hit
  if VERSION = 9
  else
         lda #<S_DOTS
         ldy #>S_DOTS
         jsr prstr
  endif
         jmp pv_back
pv_hit
         lda HF
         sta MFROM
         jsr pname
         lda HT
         sta MTO
         jsr pname
         jsr make_move
         inc PVN
         lda PVN
         cmp THD
         bcs pv_back            ; n >= d
         lda #K_COMMA
         jsr putc
         jmp pv_loop
pv_back
         lda PLY
         beq pv_done
         jsr take_back
         jmp pv_back
pv_done
         lda #K_RETURN
         jsr putc
         inc ITER
         lda ITER
         cmp MAXD
         beq th_ret
         jmp th_loop
th_ret
         rts

; end of engine.asm
