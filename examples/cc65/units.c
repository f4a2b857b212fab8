/* units.c: unit tests of lib.c, run on the C64 itself. A test that fails prints its name;
** main returns how many failed, the exit status c64kit test reads (a cc65 program's return
** value is ST, $90, when it returns to BASIC).
*/
#include <stdio.h>
#include <string.h>
#include "lib.h"

static unsigned char run, failed;

static void check (unsigned char ok, const char *name)
{
    ++run;
    if (!ok) {
        ++failed;
        printf ("fail: %s\n", name);
    }
}

int main (void)
{
    char text[8];

    check (gcd (12, 18) == 6, "gcd 12 18");
    check (gcd (17, 5) == 1, "gcd 17 5");
    check (gcd (0, 9) == 9, "gcd 0 9");
    check (digits (0) == 1, "digits 0");
    check (digits (65535u) == 5, "digits 65535");
    strcpy (text, "c64kit");
    reverse (text);
    check (strcmp (text, "tik46c") == 0, "reverse c64kit");
    strcpy (text, "");
    reverse (text);
    check (text[0] == 0, "reverse empty");
    printf ("%u tests, %u failed\n", run, failed);
    return failed;
}
