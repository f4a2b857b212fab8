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

; io.asm's calls into the others' files.
ifndef GETBYT
GETBYT = NOTYET
endif
ifndef CHKCOM
CHKCOM = NOTYET
endif
ifndef FRMEVL
FRMEVL = NOTYET
endif
ifndef FOUT
FOUT = NOTYET
endif
ifndef STRLIT
STRLIT = NOTYET
endif
ifndef FREFAC
FREFAC = NOTYET
endif
ifndef SNERR
SNERR = NOTYET
endif
ifndef GTBYTC
GTBYTC = NOTYET
endif
ifndef ERRDIR
ERRDIR = NOTYET
endif
ifndef ERROR
ERROR = NOTYET
endif
ifndef STRTXT
STRTXT = NOTYET
endif
ifndef SYNCHR
SYNCHR = NOTYET
endif
ifndef ST_DATA
ST_DATA = NOTYET
endif
ifndef INLIN
INLIN = NOTYET
endif
ifndef PTRGET
PTRGET = NOTYET
endif
ifndef STRLT2
STRLT2 = NOTYET
endif
ifndef ST2TXT
ST2TXT = NOTYET
endif
ifndef INPCOM
INPCOM = NOTYET
endif
ifndef FIN
FIN = NOTYET
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
ifndef CLEARC
CLEARC = NOTYET
endif
ifndef FRMNUM
FRMNUM = NOTYET
endif
ifndef GETADR
GETADR = NOTYET
endif
ifndef RUNC
RUNC = NOTYET
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
