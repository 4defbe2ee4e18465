/* The multi-buffer kernels (mb.h): the TABAI_REG_MB lines of the kernel registry
 * (src/dispatch/registry.def). The batch API picks the first usable entry marked for it in
 * tabai_mb_kernel_active(); the benchmark and the tests walk the whole list. */
#include <string.h>

#include "../dispatch/tables.h"
#include "mb.h"

const tabai_mb_kernel tabai_mb_kernels[] = {
#define TABAI_REG_MB(label, lanes, w, TIER, features, mul, sqr, scan, source)                      \
    {label, &(#mul)[6], &(#sqr)[6], lanes, w, features, TABAI_TIER_##TIER, mul, sqr, scan},
#include "../dispatch/registry.def"
    {NULL, NULL, NULL, 0, 0, 0, TABAI_TIER_GENERIC, NULL, NULL, NULL},
};

int tabai_mb_kernel_usable(const tabai_mb_kernel *k) {
    return k && (tabai_cpu_features() & k->features) == k->features && tabai_cpu_tier() >= k->tier;
}

const tabai_mb_kernel *tabai_mb_kernel_find(const char *name) {
    for (const tabai_mb_kernel *k = tabai_mb_kernels; k->name; k++)
        if (!strcmp(k->name, name)) return k;
    return NULL;
}

const tabai_mb_kernel *tabai_mb_kernel_active(void) {
    const tabai_mb_kernel *k = &tabai_mb_kernels[0]; /* ifma_zmm */
    return tabai_mb_kernel_usable(k) ? k : NULL;
}
