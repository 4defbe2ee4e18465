/* Inline bodies of the portable limb kernels, shared by the src/limb sources and by the portable
 * loops of faster tiers. Invariants: limbs are uint64_t, least significant first; every
 * body is constant time (no branch or address depends on limb values). */
#ifndef TABAI_LIMB_H
#define TABAI_LIMB_H

#include "../cpu/ktypes.h"
#include "../internal.h"

/* Unroll factor of the product-scanning loops: at least the 2n - 1 <= 31 columns of the
 * largest fixed size, so that the fixed-size instances (n <= 16) come out fully unrolled,
 * every column with its own straight-line code and no loop exits (about 1.4x faster than
 * unrolling by 8 at n = 16). */
#define TABAI_UNROLL TABAI_UNROLL_BY(32)

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

/* A three-limb column accumulator (acc + c2 * 2^128) for product scanning. */
typedef struct tabai_acc3 {
    tabai_u128 lo;
    uint64_t hi;
} tabai_acc3;

TABAI_INLINE void tabai_acc3_mac(tabai_acc3 *acc, uint64_t x, uint64_t y) {
    tabai_u128 pr = (tabai_u128)x * y;
    acc->hi += (uint64_t)__builtin_add_overflow(acc->lo, pr, &acc->lo);
}
/* Emit the low limb and shift the accumulator down by one limb. */
TABAI_INLINE uint64_t tabai_acc3_shift(tabai_acc3 *acc) {
    uint64_t out = (uint64_t)acc->lo;
    acc->lo = (acc->lo >> 64) | ((tabai_u128)acc->hi << 64);
    acc->hi = 0;
    return out;
}

/* r[2n] = a[n]*b[n], product scanning (Comba): each column summed in registers. r must not
 * overlap a or b. */
TABAI_INLINE void tabai_mul_n_inline(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && tabai_verify_disjoint(r, 16 * n, a, 8 * n) &&
                       tabai_verify_disjoint(r, 16 * n, b, 8 * n));
    tabai_acc3 acc = {0, 0};
    TABAI_UNROLL for (size_t c = 0; c < 2 * n - 1; c++) {
        size_t i0 = c >= n ? c - n + 1 : 0, i1 = c < n ? c : n - 1;
        TABAI_UNROLL for (size_t i = i0; i <= i1; i++) tabai_acc3_mac(&acc, a[i], b[c - i]);
        r[c] = tabai_acc3_shift(&acc);
    }
    r[2 * n - 1] = (uint64_t)acc.lo;
}

/* r[2n] = a[n]^2, product scanning: per column the off-diagonal products once, doubled,
 * plus the diagonal. r must not overlap a. */
TABAI_INLINE void tabai_sqr_inline(uint64_t *r, const uint64_t *a, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && tabai_verify_disjoint(r, 16 * n, a, 8 * n));
    tabai_acc3 acc = {0, 0};
    TABAI_UNROLL for (size_t c = 0; c < 2 * n - 1; c++) {
        size_t i0 = c >= n ? c - n + 1 : 0;
        tabai_acc3 off = {0, 0};
        TABAI_UNROLL for (size_t i = i0; 2 * i < c; i++) tabai_acc3_mac(&off, a[i], a[c - i]);
        uint64_t offhi = (off.hi << 1) | (uint64_t)(off.lo >> 127);
        off.lo <<= 1;
        acc.hi += offhi + (uint64_t)__builtin_add_overflow(acc.lo, off.lo, &acc.lo);
        if (!(c & 1)) tabai_acc3_mac(&acc, a[c / 2], a[c / 2]); /* c is public */
        r[c] = tabai_acc3_shift(&acc);
    }
    r[2 * n - 1] = (uint64_t)acc.lo;
}

/* Final step of the product-scanning Montgomery kernels: t[n] + top*R < 2p -> r < p. */
TABAI_INLINE void tabai_mont_final_sub(uint64_t *r, const uint64_t *t, uint64_t top,
                                       const uint64_t *p, size_t n) {
    uint64_t d[TABAI_MAX_LIMBS];
    uint64_t bw = 0;
    for (size_t j = 0; j < n; j++) bw = tabai_sbb(&d[j], t[j], p[j], bw);
    uint64_t keep_t = (1 ^ top) & bw; /* t < p exactly when no top limb and a borrow */
    /* top*R + t < 2p: below p (no top, a borrow), or top == borrow and t - p < p */
    TABAI_VERIFY_CHECK(top <= 1 && top <= bw && (keep_t || tabai_lt_n(d, p, n)));
    tabai_cmov_n(r, keep_t, t, d, n);
    TABAI_VERIFY_CHECK(tabai_lt_n(r, p, n));
}

/* acc += x */
TABAI_INLINE void tabai_acc3_add(tabai_acc3 *acc, uint64_t x) {
    acc->hi += (uint64_t)__builtin_add_overflow(acc->lo, (tabai_u128)x, &acc->lo);
}

/* One block of Montgomery reduction, fused product scanning over p[0..w): chooses the w
 * quotient limbs q[w] (q_k = column_k * pinv mod 2^64) that zero t[0..w), adds q*p[0..w)
 * into t[0..2w), writes t[w..2w) and returns the carry out of t[2w-1] (the caller adds it
 * at t[2w]). t[0..w) is left stale (logically zero). */
