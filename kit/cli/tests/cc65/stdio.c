/* stdio: lines typed on the keyboard through fgets and scanf, answers through printf. */
#include <stdio.h>
#include <string.h>

int main (void)
{
    char line[40];
    int a, b;

    printf ("Name? ");
    if (fgets (line, sizeof line, stdin) == NULL) {
        return 1;
    }
    line[strcspn (line, "\n")] = '\0';
    printf ("Hello, %s!\n", line);
    printf ("Two numbers? ");
    if (scanf ("%d %d", &a, &b) != 2) {
        return 2;
    }
    printf ("%d*%d=%d\n", a, b, a * b);
    return 0;
}
