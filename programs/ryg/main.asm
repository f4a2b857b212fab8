; ============================================================================
; RYG (Raton y Gatos, mouse and cats) - first series, versions 15..19
; Clean-room implementation from shared/ryg/ryg1.md and published.md (F1-F9).
; main.asm: constants, memory map, BASIC stub, entry vectors, the game loop.
; VERSION (15..19) is set by the versionNN.asm file assembled before this one.
; ============================================================================

  ifndef VERSION
VERSION = 19            ; the default build (a build list without a version file)
  endif

; ---- KERNAL ---------------------------------------------------------------
CHROUT   = $FFD2
GETIN    = $FFE4
R6510    = $01          ; processor port: bit 0 LORAM (F6, F19)

; ---- PETSCII ----------------------------------------------------------------
CR       = 13           ; RETURN
K_DEL    = $14          ; DEL key / delete character
CLEFT    = $9D          ; cursor left
K_SPACE  = $20
K_DOT    = $2E
K_0      = $30
K_1      = $31
K_N      = $4E
K_S      = $53
K_R      = $52          ; 'R' mouse on the board
K_G      = $47          ; 'G' cat on the board

; ---- build option: the table "Versions" of ryg1.md --------------------------
  if VERSION >= 18
RECSIZE  = 29           ; compact record (F5)
MAXDEPTH = 4
  else
RECSIZE  = 88           ; 3-byte marker + 85-byte record (F4)
MAXDEPTH = 3
  endif
  if VERSION >= 16
MEMTOP   = $D000        ; BASIC ROM switched out: RAM runs on through $A000-$CFFF (F6)
  else
MEMTOP   = $A000        ; BASIC ROM in: the tree must stay below $A000
  endif

; ---- memory map ---------------------------------------------------------------
TREEBASE = $2000        ; the game tree: records from here on, one after another
WORK     = $1E00        ; per-ply work arrays (not in the file)
PLYNODELO = WORK        ; 16: record address of the node at ply p (lo)
PLYNODEHI = WORK+$10    ; 16: (hi)
PLYNCH   = WORK+$20     ; 16: number of children of that node
PLYCI    = WORK+$30     ; 16: child being visited
PLYPOS   = WORK+$40     ; 16*8: position of the node at ply p (mouse, cat0..cat3)
CD_REC   = WORK+$C0     ; 4: check_depth: worst-case record count (32-bit)
CD_PROD  = WORK+$C4     ; 4: records on the current level
CD_BYTES = WORK+$C8     ; 4: bytes
CD_DEP   = WORK+$CC     ; 1: depth being checked
CD_MUL   = WORK+$CD     ; 1: multiplier bits
DIGITS   = WORK+$D0     ; 2: the typed row and column

; record fields (both layouts)
R_MARK   = 0            ; 3 bytes $AA $AA $AA
R_LEVEL  = 3
R_TURN   = 4            ; $01 mouse to move, $FF cats to move
R_VALUE  = 5
R_PARENT = 6            ; lo, hi ($0000 = none)
R_CHILD  = 8            ; 8 x (lo, hi) ($0000 = none)
R_POS    = 24           ; 29: mouse, cat0..cat3 / 88: 64 squares ($00, $01 mouse, $FF cat)

; ---- zero page (free while a machine-code program runs without BASIC) -------
W0       = $4B          ; working position: W0 mouse, W1..W4 cats 0..3
W1       = $4C
W2       = $4D
W3       = $4E
W4       = $4F
PLY      = $50          ; ply of the node being visited (root = 0)
NCH      = $51          ; gen: children created so far
NLEVEL   = $52          ; record to write: level
NTURN    = $53          ;   turn
PARLO    = $54          ;   parent (lo)
PARHI    = $55          ;   parent (hi)
CTURN    = $56          ; turn of the node being expanded / minimaxed
VAL      = $57          ; eval / minimax accumulator
MROW     = $58          ; eval: mouse row
MINR     = $59          ; eval: min cat row
MAXR     = $5A          ; eval: max cat row
CNT      = $5B          ; move counter
GP       = $5C          ; gen: piece index
GS       = $5D          ; gen: step index
DEST     = $5E          ; destination square
PIECE    = $5F          ; make_child: piece index
SAVEW    = $60          ; make_child: the piece's old square
CI2      = $61          ; minimax / choose loop index
TMP      = $62
BROW     = $63          ; board print: row
BCOL     = $64          ;   column
NDIG     = $65          ; digits typed
PB       = $66          ; load_pos (88): 8 * ply
SQ       = $67          ; load_pos (88): square
NODE     = $FB          ; 2: record being expanded
CHILD    = $FD          ; 2: record being written / read
NEXT     = $22          ; 2: next free record address
STRP     = $24          ; 2: string pointer

