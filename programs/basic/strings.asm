; c64kit BASIC V2: strings: temporaries, STRLIT, string space and garbage collection, concatenation and comparison, LEN STR$ VAL CHR$ ASC LEFT$ RIGHT$ MID$. Owner: strings.
;
; Formats (Commodore's, so programs that PEEK them keep working):
; - a descriptor is 3 bytes: length, address low, address high;
; - a string variable is 7 bytes: name (2, the second with bit 7 set), descriptor, 2 unused;
; - a string array element is a descriptor;
; - TEMPST ($19-$21) holds 3 temporary descriptors; TEMPPT points at the first free one,
;   LASTPT at the last used one;
; - string space grows down from MEMSIZ; FRETOP is its bottom (the newest string), and it
;   may go down to STREND (the end of the arrays).
; The code follows the algorithms of Microsoft's 6502 BASIC (the garbage collector's order
; of scanning decides where strings land and what FRE returns), laid out so that the
; entries machine code calls are where the memory maps document them.

*=$B465

; STR$: FAC (a number) to the string PRINT would print. Entered by the function dispatch
; with its return to the numeric check on the stack, which a string function drops.
STRD    jsr CHKNUM
        ldy #0                  ; FOUTC: the text from $00FF on (Y = 0)
        jsr FOUTC
        pla                     ; a string: skip the dispatch's numeric check
        pla
TIMSTR  lda #<FBUFFR            ; a string of the text at $00FF (page 0: copied)
        ldy #>FBUFFR
        beq STRLIT              ; always

; STRINI: string space for A bytes, the descriptor pointer in FACMO/FACLO kept in DSCPNT;
; the new string's descriptor in DSCTMP. STRSPA: the same without keeping FAC's pointer.
STRINI  ldx FACMO
        ldy FACMO+1
        stx DSCPNT
        sty DSCPNT+1
STRSPA  jsr GETSPA
        stx DSCTMP+1
        sty DSCTMP+2
        sta DSCTMP
        rts

; STRLIT: a temporary string from the text at Y,A up to a quote or a $00. STRLT2: up to
; CHARAC, ENDCHR or a $00. A closing quote is counted in the text but not in the string;
; STRNG2 is left pointing after the text (after its quote). Text in page 0 (a number FOUT
; made) or in the input buffer (page 2) is copied to string space; text elsewhere (the
; program) is pointed at where it is.
STRLIT  ldx #$22                ; the quote
        stx CHARAC
        stx ENDCHR
STRLT2  sta STRNG1
        sty STRNG1+1
        sta DSCTMP+1            ; the string stays here unless it is copied
        sty DSCTMP+2
        ldy #$FF
@scan   iny
        lda (STRNG1),y
        beq @zero
        cmp CHARAC
        beq @term
        cmp ENDCHR
        bne @scan
@term   cmp #$22                ; a quote: step over it (carry set)
        beq @count
@zero   clc
@count  sty DSCTMP              ; the length
        tya
        adc STRNG1              ; after the text (and its quote)
        sta STRNG2
        ldx STRNG1+1
        bcc @page
        inx
@page   stx STRNG2+1
        lda STRNG1+1
        beq @copy               ; page 0: FOUT's buffer
        cmp #>BUF               ; page 2: the input buffer
        bne PUTNEW
@copy   tya
        jsr STRINI
        ldx STRNG1
        ldy STRNG1+1
        jsr MOVSTR

; PUTNEW: the descriptor in DSCTMP onto the temporary stack: FAC (FACMO/FACLO) points at
; it, VALTYP says string. "FORMULA TOO COMPLEX" when the three are in use.
PUTNEW  ldx TEMPPT
        cpx #TEMPST+9
        bne PUSHTMP
        ldx #ERR_FORMULA_TOO_COMPLEX
PUTERR  jmp ERROR
PUSHTMP lda DSCTMP
        sta 0,x
        lda DSCTMP+1
        sta 1,x
        lda DSCTMP+2
        sta 2,x
        ldy #0
        stx FACMO
        sty FACMO+1
        sty FACOV
        dey
        sty VALTYP
        stx LASTPT
        inx
        inx
        inx
        stx TEMPPT
        rts

; GETSPA: A bytes of string space under FRETOP. Leaves FRETOP = FRESPC = Y,X = the space,
; A unchanged. When it does not fit above STREND: garbage collection, then once more;
; "OUT OF MEMORY" when it still does not fit.
GETSPA  lsr GARBFL              ; bit 7 clear: not collected yet
@try    pha
        eor #$FF                ; FRETOP - A
        sec
        adc FRETOP
        ldy FRETOP+1
        bcs @cmp
        dey
