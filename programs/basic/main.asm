; c64kit BASIC V2: cold and warm start, READY, the main loop, entering and tokenizing lines,
; the program's memory (LNKPRG, FNDLIN, NEW, CLR), errors.
; Owner: the interpreter core.

*=$E394
COLDST  jmp COLDST              ; not yet written: the core's first task
WARMST  jmp WARMST
