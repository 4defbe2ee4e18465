/* The dispatch: the kernel table of each tier (the type tabai_kernels is in ktypes.h), each
 * built from the tier below plus that tier's lines of the kernel registry
 * (src/dispatch/registry.def). Adding a kernel = one source file (or generator entry), one
 * prototype, one line in the registry. */
#ifndef TABAI_DISPATCH_TABLES_H
#define TABAI_DISPATCH_TABLES_H

#include "../cpu/cpu.h"
#include "../cpu/ktypes.h"

/* The table of the tier in use (native capped by TABAI_CPU / tabai_cpu_set_tier). */
const tabai_kernels *tabai_kernels_active(void);
/* The table of tier t, or NULL if t is above the native tier. */
const tabai_kernels *tabai_kernels_for_tier(tabai_tier t);

#endif
