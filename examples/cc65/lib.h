/* lib.h: a small library of ours, tested on the C64 by units.c. */
unsigned int gcd (unsigned int a, unsigned int b);
unsigned char digits (unsigned int n);
void reverse (char *s);
