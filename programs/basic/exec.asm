; c64kit BASIC V2: the statement loop (NEWSTT), statement dispatch, control flow: GOTO GOSUB
; RETURN IF ON FOR NEXT REM DATA END STOP CONT RUN RESTORE LIST, LINGET.
; Owner: h-exec. Written from Microsoft's 6502 BASIC 1.1 (the algorithms and the stack
; frames), with Commodore V2's behaviour (the STOP key through the KERNAL, the vectors
; IGONE and IQPLOP, LIST's quote mode, RUN's SETMSG).
;
; Handlers are entered from GONE3's dispatch (an RTS to the table's address-1) with CHRGET's
; result for the character after the token: A = the character, Z set at the end of the
; statement (0 or ":"), C clear for a digit. Each returns by RTS to NEWSTT (the address
; GONE3's JSR left on the stack) with TXTPTR at the statement's end; one that returns with
; TXTPTR at anything else gets "SYNTAX" from NEWSTT.
;
; Areas: $A69C-$A9A4 as the README says, every entry at Commodore's address; FNDFOR at its
; Commodore address $A38A (the end of the tables' area in the README: Commodore's tables end
; at $A389); NEXT from $AD1E to $AD89: Microsoft's NEXT is 107 bytes and so is Commodore's,
; which ends at $AD89 (LOOPDN at $AD78, FRMNUM at $AD8A): 17 bytes past the README's $AD77.

; The tokens used here (Commodore's numbering: the keyword list's order from $80).
ENDTK   = $80
FORTK   = $81                   ; also the marker of a FOR frame on the stack
GOTOTK  = $89
GOSUTK  = $8D                   ; also the marker of a GOSUB frame on the stack
LASTST  = $A2                   ; NEW: the last statement token
TOTK    = $A4
THENTK  = $A7
STEPTK  = $A9
MINUTK  = $AB
GOTK    = $CB
PITK    = $FF                   ; pi is listed as itself, not as a keyword

; The FOR frame, 18 bytes, as Microsoft's (with 5-byte floats): seen from X after TSX with
; the frame on top, the byte at $0101,X is FORTK, then
FORVAR  = $0102                 ; the loop variable's address (low, high)
FORSTP  = $0104                 ; the STEP, a packed float (exponent first)
FORSGN  = $0109                 ; the STEP's sign from SIGN: $01, $00 or $FF
FORLIM  = $010A                 ; the limit, a packed float
FORLIN  = $010F                 ; the FOR statement's line number (low, high)
FORTXT  = $0111                 ; text pointer to the FOR statement's end (high, low)
FORSIZ  = 18
; The GOSUB frame, 5 bytes: GOSUTK, the GOSUB's line (low, high), its text pointer
; (low, high).

LSTPNT  = FORPNT                ; LIST: index into the line being listed
DORES   = GARBFL                ; LIST: quote mode, bit 7 set inside quotes

; Every entry below is at Commodore's address (*= before each: the assembler refuses a
; routine that grew into the next), as machine code calls them: NEWSTT from decrunchers,
; NGONE and NQPLOP from the programs that hook IGONE and IQPLOP, LINGET, DATAN ...

