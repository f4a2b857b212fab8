; ============================================================================
; RYG3 - mouse and cats, versions 09 / 10 / 11 (clean-room, from ryg3.md)
; main.asm: constants, memory map, BASIC stub, main loop, start-up, commands.
; VERSION (9, 10 or 11) is set by the version file assembled before this one.
; Spec section numbers (ryg3.md) are given as "S4", "S5.2" etc.
; ============================================================================

; ---- KERNAL ---------------------------------------------------------------
CHROUT   = $FFD2
GETIN    = $FFE4
LINNUM   = $14          ; .Tn copies this byte into max_depth (S5.2.1 quirk)

; ---- key / character codes ----------------------------------------------
K_RETURN = 13
K_DEL    = 20
K_SPACE  = $20
K_DOT    = $2E
K_COMMA  = $2C
K_COLON  = $3A
K_1      = $31
K_A      = $41
K_B      = $42
K_C      = $43
K_D      = $44
K_E      = $45
K_F      = $46
K_G      = $47
K_H      = $48
K_M      = $4D
K_N      = $4E
K_O      = $4F
K_Q      = $51
K_S      = $53
K_T      = $54
K_U      = $55
K_X      = $58

; ---- per-version constants (S15, toml [versions.*], [layout.*]) ----------
  if VERSION = 9
DEF_DEPTH = 4
FM_OFF   = 200          ; flat offsets (toml [layout.v09]); no score array
GF_OFF   = 220
GT_OFF   = 320
IB_OFF   = 420
COL_OFF  = 484
ROW_OFF  = 548
  else
DEF_DEPTH = 10
FM_OFF   = 300          ; flat offsets (toml [layout.v10_v11])
GF_OFF   = 320
GT_OFF   = 420
IB_OFF   = 520
COL_OFF  = 584
ROW_OFF  = 648
  endif

; ---- zero page (only locations free while a machine-code program runs) ---
PH       = $FB          ; ptr: key/eval page of a piece, lo byte always $00 (hash)
PL       = $FD          ; ptr: same page, lo byte always $40 (lock)
PE       = $22          ; ptr: same page, lo byte always $80 (eval contribution)
PQ       = $24          ; ptr: eval page of an overwritten piece (lo $80)
PHI      = $26          ; ptr: history row (v11)
SPTR     = $28          ; ptr: string / fill pointer
RJ       = $02          ; reorder: index j
GBITS    = $2A          ; gen: occupied squares of the row not yet visited
PLY      = $4B          ; search ply / make counter
HPLY     = $4C          ; game record length
SIDE     = $4D          ; side to move: 0 mouse, 1 cats
CHASH    = $4E          ; maintained hash key
CLOCK    = $4F          ; maintained lock key
EV       = $50          ; eval sum (mouse - cats, mod 256); eval() = EV + 128
DEP      = $51          ; search: remaining depth of the current node
MFROM    = $52          ; make_move arguments
MTO      = $53
GI       = $54          ; gen: next free list index
GSQ      = $55          ; gen: square of the piece being expanded
MPC      = $56          ; make/take: moving piece code
TBF      = $57          ; take_back: from
TBT      = $58          ; take_back: to
HF       = $59          ; lookup result: from
HT       = $5A          ; lookup result: to
TMP      = $5B
GROW     = $5C          ; gen: row being scanned
TMP2     = $5C          ; (init only; same byte as GROW)
CSIDE    = $5D          ; computer_side (6 = off)
MAXD     = $5E          ; max_depth
RC       = $5F          ; reorder: index c
RLAST    = $60          ; reorder: last

; ---- RAM tables at fixed addresses (all built by init; not in the file) ---
PAGES    = $4000        ; 6 pages: piece codes 0..4, then an all-zero page.
                        ; page p: +$00 hash_p[64], +$40 lock_p[64], +$80 eval_p[64]
ZPAGE    = $4500        ; the all-zero page (codes 5 and 7..255)
BOARD    = $4600        ; board[64] (+192 bytes padding)
PAGEOF   = $4700        ; 256: piece code -> high byte of its key/eval page
TM_FROM  = $4800        ; best-move table, mouse to move: from[256]
TM_TO    = $4900        ;   to[256]
TM_LOCK  = $4A00        ;   lock[256]
TC_FROM  = $4B00        ; best-move table, cats to move
TC_TO    = $4C00
TC_LOCK  = $4D00
ALPHA    = $4E00        ; per-remaining-depth search arrays (256 entries each)
BETA     = $4F00
SCORE    = $5000
BFROM    = $5100
BTO      = $5200
CIDX     = $5300
LIDX     = $5400
FLAT     = $5500        ; the flat list region of S14 (712 bytes, to $57C7)
H64LO    = $5800        ; v11: low/high byte of HIST + 64*sq
H64HI    = $5840
VARS     = $5900        ; non-zero-page variables (64 bytes)
OCCROW   = $5A00        ; 256: row of a square (8 = dummy row for bytes >= 64)
OCCBIT   = $5B00        ; 256: 1 << (sq AND 7)
OCCNBIT  = $5C00        ; 256: NOT OCCBIT
LSBIDX   = $5D00        ; 256: index of the lowest set bit
ROW8     = $5E00        ; 8: 8 * row
OCC      = $5E08        ; 9: occupancy bitmap per row (+ dummy row 8)
HIST     = $6000        ; v11: history[64][64], to $6FFF

