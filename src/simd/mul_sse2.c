/* Reduced-radix product with SSE2 (seed 000): two 32x32 -> 64 products per pmuludq, column
 * sums in 64-bit lanes with paddq, no carry until one final pass. Compiled with -msse2 only.
 *
 * Layout: output columns are computed in blocks of 8 (four xmm accumulators of 2 lanes);
 * for each digit a[i] that reaches the block, the lanes get a[i] * b[k - i + lane] from an
 * unaligned load of a zero-padded copy of b, so no lane ever needs a shuffle. The seed kept
 * two aligned partial-product arrays and stitched them in the carry pass; unaligned loads
 * cost nothing extra on current cores, so one array suffices. */
#include <emmintrin.h>

#include "simd.h"

#define LANES 2
#define BLOCK 4 /* accumulators per pass */
#define PAD (LANES * BLOCK)

void tabai_mul_rd_sse2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                       unsigned bits) {
    TABAI_VERIFY_CHECK(nd >= 1 && nd <= TABAI_RD_MAX_DIGITS && tabai_rd_fits(nd, bits));
    TABAI_VERIFY_CHECK(tabai_rd_digits_ok(a, nd, bits) && tabai_rd_digits_ok(b, nd, bits));
    TABAI_VERIFY_CHECK(tabai_verify_disjoint(r, 16 * nd, a, 8 * nd) &&
                       tabai_verify_disjoint(r, 16 * nd, b, 8 * nd));
    _Alignas(16) uint64_t bp[TABAI_RD_MAX_DIGITS + 2 * PAD];
    _Alignas(16) uint64_t aa[2 * TABAI_RD_MAX_DIGITS];
    _Alignas(16) uint64_t col[2 * TABAI_RD_MAX_DIGITS + PAD];
    for (size_t j = 0; j < PAD; j++) bp[j] = bp[PAD + nd + j] = 0;
    for (size_t j = 0; j < nd; j++) {
        bp[PAD + j] = b[j];
        aa[2 * j] = aa[2 * j + 1] = a[j]; /* a[i] in both lanes: one aligned load later */
    }
    const ptrdiff_t snd = (ptrdiff_t)nd;
    const size_t ncol = 2 * nd;
    for (size_t k = 0; k < ncol; k += PAD) {
        __m128i c0 = _mm_setzero_si128(), c1 = c0, c2 = c0, c3 = c0;
        ptrdiff_t ilo = (ptrdiff_t)k - (snd - 1), ihi = (ptrdiff_t)k + PAD - 1;
        if (ilo < 0) ilo = 0;
        if (ihi > snd - 1) ihi = snd - 1;
        for (ptrdiff_t i = ilo; i <= ihi; i++) {
            __m128i ai = _mm_load_si128((const __m128i *)(aa + 2 * i));
            const uint64_t *bq = bp + PAD + (ptrdiff_t)k - i;
            c0 = _mm_add_epi64(c0, _mm_mul_epu32(ai, _mm_loadu_si128((const __m128i *)(bq + 0))));
            c1 = _mm_add_epi64(c1, _mm_mul_epu32(ai, _mm_loadu_si128((const __m128i *)(bq + 2))));
            c2 = _mm_add_epi64(c2, _mm_mul_epu32(ai, _mm_loadu_si128((const __m128i *)(bq + 4))));
            c3 = _mm_add_epi64(c3, _mm_mul_epu32(ai, _mm_loadu_si128((const __m128i *)(bq + 6))));
        }
        _mm_store_si128((__m128i *)(col + k + 0), c0);
        _mm_store_si128((__m128i *)(col + k + 2), c1);
        _mm_store_si128((__m128i *)(col + k + 4), c2);
        _mm_store_si128((__m128i *)(col + k + 6), c3);
    }
    /* the one carry pass */
    const uint64_t mask = (((uint64_t)1) << bits) - 1;
    uint64_t cy = 0;
    for (size_t k = 0; k < ncol; k++) {
        uint64_t x = col[k] + cy;
        TABAI_VERIFY_CHECK(x >= cy); /* column + carry below 2^64 (tabai_rd_fits) */
        r[k] = x & mask;
        cy = x >> bits;
    }
    TABAI_VERIFY_CHECK(cy == 0); /* the product fits its 2nd digits */
}
