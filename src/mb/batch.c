/* The batch API of include/tabai.h: argument checks, then groups of L lanes
 * through a multi-buffer kernel (mb.h), or a loop over the scalar path when there is none;
 * the groups split across threads (tabai_mb_parallel). Every buffer that held operands,
 * exponents or moduli is wiped before it is freed (the RSA layer runs its secret half-size
 * exponentiations through tabai_mb_powmod_jobs). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "../internal.h"
#include "../mod/powmod_r52.h"
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
        tabai_wipe_free(c, count ? count * sizeof *c : sizeof *c);
        tabai_wipe_free(mc, count ? count * sizeof *mc : sizeof *mc);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        (void)!tabai_mont_init(&c[i], m[i], n); /* cannot fail: m[i] checked by the caller */
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

/* powmod_jobs for 1 or 2 jobs through tabai_powmod2_r52 / tabai_powmod_r52: 1 when taken,
 * with *st TABAI_OK (r written) or TABAI_ERR_ALLOC (nothing written); 0 to take the lanes. */
static int powmod_single_r52(size_t jobs, uint64_t *const r[], const uint64_t *const b[],
                             const uint64_t *const e[], size_t ebits, const tabai_mont *const mc[],
                             size_t n, tabai_status *st) {
    unsigned vl;
    const size_t bits = mc[0]->bits > mc[jobs - 1]->bits ? mc[0]->bits : mc[jobs - 1]->bits;
    if (!e || !tabai_r52_usable() || !tabai_r52_choose(bits, ebits, &vl) ||
        mc[0]->n != mc[jobs - 1]->n)
        return 0;
    uint64_t out[2][TABAI_MAX_LIMBS] = {{0}};
    tabai_status s;
    if (jobs == 2) {
        s = tabai_powmod2_r52(mc[0], mc[1], out[0], out[1], b[0], b[1], e[0], e[1], ebits);
    } else {
        uint64_t *ws = malloc(tabai_r52_scratch_limbs(mc[0]->n, ebits, 1) * sizeof(uint64_t));
        s = ws ? tabai_powmod_r52(mc[0], out[0], b[0], e[0], ebits, vl, ws) : TABAI_ERR_ALLOC;
        free(ws); /* wiped by tabai_powmod_r52 */
    }
    if (s == TABAI_ERR_SIZE) return 0; /* outside the layout's sizes: the lanes */
    if (s == TABAI_OK)
        for (size_t j = 0; j < jobs; j++) memcpy(r[j], out[j], n * sizeof(uint64_t));
    tabai_wipe(out, sizeof out);
    *st = s;
    return 1;
}

/* r[j] = b[j]^e[j] mod p_j for the contexts mc[j] (n-limb values, mc[j]->n <= n; e == NULL
 * for ebits == 0): groups through the multi-buffer kernel k, else the scalar loop. r[j] may
 * be b[j]. The one exponentiation engine of the batch API and of RSA. */
static tabai_status powmod_jobs_serial(const tabai_mb_kernel *k, size_t jobs, uint64_t *const r[],
                                const uint64_t *const b[], const uint64_t *const e[],
                                size_t ebits, const tabai_mont *const mc[], size_t n) {
    /* one or two jobs (one RSA operation's halves): the single-number IFMA layout, both in
     * one instruction stream, where its table says it is faster than lanes left empty */
    tabai_status st;
    if (k && jobs <= 2 && powmod_single_r52(jobs, r, b, e, ebits, mc, n, &st)) return st;
    size_t maxbits;
    k = jobs_kernel(k, jobs, mc, &maxbits);
    if (!k) {
        size_t sl = tabai_powmod_scratch_limbs(n, ebits);
        uint64_t *scratch = malloc(sl * sizeof(uint64_t));
        if (!scratch) return TABAI_ERR_ALLOC;
        tabai_status s = TABAI_OK;
        for (size_t j = 0; j < jobs; j++) {
            uint64_t out[TABAI_MAX_LIMBS] = {0};
            const tabai_status sj =
                tabai_mont_powmod(mc[j], out, b[j], e ? e[j] : NULL, ebits, scratch, sl);
            if (s == TABAI_OK) s = sj;
            memcpy(r[j], out, n * sizeof(uint64_t));
            tabai_wipe(out, sizeof out);
        }
        tabai_wipe_free(scratch, sl * sizeof(uint64_t)); /* powers of secret bases */
        return s;
    }
    /* the widest group: k's lanes, d = the digits of maxbits (scratch grows with both) */
    const size_t words = tabai_mb_digits(maxbits, k->w) * k->lanes;
    tabai_mb_mont *ctx = malloc(sizeof *ctx);
    uint64_t *x = malloc(2 * words * sizeof(uint64_t));
    const size_t sw = tabai_mb_powmod_scratch_words(k, tabai_mb_digits(maxbits, k->w), ebits);
    uint64_t *scratch = malloc(sw * sizeof(uint64_t));
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
    /* the lane contexts may hold secret moduli (RSA's p and q), x and scratch secret values */
    tabai_wipe_free(ctx, sizeof *ctx);
    tabai_wipe_free(x, 2 * words * sizeof(uint64_t));
    tabai_wipe_free(scratch, sw * sizeof(uint64_t));
    return s;
}


unsigned tabai_threads_resolve(unsigned threads) {
    if (threads) return threads;
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : c > 256 ? 256 : (unsigned)c;
}