; RDYVEC: READY through the IERROR vector with X = $80 (the warm start's end, $E386, in
; main.asm), as Commodore's END, LIST and the program's end go: a program hooking IERROR
; sees them (and takes Commodore's time: measured).
RDYVEC  = WARMST+11

; LSTRTS: the RTS that ends STXTPT (main.asm), just before LIST as in Commodore's ROM.
LSTRTS  = ST_LIST-1

*=$A69C

; LIST [from][-[to]]: the lines from..to (from 0, to 65535 when left out); lists to READY.
ST_LIST bcc GOLST               ; a digit: a line number
        beq GOLST               ; nothing: the whole program
        cmp #MINUTK
        bne LSTRTS              ; anything else: NEWSTT says "SYNTAX"
GOLST   jsr LINGET              ; the first line (0 if none) ...
        jsr FNDLIN              ; ... LOWTR at it or the next one after it
        jsr CHRGOT
        beq @ends               ; "LIST n": from n to n
        cmp #MINUTK
        bne LSTRTS
        jsr CHRGET
        jsr LINGET              ; "-" then the last line, 0 if none
        bne LSTRTS
@ends   pla                     ; LIST never returns to NEWSTT
        pla
        lda LINNUM
        ora LINNUM+1
        bne LIST4
        lda #$FF                ; no last line: up to 65535
        sta LINNUM
        sta LINNUM+1

; One line at LOWTR (link, number, text), if its number is not above LINNUM.
LIST4   ldy #1
        sty DORES               ; out of quotes
        lda (LOWTR),y
        beq GRODY               ; the link's high byte 0: the program's end
        jsr ISCNTC              ; RUN/STOP ends the listing with BREAK
        jsr CRDO                ; each line starts on a new line
        iny
        lda (LOWTR),y
        tax
        iny
        lda (LOWTR),y           ; A = number high, X = low
        cmp LINNUM+1
        bne @test
        cpx LINNUM
        beq TYPLIN
@test   bcs GRODY               ; beyond the last: done
TYPLIN  sty LSTPNT
        jsr LINPRT              ; the number, no leading space
        lda #" "                ; then a space
PRIT4   ldy LSTPNT
        and #$7F                ; a keyword's last letter has bit 7 set
PLOOP   jsr OUTDO
        cmp #34
        bne PLOOP1
        lda DORES               ; a quote: in or out of quote mode
        eor #$FF
        sta DORES
PLOOP1  iny
        beq GRODY               ; 256 characters: a broken line, stop
        lda (LOWTR),y
        bne QPLOP
        tay                     ; the line's end: follow its link
        lda (LOWTR),y
        tax
        iny
        lda (LOWTR),y
        stx LOWTR
        sta LOWTR+1
        bne LIST4
GRODY   jmp RDYVEC

; Each character through the IQPLOP vector ($0306): programs hook it to list their own
; keywords. A = the character, flags from it; Y = its index in the line (LOWTR).
*=$A717
QPLOP   jmp (IQPLOP)

; IQPLOP's default: a token (bit 7) outside quotes is listed as its keyword, from the
; keyword list RESLST (words one after another, the last letter with bit 7 set).
*=$A71A
NQPLOP  bpl PLOOP
        cmp #PITK
        beq PLOOP
        bit DORES
        bmi PLOOP               ; inside quotes: the byte itself
        sec
        sbc #$7F                ; X = the token's place in the list, from 1
        tax
        sty LSTPNT
        ldy #$FF
@next   dex
        beq @found
@skip   iny
        lda RESLST,y
        bpl @skip
        bmi @next
@found  iny
        lda RESLST,y
        bmi PRIT4               ; the last letter: printed by PLOOP
        jsr OUTDO               ; (Z clear: OUTDO leaves the character's flags)
        bne @found

; FOR var = start TO limit [STEP step]: LET assigns the start; then the frame (above) goes
; on the stack, replacing a FOR of the same variable and everything above it. Falls into
; NEWSTT: the body always runs at least once. FAC goes onto the stack through the
; expression evaluator's PUSHF (A, then FAC rounded; back after the JSR) and FORPSH (FAC
; rounded, then JMP (INDEX1)), as Microsoft's FOR does.
*=$A742
ST_FOR  lda #$80
        sta SUBFLG              ; no array element as the loop variable
        jsr ST_LET              ; FORPNT = the variable's address
        jsr FNDFOR
        bne @new
        txa                     ; C set: X + 16, then the two PLAs: the old frame goes
        adc #FORSIZ-3
        tax
        txs
@new    pla                     ; NEWSTT's return: FOR goes on into NEWSTT itself
        pla
        lda #FORSIZ/2
        jsr GETSTK              ; room for 18 bytes or "OUT OF MEMORY"
        jsr DATAN               ; Y = length of the rest of the statement
        clc
        tya
        adc TXTPTR              ; the statement's end, where NEXT comes back to
        pha
        lda TXTPTR+1
        adc #0
        pha
        lda CURLIN+1
        pha
        lda CURLIN
        pha
        lda #TOTK
        jsr SYNCHR
        jsr CHKNUM              ; the variable must be numeric
        jsr FRMNUM              ; the limit
        lda FACSGN              ; packed: the sign in the mantissa's top bit
        ora #$7F
        and FACHO
        sta FACHO
        lda #<LDFONE
        ldy #>LDFONE
        sta INDEX1
        sty INDEX1+1
        jmp FORPSH              ; the limit onto the stack, on at LDFONE
LDFONE  lda #<FONE              ; STEP 1 unless given
        ldy #>FONE
        jsr MOVFM
        jsr CHRGOT
        cmp #STEPTK
        bne @step
        jsr CHRGET
        jsr FRMNUM
@step   jsr SIGN
        jsr PUSHF               ; the STEP's sign, then the STEP (PUSHF's INC of our return
                                ; address's low byte: this JSR must not end at $xxFD)
        lda FORPNT+1
        pha
        lda FORPNT
        pha
        lda #FORTK
        pha                     ; on into NEWSTT

; The statement loop. TXTPTR is at a statement's end (":" or a line's 0): check the STOP
; key, go on with the next statement, or the next line (CURLIN), or end at the program's
; end (READY, no BREAK). The text pointer of a running program is kept in OLDTXT for CONT.
*=$A7AE
NEWSTT  jsr ISCNTC
        lda TXTPTR
        ldy TXTPTR+1
        cpy #>BUF               ; a direct line: nothing to continue
        nop                     ; (2 cycles: Commodore's NEWSTT takes them here, measured)
        beq @dir
        sta OLDTXT
        sty OLDTXT+1
@dir    ldy #0
        lda (TXTPTR),y
        bne MORSTS
        ldy #2                  ; the line's end: the next line's link
        lda (TXTPTR),y
        clc                     ; (no BREAK from ENDCON)
        bne @line
        jmp ENDCON              ; link high 0: the program's end
@line   iny
        lda (TXTPTR),y
        sta CURLIN
        iny
        lda (TXTPTR),y
        sta CURLIN+1
        tya                     ; TXTPTR to the byte before the line's text
        adc TXTPTR
        sta TXTPTR
        bcc GONE
        inc TXTPTR+1

; Execute the statement after TXTPTR through the IGONE vector ($0308).
*=$A7E1
GONE    jmp (IGONE)

; IGONE's default: the next character, then the statement; then the next one.
*=$A7E4
NGONE   jsr CHRGET
        jsr GONE3
        jmp NEWSTT

; A statement starting with A (flags from CHRGET): a statement token through the table
; STMDSP (each entry the handler's address - 1), a letter by LET, nothing is nothing.
*=$A7ED
GONE3   beq ISCRTS
GONE2   sbc #ENDTK              ; (ON comes here with C set)
        bcc @let                ; below the tokens: LET (a letter; anything else: "SYNTAX")
        cmp #LASTST-ENDTK+1
        bcs SNERRX
        asl
        tay
        lda STMDSP+1,y
        pha
        lda STMDSP,y
        pha
        jmp CHRGET              ; the handler gets the next character
@let    jmp ST_LET
MORSTS  cmp #":"
        beq GONE
SNERR1  jmp SNERR
SNERRX  cmp #GOTK-ENDTK         ; GO TO, two words
        bne SNERR1
        jsr CHRGET
        lda #TOTK
        jsr SYNCHR
        jmp ST_GOTO

; RESTORE: READ starts again from the program's start (DATPTR = TXTTAB - 1).
*=$A81D
ST_RESTORE
        sec
        lda TXTTAB
        sbc #1
        ldy TXTTAB+1
        bcs RESFIN
        dey
RESFIN  sta DATPTR              ; READ's end comes here with A/Y
        sty DATPTR+1
ISCRTS  rts

; The STOP key through the KERNAL's STOP: pressed, it leaves Z and C set (its CMP #$7F of
; the key row), so ST_STOP below gives BREAK; not pressed, Z clear: ST_STOP returns.
*=$A82C
ISCNTC  jsr STOP

; STOP: C set (CHRGET at a terminator), so BREAK IN line; END: no message. Both keep the
; place for CONT (not in direct mode) and go to READY.
ST_STOP bcs STOPC
ST_END  clc
STOPC   bne ISCRTS              ; not at the statement's end: "SYNTAX" from NEWSTT
        lda TXTPTR
        ldy TXTPTR+1
        ldx CURLIN+1
        inx
        beq DIRIS               ; direct mode: nothing to continue
        sta OLDTXT
        sty OLDTXT+1
        lda CURLIN
        ldy CURLIN+1
        sta OLDLIN
        sty OLDLIN+1
DIRIS   pla                     ; NEWSTT's (or ISCNTC's caller's) return
        pla
ENDCON  lda #<BRKTXT
        ldy #>BRKTXT
        bcc @ready
        jmp ERRFIN              ; "BREAK", " IN line" when running, READY
@ready  jmp RDYVEC

; CONT: on from where STOP, END or the STOP key left the program; "CAN'T CONTINUE" if
; nothing was kept (OLDTXT high 0: set by CLR, RUN, NEW, errors and edits).
*=$A857
ST_CONT bne @rts
        ldx #ERR_CANT_CONTINUE
        ldy OLDTXT+1
        bne @go
        jmp ERROR
@go     lda OLDTXT
        sta TXTPTR
        sty TXTPTR+1
        lda OLDLIN
        ldy OLDLIN+1
        sta CURLIN
        sty CURLIN+1
@rts    rts

; RUN [line]: variables cleared, then from the start or the line. KERNAL messages off
; (SETMSG 0) while a program runs.
*=$A871
ST_RUN  php
        lda #0
        jsr SETMSG
        plp
        bne @line
        jmp RUNC
@line   jsr CLEARC              ; (resets the stack: NEWSTT's return is gone)
        jmp RUNC2

; GOSUB line: the 5-byte frame (text pointer, line, GOSUTK), then GOTO.
*=$A883
ST_GOSUB
        lda #3
        jsr GETSTK
        lda TXTPTR+1
        pha
        lda TXTPTR
        pha
        lda CURLIN+1
        pha
        lda CURLIN
        pha
        lda #GOSUTK
        pha
RUNC2   jsr CHRGOT
        jsr ST_GOTO
        jmp NEWSTT

; GOTO line: from the next line when the target is higher than the current one, else from
; the start; "UNDEF'D STATEMENT" if it is not there. TXTPTR to the byte before the line.
*=$A8A0
ST_GOTO jsr LINGET
        jsr REMN                ; Y = to the line's end
        sec                     ; the target after this line? (direct: CURLIN $FFxx, never)
        lda CURLIN
        sbc LINNUM
        lda CURLIN+1
        sbc LINNUM+1
        bcs @start
        tya
        sec                     ; the next line: past the 0
        adc TXTPTR
        ldx TXTPTR+1
        bcc @find
        inx
        bcs @find
@start  lda TXTTAB
        ldx TXTTAB+1
@find   jsr FNDLNC
        bcc USERR
        lda LOWTR
        sbc #1
        sta TXTPTR
        lda LOWTR+1
        sbc #0
        sta TXTPTR+1
GORTS   rts

; RETURN: drops the FOR frames above the latest GOSUB frame and goes on after that GOSUB.
*=$A8D2
ST_RETURN
        bne GORTS
        lda #$FF
        sta FORPNT+1            ; a variable address no FOR frame has
        jsr FNDFOR              ; X past the FOR frames
        txs
        cmp #GOSUTK
        beq RETU1
        ldx #ERR_RETURN_WITHOUT_GOSUB
        byte $2C                ; BIT abs: skips the next LDX
USERR   ldx #ERR_UNDEFD_STATEMENT
        jmp ERROR
SNERR2  jmp SNERR
RETU1   pla
        pla
        sta CURLIN
        pla
        sta CURLIN+1
        pla
        sta TXTPTR
        pla
        sta TXTPTR+1            ; at the GOSUB's line number: skip the rest (as DATA)

; DATA: skip to the statement's end (READ finds the items itself).
*=$A8F8
ST_DATA jsr DATAN
ADDON   tya                     ; TXTPTR += Y
        clc
        adc TXTPTR
        sta TXTPTR
        bcc REMRTS
        inc TXTPTR+1
REMRTS  rts

; DATAN: Y = the offset from TXTPTR of the statement's end (":" or 0, not inside quotes).
; REMN: of the line's end (0). TXTPTR unchanged.
*=$A906
DATAN   ldx #":"
        byte $2C                ; BIT abs: skips the next LDX
REMN    ldx #0
        stx CHARAC
        ldy #0
        sty ENDCHR
@swap   lda ENDCHR              ; a quote: the terminators swap (":" ignored inside)
        ldx CHARAC
        sta CHARAC
        stx ENDCHR
@loop   lda (TXTPTR),y
        beq REMRTS
        cmp ENDCHR
        beq REMRTS
        iny
        cmp #34
        bne @loop
        beq @swap

; IF cond THEN line | statements, IF cond GOTO line: false (0, or an empty string) skips
; the rest of the line.
*=$A928
ST_IF   jsr FRMEVL
        jsr CHRGOT
        cmp #GOTOTK
        beq @then
        lda #THENTK
        jsr SYNCHR
@then   lda FACEXP              ; a number: 0 has exponent 0; a string: its length
        bne DOCOND
; REM: skip the rest of the line.
ST_REM  jsr REMN
        beq ADDON
DOCOND  jsr CHRGOT
        bcs DOCO
        jmp ST_GOTO             ; THEN line
DOCO    jmp GONE3

; ON x GOTO|GOSUB line, line, ...: the x-th line (1-based); none (x 0 or too many): the next
; statement.
*=$A94B
ST_ON   jsr GETBYT              ; X = x ("ILLEGAL QUANTITY" outside 0..255), A next char
        pha
        cmp #GOSUTK
        beq ONGLOP
SNERR3  cmp #GOTOTK             ; (LINGET's overflow comes here: A is never GOTOTK... as
        bne SNERR2              ; Microsoft's, unless LINNUM's high byte is $89)
ONGLOP  dec FACLO
        bne ONGLP1
        pla                     ; this one: GOTO/GOSUB as a statement
        jmp GONE2
ONGLP1  jsr CHRGET
        jsr LINGET
        cmp #","
        beq ONGLOP
        pla
ONGRTS  rts

; LINGET: the decimal number at TXTPTR (A and flags from CHRGET) into LINNUM, 0 if none;
; "SYNTAX" from 64000 on. Leaves A and flags from CHRGOT at the character after it.
*=$A96B
LINGET  ldx #0
        stx LINNUM
        stx LINNUM+1
@digit  bcs ONGRTS              ; not a digit: done
        sbc #"0"-1              ; (C clear) the digit's value
        sta CHARAC
        lda LINNUM+1
        sta INDEX
        cmp #25                 ; 6400 or more: one more digit would pass 63999
        bcs SNERR3
        lda LINNUM              ; LINNUM * 10 + digit
        asl
        rol INDEX
        asl
        rol INDEX
        adc LINNUM
        sta LINNUM
        lda INDEX
        adc LINNUM+1
        sta LINNUM+1
        asl LINNUM
        rol LINNUM+1
        lda LINNUM
        adc CHARAC
        sta LINNUM
        bcc @next
        inc LINNUM+1
@next   jsr CHRGET
        jmp @digit

; FNDFOR, where Commodore's is ($A38A, under the tables' area: the end of Commodore's tables).
*=$A38A

; FNDFOR: X to the first stack frame above the caller's caller (skipping the return into
; the handler and NEWSTT's) that is not a FOR frame or is the FOR frame of FORPNT (FORPNT
; high 0: any, FORPNT set from it). Z set when found; A = the frame's first byte.
FNDFOR  tsx
        inx
        inx
        inx
        inx
