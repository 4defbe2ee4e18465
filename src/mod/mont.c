/* Montgomery contexts: R = 2^(64n), pinv = -p^-1 mod 2^64, rr = R^2 mod p; the kernels of
 * the tier in use are copied into the context at init, so each operation is one direct call
 * after the range checks. */
#include "mod.h"

tabai_status tabai_mod_modulus_from_bytes(uint64_t *p, size_t *n, const uint8_t *be, size_t len) {
    if (!be) return TABAI_ERR_NULL;
    size_t skip = 0;
    while (skip < len && be[skip] == 0) skip++;
    if (len == skip) return TABAI_ERR_MODULUS;
    *n = (len - skip + 7) / 8;
    if (*n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    return tabai_from_bytes(p, *n, be + skip, len - skip);
}

void tabai_mod_pow2_vartime(uint64_t *r, size_t k, const uint64_t *p, size_t n, size_t bits) {
    /* 2^(bits-1) < p when p is not a power of two; for p = 2^(bits-1) it is 0 mod p. */
    for (size_t i = 0; i < n; i++) r[i] = 0;
    size_t start = bits - 1;
    if (k < start) {
        r[k / 64] = (uint64_t)1 << (k % 64);
        return;
    }
    r[start / 64] = (uint64_t)1 << (start % 64);
    if (tabai_cmp_n(r, p, n) >= 0) { /* p is a power of two */
        for (size_t i = 0; i < n; i++) r[i] = 0;
        return;
    }
    for (size_t i = start; i < k; i++) tabai_mod_add_n_generic(r, r, r, p, n);
}

static uint64_t neg_inv64(uint64_t p0) {
    uint64_t x = p0; /* correct to 3 bits for odd p0; Newton doubles the precision */
    for (int i = 0; i < 5; i++) x *= 2 - p0 * x;
    return (uint64_t)0 - x;
}

tabai_status tabai_mont_init(tabai_mont *ctx, const uint64_t *p, size_t n) {
    if (!ctx || !p) return TABAI_ERR_NULL;
    if (n == 0) return TABAI_ERR_SIZE;
    size_t len = tabai_normalized_len_vartime(p, n);
    if (len > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    if (len == 0 || !(p[0] & 1) || (len == 1 && p[0] < 3)) return TABAI_ERR_MODULUS;
    n = len;
    const tabai_kernels *k = tabai_kernels_active();
    tabai_mont c;
    memset(&c, 0, sizeof c);
    c.n = n;
    memcpy(c.p, p, n * sizeof(uint64_t));
    c.bits = tabai_bitlen_vartime(p, n);
    c.pinv = neg_inv64(p[0]);
    size_t s = tabai_slot(n);
    c.mul = k->mont_mul[s];
    c.sqr = k->mont_sqr[s];
    c.add = k->mod_add[s];
    c.sub = k->mod_sub[s];
    c.tier = k->tier;
    /* one = R mod p by doubling; rr = R^2 mod p as the Montgomery form of 2^(64n), by
     * square-and-multiply on Montgomery forms 2^a R (mul adds the exponents). */
    tabai_mod_pow2_vartime(c.one, 64 * n, p, n, c.bits);
    uint64_t two[TABAI_MAX_LIMBS], acc[TABAI_MAX_LIMBS];
    c.add(two, c.one, c.one, c.p, n); /* 2R */
    size_t e = 64 * n;                /* want 2^e R = R^2 */
    memcpy(acc, c.one, n * sizeof(uint64_t));
    for (int bit = 63 - __builtin_clzll((unsigned long long)e); bit >= 0; bit--) {
        c.sqr(acc, acc, c.p, c.pinv, n);
        if ((e >> bit) & 1) c.mul(acc, acc, two, c.p, c.pinv, n);
    }
    memcpy(c.rr, acc, n * sizeof(uint64_t));
    TABAI_VERIFY_CHECK(tabai_verify_mont_ctx(&c));
    *ctx = c;
    return TABAI_OK;
}

tabai_status tabai_mont_init_bytes(tabai_mont *ctx, const uint8_t *be, size_t len) {
    if (!ctx) return TABAI_ERR_NULL;
    uint64_t p[TABAI_MAX_LIMBS];
    size_t n = 0;
    tabai_status s = tabai_mod_modulus_from_bytes(p, &n, be, len);
    return s != TABAI_OK ? s : tabai_mont_init(ctx, p, n);
}

/* a < p? (constant time; the answer is public: an unreduced operand is an error) */
static inline int reduced(const tabai_mont *ctx, const uint64_t *a) {
    return (int)tabai_reduced_public(a, ctx->p, ctx->n);
}

/* TABAI_VERIFY: the context's invariants before a kernel call, its result < p after (the
 * kernels of every tier, the generated assembly included) */
#define VERIFY_CTX(ctx) TABAI_VERIFY_CHECK(tabai_verify_mont_ctx(ctx))
#define VERIFY_OUT(ctx, r) TABAI_VERIFY_CHECK(tabai_lt_n((r), (ctx)->p, (ctx)->n))

tabai_status tabai_mont_mul(const tabai_mont *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    if (!ctx || !r || !a || !b) return TABAI_ERR_NULL;
    if (!(reduced(ctx, a) & reduced(ctx, b))) return TABAI_ERR_RANGE;
    VERIFY_CTX(ctx);
    ctx->mul(r, a, b, ctx->p, ctx->pinv, ctx->n);
    VERIFY_OUT(ctx, r);
    return TABAI_OK;
}

tabai_status tabai_mont_sqr(const tabai_mont *ctx, uint64_t *r, const uint64_t *a) {
    if (!ctx || !r || !a) return TABAI_ERR_NULL;
    if (!reduced(ctx, a)) return TABAI_ERR_RANGE;
    VERIFY_CTX(ctx);
    ctx->sqr(r, a, ctx->p, ctx->pinv, ctx->n);
    VERIFY_OUT(ctx, r);
    return TABAI_OK;
}

tabai_status tabai_mont_to(const tabai_mont *ctx, uint64_t *r, const uint64_t *a) {
    if (!ctx || !r || !a) return TABAI_ERR_NULL;
    if (!reduced(ctx, a)) return TABAI_ERR_RANGE;
    VERIFY_CTX(ctx);
    ctx->mul(r, a, ctx->rr, ctx->p, ctx->pinv, ctx->n);
    VERIFY_OUT(ctx, r);
    return TABAI_OK;
}

tabai_status tabai_mont_from(const tabai_mont *ctx, uint64_t *r, const uint64_t *a) {
    if (!ctx || !r || !a) return TABAI_ERR_NULL;
    if (!reduced(ctx, a)) return TABAI_ERR_RANGE;
    VERIFY_CTX(ctx);
    uint64_t one[TABAI_MAX_LIMBS] = {1};
    ctx->mul(r, a, one, ctx->p, ctx->pinv, ctx->n);
    VERIFY_OUT(ctx, r);
    return TABAI_OK;
}

tabai_status tabai_mont_add(const tabai_mont *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    if (!ctx || !r || !a || !b) return TABAI_ERR_NULL;
    if (!(reduced(ctx, a) & reduced(ctx, b))) return TABAI_ERR_RANGE;
    VERIFY_CTX(ctx);
    ctx->add(r, a, b, ctx->p, ctx->n);
    VERIFY_OUT(ctx, r);
    return TABAI_OK;
}

tabai_status tabai_mont_sub(const tabai_mont *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    if (!ctx || !r || !a || !b) return TABAI_ERR_NULL;
    if (!(reduced(ctx, a) & reduced(ctx, b))) return TABAI_ERR_RANGE;
    VERIFY_CTX(ctx);
    ctx->sub(r, a, b, ctx->p, ctx->n);
    VERIFY_OUT(ctx, r);
    return TABAI_OK;
}

tabai_status tabai_mont_neg(const tabai_mont *ctx, uint64_t *r, const uint64_t *a) {
    if (!ctx || !r || !a) return TABAI_ERR_NULL;
    if (!reduced(ctx, a)) return TABAI_ERR_RANGE;
    VERIFY_CTX(ctx);
    uint64_t zero[TABAI_MAX_LIMBS] = {0};
    ctx->sub(r, zero, a, ctx->p, ctx->n);
    VERIFY_OUT(ctx, r);
    return TABAI_OK;
}
