/* lib.c: a small library of ours, tested on the C64 by units.c. */
#include <string.h>
#include "lib.h"

/* The greatest common divisor, by Euclid's algorithm. */
unsigned int gcd (unsigned int a, unsigned int b)
{
    unsigned int t;
    while (b != 0) {
        t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* How many decimal digits n has (0 has one). */
unsigned char digits (unsigned int n)
{
    unsigned char count = 1;
    while (n >= 10) {
        n /= 10;
        ++count;
    }
    return count;
}

/* Reverses s in place. */
void reverse (char *s)
{
    char t;
    unsigned char i = 0;
    unsigned char j = strlen (s);
    while (j > i + 1) {
        --j;
        t = s[i];
        s[i] = s[j];
        s[j] = t;
        ++i;
    }
}
