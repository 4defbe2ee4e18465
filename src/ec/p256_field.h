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

#include "../internal.h"

static const uint64_t P256_P[4] = {0xffffffffffffffffu, 0x00000000ffffffffu, 0,
                                   0xffffffff00000001u};

/* t[8] = a[4] b[4], schoolbook rows. */
TABAI_INLINE void p256_mul_wide(uint64_t *t, const uint64_t *a, const uint64_t *b) {
    uint64_t c = 0;
    _Pragma("GCC unroll 16")
    for (size_t j = 0; j < 4; j++) {
        tabai_u128 s = (tabai_u128)a[j] * b[0] + c;
        t[j] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
    }
    t[4] = c;
    _Pragma("GCC unroll 16")
    for (size_t i = 1; i < 4; i++) {
        c = 0;
        _Pragma("GCC unroll 16")
        for (size_t j = 0; j < 4; j++) {
            tabai_u128 s = (tabai_u128)a[j] * b[i] + t[i + j] + c;
            t[i + j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        t[i + 4] = c;
    }
}

/* t[8] = a[4]^2: the off-diagonal triangle once, doubled, plus the squares. */
TABAI_INLINE void p256_sqr_wide(uint64_t *t, const uint64_t *a) {
    uint64_t c, h;
    tabai_u128 s;
    /* triangle a[i] a[j], i < j, at t[1..6] */
    s = (tabai_u128)a[1] * a[0];
    t[1] = (uint64_t)s, c = (uint64_t)(s >> 64);
    s = (tabai_u128)a[2] * a[0] + c;
    t[2] = (uint64_t)s, c = (uint64_t)(s >> 64);
    s = (tabai_u128)a[3] * a[0] + c;
    t[3] = (uint64_t)s, t[4] = (uint64_t)(s >> 64);
    s = (tabai_u128)a[2] * a[1] + t[3];
    t[3] = (uint64_t)s, c = (uint64_t)(s >> 64);
    s = (tabai_u128)a[3] * a[1] + t[4] + c;
    t[4] = (uint64_t)s, t[5] = (uint64_t)(s >> 64);
    s = (tabai_u128)a[3] * a[2] + t[5];
    t[5] = (uint64_t)s, t[6] = (uint64_t)(s >> 64);
    /* doubled */
    t[7] = t[6] >> 63;
    _Pragma("GCC unroll 16")
    for (size_t i = 6; i > 1; i--) t[i] = (t[i] << 1) | (t[i - 1] >> 63);
    t[1] <<= 1;
    /* plus the squares a[i]^2 at t[2i] */
    uint64_t cy = 0, lo;
    h = tabai_mulw(&lo, a[0], a[0]);
    t[0] = lo;
    cy = tabai_adc(&t[1], t[1], h, 0);
    _Pragma("GCC unroll 16")
    for (size_t i = 1; i < 4; i++) {
        h = tabai_mulw(&lo, a[i], a[i]);
        cy = tabai_adc(&t[2 * i], t[2 * i], lo, cy);
        cy = tabai_adc(&t[2 * i + 1], t[2 * i + 1], h, cy);
    }
}

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
    p256_mul_wide(t, a, b);
    p256_redc(r, t);
}
TABAI_INLINE void p256_mont_sqr(uint64_t *r, const uint64_t *a) {
    uint64_t t[8];
    p256_sqr_wide(t, a);
    p256_redc(r, t);
}

#endif
