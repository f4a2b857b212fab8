0 S=0
10 SYS 2064
  
20 REM a line with only a number follows
30
