/* Inline bodies of the portable limb kernels, shared by the src/limb sources and by the portable
 * loops of faster tiers. Invariants: limbs are uint64_t, least significant first; every
 * body is constant time (no branch or address depends on limb values). */
#ifndef TABAI_LIMB_H
#define TABAI_LIMB_H

#include "../cpu/kernels.h"
#include "../internal.h"

/* X-macro over the fixed sizes 1..16. */
#define TABAI_FOR_FIXED(X) \
    X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)

/* r[n] = a[n]*b; returns the high limb. r may equal a. */
TABAI_INLINE uint64_t tabai_mul_1_inline(uint64_t *r, const uint64_t *a, size_t n, uint64_t b) {
    uint64_t cy = 0;
    for (size_t i = 0; i < n; i++) {
        tabai_u128 t = (tabai_u128)a[i] * b + cy;
        r[i] = (uint64_t)t;
        cy = (uint64_t)(t >> 64);
    }
    return cy;
}

/* r[n] += a[n]*b; returns the high limb. */
TABAI_INLINE uint64_t tabai_addmul_1_inline(uint64_t *r, const uint64_t *a, size_t n, uint64_t b) {
    uint64_t cy = 0;
    for (size_t i = 0; i < n; i++) {
        tabai_u128 t = (tabai_u128)a[i] * b + r[i] + cy;
        r[i] = (uint64_t)t;
        cy = (uint64_t)(t >> 64);
    }
    return cy;
}

/* r[an+bn] = a[an]*b[bn], schoolbook by rows. r must not overlap a or b. */
TABAI_INLINE void tabai_mul_inline(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *b,
                                   size_t bn) {
    r[an] = tabai_mul_1_inline(r, a, an, b[0]);
    for (size_t j = 1; j < bn; j++) r[an + j] = tabai_addmul_1_inline(r + j, a, an, b[j]);
}

/* r[2n] = a[n]^2: off-diagonal products once, doubled, plus the diagonal. */
TABAI_INLINE void tabai_sqr_inline(uint64_t *r, const uint64_t *a, size_t n) {
    if (n == 1) {
        r[1] = tabai_mulw(&r[0], a[0], a[0]);
        return;
    }
    /* off-diagonal: sum_{i<j} a_i a_j 2^(64(i+j)) into r[1 .. 2n-2] */
    r[0] = 0;
    r[n] = tabai_mul_1_inline(r + 1, a + 1, n - 1, a[0]);
    for (size_t i = 1; i < n - 1; i++)
        r[n + i] = tabai_addmul_1_inline(r + 2 * i + 1, a + i + 1, n - 1 - i, a[i]);
    r[2 * n - 1] = 0;
    /* double */
    uint64_t top = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        uint64_t x = r[i];
        r[i] = (x << 1) | top;
        top = x >> 63;
    }
    /* add the diagonal */
    uint64_t cy = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t lo, hi = tabai_mulw(&lo, a[i], a[i]);
        cy = tabai_adc(&r[2 * i], r[2 * i], lo, cy);
        cy = tabai_adc(&r[2 * i + 1], r[2 * i + 1], hi, cy);
    }
}

/* Montgomery product, CIOS: r[n] = a*b*2^(-64n) mod p, a, b < p in, r < p out.
 * r may alias a or b (the result is written at the end). */
