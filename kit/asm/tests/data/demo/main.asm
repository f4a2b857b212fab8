;===============================================================================
; demo project, file 1: BASIC stub and the main code
;===============================================================================
        incasm "Consts.asm"     ; the file is consts.asm: names are case-insensitive

; 10 SYS2080
*=$0801
        byte $0B, $08, $0A, $00, $9E, "2080", $00, $00, $00

*=$0820
start   ldx #0
@loop   lda message,x           ; message is in tables.asm (global labels)
        beq @done
        sta SCREEN,x
        inx
        bne @loop
@done   lda #<squares
        sta PTR
        lda #>squares
        sta PTR+1
        ldy #3
        lda (PTR),y
        sta RESULT
        rts
