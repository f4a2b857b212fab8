; petcat listing style: lower-case keywords, escapes
10 rem *** {CBM-A}{SHIFT-B} test ***
20 print"{rvon}{wht}{2 down}{$41}{065}"chr$(14);:? ~
30 data 1,2,"a:b",rem
40 if a<>1 then poke 53280,0:sys 49152
50 for i=1to10:next:input a$:get b$
63999 end