; ---- BASIC stub (F18): 10 SYS2080 ----------------------------------------------
         *= $0801
         byte $0b,$08,$0a,$00,$9e,"2080",$00,$00,$00

; ---- entry vectors ($0820) ------------------------------------------------------
         *= $0820
         jmp start              ; $0820 SYS2080: the game
         jmp api_eval           ; $0823 evaluate POS -> RESULT
         jmp api_think          ; $0826 think on POS/LEVEL/DEPTH -> RESULT, BESTCAT, BESTDEST
         jmp api_checkdepth     ; $0829 A = depth -> RESULT 0 accepted / 1 refused
         jmp api_play           ; $082C play on from POS/LEVEL/DEPTH, the mouse to move

; ---- the game state, at fixed addresses (tests poke and read these) -------------
         *= $0830
POS      byte 59,0,2,4,6        ; $0830 mouse, cat 0, cat 1, cat 2, cat 3
LEVEL    byte 0                 ; $0835 half-moves played
DEPTH    byte 1                 ; $0836 search depth
RESULT   byte 0                 ; $0837 eval / root value / check result
BESTCAT  byte 0                 ; $0838 the cats' move: cat number ($FF none)
BESTDEST byte 0                 ; $0839   and destination
RECCOUNT word 0                 ; $083A records in the last tree
TREEEND  word 0                 ; $083C first address after the last tree
VERSIONB byte VERSION           ; $083E build version
RECSZ    byte RECSIZE           ; $083F record size
TREEB    word TREEBASE          ; $0840 tree base
MEMTOPW  word MEMTOP            ; $0842 end of the memory the tree may use
MAXDEP   byte MAXDEPTH          ; $0844 highest depth offered
SAVESP   byte 0                 ; $0845 stack pointer at entry

         *= $0850
; ============================================================================
; The game
; ============================================================================
start
         tsx
         stx SAVESP
         jsr mem_setup
         jsr print_title
newgame
         jsr ask_depth
         ldx #4
@init    lda STARTPOS,x
         sta POS,x
         dex
         bpl @init
         lda #0
         sta LEVEL
         jmp play

; play on from the position in POS (tests: poke POS/LEVEL/DEPTH, call $082C)
api_play
         tsx
         stx SAVESP
         jsr mem_setup
play
         jsr print_board
mouse_turn
         jsr ask_mouse          ; a legal mouse move, applied; LEVEL + 1
         jsr print_board
         lda POS                ; mouse on row 0: the mouse wins
         cmp #8
         bcc mouse_wins
         jsr pos_to_work
         jsr count_cat_moves    ; the cats cannot move: the mouse wins
         beq mouse_wins
cats_turn
         jsr cats_move          ; BESTCAT, BESTDEST (book or tree)
         lda #<s_gato
         ldy #>s_gato
         jsr print_str
         lda BESTCAT
         ora #K_0
         jsr CHROUT
         lda #":"
         jsr CHROUT
         lda #K_SPACE
         jsr CHROUT
         ldx BESTCAT
         lda POS+1,x
         jsr print_dec2
         lda #"-"
         jsr CHROUT
         lda BESTDEST
         jsr print_dec2
         lda #CR
         jsr CHROUT
         ldx BESTCAT            ; apply
         lda BESTDEST
         sta POS+1,x
         inc LEVEL
         jsr print_board
         jsr pos_to_work
         jsr count_mouse_moves  ; the mouse cannot move: the cats win
         bne mouse_turn
         lda #<s_cats_win
         ldy #>s_cats_win
         jsr print_str
         jmp again
