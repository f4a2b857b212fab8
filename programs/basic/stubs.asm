; c64kit BASIC V2: placeholders for routines not written yet, so every file assembles while
; the others are being written. Last in the build list: a name any file above defines is
; skipped here. Every placeholder is NOTYET, a JAM: a run that reaches one stops "jammed"
; there, and the trace or the caller says which routine was missing. Remove a name here
; when its routine exists.

*=$E4DF
NOTYET  byte $02

; ifndef NAME
; NAME = NOTYET
; endif

; Used by exec.asm (h-exec), defined by the others.
ifndef FNDLIN
FNDLIN = NOTYET
endif
ifndef FNDLNC
FNDLNC = NOTYET
endif
ifndef CRDO
CRDO = NOTYET
endif
ifndef LINPRT
LINPRT = NOTYET
endif
ifndef OUTDO
OUTDO = NOTYET
endif
ifndef RESLST
RESLST = NOTYET
endif
ifndef ST_LET
ST_LET = NOTYET
endif
ifndef GETSTK
GETSTK = NOTYET
endif
ifndef SYNCHR
SYNCHR = NOTYET
endif
ifndef CHKNUM
CHKNUM = NOTYET
endif
ifndef FRMNUM
FRMNUM = NOTYET
endif
ifndef MOVFM
MOVFM = NOTYET
endif
ifndef FONE
FONE = NOTYET
endif
ifndef SIGN
SIGN = NOTYET
endif
ifndef STMDSP
STMDSP = NOTYET
endif
ifndef SNERR
SNERR = NOTYET
endif
ifndef BRKTXT
BRKTXT = NOTYET
endif
ifndef ERRFIN
ERRFIN = NOTYET
endif
ifndef ERROR
ERROR = NOTYET
endif
ifndef RUNC
RUNC = NOTYET
endif
ifndef CLEARC
CLEARC = NOTYET
endif
ifndef FRMEVL
FRMEVL = NOTYET
endif
ifndef GETBYT
GETBYT = NOTYET
endif
ifndef PTRGET
PTRGET = NOTYET
endif
ifndef FADD
FADD = NOTYET
endif
ifndef MOVVF
MOVVF = NOTYET
endif
ifndef LOWTR
LOWTR = $5F                     ; zero page: h-core's zeropage.asm names it (FNDLIN's result)
endif
ifndef PUSHF
PUSHF = NOTYET
endif
; Microsoft's FORPSH: PUSHF's entry after it pushes A (PUSHF is TAY PLA STA INC PLA STA TYA
; PHA, 11 bytes, as Microsoft's and Commodore's: $AE38 and $AE43). expr.asm may name it.
ifndef FORPSH
FORPSH = PUSHF+11
endif
ifndef FCOMPN
FCOMPN = NOTYET
endif
