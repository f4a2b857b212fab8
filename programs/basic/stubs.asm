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

; strings.asm calls these.
ifndef CHKNUM
CHKNUM = NOTYET
endif
ifndef CHKSTR
CHKSTR = NOTYET
endif
ifndef FOUTC
FOUTC = NOTYET
endif
ifndef ERROR
ERROR = NOTYET
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
ifndef GETBYT
GETBYT = NOTYET
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
ifndef FIN
FIN = NOTYET
endif
