; tables.asm - constant data of the RYG3 engine (versions 09/10/11).
; Generated from ryg3-tables.toml by tools/gen_tables.py; square order a1..h1, a2..h2, ..., a8..h8.
; Copied into page-aligned RAM at start-up (see main.asm, init).

; ---- position keys (toml [hash.*]); one 64-byte table per piece code 0..4
; hash_mouse
D_HASH_M     byte $24,$07,$40,$02,$2C,$FC,$82,$75
             byte $D2,$B1,$C6,$7D,$38,$80,$5D,$33
             byte $6F,$BE,$AD,$7D,$B7,$78,$20,$4E
             byte $B1,$BD,$66,$5C,$DD,$E6,$1C,$0E
             byte $22,$03,$E5,$C6,$12,$EC,$8F,$89
             byte $32,$B9,$C1,$9B,$F1,$58,$48,$4F
             byte $44,$9B,$F0,$2C,$15,$78,$4F,$92
             byte $2C,$15,$54,$4A,$3C,$A7,$E5,$2D
; hash_cat1
D_HASH_C1    byte $B7,$07,$46,$AA,$1C,$88,$70,$A6
             byte $8C,$BF,$B6,$11,$5D,$82,$4F,$28
             byte $86,$A0,$D4,$06,$45,$FF,$B8,$E2
             byte $2E,$7C,$C0,$EC,$02,$3A,$1A,$2C
             byte $6F,$1B,$1A,$B3,$1D,$FD,$55,$96
             byte $65,$E8,$AF,$B2,$F5,$B4,$7B,$9A
             byte $34,$91,$88,$12,$EE,$B6,$C2,$0C
             byte $28,$6A,$B2,$54,$33,$4D,$68,$CB
; hash_cat2
D_HASH_C2    byte $BA,$C2,$B6,$2A,$0E,$78,$CA,$BB
             byte $F8,$44,$8A,$E8,$BD,$6B,$87,$1F
             byte $D0,$C1,$DE,$25,$CF,$10,$AB,$15
             byte $4D,$D3,$AA,$53,$D8,$AA,$B8,$B2
             byte $E1,$22,$E8,$BA,$D5,$34,$B5,$F9
             byte $C1,$3F,$45,$98,$93,$66,$9F,$A9
             byte $77,$DA,$69,$59,$B8,$64,$1F,$7D
             byte $A0,$12,$2E,$48,$0D,$8B,$99,$92
; hash_cat3
D_HASH_C3    byte $B8,$E2,$16,$CD,$86,$36,$6A,$AD
             byte $CC,$A4,$57,$54,$85,$6C,$6A,$69
             byte $A8,$2E,$D0,$74,$63,$FC,$0F,$E0
             byte $BC,$E3,$7B,$9B,$E9,$F6,$64,$52
             byte $10,$BC,$09,$67,$EB,$1C,$1A,$E3
             byte $B1,$78,$A2,$14,$3D,$DE,$FC,$10
             byte $1A,$2C,$36,$E9,$98,$58,$B3,$D0
             byte $1A,$50,$1C,$16,$27,$5B,$FD,$97
; hash_cat4
D_HASH_C4    byte $20,$E9,$19,$92,$53,$3D,$8D,$DF
             byte $25,$C6,$42,$60,$01,$EC,$9F,$F9
             byte $9A,$53,$28,$CA,$D9,$34,$61,$91
             byte $1C,$F4,$5F,$86,$63,$40,$A0,$B9
             byte $70,$92,$6F,$A5,$CF,$07,$22,$39
             byte $2E,$9D,$3F,$2D,$1B,$F8,$F9,$95
             byte $AB,$E3,$F9,$87,$A7,$EE,$05,$C8
             byte $DE,$3B,$56,$75,$7D,$DF,$10,$F8
; lock_mouse: the only difference between the v09 and v10/v11 data is entry 15 (h2)
D_LOCK_M     byte $74,$43,$B7,$35,$BC,$66,$BD,$AB
             byte $2A,$B0,$2F,$F7,$E9,$93,$E9
  if VERSION = 9
             byte $5C
  else
             byte $49
  endif
D_LOCK_M16   byte $F5,$AF,$D4,$8C,$61,$3C,$C3,$F0
             byte $94,$0D,$28,$07,$73,$5B,$5B,$A6
             byte $8D,$94,$35,$19,$38,$28,$70,$DE
             byte $06,$E4,$39,$E8,$90,$BD,$45,$9D
             byte $6F,$B7,$EB,$E2,$65,$77,$6C,$4D
             byte $74,$DE,$4E,$4F,$28,$C1,$41,$30
