/* The batch API of include/tabai.h (issue 4): argument checks, then groups of L lanes
 * through a multi-buffer kernel (mb.h), or a loop over the scalar path when there is none.
 * RSA private operations by CRT on top of the batch exponentiation. */
#include <stdlib.h>

#include "../internal.h"
#include "../ifma/r52.h"
#include "mb.h"

#define MAX_EBITS ((size_t)64 * TABAI_MAX_LIMBS * 2)

/* Checks shared by modmul and powmod: pointers, sizes, moduli (public), reduced operands. */
static tabai_status check_batch(size_t count, uint64_t *const r[], const uint64_t *const a[],
                                const uint64_t *const b[], const uint64_t *const m[], size_t n) {
    if (count && (!r || !a || !m)) return TABAI_ERR_NULL;
    if (n == 0 || n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    for (size_t i = 0; i < count; i++) {
        if (!r[i] || !a[i] || !m[i] || (b && !b[i])) return TABAI_ERR_NULL;
        size_t mn = tabai_normalized_len_vartime(m[i], n);
        if (mn == 0 || !(m[i][0] & 1) || (mn == 1 && m[i][0] < 3)) return TABAI_ERR_MODULUS;
        if (!tabai_reduced_public(a[i], m[i], n)) return TABAI_ERR_RANGE;
        if (b && !tabai_reduced_public(b[i], m[i], n)) return TABAI_ERR_RANGE;
    }
    return TABAI_OK;
}

/* The scalar contexts of all the moduli (heap; mc[i] = &ctx[i]), or NULL on allocation
 * failure. *ctxs is the block to free. */
static const tabai_mont **scalar_contexts(size_t count, const uint64_t *const m[], size_t n,
                                          tabai_mont **ctxs) {
    tabai_mont *c = malloc((count ? count : 1) * sizeof *c);
    const tabai_mont **mc = malloc((count ? count : 1) * sizeof *mc);
    if (!c || !mc) {
        free(c);
        free(mc);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        tabai_mont_init(&c[i], m[i], n); /* checked before */
        mc[i] = &c[i];
    }
    *ctxs = c;
    return mc;
}

/* The multi-buffer kernel for jobs with these contexts: k, or NULL (the scalar loop) when a
 * modulus is longer than the kernels go. */
static const tabai_mb_kernel *jobs_kernel(const tabai_mb_kernel *k, size_t jobs,
                                          const tabai_mont *const mc[], size_t *maxbits) {
    size_t bits = 0;
    for (size_t j = 0; j < jobs; j++)
        if (mc[j]->bits > bits) bits = mc[j]->bits;
    *maxbits = bits;
    return bits > TABAI_MB_MAX_BITS ? NULL : k;
}

/* Lanes [g, g+L) of count as pointer arrays; missing lanes pad with lane g (results dropped). */
static void group_ptrs(const uint64_t **dst, const uint64_t *const src[], size_t g, size_t count,
                       unsigned L) {
    for (unsigned l = 0; l < L; l++) dst[l] = src ? src[g + l < count ? g + l : g] : NULL;
}

/* The kernel of the group starting with `rest` operations left: k, or its half-width
 * sibling (the 4-lane ymm kernel of the same radix) when the rest fits in half the lanes:
 * one ymm call costs about half to two thirds of a zmm call, so a last group of 1 to 4 (a
 * single RSA operation's two halves, say) runs faster there. */
static const tabai_mb_kernel *group_kernel(const tabai_mb_kernel *k, size_t rest) {
    if (rest * 2 > k->lanes) return k;
    for (const tabai_mb_kernel *h = tabai_mb_kernels; h->name; h++)
        if (h->w == k->w && h->lanes * 2 == k->lanes && h->features == k->features &&
            tabai_mb_kernel_usable(h))
            return h;
    return k;
}

/* The group of jobs [g, g + L): its kernel (group_kernel), ctx set up for its lanes' moduli
 * (missing lanes pad with job g) and its outputs rl (NULL for the padding). */
static const tabai_mb_kernel *group_begin(tabai_mb_mont *ctx, const tabai_mb_kernel *k, size_t g,
                                          size_t jobs, const tabai_mont *const mc[],
                                          uint64_t *const r[], uint64_t **rl, size_t n) {
    const tabai_mb_kernel *kg = group_kernel(k, jobs - g);
    const tabai_mont *lanes[TABAI_MB_MAX_LANES];
    for (unsigned l = 0; l < kg->lanes; l++) {
        lanes[l] = mc[g + l < jobs ? g + l : g];
        rl[l] = g + l < jobs ? r[g + l] : NULL;
    }
    tabai_mb_mont_init_lanes(ctx, kg, lanes, n);
    return kg;
}

/* powmod_jobs for 1 or 2 jobs through tabai_powmod2_r52 / tabai_powmod_r52: 1 when done. */
static int powmod_single_r52(size_t jobs, uint64_t *const r[], const uint64_t *const b[],
                             const uint64_t *const e[], size_t ebits, const tabai_mont *const mc[],
                             size_t n) {
    unsigned vl;
    const size_t bits = mc[0]->bits > mc[jobs - 1]->bits ? mc[0]->bits : mc[jobs - 1]->bits;
    if (!e || !tabai_r52_usable() || !tabai_r52_choose(bits, ebits, &vl) ||
        mc[0]->n != mc[jobs - 1]->n)
        return 0;
    uint64_t out[2][TABAI_MAX_LIMBS] = {{0}};
    tabai_status s = jobs == 2 ? tabai_powmod2_r52(mc[0], mc[1], out[0], out[1], b[0], b[1], e[0],
                                                   e[1], ebits)
                               : tabai_powmod_r52(mc[0], out[0], b[0], e[0], ebits, vl);
    if (s != TABAI_OK) return 0;
    for (size_t j = 0; j < jobs; j++) memcpy(r[j], out[j], n * sizeof(uint64_t));
    tabai_wipe(out, sizeof out);
    return 1;
}

/* r[j] = b[j]^e[j] mod p_j for the contexts mc[j] (n-limb values, mc[j]->n <= n; e == NULL
 * for ebits == 0): groups through the multi-buffer kernel k, else the scalar loop. r[j] may
 * be b[j]. The one exponentiation engine of the batch API and of RSA. */
static tabai_status powmod_jobs(const tabai_mb_kernel *k, size_t jobs, uint64_t *const r[],
                                const uint64_t *const b[], const uint64_t *const e[],
                                size_t ebits, const tabai_mont *const mc[], size_t n) {
    /* one or two jobs (one RSA operation's halves): the single-number IFMA layout, both in
     * one instruction stream, where its table says it is faster than lanes left empty */
    if (k && jobs <= 2 && powmod_single_r52(jobs, r, b, e, ebits, mc, n)) return TABAI_OK;
    size_t maxbits;
    k = jobs_kernel(k, jobs, mc, &maxbits);
    if (!k) {
        uint64_t *scratch = malloc(tabai_powmod_scratch_limbs(n, ebits) * sizeof(uint64_t));
        if (!scratch) return TABAI_ERR_ALLOC;
        for (size_t j = 0; j < jobs; j++) {
            uint64_t out[TABAI_MAX_LIMBS] = {0};
            tabai_mont_powmod(mc[j], out, b[j], e ? e[j] : NULL, ebits, scratch);
            memcpy(r[j], out, n * sizeof(uint64_t));
        }
        free(scratch);
        return TABAI_OK;
    }
    /* the widest group: k's lanes, d = the digits of maxbits (scratch grows with both) */
    const size_t words = tabai_mb_digits(maxbits, k->w) * k->lanes;
    tabai_mb_mont *ctx = malloc(sizeof *ctx);
    uint64_t *x = malloc(2 * words * sizeof(uint64_t));
    uint64_t *scratch = malloc(
        tabai_mb_powmod_scratch_words(k, tabai_mb_digits(maxbits, k->w), ebits) * sizeof(uint64_t));
    tabai_status s = TABAI_ERR_ALLOC;
    if (ctx && x && scratch) {
        for (size_t g = 0, L; g < jobs; g += L) {
            const uint64_t *bl[TABAI_MB_MAX_LANES], *el[TABAI_MB_MAX_LANES];
            uint64_t *rl[TABAI_MB_MAX_LANES];
            const tabai_mb_kernel *kg = group_begin(ctx, k, g, jobs, mc, r, rl, n);
            L = kg->lanes;
            group_ptrs(bl, b, g, jobs, (unsigned)L);
            group_ptrs(el, e, g, jobs, (unsigned)L);
            tabai_mb_to_digits(x, kg->lanes, kg->w, ctx->d, bl, n);
            tabai_mb_powmod(ctx, x + words, x, el, ebits, scratch);
            tabai_mb_from_digits(rl, n, x + words, kg->lanes, kg->w, ctx->d);
        }
        s = TABAI_OK;
    }
    free(ctx);
    free(x);
    free(scratch);
    return s;
}

tabai_status tabai_powmod_batch_with(const tabai_mb_kernel *k, size_t count, uint64_t *const r[],
                                     const uint64_t *const b[], const uint64_t *const e[],
                                     size_t ebits, const uint64_t *const m[], size_t n) {
    if (ebits && count && !e) return TABAI_ERR_NULL;
    for (size_t i = 0; ebits && i < count; i++)
        if (!e[i]) return TABAI_ERR_NULL;
    if (ebits > MAX_EBITS) return TABAI_ERR_SIZE;
    tabai_status s = check_batch(count, r, b, NULL, m, n);
    if (s != TABAI_OK || count == 0) return s;
    tabai_mont *ctxs;
    const tabai_mont **mc = scalar_contexts(count, m, n, &ctxs);
    if (!mc) return TABAI_ERR_ALLOC;
    s = powmod_jobs(k, count, r, b, ebits ? e : NULL, ebits, mc, n);
    free(mc);
    free(ctxs);
    return s;
}

tabai_status tabai_powmod_batch(size_t count, uint64_t *const r[], const uint64_t *const b[],
                                const uint64_t *const e[], size_t ebits, const uint64_t *const m[],
                                size_t n) {
    return tabai_powmod_batch_with(tabai_mb_kernel_active(), count, r, b, e, ebits, m, n);
}

tabai_status tabai_modmul_batch_with(const tabai_mb_kernel *k, size_t count, uint64_t *const r[],
                                     const uint64_t *const a[], const uint64_t *const b[],
                                     const uint64_t *const m[], size_t n) {
    tabai_status s = check_batch(count, r, a, b, m, n);
    if (s != TABAI_OK || count == 0) return s;
    tabai_mont *ctxs;
    const tabai_mont **mc = scalar_contexts(count, m, n, &ctxs);
    if (!mc) return TABAI_ERR_ALLOC;
    size_t maxbits;
    k = jobs_kernel(k, count, mc, &maxbits);
    tabai_mb_mont *ctx = NULL;
    uint64_t *x = NULL;
    s = TABAI_ERR_ALLOC;
    if (k) {
        ctx = malloc(sizeof *ctx);
        x = malloc(2 * TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES * sizeof(uint64_t));
        if (!ctx || !x) goto done;
        uint64_t *y = x + TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES;
        for (size_t g = 0, L; g < count; g += L) {
            const uint64_t *al[TABAI_MB_MAX_LANES], *bl[TABAI_MB_MAX_LANES];
            uint64_t *rl[TABAI_MB_MAX_LANES];
            const tabai_mb_kernel *kg = group_begin(ctx, k, g, count, mc, r, rl, n);
            L = kg->lanes;
            group_ptrs(al, a, g, count, (unsigned)L);
            group_ptrs(bl, b, g, count, (unsigned)L);
            tabai_mb_to_digits(x, kg->lanes, kg->w, ctx->d, al, n);
            tabai_mb_to_digits(y, kg->lanes, kg->w, ctx->d, bl, n);
            /* a*b*R^-1, then * R^2 * R^-1: a*b mod p in normal form */
            kg->mont_mul(x, x, y, ctx->p, ctx->k0, ctx->d);
            kg->mont_mul(x, x, ctx->rr, ctx->p, ctx->k0, ctx->d);
            tabai_mb_from_digits(rl, n, x, kg->lanes, kg->w, ctx->d);
        }
    } else {
        for (size_t i = 0; i < count; i++) {
            uint64_t t[TABAI_MAX_LIMBS] = {0};
            tabai_mont_mul(mc[i], t, a[i], b[i]);   /* a*b/R */
            tabai_mont_mul(mc[i], t, t, mc[i]->rr); /* a*b; limbs above mc[i]->n stay 0 */
            memcpy(r[i], t, n * sizeof(uint64_t));
        }
    }
    s = TABAI_OK;
done:
    free(mc);
    free(ctxs);
    free(ctx);
    free(x);
    return s;
}

tabai_status tabai_modmul_batch(size_t count, uint64_t *const r[], const uint64_t *const a[],
                                const uint64_t *const b[], const uint64_t *const m[], size_t n) {
    return tabai_modmul_batch_with(tabai_mb_kernel_active(), count, r, a, b, m, n);
}

/* ---- RSA ---- */

tabai_status tabai_rsa_key_init(tabai_rsa_key *key, const uint64_t *p, const uint64_t *q,
                                const uint64_t *dp, const uint64_t *dq, const uint64_t *qinv,
                                size_t h) {
    if (!key || !p || !q || !dp || !dq || !qinv) return TABAI_ERR_NULL;
    if (h == 0 || 2 * h > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    if (!(p[0] & 1) || !(q[0] & 1) || !(p[h - 1] >> 63) || !(q[h - 1] >> 63))
        return TABAI_ERR_MODULUS;
    if (!tabai_lt_n(dp, p, h) || !tabai_lt_n(dq, q, h) || !tabai_lt_n(qinv, p, h))
        return TABAI_ERR_RANGE;
    tabai_rsa_key k;
    memset(&k, 0, sizeof k);
    k.h = h;
    k.n = 2 * h;
    if (tabai_mont_init(&k.mp, p, h) != TABAI_OK || tabai_mont_init(&k.mq, q, h) != TABAI_OK)
        return TABAI_ERR_MODULUS;
    memcpy(k.q, q, h * sizeof(uint64_t));
    memcpy(k.dp, dp, h * sizeof(uint64_t));
    memcpy(k.dq, dq, h * sizeof(uint64_t));
    tabai_mont_to(&k.mp, k.qinv_m, qinv);
    /* q mod p (q < 2p: both have h limbs with the top bit set) times qinv must be 1 */
    uint64_t qp[TABAI_MAX_LIMBS / 2], t[TABAI_MAX_LIMBS / 2];
    tabai_cnd_sub_n(!tabai_lt_n(q, p, h), qp, q, p, h);
    tabai_mont_mul(&k.mp, t, k.qinv_m, qp); /* qinv * q mod p */
    uint64_t one_ok = t[0] == 1;
    for (size_t i = 1; i < h; i++) one_ok &= t[i] == 0;
    if (!one_ok) return TABAI_ERR_RANGE;
    tabai_mul_n(k.N, p, q, h);
    *key = k;
    return TABAI_OK;
}

/* r = c mod p for c < 2^(128h) (2h limbs), p with h limbs and its top bit set: c = c1 R + c0
 * with R = 2^(64h); c0, c1 < R < 2p take one conditional subtraction each, then
 * r = mont_mul(c1, R^2) + c0 = c1 R + c0 mod p. Constant time. */
static void reduce_half(const tabai_mont *mp, uint64_t *r, const uint64_t *c) {
    const size_t h = mp->n;
    uint64_t c0[TABAI_MAX_LIMBS / 2], c1[TABAI_MAX_LIMBS / 2];
    tabai_cnd_sub_n(!tabai_lt_n(c, mp->p, h), c0, c, mp->p, h);
    tabai_cnd_sub_n(!tabai_lt_n(c + h, mp->p, h), c1, c + h, mp->p, h);
    tabai_mont_mul(mp, c1, c1, mp->rr);
    tabai_mont_add(mp, r, c1, c0);
}

tabai_status tabai_rsa_private_batch_with(const tabai_mb_kernel *k, size_t count,
                                          uint64_t *const m[], const uint64_t *const c[],
                                          const tabai_rsa_key *const key[]) {
    if (count && (!m || !c || !key)) return TABAI_ERR_NULL;
    size_t hmax = 0;
    for (size_t i = 0; i < count; i++) {
        if (!m[i] || !c[i] || !key[i]) return TABAI_ERR_NULL;
        if (!tabai_reduced_public(c[i], key[i]->N, key[i]->n)) return TABAI_ERR_RANGE;
        if (key[i]->h > hmax) hmax = key[i]->h;
    }
    if (count == 0) return TABAI_OK;
    /* x[j]: the 2*count half-size bases (c mod p, c mod q), then their powers */
    const size_t H = hmax, jobs = 2 * count;
    uint64_t *x = calloc(jobs * H, sizeof(uint64_t));
    const uint64_t **ee = malloc(jobs * sizeof *ee);
    uint64_t **xr = malloc(jobs * sizeof *xr);
    const tabai_mont **mc = malloc(jobs * sizeof *mc);
    tabai_status s = TABAI_ERR_ALLOC;
    if (!x || !ee || !xr || !mc) goto done;
    for (size_t i = 0; i < count; i++) {
        const tabai_rsa_key *ky = key[i];
        reduce_half(&ky->mp, x + (2 * i) * H, c[i]);
        reduce_half(&ky->mq, x + (2 * i + 1) * H, c[i]);
        mc[2 * i] = &ky->mp;
        mc[2 * i + 1] = &ky->mq;
        ee[2 * i] = ky->dp; /* zero above h limbs: ebits = 64 H reads only zeros there */
        ee[2 * i + 1] = ky->dq;
    }
    for (size_t j = 0; j < jobs; j++) xr[j] = x + j * H;
    /* in place; the exponents have h <= H limbs, zero above (the key's arrays): 64 H bits */
    s = powmod_jobs(k, jobs, xr, (const uint64_t *const *)xr, ee, 64 * H, mc, H);
    if (s != TABAI_OK) goto done;
    /* Garner: h = qinv (m1 - m2) mod p, m = m2 + h q */
    for (size_t i = 0; i < count; i++) {
        const tabai_rsa_key *ky = key[i];
        const size_t h = ky->h;
        uint64_t *m1 = x + (2 * i) * H, *m2 = x + (2 * i + 1) * H;
        uint64_t t[TABAI_MAX_LIMBS / 2], out[TABAI_MAX_LIMBS];
        tabai_cnd_sub_n(!tabai_lt_n(m2, ky->mp.p, h), t, m2, ky->mp.p, h); /* m2 mod p */
        tabai_mont_sub(&ky->mp, t, m1, t);
        tabai_mont_mul(&ky->mp, t, t, ky->qinv_m); /* qinv (m1 - m2) mod p */
        tabai_mul_n(out, t, ky->q, h);
        uint64_t cy = tabai_add_n(out, out, m2, h);
        for (size_t l = h; l < 2 * h; l++) cy = tabai_adc(&out[l], out[l], 0, cy); /* carry up */
        memcpy(m[i], out, ky->n * sizeof(uint64_t));
    }
    s = TABAI_OK;
done:
    free(x);
    free(ee);
    free(xr);
    free(mc);
    return s;
}

tabai_status tabai_rsa_private_batch(size_t count, uint64_t *const m[], const uint64_t *const c[],
                                     const tabai_rsa_key *const key[]) {
    return tabai_rsa_private_batch_with(tabai_mb_kernel_active(), count, m, c, key);
}
