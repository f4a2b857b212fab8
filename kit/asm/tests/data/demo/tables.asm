;===============================================================================
; demo project, file 2: text and tables, continuing after main.asm's code
;===============================================================================
message text "hi c64"
        byte 0

squares
        repeat 0, 7, n
sq_n    byte n*n
        endrepeat

lows
        repeat 0, 3, n
        byte <sq_n
        endrepeat

        word start, squares
        incbin "glyph.bin", 1, 3
