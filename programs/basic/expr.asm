; c64kit BASIC V2: expressions (FRMEVL, operators, relations, AND OR NOT), variables and arrays (PTRGET, DIM, LET), DEF FN and FN, PEEK POKE WAIT FRE POS USR and the argument parsers (GETBYT, GETADR, CHKCOM...). Owner: expr.
;
; The algorithms are Microsoft's (m6502.asm, MIT): the precedence climber over the operator
; table, the variable search from VARTAB in order, the array header, FN's saved argument.
; Every entry is at Commodore's address (LET $A9A5, QINTGR $A9C2, INPCOM $A9DA, FRMNUM $AD8A,
; FRMEVL $AD9E, TSTOP $ADB8, EVAL $AE83 and DEFEVL $AE86 (IEVAL's default), PARCHK..SNERR
; $AEF1-$AF08, DIM $B081, PTRGET $B08B, ISLETC $B113, FACINX $B1AA (ADRAY1's default), AYINT
; $B1BF, ISARY $B1D1, FCERR $B248 (USR's default), FRE $B37D, GIVAYF $B391, DEF $B3B3, FN
; $B3F4, GETBYT $B79E, GETADR $B7F7, PEEK POKE WAIT ...), checked by running this file inside
; Commodore's ROM (kit/machine/tests/basic_expr.rs). $AD78-$AD89 (NEXT's end) and
; $B7AD-$B7EA (VAL) are left to exec.asm and strings.asm, where Commodore's are.
; Others call: INPCOM (a string into FORPNT's variable, TI$ sets the clock), QINTGR (FAC into
; it, A = INTFLG), TSTOP (CAT's way back), PUSHF/FORPSH (FOR), STRTXT, ST2TXT is strings'.

; ---- Names for BASIC's RAM (Microsoft's names, Commodore's places); zeropage.asm may have
; some of them too (the same values).
INDICE  = $64   ; an array index as QINT leaves it (FACMO, FACLO)
CURTOL  = $71   ; array index and size tally (FBUFPT)
ADDEND  = $28   ; UMULT's multiplicand (RESHO+2)
DOMASK  = $12   ; the relation's mask (TANSGN)
ANDMSK  = $49   ; WAIT's masks (FORPNT)
EORMSK  = $4A
ROMLOC  = $A000 ; where BASIC's ROM starts (ZERO is in it)
QNUM    = $80   ; inside CHRGET: C clear for a character from "0" on; a space skips to the
                ; program's next character (Commodore's CHRGET, which TI$ assignment uses)

; ---- Tokens this file looks for (Commodore's token values).
TK_PLUS = $AA
TK_MINUS = $AB
TK_GREATER = $B1
TK_EQUAL = $B2
TK_SGN  = $B4   ; the first function
TK_CHRD = $C7   ; the last function taking one argument: LEFT$ RIGHT$ MID$ follow
TK_FN   = $A5
TK_NOT  = $A8
TK_PI   = $FF

; ---- Offsets into the operator table (tables.asm's OPTAB, Microsoft's layout: for each
; operator its precedence byte, then its routine's address - 1; + - * / ^ AND OR first).
OP_NEG  = 21    ; unary minus (precedence $7D)
OP_NOT  = 24    ; NOT ($5A)
OP_REL  = 27    ; the relations ($64)
PREC_REL = $64

; USR's function entry is the JMP at $0310 (USRPOK), as on Commodore's.
USR     = USRPOK

; ============================================================================================
; LET and the assignment of a value to FORPNT's variable ($A9A5-$AA7F).
*=$A9A5
; LET: variable = formula. TXTPTR at the variable's first character.
ST_LET  jsr PTRGET
        sta FORPNT
        sty FORPNT+1
        lda #TK_EQUAL
        jsr SYNCHR
        lda INTFLG              ; the target's type, kept across FRMEVL
        pha
        lda VALTYP
        pha
        jsr FRMEVL
        pla
        rol a                   ; C = the target is a string
        jsr CHKVAL
        bne COPSTR
        pla
; Store FAC in FORPNT's variable; A (N flag) = INTFLG: integer (bit 7) or real.
QINTGR  bpl COPFLT
        jsr ROUND
        jsr AYINT               ; -32768..32767 or ILLEGAL QUANTITY
        ldy #0
        lda FACMO               ; integers are kept high byte first
        sta (FORPNT),y
        iny
        lda FACLO
        sta (FORPNT),y
        rts
COPFLT  jmp MOVVF               ; FAC into FORPNT's variable

COPSTR  pla
; Store the string FAC points at (a descriptor) in FORPNT's string variable. TI$ (PTRGET
; gives it the address of ZERO) sets the clock instead. INPUT, READ and GET come here too.
INPCOM  ldy FORPNT+1
        cpy #>ZERO
        bne GETSPT
        jsr FREFAC              ; A = length, INDEX = the characters
        cmp #6                  ; "HHMMSS" only
        bne TIFC
        ldy #0                  ; FAC = 0, then for each pair of digits FAC = FAC * 10 +
        sty FACEXP              ; the first, * 6 + the second: FAC * 60 + the pair
        sty FACSGN
TIMELP  sty FBUFPT
        jsr TIMNUM
        jsr MUL10
        inc FBUFPT
        ldy FBUFPT
        jsr TIMNUM
        jsr MOVAF
        tax
        beq NOML6
        inx                     ; ARG * 2 + ARG, doubled: FAC * 6
        txa
        jsr FINML6
NOML6   ldy FBUFPT
        iny
        cpy #6
        bne TIMELP
        jsr MUL10               ; the seconds to jiffies (* 6 * 10)
        jsr QINT
        lda FACLO
        ldx FACMO
        ldy FACMOH
        jmp SETTIM
; TIMNUM: FAC = FAC + the digit at INDEX+Y (TI$ assignment). QNUM (CHRGET's) takes every
; character from "0" on ("A" counts 17, as Commodore's), else ILLEGAL QUANTITY.
TIMNUM  lda (INDEX),y
        jsr QNUM
        bcc GOTNUM
TIFC    jmp FCERR
GOTNUM  sbc #$30-1              ; C clear
        jmp FINLOG

; The string's characters stay where they are when they are not in string space (a literal
; in the program text) or when FAC's descriptor is a temporary; a variable's string is copied.
GETSPT  ldy #2
        lda (FACMO),y
        cmp FRETOP+1
        bcc DNTCPY
        bne QVARIA
        dey
        lda (FACMO),y
        cmp FRETOP
        bcc DNTCPY
QVARIA  ldy FACMO+1
        cpy VARTAB+1
        bcc DNTCPY
        bne COPY
        lda FACMO
        cmp VARTAB
        bcs COPY
DNTCPY  lda FACMO
        ldy FACMO+1
        jmp COPYZC
COPY    ldy #0
        lda (FACMO),y
        jsr STRINI              ; room for the copy, DSCTMP describes it
        lda DSCPNT
        ldy DSCPNT+1
        sta STRNG1
        sty STRNG1+1
        jsr MOVINS
        lda #<DSCTMP
        ldy #>DSCTMP
COPYZC  sta DSCPNT
        sty DSCPNT+1
        jsr FRETMS              ; drop the temporary, keep its characters
        ldy #0
        lda (DSCPNT),y
        sta (FORPNT),y
        iny
        lda (DSCPNT),y
        sta (FORPNT),y
        iny
        lda (DSCPNT),y
        sta (FORPNT),y
        rts

; ============================================================================================
; $AD78-$B464: the formula evaluator, variables, arrays, FRE, DEF FN.
*=$AD78

*=$AD8A
; FRMNUM: evaluate a numeric formula. CHKNUM/CHKSTR: TYPE MISMATCH unless VALTYP is a number
; / a string; CHKVAL: the type C says (C set: string). They leave A and VALTYP alone.
FRMNUM  jsr FRMEVL
CHKNUM  clc
        byte $24                ; BIT zp: skips the SEC
CHKSTR  sec
CHKVAL  bit VALTYP
        bmi DOCSTR
        bcs TMERR
CHKOK   rts
DOCSTR  bcs CHKOK
TMERR   ldx #ERR_TYPE_MISMATCH
        jmp ERROR

; FRMEVL: evaluate the formula at TXTPTR (its first character is read with CHRGET) into FAC,
; VALTYP $FF for a string (FAC's FACMO/FACLO point at its descriptor). TXTPTR ends at the
; character after it. Each pending operator on the stack: its routine - 1, the left operand
; (FAC, rounded: exponent, mantissa, sign), its precedence and the relation mask.
FRMEVL  ldx TXTPTR
        bne FRMEV1
        dec TXTPTR+1
FRMEV1  dec TXTPTR
        ldx #0                  ; no operator yet: precedence 0
        byte $24                ; BIT zp: skips the PHA
LPOPER  pha                     ; the relation mask
        txa
        pha                     ; the precedence
        lda #1
        jsr GETSTK              ; OUT OF MEMORY when the stack is too deep
        jsr EVAL
        lda #0
        sta OPMASK
TSTOP   jsr CHRGOT
LOPREL  sec                     ; a relation: build its mask (> 1, = 2, < 4)
        sbc #TK_GREATER
        bcc ENDREL
        cmp #3
        bcs ENDREL
        cmp #1
        rol a
        eor #1
        eor OPMASK
        cmp OPMASK              ; the same relation twice: SYNTAX
        bcc SNERR5
        sta OPMASK
        jsr CHRGET
        jmp LOPREL
ENDREL  ldx OPMASK
        bne FINREL
        bcs QOP                 ; above the relations: no operator
        adc #TK_GREATER-TK_PLUS
        bcc QOP                 ; below +: no operator
        adc VALTYP              ; C = 1
        bne NOTCAT
        jmp CAT                 ; + after a string: concatenation
NOTCAT  adc #$FF                ; the operator's number again
        sta INDEX1
        asl a
        adc INDEX1
        tay                     ; * 3: its entry in OPTAB
QPREC   pla
        cmp OPTAB,y
        bcs QCHNUM              ; the pending one binds tighter: apply it first
        jsr CHKNUM
DOPREC  pha
NEGPRC  jsr DOPRE1              ; returns here once the operator has been applied
        pla
        ldy OPPTR
        bpl QPREC1
        tax
        beq QOPGO
        bne PULSTK
FINREL  lsr VALTYP              ; C = a string relation
        txa
        rol a
        ldx TXTPTR
        bne FINRE2
        dec TXTPTR+1
FINRE2  dec TXTPTR
        ldy #OP_REL
        sta OPMASK
        bne QPREC
QPREC1  cmp OPTAB,y
        bcs PULSTK
        bcc DOPREC
DOPRE1  lda OPTAB+2,y           ; the operator's routine - 1, for its RTS
        pha
        lda OPTAB+1,y
        pha
        jsr PUSHF1
        lda OPMASK
        jmp LPOPER
SNERR5  jmp SNERR
PUSHF1  lda FACSGN
        ldx OPTAB,y             ; X = the precedence (ROUND keeps X)
PUSHF   tay
        pla
        sta INDEX1
        inc INDEX1              ; (the return address never ends in $FF: see the listing)
        pla
        sta INDEX1+1
        tya
        pha
FORPSH  jsr ROUND               ; (FOR enters here, its return address in INDEX1)
        lda FACLO
        pha
        lda FACMO
        pha
        lda FACMOH
        pha
        lda FACHO
        pha
        lda FACEXP
        pha
        jmp (INDEX1)
QOP     ldy #$FF
        pla
QOPGO   beq QOPRTS
QCHNUM  cmp #PREC_REL
        beq UNPSTK
        jsr CHKNUM
UNPSTK  sty OPPTR
PULSTK  pla                     ; the left operand into ARG
        lsr a
        sta DOMASK
        pla
        sta ARGEXP
        pla
        sta ARGHO
        pla
        sta ARGMOH
        pla
        sta ARGMO
        pla
        sta ARGLO
        pla
        sta ARGSGN
        eor FACSGN
        sta ARISGN
QOPRTS  lda FACEXP
        rts

*=$AE83
; EVAL: one term into FAC, through the IEVAL vector ($030A), which INIT points at DEFEVL.
EVAL    jmp (IEVAL)
DEFEVL  lda #0
        sta VALTYP
EVAL0   jsr CHRGET
        bcs EVAL2
EVAL1   jmp FIN                 ; a number
EVAL2   jsr ISLETC
        bcc EVALPI
        jmp ISVAR               ; (a jump: PIVAL, STRTXT and NOTOP where Commodore's are)
EVALPI  cmp #TK_PI
        bne QDOT
        lda #<PIVAL
        ldy #>PIVAL
        jsr MOVFM
        jmp CHRGET
PIVAL   byte $82,$49,$0F,$DA,$A1        ; pi
QDOT    cmp #"."
        beq EVAL1
        cmp #TK_MINUS
        beq DOMIN
        cmp #TK_PLUS
        beq EVAL0
        cmp #$22                ; a quote: a string literal
        bne EVAL3
; STRTXT: the string literal after the quote at TXTPTR (C set), TXTPTR past it.
STRTXT  lda TXTPTR
        ldy TXTPTR+1
        adc #0                  ; C = 1: the character after the quote
        bcc STRTX2
        iny
STRTX2  jsr STRLIT
        jmp ST2TXT
EVAL3   cmp #TK_NOT
        bne EVAL4
        ldy #OP_NOT
        bne GONPRC
; NOT: the ones' complement of FAC as a 16-bit integer.
NOTOP   jsr AYINT
        lda FACLO
        eor #$FF
        tay
        lda FACMO
        eor #$FF
        jmp GIVAYF
EVAL4   cmp #TK_FN
        bne EVAL5
        jmp FNDOER
EVAL5   cmp #TK_SGN
        bcc PARCHK
        jmp ISFUN

*=$AEF1
; PARCHK: a formula in parentheses. CHKCLS, CHKOPN, CHKCOM: the character at TXTPTR must
; be ")", "(" or ","; SYNCHR: must be A; then the next character (CHRGET), else SYNTAX.
PARCHK  jsr CHKOPN
        jsr FRMEVL
CHKCLS  lda #")"
        byte $2C                ; BIT abs: skips the next LDA
CHKOPN  lda #"("
        byte $2C
CHKCOM  lda #","
SYNCHR  ldy #0
        cmp (TXTPTR),y
        bne SNERR
        jmp CHRGET
SNERR   ldx #ERR_SYNTAX
        jmp ERROR
DOMIN   ldy #OP_NEG
GONPRC  pla                     ; EVAL's return: the operator climbs from here
        pla
        jmp NEGPRC

; A variable's value into FAC. A variable that does not exist reads as ZERO (PTRGET does
; not create it for EVAL), which is also how TI, TI$ and ST are told apart from variables.
ISVAR   jsr PTRGET
ISVRET  sta FACMO
        sty FACMO+1
        lda VARNAM
        ldy VARNAM+1
        ldx VALTYP
        beq GOOO
        ldx #0
        stx FACOV
        jsr ROMVAR
        bcc STRRTS
        cmp #$54
        bne STRRTS
        cpy #$49+$80
        bne STRRTS
        jsr GETTIM              ; TI$: six digits by FOUT's TI$ table
        sty TENEXP
        dey
        sty FBUFPT
        ldy #6
        sty DECCNT
        ldy #FDCEND-FOUTBL
        jsr FOUTIM
        jmp TIMSTR
GOOO    ldx INTFLG
        bpl GOOOOO
        ldy #0                  ; an integer: high byte first
        lda (FACMO),y
        tax
        iny
        lda (FACMO),y
        tay
        txa
        jmp GIVAYF
GOOOOO  jsr ROMVAR
        bcc GOMOVF
        cmp #$54
        bne QSTATV
        cpy #$49
        bne GOMOVF
        jsr GETTIM              ; TI: the jiffy clock
        tya
        ldx #$A0                ; 2^32: the mantissa is the integer
        sec                     ; positive
        jmp FLOATB
QSTATV  cmp #$53
        bne GOMOVF
        cpy #$54
        bne GOMOVF
        jsr READST              ; ST: the KERNAL's status, a signed byte
        jmp FLOAT
GOMOVF  lda FACMO
        ldy FACMO+1
        jmp MOVFM

STRRTS  rts

; ISFUN: a function token (A). Numeric functions get their argument in FAC, evaluated in
; parentheses; LEFT$ RIGHT$ MID$ get the string's descriptor pointer and the byte on the
; stack (the byte also in X), as Microsoft's dispatch does. Returns through CHKNUM (string
; functions drop that return).
ISFUN   asl a
        pha
        tax
        jsr CHRGET
        cpx #2*TK_CHRD-256+1
        bcc OKNORM
        jsr CHKOPN
        jsr FRMEVL
        jsr CHKCOM
        jsr CHKSTR
        pla
        tax
        lda FACMO+1
        pha
        lda FACMO
        pha
        txa
        pha
        jsr GETBYT
        pla
        tay
        txa
        pha
        jmp FINGO
OKNORM  jsr PARCHK
        pla
        tay
FINGO   lda FUNDSP-2*TK_SGN+256,y
        sta JMPER+1
        lda FUNDSP-2*TK_SGN+257,y
        sta JMPER+2
        jsr JMPER
        jmp CHKNUM

; OR and AND: both operands as 16-bit integers (ILLEGAL QUANTITY outside -32768..32767),
; OR through De Morgan's law.
OROP    ldy #$FF
        byte $2C
ANDOP   ldy #0
        sty COUNT
        jsr AYINT
        lda FACMO
        eor COUNT
        sta INTEGR
        lda FACLO
        eor COUNT
        sta INTEGR+1
        jsr MOVFA
        jsr AYINT
        lda FACLO
        eor COUNT
        and INTEGR+1
        eor COUNT
        tay
        lda FACMO
        eor COUNT
        and INTEGR
        eor COUNT
        jmp GIVAYF

; DOREL: ARG relation FAC, DOMASK's bits saying which (> 1, = 2, < 4), C set for strings
; (compared byte by byte, then by length). FAC = -1 if true, 0 if false.
DOREL   jsr CHKVAL
        bcs STRCMP
        lda ARGSGN
        ora #$7F
        and ARGHO
        sta ARGHO               ; ARG packed in place for FCOMP
        lda #<ARGEXP
        ldy #>ARGEXP
        jsr FCOMP
        tax
        jmp QCOMP
STRCMP  lda #0
        sta VALTYP
        dec OPMASK
        jsr FREFAC
        sta DSCTMP
        stx DSCTMP+1
        sty DSCTMP+2
        lda ARGMO
        ldy ARGMO+1
        jsr FRETMP
        stx ARGMO
        sty ARGMO+1
        tax
        sec
        sbc DSCTMP
        beq STASGN
        lda #1
        bcc STASGN
        ldx DSCTMP
        lda #$FF
STASGN  sta FACSGN
        ldy #$FF
        inx
NXTCMP  iny
        dex
        bne GETCMP
        ldx FACSGN
QCOMP   bmi DOCMP
        clc
        bcc DOCMP
GETCMP  lda (ARGMO),y
        cmp (DSCTMP+1),y
        beq NXTCMP
        ldx #$FF
        bcs DOCMP
        ldx #1
DOCMP   inx                     ; -1, 0, 1 to the bits 1, 2, 4 (with C)
        txa
        rol a
        and DOMASK
        beq GOFLOT
        lda #$FF
GOFLOT  jmp FLOAT

; ROMVAR: C set when the value's address (FACMO) is in ROM, from ROMLOC on: ZERO's, which
; PTRGET gives EVAL for a variable that does not exist; then A = the name's first letter
; (TI, TI$ and ST are told by their names).
ROMVAR  sec
        lda FACMO
        sbc #<ROMLOC
        lda FACMO+1
        sbc #>ROMLOC
        bcc ROMVRT
        lda VARNAM
ROMVRT  rts

; GETTIM: the jiffy clock (RDTIM) in FACMOH..FACLO, FACHO and Y zero.
GETTIM  jsr RDTIM
        sta FACLO
        stx FACMO
        sty FACMOH
        ldy #0
        sty FACHO
        rts

*=$B07E
; DIM: each variable of the list made (arrays with the sizes given).
DIM3    jsr CHKCOM
ST_DIM  tax                     ; DIMFLG = the name's first letter: not zero, bit 6 set
DIM1    jsr PTRGT1
DIMCON  jsr CHRGOT
        bne DIM3
        rts

; PTRGET: the variable named at TXTPTR: VARPNT (and A/Y) = its value's address, VALTYP and
; INTFLG its type, VARNAM its name (bit 7 of the first byte: integer or FN; of the second:
; string or integer). Simple variables: 7 bytes each from VARTAB, searched in order, a new
; one added at ARYTAB (the arrays moved up). SUBFLG set: no arrays (FOR, FN's argument).
PTRGET  ldx #0
        jsr CHRGOT
PTRGT1  stx DIMFLG
PTRGT2  sta VARNAM
        jsr CHRGOT
        jsr ISLETC
        bcs PTRGT3
INTERR  jmp SNERR
PTRGT3  ldx #0
        stx VALTYP
        stx INTFLG
        jsr CHRGET
        bcc ISSEC               ; a digit
        jsr ISLETC
        bcc NOSEC
ISSEC   tax                     ; the second character; the rest of the name is skipped
EATEM   jsr CHRGET
        bcc EATEM
        jsr ISLETC
        bcs EATEM
NOSEC   cmp #"$"
        bne NOTSTR
        lda #$FF
        sta VALTYP
        bne TURNON
NOTSTR  cmp #"%"
        bne STRNAM
        lda SUBFLG
        bne INTERR
        lda #$80
        sta INTFLG
        ora VARNAM
        sta VARNAM
TURNON  txa
        ora #$80
        tax
        jsr CHRGET
STRNAM  stx VARNAM+1
        sec
        ora SUBFLG
        sbc #"("
        bne NOTARY
        jmp ISARY
NOTARY  ldy #0
        sty SUBFLG
        lda VARTAB
        ldx VARTAB+1
STXFND  stx LOWTR+1
LOPFND  sta LOWTR
        cpx ARYTAB+1
        bne LOPFN
        cmp ARYTAB
        beq NOTFNS
LOPFN   lda VARNAM
        cmp (LOWTR),y
        bne NOTIT
        lda VARNAM+1
        iny
        cmp (LOWTR),y
        beq FINPTR
        dey
NOTIT   clc
        lda LOWTR
        adc #7
        bcc LOPFND
        inx
        bne STXFND

; ISLETC: C set if A is a letter A-Z; A is kept.
ISLETC  cmp #$41
        bcc ISLRTS
        sbc #$5A+1
        sec
        sbc #256-$5A-1
ISLRTS  rts

; Not found. For EVAL (told by the low byte of its JSR's return address, as Commodore's:
; no other JSR to PTRGET may return to an address ending in the same byte, which the
; routine test checks): ZERO, nothing created. TI$ gets ZERO too (LET sets the clock); TI
; and ST cannot be assigned: SYNTAX.
NOTFNS  pla
        pha
        cmp #<(ISVRET-1)
        bne NOTEVL
LDZR    lda #<ZERO
        ldy #>ZERO
        rts
NOTEVL  lda VARNAM
        ldy VARNAM+1
        cmp #$54
        bne QSTAVR
        cpy #$49+$80
        beq LDZR
        cpy #$49
        bne QSTAVR
GOBADV  jmp SNERR
QSTAVR  cmp #$53
        bne VAROK
        cpy #$54
        beq GOBADV
VAROK   lda ARYTAB              ; move the arrays up 7 bytes
        ldy ARYTAB+1
        sta LOWTR
        sty LOWTR+1
        lda STREND
        ldy STREND+1
        sta HIGHTR
        sty HIGHTR+1
        clc
        adc #7
        bcc NOTEVE
        iny
NOTEVE  sta HIGHDS
        sty HIGHDS+1
        jsr BLTU
        lda HIGHDS
        ldy HIGHDS+1
        iny
        sta ARYTAB
        sty ARYTAB+1
        ldy #0                  ; the name and five zeros
        lda VARNAM
        sta (LOWTR),y
        iny
        lda VARNAM+1
        sta (LOWTR),y
        lda #0
        iny
        sta (LOWTR),y
        iny
        sta (LOWTR),y
        iny
        sta (LOWTR),y
        iny
        sta (LOWTR),y
        iny
        sta (LOWTR),y
FINPTR  lda LOWTR
        clc
        adc #2
        ldy LOWTR+1
        bcc FINNOW
        iny
FINNOW  sta VARPNT
        sty VARPNT+1
        rts

*=$B194
; FMAPTR: ARYPNT = the first element of the array at LOWTR with COUNT dimensions.
FMAPTR  lda COUNT
        asl a
        adc #5
        adc LOWTR
        ldy LOWTR+1
        bcc JSRGM
        iny
JSRGM   sta ARYPNT
        sty ARYPNT+1
        rts

N32768  byte $90,$80,$00,$00,$00        ; -32768, AYINT's limit
; FACINX: FAC to a 16-bit integer in A (high) and Y (low) (the ADRAY1 vector's routine).
FACINX  jsr AYINT
        lda FACMO
        ldy FACLO
        rts
; INTIDX: the next formula as an index: POSINT. POSINT: FAC as an integer 0..32767 in
; FACMO/FACLO (high first), else ILLEGAL QUANTITY. AYINT: the same for -32768..32767.
INTIDX  jsr CHRGET
        jsr FRMEVL
POSINT  jsr CHKNUM
        lda FACSGN
        bmi NONONO
AYINT   lda FACEXP
        cmp #$90
        bcc QINTGO
        lda #<N32768
        ldy #>N32768
        jsr FCOMP
NONONO  bne FCERR
QINTGO  jmp QINT

; ISARY: an array element (or DIM's array). Header: name (2), total size (2), number of
; dimensions (1), each dimension's size high byte first (2 each); elements of 5 (real),
; 2 (integer) or 3 (string) bytes, the first index varying fastest. An array that does not
; exist is made with 11 elements per dimension (DIM: the sizes given + 1).
ISARY   lda DIMFLG
        ora INTFLG
        pha
        lda VALTYP
        pha
        ldy #0
INDLOP  tya                     ; the indices go on the stack under DIMFLG and VALTYP
        pha
        lda VARNAM+1
        pha
        lda VARNAM
        pha
        jsr INTIDX
        pla
        sta VARNAM
        pla
        sta VARNAM+1
        pla
        tay
        tsx
        lda $0102,x
        pha
        lda $0101,x
        pha
        lda INDICE
        sta $0102,x
        lda INDICE+1
        sta $0101,x
        iny
        jsr CHRGOT
        cmp #","
        beq INDLOP
        sty COUNT
        jsr CHKCLS
        pla
        sta VALTYP
        pla
        sta INTFLG
        and #$7F
        sta DIMFLG
        ldx ARYTAB
        lda ARYTAB+1
LOPFDA  stx LOWTR
        sta LOWTR+1
        cmp STREND+1
        bne LOPFDV
        cpx STREND
        beq NOTFDD
LOPFDV  ldy #0
        lda (LOWTR),y
        iny
        cmp VARNAM
        bne NMARY1
        lda VARNAM+1
        cmp (LOWTR),y
        beq GOTARY
NMARY1  iny
        lda (LOWTR),y
        clc
        adc LOWTR
        tax
        iny
        lda (LOWTR),y
        adc LOWTR+1
        bcc LOPFDA
BSERR   ldx #ERR_BAD_SUBSCRIPT
        byte $2C
FCERR   ldx #ERR_ILLEGAL_QUANTITY
ERRGO3  jmp ERROR
GOTARY  ldx #ERR_REDIMD_ARRAY
        lda DIMFLG
        bne ERRGO3
        jsr FMAPTR
        lda COUNT
        ldy #4
        cmp (LOWTR),y
        bne BSERR
        jmp GETDEF

; A new array at STREND (LOWTR): its header, then its elements zeroed.
NOTFDD  jsr FMAPTR
        jsr REASON
        lda #0
        tay
        sta CURTOL+1
        ldx #5                  ; the element size from the name's bits
        lda VARNAM
        sta (LOWTR),y
        bpl NOTFLT
        dex
NOTFLT  iny
        lda VARNAM+1
        sta (LOWTR),y
        bpl STOMLT
        dex
        dex
STOMLT  stx CURTOL
        lda COUNT
        ldy #4                  ; the number of dimensions
        sta (LOWTR),y
LOPPTA  ldx #11
        lda #0
        bit DIMFLG
        bvc NOTDIM
        pla
        clc
        adc #1
        tax
        pla
        adc #0
NOTDIM  iny
        sta (LOWTR),y
        iny
        txa
        sta (LOWTR),y
        jsr UMULT
        stx CURTOL
        sta CURTOL+1
        ldy INDEX
        dec COUNT
        bne LOPPTA
        adc ARYPNT+1
        bcs OMERR1
        sta ARYPNT+1
        tay
        txa
        adc ARYPNT
        bcc GREASE
        iny
        beq OMERR1
GREASE  jsr REASON
        sta STREND
        sty STREND+1
        lda #0
        inc CURTOL+1
        ldy CURTOL
        beq DECCUR
ZERITA  dey
        sta (ARYPNT),y
        bne ZERITA
DECCUR  dec ARYPNT+1
        dec CURTOL+1
        bne ZERITA
        inc ARYPNT+1
        sec
        lda STREND
        sbc LOWTR
        ldy #2
        sta (LOWTR),y
        lda STREND+1
        iny
        sbc LOWTR+1
        sta (LOWTR),y
        lda DIMFLG
        bne DIMRTS
        iny
; The element's address: the indices (on the stack) checked against the sizes and combined.
GETDEF  lda (LOWTR),y
        sta COUNT
        lda #0
        sta CURTOL
INLPNM  sta CURTOL+1
        iny
        pla
        tax
        sta INDICE
        pla
        sta INDICE+1
        cmp (LOWTR),y
        bcc INLPN2
        bne BSERR7
        iny
        txa
        cmp (LOWTR),y
        bcc INLPN1
BSERR7  jmp BSERR
OMERR1  jmp OMERR
INLPN2  iny
INLPN1  lda CURTOL+1
        ora CURTOL
        clc
        beq ADDIND
        jsr UMULT
        txa
        adc INDICE
        tax
        tya
        ldy INDEX1
ADDIND  adc INDICE+1
        stx CURTOL
        dec COUNT
        bne INLPNM
        sta CURTOL+1
        ldx #5
        lda VARNAM
        bpl NOTFL1
        dex
NOTFL1  lda VARNAM+1
        bpl STOML1
        dex
        dex
STOML1  stx ADDEND
        lda #0
        jsr UMULTD
        txa
        adc ARYPNT
        sta VARPNT
        tya
        adc ARYPNT+1
        sta VARPNT+1
        tay
        lda VARPNT
DIMRTS  rts

; UMULT: X (low) and Y (high) = CURTOL * the word at LOWTR+Y-1 (high), LOWTR+Y (low);
; UMULTD: * ADDEND (A = its high byte). OUT OF MEMORY past 65535.
UMULT   sty INDEX
        lda (LOWTR),y
        sta ADDEND
        dey
        lda (LOWTR),y
UMULTD  sta ADDEND+1
        lda #16
        sta DECCNT
        ldx #0
        ldy #0
UMULTC  txa
        asl a
        tax
        tya
        rol a
        tay
        bcs OMERR1
        asl CURTOL
        rol CURTOL+1
        bcc UMLCNT
        clc
        txa
        adc ADDEND
        tax
        tya
        adc ADDEND+1
        tay
        bcs OMERR1
UMLCNT  dec DECCNT
        bne UMULTC
UMLRTS  rts

*=$B37D
; FRE: the free bytes between the arrays and the strings (after a garbage collection), as
; a signed 16-bit number (above 32767: negative, as Commodore's).
FRE     lda VALTYP
        beq NOFREF
        jsr FREFAC
NOFREF  jsr GARBA2
        sec
        lda FRETOP
        sbc STREND
        tay
        lda FRETOP+1
        sbc STREND+1
; GIVAYF: the signed integer A (high) Y (low) into FAC.
GIVAYF  ldx #0
        stx VALTYP
        sta FACHO
        sty FACHO+1
        ldx #$90
        jmp FLOATS
; POS: the cursor's column (PLOT).
POS     sec
        jsr PLOT
; SNGFLT: Y (0..255) into FAC.
SNGFLT  lda #0
        beq GIVAYF

; ERRDIR: ILLEGAL DIRECT in direct mode (CURLIN's high byte $FF).
ERRDIR  ldx CURLIN+1
        inx
        bne UMLRTS
        ldx #ERR_ILLEGAL_DIRECT
        byte $2C
ERRGUF  ldx #ERR_UNDEFD_FUNCTION
        jmp ERROR

; DEF FNx(v)=formula: the FN variable (first letter with bit 7) keeps the formula's text
; address, the argument variable's address and the formula's first character.
ST_DEF  jsr GETFNM
        jsr ERRDIR
        jsr CHKOPN
        lda #$80
        sta SUBFLG
        jsr PTRGET
        jsr CHKNUM
        jsr CHKCLS
        lda #TK_EQUAL
        jsr SYNCHR
        pha
        lda VARPNT+1
        pha
        lda VARPNT
        pha
        lda TXTPTR+1
        pha
        lda TXTPTR
        pha
        jsr ST_DATA             ; the rest of the statement is the formula: skip it
        jmp DEFFIN

; GETFNM: FN and the function's name at TXTPTR: DEFPNT = its variable (made if new).
GETFNM  lda #TK_FN
        jsr SYNCHR
        ora #$80
        sta SUBFLG
        jsr PTRGT2
        sta DEFPNT
        sty DEFPNT+1
        jmp CHKNUM

; FN: the argument into the function's variable (its old value kept on the stack and put
; back after), the formula evaluated at its text.
FNDOER  jsr GETFNM
        lda DEFPNT+1
        pha
        lda DEFPNT
        pha
        jsr PARCHK
        jsr CHKNUM
        pla
        sta DEFPNT
        pla
        sta DEFPNT+1
        ldy #2
        lda (DEFPNT),y
        sta VARPNT
        tax
        iny
        lda (DEFPNT),y
        beq ERRGUF
        sta VARPNT+1
        iny
DEFSTF  lda (VARPNT),y
        pha
        dey
        bpl DEFSTF
        ldy VARPNT+1
        jsr MOVMF               ; (leaves Y = 0)
        lda TXTPTR+1
        pha
        lda TXTPTR
        pha
        lda (DEFPNT),y
        sta TXTPTR
        iny
        lda (DEFPNT),y
        sta TXTPTR+1
        lda VARPNT+1
        pha
        lda VARPNT
        pha
        jsr FRMNUM
        pla
        sta DEFPNT
        pla
        sta DEFPNT+1
        jsr CHRGOT
        beq FNDONE
        jmp SNERR
FNDONE  pla
        sta TXTPTR
        pla
        sta TXTPTR+1
; DEFFIN: five bytes from the stack into DEFPNT's variable.
DEFFIN  ldy #0
        pla
        sta (DEFPNT),y
        pla
        iny
        sta (DEFPNT),y
        pla
        iny
        sta (DEFPNT),y
        pla
        iny
        sta (DEFPNT),y
        pla
        iny
        sta (DEFPNT),y
DEFRTS  rts

; ============================================================================================
; $B79B-$B848: bytes and addresses from formulas, PEEK, POKE, WAIT.
*=$B79B
; GTBYTC: GETBYT after CHRGET. GETBYT: a formula as a byte in X (ILLEGAL QUANTITY outside
; 0..255), then CHRGOT. CONINT: the same from FAC.
GTBYTC  jsr CHRGET
GETBYT  jsr FRMNUM
CONINT  jsr POSINT
        ldx FACMO
        bne GOFUC
        ldx FACLO
        jmp CHRGOT
; $B7AD-$B7EA: strings.asm's VAL (and ST2TXT at its end), as Commodore's.


*=$B7EB
; GETNUM: an address (LINNUM) "," a byte (X), as POKE and WAIT take them. COMBYT: "," byte.
GETNUM  jsr FRMNUM
        jsr GETADR
COMBYT  jsr CHKCOM
        jmp GETBYT
; GETADR: FAC as an address 0..65535 in LINNUM (and A high, Y low), else ILLEGAL QUANTITY.
GETADR  lda FACSGN
        bmi GOFUC
        lda FACEXP
        cmp #$91
        bcs GOFUC
        jsr QINT
        lda FACMO
        ldy FACLO
        sty LINNUM
        sta LINNUM+1
        rts
; PEEK(address): the byte there (LINNUM kept).
PEEK    lda LINNUM+1
        pha
        lda LINNUM
        pha
        jsr GETADR
        ldy #0
        lda (LINNUM),y
        tay
        pla
        sta LINNUM
        pla
        sta LINNUM+1
        jmp SNGFLT
; POKE address,byte.
ST_POKE jsr GETNUM
        txa
        ldy #0
        sta (LINNUM),y
        rts
; WAIT address,and[,eor]: until (PEEK(address) EOR eor) AND and is not zero.
ST_WAIT jsr GETNUM
        stx ANDMSK
        ldx #0
        jsr CHRGOT
        beq WAITZ
        jsr COMBYT
WAITZ   stx EORMSK
        ldy #0
WAITER  lda (LINNUM),y
        eor EORMSK
        and ANDMSK
        beq WAITER
ZERRTS  rts                     ; (float.asm's FADDC returns through it, as Microsoft's)
