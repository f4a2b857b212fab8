10 rem hello.bas: BASIC V2 text, as petcat reads it (lower case for the capitals)
20 print "hello from basic"
30 for i=1 to 3
40 print i;"squared is";i*i
50 next i
