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

; Used by tables.asm and main.asm (h-core), defined by the others.
ifndef ST_END
ST_END = NOTYET
endif
ifndef ST_FOR
ST_FOR = NOTYET
endif
ifndef ST_NEXT
ST_NEXT = NOTYET
endif
ifndef ST_DATA
ST_DATA = NOTYET
endif
ifndef ST_INPUTN
ST_INPUTN = NOTYET
endif
ifndef ST_INPUT
ST_INPUT = NOTYET
endif
ifndef ST_DIM
ST_DIM = NOTYET
endif
ifndef ST_READ
ST_READ = NOTYET
endif
ifndef ST_LET
ST_LET = NOTYET
endif
ifndef ST_GOTO
ST_GOTO = NOTYET
endif
ifndef ST_RUN
ST_RUN = NOTYET
endif
ifndef ST_IF
ST_IF = NOTYET
endif
ifndef ST_RESTORE
ST_RESTORE = NOTYET
endif
ifndef ST_GOSUB
ST_GOSUB = NOTYET
endif
ifndef ST_RETURN
ST_RETURN = NOTYET
endif
ifndef ST_REM
ST_REM = NOTYET
endif
ifndef ST_STOP
ST_STOP = NOTYET
endif
ifndef ST_ON
ST_ON = NOTYET
endif
ifndef ST_WAIT
ST_WAIT = NOTYET
endif
ifndef ST_LOAD
ST_LOAD = NOTYET
endif
ifndef ST_SAVE
ST_SAVE = NOTYET
endif
ifndef ST_VERIFY
ST_VERIFY = NOTYET
endif
ifndef ST_DEF
ST_DEF = NOTYET
endif
ifndef ST_POKE
ST_POKE = NOTYET
endif
ifndef ST_PRINTN
ST_PRINTN = NOTYET
endif
ifndef ST_PRINT
ST_PRINT = NOTYET
endif
ifndef ST_CONT
ST_CONT = NOTYET
endif
ifndef ST_LIST
ST_LIST = NOTYET
endif
ifndef ST_CMD
ST_CMD = NOTYET
endif
ifndef ST_SYS
ST_SYS = NOTYET
endif
ifndef ST_OPEN
ST_OPEN = NOTYET
endif
ifndef ST_CLOSE
ST_CLOSE = NOTYET
endif
ifndef ST_GET
ST_GET = NOTYET
endif
ifndef SGN
SGN = NOTYET
endif
ifndef INT
INT = NOTYET
endif
ifndef ABS
ABS = NOTYET
endif
ifndef FRE
FRE = NOTYET
endif
ifndef POS
POS = NOTYET
endif
ifndef SQR
SQR = NOTYET
endif
ifndef RND
RND = NOTYET
endif
ifndef LOG
LOG = NOTYET
endif
ifndef EXP
EXP = NOTYET
endif
ifndef COS
COS = NOTYET
endif
ifndef SIN
SIN = NOTYET
endif
ifndef TAN
TAN = NOTYET
endif
ifndef ATN
ATN = NOTYET
endif
ifndef PEEK
PEEK = NOTYET
endif
ifndef LEN
LEN = NOTYET
endif
ifndef STRD
STRD = NOTYET
endif
ifndef VAL
VAL = NOTYET
endif
ifndef ASC
ASC = NOTYET
endif
ifndef CHRD
CHRD = NOTYET
endif
ifndef LEFTD
LEFTD = NOTYET
endif
ifndef RIGHTD
RIGHTD = NOTYET
endif
ifndef MIDD
MIDD = NOTYET
endif
ifndef FADDT
FADDT = NOTYET
endif
ifndef FSUBT
FSUBT = NOTYET
endif
ifndef FMULTT
FMULTT = NOTYET
endif
ifndef FDIVT
FDIVT = NOTYET
endif
ifndef FPWRT
FPWRT = NOTYET
endif
ifndef ANDOP
ANDOP = NOTYET
endif
ifndef OROP
OROP = NOTYET
endif
ifndef NEGOP
NEGOP = NOTYET
endif
ifndef NOTOP
NOTOP = NOTYET
endif
ifndef DOREL
DOREL = NOTYET
endif
ifndef GARBA2
GARBA2 = NOTYET
endif
ifndef CRDO
CRDO = NOTYET
endif
ifndef OUTQST
OUTQST = NOTYET
endif
ifndef OUTDO
OUTDO = NOTYET
endif
ifndef STROUT
STROUT = NOTYET
endif
ifndef INPRT
INPRT = NOTYET
endif
ifndef LINPRT
LINPRT = NOTYET
endif
ifndef INCHR
INCHR = NOTYET
endif
ifndef FININL
FININL = NOTYET
endif
ifndef LINGET
LINGET = NOTYET
endif
ifndef FCERR
FCERR = NOTYET
endif
ifndef GIVAYF
GIVAYF = NOTYET
endif
ifndef FACINX
FACINX = NOTYET
endif
ifndef NQPLOP
NQPLOP = NOTYET
endif
ifndef NGONE
NGONE = NOTYET
endif
ifndef DEFEVL
DEFEVL = NOTYET
endif
