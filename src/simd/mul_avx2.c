/* Reduced-radix product with AVX2 (seed 000's technique at twice the width): four
 * 32x32 -> 64 products per vpmuludq, column sums in 64-bit lanes with vpaddq, no carry until
 * one final pass. Compiled with -mavx2 (this file only; reached only when the tier in use
 * is avx2 or above).
 *
 * Layout as in mul_sse2.c: output columns in blocks of 16 (four ymm accumulators of 4
 * lanes); a[i] broadcast, b read unaligned from a zero-padded copy at offset k - i. */
#include <immintrin.h>

#include "delayed.h"

#define LANES 4
#define BLOCK 4
#define PAD (LANES * BLOCK)

void tabai_mul_rd_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                       unsigned bits) {
    TABAI_VERIFY_CHECK(nd >= 1 && nd <= TABAI_RD_MAX_DIGITS && tabai_rd_fits(nd, bits));
    _Alignas(32) uint64_t bp[TABAI_RD_MAX_DIGITS + 2 * PAD];
    _Alignas(32) uint64_t col[2 * TABAI_RD_MAX_DIGITS + PAD];
    for (size_t j = 0; j < PAD; j++) bp[j] = bp[PAD + nd + j] = 0;
    for (size_t j = 0; j < nd; j++) bp[PAD + j] = b[j];
    const ptrdiff_t snd = (ptrdiff_t)nd;
    const size_t ncol = 2 * nd;
    for (size_t k = 0; k < ncol; k += PAD) {
        __m256i c0 = _mm256_setzero_si256(), c1 = c0, c2 = c0, c3 = c0;
        ptrdiff_t ilo = (ptrdiff_t)k - (snd - 1), ihi = (ptrdiff_t)k + PAD - 1;
        if (ilo < 0) ilo = 0;
        if (ihi > snd - 1) ihi = snd - 1;
        for (ptrdiff_t i = ilo; i <= ihi; i++) {
            __m256i ai = _mm256_set1_epi64x((long long)a[i]);
            const uint64_t *bq = bp + PAD + (ptrdiff_t)k - i;
            c0 = _mm256_add_epi64(c0, _mm256_mul_epu32(ai, _mm256_loadu_si256((const __m256i *)(bq + 0))));
            c1 = _mm256_add_epi64(c1, _mm256_mul_epu32(ai, _mm256_loadu_si256((const __m256i *)(bq + 4))));
            c2 = _mm256_add_epi64(c2, _mm256_mul_epu32(ai, _mm256_loadu_si256((const __m256i *)(bq + 8))));
            c3 = _mm256_add_epi64(c3, _mm256_mul_epu32(ai, _mm256_loadu_si256((const __m256i *)(bq + 12))));
        }
        _mm256_store_si256((__m256i *)(col + k + 0), c0);
        _mm256_store_si256((__m256i *)(col + k + 4), c1);
        _mm256_store_si256((__m256i *)(col + k + 8), c2);
        _mm256_store_si256((__m256i *)(col + k + 12), c3);
    }
    const uint64_t mask = (((uint64_t)1) << bits) - 1;
    uint64_t cy = 0;
    for (size_t k = 0; k < ncol; k++) {
        uint64_t x = col[k] + cy;
        r[k] = x & mask;
        cy = x >> bits;
    }
}

void tabai_mul_n_simd29_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    uint64_t ad[TABAI_RD_MAX_DIGITS], bd[TABAI_RD_MAX_DIGITS], rd[2 * TABAI_RD_MAX_DIGITS];
    const unsigned bits = tabai_rd_bits_for(n);
    const size_t nd = tabai_digits_for(64 * n, bits);
    tabai_rd_from_limbs(ad, nd, a, n, bits);
    tabai_rd_from_limbs(bd, nd, b, n, bits);
    tabai_mul_rd_avx2(rd, ad, bd, nd, bits);
    tabai_rd_to_limbs(r, 2 * n, rd, 2 * nd, bits);
}
