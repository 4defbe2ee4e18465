/* The one Karatsuba step of the library, shared by the generic tier (src/limb/kara.c) and the
 * bmi2 drivers (src/x64/big.c): each passes its own half-size multiplier as a pointer. The
 * step's temporaries come from a scratch buffer of kara_step_scratch(n) limbs, so that the
 * same step serves the stack-sized instances (n <= TABAI_MAX_LIMBS) and the heap-sized
 * recursion above them. Constant time: every branch, loop bound and address depends on n
 * only; the signs of the half differences are applied by masks.
 * Source: Karatsuba, Ofman, "Multiplication of multidigit numbers on automata", 1962;
 * the subtractive variant with |a0 - a1| |b1 - b0| as in Knuth, TAOCP vol. 2, 4.3.3. */
#ifndef TABAI_KARA_H
#define TABAI_KARA_H

#include "limb.h"

#define KARA_UNROLL TABAI_UNROLL_BY(64)

/* Limbs of scratch one step on n limbs uses (h = ceil(n/2)): da, db, b1 (h each), zm (2h),
 * the combine's t (2h + 1). */
#define KARA_STEP_SCRATCH(n) (7 * (((n) + 1) / 2) + 1)

/* d[h] = |x[h] - y[m]| (y zero-extended, m <= h); returns 1 if x < y. The difference, then
 * its negation by mask: separate passes, so that each borrow chain stays in the flag. */
TABAI_INLINE uint64_t kara_sub_abs(uint64_t *d, const uint64_t *x, const uint64_t *y, size_t h,
                                   size_t m) {
    uint64_t bw = 0;
    KARA_UNROLL for (size_t i = 0; i < m; i++) bw = tabai_sbb(&d[i], x[i], y[i], bw);
    KARA_UNROLL for (size_t i = m; i < h; i++) bw = tabai_sbb(&d[i], x[i], 0, bw);
    uint64_t mask = tabai_mask(bw), cy = bw;
    KARA_UNROLL for (size_t i = 0; i < h; i++) cy = tabai_adc(&d[i], d[i] ^ mask, 0, cy);
    return bw;
}

/* r[2n] = z0 + (z0 + z2 + s*zm) X + z2 X^2 with X = 2^(64h), where z0 = r[0..2h) and
 * z2 = r[2h..2n) are in place, zm[2h], s = -1 if neg else +1, t[2h+1] scratch. The middle
 * term is the cross product a0 b1 + a1 b0 >= 0, below 2^(128h+1): one limb above 2h, 0 or 1. */
TABAI_INLINE void kara_combine(uint64_t *r, const uint64_t *zm, uint64_t neg, size_t n, size_t h,
                               uint64_t *t) {
    size_t l2 = 2 * (n - h);
    uint64_t mask = tabai_mask(neg), cy = 0;
    KARA_UNROLL for (size_t i = 0; i < l2; i++) cy = tabai_adc(&t[i], r[i], r[2 * h + i], cy);
    KARA_UNROLL for (size_t i = l2; i < 2 * h; i++) cy = tabai_adc(&t[i], r[i], 0, cy);
    uint64_t top = cy;
    cy = neg;
    KARA_UNROLL for (size_t i = 0; i < 2 * h; i++) cy = tabai_adc(&t[i], t[i], zm[i] ^ mask, cy);
    t[2 * h] = top + cy + mask; /* mod 2^64: the sign extension cancels; 0 or 1 */
    TABAI_VERIFY_CHECK(t[2 * h] <= 1);
    cy = 0;
    KARA_UNROLL for (size_t i = 0; i <= 2 * h; i++) cy = tabai_adc(&r[h + i], r[h + i], t[i], cy);
    KARA_UNROLL for (size_t i = 3 * h + 1; i < 2 * n; i++) cy = tabai_adc(&r[i], r[i], 0, cy);
}

/* Parts of one step on n limbs (h = ceil(n/2), l = n - h), for callers whose half products
 * need more than a function pointer (the recursion above TABAI_MAX_LIMBS): kara_mul_pre
 * writes da = |a0 - a1| and db = |b1 - b0| into s and returns the sign of their product;
 * then z0 = a0 b0 into r[0..2h), z2 = a1 b1 into r[2h..2n), zm = da db into kara_zm(s, n);
 * then kara_post. */
