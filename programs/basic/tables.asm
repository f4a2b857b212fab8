; c64kit BASIC V2: the ROM's start, its tables and messages ($A000-$A3B7).
; Owner: the interpreter core (h-core). The layout is Microsoft's (STMDSP, FUNDSP, OPTAB,
; RESLST in that order), which puts each table where C64 memory maps document it: STMDSP
; $A00C, FUNDSP $A052, OPTAB $A080, RESLST $A09E, the error messages from $A19E.
; Text in double quotes is written in lower case: the assembler gives lower-case letters
; the PETSCII codes of the capitals the C64 shows ($41-$5A).

*=$A000
        word COLDST             ; cold start vector (the KERNAL's reset does JMP ($A000))
        word WARMST             ; warm start vector (RUN/STOP+RESTORE: JMP ($A002))
        text "cbmbasic"         ; the ROM's name, where programs look for it ($A004)

; The statement dispatch table: tokens $80 (END) to $A2 (NEW), each the handler's address
; - 1, for GONE's dispatch by RTS (push the entry, RTS lands on the handler).
STMDSP  word ST_END-1, ST_FOR-1, ST_NEXT-1, ST_DATA-1           ; $80
        word ST_INPUTN-1, ST_INPUT-1, ST_DIM-1, ST_READ-1       ; $84
        word ST_LET-1, ST_GOTO-1, ST_RUN-1, ST_IF-1             ; $88
        word ST_RESTORE-1, ST_GOSUB-1, ST_RETURN-1, ST_REM-1    ; $8C
        word ST_STOP-1, ST_ON-1, ST_WAIT-1, ST_LOAD-1           ; $90
        word ST_SAVE-1, ST_VERIFY-1, ST_DEF-1, ST_POKE-1        ; $94
        word ST_PRINTN-1, ST_PRINT-1, ST_CONT-1, ST_LIST-1      ; $98
        word ST_CLR-1, ST_CMD-1, ST_SYS-1, ST_OPEN-1            ; $9C
        word ST_CLOSE-1, ST_GET-1, ST_NEW-1                     ; $A0

; The function dispatch table: tokens $B4 (SGN) to $CA (MID$), each the routine's own
; address (entered through JMPER's JMP). USR goes to USRPOK ($0310), the JMP in RAM that
; programs point at their routine (INIT points it at FCERR).
FUNDSP  word SGN, INT, ABS, USRPOK                              ; $B4
        word FRE, POS, SQR, RND                                 ; $B8
        word LOG, EXP, COS, SIN                                 ; $BC
        word TAN, ATN, PEEK, LEN                                ; $C0
        word STRD, VAL, ASC, CHRD                               ; $C4
        word LEFTD, RIGHTD, MIDD                                ; $C8

; The operator table, as Microsoft's OPTAB: for each operator its precedence, then its
; routine's address - 1 (entered with ARG and FAC set, A = FAC's exponent). Tokens $AA-$B0:
; + - * / ^ AND OR; then unary minus, NOT and the relations, which FRMEVL finds by name.
OPTAB   byte 121
        word FADDT-1
        byte 121
        word FSUBT-1
        byte 123
        word FMULTT-1
        byte 123
        word FDIVT-1
        byte 127
        word FPWRT-1
        byte 80
        word ANDOP-1
        byte 70
        word OROP-1
NEGTAB  byte 125
        word NEGOP-1
NOTTAB  byte 90
        word NOTOP-1
PTDORL  byte 100
        word DOREL-1

; The keywords in token order from $80, each with its last character's bit 7 set, ending
; with a 0 (255 bytes of words: CRUNCH walks them with an 8-bit index). The tokens are
; Commodore's, as c64kit-basic's tokenizer and lister have them (KEYWORDS there).
RESLST  byte "en","d"+$80, "fo","r"+$80, "nex","t"+$80, "dat","a"+$80              ; $80
        byte "input","#"+$80, "inpu","t"+$80, "di","m"+$80, "rea","d"+$80          ; $84
        byte "le","t"+$80, "got","o"+$80, "ru","n"+$80, "i","f"+$80                ; $88
        byte "restor","e"+$80, "gosu","b"+$80, "retur","n"+$80, "re","m"+$80       ; $8C
        byte "sto","p"+$80, "o","n"+$80, "wai","t"+$80, "loa","d"+$80              ; $90
        byte "sav","e"+$80, "verif","y"+$80, "de","f"+$80, "pok","e"+$80           ; $94
        byte "print","#"+$80, "prin","t"+$80, "con","t"+$80, "lis","t"+$80         ; $98
        byte "cl","r"+$80, "cm","d"+$80, "sy","s"+$80, "ope","n"+$80               ; $9C
        byte "clos","e"+$80, "ge","t"+$80, "ne","w"+$80, "tab","("+$80             ; $A0
        byte "t","o"+$80, "f","n"+$80, "spc","("+$80, "the","n"+$80                ; $A4
        byte "no","t"+$80, "ste","p"+$80, "+"+$80, "-"+$80                         ; $A8
        byte "*"+$80, "/"+$80, "^"+$80, "an","d"+$80                               ; $AC
        byte "o","r"+$80, ">"+$80, "="+$80, "<"+$80                                ; $B0
        byte "sg","n"+$80, "in","t"+$80, "ab","s"+$80, "us","r"+$80                ; $B4
        byte "fr","e"+$80, "po","s"+$80, "sq","r"+$80, "rn","d"+$80                ; $B8
        byte "lo","g"+$80, "ex","p"+$80, "co","s"+$80, "si","n"+$80                ; $BC
        byte "ta","n"+$80, "at","n"+$80, "pee","k"+$80, "le","n"+$80               ; $C0
        byte "str","$"+$80, "va","l"+$80, "as","c"+$80, "chr","$"+$80              ; $C4
        byte "left","$"+$80, "right","$"+$80, "mid","$"+$80, "g","o"+$80           ; $C8
        byte 0

; The error messages, in errors.asm's order (error number 1 first), each with its last
; character's bit 7 set; ERRTAB below points at each. The text is Commodore's, as the
; C64 prints it ("?SYNTAX  ERROR").
ERRM01  byte "too many file","s"+$80
ERRM02  byte "file ope","n"+$80
ERRM03  byte "file not ope","n"+$80
ERRM04  byte "file not foun","d"+$80
ERRM05  byte "device not presen","t"+$80
ERRM06  byte "not input fil","e"+$80
ERRM07  byte "not output fil","e"+$80
ERRM08  byte "missing file nam","e"+$80
ERRM09  byte "illegal device numbe","r"+$80
ERRM10  byte "next without fo","r"+$80
ERRM11  byte "synta","x"+$80
ERRM12  byte "return without gosu","b"+$80
ERRM13  byte "out of dat","a"+$80
ERRM14  byte "illegal quantit","y"+$80
ERRM15  byte "overflo","w"+$80
ERRM16  byte "out of memor","y"+$80
ERRM17  byte "undef'd statemen","t"+$80
ERRM18  byte "bad subscrip","t"+$80
ERRM19  byte "redim'd arra","y"+$80
ERRM20  byte "division by zer","o"+$80
ERRM21  byte "illegal direc","t"+$80
ERRM22  byte "type mismatc","h"+$80
ERRM23  byte "string too lon","g"+$80
ERRM24  byte "file dat","a"+$80
ERRM25  byte "formula too comple","x"+$80
ERRM26  byte "can't continu","e"+$80
ERRM27  byte "undef'd functio","n"+$80
ERRM28  byte "verif","y"+$80
ERRM29  byte "loa","d"+$80
ERRM30  byte "brea","k"+$80

; The address of each error's message, error 1 first (ERROR indexes it with X * 2 - 2).
ERRTAB  word ERRM01, ERRM02, ERRM03, ERRM04, ERRM05, ERRM06, ERRM07, ERRM08
        word ERRM09, ERRM10, ERRM11, ERRM12, ERRM13, ERRM14, ERRM15, ERRM16
        word ERRM17, ERRM18, ERRM19, ERRM20, ERRM21, ERRM22, ERRM23, ERRM24
        word ERRM25, ERRM26, ERRM27, ERRM28, ERRM29, ERRM30

; The other messages, each ending with a 0 (printed by STROUT). After an error's message
; "  ERROR" (two spaces, as the C64 prints it), " IN " before the line number (INPRT),
; READY's CR LF "READY." CR LF, and STOP's and the STOP key's CR LF "BREAK".
ERR     byte "  error",0
INTXT   byte " in ",0
REDDY   byte $0D,$0A,"ready.",$0D,$0A,0
BRKTXT  byte $0D,$0A,"break",0
