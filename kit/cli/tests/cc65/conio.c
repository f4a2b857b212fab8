/* conio: colours, cursor moves, reverse text, lines, formatted output and keys.
** kit/cli/tests/cc65.rs checks the screen it leaves (text and colours).
*/
#include <conio.h>
#include <stdlib.h>

int main (void)
{
    unsigned char i, key;

    bordercolor (COLOR_RED);
    bgcolor (COLOR_BLUE);
    textcolor (COLOR_YELLOW);
    clrscr ();

    gotoxy (2, 1);
    cputs ("gotoxy 2,1");
    cputcxy (30, 1, 'X');

    textcolor (COLOR_GREEN);
    revers (1);
    cputsxy (2, 3, "Reverse");
    revers (0);

    textcolor (COLOR_WHITE);
    gotoxy (2, 5);
    chline (10);
    cvlinexy (1, 6, 3);
    gotoxy (4, 7);
    cprintf ("%d+%d=%d, %s", 12, 30, 12 + 30, "Mixed Case");
    gotoxy (4, 9);
    cprintf ("at %d,%d", wherex (), wherey ());

    /* Keys: each one's PETSCII code, until RETURN. */
    gotoxy (0, 11);
    cputs ("keys:");
    for (i = 0; i < 8; ++i) {
        key = cgetc ();
        if (key == '\n') {
            break;
        }
        cprintf (" %02x", key);
    }
    return i;
}
