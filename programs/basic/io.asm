; c64kit BASIC V2: PRINT (TAB( SPC( commas), CMD, PRINT#, INPUT, INPUT#, GET, GET#, READ, OPEN CLOSE LOAD SAVE VERIFY SYS and BASIC's KERNAL glue. Owner: io.
;
; Written from Microsoft's 6502 BASIC (PRINT CODE, INPUT AND READ CODE) with Commodore's
; V2 behaviour as its outputs show it. Entries machine code and the rest of BASIC call are
; where Commodore's are (memory maps): PRINT# $AA80, CMD $AA86, PRINT $AAA0, FININL $AACA
; (INLIN's end), CRDO $AAD7, STROUT $AB1E, STRPRT $AB21, OUTSPC $AB3B, OUTQST $AB45, OUTDO
; $AB47, GET $AB7B, INPUT# $ABA5, INPUT $ABBF, the messages $ACFC and $AD0C; the KERNAL
; glue: IOERR $E0F9, OUTCH $E10C, INCHR $E112 (INLIN reads with it), CQOOUT $E118, CQOIN
; $E11E, CZGETL $E124, SYS $E12A and its return at $E147, SAVE $E156, VERIFY $E165, LOAD
; $E168, OPEN $E1BE, CLOSE $E1C7, the parameter parsers $E1D4, $E200, $E206, $E20E, $E219.

; Tokens this file looks for (c64kit's tokenizer has the same).
TABTK   = $A3                   ; TAB(
SPCTK   = $A6                   ; SPC(
DATATK  = $83                   ; DATA
; Characters.
CR      = 13
LF      = 10
CRSRRT  = 29                    ; cursor right: what a "space" is on the screen
QUOTE   = 34

;------------------------------------------------------------------------------------------
; PRINT#, CMD, PRINT
;------------------------------------------------------------------------------------------
*=$AA80
; PRINT# n[,list]: CMD's redirection for one statement, then the channel released.
ST_PRINTN
        jsr ST_CMD
        jmp IODONE

; CMD n[,list]: output to logical file n from now on (CHANNL), then PRINT the list.
ST_CMD  jsr GETBYT              ; X = the file, Z at the statement's end
        beq @go
        lda #","                ; a list must follow a comma
        jsr SYNCHR
@go     php                     ; flags of what follows: PRINT decides on a CR by them
        stx CHANNL              ; (CHKOUT changes X)
        jsr CQOOUT              ; CHKOUT X (A kept), BASIC's error on failure
        plp
        jmp ST_PRINT

; A string expression: print it, then look at what follows.
STRDON  jsr STRPRT
NEWCHR  jsr CHRGOT

*=$AAA0
; PRINT [list]: the end of the statement prints a CR (CRDO); after TAB( SPC( , ; it does
; not (PRINTC).
ST_PRINT
        beq CRDO
PRINTC  beq PRTRTS
        cmp #TABTK
        beq TABER               ; C = 1: TAB(
        cmp #SPCTK
        clc
        beq TABER               ; C = 0: SPC(
        cmp #","
        beq COMPRT
        cmp #";"
        beq NOTABR
        jsr FRMEVL
        bit VALTYP
        bmi STRDON
        ; A number: FOUT's text, then a cursor right (a space on a file).
        jsr FOUT
        jsr STRLIT
        jsr STRPRT
        jsr OUTSPC
        bne NEWCHR              ; always (OUTDO leaves Z clear)

; INLIN's end (h-core): X = the input's length. Ends BUF with a 0, X/Y = BUF-1 (for
; TXTPTR), and on the screen (CHANNL 0) moves to the next line.
*=$AACA
FININL  lda #0
        sta BUF,x
        ldx #<(BUF-1)
        ldy #>(BUF-1)
        lda CHANNL
        bne PRTRTS
; A carriage return; a line feed after it on a logical file of 128 or more (CHANNL bit 7).
; X and Y are kept. Leaves A = $F2 or $F5 (never 0: Z clear).
CRDO    lda #CR
        jsr OUTDO
CRFIN   bit CHANNL
        bpl @nolf
        lda #LF
        jsr OUTDO
@nolf   eor #$FF
PRTRTS  rts

; TAB(n) (C = 1) or SPC(n) (C = 0): OUTSPC's from the cursor's column (PLOT: the screen's,
; also when printing to a file). n above 255: ILLEGAL QUANTITY (GETBYT).
TABER   php
        sec
        jsr PLOT                ; Y = the cursor's column
        sty TRMPOS
        jsr GTBYTC              ; X = n
        cmp #")"
        bne GOSNERR
        plp
        bcc XSPAC               ; SPC: n of them
        txa                     ; TAB: n - column of them, none if past it
        sbc TRMPOS
        bcc NOTABR
ASPAC   tax
XSPAC   inx
XSPAC2  dex
        bne XSPAC1
NOTABR  jsr CHRGET
        jmp PRINTC
XSPAC1  jsr OUTSPC
        bne XSPAC2              ; always

; A comma: cursor rights (spaces on a file) to the cursor column's next 10-column zone.
COMPRT  sec
        jsr PLOT                ; Y = the cursor's column
        tya
        sec
@mod    sbc #10
        bcs @mod
        eor #$FF                ; 10 - column MOD 10 (C is clear)
        adc #1
        bne ASPAC               ; always

;------------------------------------------------------------------------------------------
; STROUT, STRPRT, OUTSPC, OUTQST, OUTDO
;------------------------------------------------------------------------------------------
*=$AB1E
; Prints the string at A (low) / Y (high) up to a 0 or a quote.
STROUT  jsr STRLIT
; Prints the string whose descriptor FACMO/FACLO points at (and frees a temporary), byte
; for byte (a CR in it gets no line feed, also on a file of 128 or more). Returns with C
; set if the last byte was CR or above, as Commodore's does (SYS's saved P shows it).
STRPRT  jsr FREFAC              ; A = the length, INDEX = the text
        tax
        ldy #0
        inx
@next   dex
        beq PRTRTS2
        lda (INDEX),y
        jsr OUTDO
        iny
        cmp #CR
        bne @next
        beq @next

; OUTSPC: a space's worth: a cursor right on the screen (CHANNL 0), a space on a file.
; OUTQST: a question mark. OUTDO: the character in A, through CHROUT (BASIC's error if
; the KERNAL gives one). All keep X and Y; Z is clear after a character other than 0.
*=$AB3B
OUTSPC  lda CHANNL
        beq @screen
        lda #" "
        byte $2C                ; BIT abs: skips the next load
@screen lda #CRSRRT
        byte $2C
OUTQST  lda #"?"
OUTDO   jsr OUTCH
        and #$FF
PRTRTS2 rts

;------------------------------------------------------------------------------------------
; GET, GET#, INPUT#, INPUT
;------------------------------------------------------------------------------------------
; Bad data for a variable: READ gives SYNTAX ERROR in the DATA's line; INPUT from the
; keyboard says REDO FROM START and runs the statement again; INPUT# gives FILE DATA.
TRMNOK  lda INPFLG
        beq TRMNO1              ; INPUT
        bmi @read
        ldy #$FF                ; GET: as in direct mode
        bne @stcurl             ; always
@read   lda DATLIN
        ldy DATLIN+1
@stcurl sta CURLIN
        sty CURLIN+1
GOSNERR jmp SNERR
TRMNO1  lda CHANNL
        beq @again
        ldx #ERR_FILE_DATA
        jmp ERROR
@again  lda #<TRYAGN
        ldy #>TRYAGN
        jsr STROUT
        lda OLDTXT              ; back to the start of this statement: NEWSTT runs it again
        ldy OLDTXT+1
        sta TXTPTR
        sty TXTPTR+1
        rts

; GET var[,var...] and GET# n,var[,var...]: one character each (GETIN), none = "" or 0.
ST_GET  jsr ERRDIR              ; ILLEGAL DIRECT in direct mode
        cmp #"#"
        bne GETTTY
        jsr CHRGET
        jsr GETBYT              ; X = the file
        jsr CHKCOM
        stx CHANNL              ; (CHKIN changes X)
        jsr CQOIN               ; CHKIN X
GETTTY  ldx #<(BUF+1)           ; INPPTR at a 0: every variable reads a character
        ldy #>(BUF+1)
        lda #0
        sta BUF+1
        lda #$40                ; INPFLG: GET
        jsr INPCO1
        ldx CHANNL
        bne IORELE
        rts

; INPUT# n,var[,var...]: INPUT from logical file n (no prompt, no "?").
*=$ABA5
ST_INPUTN
        jsr GETBYT              ; X = the file
        jsr CHKCOM
        stx CHANNL              ; (CHKIN changes X)
        jsr CQOIN               ; CHKIN X
        jsr NOTQTI
; Back to the keyboard and screen (CLRCHN), CHANNL 0.
IODONE  lda CHANNL
IORELE  jsr CLRCHN
        ldx #0
        stx CHANNL
        rts

; INPUT ["prompt";]var[,var...]
*=$ABBF
ST_INPUT
        cmp #QUOTE
        bne NOTQTI
        jsr STRTXT              ; the prompt as a string
        lda #";"
        jsr SYNCHR
        jsr STRPRT
NOTQTI  jsr ERRDIR
        lda #","                ; before BUF: the first field is read as after a comma
        sta BUF-1
GETAGN  jsr QINLIN
        lda CHANNL
        beq BUFFUL
        lda STATUS              ; a file: stop at its end (ST bit 1, time out on read)
        and #2
        beq BUFFUL
        jsr IODONE
        jmp ST_DATA             ; the rest of the statement is skipped
BUFFUL  lda BUF
        bne INPCON
        lda CHANNL              ; an empty line from a file: the next one
        bne GETAGN
        jmp ST_DATA             ; an empty answer: the variables keep their values

; "? " on the screen, then a line into BUF (INLIN): X/Y = BUF-1.
QINLIN  lda CHANNL
        bne @read
        jsr OUTQST
        jsr OUTSPC
@read   jmp INLIN

;------------------------------------------------------------------------------------------
; READ, and the assignment loop INPUT and GET share
;------------------------------------------------------------------------------------------
; READ var[,var...]: from DATPTR on, DATA statements found as the program is scanned.
ST_READ ldx DATPTR
        ldy DATPTR+1
        lda #$98                ; INPFLG: READ (bit 7)
        byte $2C                ; BIT abs: skips INPCON's load
INPCON  lda #0                  ; INPFLG: INPUT
; A = INPFLG, X/Y = where the data is (its terminator before the first field).
INPCO1  sta INPFLG
        stx INPPTR
        sty INPPTR+1
INLOOP  jsr PTRGET              ; the variable
        sta FORPNT
        sty FORPNT+1
        lda TXTPTR              ; keep the statement's place; read from the data's
        ldy TXTPTR+1
        sta OPPTR
        sty OPPTR+1
        ldx INPPTR
        ldy INPPTR+1
        stx TXTPTR
        sty TXTPTR+1
        jsr CHRGOT
        bne DATBK1              ; a comma: the next field
        bit INPFLG
        bvc QDATA
        jsr CZGETL              ; GET: one character (0: none) as the data
        sta BUF
        ldx #<(BUF-1)
        ldy #>(BUF-1)
        bne DATBK               ; always
QDATA   bmi DATLOP              ; READ: the next DATA statement
        lda CHANNL
        bne GETNTH
        jsr OUTQST              ; INPUT: "??" asks for more
GETNTH  jsr QINLIN
DATBK   stx TXTPTR
        sty TXTPTR+1
DATBK1  jsr CHRGET
        bit VALTYP
        bpl NUMINS
        bit INPFLG              ; a string
        bvc SETQUT
        inx                     ; GET: the character itself, spaces too (X = <BUF-1)
        stx TXTPTR
        lda #0
        sta CHARAC
        beq RESETC              ; always
SETQUT  sta CHARAC              ; a quoted field ends at the quote
        cmp #QUOTE
        beq NOWGET
        lda #":"                ; else at a colon or a comma
        sta CHARAC
        lda #","
RESETC  clc
NOWGET  sta ENDCHR
        lda TXTPTR              ; C = 1 skips the opening quote
        ldy TXTPTR+1
        adc #0
        bcc @nc
        iny
@nc     jsr STRLT2
        jsr ST2TXT
        jsr INPCOM              ; LET's string assignment
        jmp STRDN2
NUMINS  jsr FIN
        lda INTFLG
        jsr QINTGR              ; LET's numeric assignment (integer or real)
STRDN2  jsr CHRGOT
        beq TRMOK
        cmp #","
        beq TRMOK
        jmp TRMNOK
TRMOK   lda TXTPTR
        ldy TXTPTR+1
        sta INPPTR
        sty INPPTR+1
        lda OPPTR
        ldy OPPTR+1
        sta TXTPTR
        sty TXTPTR+1
        jsr CHRGOT
        beq VAREND
        jsr CHKCOM
        jmp INLOOP

; The next DATA statement after TXTPTR: its line number into DATLIN (for the SYNTAX error
; of a bad field); OUT OF DATA at the program's end.
DATLOP  jsr DATAN               ; Y = the statement's end, A = its terminator
        iny
        tax
        bne NOWLIN              ; a colon: the next statement of this line
        ldx #ERR_OUT_OF_DATA
        iny
        lda (TXTPTR),y          ; the link's high byte: 0 at the end
        beq DATERR
        iny
        lda (TXTPTR),y
        sta DATLIN
        iny
        lda (TXTPTR),y
        iny
        sta DATLIN+1
NOWLIN  jsr ADDON               ; TXTPTR at the statement's first byte
        jsr CHRGOT              ; its first token, after any spaces
        cmp #DATATK
        bne DATLOP
        jmp DATBK1
DATERR  jmp ERROR

; Every variable has its value: READ keeps its place in DATPTR; INPUT with more typed than
; asked says EXTRA IGNORED (on the screen only).
VAREND  lda INPPTR
        ldy INPPTR+1
        ldx INPFLG
        bpl @input
        jmp RESFIN
@input  ldy #0
        lda (INPPTR),y
        beq @done
        lda CHANNL
        bne @done
        lda #<EXIGNT
        ldy #>EXIGNT
        jmp STROUT
@done   rts

*=$ACFC
EXIGNT  text "?extra ignored",CR,0     ; (lower case in quotes: $41-$5A)
TRYAGN  text "?redo from start",CR,0

;------------------------------------------------------------------------------------------
; BASIC's KERNAL glue
;------------------------------------------------------------------------------------------
*=$E0F9
; A KERNAL routine failed (C set, A = its error code): BASIC's error of that number (the
; codes 1-9 are BASIC's first nine), 0 (STOP during LOAD/SAVE) BREAK. $F0: an RS-232 OPEN
; or CLOSE moved the top of memory to X/Y: BASIC's memory ends there, and CLR.
IOERR   cmp #$F0
        bne @error
        sty MEMSIZ+1
        stx MEMSIZ
        jmp CLEARC+3            ; CLR after its CLALL ($A663): the new file stays open
@error  tax
        bne @go
        ldx #ERR_BREAK
@go     jmp ERROR

; The KERNAL's channel routines with BASIC's errors: CHROUT, CHRIN, CHKOUT (keeping A),
; CHKIN, GETIN.
OUTCH   jsr CHROUT
        bcs IOERR
        rts
INCHR   jsr CHRIN
        bcs IOERR
        rts
CQOOUT  jsr CKOUTA              ; (A kept)
        bcs IOERR
        rts
CQOIN   jsr CHKIN
        bcs IOERR
        rts
CZGETL  jsr GETIN
        bcs IOERR
        rts

; SYS addr: calls addr with A, X, Y, P from SAREG..SPREG, and keeps what it returns there.
ST_SYS  jsr FRMNUM
        jsr GETADR              ; LINNUM = addr
        lda #>(SYSRET-1)        ; the routine's RTS comes back to SYSRET
        pha
        lda #<(SYSRET-1)
        pha
        lda SPREG
        pha
        lda SAREG
        ldx SXREG
        ldy SYREG
        plp
        jmp (LINNUM)
SYSRET  php                     ; $E147: machine code and c64kit's SYS entry expect it here
        sta SAREG
        stx SXREG
        sty SYREG
        pla
        sta SPREG
        rts

; SAVE ["name"[,device[,secondary address]]]: the program, TXTTAB to VARTAB.
ST_SAVE jsr PARSL
        ldx VARTAB
        ldy VARTAB+1
        lda #TXTTAB
        jsr SAVE
SAVERR  bcs IOERR               ; (also LOAD's way to IOERR)
        rts

; VERIFY and LOAD ["name"[,device[,secondary address]]].
ST_VERIFY
        lda #1
        byte $2C                ; BIT abs: skips LOAD's load
ST_LOAD lda #0
        sta VERCK
        jsr PARSL
        lda VERCK
        ldx TXTTAB
        ldy TXTTAB+1
        jsr LOAD
        bcs SAVERR
        jsr READST
        ldx VERCK
        beq @loaded
        ldx #ERR_VERIFY         ; VERIFY: a difference is VERIFY ERROR, else OK
        and #$10
        bne @error
        lda #<OKMSG
        ldy #>OKMSG
        jmp STROUT
@loaded and #$BF                ; LOAD: any status but the end of the file is LOAD ERROR
        beq @ok
        ldx #ERR_LOAD
@error  jmp ERROR
@ok     jsr LNKPRG
        lda TXTPTR+1
        cmp #>BUF
        bne @inprog
        ldx TXTEND              ; direct mode: the program ends where the load did;
        ldy TXTEND+1            ; CLR, READY. (the KERNAL said SEARCHING and LOADING)
        stx VARTAB
        sty VARTAB+1
        jsr RUNC
        jmp READY
@inprog jsr STXTPT              ; a running program: the new one runs from its start,
        jmp FLOAD               ; the variables kept

; CHKOUT keeping A (what follows CMD's file number: PRINT looks at it) unless it fails.
CKOUTA  pha
        jsr CHKOUT
        tax
        pla
        bcc @ok
        txa                     ; the error code
@ok     rts

*=$E1BE
; OPEN lf[,device[,secondary address[,"name"]]]
ST_OPEN jsr PAROC
        jsr OPEN
        bcs SAVERR              ; (to IOERR)
        rts

; CLOSE lf
ST_CLOSE
        jsr PAROC
        lda FORPNT              ; the logical file
        jsr CLOSE
        bcs SAVERR              ; (to IOERR)
        rts

; The parameter parsers (machine code calls them: each where Commodore's is).
; LOAD, SAVE and VERIFY's parameters: no name, device 1, secondary address 0 unless given
; (logical file 0; with a device, the character after it; with a secondary address, it).
*=$E1D4
PARSL   lda #0
        jsr SETNAM
        jsr DEFLFS              ; logical file 0
        jsr PARNAM
        jsr PAREND
        jsr PARBYT              ; X = the device (A = the character after it)
        stx FORPNT
        ldy #0
        jsr SETLFS
        jsr PAREND
        jsr PARBYT              ; X = the secondary address, also the logical file
        txa
        tay
        ldx FORPNT
        jmp SETLFS

OKMSG   text CR,"ok",CR,0           ; VERIFY's, also in a running program

; ",n": X = n (0-255).
*=$E200
PARBYT  jsr PARCOM
        jmp GETBYT

; At the statement's end: return from the parser that called (no more parameters).
PAREND  jsr CHRGOT
        bne PARRTS
        pla
        pla
PARRTS  rts

; A comma, and something after it (a comma at the end is a SYNTAX ERROR).
PARCOM  jsr CHKCOM
PARNXT  jsr CHRGOT
        bne PARRTS
        jmp SNERR

; OPEN and CLOSE's parameters: the logical file (FORPNT), device 1, secondary address 0
; for devices 0-2 and $FF (none) for 3 on unless given, no name unless given.
*=$E219
PAROC   lda #0
        jsr SETNAM
        jsr PARNXT              ; something must follow
        jsr GETBYT
        stx FORPNT
        txa
        jsr DEFLFS
        jsr PARBYT              ; X = the device
        stx FORPNT+1
        ldy #0
        lda FORPNT
        cpx #3
        bcc @low
        dey
@low    jsr SETLFS
        jsr PAREND
        jsr PARBYT              ; X = the secondary address
        txa
        tay
        ldx FORPNT+1
        lda FORPNT
        jsr SETLFS
        jsr PAREND
        jsr PARCOM
; A string expression: the file name (SETNAM).
PARNAM  jsr FRMEVL
        jsr FRESTR              ; A = its length, X/Y = its text
        jmp SETNAM

; Logical file A, device 1, secondary address 0; then PAREND.
DEFLFS  ldx #1
        ldy #0
        jsr SETLFS
        jmp PAREND
