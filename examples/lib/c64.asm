; c64.asm: the C64 addresses the examples use, in one place (incasm "c64.asm").

CHROUT   = $FFD2          ; KERNAL: print the character in A
CHRIN    = $FFCF          ; KERNAL: read a character of the typed line
SCREEN   = $0400          ; screen memory: 40x25 screen codes
COLOURS  = $D800          ; colour RAM: one colour per character cell
RASTER   = $D012          ; VIC-II: the raster line being drawn (bits 0-7)
BORDER   = $D020          ; VIC-II: border colour
JOY2     = $DC00          ; CIA 1 port A: joystick 2, a 0 bit is a pressed line
SID      = $D400          ; the SID's registers
