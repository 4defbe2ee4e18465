/* Field and scalar helpers of src/ec: one call of the tier's kernel each. */
#ifndef TABAI_EC_FIELD_H
#define TABAI_EC_FIELD_H

#include "ec.h"

TABAI_INLINE void fe_mul(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a,
                         const uint64_t *b) {
    m->mul(r, a, b, m->m, m->minv, m->n);
}
TABAI_INLINE void fe_sqr(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a) {
    m->sqr(r, a, m->m, m->minv, m->n);
}
TABAI_INLINE void fe_add(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a,
                         const uint64_t *b) {
    m->add(r, a, b, m->m, m->n);
}
TABAI_INLINE void fe_sub(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a,
                         const uint64_t *b) {
    m->sub(r, a, b, m->m, m->n);
}
/* 1 if a[n] == 0, constant time. */
TABAI_INLINE uint64_t fe_is_zero(const uint64_t *a, size_t n) {
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++) t |= a[i];
    return 1 ^ tabai_nonzero(t);
}
/* 1 if a[n] == b[n], constant time. */
TABAI_INLINE uint64_t fe_eq(const uint64_t *a, const uint64_t *b, size_t n) {
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++) t |= a[i] ^ b[i];
    return 1 ^ tabai_nonzero(t);
}

/* ---- signed windows (Booth recoding, w = 5: digits in [-16, 16]) ---- */
#define TABAI_EC_W 5
#define TABAI_EC_TAB 16 /* 2^(w-1) multiples 1..16 */

/* Bit i of k[n] (0 above the top limb); i is public. */
TABAI_INLINE uint64_t tabai_ec_kbit(const uint64_t *k, size_t n, size_t i) {
    return i / 64 < n ? (k[i / 64] >> (i % 64)) & 1 : 0;
}

/* Digit i of width w (2 <= w <= 8): b(wi-1) + b(wi) + 2 b(wi+1) + ... + 2^(w-2) b(wi+w-2)
 * - 2^(w-1) b(wi+w-1), in [-2^(w-1), 2^(w-1)], as a sign mask and an absolute value, by
 * arithmetic only (k is secret, i and w public). */
TABAI_INLINE void tabai_ec_booth_digit_w(const uint64_t *k, size_t n, size_t i, unsigned w,
                                         uint64_t *neg, uint64_t *abs) {
    size_t pos = w * i;
    int64_t d = (int64_t)(pos ? tabai_ec_kbit(k, n, pos - 1) : 0);
    for (unsigned j = 0; j + 1 < w; j++) d += (int64_t)(tabai_ec_kbit(k, n, pos + j) << j);
    d -= (int64_t)(tabai_ec_kbit(k, n, pos + w - 1) << (w - 1));
    uint64_t s = (uint64_t)(d >> 63);
    *neg = s & 1;
    *abs = ((uint64_t)d ^ s) - s;
}
/* The digit of width 5 (TABAI_EC_W: digits in [-16, 16]). */
TABAI_INLINE void tabai_ec_booth_digit(const uint64_t *k, size_t n, size_t i, uint64_t *neg,
                                       uint64_t *abs) {
    tabai_ec_booth_digit_w(k, n, i, TABAI_EC_W, neg, abs);
}

TABAI_INLINE size_t tabai_ec_booth_windows(size_t qbits) { return qbits / TABAI_EC_W + 1; }

/* ---- regular windows of odd digits (w = 5: every digit odd, in [-31, 31]) ---- */
/* An odd k < 2^(5 m) is sum d_i 2^(5 i) over m windows with d_i = 2 w_i - 31, where w_i is
 * window i (bits 5 i to 5 i + 4) of W = (k + 2^(5 m) - 1) / 2, since k = 2 W - (2^(5 m) - 1)
 * (the regular recoding of M. Joye and M. Tunstall, "Exponent recoding and regular
 * exponentiation algorithms", AFRICACRYPT 2009, in closed form): no digit is zero, so a
 * window never skips its addition. */
