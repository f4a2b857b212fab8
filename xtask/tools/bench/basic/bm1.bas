100 print "s"
300 for k=1 to 1000
400 next k
700 print "e"
