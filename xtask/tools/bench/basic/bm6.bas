100 print "s"
200 k=0
250 dim m(5)
300 k=k+1
400 a=k/2*3+4-5
450 gosub 820
460 for l=1 to 5
480 next l
500 if k<1000 then 300
700 print "e"
800 end
820 return
