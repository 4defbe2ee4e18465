/* The core operations, tabai (every tier) beside GMP and OpenSSL:
 *   mul       r[2n] = a*b              tabai mul[slot] per tier    | GMP mpn_mul_n
 *   sqr       r[2n] = a^2              tabai sqr[slot] per tier    | GMP mpn_sqr
 *   mont_mul  x = x*b/R mod p (chain)  tabai mont_mul[slot]        | OpenSSL BN_mod_mul_montgomery
 *   mont_sqr  x = x^2/R mod p (chain)  tabai mont_sqr[slot]        | OpenSSL BN_mod_mul_montgomery(x, x)
 *   ohta_mul  x = x*b mod p (chain)    tabai_ohta_mul per tier
 *   modmul    x = x*b mod p (chain)    GMP mpz_mul + mpz_mod       | OpenSSL BN_mod_mul
 *   powmod    r = b^e mod p, e of p's bit length, constant time:
 *             tabai_mont_powmod per tier | GMP mpz_powm_sec | OpenSSL BN_mod_exp_mont_consttime
 * Tiers: each tier up to the one in use, skipping a tier whose kernel for this size is the same
 * function as a lower measured tier's (the kernel label is the lowest tier that has it).
 * Every implementation's result is compared with GMP's before anything is timed. */
#include <gmp.h>
#include <openssl/bn.h>
#include <string.h>

#include "dispatch/tables.h"
#include "harness.h"
#include "peers.h"


#define BARRIER() __asm__ volatile("" ::: "memory")

/* ------------------------------------------------------------------------------------------
 * Tiers: the distinct kernels of one family and size
 * ------------------------------------------------------------------------------------------ */
typedef struct {
    const void *f[3];
} kkey;

static size_t pick_tiers(const bench_ctx *c, kkey (*key)(const tabai_kernels *, size_t),
                         size_t slot, const tabai_kernels **out) {
    kkey seen[TABAI_TIER_COUNT];
    size_t m = 0;
    for (int t = 0; t < TABAI_TIER_COUNT; t++) {
        if (!bench_tier_wanted(c, (tabai_tier)t)) continue;
        const tabai_kernels *kt = tabai_kernels_for_tier((tabai_tier)t);
        if (!kt) continue;
        kkey k = key(kt, slot);
        int dup = 0;
        for (size_t i = 0; i < m; i++) dup |= !memcmp(&seen[i], &k, sizeof k);
        if (dup) continue;
        seen[m] = k;
        out[m++] = kt;
    }
    return m;
}

static kkey key_mul(const tabai_kernels *k, size_t s) { return (kkey){{(const void *)k->mul[s]}}; }
static kkey key_sqr(const tabai_kernels *k, size_t s) { return (kkey){{(const void *)k->sqr[s]}}; }
static kkey key_mont_mul(const tabai_kernels *k, size_t s) {
    return (kkey){{(const void *)k->mont_mul[s]}};
}
static kkey key_mont_sqr(const tabai_kernels *k, size_t s) {
    return (kkey){{(const void *)k->mont_sqr[s]}};
}
static kkey key_ohta(const tabai_kernels *k, size_t s) {
    return (kkey){{(const void *)k->mul[s], (const void *)k->sqr[s], (const void *)k->addmul_1}};
}
static kkey key_powmod(const tabai_kernels *k, size_t s) {
    return (kkey){{(const void *)k->mont_mul[s], (const void *)k->mont_sqr[s]}};
}

/* ------------------------------------------------------------------------------------------
 * mul, sqr
 * ------------------------------------------------------------------------------------------ */
typedef struct {
    tabai_mul_n_fn mul;
    tabai_sqr_n_fn sqr;
    uint64_t *r;
    const uint64_t *a, *b;
    size_t n;
} limb_arg;

