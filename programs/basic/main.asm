; c64kit BASIC V2: memory moves (BLTU), the stack and memory checks (GETSTK, REASON),
; errors, READY, the main loop, line input (INLIN), tokenizing (CRUNCH), entering lines,
; LNKPRG, FNDLIN, NEW, CLR; the cold and warm starts, CHRGET's image, INIT and the start
; message. Owner: the interpreter core (h-core).
; Written from Microsoft's 6502 BASIC 1.1 (its algorithms and structure), with Commodore
; V2's behaviour: the RAM vectors IERROR IMAIN ICRNCH, the KERNAL's CHRIN/CHROUT, MEMBOT/
; MEMTOP, SETMSG. The documented entries are at Commodore's addresses (READY $A474, LNKPRG
; $A533, INLIN $A560, FNDLIN $A613, NEW $A642, RUNC $A659, CLR $A65E, STXTPT $A68E; the
; warm start $E37B, IERROR's default $E38B, the cold start $E394).

*=$A3B8

; BLTU: makes room by moving [LOWTR, HIGHTR) up so that it ends at HIGHDS (the top byte
; first, so the areas may overlap). Y/A = HIGHDS on entry: REASON checks it stays under
; the strings (OUT OF MEMORY), and it becomes STREND. Leaves LOWTR; HIGHTR and HIGHDS
; are left 256 below the lowest byte moved and the byte it went to (Microsoft's
; convention, which the array code uses).
BLTU    jsr REASON
        sta STREND
        sty STREND+1
; BLTUC: the same without the check.
BLTUC   sec
        lda HIGHTR
        sbc LOWTR
        sta INDEX               ; the bytes in the last (partial) page
        tay
        lda HIGHTR+1
        sbc LOWTR+1
        tax
        inx                     ; pages to move, counting the partial one
        tya
        beq DECBLT              ; whole pages only
        lda HIGHTR
        sec
        sbc INDEX
        sta HIGHTR              ; both ends down to the partial page's base
        bcs BLT1
        dec HIGHTR+1
        sec
BLT1    lda HIGHDS
        sbc INDEX
        sta HIGHDS
        bcs MOREN1
        dec HIGHDS+1
        bcc MOREN1
BLTLP   lda (HIGHTR),y
        sta (HIGHDS),y
MOREN1  dey
        bne BLTLP
        lda (HIGHTR),y          ; the page's byte 0
        sta (HIGHDS),y
DECBLT  dec HIGHTR+1
        dec HIGHDS+1
        dex
        bne MOREN1
        rts

; GETSTK: A = the 2-byte entries a routine is about to push; OUT OF MEMORY unless that
; leaves 62 bytes of stack free (FOUT's buffer at $0100 and the routines' own use).
; Changes A and X.
GETSTK  asl
        adc #62
        bcs OMERR
        sta INDEX
        tsx
        cpx INDEX
        bcc OMERR
        rts

; REASON: Y/A (high, low) must be under FRETOP, the strings' bottom; if not, after a
; garbage collection (which may use TEMPF1 and TEMPF2: saved around it), OUT OF MEMORY.
; Keeps A and Y.
REASON  cpy FRETOP+1
        bcc REARTS
        bne TRYMOR
        cmp FRETOP
        bcc REARTS
TRYMOR  pha
        ldx #9
        tya
REASAV  pha                     ; Y, then $60 down to $58
        lda HIGHDS-1,x
        dex
        bpl REASAV
        jsr GARBA2
        ldx #256-9
REASTO  pla
        sta HIGHDS+9,x
        inx
        bmi REASTO
        pla
        tay
        pla
        cpy FRETOP+1
        bcc REARTS
        bne OMERR
        cmp FRETOP
        bcs OMERR
REARTS  rts

OMERR   ldx #ERR_OUT_OF_MEMORY
; ERROR: X = the error number (errors.asm); through the IERROR vector ($0300), whose
; default, NERROR, prints the message (X with bit 7 set: just READY).
ERROR   jmp (IERROR)

