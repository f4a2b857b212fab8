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

; expr.asm calls these (Commodore's conventions; owners: main, exec, float, strings, tables).
ifndef ERROR
ERROR = NOTYET
endif
ifndef OMERR
OMERR = NOTYET
endif
ifndef GETSTK
GETSTK = NOTYET
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
ifndef MOVFM
MOVFM = NOTYET
endif
ifndef MOVMF
MOVMF = NOTYET
endif
ifndef MOVVF
MOVVF = NOTYET
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
; ASC's JMP FCERR in strings.asm (Commodore's $B798), where CONINT and GETADR branch: a
; fixed address, as a branch cannot reach NOTYET (the filler there jams until ASC exists).
ifndef GOFUC
GOFUC = $B798
endif
