/* P-256 field arithmetic in Montgomery form (R = 2^256), 4 limbs, portable C: the product
 * by 128-bit multiplications, then Montgomery's reduction by the shape of
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1: -p^-1 = 1 mod 2^64, so each step's multiplier is the
 * low limb itself and m p = m 2^256 - m 2^224 + m 2^192 + m 2^96 - m costs one 64 x 64
 * product (by p's top limb) and two shifts (Montgomery, Math. Comp. 44, 1985; the shape as in
 * Gueron and Krasnov, "Fast prime field elliptic-curve cryptography with 256-bit primes",
 * J. Cryptogr. Eng. 5, 2015). Results bit-identical to tabai_mont_mul_n4_*.
 * Included by the per-tier instances (p256.c, bmi2/p256.c). */
#ifndef TABAI_EC_P256_FIELD_H
#define TABAI_EC_P256_FIELD_H

#include "fe4.h"

static const uint64_t P256_P[4] = {0xffffffffffffffffu, 0x00000000ffffffffu, 0,
                                   0xffffffff00000001u};

/* r[4] = t[8] 2^-256 mod p for t < p 2^256, r < p; t is destroyed. */
TABAI_INLINE void p256_redc(uint64_t *r, uint64_t *t) {
    uint64_t top = 0;
    _Pragma("GCC unroll 16")
    for (size_t i = 0; i < 4; i++) {
        uint64_t m = t[i], lo, hi = tabai_mulw(&lo, m, P256_P[3]), cy;
        cy = tabai_adc(&t[i + 1], t[i + 1], m << 32, 0);
        cy = tabai_adc(&t[i + 2], t[i + 2], m >> 32, cy);
        cy = tabai_adc(&t[i + 3], t[i + 3], lo, cy);
        cy = tabai_adc(&t[i + 4], t[i + 4], hi, cy);
        _Pragma("GCC unroll 16")
        for (size_t j = i + 5; j < 8; j++) cy = tabai_adc(&t[j], t[j], 0, cy);
        top += cy;
    }
    /* t[4..7] + top 2^256 < 2p: subtract p once under the borrow's mask */
    uint64_t s[4], bw = 0;
    _Pragma("GCC unroll 16")
    for (size_t i = 0; i < 4; i++) bw = tabai_sbb(&s[i], t[4 + i], P256_P[i], bw);
    uint64_t hi, keep = tabai_mask(tabai_sbb(&hi, top, 0, bw)); /* t < p: keep t */
    _Pragma("GCC unroll 16")
    for (size_t i = 0; i < 4; i++) r[i] = (t[4 + i] & keep) | (s[i] & ~keep);
}

/* r = a b R^-1 mod p, r = a^2 R^-1 mod p; a, b < p; r may alias. */
TABAI_INLINE void p256_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t t[8];
    fe4_mul_wide(t, a, b);
    p256_redc(r, t);
}
TABAI_INLINE void p256_mont_sqr(uint64_t *r, const uint64_t *a) {
    uint64_t t[8];
    fe4_sqr_wide(t, a);
    p256_redc(r, t);
}

#endif
