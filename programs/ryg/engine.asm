; ============================================================================
; engine.asm: move rules, evaluation, the game tree, minimax, the memory check.
; ============================================================================

; ---- rules (F1, F2) -------------------------------------------------------------

; copy the game position POS into the working position W0..W4
pos_to_work
         ldx #4
@l       lda POS,x
         sta W0,x
         dex
         bpl @l
         rts

; legal: A = destination (any byte; a step off the board wraps to >= 64 or to a square of
; the other colour). Carry clear = legal: one of the 32 usable squares and no piece of the
; working position on it. Keeps X and A (when legal); uses Y.
legal
         tay
         lda USABLE,y           ; 256 entries: 0 for unusable squares and bytes >= 64
         beq @no
         tya
         cmp W0
         beq @no
         cmp W1
         beq @no
         cmp W2
         beq @no
         cmp W3
         beq @no
         cmp W4
         beq @no
         clc
         rts
@no      sec
         rts

; number of legal mouse steps in the working position -> A (and Z)
count_mouse_moves
         lda #0
         sta CNT
         ldx #3
@l       lda W0
         clc
         adc MSTEP,x
         jsr legal
         bcs @n
         inc CNT
@n       dex
         bpl @l
         lda CNT
         rts

; number of legal cat steps in the working position -> A (and Z)
count_cat_moves
         lda #0
         sta CNT
         ldx #4
@l       lda W0,x
         clc
         adc #7
         jsr legal
         bcs @n9
         inc CNT
@n9      lda W0,x
         clc
         adc #9
         jsr legal
         bcs @n
         inc CNT
@n       dex
         bne @l
         lda CNT
         rts

; ---- evaluation (F7) -------------------------------------------------------------
; eval: value of the working position -> A. $80 + row bonus + mobility penalty
; (+ spread term from v16) (+ passed term from v17); stays within $30..$D0.
eval
         lda W0
         lsr
         lsr
         lsr
         sta MROW
         tax
         lda #$80
         clc
         adc ROWBONUS,x
         sta VAL
         jsr count_mouse_moves
         tax
         lda VAL
         clc
         adc MOBPEN,x
         sta VAL
  if VERSION >= 16
         lda W1                 ; min and max cat row
         lsr
         lsr
         lsr
         sta MINR
         sta MAXR
         ldx #2
@cats    lda W0,x
         lsr
         lsr
         lsr
         cmp MINR
         bcs @notmin
         sta MINR
@notmin  cmp MAXR
         bcc @notmax
         sta MAXR
@notmax  inx
         cpx #5
         bne @cats
         lda MAXR
         sec
         sbc MINR
         cmp #2
         bcs @spread
         tax
         lda VAL
         clc
         adc SPREADPEN,x        ; spread 0: -16, 1: -8
         sta VAL
@spread
  endif
  if VERSION >= 17
         lda MINR               ; the mouse has passed the cats: +32
         cmp MROW
         bcc @passed
         lda VAL
         clc
         adc #32
         sta VAL
@passed
  endif
         lda VAL
         rts

; ---- the memory check (ryg1.md "Memory") -------------------------------------
; check_depth: A = depth. Worst-case records 1 + 8 + 8*4 + 8*4*8 + ... (cats branch 8,
; the mouse 4), times RECSIZE, from TREEBASE must end at or below MEMTOP.
; Carry clear = accepted; carry set = refused, with a message.
check_depth
         sta CD_DEP
         ldx #3
         lda #0
@clr     sta CD_REC,x
         sta CD_PROD,x
         sta CD_BYTES,x
         dex
         bpl @clr
         lda #1
         sta CD_REC
         sta CD_PROD
         ldx #0
@level   cpx CD_DEP
         beq @count
         inx
         jsr @prod2             ; x4 on every level
         jsr @prod2
         txa
         and #1
         beq @even
         jsr @prod2             ; x8 on the cats' levels (1, 3, 5, ...)
@even    clc
         ldy #0
         php
@add     plp
         lda CD_REC,y
         adc CD_PROD,y
         sta CD_REC,y
         php
         iny
         cpy #4
         bne @add
         plp
         jmp @level
@count   lda #RECSIZE           ; bytes = records * RECSIZE (shift and add)
         sta CD_MUL
@mul     lsr CD_MUL
         bcc @shift
         clc
         ldy #0
         php
@madd    plp
         lda CD_BYTES,y
         adc CD_REC,y
         sta CD_BYTES,y
         php
         iny
         cpy #4
         bne @madd
         plp