; flat layout (S14, toml [layout.*]): every access is FLAT+offset + 8-bit index
MOVE_FROM  = FLAT
MOVE_TO    = FLAT+100
MOVE_SCORE = FLAT+200
FIRST_MOVE = FLAT+FM_OFF
GAME_FROM  = FLAT+GF_OFF
GAME_TO    = FLAT+GT_OFF
INIT_BOARD = FLAT+IB_OFF
COL        = FLAT+COL_OFF
ROW        = FLAT+ROW_OFF
FLAT_LEN   = 712        ; cleared at start (v09 uses the first 612)

; non-zero-page variables
NODES    = VARS+0       ; 4 bytes, little endian
COLL_M   = VARS+4       ; 2 bytes, collision counter mouse table
COLL_C   = VARS+6       ; 2 bytes, collision counter cats table
CMD1     = VARS+8       ; command buffer
CMD2     = VARS+9
CMD3     = VARS+10
CMD4     = VARS+11
SEL      = VARS+12      ; dispatch selector (cmd2, or cmd3 after .D/.T fall-through)
ITER     = VARS+13      ; think: iteration counter i
THD      = VARS+14      ; think: depth d of the current iteration
PVN      = VARS+15      ; PV walk: moves printed
UF       = VARS+16      ; typed move
UT       = VARS+17
EF       = VARS+18      ; reorder: saved entry
ET       = VARS+19
ES       = VARS+20
HX       = VARS+21      ; phex2 temp
PSA      = VARS+22      ; putc register save
PSX      = VARS+23
PSY      = VARS+24
SAVESP   = VARS+25      ; stack pointer at entry (for .Q)
DSIDE    = VARS+26      ; dumps
DX       = VARS+27
DTOT     = VARS+28
DCHK     = VARS+29
DF       = VARS+30
DT       = VARS+31
DL       = VARS+32
BDR      = VARS+33      ; board display: first square of the row
BDL      = VARS+34      ; board display: rank label byte
LMI      = VARS+35      ; .M index
LML      = VARS+36      ; .M last

; ============================================================================
; BASIC stub "10 SYS2080" at $0801 (F18), padding, code at $0820
; ============================================================================
*=$0801
         byte $0B,$08,$0A,$00,$9E,$32,$30,$38,$30,$00,$00,$00
         byte $00,$00,$00,$00,$00,$00,$00,$00,$00,$00
         byte $00,$00,$00,$00,$00,$00,$00,$00,$00

; ---- entry ($0820) ---------------------------------------------------------
start
         cld
         jsr init               ; (clears VARS, so SAVESP is taken afterwards)
         tsx
         stx SAVESP
; main loop (S2)
main_loop
         lda SIDE
         cmp CSIDE
         bne ml_human
         jsr computer_turn
ml_human
         jsr human_turn
         lda CMD1
         cmp #K_DOT
         bne main_loop
         lda CMD2
         cmp #K_Q
         bne main_loop
         ldx SAVESP
         txs
         rts                    ; back to BASIC

; ============================================================================
; start-up (S1 "setup"); also clears every RAM table so a second RUN starts fresh
; ============================================================================
init
         ; pointer low bytes that never change
         lda #$00
         sta PH
         lda #$40
         sta PL
         lda #$80
         sta PE
         sta PQ
         ; clear $4000-$57FF (pages, board, tables, depth arrays, flat region)
         lda #>PAGES
         ldx #$18
         ldy #$00
         jsr fill
         ; best-move tables: every byte $FF (S11)
         lda #>TM_FROM
         ldx #6
         ldy #$FF
         jsr fill
  if VERSION = 11
         ; history table: all 0
         lda #>HIST
         ldx #$10
         ldy #$00
         jsr fill
         ; H64LO/HI[sq] = HIST + 64*sq
         ldx #0
         lda #<HIST
         sta TMP
         lda #>HIST
         sta TMP2
in_h64
         lda TMP
         sta H64LO,x
         lda TMP2
         sta H64HI,x
         lda TMP
         clc
         adc #64
         sta TMP
         bcc in_h64b
         inc TMP2
in_h64b
         inx
         cpx #64
         bne in_h64
  endif
         ; piece pages: keys and eval contributions for codes 0..4
         ldx #63
