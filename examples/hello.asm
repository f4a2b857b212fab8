; hello.asm: a first program. Asks for a name and greets it.
; Assemble and run:  c64kit asm examples/hello.asm -o hello.prg
;                    c64kit run hello.prg --input "world{RETURN}"

         incasm "lib/c64.asm"     ; CHROUT, CHRIN and the other addresses

NAME     = $0340          ; where the name goes (the cassette buffer, free here)

; The BASIC line "10 SYS2064" that RUN starts: link, line number, SYS token, "2064", end.
*=$0801
         byte $0b,$08,$0a,$00,$9e,"2064",$00,$00,$00

*=$0810
main
         ldx #0
@ask     lda question,x           ; print the question, up to its 0
         beq @read
         jsr CHROUT
         inx
         bne @ask
@read    ldy #0
@key     jsr CHRIN                ; the typed line, one character a call
         cmp #13                  ; RETURN ends it
         beq @greet
         sta NAME,y
         iny
         cpy #16                  ; at most 16 characters are kept
         bne @key
@greet   sty length
         ldx #0
@hello   lda greeting,x
         beq @name
         jsr CHROUT
         inx
         bne @hello
@name    ldx #0
@char    cpx length
         beq @done
         lda NAME,x
         jsr CHROUT
         inx
         bne @char
@done    lda #"!"
         jsr CHROUT
         lda #13
         jsr CHROUT
         rts                      ; back to BASIC: the run ends

; Lower case in double quotes is PETSCII for the capitals the C64 shows at power-on.
question null 13,"what is your name? "
greeting null 13,"hello, "
length   byte 0
