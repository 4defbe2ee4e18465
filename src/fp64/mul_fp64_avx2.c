/* float64-digit products with AVX2 + FMA (this file only is compiled with -mavx2 -mfma;
 * reached only when the tier in use is avx2 or above and the CPU has FMA).
 *
 *  - tabai_mul_f64_avx2: the plain float64-digit product of mul_fp64.c, vectorised: output
 *    columns in blocks of 16 (four ymm accumulators of 4 doubles), acc += a[i] * b[k-i+lane]
 *    by vfmadd (exact: product and sum are integers below 2^53).
 *  - tabai_mul_f64fma_avx2 / _vec_avx2: wider digits (up to 51 bits) by splitting each
 *    product exactly: t = fma(x, y, C) with C = 1.5 * 2^(52+b) rounds x*y to a multiple of
 *    2^b (the ulp of t), hi = t - C (exact), lo = fma(x, y, -hi) (exact, |lo| <= 2^(b-1)).
 *    hi sums (multiples of 2^b, hi / 2^b <= 2^b - 1) and lo sums stay exact under the bound
 *    tabai_f64fma_fits; the final pass works in int64 (lo sums are signed).
 *  Assumes the default rounding mode (round to nearest). */
#include <immintrin.h>

#include "fp64.h"

#define LANES 4
#define BLOCK 4 /* up to 4 accumulators; 8 measured no faster: Zen 1 issues one 256-bit load
                 * per cycle, so the one unaligned load per FMA is the bound */
#define PAD (LANES * BLOCK)
#ifndef FMA_VEC_BLK4
#define FMA_VEC_BLK4 100000 /* 2 accumulator pairs measured as fast or faster at every size */
#endif
#ifndef F64_AVX2_BLK2
#define F64_AVX2_BLK2 12
#endif
#ifndef F64_AVX2_BLK4
#define F64_AVX2_BLK4 20
#endif

/* columns [k, k + 4*blk) for every k with blk accumulators (a constant after inlining) */
TABAI_INLINE void f64_cols_avx2(double *col, const double *a, const double *bp, size_t nd,
                                const int blk) {
    const ptrdiff_t snd = (ptrdiff_t)nd, w = LANES * blk;
    const size_t ncol = 2 * nd;
    for (size_t k = 0; k < ncol; k += (size_t)w) {
        __m256d c[BLOCK];
#pragma GCC unroll 4
        for (int v = 0; v < blk; v++) c[v] = _mm256_setzero_pd();
        ptrdiff_t ilo = (ptrdiff_t)k - (snd - 1), ihi = (ptrdiff_t)k + w - 1;
        if (ilo < 0) ilo = 0;
        if (ihi > snd - 1) ihi = snd - 1;
        for (ptrdiff_t i = ilo; i <= ihi; i++) {
            __m256d ai = _mm256_broadcast_sd(a + i);
            const double *bq = bp + PAD + (ptrdiff_t)k - i;
#pragma GCC unroll 4
            for (int v = 0; v < blk; v++) c[v] = _mm256_fmadd_pd(ai, _mm256_loadu_pd(bq + LANES * v), c[v]);
        }
#pragma GCC unroll 4
        for (int v = 0; v < blk; v++) _mm256_store_pd(col + k + LANES * v, c[v]);
    }
}

void tabai_mul_f64_avx2(double *r, const double *a, const double *b, size_t nd, unsigned bits) {
    TABAI_VERIFY_CHECK(nd % 4 == 0 && nd >= 4 && nd <= TABAI_RD_MAX_DIGITS);
    TABAI_VERIFY_CHECK(tabai_f64_fits(nd, bits));
    TABAI_VERIFY_CHECK(tabai_f64_digits_ok(a, nd, bits) && tabai_f64_digits_ok(b, nd, bits));
    _Alignas(32) double bp[TABAI_RD_MAX_DIGITS + 2 * PAD];
    _Alignas(32) double col[2 * TABAI_RD_MAX_DIGITS + PAD];
    for (size_t j = 0; j < PAD; j++) bp[j] = bp[PAD + nd + j] = 0.0;
    for (size_t j = 0; j < nd; j++) bp[PAD + j] = b[j];
    if (nd < F64_AVX2_BLK2) f64_cols_avx2(col, a, bp, nd, 1);
    else if (nd < F64_AVX2_BLK4) f64_cols_avx2(col, a, bp, nd, 2);
    else f64_cols_avx2(col, a, bp, nd, 4);
    tabai_f64_carry_pass(r, col, 2 * nd, bits);
}

