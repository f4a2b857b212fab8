; c64kit BASIC V2: POLY, SQR, the power operator, EXP, LOG, SIN COS TAN ATN, RND. Owner: math.
;
; The algorithms are Microsoft's (6502 BASIC 1.1 with its extra precision, as Commodore's V2
; has them), so the results are Commodore's bit for bit: each function is the same sequence
; of float operations on the same constants. Functions are entered with the argument in FAC
; and leave the result there. The constants are 5-byte floats (exponent + $80, then the
; mantissa, high byte first, its top bit the sign); each comment gives the value it holds.
; Mathematical ones are the nearest 5-byte value; the series coefficients are Microsoft's
; (minimax fits, not Taylor terms: its source's decimal comments are rounded, and some digits
; are wrong: the value given here is the one the bytes hold).
;
; RAM these routines share with the float package, under Microsoft's names:
;   TEMPF1 ($57) and TEMPF2 ($5C): POLYX's x and POLY's x; TEMPF3 = DEFPNT ($4E): the power
;   operator's exponent and TAN's sine; DEGREE = SGNFLG: POLY's count of terms; POLYPT =
;   FBUFPT: POLY's pointer into its table; OLDOV = JMPER+2: EXP's rounding byte; INTEGR =
;   CHARAC: the low byte INT leaves.

; ---------------------------------------------------------------------------------------------
; LOG and its constants do not fit in math's areas, which Commodore's own code for the other
; routines fills to the byte. Commodore keeps them here, inside the float package's area
; ($B9BC-$BA27, LOG at $B9EA, between FADD's and FMULT's code): so do we, until the float
; package's layout says where they go.
*=$B9C1

; LOG's odd series for LOG2(f) + 1/2: count-1, then 4 terms.
LOGCN2  byte 3
        byte $7F,$5E,$56,$CB,$79        ; 0.434255942
        byte $80,$13,$9B,$0B,$64        ; 0.576584541
        byte $80,$76,$38,$93,$16        ; 0.961800759
        byte $82,$38,$AA,$3B,$20        ; 2.88539007
SQRHLF  byte $80,$35,$04,$F3,$34        ; SQR(0.5) = 0.707106781
SQRTWO  byte $81,$35,$04,$F3,$34        ; SQR(2) = 1.41421356
NEGHLF  byte $80,$80,$00,$00,$00        ; -0.5
LN2     byte $80,$31,$72,$17,$F8        ; LN(2) = 0.693147181


; LOG: the natural logarithm; "ILLEGAL QUANTITY" for x <= 0. With x = f*2^n, 0.5 <= f < 1:
; LN(x) = (n + LOG2(f)) * LN(2), LOG2(f) from a series in (f-SQR(.5))/(f+SQR(.5)).
LOG     jsr SIGN
        beq @bad
        bpl @positive
