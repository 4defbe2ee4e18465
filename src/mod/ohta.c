/* Ohta modular multiplication (seed 003, Algorithm 3), a Barrett-like reduction.
 *
 * R = 2^(64n) with n the limb length of p, K = floor(R^2 / p) (n+1 limbs, since
 * p >= 2^(64(n-1))). For H = a*b < p^2 (or any H < p*R):
 *   q  = floor(H / p), d0 = floor(H*K / R^2):  q - d0 in {0, 1}, because
 *        H/p - H*K/R^2 = H*(R^2/p - K)/R^2 < H/R^2 < 1;
 *   d  = floor(T / R^2) where T is H*K without the columns below 2n-2 (limb columns):
 *        the dropped part is < (n+1) 2^(64(2n-1)) < R^2, so d0 - d in {0, 1};
 *   f  = H - d*p lies in [0, 3p), computed on the low n+1 limbs (3p < 2^(64n+2));
 *   two subtractions of p by masks give r = H mod p.
 * docs/bounds/ohta.md has the derivation; tests/c/test_ohta.c the worst cases. */
#include "../limb/limb.h"
#include "mod.h"

/* K = floor(2^(128n) / p) by restoring binary division (init only; p is public). */
static void ohta_constant(uint64_t *k, const uint64_t *p, size_t n) {
    uint64_t rem[TABAI_MAX_LIMBS + 1] = {0};
    for (size_t i = 0; i <= n; i++) k[i] = 0;
    /* dividend bits from 128n down to 0: only bit 128n is set */
    for (size_t bit = 128 * n + 1; bit-- > 0;) {
        uint64_t top = 0;
        for (size_t i = 0; i <= n; i++) {
            uint64_t x = rem[i];
            rem[i] = (x << 1) | top;
            top = x >> 63;
        }
        if (bit == 128 * n) rem[0] |= 1;
        /* rem < 2p < 2^(64n+1) fits n+1 limbs; subtract p if rem >= p */
        uint64_t t[TABAI_MAX_LIMBS + 1], bw = 0;
        for (size_t i = 0; i <= n; i++) bw = tabai_sbb(&t[i], rem[i], i < n ? p[i] : 0, bw);
        if (!bw) {
            memcpy(rem, t, (n + 1) * sizeof(uint64_t));
            if (bit < 64 * (n + 1)) k[bit / 64] |= (uint64_t)1 << (bit % 64);
            else /* only p = 2^(64(n-1)): K = 2^(64(n+1)) does not fit n+1 limbs; K-1 (all
                  * ones) keeps the bound, H/p - H(K-1)/R^2 = H/R^2 < 1 */
                for (size_t i = 0; i <= n; i++) k[i] = ~(uint64_t)0;
        }
    }
}

