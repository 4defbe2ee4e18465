/* Kernel types, the ground floor: the function types of the kernels, the record of the
 * kernel registry (src/dispatch/registry.def), and the prototypes of the delayed-carry
 * layer's explicit kernels that the registry names. Includes only the public header, so that
 * every kernel folder may include it without pulling in a layer above it. */
#ifndef TABAI_CPU_KTYPES_H
#define TABAI_CPU_KTYPES_H

#include <stddef.h>
#include <stdint.h>

#include "tabai.h"

#define TABAI_FIXED_MAX 16

/* X-macro over the fixed sizes 1..TABAI_FIXED_MAX. */
#define TABAI_FOR_FIXED(X) \
    X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)

typedef uint64_t (*tabai_addsub_n_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
typedef void (*tabai_mul_n_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
typedef void (*tabai_sqr_n_fn)(uint64_t *r, const uint64_t *a, size_t n);
typedef uint64_t (*tabai_mul_1_fn)(uint64_t *r, const uint64_t *a, size_t n, uint64_t b);
/* r = a*b mod p by Ohta's method with the context's modulus (the carry-save kernels). */
typedef void (*tabai_ohta_mul_fn)(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                  const uint64_t *b);

/* The operation a registry record computes (its entry point has the matching type). */
typedef enum tabai_kop {
    TABAI_KOP_ADD_N,       /* tabai_addsub_n_fn: r[n] = a + b, returns the carry */
    TABAI_KOP_SUB_N,       /* tabai_addsub_n_fn: r[n] = a - b, returns the borrow */
    TABAI_KOP_MUL_1,       /* tabai_mul_1_fn: r[n] = a*b, returns the high limb */
    TABAI_KOP_ADDMUL_1,    /* tabai_mul_1_fn: r[n] += a*b, returns the high limb */
    TABAI_KOP_MUL,         /* tabai_mul_n_fn: r[2n] = a*b */
    TABAI_KOP_SQR,         /* tabai_sqr_n_fn: r[2n] = a^2 */
    TABAI_KOP_MONT_MUL,    /* tabai_mont_mul_fn: r = a*b/R mod p */
    TABAI_KOP_MONT_SQR,    /* tabai_mont_sqr_fn: r = a^2/R mod p */
    TABAI_KOP_MOD_ADD,     /* tabai_mod_addsub_fn: r = a+b mod p */
    TABAI_KOP_MOD_SUB,     /* tabai_mod_addsub_fn: r = a-b mod p */
    TABAI_KOP_OHTA_MUL,    /* tabai_ohta_mul_fn */
    TABAI_KOP_MUL_MB4,     /* four independent r[2n] = a*b per call */
    TABAI_KOP_MB_MONT_MUL, /* tabai_mb_mont_mul_fn (src/cpu/mbtypes.h) */
    TABAI_KOP_MB_MONT_SQR, /* tabai_mb_mont_sqr_fn (src/cpu/mbtypes.h) */
    TABAI_KOP_COUNT
} tabai_kop;

/* The kernel table of one tier (src/dispatch/tables.c). Slots indexed by limb count: index k
 * (1..TABAI_FIXED_MAX) is a kernel for exactly k limbs (it ignores its n argument), index 0
 * the kernel for any n. Every slot is always filled. */
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

static inline size_t tabai_slot(size_t n) { return n <= TABAI_FIXED_MAX ? n : 0; }

/* Any entry point, cast back to the type of its record's op before the call. */
typedef void (*tabai_any_fn)(void);

/* One kernel: one line of src/dispatch/registry.def. */
typedef struct tabai_kernel_rec {
    const char *label;  /* the benchmark's `kernel` label: the tier for table kernels
                           ("generic", "bmi2"), else the kernel's own ("simd29_avx2", "ifma_zmm") */
    const char *symbol; /* the function without tabai_: "mont_mul_n4_bmi2" */
    tabai_kop op;
    unsigned limbs;     /* fixed limb count, 0 for any n */
    unsigned lanes;     /* independent operations per call (multi-buffer), else 1 */
    unsigned radix;     /* digit bits of the kernel's representation (64 for limbs) */
    tabai_tier tier;    /* the lowest tier in use that may run it */
    unsigned features;  /* TABAI_CPU_* bits the CPU must have */
    int id;             /* its tabai_kernel value if tabai_mul_with / tabai_ohta_mul_with take
                           it, else -1 (the dispatch tables take the records with -1) */
    tabai_any_fn fn;
    const char *source; /* where it lives and what it is, for docs/KERNELS.md */
} tabai_kernel_rec;

/* ---- the explicit kernels of the delayed-carry layer (src/delayed/): their records carry a
 * tabai_kernel id (include/tabai_kernels.h). Declared on this floor so that the registry
 * (src/dispatch/registry.c) names them without including the layer above it. ---- */

/* r[2n] = a[n] * b[n] on limbs (src/delayed/mul_n.c): conversion to digits, the digit kernel
 * of src/simd/ or src/fp64/, conversion back; the digit size the largest the column bound
 * allows for n. 1 <= n <= TABAI_MAX_LIMBS; r must not overlap a or b. Constant time. */
void tabai_mul_n_simd29_sse2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_simd29_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_c16_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_fp64_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_fp64_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_fp64fma_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_fp64fma_vec_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
/* r = a*b mod p, a, b < p (a tabai_ohta_mul_fn): Ohta's method on carry-save digits,
 * register blocking k = 2, 3, 4 (src/delayed/ohta_cs.c). Constant time. */
void tabai_ohta_mul_cs2_generic(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b);
void tabai_ohta_mul_cs3_generic(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b);
void tabai_ohta_mul_cs4_generic(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b);

#endif