; lock_cat1
D_LOCK_C1    byte $3B,$5F,$4C,$3E,$17,$D5,$11,$C5
             byte $97,$01,$3B,$BE,$E7,$B1,$5F,$2F
             byte $40,$6B,$C9,$D5,$22,$0D,$0C,$AB
             byte $C8,$EE,$89,$E2,$AC,$D5,$62,$13
             byte $0D,$52,$D2,$87,$55,$83,$3C,$DD
             byte $45,$87,$80,$15,$20,$0D,$EE,$9F
             byte $D1,$70,$6D,$45,$9F,$9A,$73,$51
             byte $5E,$7D,$9D,$34,$C4,$E4,$25,$2F
; lock_cat2
D_LOCK_C2    byte $9D,$5E,$4D,$FF,$A2,$0C,$8D,$1B
             byte $B2,$1D,$57,$EC,$F6,$D9,$49,$09
             byte $DD,$B0,$56,$13,$7E,$96,$93,$BD
             byte $14,$6A,$07,$41,$87,$10,$A4,$FE
             byte $CC,$81,$A0,$94,$33,$8E,$B0,$3F
             byte $68,$20,$D3,$74,$97,$E1,$EF,$B1
             byte $76,$CA,$78,$B0,$01,$CF,$1D,$41
             byte $22,$4B,$E7,$74,$4A,$73,$56,$C7
; lock_cat3
D_LOCK_C3    byte $56,$44,$72,$5E,$36,$F7,$B5,$06
             byte $07,$9B,$60,$32,$41,$5D,$42,$30
             byte $E3,$EB,$66,$AF,$0E,$B9,$09,$B9
             byte $48,$78,$78,$0D,$3E,$42,$67,$E1
             byte $24,$C6,$7F,$C9,$7D,$38,$25,$78
             byte $14,$F5,$9E,$27,$65,$35,$39,$11
             byte $E3,$C8,$65,$7A,$EE,$D2,$1F,$42
             byte $6A,$78,$43,$E4,$C8,$BF,$7B,$C2
; lock_cat4
D_LOCK_C4    byte $A1,$90,$36,$D7,$56,$CF,$1B,$99
             byte $1A,$80,$C0,$E7,$66,$3E,$81,$71
             byte $AA,$EC,$C0,$D9,$9A,$A0,$4E,$65
             byte $97,$9D,$1D,$9B,$36,$83,$61,$CD
             byte $B6,$AD,$0C,$D6,$33,$69,$59,$3C
             byte $92,$CD,$AB,$59,$6A,$4F,$38,$38
             byte $F6,$A5,$35,$E4,$F4,$2E,$E9,$CD
             byte $12,$8F,$FA,$6C,$60,$E3,$B3,$91

; ---- evaluation square tables (toml [eval]); cats are subtracted
; mouse (rank index)
D_EVAL_M     byte $00,$00,$00,$00,$00,$00,$00,$00
             byte $01,$01,$01,$01,$01,$01,$01,$01
             byte $02,$02,$02,$02,$02,$02,$02,$02
             byte $03,$03,$03,$03,$03,$03,$03,$03
             byte $04,$04,$04,$04,$04,$04,$04,$04
             byte $05,$05,$05,$05,$05,$05,$05,$05
             byte $06,$06,$06,$06,$06,$06,$06,$06
             byte $07,$07,$07,$07,$07,$07,$07,$07
; cat1 (files a/b)
D_EVAL_C1    byte $00,$00,$00,$00,$00,$00,$00,$00
             byte $00,$07,$00,$00,$00,$00,$00,$00
             byte $0D,$00,$00,$00,$00,$00,$00,$00
             byte $00,$12,$00,$00,$00,$00,$00,$00
             byte $16,$00,$00,$00,$00,$00,$00,$00
             byte $00,$19,$00,$00,$00,$00,$00,$00
             byte $1B,$00,$00,$00,$00,$00,$00,$00
             byte $00,$1C,$00,$00,$00,$00,$00,$00
; cat2 (files c/d)
D_EVAL_C2    byte $00,$00,$00,$00,$00,$00,$00,$00
             byte $00,$00,$00,$07,$00,$00,$00,$00
             byte $00,$00,$0D,$00,$00,$00,$00,$00
             byte $00,$00,$00,$12,$00,$00,$00,$00
             byte $00,$00,$16,$00,$00,$00,$00,$00
             byte $00,$00,$00,$19,$00,$00,$00,$00
             byte $00,$00,$1B,$00,$00,$00,$00,$00
             byte $00,$00,$00,$1C,$00,$00,$00,$00
