100 print "s"
200 k=0
300 k=k+1
400 a=k/2*3+4-5
450 gosub 820
500 if k<1000 then 300
700 print "e"
800 end
820 return
