/* The whole-number products of the delayed-carry kernels: r[2n] = a[n] * b[n] on 64-bit
 * limbs, as conversion to digits, the digit kernel of src/simd/ or src/fp64/, conversion
 * back. The digit size is the largest the column bound allows for n (src/digits.h,
 * docs/bounds/delayed.md). Generic flags: the AVX2 digit kernels are only called after the
 * tier check of the explicit-kernel entry (with.c). Constant time: every length and
 * position depends on n only. */
#include "delayed.h"

typedef void (*rd_kernel)(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                          unsigned bits);
typedef void (*f64_kernel)(double *r, const double *a, const double *b, size_t nd,
                           unsigned bits);

/* reduced-radix integer digits (seed 000) */
static void mul_n_rd(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n, rd_kernel k) {
    uint64_t ad[TABAI_RD_MAX_DIGITS], bd[TABAI_RD_MAX_DIGITS], rd[2 * TABAI_RD_MAX_DIGITS];
    const unsigned bits = tabai_rd_bits_for(n);
    const size_t nd = tabai_digits_for(64 * n, bits);
    tabai_rd_from_limbs(ad, nd, a, n, bits);
    tabai_rd_from_limbs(bd, nd, b, n, bits);
    k(rd, ad, bd, nd, bits);
    tabai_rd_to_limbs(r, 2 * n, rd, 2 * nd, bits);
}

/* float64 digits of `bits` bits (seed 002; the FMA split takes wider digits) */
static void mul_n_f64(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n,
                      unsigned bits, f64_kernel k) {
    double ad[TABAI_RD_MAX_DIGITS], bd[TABAI_RD_MAX_DIGITS], rd[2 * TABAI_RD_MAX_DIGITS];
    const size_t nd = tabai_f64_digits_for(n, bits);
    tabai_f64_from_limbs(ad, nd, a, n, bits);
    tabai_f64_from_limbs(bd, nd, b, n, bits);
    k(rd, ad, bd, nd, bits);
    tabai_f64_to_limbs(r, 2 * n, rd, 2 * nd, bits);
}

void tabai_mul_n_simd29_sse2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    mul_n_rd(r, a, b, n, tabai_mul_rd_sse2);
}

void tabai_mul_n_simd29_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    mul_n_rd(r, a, b, n, tabai_mul_rd_avx2);
}

void tabai_mul_n_fp64_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    mul_n_f64(r, a, b, n, tabai_f64_bits_for(n), tabai_mul_f64_generic);
}

void tabai_mul_n_fp64_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    mul_n_f64(r, a, b, n, tabai_f64_bits_for(n), tabai_mul_f64_avx2);
}

void tabai_mul_n_fp64fma_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    mul_n_f64(r, a, b, n, tabai_f64fma_bits_for(n), tabai_mul_f64fma_avx2);
}

void tabai_mul_n_fp64fma_vec_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    mul_n_f64(r, a, b, n, tabai_f64fma_bits_for(n), tabai_mul_f64fma_vec_avx2);
}

/* 16-bit digits (seed 000, Example 1) */
#pragma GCC diagnostic push
#if !defined(__clang__) /* a gcc warning clang does not know */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
void tabai_mul_n_c16_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    uint16_t a16[4 * TABAI_MAX_LIMBS], b16[4 * TABAI_MAX_LIMBS], t16[8 * TABAI_MAX_LIMBS];
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS);
    for (size_t i = 0; i < n; i++)
        for (unsigned q = 0; q < 4; q++) {
            a16[4 * i + q] = (uint16_t)(a[i] >> (16 * q));
            b16[4 * i + q] = (uint16_t)(b[i] >> (16 * q));
        }
    tabai_mul_c16_generic(t16, a16, b16, 4 * n);
    for (size_t i = 0; i < 2 * n; i++)
        r[i] = (uint64_t)t16[4 * i] | (uint64_t)t16[4 * i + 1] << 16 |
               (uint64_t)t16[4 * i + 2] << 32 | (uint64_t)t16[4 * i + 3] << 48;
}
#pragma GCC diagnostic pop