TABAI_INLINE void tabai_mont_mul_inline(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                        const uint64_t *p, uint64_t pinv, size_t n) {
    uint64_t t[TABAI_MAX_LIMBS + 2];
    for (size_t j = 0; j < n + 2; j++) t[j] = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t cy = 0;
        uint64_t bi = b[i];
        for (size_t j = 0; j < n; j++) {
            tabai_u128 s = (tabai_u128)a[j] * bi + t[j] + cy;
            t[j] = (uint64_t)s;
            cy = (uint64_t)(s >> 64);
        }
        uint64_t c2 = tabai_adc(&t[n], t[n], cy, 0);
        t[n + 1] = c2;
        uint64_t m = t[0] * pinv;
        tabai_u128 s = (tabai_u128)m * p[0] + t[0];
        cy = (uint64_t)(s >> 64);
        for (size_t j = 1; j < n; j++) {
            s = (tabai_u128)m * p[j] + t[j] + cy;
            t[j - 1] = (uint64_t)s;
            cy = (uint64_t)(s >> 64);
        }
        cy = tabai_adc(&t[n - 1], t[n], cy, 0);
        t[n] = t[n + 1] + cy;
    }
    /* t < 2p: subtract p if t >= p, by masks */
    uint64_t s[TABAI_MAX_LIMBS];
    uint64_t bw = 0;
    for (size_t j = 0; j < n; j++) bw = tabai_sbb(&s[j], t[j], p[j], bw);
    uint64_t keep_t = (1 ^ t[n]) & bw; /* t < p exactly when no top limb and a borrow */
    tabai_cmov_n(r, keep_t, t, s, n);
}

/* Montgomery REDC of t[2n] (t < p*R) with the top carry: r[n] = t*R^-1 mod p.
 * t is destroyed. */
TABAI_INLINE void tabai_redc_inline(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv,
                                    size_t n) {
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t m = t[i] * pinv;
        uint64_t hi = tabai_addmul_1_inline(t + i, p, n, m);
        uint64_t c1 = tabai_adc(&t[i + n], t[i + n], hi, 0);
        uint64_t c2 = tabai_adc(&t[i + n], t[i + n], c, 0);
        c = c1 + c2;
    }
    uint64_t s[TABAI_MAX_LIMBS];
    uint64_t bw = 0;
    for (size_t j = 0; j < n; j++) bw = tabai_sbb(&s[j], t[n + j], p[j], bw);
    uint64_t keep_t = (1 ^ c) & bw;
    tabai_cmov_n(r, keep_t, t + n, s, n);
}

/* r = a + b mod p (a, b < p). Any aliasing. */
TABAI_INLINE void tabai_mod_add_inline(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                       const uint64_t *p, size_t n) {
    uint64_t t[TABAI_MAX_LIMBS], s[TABAI_MAX_LIMBS];
    uint64_t cy = 0, bw = 0;
    for (size_t i = 0; i < n; i++) cy = tabai_adc(&t[i], a[i], b[i], cy);
    for (size_t i = 0; i < n; i++) bw = tabai_sbb(&s[i], t[i], p[i], bw);
    tabai_cmov_n(r, (1 ^ cy) & bw, t, s, n);
}

/* r = a - b mod p (a, b < p). Any aliasing. */
TABAI_INLINE void tabai_mod_sub_inline(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                       const uint64_t *p, size_t n) {
    uint64_t t[TABAI_MAX_LIMBS];
    uint64_t bw = 0, cy = 0;
    for (size_t i = 0; i < n; i++) bw = tabai_sbb(&t[i], a[i], b[i], bw);
    uint64_t m = tabai_mask(bw);
    for (size_t i = 0; i < n; i++) cy = tabai_adc(&r[i], t[i], p[i] & m, cy);
}

/* fixed-size generic instances (src/limb/limb.c, src/limb/redc.c) */
#define TABAI_DECL_FIXED(N)                                                                    \
    void tabai_mul_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n); \
    void tabai_sqr_n##N##_generic(uint64_t *r, const uint64_t *a, size_t n);                    \
    void tabai_mont_mul_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,       \
                                       const uint64_t *p, uint64_t pinv, size_t n);            \
    void tabai_mont_sqr_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *p,       \
                                       uint64_t pinv, size_t n);                               \
    void tabai_mod_add_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,        \
                                      const uint64_t *p, size_t n);                            \
    void tabai_mod_sub_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,        \
                                      const uint64_t *p, size_t n);
TABAI_FOR_FIXED(TABAI_DECL_FIXED)

#endif