@cmp    cpy STREND+1
        bcc @full
        bne @fits
        cmp STREND
        bcc @full
@fits   sta FRETOP
        sty FRETOP+1
        sta FRESPC
        sty FRESPC+1
        tax
        pla
        rts
@full   ldx #ERR_OUT_OF_MEMORY
        lda GARBFL
        bmi PUTERR              ; collected already
        jsr GARBAG
        lda #$80
        sta GARBFL
        pla
        bne @try                ; always: nobody asks for 0 bytes here

; GARBAG: garbage collection. Repeatedly finds the string with the highest address below
; FRETOP (and not below STREND: strings in the program text stay there) among the
; temporaries, the simple variables and the arrays, in that order, and moves it up to
; just under FRETOP, which then goes down past it. Ends with FRETOP the bottom of the
; strings in use. GARBA2 is Microsoft's name for it (REASON and FRE call it so).
GARBAG
GARBA2  ldx MEMSIZ
        lda MEMSIZ+1
GCPASS  stx FRETOP
        sta FRETOP+1
        ldy #0
        sty GRBPNT+1            ; none found yet
        sty GRBPNT
        lda STREND
        ldx STREND+1
        sta GRBTOP
        stx GRBTOP+1
        lda #<TEMPST
        ldx #>TEMPST
        sta INDEX1
        stx INDEX1+1
@temps  cmp TEMPPT              ; the temporaries in use (FOUR6 is 3 here)
        beq @vars
        jsr GCDESC
        beq @temps
@vars   lda #7                  ; a simple variable's size
        sta FOUR6
        lda VARTAB
        ldx VARTAB+1
        sta INDEX1
        stx INDEX1+1
@nextv  cpx ARYTAB+1
        bne @onev
        cmp ARYTAB
        beq @arrays
@onev   jsr GCVAR
        beq @nextv
@arrays sta ARYPNT
        stx ARYPNT+1
        lda #3                  ; an element's size
        sta FOUR6
@nexta  lda ARYPNT
        ldx ARYPNT+1
@anya   cpx STREND+1
        bne @onea
        cmp STREND
        bne @onea
        jmp GCMOVE
@onea   sta INDEX1              ; an array: name, size, dimensions, elements
        stx INDEX1+1
        ldy #0
        lda (INDEX1),y
        tax
        iny
        lda (INDEX1),y
        php
        iny
        lda (INDEX1),y          ; carry clear: the pointer is below STREND
        adc ARYPNT
        sta ARYPNT              ; the next array
        iny
        lda (INDEX1),y
        adc ARYPNT+1
        sta ARYPNT+1
        plp
        bpl @nexta              ; second name byte without bit 7: not strings
        txa
        bmi @nexta              ; first with bit 7: integers
        iny
        lda (INDEX1),y          ; the number of dimensions
        ldy #0
        asl a
        adc #5                  ; header: 5 bytes and 2 per dimension
        adc INDEX1
        sta INDEX1
        bcc @elems
        inc INDEX1+1
@elems  ldx INDEX1+1
@elem   cpx ARYPNT+1
        bne @onee
        cmp ARYPNT
        beq @anya
@onee   jsr GCDESC
        beq @elem

; GCVAR: the simple variable at INDEX1 (Y = 0): a string's descriptor is looked at, any
; other is stepped over. GCDESC: the descriptor at INDEX1+Y. Both step INDEX1 by FOUR6
; and leave A,X = INDEX1, Y = 0 and Z set.
GCVAR   lda (INDEX1),y
        bmi GCNEXT              ; an integer or FN
        iny
        lda (INDEX1),y
        bpl GCNEXT              ; a real
        iny
GCDESC  lda (INDEX1),y
        beq GCNEXT              ; empty: nothing to keep
        iny
        lda (INDEX1),y
        tax
        iny
        lda (INDEX1),y
        cmp FRETOP+1            ; at or above FRETOP: already collected
        bcc @below
        bne GCNEXT
        cpx FRETOP
        bcs GCNEXT
@below  cmp GRBTOP+1            ; below the highest so far: not this one
        bcc GCNEXT
        bne @higher
        cpx GRBTOP
        bcc GCNEXT
@higher stx GRBTOP              ; the highest so far
        sta GRBTOP+1
        lda INDEX1
        ldx INDEX1+1
        sta GRBPNT
        stx GRBPNT+1
        lda FOUR6
        sta SIZE
