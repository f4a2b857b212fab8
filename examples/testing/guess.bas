10 rem guess.bas: guess a number from 1 to 10 (the number is fixed, so tests can play it)
20 n=7:t=0
30 input "your guess";g
40 t=t+1
50 if g<n then print "too low":goto 30
60 if g>n then print "too high":goto 30
70 print "right in";t;"guesses"
