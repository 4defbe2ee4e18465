/* secp256k1 field arithmetic in Montgomery form (R = 2^256), 4 limbs, portable C: the
 * product, then Montgomery's reduction by the shape of p = 2^256 - c, c = 2^32 + 977: with
 * m = t_i (-p^-1) mod 2^64, t + m p = t + m 2^256 - m c, and m c (a 64 x 33-bit product) has
 * low limb t_i, so a step is one multiplication by -p^-1, one by c, a borrow chain and m
 * added four limbs up (Montgomery, Math. Comp. 44, 1985). Results bit-identical to
 * tabai_mont_mul_n4_*. Included by the per-tier instances (secp256k1.c, bmi2/secp256k1.c). */
#ifndef TABAI_EC_SECP256K1_FIELD_H
#define TABAI_EC_SECP256K1_FIELD_H

#include "fe4.h"

static const uint64_t K256_P[4] = {0xfffffffefffffc2fu, 0xffffffffffffffffu,
                                   0xffffffffffffffffu, 0xffffffffffffffffu};
static const uint64_t K256_PINV = 0xd838091dd2253531u; /* -p^-1 mod 2^64 */
static const uint64_t K256_C = 0x1000003d1u;           /* 2^256 - p */

/* r[4] = t[8] 2^-256 mod p for t < p 2^256, r < p; t is destroyed. */
TABAI_INLINE void k256_redc(uint64_t *r, uint64_t *t) {
    uint64_t top = 0;
    _Pragma("GCC unroll 16")
    for (size_t i = 0; i < 4; i++) {
        uint64_t m = t[i] * K256_PINV, lo, hi = tabai_mulw(&lo, m, K256_C), bw, cy;
        /* lo = t[i]: limb i becomes 0 without a borrow */
        bw = tabai_sbb(&t[i + 1], t[i + 1], hi, 0);
        bw = tabai_sbb(&t[i + 2], t[i + 2], 0, bw);
        bw = tabai_sbb(&t[i + 3], t[i + 3], 0, bw);
        cy = tabai_adc(&t[i + 4], t[i + 4], m - bw, 0); /* m >= 1 whenever hi > 0 */
        _Pragma("GCC unroll 16")
        for (size_t j = i + 5; j < 8; j++) cy = tabai_adc(&t[j], t[j], 0, cy);
        top += cy;
    }
    /* t[4..7] + top 2^256 < 2p: t - p = t + c - 2^256, taken when t + c reaches 2^256 */
    uint64_t s[4], cy = tabai_adc(&s[0], t[4], K256_C, 0);
    _Pragma("GCC unroll 16")
    for (size_t i = 1; i < 4; i++) cy = tabai_adc(&s[i], t[4 + i], 0, cy);
    uint64_t keep = tabai_mask(tabai_eq(top + cy, 0)); /* t < p: keep t */
    _Pragma("GCC unroll 16")
    for (size_t i = 0; i < 4; i++) r[i] = (t[4 + i] & keep) | (s[i] & ~keep);
}

/* r = a b R^-1 mod p, r = a^2 R^-1 mod p; a, b < p; r may alias. */
TABAI_INLINE void k256_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t t[8];
    fe4_mul_wide(t, a, b);
    k256_redc(r, t);
}
TABAI_INLINE void k256_mont_sqr(uint64_t *r, const uint64_t *a) {
    uint64_t t[8];
    fe4_sqr_wide(t, a);
    k256_redc(r, t);
}

#endif
