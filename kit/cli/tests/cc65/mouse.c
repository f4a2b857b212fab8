/* The mouse driver (c64-1351, linked in): where the pointer starts, and where it is when
** the left button is pressed.
*/
#include <mouse.h>
#include <stdio.h>

int main (void)
{
    struct mouse_info info;

    if (mouse_install (&mouse_def_callbacks, mouse_static_stddrv) != MOUSE_ERR_OK) {
        return 1;
    }
    mouse_info (&info);
    printf ("start %d %d\n", info.pos.x, info.pos.y);
    do {
        mouse_info (&info);
    } while ((info.buttons & MOUSE_BTN_LEFT) == 0);
    printf ("left %d %d\n", info.pos.x, info.pos.y);
    mouse_uninstall ();
    return 0;
}
