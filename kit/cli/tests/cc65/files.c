/* Files on drive 8: a text file and a binary file written, then read back; a file the
** drive folder already holds ("given") read and printed. Returns 0 when all went well.
*/
#include <stdio.h>
#include <string.h>

static unsigned char bytes[256], back[300];

int main (void)
{
    FILE *f;
    char line[40];
    unsigned i;
    size_t n;

    f = fopen ("notes", "w");
    if (f == NULL) {
        return 1;
    }
    fputs ("Line one\nLine Two\n", f);
    fclose (f);

    f = fopen ("notes", "r");
    if (f == NULL) {
        return 2;
    }
    while (fgets (line, sizeof line, f) != NULL) {
        printf ("read: %s", line);
    }
    fclose (f);

    for (i = 0; i < 256; ++i) {
        bytes[i] = (unsigned char) (255 - i);
    }
    f = fopen ("bytes", "wb");
    if (f == NULL || fwrite (bytes, 1, 256, f) != 256) {
        return 3;
    }
    fclose (f);
    f = fopen ("bytes", "rb");
    if (f == NULL) {
        return 4;
    }
    n = fread (back, 1, sizeof back, f);
    fclose (f);
    printf ("bytes: %u back, %s\n", n, memcmp (bytes, back, 256) == 0 ? "same" : "DIFFERENT");

    f = fopen ("given", "r");
    if (f == NULL) {
        return 5;
    }
    while (fgets (line, sizeof line, f) != NULL) {
        printf ("given: %s", line);
    }
    fclose (f);
    return n == 256 ? 0 : 6;
}
