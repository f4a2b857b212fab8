; c64kit BASIC V2: the 5-byte floating point: FADD FSUB FMULT FDIV, normalising and rounding, moves between FAC, ARG and memory, conversions, FCOMP, SGN ABS INT, FIN (text to number) and FOUT (number to text). Owner: float.
;
; The format (Microsoft's 6502 BASIC with its extra precision, as the C64 has it): a packed
; number in memory is 5 bytes, the exponent (bias $80, 0 means the number is 0) then the
; mantissa high byte first, its top bit (always 1 once normalised) replaced by the sign.
; FAC ($61-$66) and ARG ($69-$6E) hold numbers unpacked: exponent, 4 mantissa bytes with
; the top bit present, sign byte ($00 or $FF). FACOV ($70) is FAC's rounding byte, below
; its lowest mantissa byte; ARISGN ($6F) is the sign of ARG EOR FAC's, for add and multiply.
; A pointer to a packed number comes in A (low) and Y (high), except MOVMF's in X/Y.
; The algorithms are Microsoft's (../shared/reference/ms-basic-6502), step for step: results
; must be Commodore's bit for bit, rounding byte included, and the entries sit where
; Commodore's are, since machine code calls them there.
; Entries the other files use besides the documented ones: FADDT FSUBT FMULTT FDIVT (the
; operators), FLOATS (GIVAYF: FACHO/FACMOH = the integer, X = $90), FLOATC, QINT (AYINT),
; FINLOG and FINML6 (TI$ =), FOUTC (STR$: Y = 0 puts the text at FBUFFR, $00FF), FOUTIM
; with Y = FDCEND-FOUTBL (TI$), MOVEF, MOV1F/MOV2F, CONUPK, MLDVEX (EXP), FONE FHALF ZERO
; NEGHLF SQRHLF (constants), ZEROFC, NEGFAC, SIGN, FCOMPN, INCRND, RNDSHF.
; Calls out: ERROR, FCERR, STROUT, INTXT (" IN "), NEGOP (FIN's "-"), POLYX (LOG; $E043).

*=$B849

; FADDH: FAC = FAC + 0.5 (FOUT's rounding). As FADD.
FADDH   lda #<FHALF
        ldy #>FHALF
        jmp FADD

; FSUB: FAC = (A/Y) - FAC.
FSUB    jsr CONUPK
; FSUBT: FAC = ARG - FAC (the "-" operator: ARG and FAC set, A = FACEXP).
FSUBT   lda FACSGN
        eor #$FF
        sta FACSGN
        eor ARGSGN
        sta ARISGN
        lda FACEXP
        jmp FADDT

; FADD's long shift: ARG or FAC (X) shifted right by -A bits, bytes first.
FADD5   jsr SHIFTR
        bcc FADD4

; FADD: FAC = (A/Y) + FAC.
FADD    jsr CONUPK
; FADDT: FAC = ARG + FAC (the "+" operator: ARG, FAC and ARISGN set, flags from FACEXP).
; The smaller operand is shifted right to the other's exponent through the rounding byte,
; then the mantissas are added (or subtracted, signs differing) and the result normalised.
FADDT   bne FADDNZ
        jmp MOVFA               ; FAC = 0: the sum is ARG
FADDNZ  ldx FACOV
        stx OLDOV
        ldx #ARGEXP             ; shift ARG unless FAC is the smaller
        lda ARGEXP
; FADDC: as FADDT with A = Y = ARGEXP, X = #ARGEXP, OLDOV set (MUL10's entry).
FADDC   tay
        beq ZERRTS              ; ARG = 0: the sum is FAC
        sec
        sbc FACEXP
        beq FADD4               ; the same exponent: no shift
        bcc FADDA
        sty FACEXP              ; ARG is the larger: its exponent and sign are the result's
        ldy ARGSGN
        sty FACSGN
        eor #$FF
        adc #0                  ; A = -(ARGEXP - FACEXP) (carry is set)
        ldy #0
        sty OLDOV
        ldx #FACEXP             ; shift FAC instead
        bne FADD1
FADDA   ldy #0
        sty FACOV
FADD1   cmp #$F9                ; more than 7 bits: shift whole bytes first
        bmi FADD5
        tay
        lda FACOV
        lsr 1,x
        jsr ROLSHF
FADD4   bit ARISGN
        bpl FADD2               ; same signs: add
        ldy #FACEXP             ; subtract the shifted one (X) from the other (Y)
        cpx #ARGEXP
        beq SUBIT
        ldy #ARGEXP
SUBIT   sec
        eor #$FF
        adc OLDOV
        sta FACOV
        lda 4,y
        sbc 4,x
        sta FACLO
        lda 3,y
        sbc 3,x
        sta FACMO
        lda 2,y
        sbc 2,x
        sta FACMOH
        lda 1,y
        sbc 1,x
        sta FACHO
; FADFLT: normalise FAC; carry clear means its mantissa is negative (two's complement).
FADFLT  bcs NORMAL
        jsr NEGFAC

; NORMAL: shift FAC left until its mantissa's top bit is set, lowering the exponent; a
; number that underflows becomes 0.
NORMAL  ldy #0
        tya
        clc
NORM3   ldx FACHO               ; whole bytes first
        bne NORM1
        ldx FACMOH
        stx FACHO
        ldx FACMO
        stx FACMOH
        ldx FACLO
        stx FACMO
        ldx FACOV
        stx FACLO
        sty FACOV
        adc #8
        cmp #32
        bne NORM3
; ZEROFC: FAC = 0 (exponent and sign; A = 0).
ZEROFC  lda #0
ZEROF1  sta FACEXP
ZEROML  sta FACSGN
        rts

FADD2   adc OLDOV               ; same signs: add the mantissas
        sta FACOV
        lda FACLO
        adc ARGLO
        sta FACLO
        lda FACMO
        adc ARGMO
        sta FACMO
        lda FACMOH
        adc ARGMOH
        sta FACMOH
        lda FACHO
        adc ARGHO
        sta FACHO
        jmp SQUEEZ              ; a carry out goes back in at the top

NORM2   adc #1
        asl FACOV
        rol FACLO
        rol FACMO
        rol FACMOH
        rol FACHO
NORM1   bpl NORM2
        sec
        sbc FACEXP              ; A = bits shifted
        bcs ZEROFC              ; as many as the exponent or more: underflow to 0
        eor #$FF
        adc #1
        sta FACEXP
SQUEEZ  bcc RNDRTS
; RNDSHF: carry into FAC from the top: the exponent up by one, the mantissa right by one.
RNDSHF  inc FACEXP
        beq OVERR
        ror FACHO
        ror FACMOH
        ror FACMO
        ror FACLO
        ror FACOV
RNDRTS  rts

; NEGFAC: FAC's sign and mantissa (with FACOV) negated, two's complement.
NEGFAC  lda FACSGN
        eor #$FF
        sta FACSGN
; NEGFCH: the mantissa and FACOV only.
NEGFCH  lda FACHO
        eor #$FF
        sta FACHO
        lda FACMOH
        eor #$FF
        sta FACMOH
        lda FACMO
        eor #$FF
        sta FACMO
        lda FACLO
        eor #$FF
        sta FACLO
        lda FACOV
        eor #$FF
        sta FACOV
        inc FACOV
        bne INCFRT
; INCFAC: FAC's mantissa plus one (Z set if it carried out of the top).
INCFAC  inc FACLO
        bne INCFRT
        inc FACMO
        bne INCFRT
        inc FACMOH
        bne INCFRT
        inc FACHO
INCFRT  rts

; OVERR: ?OVERFLOW  ERROR.
OVERR   ldx #ERR_OVERFLOW
        jmp ERROR

; MULSHF: the product (RESHO...) shifted right one byte (a multiplier byte of 0).
MULSHF  ldx #RESHO-1
; SHIFTR: the 4-byte mantissa at X+1 (X = #ARGEXP, #FACEXP or #RESHO-1) shifted right by
; -A bits (A negative), bytes first; the bits shifted out go to A (and FACOV for bytes);
; BITS is what comes in at the top on a byte shift (QINT's sign). Leaves carry clear.
SHFTR2  ldy 4,x
        sty FACOV
        ldy 3,x
        sty 4,x
        ldy 2,x
        sty 3,x
        ldy 1,x
        sty 2,x
        ldy BITS
        sty 1,x
SHIFTR  adc #8
        bmi SHFTR2
        beq SHFTR2
        sbc #8                  ; carry either way: it works out (Microsoft's note)
        tay
        lda FACOV
        bcs SHFTRT
SHFTR3  asl 1,x                 ; one bit right, the top bit kept (the sign)
        bcc SHFTR4
        inc 1,x
SHFTR4  ror 1,x
        ror 1,x
; ROLSHF: the rest of a one-bit shift: carry into X+2, then X+3, X+4 and A; Y counts up.
ROLSHF  ror 2,x
        ror 3,x
        ror 4,x
        ror a
        iny
        bne SHFTR3
SHFTRT  clc
        rts

; 1, for LOG and others.
FONE    byte $81,$00,$00,$00,$00        ; 1
; LOG and its constants (math.asm) fill $B9C1-$BA27, as Commodore's do, and fall into FMULT.
*=$BA28

; FMULT: FAC = (A/Y) * FAC.
FMULT   jsr CONUPK
; FMULTT: FAC = ARG * FAC (the "*" operator). The product is built in RESHO.. by shifting
; ARG in for each bit of FAC, lowest byte (FACOV) first; its low bits fall into FACOV.
FMULTT  bne FMULNZ
        jmp MULTRT              ; FAC = 0: so is the product
FMULNZ  jsr MULDIV
        lda #0
        sta RESHO
        sta RESMOH
        sta RESMO
        sta RESLO
        lda FACOV
        jsr MLTPLY
        lda FACLO
        jsr MLTPLY
        lda FACMO
        jsr MLTPLY
        lda FACMOH
        jsr MLTPLY
        lda FACHO
        jsr MLTPL1
        jmp MOVFR

; MLTPLY: multiply ARG by the byte in A into the product (a 0 byte: shift by a byte).
MLTPLY  bne MLTPL1
        jmp MULSHF
MLTPL1  lsr a
        ora #$80                ; the marker bit: the loop ends when it is shifted out
MLTPL2  tay
        bcc MLTPL3
        clc
        lda RESLO
        adc ARGLO
        sta RESLO
        lda RESMO
        adc ARGMO
        sta RESMO
        lda RESMOH
        adc ARGMOH
        sta RESMOH
        lda RESHO
        adc ARGHO
        sta RESHO
MLTPL3  ror RESHO
        ror RESMOH
        ror RESMO
        ror RESLO
        ror FACOV
        tya
        lsr a
        bne MLTPL2
MULTRT  rts

; CONUPK: unpack the number at A/Y into ARG; ARISGN = the signs' EOR; A = FACEXP (flags).
CONUPK  sta INDEX1
        sty INDEX1+1
        ldy #4
        lda (INDEX1),y
        sta ARGLO
        dey
        lda (INDEX1),y
        sta ARGMO
        dey
        lda (INDEX1),y
        sta ARGMOH
        dey
        lda (INDEX1),y
        sta ARGSGN
        eor FACSGN
        sta ARISGN
        lda ARGSGN
        ora #$80
        sta ARGHO
        dey
        lda (INDEX1),y
        sta ARGEXP
        lda FACEXP
        rts

; MULDIV: FACEXP = ARGEXP + FACEXP (FDIV negated FACEXP first), the bias removed once,
; FACSGN = ARISGN; out of range: OVERR, or FAC = 0 and the caller's caller resumes.
MULDIV  lda ARGEXP
MLDEXP  beq ZEREMV
        clc
        adc FACEXP
        bcc TRYOFF
        bmi GOOVER
        clc
        byte $2C                ; BIT abs: skips the BPL
TRYOFF  bpl ZEREMV
        adc #$80
        sta FACEXP
        bne MLDSGN
        jmp ZEROML
MLDSGN  lda ARISGN
        sta FACSGN
        rts
; MLDVEX: EXP's range check: FAC positive overflows, negative underflows to 0.
MLDVEX  lda FACSGN
        eor #$FF
        bmi GOOVER
ZEREMV  pla                     ; underflow: FAC = 0, returning from MULDIV's caller
        pla
        jmp ZEROFC
GOOVER  jmp OVERR

; MUL10: FAC = FAC * 10 (FAC*4 + FAC, doubled).
MUL10   jsr MOVAF
        tax
        beq MUL10R
        clc
        adc #2
        bcs GOOVER
; FINML6: ARG (with A its exponent raised) added to FAC, then doubled.
FINML6  ldx #0
        stx ARISGN
        jsr FADDC
        inc FACEXP
        beq GOOVER
MUL10R  rts

TENC    byte $84,$20,$00,$00,$00        ; 10

; DIV10: FAC = FAC / 10 (positive FAC).
DIV10   jsr MOVAF
        lda #<TENC
        ldy #>TENC
        ldx #0
; FDIVF: FAC = ARG / (A/Y) with ARISGN = X.
FDIVF   stx ARISGN
        jsr MOVFM
        jmp FDIVT

; FDIV: FAC = (A/Y) / FAC.
FDIV    jsr CONUPK
; FDIVT: FAC = ARG / FAC (the "/" operator). ?DIVISION BY ZERO for FAC = 0. The quotient's
; bits come one at a time by comparing and subtracting, 34 of them (the last two go to FACOV).
FDIVT   beq DV0ERR
        jsr ROUND
        lda #0
        sec
        sbc FACEXP
        sta FACEXP
        jsr MULDIV
        inc FACEXP
        beq GOOVER
        ldx #$FC                ; RESHO-RESLO, then the spare byte
        lda #1
DIVIDE  ldy ARGHO
        cpy FACHO
        bne SAVQUO
        ldy ARGMOH
        cpy FACMOH
        bne SAVQUO
        ldy ARGMO
        cpy FACMO
        bne SAVQUO
        ldy ARGLO
        cpy FACLO
SAVQUO  php                     ; carry: ARG >= FAC, a quotient bit of 1
        rol a
        bcc QSHFT
        inx                     ; a byte of the quotient is complete
        sta RESLO,x
        beq LD100
        bpl DIVNRM
        lda #1
QSHFT   plp
        bcs DIVSUB
SHFARG  asl ARGLO
        rol ARGMO
        rol ARGMOH
        rol ARGHO
        bcs SAVQUO
        bmi DIVIDE
        bpl SAVQUO
DIVSUB  tay
        lda ARGLO
        sbc FACLO
        sta ARGLO
        lda ARGMO
        sbc FACMO
        sta ARGMO
        lda ARGMOH
        sbc FACMOH
        sta ARGMOH
        lda ARGHO
        sbc FACHO
        sta ARGHO
        tya
        jmp SHFARG
LD100   lda #$40                ; two more bits only
        bne QSHFT
DIVNRM  asl a                   ; those two bits to the top of FACOV
        asl a
        asl a
        asl a
        asl a
        asl a
        sta FACOV
        plp
        jmp MOVFR
; DV0ERR: ?DIVISION BY ZERO  ERROR.
DV0ERR  ldx #ERR_DIVISION_BY_ZERO
        jmp ERROR

; MOVFR: the product or quotient (RESHO..) to FAC's mantissa, normalised.
MOVFR   lda RESHO
        sta FACHO
        lda RESMOH
        sta FACMOH
        lda RESMO
        sta FACMO
        lda RESLO
        sta FACLO
        jmp NORMAL

; MOVFM: FAC = the number at A/Y; FACOV = 0; A = FACEXP (flags), Y = 0.
MOVFM   sta INDEX1
        sty INDEX1+1
        ldy #4
        lda (INDEX1),y
        sta FACLO
        dey
        lda (INDEX1),y
        sta FACMO
        dey
        lda (INDEX1),y
        sta FACMOH
        dey
        lda (INDEX1),y
        sta FACSGN
        ora #$80
        sta FACHO
        dey
        lda (INDEX1),y
        sta FACEXP
        sty FACOV
        rts

; MOV2F, MOV1F: FAC rounded to TEMPF2 or TEMPF1; MOVVF: to the variable at FORPNT;
; MOVMF: to the 5 bytes at X (low) / Y (high). Leave Y = 0, FACOV = 0.
MOV2F   ldx #TEMPF2
        byte $2C                ; BIT abs: skips the next LDX
MOV1F   ldx #TEMPF1
        ldy #0
        beq MOVMF
MOVVF   ldx FORPNT
        ldy FORPNT+1
MOVMF   jsr ROUND
        stx INDEX1
        sty INDEX1+1
        ldy #4
        lda FACLO
        sta (INDEX1),y
        dey
        lda FACMO
        sta (INDEX1),y
        dey
        lda FACMOH
        sta (INDEX1),y
        dey
        lda FACSGN              ; the sign in place of the mantissa's top bit
        ora #$7F
        and FACHO
        sta (INDEX1),y
        dey
        lda FACEXP
        sta (INDEX1),y
        sty FACOV
        rts

; MOVFA: FAC = ARG (FACOV = 0).
MOVFA   lda ARGSGN
MOVFA1  sta FACSGN
        ldx #5
MOVFAL  lda ARGEXP-1,x
        sta FACEXP-1,x
        dex
        bne MOVFAL
        stx FACOV
        rts

; MOVAF: ARG = FAC rounded; MOVEF: without rounding. Leave X = 0, FACOV = 0, A = ARGEXP.
MOVAF   jsr ROUND
MOVEF   ldx #6
MOVAFL  lda FACEXP-1,x
        sta ARGEXP-1,x
        dex
        bne MOVAFL
        stx FACOV
MOVRTS  rts

; ROUND: FAC rounded by FACOV's top bit (FACOV shifted left: its top bit is spent).
ROUND   lda FACEXP
        beq MOVRTS
        asl FACOV
        bcc MOVRTS
INCRND  jsr INCFAC
        bne MOVRTS
        jmp RNDSHF              ; carried out of the top (carry is set)

; SIGN: A = 0 if FAC = 0, 1 if positive, $FF if negative.
SIGN    lda FACEXP
        beq SIGNRT
FCSIGN  lda FACSGN
FCOMPS  rol a
        lda #$FF
        bcs SIGNRT
        lda #1
SIGNRT  rts

; SGN: FAC = SGN(FAC).
SGN     jsr SIGN
; FLOAT: FAC = the signed byte in A.
FLOAT   sta FACHO
        lda #0
        sta FACMOH
        ldx #$88
; FLOATS: FAC = the signed number in FACHO.. with exponent X (GIVAYF: FACHO/FACMOH, $90).
FLOATS  lda FACHO
        eor #$FF
        rol a                   ; carry = not the sign
; FLOATC: as FLOATS with carry clear for negative (LINPRT: set, for unsigned).
FLOATC  lda #0
        sta FACLO
        sta FACMO
FLOATB  stx FACEXP
        sta FACOV
        sta FACSGN
        jmp FADFLT

; ABS: FAC = ABS(FAC).
ABS     lsr FACSGN
        rts

; FCOMP: compare FAC with the number at A/Y: A = 0 equal, 1 FAC greater, $FF FAC smaller
; (FACOV counts: FAC is taken unrounded).
FCOMP   sta INDEX2
FCOMPN  sty INDEX2+1
        ldy #0
        lda (INDEX2),y
        iny
        tax
        beq SIGN                ; the number is 0: FAC's sign decides
        lda (INDEX2),y
        eor FACSGN
        bmi FCSIGN              ; signs differ: FAC's sign decides
FOUTCP  cpx FACEXP
        bne FCOMPC
        lda (INDEX2),y
        ora #$80
        cmp FACHO
        bne FCOMPC
        iny
        lda (INDEX2),y
        cmp FACMOH
        bne FCOMPC
        iny
        lda (INDEX2),y
        cmp FACMO
        bne FCOMPC
        iny
        lda #$7F
        cmp FACOV               ; carry: FACOV below $80
        lda (INDEX2),y
        sbc FACLO
        beq QINTRT
FCOMPC  lda FACSGN              ; carry: the number is greater in magnitude
        bcc FCOMPD
        eor #$FF
FCOMPD  jmp FCOMPS

; QINT: FAC's integer part as a 32-bit two's complement integer in FACHO..FACLO (big
; endian), for |FAC| < 2^31; Y = 0, BITS = 0.
QINT    lda FACEXP
        beq CLRFAC
        sec
        sbc #$A0                ; bits to shift: 32 - exponent
        bit FACSGN
        bpl QISHFT
        tax
        lda #$FF
        sta BITS                ; negative: ones come in at the top
        jsr NEGFCH
        txa
QISHFT  ldx #FACEXP
        cmp #$F9
        bpl QINT1
        jsr SHIFTR
        sty BITS
QINTRT  rts
QINT1   tay                     ; under 8 bits: one at a time, the sign kept
        lda FACSGN
        and #$80
        lsr FACHO
        ora FACHO
        sta FACHO
        jsr ROLSHF
        sty BITS
        rts

; INT: FAC = INT(FAC), the greatest integer not above it; INTEGR = its low byte.
INT     lda FACEXP
        cmp #$A0
        bcs INTRTS              ; 2^31 and over: an integer already
        jsr QINT
        sty FACOV
        lda FACSGN
        sty FACSGN
        eor #$80
        rol a                   ; carry = not the sign, for FADFLT
        lda #$A0
        sta FACEXP
        lda FACLO
        sta INTEGR
        jmp FADFLT
CLRFAC  sta FACHO               ; A = 0
        sta FACMOH
        sta FACMO
        sta FACLO
        tay
INTRTS  rts

; FIN: the number in the text at TXTPTR to FAC (A = the first character, flags as CHRGET
; leaves them). The digits are gathered as an integer in FAC, DECCNT counting those after the
; point, then FAC is multiplied or divided by 10 as often as the exponent (E) less DECCNT
; says. Leaves TXTPTR at the first character that is not part of the number.
FIN     ldy #0
        ldx #10                 ; DECCNT TENEXP DPTFLG EXPSGN, FAC, SGNFLG = 0
FINZLP  sty DECCNT,x
        dex
        bpl FINZLP
        bcc FINDGQ              ; a digit
        cmp #$2D                ; "-"
        bne QPLUS
        stx SGNFLG              ; $FF
        beq FINC
QPLUS   cmp #$2B                ; "+"
        bne FIN1
FINC    jsr CHRGET
FINDGQ  bcc FINDIG
FIN1    cmp #$2E                ; "."
        beq FINDP
        cmp #$45                ; "E"
        bne FINE
        jsr CHRGET
        bcc FNEDG1
        cmp #$AB                ; the "-" token (CRUNCH made one of it)
        beq FINEC1
        cmp #$2D                ; "-"
        beq FINEC1
        cmp #$AA                ; the "+" token
        beq FINEC
        cmp #$2B                ; "+"
        beq FINEC
        bne FINEC2
FINEC1  ror EXPSGN              ; carry set by the CMP
FINEC   jsr CHRGET
FNEDG1  bcc FINEDG
FINEC2  bit EXPSGN
        bpl FINE
        lda #0
        sec
        sbc TENEXP
        jmp FINE1
FINDP   ror DPTFLG              ; bit 7 for the first point, bit 6 for a second: the end
        bit DPTFLG
        bvc FINC
FINE    lda TENEXP
FINE1   sec
        sbc DECCNT
        sta TENEXP
        beq FINQNG
        bpl FINMUL
FINDIV  jsr DIV10
        inc TENEXP
        bne FINDIV
        beq FINQNG
FINMUL  jsr MUL10
        dec TENEXP
        bne FINMUL
FINQNG  lda SGNFLG
        bmi NEGXQS
        rts
NEGXQS  jmp NEGOP

FINDIG  pha                     ; a digit: FAC = FAC * 10 + digit
        bit DPTFLG
        bpl FINDG1
        inc DECCNT
FINDG1  jsr MUL10
        pla
        sec
        sbc #$30
        jsr FINLOG
        jmp FINC

; FINLOG: FAC = FAC + the signed byte in A.
FINLOG  pha
        jsr MOVAF
        pla
        jsr FLOAT
        lda ARGSGN
        eor FACSGN
        sta ARISGN
        ldx FACEXP
        jmp FADDT

; FINEDG: a digit of the exponent: TENEXP = TENEXP * 10 + digit; 100 or more overflows
; (or stays 100, for a negative exponent).
FINEDG  lda TENEXP
        cmp #10
        bcc MLEX10
        lda #100
        bit EXPSGN
        bmi MLEXMI
        jmp OVERR
MLEX10  asl a
        asl a
        clc
        adc TENEXP
        asl a
        clc
        ldy #0
        adc (TXTPTR),y
        sec
        sbc #$30
MLEXMI  sta TENEXP
        jmp FINEC

; FOUT's bounds: numbers in [NZ0999, NZ9999] have 9 digits before the point.
NZ0999  byte $9B,$3E,$BC,$1F,$FD        ; 99999999.9
NZ9999  byte $9E,$6E,$6B,$27,$FD        ; 999999999
NZMIL   byte $9E,$6E,$6B,$28,$00        ; 1E9

; INPRT: print " IN " and the line number CURLIN (errors, BREAK).
INPRT   lda #<INTXT
        ldy #>INTXT
        jsr STROU2
        lda CURLIN+1
        ldx CURLIN
; LINPRT: print the unsigned 16-bit number A (high) / X (low), without the sign space:
; FOUTC with Y = 0 (NORMAL leaves it) puts the space at $00FF and the digits from $0100,
; which is what is printed ("IN 10", as Commodore's; Microsoft's called FOUT).
LINPRT  sta FACHO
        stx FACMOH
        ldx #$90
        sec
        jsr FLOATC
        jsr FOUTC
STROU2  jmp STROUT

; FOUT: FAC as text at $0100 (A/Y = $0100 on return, a 0 byte after it), as PRINT shows it:
; a space or "-", up to 9 significant digits, E notation under .01 and from 1E9 on.
; FOUTC: the same at FBUFFR+Y (STR$: Y = 0).
FOUT    ldy #1
FOUTC   lda #$20                ; " "
        bit FACSGN
        bpl FOUT1
        lda #$2D                ; "-"
FOUT1   sta FBUFFR,y
        sta FACSGN              ; positive from here on
        sty FBUFPT
        iny
        lda #$30                ; "0"
        ldx FACEXP
        bne FOUTNZ
        jmp FOUT19
FOUTNZ  lda #0
        cpx #$80
        beq FOUT37
        bcs FOUT7               ; 1 or more
FOUT37  lda #<NZMIL             ; under 1: times 1E9 first
        ldy #>NZMIL
        jsr FMULT
        lda #$F7                ; -9
FOUT7   sta DECCNT
FOUT4   lda #<NZ9999            ; bring FAC into [99999999.9, 999999999]
        ldy #>NZ9999
        jsr FCOMP
        beq BIGGES
        bpl FOUT9
FOUT3   lda #<NZ0999
        ldy #>NZ0999
        jsr FCOMP
        beq FOUT38
        bpl FOUT5
FOUT38  jsr MUL10
        dec DECCNT
        bne FOUT3
FOUT9   jsr DIV10
        inc DECCNT
        bne FOUT4
FOUT5   jsr FADDH
BIGGES  jsr QINT                ; 9 digits as an integer
        ldx #1                  ; digits before the point
        lda DECCNT
        clc
        adc #10
        bmi FOUTPI              ; under .01: E notation
        cmp #11
        bcs FOUT6               ; 1E9 or more: E notation
        adc #$FF
        tax
        lda #2
FOUTPI  sec
FOUT6   sbc #2
        sta TENEXP              ; the exponent printed (0: none)
        stx DECCNT
        txa
        beq FOUT39
        bpl FOUT8
FOUT39  ldy FBUFPT              ; "." and a "0" for numbers from .01 to .1
        lda #$2E
        iny
        sta FBUFFR,y
        txa
        beq FOUT16
        lda #$30
        iny
        sta FBUFFR,y
FOUT16  sty FBUFPT
FOUT8   ldy #0
; FOUTIM: the digits of FACHO..FACLO by the table from Y on (TI$: Y = FDCEND-FOUTBL),
; adding and subtracting each power of ten in turn until the sign flips.
FOUTIM  ldx #$80
FOUT2   lda FACLO
        clc
        adc FOUTBL+3,y
        sta FACLO
        lda FACMO
        adc FOUTBL+2,y
        sta FACMO
        lda FACMOH
        adc FOUTBL+1,y
        sta FACMOH
        lda FACHO
        adc FOUTBL,y
        sta FACHO
        inx
        bcs FOUT41
        bpl FOUT2
        bmi FOUT40
FOUT41  bmi FOUT2
FOUT40  txa
        bcc FOUTYP
        eor #$FF
        adc #10
FOUTYP  adc #$2F                ; "0" - 1
        iny
        iny
        iny
        iny
        sty FDECPT
        ldy FBUFPT
        iny
        tax
        and #$7F
        sta FBUFFR,y
        dec DECCNT
        bne STXBUF
        lda #$2E                ; the point
        iny
        sta FBUFFR,y
STXBUF  sty FBUFPT
        ldy FDECPT
FOUTCM  txa
        eor #$FF
        and #$80
        tax
        cpy #FDCEND-FOUTBL
        beq FOULDY
        cpy #TIMEND-FOUTBL
        bne FOUT2
FOULDY  ldy FBUFPT
FOUT11  lda FBUFFR,y            ; trailing zeros off, and a point left last
        dey
        cmp #$30
        beq FOUT11
        cmp #$2E
        beq FOUT12
        iny
FOUT12  lda #$2B                ; "+"
        ldx TENEXP
        beq FOUT17
        bpl FOUT14
        lda #0
        sec
        sbc TENEXP
        tax
        lda #$2D                ; "-"
FOUT14  sta FBUFFR+2,y
        lda #$45                ; "E"
        sta FBUFFR+1,y
        txa
        ldx #$2F
        sec
FOUT15  inx
        sbc #10
        bcs FOUT15
        adc #$3A
        sta FBUFFR+4,y
        txa
        sta FBUFFR+3,y
        lda #0
        sta FBUFFR+5,y
        beq FOUT20
FOUT19  sta FBUFFR,y
FOUT17  lda #0
        sta FBUFFR+1,y
FOUT20  lda #<FOUTXT
        ldy #>FOUTXT
        rts

FHALF   byte $80,$00                    ; 0.5 (its last three bytes are ZERO's)
ZERO    byte $00,$00,$00                ; 0

; FOUT's powers of ten, 32-bit, alternating in sign.
FOUTBL  byte $FA,$0A,$1F,$00            ; -100000000
        byte $00,$98,$96,$80            ; 10000000
        byte $FF,$F0,$BD,$C0            ; -1000000
        byte $00,$01,$86,$A0            ; 100000
        byte $FF,$FF,$D8,$F0            ; -10000
        byte $00,$00,$03,$E8            ; 1000
        byte $FF,$FF,$FF,$9C            ; -100
        byte $00,$00,$00,$0A            ; 10
        byte $FF,$FF,$FF,$FF            ; -1
; TI$'s: jiffies to hours (tens, units), minutes, seconds.
FDCEND  byte $FF,$DF,$0A,$80            ; -2160000
        byte $00,$03,$4B,$C0            ; 216000
        byte $FF,$FF,$73,$60            ; -36000
        byte $00,$00,$0E,$10            ; 3600
        byte $FF,$FF,$FD,$A8            ; -600
        byte $00,$00,$00,$3C            ; 60
TIMEND

FOUTXT  = FBUFFR+1              ; FOUT's text ($0100)

; FADDC's return for ARG = 0 is Microsoft's ZERRTS, WAIT's last RTS, just before this file's
; area ($B848). Until expr.asm defines it, it is placed here.
        ifndef ZERRTS
*=$B848
ZERRTS  rts
        endif
