/* The dispatch: the kernel table of each tier (the type tabai_kernels is in ktypes.h), each
 * built from the tier below plus that tier's lines of the kernel registry
 * (src/cpu/registry.def). Adding a kernel = one source file (or generator entry), one
 * prototype, one line in the registry. */
#ifndef TABAI_CPU_KERNELS_H
#define TABAI_CPU_KERNELS_H

#include "ktypes.h"


/* The table of the tier in use (native capped by TABAI_CPU / tabai_cpu_set_tier). */
const tabai_kernels *tabai_kernels_active(void);
/* The table of tier t, or NULL if t is above the native tier. */
const tabai_kernels *tabai_kernels_for_tier(tabai_tier t);
/* Test hook (tests/ctime, not exported): use `features` (TABAI_CPU_* bits) as the detected
 * features from now on and recompute the tier in use. Only for a CPU or emulator that runs
 * those instructions (valgrind executes BMI2/ADX but hides ADX in CPUID). */
void tabai_cpu_force_native_for_testing(unsigned features);


#endif