TABAI_INLINE uint64_t kara_mul_pre(uint64_t *s, const uint64_t *a, const uint64_t *b, size_t n) {
    size_t h = (n + 1) / 2, l = n - h;
    uint64_t *da = s, *db = s + h, *b1 = s + 2 * h;
    /* (a0 - a1)(b1 - b0) = s |a0 - a1| |b1 - b0| */
    uint64_t neg = kara_sub_abs(da, a, a + h, h, l);
    if (l == h) return neg ^ kara_sub_abs(db, b + h, b, h, h); /* n even (public) */
    KARA_UNROLL for (size_t i = 0; i < h; i++) b1[i] = i < l ? b[h + i] : 0;
    return neg ^ kara_sub_abs(db, b1, b, h, h);
}
TABAI_INLINE uint64_t *kara_da(uint64_t *s) { return s; }
TABAI_INLINE uint64_t *kara_db(uint64_t *s, size_t n) { return s + (n + 1) / 2; }
TABAI_INLINE uint64_t *kara_zm(uint64_t *s, size_t n) { return s + 3 * ((n + 1) / 2); }
TABAI_INLINE void kara_post(uint64_t *r, uint64_t *s, uint64_t neg, size_t n) {
    size_t h = (n + 1) / 2;
    kara_combine(r, s + 3 * h, neg, n, h, s + 5 * h);
}

/* One Karatsuba step: the two half products by hmul (h = ceil(n/2) limbs) and lmul
 * (n - h limbs); s: KARA_STEP_SCRATCH(n) limbs. */
TABAI_INLINE void kara_mul_step_s(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n,
                                  tabai_mul_n_fn hmul, tabai_mul_n_fn lmul, uint64_t *s) {
    size_t h = (n + 1) / 2, l = n - h;
    uint64_t neg = kara_mul_pre(s, a, b, n);
    hmul(r, a, b, h);
    lmul(r + 2 * h, a + h, b + h, l);
    hmul(kara_zm(s, n), kara_da(s), kara_db(s, n), h);
    kara_post(r, s, neg, n);
}

/* Squaring: 2 a0 a1 = a0^2 + a1^2 - (a0 - a1)^2, so zm = da^2 with the sign fixed to -. */
TABAI_INLINE void kara_sqr_pre(uint64_t *s, const uint64_t *a, size_t n) {
    size_t h = (n + 1) / 2;
    (void)kara_sub_abs(s, a, a + h, h, n - h);
}
TABAI_INLINE void kara_sqr_step_s(uint64_t *r, const uint64_t *a, size_t n, tabai_sqr_n_fn hsqr,
                                  tabai_sqr_n_fn lsqr, uint64_t *s) {
    size_t h = (n + 1) / 2;
    kara_sqr_pre(s, a, n);
    hsqr(r, a, h);
    lsqr(r + 2 * h, a + h, n - h);
    hsqr(kara_zm(s, n), kara_da(s), h);
    kara_post(r, s, 1, n);
}

/* The same on stack scratch, for n <= TABAI_MAX_LIMBS. */
TABAI_INLINE void kara_mul_step(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n,
                                tabai_mul_n_fn hmul, tabai_mul_n_fn lmul) {
    TABAI_VERIFY_CHECK(n <= TABAI_MAX_LIMBS);
    uint64_t s[KARA_STEP_SCRATCH(TABAI_MAX_LIMBS)];
    kara_mul_step_s(r, a, b, n, hmul, lmul, s);
}
TABAI_INLINE void kara_sqr_step(uint64_t *r, const uint64_t *a, size_t n, tabai_sqr_n_fn hsqr,
                                tabai_sqr_n_fn lsqr) {
    TABAI_VERIFY_CHECK(n <= TABAI_MAX_LIMBS);
    uint64_t s[KARA_STEP_SCRATCH(TABAI_MAX_LIMBS)];
    kara_sqr_step_s(r, a, n, hsqr, lsqr, s);
}

#endif
