/* The CPU features and tiers of cpu.c beyond the public tabai_cpu_* functions of tabai.h.
 * Ground floor: includes only the public header. */
#ifndef TABAI_CPU_CPU_H
#define TABAI_CPU_CPU_H

#include "tabai.h"

/* Test hook (tests/ctime, not exported): use `features` (TABAI_CPU_* bits) as the detected
 * features from now on and recompute the tier in use. Only for a CPU or emulator that runs
 * those instructions (valgrind executes BMI2/ADX but hides ADX in CPUID). */
void tabai_cpu_force_native_for_testing(unsigned features);

#endif