static void run_tabai_mul(void *p, size_t it) {
    limb_arg *x = p;
    for (size_t i = 0; i < it; i++) {
        x->mul(x->r, x->a, x->b, x->n);
        BARRIER();
    }
}
static void run_gmp_mul(void *p, size_t it) {
    limb_arg *x = p;
    for (size_t i = 0; i < it; i++) {
        mpn_mul_n(x->r, x->a, x->b, (mp_size_t)x->n);
        BARRIER();
    }
}
static void run_tabai_sqr(void *p, size_t it) {
    limb_arg *x = p;
    for (size_t i = 0; i < it; i++) {
        x->sqr(x->r, x->a, x->n);
        BARRIER();
    }
}
static void run_gmp_sqr(void *p, size_t it) {
    limb_arg *x = p;
    for (size_t i = 0; i < it; i++) {
        mpn_sqr(x->r, x->a, (mp_size_t)x->n);
        BARRIER();
    }
}

static void limb_op(bench_ctx *c, int square) {
    const char *op = square ? "sqr" : "mul";
    for (size_t li = 0; li < c->limb_count; li++) {
        size_t n = c->limbs[li], slot = tabai_slot(n);
        bench_case cs = {op, (unsigned)(64 * n), NULL, n};
        if (!bench_begin(c, &cs)) continue;
        const tabai_kernels *kt[TABAI_TIER_COUNT];
        size_t nt = pick_tiers(c, square ? key_sqr : key_mul, slot, kt);
        uint64_t *a = bench_alloc(n * 8), *b = bench_alloc(n * 8), *want = bench_alloc(2 * n * 8);
        uint64_t *r = bench_alloc((nt + 1) * 2 * n * 8);
        bench_rand_limbs(c, a, n);
        bench_rand_limbs(c, b, n);
        a[n - 1] |= 1ull << 63; /* full-size operands */
        b[n - 1] |= 1ull << 63;
        if (square) mpn_sqr(want, a, (mp_size_t)n);
        else mpn_mul_n(want, a, b, (mp_size_t)n);

        limb_arg args[TABAI_TIER_COUNT + 1];
        bench_impl impls[TABAI_TIER_COUNT + 1];
        for (size_t t = 0; t <= nt; t++) {
            args[t] = (limb_arg){NULL, NULL, r + t * 2 * n, a, b, n};
            if (t < nt) {
                args[t].mul = kt[t]->mul[slot];
                args[t].sqr = kt[t]->sqr[slot];
                impls[t] = (bench_impl){"tabai", kt[t]->name,
                                        square ? kt[t]->sqr_sym[slot] : kt[t]->mul_sym[slot],
                                        square ? run_tabai_sqr : run_tabai_mul, NULL, &args[t], 1};
            } else {
                impls[t] = (bench_impl){"gmp", NULL, square ? "mpn_sqr" : "mpn_mul_n",
                                        square ? run_gmp_sqr : run_gmp_mul, NULL, &args[t], 1};
            }
            impls[t].run(&args[t], 1);
            bench_check_limbs(&cs, impls[t].symbol, args[t].r, want, 2 * n);
        }
        bench_measure(c, &cs, impls, nt + 1);
        free(a);
        free(b);
        free(want);
        free(r);
    }
}

/* ------------------------------------------------------------------------------------------
 * Modular operations: shared set-up
 * ------------------------------------------------------------------------------------------ */
typedef struct {
    const bench_mod *m;
    size_t n, slot;
    tabai_mont mont;
    uint64_t *x0, *b; /* random operands < p */
    mpz_t P, X, B, Rinv;
    BIGNUM *bP;
    BN_CTX *bctx;
    BN_MONT_CTX *bmont;
} mod_setup;

