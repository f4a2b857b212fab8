/* The joystick driver (c64-stdjoy, linked in): each new direction of joystick 2 printed,
** until its fire button.
*/
#include <joystick.h>
#include <stdio.h>

int main (void)
{
    unsigned char j, last = 0;

    if (joy_install (joy_static_stddrv) != JOY_ERR_OK) {
        return 1;
    }
    for (;;) {
        j = joy_read (JOY_2);
        if (j == last) {
            continue;
        }
        last = j;
        if (JOY_UP (j)) {
            printf ("up\n");
        }
        if (JOY_DOWN (j)) {
            printf ("down\n");
        }
        if (JOY_LEFT (j)) {
            printf ("left\n");
        }
        if (JOY_RIGHT (j)) {
            printf ("right\n");
        }
        if (JOY_BTN_1 (j)) {
            printf ("fire\n");
            break;
        }
    }
    joy_uninstall ();
    return 0;
}