@shift   asl CD_REC
         rol CD_REC+1
         rol CD_REC+2
         rol CD_REC+3
         lda CD_MUL
         bne @mul
         clc                    ; end = TREEBASE + bytes
         lda CD_BYTES
         adc #<TREEBASE
         sta CD_BYTES
         lda CD_BYTES+1
         adc #>TREEBASE
         sta CD_BYTES+1
         lda CD_BYTES+2
         adc #0
         sta CD_BYTES+2
         lda CD_BYTES+3
         adc #0
         sta CD_BYTES+3
         sec                    ; MEMTOP - end: a borrow means it does not fit
         lda #<MEMTOP
         sbc CD_BYTES
         lda #>MEMTOP
         sbc CD_BYTES+1
         lda #0
         sbc CD_BYTES+2
         lda #0
         sbc CD_BYTES+3
         bcc @refuse
         clc
         rts
@refuse  lda #<s_nomem
         ldy #>s_nomem
         jsr print_str_nocr
         lda CD_DEP
         ora #K_0
         jsr CHROUT
         lda #CR
         jsr CHROUT
         sec
         rts
@prod2   asl CD_PROD
         rol CD_PROD+1
         rol CD_PROD+2
         rol CD_PROD+3
         rts

; ---- the game tree (F3, F4, F5, F8) -------------------------------------------
; think: builds the tree of depth DEPTH for POS (the cats to move, level LEVEL) from
; TREEBASE, applies minimax and picks the first root child with the root's value.
; Out: RESULT = root value, BESTCAT/BESTDEST, RECCOUNT, TREEEND.
think
         lda #<s_think
         ldy #>s_think
         jsr print_str_nocr
         lda #<TREEBASE
         sta NEXT
         lda #>TREEBASE
         sta NEXT+1
         lda #0
         sta RECCOUNT
         sta RECCOUNT+1
         sta PARLO              ; the root: no parent
         sta PARHI
         sta PLY
         lda LEVEL
         sta NLEVEL
         lda #$FF               ; the cats to move
         sta NTURN
         jsr pos_to_work
         jsr alloc
         jsr write_record
         jsr announce
         lda CHILD
         sta PLYNODELO
         lda CHILD+1
         sta PLYNODEHI
         ldx #4
@root    lda W0,x
         sta PLYPOS,x
         dex
         bpl @root
         jsr visit
         lda #CR                ; the tree is complete
         jsr CHROUT
         lda NEXT
         sta TREEEND
         lda NEXT+1
         sta TREEEND+1
         ; the cats play the first root child whose value equals the root's
         lda #<TREEBASE
         sta NODE
         lda #>TREEBASE
         sta NODE+1
         ldy #R_VALUE
         lda (NODE),y
         sta RESULT
         lda #0
         sta CI2
@find    lda CI2
         cmp PLYNCH
         bcs @none
         asl
         adc #R_CHILD
         tay
         lda (NODE),y
         sta CHILD
         iny
         lda (NODE),y
         sta CHILD+1
         ldy #R_VALUE
         lda (CHILD),y
         cmp RESULT
         beq @found
         inc CI2
         jmp @find
@none    lda #$FF
         sta BESTCAT
         rts
@found   lda CHILD              ; read the child's position back from its record
         sta PLYNODELO+1
         lda CHILD+1
         sta PLYNODEHI+1
         lda #1
         sta PLY
         jsr load_pos
         ldx #1                 ; which cat moved?
@cmp     lda PLYPOS+8,x
         cmp PLYPOS,x
         bne @moved
         inx
         cpx #5
         bne @cmp
         beq @none
@moved   sta BESTDEST
         dex
         stx BESTCAT
         rts

; visit: the node at ply PLY (record PLYNODE[PLY], position PLYPOS[PLY]).
; Below the depth: create all its children, then visit each, then minimax.
; At the depth, or without a legal move: a leaf, evaluated.
visit
         ldx PLY
         lda PLYNODELO,x
         sta NODE
         lda PLYNODEHI,x
         sta NODE+1
         jsr ply_to_work
         ldx PLY
         cpx DEPTH
         bcs @leaf
         jsr gen_children
         ldx PLY
         lda PLYNCH,x
         bne @descend
@leaf    jsr eval
         ldy #R_VALUE
         sta (NODE),y
         rts
@descend lda #0
         sta PLYCI,x
