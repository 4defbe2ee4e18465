/* Reduced-radix product with AVX2 (seed 000's technique at twice the width): four
 * 32x32 -> 64 products per vpmuludq, column sums in 64-bit lanes with vpaddq, no carry until
 * one final pass. Compiled with -mavx2 (this file only; reached only when the tier in use
 * is avx2 or above).
 *
 * Layout as in mul_sse2.c: output columns in blocks of 16 (four ymm accumulators of 4
 * lanes); a[i] broadcast, b read unaligned from a zero-padded copy at offset k - i. */
#include <immintrin.h>

#include "simd.h"

#ifndef RD_AVX2_BLK2
#define RD_AVX2_BLK2 12 /* digit counts where 2 and 4 accumulators start to pay: the kernel is
                          * vpmuludq-bound on Zen 1, all widths within 5% (measured) */
#endif
#ifndef RD_AVX2_BLK4
#define RD_AVX2_BLK4 100000
#endif

#define LANES 4
#define MAXBLK 4
#define PAD (LANES * MAXBLK)

/* columns [k, k + LANES*blk) for every k, blk accumulators; blk is a constant after inlining.
 * Wider blocks share each broadcast of a[i] among more products but compute more zero
 * lanes at the two triangular ends (about LANES*blk*nd wasted lane products). */
TABAI_INLINE void rd_cols_avx2(uint64_t *col, const uint64_t *a, const uint64_t *bp, size_t nd,
                               const int blk) {
    const ptrdiff_t snd = (ptrdiff_t)nd, w = LANES * blk;
    const size_t ncol = 2 * nd;
    for (size_t k = 0; k < ncol; k += (size_t)w) {
        __m256i c[MAXBLK];
#pragma GCC unroll 4
        for (int v = 0; v < blk; v++) c[v] = _mm256_setzero_si256();
        ptrdiff_t ilo = (ptrdiff_t)k - (snd - 1), ihi = (ptrdiff_t)k + w - 1;
        if (ilo < 0) ilo = 0;
        if (ihi > snd - 1) ihi = snd - 1;
        for (ptrdiff_t i = ilo; i <= ihi; i++) {
            __m256i ai = _mm256_set1_epi64x((long long)a[i]);
            const uint64_t *bq = bp + PAD + (ptrdiff_t)k - i;
#pragma GCC unroll 4
            for (int v = 0; v < blk; v++)
                c[v] = _mm256_add_epi64(
                    c[v], _mm256_mul_epu32(ai, _mm256_loadu_si256((const __m256i *)(bq + LANES * v))));
        }
#pragma GCC unroll 4
        for (int v = 0; v < blk; v++) _mm256_store_si256((__m256i *)(col + k + LANES * v), c[v]);
    }
}

void tabai_mul_rd_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                       unsigned bits) {
    TABAI_VERIFY_CHECK(nd >= 1 && nd <= TABAI_RD_MAX_DIGITS && tabai_rd_fits(nd, bits));
    TABAI_VERIFY_CHECK(tabai_rd_digits_ok(a, nd, bits) && tabai_rd_digits_ok(b, nd, bits));
    TABAI_VERIFY_CHECK(tabai_verify_disjoint(r, 16 * nd, a, 8 * nd) &&
                       tabai_verify_disjoint(r, 16 * nd, b, 8 * nd));
    _Alignas(32) uint64_t bp[TABAI_RD_MAX_DIGITS + 2 * PAD];
    _Alignas(32) uint64_t col[2 * TABAI_RD_MAX_DIGITS + PAD];
    for (size_t j = 0; j < PAD; j++) bp[j] = bp[PAD + nd + j] = 0;
    for (size_t j = 0; j < nd; j++) bp[PAD + j] = b[j];
    if (nd < RD_AVX2_BLK2) rd_cols_avx2(col, a, bp, nd, 1);
    else if (nd < RD_AVX2_BLK4) rd_cols_avx2(col, a, bp, nd, 2);
    else rd_cols_avx2(col, a, bp, nd, 4);
    const uint64_t mask = (((uint64_t)1) << bits) - 1;
    uint64_t cy = 0;
    for (size_t k = 0; k < 2 * nd; k++) {
        uint64_t x = col[k] + cy;
        TABAI_VERIFY_CHECK(x >= cy); /* column + carry below 2^64 (tabai_rd_fits) */
        r[k] = x & mask;
        cy = x >> bits;
    }
    TABAI_VERIFY_CHECK(cy == 0); /* the product fits its 2nd digits */
}