typedef struct par_job {
    tabai_status (*fn)(void *arg, size_t lo, size_t hi);
    void *arg;
    size_t lo, hi;
    tabai_status s;
} par_job;

static void *par_run(void *p) {
    par_job *j = p;
    j->s = j->fn(j->arg, j->lo, j->hi);
    return NULL;
}

tabai_status tabai_mb_parallel(size_t units, size_t grain, unsigned threads,
                               tabai_status (*fn)(void *arg, size_t lo, size_t hi), void *arg) {
    if (units == 0) return TABAI_OK;
    if (grain == 0) grain = 1;
    const size_t chunks = (units + grain - 1) / grain;
    size_t t = tabai_threads_resolve(threads);
    if (t > chunks) t = chunks;
    if (t <= 1) return fn(arg, 0, units);
    par_job jobs[256];
    pthread_t tid[256];
    int started[256] = {0};
    /* thread i takes chunks [i*chunks/t, (i+1)*chunks/t): contiguous, balanced to one chunk */
    for (size_t i = 0; i < t; i++) {
        size_t c0 = i * chunks / t, c1 = (i + 1) * chunks / t;
        jobs[i] = (par_job){fn, arg, c0 * grain, c1 * grain < units ? c1 * grain : units, TABAI_OK};
    }
    for (size_t i = 1; i < t; i++)
        started[i] = pthread_create(&tid[i], NULL, par_run, &jobs[i]) == 0;
    par_run(&jobs[0]);
    for (size_t i = 1; i < t; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        else par_run(&jobs[i]); /* no thread to be had: the caller does its share */
    }
    tabai_status s = TABAI_OK;
    for (size_t i = 0; i < t; i++)
        if (jobs[i].s != TABAI_OK) s = jobs[i].s;
    return s;
}

typedef struct jobs_arg {
    const tabai_mb_kernel *k;
    uint64_t *const *r;
    const uint64_t *const *b, *const *e;
    size_t ebits, n;
    const tabai_mont *const *mc;
} jobs_arg;

static tabai_status jobs_range(void *p, size_t lo, size_t hi) {
    const jobs_arg *a = p;
    return powmod_jobs_serial(a->k, hi - lo, a->r + lo, a->b + lo, a->e ? a->e + lo : NULL,
                              a->ebits, a->mc + lo, a->n);
}

tabai_status tabai_mb_powmod_jobs(const tabai_mb_kernel *k, size_t jobs, uint64_t *const r[],
                                  const uint64_t *const b[], const uint64_t *const e[],
                                  size_t ebits, const tabai_mont *const mc[], size_t n,
                                  unsigned threads) {
    size_t maxbits;
    const tabai_mb_kernel *kk = jobs_kernel(k, jobs, mc, &maxbits);
    jobs_arg a = {k, r, b, e, ebits, n, mc};
    /* whole groups per thread (only the last one may be partial) */
    return tabai_mb_parallel(jobs, kk ? kk->lanes : 1, threads, jobs_range, &a);
}

tabai_status tabai_powmod_batch_with(const tabai_mb_kernel *k, size_t count, uint64_t *const r[],
                                     const uint64_t *const b[], const uint64_t *const e[],
                                     size_t ebits, const uint64_t *const m[], size_t n,
                                     unsigned threads) {
    if (ebits && count && !e) return TABAI_ERR_NULL;
    for (size_t i = 0; ebits && i < count; i++)
        if (!e[i]) return TABAI_ERR_NULL;
    if (ebits > MAX_EBITS) return TABAI_ERR_SIZE;
    tabai_status s = check_batch(count, r, b, NULL, m, n);
    if (s != TABAI_OK || count == 0) return s;
    tabai_mont *ctxs;
    const tabai_mont **mc = scalar_contexts(count, m, n, &ctxs);
    if (!mc) return TABAI_ERR_ALLOC;
    s = tabai_mb_powmod_jobs(k, count, r, b, ebits ? e : NULL, ebits, mc, n, threads);
    tabai_wipe_free(mc, count * sizeof *mc);
    tabai_wipe_free(ctxs, count * sizeof *ctxs);
    return s;
}

tabai_status tabai_powmod_batch(size_t count, uint64_t *const r[], const uint64_t *const b[],
                                const uint64_t *const e[], size_t ebits, const uint64_t *const m[],
                                size_t n, unsigned threads) {
    return tabai_powmod_batch_with(tabai_mb_kernel_active(), count, r, b, e, ebits, m, n, threads);
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
            /* cannot fail: a[i], b[i] < m[i] checked by the caller, rr < m[i] */
            (void)!tabai_mont_mul(mc[i], t, a[i], b[i]);   /* a*b/R */
            (void)!tabai_mont_mul(mc[i], t, t, mc[i]->rr); /* a*b; limbs above mc[i]->n stay 0 */
            memcpy(r[i], t, n * sizeof(uint64_t));
        }
    }
    s = TABAI_OK;
done:
    tabai_wipe_free(mc, count * sizeof *mc);
    tabai_wipe_free(ctxs, count * sizeof *ctxs);
    tabai_wipe_free(ctx, sizeof *ctx);
    tabai_wipe_free(x, 2 * TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES * sizeof(uint64_t));
    return s;
}

tabai_status tabai_modmul_batch(size_t count, uint64_t *const r[], const uint64_t *const a[],
                                const uint64_t *const b[], const uint64_t *const m[], size_t n) {
    return tabai_modmul_batch_with(tabai_mb_kernel_active(), count, r, a, b, m, n);
}