@next    lda PLYNODELO,x        ; NODE again (the children changed it)
         sta NODE
         lda PLYNODEHI,x
         sta NODE+1
         lda PLYCI,x
         asl
         adc #R_CHILD
         tay
         lda (NODE),y
         sta PLYNODELO+1,x
         iny
         lda (NODE),y
         sta PLYNODEHI+1,x
         inx
         stx PLY
         jsr load_pos           ; the child's position, read from its record
         jsr visit
         dec PLY
         ldx PLY
         inc PLYCI,x
         lda PLYCI,x
         cmp PLYNCH,x
         bcc @next
         ; minimax: the mouse to move takes the maximum, the cats the minimum
         lda PLYNODELO,x
         sta NODE
         lda PLYNODEHI,x
         sta NODE+1
         ldy #R_TURN
         lda (NODE),y
         sta CTURN
         ldy #R_CHILD
         lda (NODE),y
         sta CHILD
         iny
         lda (NODE),y
         sta CHILD+1
         ldy #R_VALUE
         lda (CHILD),y
         sta VAL
         lda #1
         sta CI2
@mm      lda CI2
         cmp PLYNCH,x
         bcs @store
         asl
         adc #R_CHILD
         tay
         lda (NODE),y
         sta CHILD
         iny
         lda (NODE),y
         sta CHILD+1
         ldy #R_VALUE
         lda (CHILD),y
         bit CTURN
         bmi @min
         cmp VAL
         bcc @skip
         sta VAL
         bcs @skip
@min     cmp VAL
         bcs @skip
         sta VAL
@skip    inc CI2
         jmp @mm
@store   lda VAL
         ldy #R_VALUE
         sta (NODE),y
         rts

; working position W0..W4 <- PLYPOS[PLY]
ply_to_work
         lda PLY
         asl
         asl
         asl
         tax
         lda PLYPOS,x
         sta W0
         lda PLYPOS+1,x
         sta W1
         lda PLYPOS+2,x
         sta W2
         lda PLYPOS+3,x
         sta W3
         lda PLYPOS+4,x
         sta W4
         rts

; gen_children: creates the records of all children of NODE (position in W0..W4):
; the cats: cat 0..3, steps +7, +9; the mouse: steps -9, -7, +9, +7. PLYNCH[PLY] = count.
gen_children
         ldy #R_LEVEL
         lda (NODE),y
         clc
         adc #1
         sta NLEVEL
         ldy #R_TURN
         lda (NODE),y
         sta CTURN
         eor #$FE               ; $01 <-> $FF
         sta NTURN
         lda NODE
         sta PARLO
         lda NODE+1
         sta PARHI
         lda #0
         sta NCH
         lda CTURN
         bmi @cats
         ldx #0                 ; the mouse
@ms      stx GS
         lda W0
         clc
         adc MSTEP,x
         jsr legal
         bcs @mn
         ldx #0
         jsr make_child
@mn      ldx GS
         inx
         cpx #4
         bne @ms
         beq @done
@cats    lda #1
         sta GP
@cl      lda #0
         sta GS
@cs      ldx GP
         ldy GS
         lda W0,x
         clc
         adc CSTEP,y
         jsr legal
         bcs @cn
         ldx GP
         jsr make_child
@cn      inc GS
         lda GS
         cmp #2
         bne @cs
         inc GP
         lda GP
         cmp #5
         bne @cl
@done    ldx PLY
         lda NCH
         sta PLYNCH,x
         rts

; make_child: X = piece (0 mouse, 1..4 cats), A = destination. Writes the child record,
; links it into NODE's next child slot and announces it.
make_child
         sta DEST
         stx PIECE
         lda W0,x
         sta SAVEW
         lda DEST
         sta W0,x
         jsr alloc
         jsr write_record
         lda NCH
         asl
         adc #R_CHILD
         tay
         lda CHILD
         sta (NODE),y
         iny
         lda CHILD+1
         sta (NODE),y
         inc NCH
         jsr announce
         ldx PIECE
         lda SAVEW
         sta W0,x
         rts

; alloc: CHILD = NEXT; NEXT += RECSIZE; RECCOUNT + 1
alloc
         lda NEXT
         sta CHILD
         clc
         adc #RECSIZE
         sta NEXT
         lda NEXT+1
         sta CHILD+1
         adc #0
         sta NEXT+1
         inc RECCOUNT
         bne @r
         inc RECCOUNT+1
@r       rts

