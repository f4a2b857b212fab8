10 print "{clr}hello, world"
20 goto 10
