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

ifndef MOVAF
MOVAF = NOTYET
endif

ifndef MOVEF
MOVEF = NOTYET
endif

ifndef MOVFA1
MOVFA1 = NOTYET
endif

ifndef MOVFM
MOVFM = NOTYET
endif

ifndef MOVMF
MOVMF = NOTYET
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

ifndef FCOMP
FCOMP = NOTYET
endif

ifndef SIGN
SIGN = NOTYET
endif

ifndef FADD
FADD = NOTYET
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

ifndef FINLOG
FINLOG = NOTYET
endif

ifndef FCERR
FCERR = NOTYET
endif