; cat3 (files e/f)
D_EVAL_C3    byte $00,$00,$00,$00,$00,$00,$00,$00
             byte $00,$00,$00,$00,$00,$07,$00,$00
             byte $00,$00,$00,$00,$0D,$00,$00,$00
             byte $00,$00,$00,$00,$00,$12,$00,$00
             byte $00,$00,$00,$00,$16,$00,$00,$00
             byte $00,$00,$00,$00,$00,$19,$00,$00
             byte $00,$00,$00,$00,$1B,$00,$00,$00
             byte $00,$00,$00,$00,$00,$1C,$00,$00
; cat4 (files g/h)
D_EVAL_C4    byte $00,$00,$00,$00,$00,$00,$00,$00
             byte $00,$00,$00,$00,$00,$00,$00,$07
             byte $00,$00,$00,$00,$00,$00,$0D,$00
             byte $00,$00,$00,$00,$00,$00,$00,$12
             byte $00,$00,$00,$00,$00,$00,$16,$00
             byte $00,$00,$00,$00,$00,$00,$00,$19
             byte $00,$00,$00,$00,$00,$00,$1B,$00
             byte $00,$00,$00,$00,$00,$00,$00,$1C

; ---- initial board, column and row tables (toml [board], [geometry]); copied into the flat area
; initial board: 0 mouse, 1..4 cats, 6 empty
D_INITB      byte $06,$06,$06,$06,$00,$06,$06,$06
             byte $06,$06,$06,$06,$06,$06,$06,$06
             byte $06,$06,$06,$06,$06,$06,$06,$06
             byte $06,$06,$06,$06,$06,$06,$06,$06
             byte $06,$06,$06,$06,$06,$06,$06,$06
             byte $06,$06,$06,$06,$06,$06,$06,$06
             byte $06,$06,$06,$06,$06,$06,$06,$06
             byte $06,$01,$06,$02,$06,$03,$06,$04
; column (file index) of each square
D_COL        byte $00,$01,$02,$03,$04,$05,$06,$07
             byte $00,$01,$02,$03,$04,$05,$06,$07
             byte $00,$01,$02,$03,$04,$05,$06,$07
             byte $00,$01,$02,$03,$04,$05,$06,$07
             byte $00,$01,$02,$03,$04,$05,$06,$07
             byte $00,$01,$02,$03,$04,$05,$06,$07
             byte $00,$01,$02,$03,$04,$05,$06,$07
             byte $00,$01,$02,$03,$04,$05,$06,$07
; row (rank index) of each square
D_ROW        byte $00,$00,$00,$00,$00,$00,$00,$00
             byte $01,$01,$01,$01,$01,$01,$01,$01
             byte $02,$02,$02,$02,$02,$02,$02,$02
             byte $03,$03,$03,$03,$03,$03,$03,$03
             byte $04,$04,$04,$04,$04,$04,$04,$04
             byte $05,$05,$05,$05,$05,$05,$05,$05
             byte $06,$06,$06,$06,$06,$06,$06,$06
             byte $07,$07,$07,$07,$07,$07,$07,$07

; ---- neighbour tables (toml [geometry].mouse_moves / cat_moves); 255 = off the board
; SW neighbour (cats use SW and SE only)
NB_SW        byte $FF,$FF,$FF,$FF,$FF,$FF,$FF,$FF
             byte $FF,$00,$01,$02,$03,$04,$05,$06
             byte $FF,$08,$09,$0A,$0B,$0C,$0D,$0E
             byte $FF,$10,$11,$12,$13,$14,$15,$16
             byte $FF,$18,$19,$1A,$1B,$1C,$1D,$1E
             byte $FF,$20,$21,$22,$23,$24,$25,$26
             byte $FF,$28,$29,$2A,$2B,$2C,$2D,$2E
             byte $FF,$30,$31,$32,$33,$34,$35,$36
; SE neighbour (cats use SW and SE only)
NB_SE        byte $FF,$FF,$FF,$FF,$FF,$FF,$FF,$FF
             byte $01,$02,$03,$04,$05,$06,$07,$FF
             byte $09,$0A,$0B,$0C,$0D,$0E,$0F,$FF
             byte $11,$12,$13,$14,$15,$16,$17,$FF
             byte $19,$1A,$1B,$1C,$1D,$1E,$1F,$FF
             byte $21,$22,$23,$24,$25,$26,$27,$FF
             byte $29,$2A,$2B,$2C,$2D,$2E,$2F,$FF
             byte $31,$32,$33,$34,$35,$36,$37,$FF
; NE neighbour (cats use SW and SE only)
NB_NE        byte $09,$0A,$0B,$0C,$0D,$0E,$0F,$FF
             byte $11,$12,$13,$14,$15,$16,$17,$FF
             byte $19,$1A,$1B,$1C,$1D,$1E,$1F,$FF
             byte $21,$22,$23,$24,$25,$26,$27,$FF
             byte $29,$2A,$2B,$2C,$2D,$2E,$2F,$FF
             byte $31,$32,$33,$34,$35,$36,$37,$FF
             byte $39,$3A,$3B,$3C,$3D,$3E,$3F,$FF
             byte $FF,$FF,$FF,$FF,$FF,$FF,$FF,$FF