TABAI_INLINE uint64_t tabai_redc_block_inline(uint64_t *t, uint64_t *q, const uint64_t *p,
                                              uint64_t pinv, size_t w) {
    tabai_acc3 acc = {0, 0};
    TABAI_UNROLL for (size_t k = 0; k < w; k++) {
        tabai_acc3_add(&acc, t[k]);
        TABAI_UNROLL for (size_t i = 0; i < k; i++) tabai_acc3_mac(&acc, q[i], p[k - i]);
        uint64_t qk = (uint64_t)acc.lo * pinv;
        q[k] = qk;
        tabai_acc3_mac(&acc, qk, p[0]);
        tabai_acc3_shift(&acc);
    }
    TABAI_UNROLL for (size_t k = w; k < 2 * w - 1; k++) {
        tabai_acc3_add(&acc, t[k]);
        TABAI_UNROLL for (size_t i = k - w + 1; i < w; i++) tabai_acc3_mac(&acc, q[i], p[k - i]);
        t[k] = tabai_acc3_shift(&acc);
    }
    tabai_acc3_add(&acc, t[2 * w - 1]);
    t[2 * w - 1] = tabai_acc3_shift(&acc);
    return (uint64_t)acc.lo;
}

/* Montgomery product, product scanning with the reduction interleaved per column (FIPS,
 * Koc-Acar-Kaliski 1996): column k sums a_i b_(k-i) and m_i p_(k-i) in a three-limb
 * accumulator; for k < n the quotient digit m_k = acc * pinv mod 2^64 zeroes the column.
 * Keeps each partial sum in registers, which the C compiler handles far better than the
 * carry chains of CIOS. r[n] = a*b*2^(-64n) mod p; a, b < p in, r < p out. The result
 * before the final subtraction is < 2p. r may alias a or b (written at the end). */
TABAI_INLINE void tabai_mont_mul_inline(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                        const uint64_t *p, uint64_t pinv, size_t n) {
    TABAI_VERIFY_CHECK(tabai_verify_mont_modulus(p, pinv, n));
    TABAI_VERIFY_CHECK(tabai_lt_n(a, p, n) && tabai_lt_n(b, p, n));
    TABAI_VERIFY_CHECK(tabai_verify_same_or_disjoint(r, n, a, n) &&
                       tabai_verify_same_or_disjoint(r, n, b, n));
    uint64_t m[TABAI_MAX_LIMBS], t[TABAI_MAX_LIMBS];
    tabai_acc3 acc = {0, 0};
    TABAI_UNROLL for (size_t k = 0; k < n; k++) {
        TABAI_UNROLL for (size_t i = 0; i < k; i++) {
            tabai_acc3_mac(&acc, a[i], b[k - i]);
            tabai_acc3_mac(&acc, m[i], p[k - i]);
        }
        tabai_acc3_mac(&acc, a[k], b[0]);
        uint64_t mk = (uint64_t)acc.lo * pinv;
        m[k] = mk;
        tabai_acc3_mac(&acc, mk, p[0]);
        tabai_acc3_shift(&acc);
    }
    TABAI_UNROLL for (size_t k = n; k < 2 * n - 1; k++) {
        TABAI_UNROLL for (size_t i = k - n + 1; i < n; i++) {
            tabai_acc3_mac(&acc, a[i], b[k - i]);
            tabai_acc3_mac(&acc, m[i], p[k - i]);
        }
        t[k - n] = tabai_acc3_shift(&acc);
    }
    t[n - 1] = (uint64_t)acc.lo;
    tabai_mont_final_sub(r, t, (uint64_t)(acc.lo >> 64), p, n);
}

/* Montgomery square, product scanning: per column the off-diagonal products once, doubled,
 * plus the diagonal, plus the interleaved reduction as in tabai_mont_mul_inline.
 * About 1.5 n^2 limb products instead of 2 n^2. r may alias a. */
TABAI_INLINE void tabai_mont_sqr_inline(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                        uint64_t pinv, size_t n) {
    TABAI_VERIFY_CHECK(tabai_verify_mont_modulus(p, pinv, n) && tabai_lt_n(a, p, n));
    TABAI_VERIFY_CHECK(tabai_verify_same_or_disjoint(r, n, a, n));
    uint64_t m[TABAI_MAX_LIMBS], t[TABAI_MAX_LIMBS];
    tabai_acc3 acc = {0, 0};
    TABAI_UNROLL for (size_t k = 0; k < 2 * n - 1; k++) {
        size_t lo = k < n ? 0 : k - n + 1;
        tabai_acc3 off = {0, 0};
        TABAI_UNROLL for (size_t i = lo; 2 * i < k; i++) tabai_acc3_mac(&off, a[i], a[k - i]);
        /* acc += 2*off */
        uint64_t offhi = (off.hi << 1) | (uint64_t)(off.lo >> 127);
        off.lo <<= 1;
        acc.hi += offhi + (uint64_t)__builtin_add_overflow(acc.lo, off.lo, &acc.lo);
        if (!(k & 1)) tabai_acc3_mac(&acc, a[k / 2], a[k / 2]); /* k is public */
        size_t mhi = k < n ? k : n;
        TABAI_UNROLL for (size_t i = lo; i < mhi; i++) tabai_acc3_mac(&acc, m[i], p[k - i]);
        if (k < n) {
            uint64_t mk = (uint64_t)acc.lo * pinv;
            m[k] = mk;
            tabai_acc3_mac(&acc, mk, p[0]);
            tabai_acc3_shift(&acc);
        } else {
            t[k - n] = tabai_acc3_shift(&acc);
        }
    }
    t[n - 1] = (uint64_t)acc.lo;
    tabai_mont_final_sub(r, t, (uint64_t)(acc.lo >> 64), p, n);
}

