; RAM under the BASIC ROM: the experiment of published facts F6 and F19.
; Writes 16 board records of 29 bytes from $9F00, so that records 8 to 15 lie at or past
; $A000, then reads them back twice: first with the BASIC ROM mapped (LORAM = 1, the
; power-on state), where every record touching $A000-$BFFF reads back wrong, and then after
; clearing LORAM (bit 0 of $01), where all read back as written. Prints both counts.

CHROUT   = $FFD2
BASE     = $9F00          ; the first record; record 8 straddles $A000
RECLEN   = 29             ; the first series' compact board record (F5)
COUNT    = 16
PTR      = $FB            ; zero-page pointer to the current record
REC      = $FD            ; record index
BAD      = $FE            ; records that read back wrong

*=$0801
         byte $0b,$08,$0a,$00,$9e,"2080",$00,$00,$00

*=$0820
start
         jsr write_records
         ldx #0
         jsr print_msg            ; "BASIC ROM IN: "
         jsr count_bad
         jsr print_count
         lda $01
         and #$fe                 ; LORAM = 0: $A000-$BFFF is RAM
         sta $01
         ldx #msg_ram-msg_rom
         jsr print_msg            ; "LORAM CLEARED: "
         jsr count_bad
         jsr print_count
         lda $01
         ora #$01                 ; BASIC ROM back in, as BASIC expects on return
         sta $01
         rts

; Record i is filled with the byte $40 + i.
write_records
         jsr first_record
@rec     lda REC
         clc
         adc #$40
         ldy #RECLEN-1
@byte    sta (PTR),y
         dey
         bpl @byte
         jsr next_record
         bne @rec
         rts

; BAD = the number of records with any byte not reading back as written.
count_bad
         lda #0
         sta BAD
         jsr first_record
@rec     lda REC
         clc
         adc #$40
         ldy #RECLEN-1
@byte    cmp (PTR),y
         bne @wrong
         dey
         bpl @byte
         bmi @next
@wrong   inc BAD
@next    jsr next_record
         bne @rec
         rts

first_record
         lda #<BASE
         sta PTR
         lda #>BASE
         sta PTR+1
         lda #0
         sta REC
         rts

; Advances PTR by one record; Z set after the last one.
next_record
         lda PTR
         clc
         adc #RECLEN
         sta PTR
         bcc @same
         inc PTR+1
@same    inc REC
         lda REC
         cmp #COUNT
         rts

; Prints "nn OF 16 RECORDS BAD" and RETURN, nn = BAD in decimal.
print_count
         lda BAD
         ldx #$2f                 ; tens digit, counted up from "0"
@tens    inx
         sec
         sbc #10
         bcs @tens
         adc #10+$30
         pha
         txa
         jsr CHROUT
         pla
         jsr CHROUT
         ldx #msg_of-msg_rom
         jmp print_msg

; Prints the zero-terminated message at msg_rom+X.
print_msg
         lda msg_rom,x
         beq @done
         jsr CHROUT
         inx
         bne print_msg
@done    rts

msg_rom  text "basic rom in: "
         byte 0
msg_ram  text "loram cleared: "
         byte 0
msg_of   text " of 16 records bad"
         byte 13,0
