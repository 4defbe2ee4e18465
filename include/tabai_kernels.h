/* tabai_kernels.h: the explicit-kernel API of tabai, for benchmarks and for users who pick
 * a kernel by hand (`tabai_mul_with`, `tabai_ohta_mul_with`, `tabai_kernel_*`). tabai.h
 * includes it, so code that included only tabai.h keeps compiling; new code that uses these
 * functions includes this header. */
#ifndef TABAI_KERNELS_H
#define TABAI_KERNELS_H

#include "tabai.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------
 * Explicit kernel choice: the delayed-carry kernels (reduced-radix SIMD digits, float64
 * digits, carry-save Ohta) beside the dispatched default, so that each can be measured and
 * used on its own.
 * Reduced-radix and float64 digits; the digit size is chosen per size from the column
 * bounds of docs/bounds/delayed.md. All are constant time (no branch or address depends on
 * operand values; float64 arithmetic on integers below 2^53 has data-independent latency on
 * x86-64 since no subnormal ever occurs).
 * ------------------------------------------------------------------------------------ */
typedef enum tabai_kernel {
    TABAI_KERNEL_AUTO = 0,            /**< the tier in use: tabai_mul_n / tabai_ohta_mul */
    TABAI_KERNEL_C16 = 1,             /**< mul: 16-bit digits, carry every step (the baseline) */
    TABAI_KERNEL_SIMD29_SSE2 = 2,     /**< mul: 29-bit digits (or per-size bound), pmuludq, SSE2 */
    TABAI_KERNEL_SIMD29_AVX2 = 3,     /**< mul: the same with vpmuludq ymm (needs tier avx2) */
    TABAI_KERNEL_FP64 = 4,            /**< mul: float64 digits, 4x4 register blocks */
    TABAI_KERNEL_FP64_VEC = 5,        /**< mul: float64 digits, AVX2+FMA vectors (tier avx2) */
    TABAI_KERNEL_FP64_FMA = 6,        /**< mul: FMA-split exact products, wide digits (tier avx2) */
    TABAI_KERNEL_FP64_FMA_VEC = 7,    /**< mul: FMA split, AVX2 vectors (tier avx2) */
    TABAI_KERNEL_CARRY_SAVE_2X2 = 8,  /**< ohta_mul: carry-save digits, 2x2 blocks */
    TABAI_KERNEL_CARRY_SAVE_3X3 = 9,  /**< ohta_mul: carry-save digits, 3x3 blocks */
    TABAI_KERNEL_CARRY_SAVE_4X4 = 10  /**< ohta_mul: carry-save digits, 4x4 blocks */
} tabai_kernel;
#define TABAI_KERNEL_COUNT 11

/** The benchmark label of a kernel ("c16", "simd29_sse2", "carry_save_3x3", ...; "auto"),
 *  or NULL if k is out of range. Static storage. */
TABAI_API const char *tabai_kernel_name(tabai_kernel k);
/** The internal function a kernel runs, without the tabai_ prefix
 *  ("mul_n_simd29_avx2"), NULL for TABAI_KERNEL_AUTO or out of range. */
TABAI_API const char *tabai_kernel_symbol(tabai_kernel k);
/** Parse a kernel label; returns -1 for an unknown name. */
TABAI_API int tabai_kernel_parse(const char *name);
/** TABAI_OK if kernel k can run here: the CPU has its instructions and the tier in use
 *  (TABAI_CPU, tabai_cpu_set_tier) is not below the tier its file is built for.
 *  Errors: TABAI_ERR_TIER (not available), TABAI_ERR_KERNEL (k out of range). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_kernel_available(tabai_kernel k);

/** r[2n] = a[n] * b[n] ("mulPre") with an explicitly chosen kernel.
 *  Algorithm: schoolbook on digits smaller than the word, every column summed without carry
 *  propagation ("delayed carry"), one carry pass at the end; conversions from and to 64-bit
 *  limbs are included. SIMD29: b-bit digits, b the largest <= 32 with
 *  ceil(64n/b) * (2^b-1) * 2^b < 2^64 (b = 29 at 1024 bits, 27 at 8192). FP64: b-bit digits
 *  in doubles with columns <= 2^53 (b = 24 at 640 bits, 22 at 8192). FP64_FMA: products split
 *  exactly into hi + lo with fma, digits up to 51 bits. C16: a 16-bit baseline.
 *  Shapes:   r: 2n limbs; a, b: n limbs.  1 <= n <= TABAI_MAX_LIMBS for the explicit kernels
 *            (any n for TABAI_KERNEL_AUTO).
 *  Aliasing: r must not overlap a or b; a may equal b.
 *  Time:     constant.
 *  Errors:   TABAI_ERR_NULL; TABAI_ERR_SIZE (n == 0); TABAI_ERR_KERNEL (k is not a mul
 *            kernel or does not support n); TABAI_ERR_TIER (the CPU or the tier in use lacks
 *            it). r is not written on error.
 *  Source:   Intel application note on large-number multiplication with SSE2 (the
 *            29-bit digits); Ohta & Maeno, IPSJ SIG HPC 54-9, 1994 (float64 digits). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mul_with(tabai_kernel k, uint64_t *r, const uint64_t *a,
                                      const uint64_t *b, size_t n);
/** r = a*b mod p by Ohta's method (Algorithm 3) with an explicitly chosen kernel:
 *  TABAI_KERNEL_AUTO (the limb products of the tier in use, as tabai_ohta_mul) or
 *  TABAI_KERNEL_CARRY_SAVE_kXk: all three products on carry-save digits (b <= 32 bits in
 *  64-bit words, b chosen from the largest column), register blocked k x k, one carry pass
 *  per product; p and K are converted to digits on every call.
 *  Shapes:   r, a, b: ctx->n limbs.  Requires: a, b < p.  Ensures: r < p.
 *  Aliasing: r may equal a and/or b.
 *  Time:     constant.
 *  Errors:   TABAI_ERR_NULL; TABAI_ERR_KERNEL (not an Ohta kernel); TABAI_ERR_RANGE.
 *            r is not written on error.
 *  Source:   Zheng, Ohta, Araki (carry-save register blocking of Ohta's method). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_mul_with(tabai_kernel k, const tabai_ohta *ctx, uint64_t *r,
                                           const uint64_t *a, const uint64_t *b);

#ifdef __cplusplus
}
#endif
#endif /* TABAI_KERNELS_H */
