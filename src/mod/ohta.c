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

/* K = floor(2^(128n) / p) by schoolbook long division in base 2^64 (Knuth, TAOCP vol. 2,
 * 4.3.1, Algorithm D): p shifted so that its top bit is set, a quotient limb estimated from
 * the top two limbs of the remainder, corrected with the next limb (at most twice), and
 * added back once in the rare case the estimate is still one too large. Init only; p is
 * public, so this is variable time. */
static void ohta_constant(uint64_t *k, const uint64_t *p, size_t n) {
    if (n == 1) { /* 2^128 / p0 from (2^128 - 1) / p0, p0 >= 2 */
        tabai_u128 m = ~(tabai_u128)0, qt = m / p[0];
        if (m % p[0] == p[0] - 1) qt++;
        k[0] = (uint64_t)qt, k[1] = (uint64_t)(qt >> 64);
        return;
    }
    int sh = __builtin_clzll(p[n - 1]);
    uint64_t v[TABAI_MAX_LIMBS], u[2 * TABAI_MAX_LIMBS + 1] = {0};
    for (size_t i = n; i-- > 0;) v[i] = (p[i] << sh) | (sh && i ? p[i - 1] >> (64 - sh) : 0);
    /* u = 2^(128n) << sh, 2n+1 limbs */
    u[2 * n] = (uint64_t)1 << sh;
    if (p[n - 1] == 1) { /* only p = 2^(64(n-1)) can give K = 2^(64(n+1)): saturate */
        size_t z = 0;
        while (z < n - 1 && p[z] == 0) z++;
        if (z == n - 1) {
            for (size_t i = 0; i <= n; i++) k[i] = ~(uint64_t)0;
            return;
        }
    }
    for (size_t j = n + 1; j-- > 0;) {
        tabai_u128 num = ((tabai_u128)u[j + n] << 64) | u[j + n - 1];
        tabai_u128 qh = num / v[n - 1], rh = num % v[n - 1];
        while (qh >> 64 || (tabai_u128)(uint64_t)qh * v[n - 2] > ((rh << 64) | u[j + n - 2])) {
            qh--;
            rh += v[n - 1];
            if (rh >> 64) break;
        }
        /* u[j .. j+n] -= qh * v */
        uint64_t q = (uint64_t)qh, mc = 0, bw = 0;
        for (size_t i = 0; i < n; i++) {
            tabai_u128 pr = (tabai_u128)q * v[i] + mc;
            mc = (uint64_t)(pr >> 64);
            bw = tabai_sbb(&u[j + i], u[j + i], (uint64_t)pr, bw);
        }
        bw = tabai_sbb(&u[j + n], u[j + n], mc, bw);
        if (bw) { /* one too large: add v back */
            q--;
            uint64_t cy = 0;
            for (size_t i = 0; i < n; i++) cy = tabai_adc(&u[j + i], u[j + i], v[i], cy);
            u[j + n] += cy;
        }
        k[j] = q;
    }
}

#ifdef TABAI_VERIFY
/* 1 if k[n+1] = floor(R^2 / p): R^2 - p*K in [0, p), or the saturated K = 2^(64(n+1)) - 1 of
 * p = 2^(64(n-1)) (R^2 - p*K = p there). Schoolbook, init only. */
static int ohta_k_ok(const uint64_t *k, const uint64_t *p, size_t n) {
    uint64_t pk[2 * TABAI_MAX_LIMBS + 2] = {0}, rem[2 * TABAI_MAX_LIMBS + 2];
    for (size_t j = 0; j <= n; j++) {
        uint64_t cy = 0;
        for (size_t i = 0; i < n; i++) {
            tabai_u128 t = (tabai_u128)p[i] * k[j] + pk[i + j] + cy;
            pk[i + j] = (uint64_t)t;
            cy = (uint64_t)(t >> 64);
        }
        pk[n + j] = cy;
    }
    uint64_t bw = 0, r2;
    for (size_t i = 0; i < 2 * n + 1; i++) {
        r2 = i == 2 * n ? 1 : 0;
        bw = tabai_sbb(&rem[i], r2, pk[i], bw);
    }
    if (bw || rem[2 * n] != 0) return 0;
    for (size_t i = n; i < 2 * n; i++)
        if (rem[i] != 0) return 0;
    int cmp = tabai_cmp_n(rem, p, n), saturated = 1;
    for (size_t i = 0; i <= n; i++) saturated &= k[i] == ~(uint64_t)0;
    return cmp < 0 || (cmp == 0 && saturated);
}
#endif

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
    const tabai_kernels *k = tabai_kernels_active();
    c.tier = k->tier;
    c.mul = k->mul[tabai_slot(len)];
    c.sqr = k->sqr[tabai_slot(len)];
    ohta_constant(c.k, p, len);
    TABAI_VERIFY_CHECK(tabai_verify_ohta_ctx(&c) && ohta_k_ok(c.k, c.p, c.n));
    *ctx = c;
    return TABAI_OK;
}