/* final pass of the split products: column k = L[k] + H[k-1] / 2^b, signed, in int64 */
static inline void fma_carry_pass(double *r, const double *L, const double *H, size_t ncol,
                                  unsigned bits) {
    const double inv = 1.0 / (double)((uint64_t)1 << bits);
    const int64_t mask = (int64_t)((((uint64_t)1) << bits) - 1);
    int64_t cy = 0;
    for (size_t k = 0; k < ncol; k++) {
        /* exact sums: |L| <= m 2^(b-1) <= 2^53, H a multiple of 2^b with H / 2^b <= 2^53 */
        TABAI_VERIFY_CHECK(tabai_f64_exact(L[k]) && tabai_f64_exact(H[k] * inv) &&
                           H[k] == (H[k] * inv) * (double)((uint64_t)1 << bits));
        int64_t x = (int64_t)L[k] + cy;
        if (k > 0) x += (int64_t)(H[k - 1] * inv);
        r[k] = (double)(x & mask);
        cy = x >> bits; /* arithmetic shift: floor division of a signed column */
    }
    TABAI_VERIFY_CHECK(cy == 0 && H[ncol - 1] == 0); /* the product fits its ncol digits */
}

static inline double magic_for(unsigned bits) { return 1.5 * 4503599627370496.0 * (double)((uint64_t)1 << bits); }

void tabai_mul_f64fma_avx2(double *r, const double *a, const double *b, size_t nd, unsigned bits) {
    TABAI_VERIFY_CHECK(nd >= 1 && nd <= TABAI_RD_MAX_DIGITS && tabai_f64fma_fits(nd, bits));
    TABAI_VERIFY_CHECK(tabai_f64_digits_ok(a, nd, bits) && tabai_f64_digits_ok(b, nd, bits));
    double H[2 * TABAI_RD_MAX_DIGITS], L[2 * TABAI_RD_MAX_DIGITS];
    const double C = magic_for(bits);
    for (size_t k = 0; k < 2 * nd; k++) H[k] = L[k] = 0.0;
    for (size_t i = 0; i < nd; i++) {
        const double x = a[i];
        for (size_t j = 0; j < nd; j++) {
            double t = __builtin_fma(x, b[j], C);
            double hi = t - C;
            double lo = __builtin_fma(x, b[j], -hi);
            H[i + j] += hi;
            L[i + j] += lo;
        }
    }
    fma_carry_pass(r, L, H, 2 * nd, bits);
}

/* columns [k, k + 4*blk) of the split products, blk pairs of accumulators */
TABAI_INLINE void fma_cols_avx2(double *H, double *L, const double *a, const double *bp, size_t nd,
                                const __m256d C, const int blk) {
    const ptrdiff_t snd = (ptrdiff_t)nd, w = LANES * blk;
    const size_t ncol = 2 * nd;
    for (size_t k = 0; k < ncol; k += (size_t)w) {
        __m256d h[BLOCK], l[BLOCK];
#pragma GCC unroll 4
        for (int v = 0; v < blk; v++) h[v] = l[v] = _mm256_setzero_pd();
        ptrdiff_t ilo = (ptrdiff_t)k - (snd - 1), ihi = (ptrdiff_t)k + w - 1;
        if (ilo < 0) ilo = 0;
        if (ihi > snd - 1) ihi = snd - 1;
        for (ptrdiff_t i = ilo; i <= ihi; i++) {
            __m256d ai = _mm256_broadcast_sd(a + i);
            const double *bq = bp + PAD + (ptrdiff_t)k - i;
#pragma GCC unroll 4
            for (int v = 0; v < blk; v++) {
                __m256d y = _mm256_loadu_pd(bq + LANES * v);
                __m256d hi = _mm256_sub_pd(_mm256_fmadd_pd(ai, y, C), C);
                h[v] = _mm256_add_pd(h[v], hi);
                l[v] = _mm256_add_pd(l[v], _mm256_fmsub_pd(ai, y, hi));
            }
        }
#pragma GCC unroll 4
        for (int v = 0; v < blk; v++) {
            _mm256_store_pd(H + k + LANES * v, h[v]);
            _mm256_store_pd(L + k + LANES * v, l[v]);
        }
    }
}

void tabai_mul_f64fma_vec_avx2(double *r, const double *a, const double *b, size_t nd,
                               unsigned bits) {
    TABAI_VERIFY_CHECK(nd >= 1 && nd <= TABAI_RD_MAX_DIGITS && tabai_f64fma_fits(nd, bits));
    TABAI_VERIFY_CHECK(tabai_f64_digits_ok(a, nd, bits) && tabai_f64_digits_ok(b, nd, bits));
    _Alignas(32) double bp[TABAI_RD_MAX_DIGITS + 2 * PAD];
    _Alignas(32) double H[2 * TABAI_RD_MAX_DIGITS + PAD], L[2 * TABAI_RD_MAX_DIGITS + PAD];
    for (size_t j = 0; j < PAD; j++) bp[j] = bp[PAD + nd + j] = 0.0;
    for (size_t j = 0; j < nd; j++) bp[PAD + j] = b[j];
    const __m256d C = _mm256_set1_pd(magic_for(bits));
    const size_t ncol = 2 * nd;
    if (nd < FMA_VEC_BLK4) fma_cols_avx2(H, L, a, bp, nd, C, 2);
    else fma_cols_avx2(H, L, a, bp, nd, C, 4);
    fma_carry_pass(r, L, H, ncol, bits);
}