tabai_status tabai_ohta_init(tabai_ohta *ctx, const uint64_t *p, size_t n) {
    if (!ctx || !p) return TABAI_ERR_NULL;
    if (n == 0) return TABAI_ERR_SIZE;
    size_t len = tabai_normalized_len_vartime(p, n);
    if (len > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    if (len == 0 || (len == 1 && p[0] < 2)) return TABAI_ERR_MODULUS;
    tabai_ohta c;
    memset(&c, 0, sizeof c);
    c.n = len;
    memcpy(c.p, p, len * sizeof(uint64_t));
    c.bits = tabai_bitlen_vartime(p, len);
    c.tier = (int)tabai_cpu_tier();
    ohta_constant(c.k, p, len);
    *ctx = c;
    return TABAI_OK;
}

tabai_status tabai_ohta_init_bytes(tabai_ohta *ctx, const uint8_t *be, size_t len) {
    if (!ctx || !be) return TABAI_ERR_NULL;
    uint64_t p[TABAI_MAX_LIMBS];
    size_t skip = 0;
    while (skip < len && be[skip] == 0) skip++;
    if (len == skip) return TABAI_ERR_MODULUS;
    size_t n = (len - skip + 7) / 8;
    if (n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    tabai_from_bytes(p, n, be + skip, len - skip);
    return tabai_ohta_init(ctx, p, n);
}

/* r[n] = h[2n] mod p, for h < p*R. Constant time. Product scanning (column sums in a
 * three-limb accumulator, as the generic Montgomery kernels):
 *   1. T = columns >= 2n-2 of h[2n] * k[n+1]; d = floor(T / R^2) = columns 2n .. 3n-1;
 *   2. the low n+1 limbs of d*p;
 *   3. f = h - d*p on n+1 limbs (f < 3p), then two subtractions of p by masks. */
TABAI_INLINE void ohta_reduce_inline(const uint64_t *k, const uint64_t *p, uint64_t *r,
                                     const uint64_t *h, size_t n) {
    uint64_t d[TABAI_MAX_LIMBS + 2], dp[TABAI_MAX_LIMBS + 1];
    tabai_acc3 acc = {0, 0};
    TABAI_UNROLL for (size_t c = 2 * n - 2; c < 3 * n; c++) {
        size_t j0 = c >= 2 * n - 1 ? c - (2 * n - 1) : 0; /* i = c - j < 2n */
        size_t j1 = c < n ? c : n;                         /* j <= n */
        TABAI_UNROLL for (size_t j = j0; j <= j1; j++) tabai_acc3_mac(&acc, h[c - j], k[j]);
        uint64_t out = tabai_acc3_shift(&acc);
        if (c >= 2 * n) d[c - 2 * n] = out; /* c is public */
    }
    acc.lo = 0;
    acc.hi = 0;
    TABAI_UNROLL for (size_t c = 0; c <= n; c++) {
        size_t i0 = c >= n ? c - n + 1 : 0; /* j = c - i < n */
        size_t i1 = c < n ? c : n - 1;
        TABAI_UNROLL for (size_t i = i0; i <= i1; i++) tabai_acc3_mac(&acc, d[i], p[c - i]);
        dp[c] = tabai_acc3_shift(&acc);
    }
    uint64_t f[TABAI_MAX_LIMBS + 1], s[TABAI_MAX_LIMBS + 1];
    uint64_t bw = 0;
    for (size_t i = 0; i <= n; i++) bw = tabai_sbb(&f[i], h[i], dp[i], bw);
    for (int round = 0; round < 2; round++) {
        bw = 0;
        for (size_t i = 0; i < n; i++) bw = tabai_sbb(&s[i], f[i], p[i], bw);
        bw = tabai_sbb(&s[n], f[n], 0, bw);
        tabai_cmov_n(f, bw, f, s, n + 1);
    }
    memcpy(r, f, n * sizeof(uint64_t));
}

typedef void (*ohta_reduce_fn)(const uint64_t *k, const uint64_t *p, uint64_t *r,
                               const uint64_t *h, size_t n);

static void ohta_reduce_n(const uint64_t *k, const uint64_t *p, uint64_t *r, const uint64_t *h,
                          size_t n) {
    ohta_reduce_inline(k, p, r, h, n);
}
#define X(N)                                                                                  \
    static void ohta_reduce_n##N(const uint64_t *k, const uint64_t *p, uint64_t *r,           \
                                 const uint64_t *h, size_t n) {                               \
        (void)n;                                                                              \
        ohta_reduce_inline(k, p, r, h, N);                                                    \
    }
TABAI_FOR_FIXED(X)
#undef X
#define X(N) ohta_reduce_n##N,
static const ohta_reduce_fn ohta_reduce_slots[TABAI_FIXED_MAX + 1] = {ohta_reduce_n,
                                                                      TABAI_FOR_FIXED(X)};
#undef X

static void ohta_reduce(const tabai_ohta *ctx, uint64_t *r, const uint64_t *h) {
    ohta_reduce_slots[tabai_slot(ctx->n)](ctx->k, ctx->p, r, h, ctx->n);
}

void tabai_ohta_mul_unchecked(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                              const uint64_t *b) {
    uint64_t h[2 * TABAI_MAX_LIMBS];
    tabai_kernels_active()->mul[tabai_slot(ctx->n)](h, a, b, ctx->n);
    ohta_reduce(ctx, r, h);
}

void tabai_ohta_sqr_unchecked(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a) {
    uint64_t h[2 * TABAI_MAX_LIMBS];
    tabai_kernels_active()->sqr[tabai_slot(ctx->n)](h, a, ctx->n);
    ohta_reduce(ctx, r, h);
}

tabai_status tabai_ohta_mul(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    if (!ctx || !r || !a || !b) return TABAI_ERR_NULL;
    if (!(tabai_lt_n(a, ctx->p, ctx->n) & tabai_lt_n(b, ctx->p, ctx->n))) return TABAI_ERR_RANGE;
    tabai_ohta_mul_unchecked(ctx, r, a, b);
    return TABAI_OK;
}

tabai_status tabai_ohta_sqr(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a) {
    if (!ctx || !r || !a) return TABAI_ERR_NULL;
    if (!tabai_lt_n(a, ctx->p, ctx->n)) return TABAI_ERR_RANGE;
    tabai_ohta_sqr_unchecked(ctx, r, a);
    return TABAI_OK;
}

tabai_status tabai_ohta_reduce(const tabai_ohta *ctx, uint64_t *r, const uint64_t *x) {
    if (!ctx || !r || !x) return TABAI_ERR_NULL;
    /* x < p*R  <=>  high half of x < p */
    if (!tabai_lt_n(x + ctx->n, ctx->p, ctx->n)) return TABAI_ERR_RANGE;
    ohta_reduce(ctx, r, x);
    return TABAI_OK;
}