tabai_status tabai_ohta_init_bytes(tabai_ohta *ctx, const uint8_t *be, size_t len) {
    if (!ctx) return TABAI_ERR_NULL;
    uint64_t p[TABAI_MAX_LIMBS];
    size_t n = 0;
    tabai_status s = tabai_mod_modulus_from_bytes(p, &n, be, len);
    return s != TABAI_OK ? s : tabai_ohta_init(ctx, p, n);
}

/* r[n] = h[2n] mod p, for h < p*R. Constant time. Product scanning (column sums in a
 * three-limb accumulator, as the generic Montgomery kernels):
 *   1. T = columns >= 2n-2 of h[2n] * k[n+1]; d = floor(T / R^2) = columns 2n .. 3n-1;
 *   2. the low n+1 limbs of d*p;
 *   3. f = h - d*p on n+1 limbs (f < 3p), then two subtractions of p by masks. */
TABAI_INLINE void ohta_reduce_inline(const uint64_t *k, const uint64_t *p, uint64_t *r,
                                     const uint64_t *h, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS && tabai_lt_n(h + n, p, n)); /* h < p R */
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
    /* the estimate d is q, q - 1 or q - 2 (docs/bounds/ohta.md): f = h - d p in [0, 3p) */
    TABAI_VERIFY_CHECK(tabai_verify_lt_kp(f, p, n, 3));
    for (int round = 0; round < 2; round++) {
        bw = 0;
        for (size_t i = 0; i < n; i++) bw = tabai_sbb(&s[i], f[i], p[i], bw);
        bw = tabai_sbb(&s[n], f[n], 0, bw);
        tabai_cmov_n(f, bw, f, s, n + 1);
    }
    TABAI_VERIFY_CHECK(f[n] == 0 && tabai_lt_n(f, p, n));
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
    TABAI_VERIFY_CHECK(tabai_verify_ohta_ctx(ctx));
    ohta_reduce_slots[tabai_slot(ctx->n)](ctx->k, ctx->p, r, h, ctx->n);
}

void tabai_ohta_mul_unchecked(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                              const uint64_t *b) {
    TABAI_VERIFY_CHECK(tabai_lt_n(a, ctx->p, ctx->n) && tabai_lt_n(b, ctx->p, ctx->n));
    uint64_t h[2 * TABAI_MAX_LIMBS];
    ctx->mul(h, a, b, ctx->n);
    ohta_reduce(ctx, r, h);
}

void tabai_ohta_sqr_unchecked(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a) {
    TABAI_VERIFY_CHECK(tabai_lt_n(a, ctx->p, ctx->n));
    uint64_t h[2 * TABAI_MAX_LIMBS];
    ctx->sqr(h, a, ctx->n);
    ohta_reduce(ctx, r, h);
}

tabai_status tabai_ohta_mul(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    if (!ctx || !r || !a || !b) return TABAI_ERR_NULL;
    /* public: an unreduced operand is an error */
    if (!(tabai_reduced_public(a, ctx->p, ctx->n) & tabai_reduced_public(b, ctx->p, ctx->n)))
        return TABAI_ERR_RANGE;
    tabai_ohta_mul_unchecked(ctx, r, a, b);
    return TABAI_OK;
}

tabai_status tabai_ohta_sqr(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a) {
    if (!ctx || !r || !a) return TABAI_ERR_NULL;
    if (!tabai_reduced_public(a, ctx->p, ctx->n)) return TABAI_ERR_RANGE; /* public: an error */
    tabai_ohta_sqr_unchecked(ctx, r, a);
    return TABAI_OK;
}

tabai_status tabai_ohta_reduce(const tabai_ohta *ctx, uint64_t *r, const uint64_t *x) {
    if (!ctx || !r || !x) return TABAI_ERR_NULL;
    /* x < p*R  <=>  high half of x < p; public: an error (always true inside tabai_powmod) */
    if (!tabai_reduced_public(x + ctx->n, ctx->p, ctx->n)) return TABAI_ERR_RANGE;
    ohta_reduce(ctx, r, x);
    return TABAI_OK;
}

/* r = a + b, a - b or 0 - a mod p: the modular addition kernels of the tier in use (the
 * same as the Montgomery contexts'; they need only a, b < p < R, so even p are fine) */
static tabai_status ohta_addsub(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b, int sub) {
    if (!ctx || !r || !a || !b) return TABAI_ERR_NULL;
    if (!(tabai_reduced_public(a, ctx->p, ctx->n) & tabai_reduced_public(b, ctx->p, ctx->n)))
        return TABAI_ERR_RANGE; /* public: an error */
    TABAI_VERIFY_CHECK(tabai_verify_ohta_ctx(ctx));
    const tabai_kernels *k = tabai_kernels_active();
    (sub ? k->mod_sub : k->mod_add)[tabai_slot(ctx->n)](r, a, b, ctx->p, ctx->n);
    return TABAI_OK;
}

tabai_status tabai_ohta_add(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    return ohta_addsub(ctx, r, a, b, 0);
}

tabai_status tabai_ohta_sub(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    return ohta_addsub(ctx, r, a, b, 1);
}

tabai_status tabai_ohta_neg(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a) {
    uint64_t zero[TABAI_MAX_LIMBS] = {0};
    return ohta_addsub(ctx, r, zero, a, 1);
}