TABAI_INLINE size_t tabai_ec_odd_windows(size_t qbits) {
    return (qbits + TABAI_EC_W - 1) / TABAI_EC_W;
}
/* W[n + 1] = (k + 2^(5 m) - 1) / 2 for an odd k[n] < 2^(5 m), m windows with 5 m < 64 (n + 1)
 * (arithmetic only: k is secret, n and m public). */
TABAI_INLINE void tabai_ec_odd_prepare(uint64_t *W, const uint64_t *k, size_t n, size_t m) {
    const size_t bits = TABAI_EC_W * m;
    uint64_t cy = 0;
    for (size_t i = 0; i <= n; i++) {
        const uint64_t ones = 64 * (i + 1) <= bits ? ~(uint64_t)0
                              : 64 * i < bits      ? ((uint64_t)1 << (bits - 64 * i)) - 1
                                                   : 0;
        cy = tabai_adc(&W[i], i < n ? k[i] : 0, ones, cy);
    }
    for (size_t i = 0; i < n; i++) W[i] = (W[i] >> 1) | (W[i + 1] << 63);
    W[n] >>= 1;
}
/* Digit i of W (tabai_ec_odd_prepare) as a sign mask bit and the index of |d_i| in the table of
 * odd multiples 1 P, 3 P, ..., 31 P counted from 1: (|d_i| + 1) / 2, in 1..16. Arithmetic
 * only. */
TABAI_INLINE void tabai_ec_odd_digit(const uint64_t *W, size_t n, size_t i, uint64_t *neg,
                                     uint64_t *idx) {
    uint64_t w = 0;
    for (unsigned j = 0; j < TABAI_EC_W; j++) w |= tabai_ec_kbit(W, n + 1, TABAI_EC_W * i + j) << j;
    const uint64_t hi = w >> 4; /* d_i > 0 */
    *neg = hi ^ 1;
    *idx = ((w - 15) & (0 - hi)) | ((16 - w) & (hi - 1));
}

/* r = a^e (Montgomery form) for a public exponent e of ebits bits; constant time in a. */
void tabai_ec_pow(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a, const uint64_t *e,
                  size_t ebits);

/* s = q - s if s > (q - 1)/2 (the low-S form of a signature's s[n] < q); constant time. */
TABAI_INLINE void tabai_ec_low_s_ct(const tabai_ec_ctx *x, uint64_t *s) {
    size_t n = x->fq.n;
    uint64_t ns[TABAI_EC_LIMBS], zero[TABAI_EC_LIMBS] = {0};
    fe_sub(&x->fq, ns, zero, s);
    tabai_cmov_n(s, tabai_lt_n(x->c->q_half, s, n), ns, s, n);
    tabai_wipe(ns, sizeof ns);
}

/* Inversions in Montgomery form: r = a^-1 R (a R in, so r R^-1 = (a R R^-1)^-1); a = 0 gives
 * 0; r may alias a. The _ct ones are constant time in a; the _vartime ones are for public
 * values only (the s of a signature being verified, the Z of a public point's multiples). */
void tabai_ec_fe_inv_ct(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a);
void tabai_ec_fe_inv_vartime(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a);
void tabai_ec_scalar_inv_ct(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a);
void tabai_ec_scalar_inv_vartime(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a);
/* zr = za^-1 (field) and kr = ka^-1 (scalar) at once, as tabai_ec_fe_inv_ct and
 * tabai_ec_scalar_inv_ct (constant time; zr may alias za, kr ka): the signature's Z of k G
 * and its nonce, their safegcd steps side by side (tabai_modinv2_safegcd). */
void tabai_ec_inv2_ct(const tabai_ec_ctx *x, uint64_t *zr, const uint64_t *za, uint64_t *kr,
                      const uint64_t *ka);

#endif
