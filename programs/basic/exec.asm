; c64kit BASIC V2: the statement loop (NEWSTT), statement dispatch, control flow: GOTO GOSUB RETURN IF ON FOR NEXT REM DATA END STOP CONT RUN NEW CLR LIST. Owner: the interpreter core.
