; c64kit BASIC V2: what BASIC uses of the KERNAL: the jump table and the documented KERNAL
; RAM (BASIC reaches the KERNAL only through these, so a real KERNAL works the same).

; The jump table.
CINT    = $FF81
IOINIT  = $FF84
RAMTAS  = $FF87
RESTOR  = $FF8A
VECTOR  = $FF8D
SETMSG  = $FF90
SECOND  = $FF93
TKSA    = $FF96
MEMTOP  = $FF99
MEMBOT  = $FF9C
SCNKEY  = $FF9F
SETTMO  = $FFA2
ACPTR   = $FFA5
CIOUT   = $FFA8
UNTLK   = $FFAB
UNLSN   = $FFAE
LISTEN  = $FFB1
TALK    = $FFB4
READST  = $FFB7
SETLFS  = $FFBA
SETNAM  = $FFBD
OPEN    = $FFC0
CLOSE   = $FFC3
CHKIN   = $FFC6
CHKOUT  = $FFC9
CLRCHN  = $FFCC
CHRIN   = $FFCF
CHROUT  = $FFD2
LOAD    = $FFD5
SAVE    = $FFD8
SETTIM  = $FFDB
RDTIM   = $FFDE
STOP    = $FFE1
GETIN   = $FFE4
CLALL   = $FFE7
UDTIM   = $FFEA
SCREEN  = $FFED
PLOT    = $FFF0
IOBASE  = $FFF3

; KERNAL RAM BASIC reads or writes.
STATUS  = $90   ; ST
STKEY   = $91   ; STOP key flag
VERCKK  = $93   ; the KERNAL's LOAD/VERIFY flag
LDTND   = $98   ; number of open files
DFLTN   = $99   ; default input device
DFLTO   = $9A   ; default output device
MSGFLG  = $9D   ; KERNAL message control ($80 direct mode, $00 running)
TIME    = $A0   ; the jiffy clock ($A0-$A2, high byte first)
FNLEN   = $B7   ; file name length
LA      = $B8   ; logical file number
SA      = $B9   ; secondary address
FA      = $BA   ; device number
FNADR   = $BB   ; file name pointer (2 bytes)
TXTEND  = $AE   ; end address after LOAD (EAL, 2 bytes)
PNTR    = $D3   ; cursor column (POS)
QTSW    = $D4   ; editor quote mode
INSRT   = $D8   ; editor insert count
MEMSTR  = $0281 ; bottom of memory (2 bytes)
MEMHI   = $0283 ; top of memory (2 bytes)
