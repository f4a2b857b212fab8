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

; Used by float.asm (LOG, FIN, INPRT, the errors).
ifndef ERROR
ERROR = NOTYET
endif
ifndef FCERR
FCERR = NOTYET
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