static void mod_setup_init(bench_ctx *c, mod_setup *s, const bench_mod *m) {
    memset(s, 0, sizeof *s);
    s->m = m;
    s->n = m->n;
    s->slot = tabai_slot(m->n);
    tabai_status st = tabai_mont_init(&s->mont, m->p, m->n);
    if (st != TABAI_OK || s->mont.n != m->n)
        bench_fail("tabai_mont_init(%s): %s", m->name, tabai_status_str(st));
    s->x0 = bench_alloc(m->n * 8);
    s->b = bench_alloc(m->n * 8);
    bench_rand_below(c, s->x0, m->p, m->n);
    bench_rand_below(c, s->b, m->p, m->n);
    mpz_inits(s->P, s->X, s->B, s->Rinv, NULL);
    mpz_from(s->P, m->p, m->n);
    mpz_from(s->X, s->x0, m->n);
    mpz_from(s->B, s->b, m->n);
    mpz_setbit(s->Rinv, 64 * m->n);
    if (!mpz_invert(s->Rinv, s->Rinv, s->P)) bench_fail("internal: R not invertible");
    s->bP = bn_from(m->p, m->n);
    s->bctx = BN_CTX_new();
    s->bmont = BN_MONT_CTX_new();
    if (!s->bctx || !s->bmont || !BN_MONT_CTX_set(s->bmont, s->bP, s->bctx))
        bench_fail("BN_MONT_CTX_set(%s) failed", m->name);
}

static void mod_setup_free(mod_setup *s) {
    free(s->x0);
    free(s->b);
    mpz_clears(s->P, s->X, s->B, s->Rinv, NULL);
    BN_free(s->bP);
    BN_CTX_free(s->bctx);
    BN_MONT_CTX_free(s->bmont);
}

/* the state of one chained implementation: x <- f(x, b) */
typedef struct {
    const mod_setup *s;
    tabai_mont_mul_fn mm;
    tabai_mont_sqr_fn ms;
    const tabai_ohta *ohta;
    tabai_tier tier;
    uint64_t *x, *t;
    BIGNUM *bx, *bt, *bb;
    mpz_t zx, zt;
} chain_arg;

static void run_tabai_mont_mul(void *p, size_t it) {
    chain_arg *a = p;
    const mod_setup *s = a->s;
    uint64_t *x = a->x, *t = a->t;
    for (size_t i = 0; i < it; i++) {
        a->mm(t, x, s->b, s->mont.p, s->mont.pinv, s->n);
        uint64_t *u = x;
        x = t;
        t = u;
    }
    a->x = x;
    a->t = t;
}
static void run_tabai_mont_sqr(void *p, size_t it) {
    chain_arg *a = p;
    const mod_setup *s = a->s;
    uint64_t *x = a->x, *t = a->t;
    for (size_t i = 0; i < it; i++) {
        a->ms(t, x, s->mont.p, s->mont.pinv, s->n);
        uint64_t *u = x;
        x = t;
        t = u;
    }
    a->x = x;
    a->t = t;
}
static void prepare_tier(void *p) { (void)!tabai_cpu_set_tier(((chain_arg *)p)->tier); }
static void run_tabai_ohta_mul(void *p, size_t it) {
    chain_arg *a = p;
    uint64_t *x = a->x, *t = a->t;
    for (size_t i = 0; i < it; i++) {
        (void)!tabai_ohta_mul(a->ohta, t, x, a->s->b);
        uint64_t *u = x;
        x = t;
        t = u;
    }
    a->x = x;
    a->t = t;
}
static void run_openssl_mont_mul(void *p, size_t it) {
    chain_arg *a = p;
    for (size_t i = 0; i < it; i++) {
        BN_mod_mul_montgomery(a->bt, a->bx, a->bb, a->s->bmont, a->s->bctx);
        BN_swap(a->bt, a->bx);
    }
}
static void run_openssl_mont_sqr(void *p, size_t it) {
    chain_arg *a = p;
    for (size_t i = 0; i < it; i++) {
        BN_mod_mul_montgomery(a->bt, a->bx, a->bx, a->s->bmont, a->s->bctx);
        BN_swap(a->bt, a->bx);
    }
}
static void run_openssl_modmul(void *p, size_t it) {
    chain_arg *a = p;
    for (size_t i = 0; i < it; i++) {
        BN_mod_mul(a->bt, a->bx, a->bb, a->s->bP, a->s->bctx);
        BN_swap(a->bt, a->bx);
    }
}
static void run_gmp_modmul(void *p, size_t it) {
    chain_arg *a = p;
    for (size_t i = 0; i < it; i++) {
        mpz_mul(a->zt, a->zx, a->s->B);
        mpz_mod(a->zx, a->zt, a->s->P);
    }
}

