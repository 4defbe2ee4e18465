/* Multi-buffer Montgomery arithmetic (seed 001): L independent operations side by
 * side, one per 64-bit vector lane, in a reduced radix 2^w (w = 52 for AVX-512 IFMA,
 * w = 32 for the AVX-512F vpmuludq baseline).
 *
 * Layout (structure of arrays, "vertical"): a vector of L numbers with d digits is
 * uint64_t x[d * L], digit i of lane l at x[i * L + l], least significant digit first.
 * Normalised digits are < 2^w. Every lane may have its own modulus.
 *
 * Montgomery here means R = 2^(w * d) (not the scalar path's 2^(64 n)): the kernels compute
 * r = a * b * R^-1 mod p per lane, word-serial (Bos, Montgomery, Shumow, Zaverucha, SAC 2013,
 * Algorithm 2, with radix 2^w; the accumulators keep the digit products unnormalised between
 * rows and are normalised once at the end), then the final subtraction by masks.
 * Constant time in a, b and p: no branch or address depends on them. */
#ifndef TABAI_MB_MB_H
#define TABAI_MB_MB_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu/mbtypes.h"
#include "../digits.h" /* the transposes limbs <-> lane digits */
#include "tabai.h"

/* One multi-buffer kernel family: the entry of src/mb/kernels.c's list. */
typedef struct tabai_mb_kernel {
    const char *name;      /* bench `kernel` label: "ifma_zmm", "ifma_ymm", "avx512f32_zmm", ... */
    const char *mul_sym;   /* symbol without tabai_: "mont_mul_r52n_mb8_ifma" */
    const char *sqr_sym;   /* "mont_sqr_r52n_mb8_ifma" */
    unsigned lanes;        /* L: 4 (ymm) or 8 (zmm) */
    unsigned w;            /* digit bits: 52 or 32 */
    unsigned features;     /* TABAI_CPU_* bits the CPU needs */
    tabai_tier tier;       /* the lowest tier that may use it */
    tabai_mb_mont_mul_fn mont_mul;
    tabai_mb_mont_sqr_fn mont_sqr;
    tabai_mb_scan_fn scan; /* the exponentiation's table scan for this ISA */
} tabai_mb_kernel;

/* Every multi-buffer kernel of the library, whether the CPU has it or not (check
 * tabai_mb_kernel_usable). Ends with a NULL name. */
extern const tabai_mb_kernel tabai_mb_kernels[];
/* 1 if the CPU has k's features and the tier in use is >= k->tier. */
int tabai_mb_kernel_usable(const tabai_mb_kernel *k);
/* The kernel with this name, or NULL. */
const tabai_mb_kernel *tabai_mb_kernel_find(const char *name);
/* The kernel the batch API uses at the tier in use (the 8-lane IFMA one at tier ifma), or
 * NULL below that tier: the batch API then loops over the scalar path. */
const tabai_mb_kernel *tabai_mb_kernel_active(void);

/* Digits of a w-bit radix for a bits-bit modulus: ceil(bits / w). */
static inline size_t tabai_mb_digits(size_t bits, unsigned w) { return (bits + w - 1) / w; }

/* The per-lane Montgomery constants of one group of L moduli for kernel k. */
typedef struct tabai_mb_mont {
    const tabai_mb_kernel *k;
    size_t d;                                            /* digits */
    size_t n;                                            /* 64-bit limbs of the inputs */
    uint64_t k0[TABAI_MB_MAX_LANES];                     /* -p^-1 mod 2^w */
    uint64_t p[TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES];  /* moduli, digits */
    uint64_t rr[TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES]; /* R^2 mod p, digits */
    uint64_t one[TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES];/* R mod p, digits (1 in Montgomery form) */
} tabai_mb_mont;

/* Set up ctx for kernel k and the moduli p[0..L-1] (n limbs each, odd, >= 3; p[l] == NULL
 * pads lane l with the modulus of the first non-NULL lane); d = the digits of the longest.
 * Errors: TABAI_ERR_NULL (k, ctx, or all p[l] NULL), TABAI_ERR_SIZE (n == 0, n >
 * TABAI_MAX_LIMBS, or a modulus longer than TABAI_MB_MAX_BITS), TABAI_ERR_MODULUS (an even
 * or < 3 modulus), TABAI_ERR_ALLOC. Variable time in p (through tabai_mont_init): for public
 * moduli. */
tabai_status tabai_mb_mont_init(tabai_mb_mont *ctx, const tabai_mb_kernel *k,
                                const uint64_t *const p[], size_t n);