GCNEXT  lda FOUR6
        clc
        adc INDEX1
        sta INDEX1
        bcc GCDONE
        inc INDEX1+1
GCDONE  ldx INDEX1+1
        ldy #0
        rts

; GCMOVE: one pass done: move the highest string found up under FRETOP, point its
; descriptor at it, and look again below it. None found: the collection is done.
GCMOVE  lda GRBPNT+1
        ora GRBPNT
        beq GCDONE
        lda SIZE                ; 7 (a variable): the descriptor is 2 bytes in
        and #4
        lsr a
        tay
        sta SIZE
        lda (GRBPNT),y          ; the length (carry clear)
        adc LOWTR               ; the string's end: LOWTR is GRBTOP, its start
        sta HIGHTR
        lda LOWTR+1
        adc #0
        sta HIGHTR+1
        lda FRETOP
        ldx FRETOP+1
        sta HIGHDS
        stx HIGHDS+1
        jsr BLTUC               ; leaves HIGHDS 256 below the new start
        ldy SIZE
        iny
        lda HIGHDS
        sta (GRBPNT),y
        tax
        inc HIGHDS+1
        lda HIGHDS+1
        iny
        sta (GRBPNT),y
        jmp GCPASS              ; FRETOP = the new start

; CAT: string concatenation, the + operator of EVAL's operator loop on a string: FAC
; points at the left operand; the right one is evaluated here. "STRING TOO LONG" above 255.
CAT     lda FACMO+1
        pha
        lda FACMO
        pha
        jsr EVAL
        jsr CHKSTR
        pla
        sta STRNG1              ; the left operand's descriptor
        pla
        sta STRNG1+1
        ldy #0
        lda (STRNG1),y
        clc
        adc (FACMO),y
        bcc @fits
        ldx #ERR_STRING_TOO_LONG
        jmp ERROR
@fits   jsr STRINI              ; the right one's descriptor in DSCPNT
        jsr MOVINS              ; the left one's text
        lda DSCPNT
        ldy DSCPNT+1
        jsr FRETMP
        jsr MOVDO               ; the right one's text
        lda STRNG1
        ldy STRNG1+1
        jsr FRETMP
        jsr PUTNEW
        jmp TSTOP

; MOVINS: copy the string whose descriptor STRNG1 points at to FRESPC on. MOVSTR: A bytes
; from Y,X. MOVDO: A bytes from INDEX. All leave FRESPC after the copy.
MOVINS  ldy #0
        lda (STRNG1),y
        pha
        iny
        lda (STRNG1),y
        tax
        iny
        lda (STRNG1),y
        tay
        pla
MOVSTR  stx INDEX
        sty INDEX+1
MOVDO   tay
        beq @moved
        pha
@copy   dey
        lda (INDEX),y
        sta (FRESPC),y
        tya
        bne @copy
        pla
@moved  clc
        adc FRESPC
        sta FRESPC
        bcc @done
        inc FRESPC+1
@done   rts

; FRESTR: FAC must hold a string ("TYPE MISMATCH" otherwise); FREFAC: the string FAC
; points at; FRETMP: the string whose descriptor Y,A points at. The descriptor is taken
; off the temporary stack if it is its last entry, and then, if its text is the newest in
; string space (at FRETOP), that space is given back. Leaves A = length, Y,X and INDEX =
; its address.
FRESTR  jsr CHKSTR
FREFAC  lda FACMO
        ldy FACMO+1
FRETMP  sta INDEX
        sty INDEX+1
        jsr FRETMS
        php                     ; Z: it was the last temporary
        ldy #0
        lda (INDEX),y
        pha
        iny
        lda (INDEX),y
        tax
        iny
        lda (INDEX),y
        tay
        pla
        plp
        bne @keep
        cpy FRETOP+1
        bne @keep
        cpx FRETOP
        bne @keep
        pha
        clc
        adc FRETOP
        sta FRETOP
        bcc @len
        inc FRETOP+1
@len    pla
@keep   stx INDEX
        sty INDEX+1
        rts

; FRETMS: if Y,A is the last temporary descriptor, pop it (Z set on return).
FRETMS  cpy LASTPT+1
        bne @no
        cmp LASTPT
        bne @no
        sta TEMPPT
        sbc #3                  ; carry set by the compare
        sta LASTPT
        ldy #0
@no     rts