@bad    jmp FCERR
@positive
        lda FACEXP
        sbc #$7F                ; n: SIGN left the carry clear
        pha
        lda #$80
        sta FACEXP              ; f
        lda #<SQRHLF
        ldy #>SQRHLF
        jsr FADD
        lda #<SQRTWO
        ldy #>SQRTWO
        jsr FDIV                ; SQR(2)/(f+SQR(.5))
        lda #<FONE
        ldy #>FONE
        jsr FSUB                ; 1 - that = (f-SQR(.5))/(f+SQR(.5))
        lda #<LOGCN2
        ldy #>LOGCN2
        jsr POLYX
        lda #<NEGHLF
        ldy #>NEGHLF
        jsr FADD                ; LOG2(f)
        pla
        jsr FINLOG              ; + n
        lda #<LN2
        ldy #>LN2
        if FMULT <> $BA28
        jmp FMULT
        endif                   ; (Commodore's FMULT follows at $BA28)

; ---------------------------------------------------------------------------------------------
*=$BF71

; SQR: x^0.5, as Microsoft's: x to ARG, 0.5 to FAC, then the power operator.
SQR     jsr MOVAF
        lda #<FHALF
        ldy #>FHALF
        jsr MOVFM               ; A = FACEXP: flags as FPWRT wants them

; FPWRT: ARG^FAC, entered as the operator table enters it (A = FACEXP, flags set on it).
; x^0 = 1 (EXP(0)), 0^y = 0; a negative x needs an integer y (x is made positive and an odd
; y negates the result); otherwise LOG refuses x < 0 ("ILLEGAL QUANTITY"). x^y = EXP(y*LOG(x)).
FPWRT   beq EXP
        lda ARGEXP
        bne @notzero
        jmp ZEROF1              ; A = 0: FAC = 0
@notzero
        ldx #DEFPNT             ; y to TEMPF3
        ldy #0
        jsr MOVMF               ; leaves Y = 0: "even" for a positive x
        lda ARGSGN
        bpl @logx
        jsr INT
        lda #DEFPNT
        ldy #0
        jsr FCOMP               ; INT(y) = y?
        bne @logx               ; no: x stays negative, LOG refuses it
        tya                     ; a positive sign (FCOMP leaves Y = 4 when equal)
        ldy CHARAC              ; INTEGR: y's low byte, bit 0 = odd
@logx   jsr MOVFA1              ; FAC = x with the sign in A
        tya
        pha                     ; odd or even
        jsr LOG
        lda #DEFPNT
        ldy #0
        jsr FMULT               ; y*LOG(x)
        jsr EXP
        pla
        lsr a
        bcc NEGRTS              ; even: done

; NEGOP: unary minus: FAC = -FAC (zero stays zero).
NEGOP   lda FACEXP
        beq NEGRTS
        lda FACSGN
        eor #$FF
        sta FACSGN
NEGRTS  rts

LOGEB2  byte $81,$38,$AA,$3B,$29        ; log2(e) = 1.44269504
; EXP's series for 2^x, 0 <= x < 1 (Horner, highest power first): count-1, then 8 terms.
EXPCON  byte 7
        byte $71,$34,$58,$3E,$56        ; 2.14987637E-05
        byte $74,$16,$7E,$B3,$1B        ; 1.43523140E-04
        byte $77,$2F,$EE,$E3,$85        ; 1.34226348E-03
        byte $7A,$1D,$84,$1C,$2A        ; 9.61401701E-03
        byte $7C,$63,$59,$58,$0A        ; 0.0555051269
        byte $7E,$75,$FD,$E7,$C6        ; 0.240226385
        byte $80,$31,$72,$18,$10        ; 0.693147186
        byte $81,$00,$00,$00,$00        ; 1

; EXP: e^x = 2^(x*log2(e)) = 2^INT * 2^frac: the series gives 2^frac, the integer part goes
; into the exponent. "OVERFLOW" when too big, zero when too small.
EXP     lda #<LOGEB2
        ldy #>LOGEB2
        jsr FMULT
        lda FACOV               ; OLDOV = rounding byte + $50 (+ the carry FMULT leaves);
        adc #$50                ; a carry out rounds FAC up first, as Microsoft's does
        bcc @oldov
        jsr INCRND
@oldov  jmp EXP1                ; (EXP goes on in the KERNAL ROM, as Commodore's does)

; ---------------------------------------------------------------------------------------------
*=$E000

EXP1    sta JMPER+2             ; OLDOV
        jsr MOVEF               ; ARG = FAC, unrounded
        lda FACEXP
        cmp #$88                ; |FAC| >= 128: too big or too small
        bcc @int
@range  jsr MLDVEX              ; OVERFLOW if positive; if negative, zero, returning to our caller
@int    jsr INT
        lda CHARAC              ; INTEGR: the integer part's low byte
        clc
        adc #$81
        beq @range              ; 127: out of range too
        sec
        sbc #1                  ; + $80: the scale, an exponent
        pha
        ldx #5                  ; swap FAC and ARG: FAC = x, ARG = INT(x)
@swap   lda ARGEXP,x
        ldy FACEXP,x
        sta FACEXP,x
        sty ARGEXP,x
        dex
        bpl @swap
        lda JMPER+2
        sta FACOV
        jsr FSUBT               ; INT(x) - x
        jsr NEGOP               ; the fraction, 0 <= f < 1
        lda #<EXPCON
        ldy #>EXPCON
        jsr POLY
        lda #0
        sta ARISGN              ; multiply by +1.0 * 2^scale
        pla
        jsr MLDEXP              ; its underflow drops one return address: hence JSR, RTS
        rts

; POLYX: the odd series x*P(x^2) over the table at A/Y (count-1, then the terms).
POLYX   sta FBUFPT
        sty FBUFPT+1
        jsr MOV1F               ; TEMPF1 = x; Y = 0
        lda #TEMPF1
        jsr FMULT               ; x^2
        jsr POLY1
        lda #TEMPF1
        ldy #0
        jmp FMULT

; POLY: the series P(x) over the table at A/Y (count-1, then the terms, highest power first),
; by Horner's rule.
POLY    sta FBUFPT
        sty FBUFPT+1
POLY1   jsr MOV2F               ; TEMPF2 = x; Y = 0
        lda (FBUFPT),y
        sta SGNFLG              ; DEGREE: the count of multiply-adds
        ldy FBUFPT
        iny
        tya
        bne @first
        inc FBUFPT+1
@first  sta FBUFPT
        ldy FBUFPT+1
@term   jsr FMULT
        lda FBUFPT
        ldy FBUFPT+1
        clc
        adc #5
        bcc @next
        iny
@next   sta FBUFPT
        sty FBUFPT+1
        jsr FADD
        lda #TEMPF2
        ldy #0
        dec SGNFLG
        bne @term
        rts

; RND's linear congruence: seed * RMULZC + RADDZC. Microsoft's source gives them 4 bytes;
; the fifth is 0 (Commodore's sequence says so for RMULZC; RADDZC's fifth byte is shifted out
; of every sum).
RMULZC  byte $98,$35,$44,$7A,$00        ; 11879546
RADDZC  byte $68,$28,$B1,$46,$00        ; 3.92767774E-08

; RND: x > 0: the next number of the sequence from the seed RNDX; x < 0: the seed is x
; itself, scrambled (the mantissa's high and low bytes and its middle two swapped); x = 0:
; a mantissa from CIA 1 (found by experiment on Commodore's C64, values and timing: timer A
; low, timer A high, the clock's tenths, its seconds, read in that order through IOBASE and
; a pointer in INDEX1, into FAC's bytes 1, 3, 2, 4). Then the exponent is shifted in below
; (as a rounding byte), the result made 0 <= r < 1, and stored as the new seed.
RND     jsr SIGN
        bmi @swap
        bne @next
        jsr IOBASE              ; the KERNAL's I/O chip: CIA 1, at X/Y
        stx INDEX1
        sty INDEX1+1
        ldy #4
        lda (INDEX1),y          ; timer A low
        sta FACHO
        iny
        lda (INDEX1),y          ; timer A high
        sta FACMO
        ldy #8
        lda (INDEX1),y          ; time of day: tenths
        sta FACMOH
        iny
        lda (INDEX1),y          ; time of day: seconds
        sta FACLO
        jmp @fraction
@next   lda #<RNDX
        ldy #>RNDX
        jsr MOVFM
        lda #<RMULZC
        ldy #>RMULZC
        jsr FMULT
        lda #<RADDZC
        ldy #>RADDZC
        jsr FADD
@swap   ldx FACLO
        lda FACHO
        sta FACLO
        stx FACHO
        ldx FACMOH
        lda FACMO
        sta FACMOH
        stx FACMO
@fraction
        lda #0
        sta FACSGN
        lda FACEXP
        sta FACOV
        lda #$80
        sta FACEXP
        jsr NORMAL
        ldx #<RNDX
        ldy #>RNDX
GMOVMF  jmp MOVMF               ; (TAN calls MOVMF through here, as Commodore's does)

; ---------------------------------------------------------------------------------------------
*=$E264

; COS: COS(x) = SIN(x+pi/2).
COS     lda #<PI2
        ldy #>PI2
        jsr FADD

; SIN: x/(2*pi), its fraction only (SIN repeats), brought into quadrants I or IV with the
; identities around 1/4 (= pi/2), then the odd series. TAN uses SIN1 and TANSGN.
SIN     jsr MOVAF
        lda #<TWOPI
        ldy #>TWOPI
        ldx ARGSGN              ; the quotient's sign
        jsr FDIVF
        jsr MOVAF
        jsr INT
        lda #0
        sta ARISGN
        jsr FSUBT               ; the fraction
        lda #<FR4
        ldy #>FR4
        jsr FSUB                ; 1/4 - fraction
        lda FACSGN
        pha                     ; the quadrant
        bpl SIN1
        jsr FADDH
        lda FACSGN
        bmi SIN2
        lda TANSGN              ; quadrants II and III: TAN's cosine changes sign
        eor #$FF
        sta TANSGN
SIN1    jsr NEGOP
SIN2    lda #<FR4
        ldy #>FR4
        jsr FADD
        pla
        bpl @series
        jsr NEGOP
@series lda #<SINCON
        ldy #>SINCON
        jmp POLYX

; TAN: SIN(x)/COS(x); the cosine is taken from SIN's own reduced argument (in TEMPF1, where
; POLYX left it), entering SIN at SIN1 with TANSGN as the quadrant.
TAN     jsr MOV1F
        lda #0
        sta TANSGN
        jsr SIN
        ldx #DEFPNT             ; the sine to TEMPF3
        ldy #0
        jsr GMOVMF
        lda #TEMPF1
        ldy #0
        jsr MOVFM
        lda #0
        sta FACSGN
        lda TANSGN
        jsr @cos
        lda #DEFPNT
        ldy #0
        jmp FDIV
@cos    pha
        jmp SIN1

PI2     byte $81,$49,$0F,$DA,$A2        ; pi/2 = 1.57079633
TWOPI   byte $83,$49,$0F,$DA,$A2        ; 2*pi = 6.28318531
FR4     byte $7F,$00,$00,$00,$00        ; 1/4
; SIN's odd series in x = angle/(2*pi): count-1, then 6 terms.
SINCON  byte 5
        byte $84,$E6,$1A,$2D,$1B        ; -14.3813907
        byte $86,$28,$07,$FB,$F8        ; 42.0077971
        byte $87,$99,$68,$89,$01        ; -76.7041703
        byte $87,$23,$35,$DF,$E1        ; 81.6052237
        byte $86,$A5,$5D,$E7,$28        ; -41.3417021
        byte $83,$49,$0F,$DA,$A2        ; 6.28318531

; ATN: ATN(-x) = -ATN(x); for x >= 1, ATN(x) = pi/2 - ATN(1/x); then the odd series.
ATN     lda FACSGN
        pha
        bpl @positive
        jsr NEGOP
@positive
        lda FACEXP
        pha
        cmp #$81
        bcc @series             ; x < 1
        lda #<FONE
        ldy #>FONE
        jsr FDIV                ; 1/x
@series lda #<ATNCON
        ldy #>ATNCON
        jsr POLYX
        pla
        cmp #$81
        bcc @sign
        lda #<PI2
        ldy #>PI2
        jsr FSUB
@sign   pla
        bpl @done
        jmp NEGOP
@done   rts

; ATN's odd series: count-1, then 12 terms; the last is 1 (ATNONE).
ATNCON  byte 11
        byte $76,$B3,$83,$BD,$D3        ; -6.84793912E-04
        byte $79,$1E,$F4,$A6,$F5        ; 4.85094216E-03
        byte $7B,$83,$FC,$B0,$10        ; -0.0161117018
        byte $7C,$0C,$1F,$67,$CA        ; 0.0342096381
        byte $7C,$DE,$53,$CB,$C1        ; -0.0542791328
        byte $7D,$14,$64,$70,$4C        ; 0.0724571965
        byte $7D,$B7,$EA,$51,$7A        ; -0.0898023954
        byte $7D,$63,$30,$88,$7E        ; 0.110932413
        byte $7E,$92,$44,$99,$3A        ; -0.142839808
        byte $7E,$4C,$CC,$91,$C7        ; 0.199999912
        byte $7F,$AA,$AA,$AA,$13        ; -0.333333316
ATNONE  byte $81,$00,$00,$00,$00        ; 1
