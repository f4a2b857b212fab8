100 print "s"
200 k=0
300 k=k+1
400 a=k/k*k+k-k
500 if k<1000 then 300
700 print "e"
