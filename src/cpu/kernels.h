/* The kernel tables: one per tier, each built from the tier below plus that tier's lines of
 * the kernel registry (src/cpu/registry.def). Adding a kernel = one source file (or generator
 * entry), one prototype, one line in the registry.
 *
 * Slots indexed by limb count: index k (1..TABAI_FIXED_MAX) is a kernel for exactly k limbs
 * (it ignores its n argument), index 0 is the kernel for any n. Every slot is always filled
 * (tables.c fills specialised slots from slot 0 when a tier has nothing better).
 */
#ifndef TABAI_CPU_KERNELS_H
#define TABAI_CPU_KERNELS_H

#include "ktypes.h"

typedef struct tabai_kernels {
    tabai_tier tier;
    const char *name;     /* tier name: the `kernel` label in the benchmark */
    tabai_addsub_n_fn add_n;
    tabai_addsub_n_fn sub_n;
    tabai_mul_1_fn mul_1;    /* r[n] = a[n]*b, returns high limb */
    tabai_mul_1_fn addmul_1; /* r[n] += a[n]*b, returns high limb */
    tabai_mul_n_fn mul[TABAI_FIXED_MAX + 1];          /* r[2n] = a[n]*b[n] */
    tabai_sqr_n_fn sqr[TABAI_FIXED_MAX + 1];          /* r[2n] = a[n]^2 */
    tabai_mont_mul_fn mont_mul[TABAI_FIXED_MAX + 1];  /* r = a*b/R mod p */
    tabai_mont_sqr_fn mont_sqr[TABAI_FIXED_MAX + 1];  /* r = a^2/R mod p */
    tabai_mod_addsub_fn mod_add[TABAI_FIXED_MAX + 1]; /* r = a+b mod p */
    tabai_mod_addsub_fn mod_sub[TABAI_FIXED_MAX + 1]; /* r = a-b mod p */
    /* symbol names (without the tabai_ prefix) of slot kernels, for the benchmark */
    const char *mul_sym[TABAI_FIXED_MAX + 1];
    const char *sqr_sym[TABAI_FIXED_MAX + 1];
    const char *mont_mul_sym[TABAI_FIXED_MAX + 1];
    const char *mont_sqr_sym[TABAI_FIXED_MAX + 1];
} tabai_kernels;

/* The table of the tier in use (native capped by TABAI_CPU / tabai_cpu_set_tier). */
const tabai_kernels *tabai_kernels_active(void);
/* The table of tier t, or NULL if t is above the native tier. */
const tabai_kernels *tabai_kernels_for_tier(tabai_tier t);
/* Test hook (tests/ctime, not exported): use `features` (TABAI_CPU_* bits) as the detected
 * features from now on and recompute the tier in use. Only for a CPU or emulator that runs
 * those instructions (valgrind executes BMI2/ADX but hides ADX in CPUID). */
void tabai_cpu_force_native_for_testing(unsigned features);

static inline size_t tabai_slot(size_t n) { return n <= TABAI_FIXED_MAX ? n : 0; }

/* ---- generic tier (src/limb/) ---- */
uint64_t tabai_add_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
uint64_t tabai_sub_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
uint64_t tabai_mul_1_n_generic(uint64_t *r, const uint64_t *a, size_t n, uint64_t b);
uint64_t tabai_addmul_1_n_generic(uint64_t *r, const uint64_t *a, size_t n, uint64_t b);
void tabai_mul_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_sqr_n_generic(uint64_t *r, const uint64_t *a, size_t n);
void tabai_mont_mul_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                              uint64_t pinv, size_t n);
void tabai_mont_sqr_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv,
                              size_t n);
void tabai_mod_add_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             size_t n);
void tabai_mod_sub_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             size_t n);

/* ---- bmi2 tier (src/x64/: generated mulx/adox/adcx assembly) ---- */
#include "../x64/x64.h"

#endif
