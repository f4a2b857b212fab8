/* TGI (c64-hi, linked in): a line corner to corner, a filled bar and one pixel, in white on
** black; then it stops in a loop of its own (JMP *) with the picture on show. The test
** checks the pixels in a screenshot.
*/
#include <tgi.h>

int main (void)
{
    tgi_install (tgi_static_stddrv);
    if (tgi_geterror () != TGI_ERR_OK) {
        return 1;
    }
    tgi_init ();
    tgi_clear ();
    tgi_setcolor (1);
    tgi_line (0, 0, 319, 199);
    tgi_bar (100, 50, 149, 99);
    tgi_setpixel (300, 10);
    if (tgi_getpixel (300, 10) != 1 || tgi_getpixel (301, 10) != 0) {
        return 2;
    }
    for (;;) {
    }
}