; NW neighbour (cats use SW and SE only)
NB_NW        byte $FF,$08,$09,$0A,$0B,$0C,$0D,$0E
             byte $FF,$10,$11,$12,$13,$14,$15,$16
             byte $FF,$18,$19,$1A,$1B,$1C,$1D,$1E
             byte $FF,$20,$21,$22,$23,$24,$25,$26
             byte $FF,$28,$29,$2A,$2B,$2C,$2D,$2E
             byte $FF,$30,$31,$32,$33,$34,$35,$36
             byte $FF,$38,$39,$3A,$3B,$3C,$3D,$3E
             byte $FF,$FF,$FF,$FF,$FF,$FF,$FF,$FF

; ---- character tables
; "ABCDEFGH12345678"
LBYTES       byte $41,$42,$43,$44,$45,$46,$47,$48,$31,$32,$33,$34
             byte $35,$36,$37,$38,$00
; "0123456789ABCDEF"
HEXD         byte $30,$31,$32,$33,$34,$35,$36,$37,$38,$39,$41,$42
             byte $43,$44,$45,$46,$00

; ---- messages (toml [strings]), 0-terminated
; "? "
S_PROMPT     byte $3F,$20,$00
; "GO\r"
S_GO         byte $47,$4F,$0D,$00
; "HELP\r"
S_HELP       byte $48,$45,$4C,$50,$0D,$00
; "NEW GAME\r"
S_NEWGAME    byte $4E,$45,$57,$20,$47,$41,$4D,$45,$0D,$00
; "OFF\r"
S_OFF        byte $4F,$46,$46,$0D,$00
; "QUIT\r"
S_QUIT       byte $51,$55,$49,$54,$0D,$00
; "SET DEPTH\r"
S_SETDEPTH   byte $53,$45,$54,$20,$44,$45,$50,$54,$48,$0D,$00
; "SET TIME\r"
S_SETTIME    byte $53,$45,$54,$20,$54,$49,$4D,$45,$0D,$00
; "SWITCH SIDES\r"
S_SWITCH     byte $53,$57,$49,$54,$43,$48,$20,$53,$49,$44,$45,$53
             byte $0D,$00
; "UNDO\r"
S_UNDO       byte $55,$4E,$44,$4F,$0D,$00
; "ILLEGAL\r"
S_ILLEGAL    byte $49,$4C,$4C,$45,$47,$41,$4C,$0D,$00
; "NO LEGAL MOVES!\r"
S_NOLEGAL    byte $4E,$4F,$20,$4C,$45,$47,$41,$4C,$20,$4D,$4F,$56
             byte $45,$53,$21,$0D,$00
; "COMPUTER'S MOVE:"
S_COMPMOVE   byte $43,$4F,$4D,$50,$55,$54,$45,$52,$27,$53,$20,$4D
             byte $4F,$56,$45,$3A,$00
; "*** MOUSE WINS!! ***\r\r"
S_MOUSEWIN   byte $2A,$2A,$2A,$20,$4D,$4F,$55,$53,$45,$20,$57,$49
             byte $4E,$53,$21,$21,$20,$2A,$2A,$2A,$0D,$0D,$00
; "*** CATS WIN!! ***\r\r"
S_CATSWIN    byte $2A,$2A,$2A,$20,$43,$41,$54,$53,$20,$57,$49,$4E
             byte $21,$21,$20,$2A,$2A,$2A,$0D,$0D,$00
; "  ABCDEFGH\r"
S_LETTERS    byte $20,$20,$41,$42,$43,$44,$45,$46,$47,$48,$0D,$00
; "--MOUSE"
S_MOUSELBL   byte $2D,$2D,$4D,$4F,$55,$53,$45,$00
; "---CATS"
S_CATSLBL    byte $2D,$2D,$2D,$43,$41,$54,$53,$00
; "\r---HIST\r"
S_HISTLBL    byte $0D,$2D,$2D,$2D,$48,$49,$53,$54,$0D,$00
; "S: "
S_SIDE       byte $53,$3A,$20,$00
; ",P:"
S_PLY        byte $2C,$50,$3A,$00
; ",H:"
S_HPLY       byte $2C,$48,$3A,$00
; "#:"
S_HASH       byte $23,$3A,$00
; ",L:"
S_LOCK       byte $2C,$4C,$3A,$00
; ",E:"
S_EVAL       byte $2C,$45,$3A,$00
; "..."
S_DOTS       byte $2E,$2E,$2E,$00

; end of tables.asm
