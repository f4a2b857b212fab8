100 print "s"
200 k=0
300 k=k+1
400 a=k^2
410 b=log(k)
420 c=sin(k)
500 if k<1000 then 300
700 print "e"
