; c64kit BASIC V2: BASIC's RAM, where Commodore's BASIC keeps it. Programs PEEK and POKE
; these (memory maps document every one), so the layout is part of the language. Names as
; in Microsoft's source and the usual C64 memory maps. One place for every address.

ADRAY1  = $03   ; vector: float to integer (AYINT's caller), for USR routines
ADRAY2  = $05   ; vector: integer to float (GIVAYF)
CHARAC  = $07   ; search character (quote/colon scanning)
INTEGR  = $07   ; INT's low byte of the integer (Microsoft's INTEGR = CHARAC)
ENDCHR  = $08   ; second search character
TRMPOS  = $09   ; column before TAB( or SPC(
VERCK   = $0A   ; 0 = LOAD, 1 = VERIFY
COUNT   = $0B   ; input buffer index (CRUNCH), number of array subscripts
DIMFLG  = $0C   ; DIM in progress
VALTYP  = $0D   ; type of the last expression: $FF string, $00 number
INTFLG  = $0E   ; $80 integer, $00 real
GARBFL  = $0F   ; DATA scan (CRUNCH), LIST's quote mode, garbage collection flag
SUBFLG  = $10   ; subscripts or FN not allowed (FOR/FN variables)
INPFLG  = $11   ; $00 INPUT, $40 GET, $98 READ
TANSGN  = $12   ; TAN's and comparisons' sign
CHANNL  = $13   ; current I/O channel (CMD logical file), 0 = keyboard/screen
LINNUM  = $14   ; integer line number / address (2 bytes)
TEMPPT  = $16   ; next free entry of the temporary string stack
LASTPT  = $17   ; last temporary string descriptor (2 bytes)
TEMPST  = $19   ; the temporary string stack: 3 descriptors of 3 bytes ($19-$21)
INDEX   = $22   ; work pointer (INDEX1 $22-$23, INDEX2 $24-$25)
INDEX1  = $22
INDEX2  = $24
RESHO   = $26   ; multiplication product ($26-$2A)
RESMOH  = $27   ; its next bytes (Microsoft's names); $2A is FDIV's spare quotient byte
RESMO   = $28
RESLO   = $29
TXTTAB  = $2B   ; start of the BASIC program
VARTAB  = $2D   ; start of the variables
ARYTAB  = $2F   ; start of the arrays
STREND  = $31   ; end of the arrays (+1)
FRETOP  = $33   ; bottom of string space
FRESPC  = $35   ; pointer to the newest string
MEMSIZ  = $37   ; top of BASIC's memory (+1)
CURLIN  = $39   ; current line number ($FF in the high byte: direct mode)
OLDLIN  = $3B   ; line number for CONT
OLDTXT  = $3D   ; text pointer for CONT
DATLIN  = $3F   ; line of the current DATA
DATPTR  = $41   ; pointer into the current DATA
INPPTR  = $43   ; INPUT/GET/READ's text pointer
VARNAM  = $45   ; current variable's name (2 bytes)
VARPNT  = $47   ; pointer to the current variable's value
FDECPT  = $47   ; FOUT: index into the powers-of-ten table (shares VARPNT)
FORPNT  = $49   ; FOR's loop variable, LET's target
OPPTR   = $4B   ; operator table pointer, TXTPTR save
OPMASK  = $4D   ; relational operator mask
DEFPNT  = $4E   ; FN's definition pointer
DSCPNT  = $50   ; string descriptor pointer (3 bytes)
FOUR6   = $53   ; garbage collection step (3 or 7)
JMPER   = $54   ; JMP opcode and address for function dispatch ($54-$56)
OLDOV   = $56   ; FADD: FAC's rounding byte before the addition (JMPER+2)
TEMPF1  = $57   ; float work area ($57-$5B)
TEMPF2  = $5C   ; float work area ($5C-$60)
DECCNT  = $5D   ; FIN: digits after the point; FOUT: digits before it
TENEXP  = $5E   ; FIN, FOUT: the power of ten
DPTFLG  = $5F   ; FIN: a decimal point was seen (bit 7; bit 6 on a second)
EXPSGN  = $60   ; FIN: the exponent is negative (bit 7)
HIGHDS  = $58   ; BLTU: the destination's end (+1), in TEMPF1 (2 bytes)
HIGHTR  = $5A   ; BLTU: the source's end (+1) (2 bytes)
LOWDS   = $5D   ; BLTU: the destination's start, in TEMPF2 (2 bytes)
LOWTR   = $5F   ; BLTU: the source's start; FNDLIN: the line found (or the next) (2 bytes)
FACEXP  = $61   ; FAC: exponent
FACHO   = $62   ; FAC: mantissa ($62-$65), high byte first
FACMOH  = $63
FACMO   = $64
FACLO   = $65
FACSGN  = $66   ; FAC: sign ($00 positive, $FF negative)
SGNFLG  = $67   ; series evaluation: count of terms, FIN's sign
BITS    = $68   ; FAC overflow byte on normalising
ARGEXP  = $69   ; ARG: exponent
ARGHO   = $6A   ; ARG: mantissa ($6A-$6D)
ARGMOH  = $6B
ARGMO   = $6C
ARGLO   = $6D
ARGSGN  = $6E   ; ARG: sign
ARISGN  = $6F   ; sign comparison of FAC and ARG
FACOV   = $70   ; FAC's rounding byte
FBUFPT  = $71   ; pointer into the number output buffer, series pointer (2 bytes)
BUFPTR  = $71   ; CRUNCH: where the crunched line is written (FBUFPT's low byte)
CHRGET  = $73   ; the routine copied here at start: next character of the program text
CHRGOT  = $79   ; the same without advancing
TXTPTR  = $7A   ; the text pointer inside CHRGET/CHRGOT (2 bytes)
RNDX    = $8B   ; RND's seed, a float ($8B-$8F)

FBUFFR  = $00FF ; number output buffer ($00FF-$010A): FOUT's text starts at $0100
STKEND  = $01FA ; BASIC's stack starts under here (STKINI: S = $FA)
BUF     = $0200 ; line input buffer ($0200-$0258: 89 bytes)
BUFLEN  = 89

; BASIC's RAM vectors (programs hook these).
IERROR  = $0300 ; print an error message (X = error number)
IMAIN   = $0302 ; the main loop
ICRNCH  = $0304 ; tokenize
IQPLOP  = $0306 ; list a token
IGONE   = $0308 ; execute the next statement
IEVAL   = $030A ; evaluate a single term
SAREG   = $030C ; SYS: A, X, Y, P in and out
SXREG   = $030D
SYREG   = $030E
SPREG   = $030F
USRPOK  = $0310 ; USR: JMP opcode and address ($0310-$0312)
USRADD  = $0311

; Other names for the RAM above, as Microsoft's source gives them (the string routines and
; garbage collection use them; BLTU's pointers are main's too).
DSCTMP  = FACEXP ; a string descriptor being built: length, address ($61-$63)
STRNG1  = $6F    ; pointer to a string or descriptor (ARISGN and FACOV, 2 bytes)
STRNG2  = FBUFPT ; pointer to a string, text pointer save (2 bytes)
GRBPNT  = DEFPNT ; garbage collection: the variable or descriptor of the highest string
SIZE    = JMPER+1 ; garbage collection: its step (3 or 7)
ARYPNT  = HIGHDS ; array walk pointer
GRBTOP  = LOWTR  ; garbage collection: the highest string found so far
