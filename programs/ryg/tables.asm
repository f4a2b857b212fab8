; ============================================================================
; tables.asm: constant data and strings. Strings are written in lower case: the
; assembler turns a-z into PETSCII $41-$5A, which the C64 shows as capitals.
; ============================================================================

STARTPOS byte 59,0,2,4,6        ; the mouse, cats 0..3 (F1)
MSTEP    byte -9,-7,9,7         ; the mouse's steps, in this order (ryg1.md)
CSTEP    byte 7,9               ; a cat's steps, in this order
ROWBONUS byte 32,6,5,4,3,2,1,0  ; by the mouse's row 0..7 (F7)
MOBPEN   byte -32,-8,-4,-2,0    ; by the number of mouse steps 0..4 (ryg1.md)
SPREADPEN byte -16,-8           ; by the cats' row spread 0, 1 (F7, v16)
HEXDIGITS text "0123456789abcdef"

; USABLE[b]: 1 if b is one of the 32 usable offsets ((row + column) even), else 0;
; 256 entries so that steps off the board (wrapped to >= 64) read 0
USABLE
         repeat 0, 255, sqidx
         byte ((sqidx < 64) * ((((sqidx >> 3) + sqidx) & 1) = 0))
         endrepeat

s_title  null "raton y gatos v"
s_base   null " (arbol $"
s_depth  text "profundidad (1-"
         byte K_0+MAXDEPTH
         null ")? "
s_header byte K_SPACE,K_SPACE
         text "01234567"
         byte CR,0
s_level  null "jugada: "
s_mouse  null "raton? "
s_invalid text "jugada no valida"
         byte CR,0
s_gato   null "gato "
s_think  null "pensando:"
s_mouse_win text "*** gana el raton ***"
         byte CR,0
s_cats_win text "*** ganan los gatos ***"
         byte CR,0
s_again  null "otra (s/n)? "
s_nomem  null "no hay memoria para profundidad "

; the program must end below the work arrays
  if * > WORK
         byte 256               ; error: the program runs into WORK
  endif