; CHR$: a one-character string. "ILLEGAL QUANTITY" above 255 (CONINT).
CHRD    jsr CONINT
        txa
        pha
        lda #1
        jsr STRSPA
        pla
        ldy #0
        sta (DSCTMP+1),y
        pla                     ; a string: skip the dispatch's numeric check
        pla
        jmp PUTNEW

; LEFT$(S$,N), RIGHT$(S$,N), MID$(S$,P[,N]): the dispatch leaves the descriptor pointer
; and N (a byte) on the stack under its return address; PREAM takes them (DSCPNT, X and
; A = N, Y = 0) and checks the closing parenthesis.
LEFTD   jsr PREAM
        cmp (DSCPNT),y          ; N >= the length: the whole string
        tya                     ; from offset 0
SUBSTR  bcc @part
        lda (DSCPNT),y
        tax
        tya
@part   pha                     ; the offset
SUBLEN  txa
SUBCPY  pha                     ; the length
        jsr STRSPA
        lda DSCPNT
        ldy DSCPNT+1
        jsr FRETMP
        pla
        tay
        pla
        clc
        adc INDEX
        sta INDEX
        bcc @copy
        inc INDEX+1
@copy   tya
        jsr MOVDO
        jmp PUTNEW

RIGHTD  jsr PREAM
        clc                     ; offset = length - N, negated: N - length - 1, inverted
        sbc (DSCPNT),y
        eor #$FF
        jmp SUBSTR

MIDD    lda #$FF                ; no third argument: up to 255 characters
        sta FACLO
        jsr CHRGOT
        cmp #$29                ; ")"
        beq @two
        jsr CHKCOM
        jsr GETBYT              ; the length in FACLO
@two    jsr PREAM
        beq FCERR_STR           ; position 0
        dex
        txa
        pha                     ; offset = position - 1
        clc
        ldx #0
        sbc (DSCPNT),y          ; offset - length - 1
        bcs SUBLEN              ; past the end: an empty string
        eor #$FF                ; the characters left after the offset
        cmp FACLO
        bcc SUBCPY              ; fewer than asked for
        lda FACLO
        bcs SUBCPY

; PREAM: the arguments of LEFT$/RIGHT$/MID$ from under the caller's return address.
PREAM   jsr CHKCLS
        pla                     ; the caller's return address
        tay
        pla
        sta JMPER+1
        pla                     ; the dispatch's return: a string function
        pla
        pla                     ; N
        tax
        pla                     ; the descriptor pointer
        sta DSCPNT
        pla
        sta DSCPNT+1
        lda JMPER+1
        pha
        tya
        pha
        ldy #0
        txa
        rts

; LEN: the length as a number. LEN1: FRESTR, VALTYP numeric, Y = A = the length (Z set
; when empty), INDEX = the text.
LEN     jsr LEN1
        jmp SNGFLT
LEN1    jsr FRESTR
        ldx #0
        stx VALTYP
        tay
        rts

; ASC: the first character's code; "ILLEGAL QUANTITY" for an empty string.
ASC     jsr LEN1
        beq FCERR_STR
        ldy #0
        lda (INDEX1),y
        tay
        jmp SNGFLT
FCERR_STR jmp FCERR

; VAL: the number at the start of the string, as FIN reads it from the program: TXTPTR
; points at the text, the byte after it is made a 0 for the time and restored after.
; STRVAL is its entry with the text at INDEX1 and its length in A (not 0).
; Outside strings' area: Commodore's VAL is here, between expr's CONINT and GETNUM, and
; strings' area ($B465-$B79A) is full with the routines above at Commodore's addresses.
*=$B7AD
VAL     jsr LEN1
        bne STRVAL
        jmp ZEROFC              ; VAL("") = 0
STRVAL  ldx TXTPTR
        ldy TXTPTR+1
        stx STRNG2
        sty STRNG2+1
        ldx INDEX1
        stx TXTPTR
        clc
        adc INDEX1
        sta INDEX2              ; the byte after the text
        ldx INDEX1+1
        stx TXTPTR+1
        bcc @page
        inx
@page   stx INDEX2+1
        ldy #0
        lda (INDEX2),y
        pha
        tya
        sta (INDEX2),y
        jsr CHRGOT
        jsr FIN
        pla
        ldy #0
        sta (INDEX2),y
; ST2TXT: TXTPTR = STRNG2 (EVAL's string literal and READ come here too, as to Commodore's).
ST2TXT  ldx STRNG2
        ldy STRNG2+1
        stx TXTPTR
        sty TXTPTR+1
        rts