/* r = a + b mod p (a, b < p). Any aliasing. */
TABAI_INLINE void tabai_mod_add_inline(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                       const uint64_t *p, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS && tabai_lt_n(a, p, n) && tabai_lt_n(b, p, n));
    TABAI_VERIFY_CHECK(tabai_verify_same_or_disjoint(r, n, a, n) &&
                       tabai_verify_same_or_disjoint(r, n, b, n));
    uint64_t t[TABAI_MAX_LIMBS], s[TABAI_MAX_LIMBS];
    uint64_t cy = 0, bw = 0;
    for (size_t i = 0; i < n; i++) cy = tabai_adc(&t[i], a[i], b[i], cy);
    for (size_t i = 0; i < n; i++) bw = tabai_sbb(&s[i], t[i], p[i], bw);
    tabai_cmov_n(r, (1 ^ cy) & bw, t, s, n);
    TABAI_VERIFY_CHECK(tabai_lt_n(r, p, n));
}

/* r = a - b mod p (a, b < p). Any aliasing. */
TABAI_INLINE void tabai_mod_sub_inline(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                       const uint64_t *p, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS && tabai_lt_n(a, p, n) && tabai_lt_n(b, p, n));
    TABAI_VERIFY_CHECK(tabai_verify_same_or_disjoint(r, n, a, n) &&
                       tabai_verify_same_or_disjoint(r, n, b, n));
    uint64_t t[TABAI_MAX_LIMBS];
    uint64_t bw = 0, cy = 0;
    for (size_t i = 0; i < n; i++) bw = tabai_sbb(&t[i], a[i], b[i], bw);
    uint64_t m = tabai_mask(bw);
    for (size_t i = 0; i < n; i++) cy = tabai_adc(&r[i], t[i], p[i] & m, cy);
    TABAI_VERIFY_CHECK(tabai_lt_n(r, p, n));
}

/* the generic tier's any-n kernels (src/limb/, the slots 0 of the generic table) */
uint64_t tabai_add_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
uint64_t tabai_sub_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
uint64_t tabai_mul_1_n_generic(uint64_t *r, const uint64_t *a, size_t n, uint64_t b);
uint64_t tabai_addmul_1_n_generic(uint64_t *r, const uint64_t *a, size_t n, uint64_t b);
void tabai_mul_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_sqr_n_generic(uint64_t *r, const uint64_t *a, size_t n);
void tabai_mont_mul_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                              uint64_t pinv, size_t n);
void tabai_mont_sqr_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv,
                              size_t n);
void tabai_mod_add_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             size_t n);
void tabai_mod_sub_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             size_t n);

/* the fixed-size generic instances by size (index 1..16; src/limb/limb.c) */
extern const tabai_mul_n_fn tabai_mul_fixed_generic[TABAI_FIXED_MAX + 1];
extern const tabai_sqr_n_fn tabai_sqr_fixed_generic[TABAI_FIXED_MAX + 1];

/* r[n] = t[2n+1] * 2^(-64n) mod p for t < p * 2^(64n), t[2n] = 0 on entry; t is destroyed
 * (Montgomery REDC). In blocks of up to 16 quotient limbs: each block one fused
 * product-scanning pass over p[0..w) (the quotient limbs and the w x w part), then the
 * block's product with the rest of p by the fixed w x w Comba kernel (src/limb/redc.c).
 * Final subtraction by masks: r < p. Constant time. */
void tabai_redc_blocks(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv, size_t n);

/* Raw products above TABAI_MAX_LIMBS (src/limb/kara.c): Karatsuba steps down to the kernels
 * of table k (n <= TABAI_MAX_LIMBS), their temporaries carved from one heap buffer of
 * tabai_kara_scratch_limbs(n) limbs (about 7n), wiped and freed before returning. If that
 * allocation fails they fall back to rows of k's mul_1 / addmul_1, which need no scratch:
 * the same result, slower. Constant time in the operands (the fallback depends on the
 * allocator only). r[2n] must not overlap a or b. */
size_t tabai_kara_scratch_limbs(size_t n);
void tabai_mul_n_big(const tabai_kernels *k, uint64_t *r, const uint64_t *a, const uint64_t *b,
                     size_t n);
void tabai_sqr_n_big(const tabai_kernels *k, uint64_t *r, const uint64_t *a, size_t n);

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
