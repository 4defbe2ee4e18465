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

/* r[n] = h[2n] mod p, for h < p*R. Constant time. */
static void ohta_reduce(const tabai_ohta *ctx, uint64_t *r, const uint64_t *h) {
    const size_t n = ctx->n;
    const uint64_t *k = ctx->k, *p = ctx->p;
    const tabai_kernels *kt = tabai_kernels_active();
    /* T = columns >= 2n-2 of h[2n] * k[n+1]; buffer position 0 = limb column 2n-2.
     * Columns reach 3n (+ carries): n+4 limbs. */
    uint64_t t[TABAI_MAX_LIMBS + 4];
    const size_t base = 2 * n - 2, tl = n + 4;
    for (size_t i = 0; i < tl; i++) t[i] = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        size_t j0 = base > i ? base - i : 0;
        if (j0 > n) continue; /* the whole row is below column 2n-2 (depends on n only) */
        size_t pos = i + j0 - base, len = n + 1 - j0;
        uint64_t hi = kt->addmul_1(t + pos, k + j0, len, h[i]);
        uint64_t cy = tabai_adc(&t[pos + len], t[pos + len], hi, 0);
        for (size_t q = pos + len + 1; q < tl; q++) cy = tabai_adc(&t[q], t[q], 0, cy);
    }
    /* d = floor(T / R^2) = limbs from column 2n on: t[2 .. n+1] (d < p < R, n limbs) */
    const uint64_t *d = t + 2;
    /* dp = low n+1 limbs of d*p */
    uint64_t dp[TABAI_MAX_LIMBS + 1];
    for (size_t i = 0; i <= n; i++) dp[i] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = n + 1 - i < n ? n + 1 - i : n; /* p limbs that land below column n+1 */
        uint64_t hi = kt->addmul_1(dp + i, p, len, d[i]);
        if (i + len <= n) dp[i + len] += hi; /* column i+len <= n: no further carry needed */
    }
    /* f = h - d*p on n+1 limbs; f < 3p */
    uint64_t f[TABAI_MAX_LIMBS + 1], s[TABAI_MAX_LIMBS + 1];
    uint64_t bw = 0;
    for (size_t i = 0; i <= n; i++) bw = tabai_sbb(&f[i], h[i], dp[i], bw);
    for (int round = 0; round < 2; round++) {
        bw = 0;
        for (size_t i = 0; i <= n; i++) bw = tabai_sbb(&s[i], f[i], i < n ? p[i] : 0, bw);
        tabai_cmov_n(f, bw, f, s, n + 1);
    }
    memcpy(r, f, n * sizeof(uint64_t));
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