/* The same from scalar contexts made beforehand (mc[l] == NULL pads as above; mc[l]->n <= n):
 * constant time in the moduli's values (only their lengths show), so RSA keys build their
 * contexts once and their groups here per batch. Errors: TABAI_ERR_NULL, TABAI_ERR_SIZE. */
tabai_status tabai_mb_mont_init_lanes(tabai_mb_mont *ctx, const tabai_mb_kernel *k,
                                      const tabai_mont *const mc[], size_t n);
/* Montgomery form and back, all lanes: r = a*R mod p, r = a*R^-1 mod p (digits). */
void tabai_mb_mont_to(const tabai_mb_mont *ctx, uint64_t *r, const uint64_t *a);
void tabai_mb_mont_from(const tabai_mb_mont *ctx, uint64_t *r, const uint64_t *a);

/* Constant-time fixed-window exponentiation of all lanes: r_l = b_l ^ e_l mod p_l (window:
 * tabai_mb_window).
 *   Shapes:  r, b: ctx->d * L digits (normal form, not Montgomery); e[l]: ceil(ebits/64)
 *            limbs (e[l] == NULL: exponent 0); scratch: tabai_mb_powmod_scratch(ctx, ebits)
 *            words. Requires b_l < p_l. The table entry of each lane is read by scanning
 *            every entry with per-lane masks. Constant time in b and e (ebits public). */
size_t tabai_mb_powmod_scratch(const tabai_mb_mont *ctx, size_t ebits);
/* The same for kernel k at d digits (scratch grows with d and with the window), and the
 * window the exponentiation uses: the scalar path's cost model plus the table scan's. */
size_t tabai_mb_powmod_scratch_words(const tabai_mb_kernel *k, size_t d, size_t ebits);
unsigned tabai_mb_window(size_t ebits, size_t d);
void tabai_mb_powmod(const tabai_mb_mont *ctx, uint64_t *r, const uint64_t *b,
                     const uint64_t *const e[], size_t ebits, uint64_t *scratch);

/* The batch API of tabai.h with an explicit kernel (NULL: the loop over the scalar path),
 * for the tests and the benchmark; the public functions pass tabai_mb_kernel_active(). */
tabai_status tabai_modmul_batch_with(const tabai_mb_kernel *k, size_t count, uint64_t *const r[],
                                     const uint64_t *const a[], const uint64_t *const b[],
                                     const uint64_t *const m[], size_t n);
tabai_status tabai_powmod_batch_with(const tabai_mb_kernel *k, size_t count, uint64_t *const r[],
                                     const uint64_t *const b[], const uint64_t *const e[],
                                     size_t ebits, const uint64_t *const m[], size_t n,
                                     unsigned threads);

/* r[j] = b[j]^e[j] mod p_j for j < jobs and the scalar contexts mc[j] (n-limb values,
 * mc[j]->n <= n; e == NULL for ebits == 0): groups of k's lanes through the multi-buffer
 * kernel k (the scalar loop for k == NULL or moduli above TABAI_MB_MAX_BITS), whole groups
 * split across `threads` threads (0: every online core). r[j] may be b[j]. Constant time in
 * b, e and the moduli's values (their lengths show). Every buffer is wiped before it is
 * freed. Errors: TABAI_ERR_ALLOC (r may then be partly written); on the scalar loop, the
 * first job's error that tabai_mont_powmod reports (b[j] >= p_j: r[j] = 0). The one
 * exponentiation engine of the batch API and of the RSA layer. */
tabai_status tabai_mb_powmod_jobs(const tabai_mb_kernel *k, size_t jobs, uint64_t *const r[],
                                  const uint64_t *const b[], const uint64_t *const e[],
                                  size_t ebits, const tabai_mont *const mc[], size_t n,
                                  unsigned threads);

/* fn(arg, lo, hi) over [0, units) in contiguous ranges of whole `grain`s, on up to `threads`
 * POSIX threads (0: every online core; 1 or one grain: the calling thread only); the calling
 * thread takes the first range and, if a thread cannot be started, that thread's range too.
 * Returns TABAI_OK or one of the ranges' errors. */
tabai_status tabai_mb_parallel(size_t units, size_t grain, unsigned threads,
                               tabai_status (*fn)(void *arg, size_t lo, size_t hi), void *arg);
/* threads, or the number of online cores for 0 (1 .. 256). */
unsigned tabai_threads_resolve(unsigned threads);

#endif
