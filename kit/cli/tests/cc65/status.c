/* The exit status: main's return value, or exit()'s argument when a key other than RETURN
** is typed.
*/
#include <conio.h>
#include <stdlib.h>

int main (void)
{
    if (cgetc () != '\n') {
        exit (42);
    }
    return 3;
}
