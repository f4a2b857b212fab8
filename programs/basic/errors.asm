; c64kit BASIC V2: the error numbers, as Commodore's (X when jumping to ERROR; programs see
; them through the IERROR vector at $0300). The messages are in tables.asm, in this order.

ERR_TOO_MANY_FILES      = 1
ERR_FILE_OPEN           = 2
ERR_FILE_NOT_OPEN       = 3
ERR_FILE_NOT_FOUND      = 4
ERR_DEVICE_NOT_PRESENT  = 5
ERR_NOT_INPUT_FILE      = 6
ERR_NOT_OUTPUT_FILE     = 7
ERR_MISSING_FILE_NAME   = 8
ERR_ILLEGAL_DEVICE      = 9
ERR_NEXT_WITHOUT_FOR    = 10
ERR_SYNTAX              = 11
ERR_RETURN_WITHOUT_GOSUB = 12
ERR_OUT_OF_DATA         = 13
ERR_ILLEGAL_QUANTITY    = 14
ERR_OVERFLOW            = 15
ERR_OUT_OF_MEMORY       = 16
ERR_UNDEFD_STATEMENT    = 17
ERR_BAD_SUBSCRIPT       = 18
ERR_REDIMD_ARRAY        = 19
ERR_DIVISION_BY_ZERO    = 20
ERR_ILLEGAL_DIRECT      = 21
ERR_TYPE_MISMATCH       = 22
ERR_STRING_TOO_LONG     = 23
ERR_FILE_DATA           = 24
ERR_FORMULA_TOO_COMPLEX = 25
ERR_CANT_CONTINUE       = 26
ERR_UNDEFD_FUNCTION     = 27
ERR_VERIFY              = 28
ERR_LOAD                = 29
ERR_BREAK               = 30
