/* The reduced-radix digit kernels of src/simd/ (seed 000: 29-bit digits, columns summed with
 * pmuludq / vpmuludq without carries, one carry pass) and the 16-bit baseline. Digits in and
 * out; the conversions from and to limbs are the layer above (src/delayed/). */
#ifndef TABAI_SIMD_SIMD_H
#define TABAI_SIMD_SIMD_H

#include "../digits.h"

/* ---- reduced-radix integer digits (seed 000) ------------------------------------------- */

/* r[2nd] = a[nd] * b[nd] in b-bit digits, columns accumulated with (v)pmuludq/(v)paddq,
 * one carry pass; out digits < 2^bits. Requires digits < 2^bits, tabai_rd_fits(nd, bits),
 * 1 <= nd <= TABAI_RD_MAX_DIGITS. r must not overlap a or b. */
void tabai_mul_rd_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                          unsigned bits);
void tabai_mul_rd_sse2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                       unsigned bits);
void tabai_mul_rd_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                       unsigned bits);

/* Seed 000 Example 1: t[2nd] = a[nd] * b[nd] in 16-bit digits, carry propagated on every
 * step (the baseline the seed measured against). t must not overlap a or b. */
void tabai_mul_c16_generic(uint16_t *t, const uint16_t *a, const uint16_t *b, size_t nd);

#endif