; write_record: the record at CHILD: marker, NLEVEL, NTURN, value 0, parent PARLO/PARHI,
; no children, the position W0..W4 (29 bytes: five offsets; 88 bytes: the 8x8 matrix)
write_record
         ldy #0
         lda #$AA
         sta (CHILD),y
         iny
         sta (CHILD),y
         iny
         sta (CHILD),y
         iny
         lda NLEVEL
         sta (CHILD),y
         iny
         lda NTURN
         sta (CHILD),y
         iny
         lda #0
         sta (CHILD),y
         iny
         lda PARLO
         sta (CHILD),y
         iny
         lda PARHI
         sta (CHILD),y
         lda #0
         ldx #16
@z       iny
         sta (CHILD),y
         dex
         bne @z
  if RECSIZE = 29
         ldx #0
@p       lda W0,x
         iny
         sta (CHILD),y
         inx
         cpx #5
         bne @p
  else
         ldx #64                ; A = 0: empty squares
@m       iny
         sta (CHILD),y
         dex
         bne @m
         lda W0
         clc
         adc #R_POS
         tay
         lda #$01
         sta (CHILD),y
         ldx #4
@c       lda W0,x
         clc
         adc #R_POS
         tay
         lda #$FF
         sta (CHILD),y
         dex
         bne @c
  endif
         rts

; announce the record at CHILD (F8): v18 on its address and four cursor-lefts, before a dot
announce
  if VERSION >= 18
         lda CHILD+1
         jsr print_hex
         lda CHILD
         jsr print_hex
         lda #CLEFT
         jsr CHROUT
         jsr CHROUT
         jsr CHROUT
         jmp CHROUT
  else
         lda #K_DOT
         jmp CHROUT
  endif

; load_pos: PLYPOS[PLY] <- the position stored in the record PLYNODE[PLY] (PLY >= 1).
; 88-byte records hold a matrix: the cats' numbers come from the parent's position.
load_pos
         ldx PLY
         lda PLYNODELO,x
         sta CHILD
         lda PLYNODEHI,x
         sta CHILD+1
         txa
         asl
         asl
         asl
         tax                    ; X = 8 * ply
  if RECSIZE = 29
         ldy #R_POS
         lda (CHILD),y
         sta PLYPOS,x
         iny
         lda (CHILD),y
         sta PLYPOS+1,x
         iny
         lda (CHILD),y
         sta PLYPOS+2,x
         iny
         lda (CHILD),y
         sta PLYPOS+3,x
         iny
         lda (CHILD),y
         sta PLYPOS+4,x
         rts
  else
         stx PB
         ; the mouse: on the parent's square, or one step from it
         lda PLYPOS-8,x
         sta TMP
         sta SQ
         jsr matrix_at
         cmp #$01
         beq @mfound
         ldx #3
@mstep   lda TMP
         clc
         adc MSTEP,x
         cmp #64
         bcs @mnext
         sta SQ
         jsr matrix_at
         cmp #$01
         beq @mfound
@mnext   dex
         bpl @mstep
@mfound  ldx PB
         lda SQ
         sta PLYPOS,x
         ; the cats: each keeps its parent square, or it is the one that moved to a new
         ; square (+7 or +9) that holds a cat now and held none in the parent
         lda #1
         sta GP
@cat     lda PB
         clc
         adc GP
         tax                    ; X = 8*ply + cat index
         lda PLYPOS-8,x
         sta TMP
         sta SQ
         jsr matrix_at
         cmp #$FF
         beq @cfound
         lda TMP
         clc
         adc #7
         jsr new_cat
         beq @cfound
         lda TMP
         clc
         adc #9
         jsr new_cat
@cfound  lda SQ
         sta PLYPOS,x
         inc GP
         lda GP
         cmp #5
         bne @cat
         rts

; A = the child's matrix square SQ (keeps X; uses Y)
matrix_at
         lda SQ
         clc
         adc #R_POS
         tay
         lda (CHILD),y
         rts

; new_cat: SQ = A; Z set if the child has a cat there and the parent (PLYPOS[PB-8]) had none
new_cat
         sta SQ
         cmp #64
         bcs @no
         jsr matrix_at
         cmp #$FF
         bne @no
         ldy PB
         lda SQ
         cmp PLYPOS-8+1,y
         beq @no
         cmp PLYPOS-8+2,y
         beq @no
         cmp PLYPOS-8+3,y
         beq @no
         cmp PLYPOS-8+4,y
         beq @no
         lda #0
         rts
@no      lda #1
         rts
  endif