in_pg
         lda D_HASH_M,x
         sta PAGES+$000,x
         lda D_HASH_C1,x
         sta PAGES+$100,x
         lda D_HASH_C2,x
         sta PAGES+$200,x
         lda D_HASH_C3,x
         sta PAGES+$300,x
         lda D_HASH_C4,x
         sta PAGES+$400,x
         lda D_LOCK_M,x
         sta PAGES+$040,x
         lda D_LOCK_C1,x
         sta PAGES+$140,x
         lda D_LOCK_C2,x
         sta PAGES+$240,x
         lda D_LOCK_C3,x
         sta PAGES+$340,x
         lda D_LOCK_C4,x
         sta PAGES+$440,x
         lda D_EVAL_M,x         ; mouse: + rank
         sta PAGES+$080,x
         lda #0                 ; cats: - table value
         sec
         sbc D_EVAL_C1,x
         sta PAGES+$180,x
         lda #0
         sec
         sbc D_EVAL_C2,x
         sta PAGES+$280,x
         lda #0
         sec
         sbc D_EVAL_C3,x
         sta PAGES+$380,x
         lda #0
         sec
         sbc D_EVAL_C4,x
         sta PAGES+$480,x
         ; flat region: initial board, column and row tables
         lda D_INITB,x
         sta INIT_BOARD,x
         lda D_COL,x
         sta COL,x
         lda D_ROW,x
         sta ROW,x
         dex
         bpl in_pg
         ; PAGEOF: codes 0..4 -> own page, everything else -> the zero page
         ldx #0
in_po
         lda #>ZPAGE
         cpx #5
         bcs in_po2
         txa
         clc
         adc #>PAGES
in_po2
         sta PAGEOF,x
         inx
         bne in_po
         ; occupancy helper tables
         ldx #0
in_occ
         txa
         lsr
         lsr
         lsr
         cpx #64
         bcc in_occ1
         lda #8
in_occ1
         sta OCCROW,x
         txa
         and #7
         tay
         lda #1
in_occ2
         dey
         bmi in_occ3
         asl
         jmp in_occ2
in_occ3
         sta OCCBIT,x
         eor #$FF
         sta OCCNBIT,x
         inx
         bne in_occ
         stx LSBIDX             ; (entry 0 is never used)
         inx
in_lsb
         txa
         ldy #0
in_lsb2
         lsr
         bcs in_lsb3
         iny
         bne in_lsb2
in_lsb3
         tya
         sta LSBIDX,x
         inx
         bne in_lsb
         ldx #7
in_row8
         txa
         asl
         asl
         asl
         sta ROW8,x
         dex
         bpl in_row8
         ; variables
         ldx #0
         txa
in_vars
         sta VARS,x
         inx
         cpx #64
         bne in_vars
         lda #0
         sta CHASH              ; keys start at 0/0, not the start position's
         sta CLOCK
         lda #DEF_DEPTH
         sta MAXD
         jsr new_game           ; board, side, ply, hply, first_move[0], gen
         rts                    ; (new_game also set computer_side = 6)

; fill X pages from page A with byte Y
fill
         sta SPTR+1
         lda #0
         sta SPTR
         tya
         ldy #0
fi_loop
         sta (SPTR),y
         iny
         bne fi_loop
         inc SPTR+1
         dex
         bne fi_loop
         rts

; ============================================================================
; new game (S7.2)
; ============================================================================
new_game
         lda #6
         sta CSIDE
         ldx #63
ng_copy
         lda INIT_BOARD,x
         sta BOARD,x
         dex
         bpl ng_copy
         jsr recompute_ev
         jsr occ_rebuild
         lda #0
         sta SIDE
         sta PLY
         sta HPLY
         sta FIRST_MOVE
         jmp gen

; ============================================================================
; result check (S7.1)
; ============================================================================
result_check
         lda SIDE
         bne rc_cats
         lda FIRST_MOVE+1
         bne rc_ret
         lda #<S_CATSWIN
         ldy #>S_CATSWIN
         jsr prstr
         jmp new_game
rc_cats
         ldx #56
rc_scan
         lda BOARD,x
         beq rc_mw
         inx
         cpx #64
         bne rc_scan
         beq rc_two
rc_mw
         lda #<S_MOUSEWIN
         ldy #>S_MOUSEWIN
         jsr prstr
         jsr new_game
rc_two
         lda FIRST_MOVE+1
         bne rc_ret
         lda #<S_MOUSEWIN
         ldy #>S_MOUSEWIN
         jsr prstr
         jmp new_game
rc_ret
         rts

; ============================================================================
; computer turn (S6)
; ============================================================================
computer_turn
         jsr think
         jsr full_keys
         jsr lookup
         bcs ct_hit
         lda #<S_NOLEGAL
         ldy #>S_NOLEGAL
         jsr prstr
         lda #6
         sta CSIDE
         jsr regen0
         jmp board_display
