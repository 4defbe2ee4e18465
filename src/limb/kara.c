/* Karatsuba multiplication and squaring above the fixed sizes (tier generic), onto the
 * fully unrolled fixed-size Comba kernels. The sizes of the default moduli (24, 32, 48
 * and 64 limbs) have their own instances, compiled from the same inline step with a
 * constant n, so that every carry chain is unrolled; other sizes recurse with a runtime n.
 * Constant time: every branch, loop bound and address depends on n only; the signs of the
 * half differences are applied by masks.
 * Source: Karatsuba, Ofman, "Multiplication of multidigit numbers on automata", 1962;
 * the subtractive variant with |a0 - a1| |b1 - b0| as in Knuth, TAOCP vol. 2, 4.3.3. */
#include "limb.h"

#define KARA_UNROLL _Pragma("GCC unroll 64")

/* d[h] = |x[h] - y[m]| (y zero-extended, m <= h); returns 1 if x < y. The difference, then
 * its negation by mask: separate passes, so that each borrow chain stays in the flag. */
TABAI_INLINE uint64_t sub_abs(uint64_t *d, const uint64_t *x, const uint64_t *y, size_t h,
                              size_t m) {
    uint64_t bw = 0;
    KARA_UNROLL for (size_t i = 0; i < h; i++) bw = tabai_sbb(&d[i], x[i], i < m ? y[i] : 0, bw);
    uint64_t mask = tabai_mask(bw), cy = bw;
    KARA_UNROLL for (size_t i = 0; i < h; i++) cy = tabai_adc(&d[i], d[i] ^ mask, 0, cy);
    return bw;
}

/* r[2n] = z0 + (z0 + z2 + s*zm) X + z2 X^2 with X = 2^(64h), where z0 = r[0..2h) and
 * z2 = r[2h..2n) are in place, zm[2h], s = -1 if neg else +1. The middle term is the cross
 * product a0 b1 + a1 b0 >= 0, below 2^(128h+1): one limb above 2h, 0 or 1. */
TABAI_INLINE void kara_combine(uint64_t *r, const uint64_t *zm, uint64_t neg, size_t n,
                               size_t h) {
    size_t l2 = 2 * (n - h);
    uint64_t t[TABAI_MAX_LIMBS + 2];
    uint64_t mask = tabai_mask(neg), cy = 0;
    KARA_UNROLL for (size_t i = 0; i < 2 * h; i++)
        cy = tabai_adc(&t[i], r[i], i < l2 ? r[2 * h + i] : 0, cy);
    uint64_t top = cy;
    cy = neg;
    KARA_UNROLL for (size_t i = 0; i < 2 * h; i++) cy = tabai_adc(&t[i], t[i], zm[i] ^ mask, cy);
    t[2 * h] = top + cy + mask; /* mod 2^64: the sign extension cancels; 0 or 1 */
    TABAI_VERIFY_CHECK(t[2 * h] <= 1);
    cy = 0;
    KARA_UNROLL for (size_t i = 0; i <= 2 * h; i++) cy = tabai_adc(&r[h + i], r[h + i], t[i], cy);
    KARA_UNROLL for (size_t i = 3 * h + 1; i < 2 * n; i++) cy = tabai_adc(&r[i], r[i], 0, cy);
}

/* One Karatsuba step: the two half products by hmul (h = ceil(n/2) limbs) and lmul
 * (n - h limbs). */
TABAI_INLINE void kara_mul_step(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n,
                                tabai_mul_n_fn hmul, tabai_mul_n_fn lmul) {
    size_t h = (n + 1) / 2, l = n - h;
    uint64_t da[TABAI_MAX_LIMBS / 2 + 1], db[TABAI_MAX_LIMBS / 2 + 1], zm[TABAI_MAX_LIMBS + 2];
    /* (a0 - a1)(b1 - b0) = s |a0 - a1| |b1 - b0| */
    uint64_t neg = sub_abs(da, a, a + h, h, l);
    uint64_t b1[TABAI_MAX_LIMBS / 2 + 1];
    KARA_UNROLL for (size_t i = 0; i < h; i++) b1[i] = i < l ? b[h + i] : 0;
    neg ^= sub_abs(db, b1, b, h, h);
    hmul(r, a, b, h);
    lmul(r + 2 * h, a + h, b + h, l);
    hmul(zm, da, db, h);
    kara_combine(r, zm, neg, n, h);
}

TABAI_INLINE void kara_sqr_step(uint64_t *r, const uint64_t *a, size_t n, tabai_sqr_n_fn hsqr,
                                tabai_sqr_n_fn lsqr) {
    size_t h = (n + 1) / 2, l = n - h;
    uint64_t da[TABAI_MAX_LIMBS / 2 + 1], zm[TABAI_MAX_LIMBS + 2];
    (void)sub_abs(da, a, a + h, h, l);
    hsqr(r, a, h);
    lsqr(r + 2 * h, a + h, l);
    hsqr(zm, da, h);
    kara_combine(r, zm, 1, n, h); /* 2 a0 a1 = a0^2 + a1^2 - (a0 - a1)^2 */
}

/* runtime n: recursion down to the fixed sizes */
static void mul_any(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    if (n <= TABAI_FIXED_MAX) tabai_mul_fixed_generic[n](r, a, b, n);
    else kara_mul_step(r, a, b, n, mul_any, mul_any);
}
static void sqr_any(uint64_t *r, const uint64_t *a, size_t n) {
    if (n <= TABAI_FIXED_MAX) tabai_sqr_fixed_generic[n](r, a, n);
    else kara_sqr_step(r, a, n, sqr_any, sqr_any);
}

/* constant-n instances for the sizes of the default moduli, on halves H */
#define KARA_FIXED(N, H)                                                                      \
    static void mul_n##N(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {      \
        (void)n;                                                                              \
        kara_mul_step(r, a, b, N, H##_mul, H##_mul);                                          \
    }                                                                                         \
    static void sqr_n##N(uint64_t *r, const uint64_t *a, size_t n) {                          \
        (void)n;                                                                              \
        kara_sqr_step(r, a, N, H##_sqr, H##_sqr);                                             \
    }
#define n12_mul tabai_mul_n12_generic
#define n12_sqr tabai_sqr_n12_generic
#define n16_mul tabai_mul_n16_generic
#define n16_sqr tabai_sqr_n16_generic
#define n24_mul mul_n24
#define n24_sqr sqr_n24
#define n32_mul mul_n32
#define n32_sqr sqr_n32
KARA_FIXED(24, n12)
KARA_FIXED(32, n16)
KARA_FIXED(48, n24)
KARA_FIXED(64, n32)

void tabai_mul_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS && tabai_verify_disjoint(r, 16 * n, a, 8 * n) &&
                       tabai_verify_disjoint(r, 16 * n, b, 8 * n));
    switch (n) { /* n is public */
    case 24: mul_n24(r, a, b, n); break;
    case 32: mul_n32(r, a, b, n); break;
    case 48: mul_n48(r, a, b, n); break;
    case 64: mul_n64(r, a, b, n); break;
    default: mul_any(r, a, b, n);
    }
}

void tabai_sqr_n_generic(uint64_t *r, const uint64_t *a, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS && tabai_verify_disjoint(r, 16 * n, a, 8 * n));
    switch (n) {
    case 24: sqr_n24(r, a, n); break;
    case 32: sqr_n32(r, a, n); break;
    case 48: sqr_n48(r, a, n); break;
    case 64: sqr_n64(r, a, n); break;
    default: sqr_any(r, a, n);
    }
}