static void chain_init(chain_arg *a, const mod_setup *s) {
    memset(a, 0, sizeof *a);
    a->s = s;
    a->x = bench_alloc(s->n * 8);
    a->t = bench_alloc(s->n * 8);
    memcpy(a->x, s->x0, s->n * 8);
    a->bx = bn_from(s->x0, s->n);
    a->bt = BN_new();
    a->bb = bn_from(s->b, s->n);
    mpz_init_set(a->zx, s->X);
    mpz_init(a->zt);
}

static void chain_free(chain_arg *a) {
    free(a->x);
    free(a->t);
    BN_free(a->bx);
    BN_free(a->bt);
    BN_free(a->bb);
    mpz_clears(a->zx, a->zt, NULL);
}

/* One step of each implementation from the same x0, compared with GMP; then timed. */
enum { OP_MONT_MUL, OP_MONT_SQR, OP_OHTA_MUL, OP_MODMUL };

static void chain_op(bench_ctx *c, int op) {
    static const char *const names[] = {"mont_mul", "mont_sqr", "ohta_mul", "modmul"};
    for (size_t mi = 0; mi < c->mod_count; mi++) {
        const bench_mod *m = &c->mods[mi];
        bench_case cs = {names[op], m->bits, m->name, m->n};
        if (!bench_begin(c, &cs)) continue;
        mod_setup s;
        mod_setup_init(c, &s, m);
        const size_t n = s.n, slot = s.slot;
        const tabai_kernels *kt[TABAI_TIER_COUNT];
        size_t nt = 0;
        if (op == OP_MONT_MUL) nt = pick_tiers(c, key_mont_mul, slot, kt);
        if (op == OP_MONT_SQR) nt = pick_tiers(c, key_mont_sqr, slot, kt);
        if (op == OP_OHTA_MUL) nt = pick_tiers(c, key_ohta, slot, kt);
        tabai_ohta ohta;
        if (op == OP_OHTA_MUL && tabai_ohta_init(&ohta, m->p, n) != TABAI_OK)
            bench_fail("tabai_ohta_init(%s) failed", m->name);

        /* the expected result of one step from x0 */
        mpz_t W;
        mpz_init(W);
        if (op == OP_MONT_SQR) mpz_mul(W, s.X, s.X);
        else mpz_mul(W, s.X, s.B);
        if (op == OP_MONT_MUL || op == OP_MONT_SQR) mpz_mul(W, W, s.Rinv);
        mpz_mod(W, W, s.P);
        uint64_t *want = bench_alloc(n * 8), *got = bench_alloc(n * 8);
        mpz_to(want, n, W);

        chain_arg args[TABAI_TIER_COUNT + 2];
        bench_impl impls[TABAI_TIER_COUNT + 2];
        size_t k = 0;
        for (size_t t = 0; t < nt; t++, k++) {
            chain_init(&args[k], &s);
            args[k].mm = kt[t]->mont_mul[slot];
            args[k].ms = kt[t]->mont_sqr[slot];
            args[k].ohta = &ohta;
            args[k].tier = kt[t]->tier;
            if (op == OP_MONT_MUL)
                impls[k] = (bench_impl){"tabai", kt[t]->name, kt[t]->mont_mul_sym[slot],
                                        run_tabai_mont_mul, NULL, &args[k], 1};
            else if (op == OP_MONT_SQR)
                impls[k] = (bench_impl){"tabai", kt[t]->name, kt[t]->mont_sqr_sym[slot],
                                        run_tabai_mont_sqr, NULL, &args[k], 1};
            else
                impls[k] = (bench_impl){"tabai", kt[t]->name, "ohta_mul", run_tabai_ohta_mul,
                                        prepare_tier, &args[k], 1};
        }
        if (op == OP_MONT_MUL || op == OP_MONT_SQR) {
            chain_init(&args[k], &s);
            impls[k] = (bench_impl){"openssl", NULL,
                                    op == OP_MONT_MUL ? "BN_mod_mul_montgomery"
                                                      : "BN_mod_mul_montgomery(a,a)",
                                    op == OP_MONT_MUL ? run_openssl_mont_mul : run_openssl_mont_sqr,
                                    NULL, &args[k], 1};
            k++;
        }
        if (op == OP_MODMUL) {
            chain_init(&args[k], &s);
            impls[k] = (bench_impl){"gmp", NULL, "mpz_mul+mpz_mod", run_gmp_modmul, NULL,
                                    &args[k], 1};
            k++;
            chain_init(&args[k], &s);
            impls[k] = (bench_impl){"openssl", NULL, "BN_mod_mul", run_openssl_modmul, NULL,
                                    &args[k], 1};
            k++;
        }
        for (size_t i = 0; i < k; i++) {
            chain_arg *a = &args[i];
            if (impls[i].prepare) impls[i].prepare(a);
            impls[i].run(a, 1);
            if (a->bx && !strcmp(impls[i].impl, "openssl")) bn_to(got, n, a->bx);
            else if (!strcmp(impls[i].impl, "gmp")) mpz_to(got, n, a->zx);
            else memcpy(got, a->x, n * 8);
            bench_check_limbs(&cs, impls[i].symbol, got, want, n);
        }
        (void)!tabai_cpu_set_tier(c->tier_cap);
        bench_measure(c, &cs, impls, k);
        (void)!tabai_cpu_set_tier(c->tier_cap);
        for (size_t i = 0; i < k; i++) chain_free(&args[i]);
        mpz_clear(W);
        free(want);
        free(got);
        mod_setup_free(&s);
    }
}

