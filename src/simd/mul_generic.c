/* The portable reference of the reduced-radix product, and seed 000's Example 1 (16-bit
 * digits, carry on every step). Compiled with the generic flags. */
#include "simd.h"

/* ---- reduced-radix reference product --------------------------------------------------- */

/* r[2nd] = a[nd] * b[nd], plain column sums then one carry pass (the reference the SIMD
 * kernels are tested against besides GMP). */
void tabai_mul_rd_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                          unsigned bits) {
    TABAI_VERIFY_CHECK(nd >= 1 && nd <= TABAI_RD_MAX_DIGITS && tabai_rd_fits(nd, bits));
    TABAI_VERIFY_CHECK(tabai_rd_digits_ok(a, nd, bits) && tabai_rd_digits_ok(b, nd, bits));
    TABAI_VERIFY_CHECK(tabai_verify_disjoint(r, 16 * nd, a, 8 * nd) &&
                       tabai_verify_disjoint(r, 16 * nd, b, 8 * nd));
    uint64_t col[2 * TABAI_RD_MAX_DIGITS];
    for (size_t k = 0; k < 2 * nd; k++) col[k] = 0;
    for (size_t i = 0; i < nd; i++)
        for (size_t j = 0; j < nd; j++) col[i + j] += a[i] * b[j];
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

/* ---- seed 000, Example 1: 16-bit digits, carry on every step --------------------------- */

/* noinline: the baseline is measured as the seed's separate routine over 16-bit arrays */
__attribute__((noinline)) void tabai_mul_c16_generic(uint16_t *t, const uint16_t *a,
                                                     const uint16_t *b, size_t nd) {
    for (size_t k = 0; k < 2 * nd; k++) t[k] = 0;
    for (size_t i = 0; i < nd; i++) {
        uint32_t carry = 0;
        for (size_t j = 0; j < nd; j++) {
            uint32_t result = (uint32_t)a[i] * b[j] + t[i + j] + carry;
            t[i + j] = (uint16_t)result;
            carry = result >> 16;
        }
        t[i + nd] = (uint16_t)carry;
    }
}
