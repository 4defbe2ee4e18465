/* The CPU features and tiers of cpu.c beyond the public tabai_cpu_* functions of tabai.h.
 * Ground floor: includes only the public header. */
#ifndef TABAI_CPU_CPU_H
#define TABAI_CPU_CPU_H

#include "tabai.h"

/* Test hook (tests/ctime, not exported): use `features` (TABAI_CPU_* bits) as the detected
 * features from now on and recompute the tier in use. Only for a CPU or emulator that runs
 * those instructions (valgrind executes BMI2/ADX but hides ADX in CPUID). */
void tabai_cpu_force_native_for_testing(unsigned features);

/* 1 if the CPU runs a 512-bit vector operation as two 256-bit halves (AMD family 19h: Zen 4;
 * Zen 3 has no AVX-512), so that a ymm kernel does the work of a zmm one at the same rate
 * with fewer padded digits; 0 otherwise (Intel's full-width AVX-512 units). From CPUID
 * (vendor and family), read once. */
int tabai_cpu_zmm_halves(void);

#endif