mouse_wins
         lda #<s_mouse_win
         ldy #>s_mouse_win
         jsr print_str
again
         lda #<s_again
         ldy #>s_again
         jsr print_str
@key     jsr getkey
         cmp #K_S
         beq @yes
         cmp #K_N
         bne @key
         jsr CHROUT
         lda #CR
         jsr CHROUT
         lda R6510              ; BASIC ROM back in
         ora #$01
         sta R6510
         ldx SAVESP
         txs
         rts                    ; back to BASIC
@yes     jsr CHROUT
         lda #CR
         jsr CHROUT
         jmp newgame

; the cats' move into BESTCAT/BESTDEST: the opening book (v19, level < 8) or the tree
cats_move
  if VERSION >= 19
         lda LEVEL
         cmp #8
         bcs @search
         lsr                    ; level 1, 3, 5, 7 -> cat 0, 1, 2, 3 (F9)
         sta BESTCAT
         asl
         clc
         adc #9                 ; -> 9, 11, 13, 15
         sta BESTDEST
         rts
@search
  endif
         jmp think

; version 16 on: clear LORAM so $A000-$BFFF reads RAM (KERNAL and I/O stay) (F6)
mem_setup
  if VERSION >= 16
         lda R6510
         and #$FE
         sta R6510
  endif
         rts

; ---- depth prompt --------------------------------------------------------------
ask_depth
@prompt  lda #<s_depth
         ldy #>s_depth
         jsr print_str
         jsr getkey
         cmp #K_1
         bcc @bad
         cmp #K_1+MAXDEPTH
         bcs @bad
         jsr CHROUT             ; echo the digit
         and #$0F
         sta DEPTH
         lda #CR
         jsr CHROUT
         lda DEPTH
         jsr check_depth        ; refuses (and says so) if the tree could overrun memory
         bcs @prompt
         rts
@bad     lda #CR                ; any other key asks again
         jsr CHROUT
         jmp @prompt

; ---- the mouse's move: two digits (row, column) then RETURN -------------------
ask_mouse
@prompt  lda #<s_mouse
         ldy #>s_mouse
         jsr print_str
         lda #0
         sta NDIG
@key     jsr getkey
         cmp #CR
         beq @ret
         cmp #K_DEL
         beq @del
         cmp #K_0
         bcc @key
         cmp #K_0+10
         bcs @key
         ldx NDIG
         cpx #2
         bcs @key
         sta DIGITS,x
         inc NDIG
         jsr CHROUT
         jmp @key
@del     ldx NDIG
         beq @key
         dec NDIG
         jsr CHROUT             ; A = DEL
         jmp @key
@ret     ldx NDIG
         cpx #2
         bne @key
         jsr CHROUT             ; A = RETURN
         lda DIGITS             ; row 0..7
         and #$0F
         cmp #8
         bcs @invalid
         asl
         asl
         asl
         sta TMP
         lda DIGITS+1           ; column 0..7
         and #$0F
         cmp #8
         bcs @invalid
         ora TMP
         sta DEST
         jsr pos_to_work
         ldx #0
@step    lda W0
         clc
         adc MSTEP,x
         cmp DEST
         bne @next
         jsr legal
         bcc @ok
@next    inx
         cpx #4
         bne @step
@invalid lda #<s_invalid
         ldy #>s_invalid
         jsr print_str
         jmp @prompt
@ok      lda DEST
         sta POS
         inc LEVEL
         rts

; ============================================================================
; Test entry points (see README.md "Entry points")
; ============================================================================
api_eval
         jsr pos_to_work
         jsr eval
         sta RESULT
         rts

api_think
         jsr mem_setup
         lda #$FF
         sta BESTCAT
         lda DEPTH
         beq @no
         jsr check_depth
         bcs @no
         jmp think
@no      rts

api_checkdepth
         pha
         jsr mem_setup
         pla
         jsr check_depth
         lda #0
         rol                    ; carry -> 1 refused
         sta RESULT
         rts
