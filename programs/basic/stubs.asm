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
ifndef FORPSH
FORPSH = PUSHF+11
endif
ifndef FCOMPN
FCOMPN = NOTYET
endif
ifndef OMERR
OMERR = NOTYET
endif
ifndef REASON
REASON = NOTYET
endif
ifndef BLTU
BLTU = NOTYET
endif
ifndef ST_DATA
ST_DATA = NOTYET
endif
ifndef FIN
FIN = NOTYET
endif
ifndef MOVMF
MOVMF = NOTYET
endif
ifndef MOVFA
MOVFA = NOTYET
endif
ifndef FCOMP
FCOMP = NOTYET
endif
ifndef QINT
QINT = NOTYET
endif
ifndef ROUND
ROUND = NOTYET
endif
ifndef FLOAT
FLOAT = NOTYET
endif
ifndef FLOATS
FLOATS = NOTYET
endif
ifndef FLOATB
FLOATB = NOTYET
endif
ifndef STRLIT
STRLIT = NOTYET
endif
ifndef FREFAC
FREFAC = NOTYET
endif
ifndef FRETMP
FRETMP = NOTYET
endif
ifndef FRETMS
FRETMS = NOTYET
endif
ifndef STRINI
STRINI = NOTYET
endif
ifndef MOVINS
MOVINS = NOTYET
endif
ifndef GARBA2
GARBA2 = NOTYET
endif
ifndef CAT
CAT = NOTYET
endif
ifndef OPTAB
OPTAB = NOTYET
endif
ifndef FUNDSP
FUNDSP = NOTYET
endif
ifndef ZERO
ZERO = NOTYET
endif
ifndef MUL10
MUL10 = NOTYET
endif
ifndef FINML6
FINML6 = NOTYET
endif
ifndef FINLOG
FINLOG = NOTYET
endif
ifndef MOVAF
MOVAF = NOTYET
endif
ifndef FOUTIM
FOUTIM = NOTYET
endif
ifndef FOUTBL
FOUTBL = NOTYET
endif
ifndef FDCEND
FDCEND = NOTYET
endif
ifndef TIMSTR
TIMSTR = NOTYET
endif
ifndef ST2TXT
ST2TXT = NOTYET
endif
ifndef GOFUC
GOFUC = $B798
endif
ifndef CHKSTR
CHKSTR = NOTYET
endif
ifndef FOUTC
FOUTC = NOTYET
endif
ifndef BLTUC
BLTUC = NOTYET
endif
ifndef EVAL
EVAL = NOTYET
endif
ifndef TSTOP
TSTOP = NOTYET
endif
ifndef CONINT
CONINT = NOTYET
endif
ifndef CHKCOM
CHKCOM = NOTYET
endif
ifndef CHKCLS
CHKCLS = NOTYET
endif
ifndef SNGFLT
SNGFLT = NOTYET
endif
ifndef FCERR
FCERR = NOTYET
endif
ifndef ZEROFC
ZEROFC = NOTYET
endif
ifndef POLYX
POLYX = NOTYET
endif
ifndef NEGOP
NEGOP = NOTYET
endif
ifndef STROUT
STROUT = NOTYET
endif
ifndef INTXT
INTXT = NOTYET
endif
ifndef MOVEF
MOVEF = NOTYET
endif
ifndef MOVFA1
MOVFA1 = NOTYET
endif
ifndef MOV1F
MOV1F = NOTYET
endif
ifndef MOV2F
MOV2F = NOTYET
endif
ifndef FHALF
FHALF = NOTYET
endif
ifndef ZEROF1
ZEROF1 = NOTYET
endif
ifndef INT
INT = NOTYET
endif
ifndef FADDH
FADDH = NOTYET
endif
ifndef FSUB
FSUB = NOTYET
endif
ifndef FSUBT
FSUBT = NOTYET
endif
ifndef FMULT
FMULT = NOTYET
endif
ifndef FDIV
FDIV = NOTYET
endif
ifndef FDIVF
FDIVF = NOTYET
endif
ifndef INCRND
INCRND = NOTYET
endif
ifndef MLDEXP
MLDEXP = NOTYET
endif
ifndef MLDVEX
MLDVEX = NOTYET
endif
ifndef NORMAL
NORMAL = NOTYET
endif
ifndef FOUT
FOUT = NOTYET
endif
ifndef GTBYTC
GTBYTC = NOTYET
endif
ifndef ERRDIR
ERRDIR = NOTYET
endif
ifndef STRTXT
STRTXT = NOTYET
endif
ifndef INLIN
INLIN = NOTYET
endif
ifndef STRLT2
STRLT2 = NOTYET
endif
ifndef INPCOM
INPCOM = NOTYET
endif
ifndef QINTGR
QINTGR = NOTYET
endif
ifndef DATAN
DATAN = NOTYET
endif
ifndef ADDON
ADDON = NOTYET
endif
ifndef RESFIN
RESFIN = NOTYET
endif
ifndef GETADR
GETADR = NOTYET
endif
ifndef LNKPRG
LNKPRG = NOTYET
endif
ifndef READY
READY = NOTYET
endif
ifndef STXTPT
STXTPT = NOTYET
endif
ifndef FLOAD
FLOAD = NOTYET
endif
ifndef FRESTR
FRESTR = NOTYET
endif
ifndef ST_END
ST_END = NOTYET
endif
ifndef ST_FOR
ST_FOR = NOTYET
endif
ifndef ST_NEXT
ST_NEXT = NOTYET
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
ifndef NOTOP
NOTOP = NOTYET
endif
ifndef DOREL
DOREL = NOTYET
endif
ifndef OUTQST
OUTQST = NOTYET
endif
ifndef INPRT
INPRT = NOTYET
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
