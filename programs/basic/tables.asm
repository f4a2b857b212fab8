; c64kit BASIC V2: the ROM's start, its tables and messages ($A000 on).
; Owner: the interpreter core.

*=$A000
        word COLDST             ; cold start vector
        word WARMST             ; warm start vector
