; c64kit BASIC V2: strings: temporaries, STRLIT, string space and garbage collection, concatenation and comparison, LEN STR$ VAL CHR$ ASC LEFT$ RIGHT$ MID$. Owner: strings.
