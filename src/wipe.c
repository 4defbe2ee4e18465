/* Wiping secrets: tabai_wipe (tabai.h) and tabai_wipe_free (internal.h). The ground floor:
 * every folder may call them. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void tabai_wipe(void *p, size_t len) {
    /* memset at full width, then a barrier that tells the compiler the zeros are read
     * through p: the stores cannot be dropped as dead (a byte-wise volatile loop took one
     * cycle a byte: 60 KB a 2048-bit RSA operation) */
    if (len) memset(p, 0, len);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

void tabai_wipe_free(void *p, size_t len) {
    if (!p) return;
    tabai_wipe(p, len);
    free(p);
}