@loop   lda $0101,x
        cmp #FORTK
        bne @rts
        lda FORPNT+1
        bne @cmp
        lda FORVAR,x            ; no variable: this one
        sta FORPNT
        lda FORVAR+1,x
        sta FORPNT+1
@cmp    cmp FORVAR+1,x
        bne @next
        lda FORPNT
        cmp FORVAR,x
        beq @rts
@next   txa
        clc
        adc #FORSIZ
        tax
        bne @loop
@rts    rts

*=$AD1E

; NEXT [var[,var...]]: adds the STEP to the loop variable of the latest FOR (of var), and
; loops back to the FOR statement's end unless the variable passed the limit; then drops the
; frame and goes on (with the next variable after a comma). "NEXT WITHOUT FOR".
ST_NEXT bne NEXTV
        ldy #0                  ; (A = 0) FORPNT 0: the latest FOR
        beq STXFOR
NEXTV   jsr PTRGET
STXFOR  sta FORPNT
        sty FORPNT+1
        jsr FNDFOR
        beq @have
        ldx #ERR_NEXT_WITHOUT_FOR
        jmp ERROR
@have   txs                     ; drops the FOR frames inside this one
        txa
        clc
        adc #<FORSTP
        pha
        adc #FORLIM-FORSTP
        sta INDEX2              ; the limit's address, low (FCOMPN's, after FADD)
        pla
        ldy #>FORSTP
        jsr MOVFM               ; FAC = STEP
        tsx
        lda FORSGN,x
        sta FACSGN
        lda FORPNT
        ldy FORPNT+1
        jsr FADD                ; + the variable
        jsr MOVVF               ; back into the variable
        ldy #>FORLIM
        jsr FCOMPN              ; A = sign of (variable - limit)
        tsx
        sec
        sbc FORSGN,x
        beq @done               ; past the limit in the STEP's direction
        lda FORLIN,x
        sta CURLIN
        lda FORLIN+1,x
        sta CURLIN+1
        lda FORTXT+1,x
        sta TXTPTR
        lda FORTXT,x
        sta TXTPTR+1
@go     jmp NEWSTT
@done   txa                     ; C set: + 18, the frame dropped
        adc #FORSIZ-1
        tax
        txs
        jsr CHRGOT
        cmp #","
        bne @go
        jsr CHRGET
        jsr NEXTV               ; (a dummy return: NEXTV ends in NEWSTT or an error)
