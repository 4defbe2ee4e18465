/* 4-limb products in portable C for the 256-bit fields of src/ec (p256_field.h,
 * secp256k1_field.h): 128-bit multiplications, loops unrolled by pragma so that the limbs
 * stay in registers. */
#ifndef TABAI_EC_FE4_H
#define TABAI_EC_FE4_H

#include "../internal.h"

/* t[8] = a[4] b[4], schoolbook rows. */
TABAI_INLINE void fe4_mul_wide(uint64_t *t, const uint64_t *a, const uint64_t *b) {
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
TABAI_INLINE void fe4_sqr_wide(uint64_t *t, const uint64_t *a) {
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

#endif
