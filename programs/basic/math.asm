; c64kit BASIC V2: POLY, SQR, the power operator, EXP, LOG, SIN COS TAN ATN, RND. Owner: math.