/* ------------------------------------------------------------------------------------------
 * powmod: constant time, exponent of the modulus' bit length
 * ------------------------------------------------------------------------------------------ */
typedef struct {
    const tabai_mont *ctx;
    uint64_t *r, *scratch;
    size_t scratch_limbs;
    const uint64_t *b, *e;
    size_t ebits;
    mpz_t R, B, E, P;
    BIGNUM *br, *bb, *be, *bp;
    BN_CTX *bctx;
    BN_MONT_CTX *bmont;
} pow_arg;

static void run_tabai_powmod(void *p, size_t it) {
    pow_arg *a = p;
    for (size_t i = 0; i < it; i++) (void)!tabai_mont_powmod(a->ctx, a->r, a->b, a->e, a->ebits, a->scratch,
                                                     a->scratch_limbs);
}
static void run_gmp_powmod(void *p, size_t it) {
    pow_arg *a = p;
    for (size_t i = 0; i < it; i++) mpz_powm_sec(a->R, a->B, a->E, a->P);
}
static void run_openssl_powmod(void *p, size_t it) {
    pow_arg *a = p;
    for (size_t i = 0; i < it; i++)
        BN_mod_exp_mont_consttime(a->br, a->bb, a->be, a->bp, a->bctx, a->bmont);
}