; The error message: output back to the screen, CR, "?", the message, "  ERROR", " IN "
; and the line when a program runs, then READY. The stack is reset (STKINI).
ERRPRT  txa
        asl
        tax
        lda ERRTAB-2,x
        sta INDEX
        lda ERRTAB-1,x
        sta INDEX+1
ERRCLR  jsr CLRCHN              ; (c64kit's machine sees an error here: INDEX = its message)
        lda #0
        sta CHANNL
        jsr CRDO
        jsr OUTQST
        ldy #0
@msg    lda (INDEX),y
        pha
        and #$7F
        jsr OUTDO
        iny
        pla
        bpl @msg
        jsr STKINI
        lda #<ERR
        ldy #>ERR
; ERRFIN: prints the message at Y/A, then " IN " and the line when a program runs (STOP's
; "BREAK" comes here too), then READY.
ERRFIN  jsr STROUT
        ldy CURLIN+1
        iny                     ; $FF: direct mode, no line
        beq READY
        jsr INPRT

*=$A474
; READY: "READY." (after a CR LF), KERNAL messages on (direct mode), then the main loop.
READY   lda #<REDDY
        ldy #>REDDY
        jsr STROUT
        lda #$80
        jsr SETMSG
; The main loop through the IMAIN vector ($0302).
MAIN    jmp (IMAIN)

; IMAIN's default: read a line into BUF; with a line number it is entered into the
; program, without one it is crunched and run at once, as a direct line: CURLIN+1 = $FF,
; TXTPTR = BUF-1, through the IGONE vector as a program's statements are.
NMAIN   jsr INLIN
        stx TXTPTR
        sty TXTPTR+1
        jsr CHRGET
        tax
        beq MAIN                ; an empty line
        ldx #$FF
        stx CURLIN+1
        bcc MAIN1               ; a digit: a line to enter
        jsr CRUNCH
        jmp (IGONE)

; A numbered line: delete the line of that number if there is one, then insert the new
; one unless it is empty (a number alone deletes).
MAIN1   jsr LINGET
        jsr CRUNCH
        sty COUNT               ; the new line's length with its link, number and 0
        jsr FNDLIN
        bcc NODEL
        ldy #1                  ; found: move everything after it down over it
        lda (LOWTR),y
        sta INDEX1+1
        lda VARTAB
        sta INDEX1
        lda LOWTR+1
        sta INDEX2+1
        lda LOWTR
        dey
        sbc (LOWTR),y           ; minus the line's length
        clc
        adc VARTAB
        sta VARTAB
        sta INDEX2
        lda VARTAB+1
        adc #$FF
        sta VARTAB+1
        sbc LOWTR+1
        tax                     ; pages to move
        sec
        lda LOWTR
        sbc VARTAB
        tay
        bcs QDECT1
        inx
        dec INDEX2+1
QDECT1  clc
        adc INDEX1
        bcc MLOOP
        dec INDEX1+1
        clc
MLOOP   lda (INDEX1),y
        sta (INDEX2),y
        iny
        bne MLOOP
        inc INDEX1+1
        inc INDEX2+1
        dex
        bne MLOOP
; Then variables are cleared and the links fixed; unless the new line is empty, room is
; made for it at LOWTR (BLTU moves the program's rest up by its length), and the line
; (link, number from LINNUM, text) is copied in from BUF-4; then CLR and the links again.
NODEL   jsr RUNC
        jsr LNKPRG
        lda BUF
        beq MAIN                ; a number alone: nothing to insert
        clc
        lda VARTAB
        sta HIGHTR
        adc COUNT
        sta HIGHDS
        ldy VARTAB+1
        sty HIGHTR+1
        bcc @high
        iny
@high   sty HIGHDS+1
        jsr BLTU
        lda LINNUM
        ldy LINNUM+1
        sta BUF-2
        sty BUF-1
        lda STREND
        ldy STREND+1
        sta VARTAB
        sty VARTAB+1
        ldy COUNT
        dey
@copy   lda BUF-4,y
        sta (LOWTR),y
        dey
        bpl @copy
        jsr RUNC
        jsr LNKPRG
        jmp MAIN

*=$A533
; LNKPRG: sets each line's link from TXTTAB on to the byte after its 0, until a link
; whose high byte is 0. Leaves INDEX at the program's end (its 0 0 link), C clear.
LNKPRG  lda TXTTAB
        ldy TXTTAB+1
        sta INDEX
        sty INDEX+1
        clc
CHEAD   ldy #1
        lda (INDEX),y
        beq LNKRTS
        ldy #4
CZLOOP  iny                     ; the text has at least one byte
        lda (INDEX),y
        bne CZLOOP
        iny
        tya
        adc INDEX
        tax
        ldy #0
        sta (INDEX),y
        lda INDEX+1
        adc #0
        iny
        sta (INDEX),y
        stx INDEX
        sta INDEX+1
        bcc CHEAD
LNKRTS  rts

; INLIN: a line from the current input (CHRIN) into BUF up to RETURN, at most 88
; characters (89: STRING TOO LONG). FININL ends it with a 0, prints a CR when reading
; from the keyboard and leaves X/Y = BUF-1 (low, high).
INLIN   ldx #0
@next   jsr INCHR
        cmp #$0D
        beq @end
        sta BUF,x
        inx
        cpx #BUFLEN
        bcc @next
        ldx #ERR_STRING_TOO_LONG
        jmp ERROR
@end    jmp FININL

; CRUNCH: the line in BUF from TXTPTR on to tokens, in place, through the ICRNCH vector.
CRUNCH  jmp (ICRNCH)

; ICRNCH's default (Microsoft's algorithm). Outside quotes, REM and DATA, each keyword
; of RESLST becomes its token (the first in the list's order that matches: a word whose
; last letter is typed shifted matches there, so abbreviations work), "?" becomes PRINT;
; other shifted characters are dropped; after DATA (until ":") only quotes are looked at,
; after REM nothing. Leaves the line at BUF, ending 0 0 0 (a direct line's end looks like
; the program's), Y = its length + 5 (the length with link and number, as a program line
; is stored: COUNT for entering it), TXTPTR = BUF-1.
NCRNCH  ldx TXTPTR
        ldy #4                  ; written at BUF-5+Y
        sty GARBFL              ; bit 6 clear: keywords are crunched
KLOOP   lda BUF,x
        bpl CMPSPC
        cmp #$FF                ; pi is kept
        beq STUFFH
        inx                     ; other shifted characters are dropped
        bne KLOOP
CMPSPC  cmp #" "
        beq STUFFH
        sta ENDCHR              ; a quote: copy up to the next one
        cmp #$22
        beq STRNG
        bit GARBFL
        bvs STUFFH              ; in DATA: as it is
        cmp #"?"
        bne KLOOP1
        lda #$99                ; PRINT's token
        bne STUFFH
KLOOP1  cmp #"0"
        bcc MUSTCR
        cmp #"<"                ; digits, ":" and ";" as they are
        bcc STUFFH
MUSTCR  sty BUFPTR
        ldy #0
        sty COUNT               ; the keyword's number
        dey
        stx TXTPTR              ; where the word starts
        dex
RESER   iny
RESPUL  inx
RESCON  lda BUF,x
        sec
        sbc RESLST,y
        beq RESER               ; the same: on with the word
        cmp #$80                ; the same but for bit 7: the word's last character
        bne NTHIS
        ora COUNT               ; the token
GETBPT  ldy BUFPTR
STUFFH  inx
        iny
        sta BUF-5,y
        lda BUF-5,y
        beq CRDONE
        sec
        sbc #":"
        beq COLIS               ; ":": keywords again
        cmp #$83-":"            ; DATA
        bne NODATT
COLIS   sta GARBFL
NODATT  sec
        sbc #$8F-":"            ; REM: the rest as it is
        bne KLOOP
        sta ENDCHR              ; (only the line's 0 ends it)
STR1    lda BUF,x
        beq STUFFH
        cmp ENDCHR
        beq STUFFH
STRNG   iny
        sta BUF-5,y
        inx
        bne STR1
NTHIS   ldx TXTPTR              ; not this word: try the next
        inc COUNT
NTHIS1  iny
        lda RESLST-1,y
        bpl NTHIS1
        lda RESLST,y
        bne RESCON
        lda BUF,x               ; no keyword: the character as it is
        bpl GETBPT
CRDONE  sta BUF-3,y
        dec TXTPTR+1
        lda #<(BUF-1)
        sta TXTPTR
        rts

; FNDLIN: the line LINNUM in the program. C set: found, LOWTR at it (its link); C clear:
; not there, LOWTR at the first line with a greater number (or the program's end).
; FNDLNC: the same, starting at the line X/A (high, low).
FNDLIN  lda TXTTAB
        ldx TXTTAB+1
FNDLNC  ldy #1
        sta LOWTR
        stx LOWTR+1
        lda (LOWTR),y
        beq FLINRT              ; the end
        iny
        iny
        lda LINNUM+1
        cmp (LOWTR),y
        bcc FLNRTS
        beq FNDLO1
        dey
        bne AFFRTS
FNDLO1  lda LINNUM
        dey
        cmp (LOWTR),y
        bcc FLNRTS
        beq FLNRTS
AFFRTS  dey
        lda (LOWTR),y           ; the next line
        tax
        dey
        lda (LOWTR),y
        bcs FNDLNC
FLINRT  clc
FLNRTS  rts

; NEW ($A642): Z set (nothing after it): no program, then RUNC.
ST_NEW
SCRATH  bne FLNRTS
SCRTCH  lda #0
        tay
        sta (TXTTAB),y          ; a 0 0 link: the program's end
        iny
        sta (TXTTAB),y
        lda TXTTAB
        clc
        adc #2
        sta VARTAB
        lda TXTTAB+1
        adc #0
        sta VARTAB+1
; RUNC ($A659): the text pointer to the program's start, then CLR.
RUNC    jsr STXTPT
        lda #0
; CLR ($A65E): Z set (nothing after it): files closed, strings, variables and arrays
; dropped, DATA from the start, the stack and temporaries reset (STKINI).
ST_CLR
CLEAR   bne STKRTS
CLEARC  jsr CLALL
        lda MEMSIZ
        ldy MEMSIZ+1
        sta FRETOP
        sty FRETOP+1
        lda VARTAB
        ldy VARTAB+1
        sta ARYTAB
        sty ARYTAB+1
        sta STREND
        sty STREND+1
FLOAD   jsr ST_RESTORE
; STKINI: BASIC's stack empty under the caller's return address (S = $FA before it),
; temporary strings freed, subscripts allowed, CONT not possible.
STKINI  ldx #TEMPST
        stx TEMPPT
        pla
        tay
        pla
        ldx #$FA
        txs
        pha
        tya
        pha
        lda #0
        sta OLDTXT+1
        sta SUBFLG
STKRTS  rts

; STXTPT ($A68E): TXTPTR = TXTTAB - 1, where NEWSTT starts the program.
STXTPT  clc
        lda TXTTAB
        adc #$FF
        sta TXTPTR
        lda TXTTAB+1
        adc #$FF
        sta TXTPTR+1
        rts

; ---------------------------------------------------------------------------------------
*=$E37B
; The warm start (RUN/STOP+RESTORE through $A002): output and input back to the screen
; and keyboard, the stack reset, then READY through IERROR with X = $80.
WARMST  jsr CLRCHN
        lda #0
        sta CHANNL
        jsr STKINI
        cli
        ldx #$80
        jmp (IERROR)

; IERROR's default ($E38B): X with bit 7 set is READY alone, else the error's message.
NERROR  txa
        bmi @ready
        jmp ERRPRT
@ready  jmp READY

; The cold start ($E394, through $A000 after the KERNAL's reset): the RAM vectors, CHRGET
; and the rest of BASIC's RAM, the start message; then READY with an empty stack.
COLDST  jsr INITV
        jsr INITCZ
        jsr INITMS
        ldx #$FB
        txs
        jmp READY

; CHRGET's image, copied to $73 with RND's seed after it. Its layout is Commodore's, as
; programs that patch it (wedges) expect: INC TXTPTR; BNE; INC TXTPTR+1; CHRGOT: LDA abs
; whose operand is TXTPTR ($7A); then: ":" and above returned as they are (C set), spaces
; skipped, C clear for a digit, Z set for ":" and the line's 0.
INITAT  inc TXTPTR
        bne @chrgot
        inc TXTPTR+1
@chrgot byte $AD                ; LDA abs: its operand is TXTPTR
        word BUF
        cmp #":"
        bcs @rts
        cmp #" "
        beq INITAT
        sec
        sbc #"0"
        sec
        sbc #$D0
@rts    rts
; RND's first seed, 0.811635157 (RNDX, $8B-$8F).
        byte $80,$4F,$C7,$52,$58
INITLN  = *-INITAT

; INITCZ: BASIC's RAM: the JMP opcodes of the function dispatch and USR (USR at FCERR),
; the conversion vectors for USR routines, CHRGET and RND's seed, the string temporaries,
; the two non-zero bytes before BUF (a direct line's link), and the memory from the
; KERNAL's MEMBOT/MEMTOP: the program from its bottom + 1 (a 0 before it), the strings
; from its top down.
INITCZ  lda #$4C                ; JMP
        sta JMPER
        sta USRPOK
        lda #<FCERR
        ldy #>FCERR
        sta USRADD
        sty USRADD+1
        lda #<GIVAYF
        ldy #>GIVAYF
        sta ADRAY2
        sty ADRAY2+1
        lda #<FACINX
        ldy #>FACINX
        sta ADRAY1
        sty ADRAY1+1
        ldx #INITLN-1
@copy   lda INITAT,x
        sta CHRGET,x
        dex
        bpl @copy
        lda #3
        sta FOUR6
        lda #0
        sta BITS
        sta CHANNL
        sta LASTPT+1
        ldx #1
        stx BUF-3
        stx BUF-4
        ldx #TEMPST
        stx TEMPPT
        sec
        jsr MEMBOT
        stx TXTTAB
        sty TXTTAB+1
        sec
        jsr MEMTOP
        stx MEMSIZ
        sty MEMSIZ+1
        stx FRETOP
        sty FRETOP+1
        ldy #0
        tya
        sta (TXTTAB),y
        inc TXTTAB
        bne @rts
        inc TXTTAB+1
@rts    rts

; INITMS: the start message with the bytes free (MEMSIZ - TXTTAB), then NEW.
INITMS  lda TXTTAB
        ldy TXTTAB+1
        jsr REASON
        lda #<WORDS
        ldy #>WORDS
        jsr STROUT
        lda MEMSIZ
        sec
        sbc TXTTAB
        tax
        lda MEMSIZ+1
        sbc TXTTAB+1
        jsr LINPRT
        lda #<WORDS2
        ldy #>WORDS2
        jsr STROUT
        jmp SCRTCH

; The start message as a C64 shows it: a clear screen, then on the second line
;     **** COMMODORE 64 BASIC V2 ****
; and after a blank line " 64K RAM SYSTEM  38911 BASIC BYTES FREE" (the number computed).
WORDS   byte $93,$0D,"    **** commodore 64 basic v2 ****",$0D,$0D," 64k ram system  ",0
WORDS2  byte " basic bytes free",$0D,0

; INITV: the RAM vectors IERROR to IEVAL ($0300-$030B) to their defaults.
INITV   ldx #BVLEN-1
@copy   lda BVECS,x
        sta IERROR,x
        dex
        bpl @copy
        rts
BVECS   word NERROR, NMAIN, NCRNCH, NQPLOP, NGONE, DEFEVL
BVLEN   = *-BVECS