ct_hit
         lda #<S_COMPMOVE
         ldy #>S_COMPMOVE
         jsr prstr
         lda HF
         sta MFROM
         jsr pname
         lda HT
         sta MTO
         jsr pname
         lda #K_RETURN
         jsr putc
         jsr make_move
         jsr regen0
         jsr board_display
         jmp result_check

; ply = 0, first_move[0] = 0, generate the moves of the side to move
regen0
         lda #0
         sta PLY
         sta FIRST_MOVE
         jmp gen

; ============================================================================
; human turn: read a line, dispatch (S5)
; ============================================================================
human_turn
         jsr read_command
         lda CMD1
         cmp #K_DOT
         beq ht_dot
         jmp move_input
ht_dot
         lda CMD2
         sta SEL
         cmp #K_B
         bne ht_g
         jmp board_display
ht_g
         cmp #K_G
         bne ht_h
         lda #<S_GO
         ldy #>S_GO
         jsr prstr
         lda SIDE
         sta CSIDE
         rts
ht_h
         cmp #K_H
         bne ht_m
         lda #<S_HELP
         ldy #>S_HELP
         jmp prstr
ht_m
         cmp #K_M
         bne ht_n
         jmp list_moves
ht_n
         cmp #K_N
         bne ht_o
         lda #<S_NEWGAME
         ldy #>S_NEWGAME
         jsr prstr
         jmp new_game
ht_o
         cmp #K_O
         bne ht_q
         lda #<S_OFF
         ldy #>S_OFF
         jsr prstr
         lda #6
         sta CSIDE
         rts
ht_q
         cmp #K_Q
         bne ht_d
         lda #<S_QUIT
         ldy #>S_QUIT
         jmp prstr              ; the main loop then ends the program
ht_d
         cmp #K_D
         bne ht_t
         lda CMD3
         cmp #$31
         bcc ht_d_bad
         cmp #$3A
         bcs ht_d_bad
         sec
         sbc #$30
         sta MAXD
         lda #<S_SETDEPTH
         ldy #>S_SETDEPTH
         jmp prstr
ht_d_bad
         lda CMD3               ; fall-through quirk: continue with cmd3
         sta SEL
ht_t
         lda SEL
         cmp #K_T
         bne ht_s
         lda CMD3
         cmp #$31
         bcc ht_t_bad
         cmp #$3A
         bcs ht_t_bad
         lda #<S_SETTIME
         ldy #>S_SETTIME
         jsr prstr
         lda LINNUM             ; the original loads zero-page $14, not #20
         sta MAXD
         rts
ht_t_bad
         lda CMD3
         sta SEL
ht_s
         lda SEL
         cmp #K_S
         bne ht_u
         lda #<S_SWITCH
         ldy #>S_SWITCH
         jsr prstr
         lda SIDE
         eor #1
         sta SIDE
         rts
ht_u
         cmp #K_U
         bne ht_e
         lda #<S_UNDO
         ldy #>S_UNDO
         jsr prstr
         lda HPLY
         beq ht_u_ret
         lda #6
         sta CSIDE
         jsr take_back
         jmp regen0
ht_u_ret
         rts
ht_e
         cmp #K_E
         bne ht_f
         jmp dump_tables
ht_f
  if VERSION = 11
         cmp #K_F
         bne ht_move
         jmp dump_history
  endif
ht_move
         jmp move_input

; ============================================================================
; move input (S5.4)
; ============================================================================
move_input
         lda CMD1
         sec
         sbc #K_A
         cmp #8
         bcs mi_illegal
         sta UF
         lda CMD3
         sec
         sbc #K_A
         cmp #8
         bcs mi_illegal
         sta UT
         lda CMD2
         sec
         sbc #K_1
         cmp #8
         bcs mi_illegal
         asl
         asl
         asl
         ora UF
         sta UF
         lda CMD4
         sec
         sbc #K_1
         cmp #8
         bcs mi_illegal
         asl
         asl
         asl
         ora UT
         sta UT
         ; legality: regenerate at ply 0 and look the move up (do-while, S14.1)
         jsr regen0
         lda FIRST_MOVE+1
         sta TMP
         ldx #0
mi_scan
         lda MOVE_FROM,x
         cmp UF
         bne mi_next
         lda MOVE_TO,x
         cmp UT
         beq mi_found
mi_next
         inx
         cpx TMP
         bne mi_scan
mi_illegal
         lda #<S_ILLEGAL
         ldy #>S_ILLEGAL
         jmp prstr
mi_found
         lda UF
         sta MFROM
         lda UT
         sta MTO
         jsr make_move
         lda UF
         jsr pname
         lda UT
         jsr pname
         lda #K_RETURN
         jsr putc
         jsr regen0
         jmp result_check

; end of main.asm