static void powmod_op(bench_ctx *c) {
    for (size_t mi = 0; mi < c->mod_count; mi++) {
        const bench_mod *m = &c->mods[mi];
        bench_case cs = {"powmod", m->bits, m->name, m->n};
        if (!bench_begin(c, &cs)) continue;
        mod_setup s;
        mod_setup_init(c, &s, m);
        const size_t n = s.n, ebits = m->bits;
        uint64_t *e = bench_alloc(n * 8), *want = bench_alloc(n * 8), *got = bench_alloc(n * 8);
        bench_rand_limbs(c, e, n);
        unsigned top = (unsigned)(ebits - 64 * (n - 1));
        if (top < 64) e[n - 1] &= (1ull << top) - 1;
        e[n - 1] |= 1ull << (top - 1); /* exactly ebits bits */
        mpz_t E, W;
        mpz_inits(E, W, NULL);
        mpz_from(E, e, n);
        mpz_powm(W, s.X, E, s.P);
        mpz_to(want, n, W);

        const tabai_kernels *kt[TABAI_TIER_COUNT];
        size_t nt = pick_tiers(c, key_powmod, s.slot, kt);
        tabai_mont *ctx = bench_alloc((nt ? nt : 1) * sizeof *ctx);
        pow_arg args[TABAI_TIER_COUNT + 2];
        bench_impl impls[TABAI_TIER_COUNT + 2];
        memset(args, 0, sizeof args);
        size_t k = 0;
        const size_t scratch = tabai_powmod_scratch_limbs(n, ebits);
        for (size_t t = 0; t < nt; t++, k++) {
            (void)!tabai_cpu_set_tier(kt[t]->tier);
            if (tabai_mont_init(&ctx[t], m->p, n) != TABAI_OK || ctx[t].tier != kt[t]->tier)
                bench_fail("tabai_mont_init(%s) at tier %s failed", m->name, kt[t]->name);
            (void)!tabai_cpu_set_tier(c->tier_cap);
            args[k].ctx = &ctx[t];
            args[k].r = bench_alloc(n * 8);
            args[k].scratch = bench_alloc(scratch * 8 + 8);
            args[k].scratch_limbs = scratch;
            args[k].b = s.x0;
            args[k].e = e;
            args[k].ebits = ebits;
            impls[k] = (bench_impl){"tabai", kt[t]->name, "mont_powmod", run_tabai_powmod, NULL,
                                    &args[k], 1};
        }
        /* GMP */
        mpz_inits(args[k].R, args[k].B, args[k].E, args[k].P, NULL);
        mpz_set(args[k].B, s.X);
        mpz_set(args[k].E, E);
        mpz_set(args[k].P, s.P);
        impls[k] = (bench_impl){"gmp", NULL, "mpz_powm_sec", run_gmp_powmod, NULL, &args[k], 1};
        const size_t kg = k++;
        /* OpenSSL, Montgomery context precomputed, exponent flagged constant time */
        args[k].br = BN_new();
        args[k].bb = bn_from(s.x0, n);
        args[k].be = bn_from(e, n);
        args[k].bp = s.bP;
        args[k].bctx = s.bctx;
        args[k].bmont = s.bmont;
        BN_set_flags(args[k].be, BN_FLG_CONSTTIME);
        BN_set_flags(args[k].bb, BN_FLG_CONSTTIME);
        impls[k] = (bench_impl){"openssl", NULL, "BN_mod_exp_mont_consttime", run_openssl_powmod,
                                NULL, &args[k], 1};
        const size_t ko = k++;

        for (size_t i = 0; i < k; i++) {
            impls[i].run(&args[i], 1);
            if (i == kg) mpz_to(got, n, args[i].R);
            else if (i == ko) bn_to(got, n, args[i].br);
            else memcpy(got, args[i].r, n * 8);
            bench_check_limbs(&cs, impls[i].symbol, got, want, n);
        }
        bench_measure(c, &cs, impls, k);

        for (size_t t = 0; t < nt; t++) {
            free(args[t].r);
            free(args[t].scratch);
        }
        mpz_clears(args[kg].R, args[kg].B, args[kg].E, args[kg].P, NULL);
        BN_free(args[ko].br);
        BN_free(args[ko].bb);
        BN_free(args[ko].be);
        free(ctx);
        mpz_clears(E, W, NULL);
        free(e);
        free(want);
        free(got);
        mod_setup_free(&s);
    }
}

/* ------------------------------------------------------------------------------------------ */
void bench_suite_core(bench_ctx *c) {
    for (int t = 0; t < TABAI_TIER_COUNT; t++)
        if ((int)t <= (int)c->tier_cap) bench_kernel(c, tabai_tier_name((tabai_tier)t));
    if (bench_op(c, "mul")) limb_op(c, 0);
    if (bench_op(c, "sqr")) limb_op(c, 1);
    if (bench_op(c, "mont_mul")) chain_op(c, OP_MONT_MUL);
    if (bench_op(c, "mont_sqr")) chain_op(c, OP_MONT_SQR);
    if (bench_op(c, "ohta_mul")) chain_op(c, OP_OHTA_MUL);
    if (bench_op(c, "modmul")) chain_op(c, OP_MODMUL);
    if (bench_op(c, "powmod")) powmod_op(c);
}
