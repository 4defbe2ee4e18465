/* The single-number radix-2^52 IFMA layout (src/ifma/r52.h, src/mod/powmod_r52.h) in the
 * benchmark, on every selected odd modulus of 1024 .. 8192 bits, at tier ifma on a CPU with IFMA:
 *
 *   mont_mul, mont_sqr  one product in the layout's own Montgomery domain (R = 2^(52 dd)),
 *                chained (x = x*y, x = x^2): kernels "ifma_r52_ymm" (digits in ymm vectors)
 *                and "ifma_r52_zmm", and "ifma_r52x2_ymm/zmm" (two independent products of
 *                the same size in one call, ns per product). Beside each width an impl "bound"
 *                record with the same kernel label: the kernel's vpmadd52luq/huq count
 *                (mul 4 dd^2, sqr 3 dd^2 + dd lane products, over the vector width) in a
 *                throughput loop of that width: the floor of the kernel on this core.
 *   powmod       r = b^e mod p, e of p's bit length, constant time: tabai_powmod_r52 at each
 *                width (the conversions in and out included), beside OpenSSL's
 *                BN_mod_exp_mont_consttime in the same measurement.
 * Every result is checked against GMP first. */
#include <gmp.h>
#include <openssl/bn.h>
#include <stdlib.h>
#include <string.h>

#include "../src/digits.h"
#include "../src/mod/powmod_r52.h"
#include "harness.h"
#include "peers.h"

#define R52_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
/* 12 independent accumulators, `trips` x 12 instructions (as the multi-buffer bound) */
#define R52_BOUND_LOOP(reg)                                                                      \
    __asm__ volatile("vpxorq %%" reg "0, %%" reg "0, %%" reg "0\n\t"                            \
                     "1:\n\t"                                                                     \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "1\n\t"                         \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "2\n\t"                         \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "3\n\t"                         \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "4\n\t"                         \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "5\n\t"                         \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "6\n\t"                         \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "7\n\t"                         \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "8\n\t"                         \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "9\n\t"                         \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "10\n\t"                        \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "11\n\t"                        \
                     "vpmadd52luq %%" reg "0, %%" reg "0, %%" reg "12\n\t"                        \
                     "dec %0\n\t"                                                                 \
                     "jnz 1b\n"                                                                   \
                     : "+r"(trips)                                                                \
                     :                                                                            \
                     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",    \
                       "xmm9", "xmm10", "xmm11", "xmm12", "cc")
R52_TARGET static void r52_loop_zmm(uint64_t trips) { R52_BOUND_LOOP("zmm"); }
R52_TARGET static void r52_loop_ymm(uint64_t trips) { R52_BOUND_LOOP("ymm"); }

typedef struct r52_arg {
    tabai_r52 *c;
    uint64_t *x, *y, *x2; /* padded digit buffers */
    uint64_t insns;       /* bound: madd instructions per call */
    /* powmod */
    const tabai_mont *mc;
    uint64_t *r;
    const uint64_t *b, *e;
    size_t ebits;
    uint64_t *ws; /* the exponentiation's workspace */
    BIGNUM *br, *bb, *be, *bp;
    BN_CTX *bctx;
    BN_MONT_CTX *bmont;
} r52_arg;

static void run_mul(void *v, size_t it) {
    r52_arg *a = v;
    for (size_t i = 0; i < it; i++)
        tabai_mont_mul_r52n_ifma(a->x, a->x, a->y, tabai_r52_p(a->c), a->c->k0, a->c->dd, a->c->vl);
}
static void run_sqr(void *v, size_t it) {
    r52_arg *a = v;
    for (size_t i = 0; i < it; i++)
        tabai_mont_sqr_r52n_ifma(a->x, a->x, tabai_r52_p(a->c), a->c->k0, a->c->dd, a->c->vl);
}
static void run_mul2(void *v, size_t it) {
    r52_arg *a = v;
    const uint64_t *p = tabai_r52_p(a->c);
    for (size_t i = 0; i < it; i++)
        tabai_mont_mul2_r52n_ifma(a->x, a->x2, a->x, a->x2, a->y, a->y, p, p, a->c->k0, a->c->k0,
                                  a->c->dd, a->c->vl);
}
static void run_sqr2(void *v, size_t it) {
    r52_arg *a = v;
    const uint64_t *p = tabai_r52_p(a->c);
    for (size_t i = 0; i < it; i++)
        tabai_mont_sqr2_r52n_ifma(a->x, a->x2, a->x, a->x2, p, p, a->c->k0, a->c->k0, a->c->dd,
                                  a->c->vl);
}
static void run_bound(void *v, size_t it) {
    r52_arg *a = v;
    uint64_t trips = (it * a->insns + 11) / 12;
    if (!trips) return;
    if (a->c->vl == 8) r52_loop_zmm(trips);
    else r52_loop_ymm(trips);
}
static void run_powmod(void *v, size_t it) {
    r52_arg *a = v;
    for (size_t i = 0; i < it; i++) tabai_powmod_r52(a->mc, a->r, a->b, a->e, a->ebits, a->c->vl, a->ws);
}
static void run_openssl_powmod(void *v, size_t it) {
    r52_arg *a = v;
    for (size_t i = 0; i < it; i++)
        BN_mod_exp_mont_consttime(a->br, a->bb, a->be, a->bp, a->bctx, a->bmont);
}

/* digits of z (padded buffer) */
static uint64_t *digits_of(const mpz_t z, size_t dd) {
    uint64_t *buf = bench_alloc(TABAI_R52_BUF * 8), limbs[TABAI_MAX_LIMBS + 2] = {0};
    memset(buf, 0, TABAI_R52_BUF * 8);
    mpz_export(limbs, NULL, -1, 8, 0, 0, z);
    const uint64_t *src[1] = {limbs};
    tabai_mb_to_digits(buf + TABAI_R52_PAD, 1, 52, dd, src, TABAI_MAX_LIMBS + 2);
    return buf;
}
static void check_digits(const bench_case *cs, const char *what, const uint64_t *x, size_t dd,
                         const mpz_t want, const mpz_t p) {
    mpz_t X;
    mpz_init(X);
    for (size_t i = dd; i-- > 0;) {
        mpz_mul_2exp(X, X, 52);
        mpz_add_ui(X, X, x[i]);
    }
    mpz_mod(X, X, p);
    if (mpz_cmp(X, want)) bench_fail("%s %u: %s differs from GMP", cs->op, cs->bits, what);
    mpz_clear(X);
}

static int r52_mod_ok(const bench_mod *m) {
    return m->bits >= 1024 && m->bits <= 8192 && (m->p[0] & 1) && tabai_r52_usable();
}

static void r52_chain_op(bench_ctx *c, int square) {
    for (size_t mi = 0; mi < c->mod_count; mi++) {
        const bench_mod *m = &c->mods[mi];
        if (!r52_mod_ok(m)) continue;
        bench_case cs = {square ? "mont_sqr" : "mont_mul", m->bits, m->name, m->n};
        if (!bench_begin(c, &cs)) continue;
        tabai_mont mc;
        if (tabai_mont_init(&mc, m->p, m->n) != TABAI_OK) bench_fail("tabai_mont_init(%s)", m->name);
        uint64_t *a = bench_alloc(m->n * 8), *b = bench_alloc(m->n * 8);
        bench_rand_below(c, a, m->p, m->n);
        bench_rand_below(c, b, m->p, m->n);
        mpz_t A, B, P, W;
        mpz_inits(A, B, P, W, NULL);
        mpz_from(A, a, m->n);
        mpz_from(B, square ? a : b, m->n);
        mpz_from(P, m->p, m->n);
        r52_arg args[6];
        bench_impl impls[6];
        memset(args, 0, sizeof args);
        size_t k = 0;
        for (unsigned vl = 4; vl <= 8; vl += 4) {
            if (vl == 4 && tabai_r52_digits(m->bits, m->n, 4) > 92) continue;
            tabai_r52 *ctx = aligned_alloc(64, sizeof *ctx);
            if (!ctx || tabai_r52_init(ctx, &mc, vl, 0) != 0) bench_fail("tabai_r52_init(%s)", m->name);
            const size_t dd = ctx->dd;
            /* want: a b / R mod p, R = 2^(52 dd) */
            mpz_set_ui(W, 1);
            mpz_mul_2exp(W, W, 52 * dd);
            mpz_invert(W, W, P);
            mpz_mul(W, W, A);
            mpz_mul(W, W, B);
            mpz_mod(W, W, P);
            const char *lab = vl == 4 ? "ifma_r52_ymm" : "ifma_r52_zmm";
            const char *lab2 = vl == 4 ? "ifma_r52x2_ymm" : "ifma_r52x2_zmm";
            for (int two = 0; two < 2; two++) {
                r52_arg *x = &args[k];
                x->c = ctx;
                x->x = digits_of(A, dd) + TABAI_R52_PAD;
                x->x2 = digits_of(A, dd) + TABAI_R52_PAD;
                x->y = digits_of(B, dd) + TABAI_R52_PAD;
                (two ? (square ? run_sqr2 : run_mul2) : (square ? run_sqr : run_mul))(x, 1);
                check_digits(&cs, lab, x->x, dd, W, P);
                if (two) check_digits(&cs, lab2, x->x2, dd, W, P);
                impls[k] = (bench_impl){"tabai", two ? lab2 : lab,
                                        two ? (square ? "mont_sqr2_r52n_ifma" : "mont_mul2_r52n_ifma")
                                            : (square ? "mont_sqr_r52n_ifma" : "mont_mul_r52n_ifma"),
                                        two ? (square ? run_sqr2 : run_mul2) : (square ? run_sqr : run_mul),
                                        NULL, x, two ? 2u : 1u};
                k++;
            }
            args[k].c = ctx;
            args[k].insns = (square ? 3 * dd * dd + dd : 4 * dd * dd) / vl;
            impls[k] = (bench_impl){"bound", lab, NULL, run_bound, NULL, &args[k], 1};
            k++;
        }
        bench_measure(c, &cs, impls, k);
        for (size_t i = 0; i < k; i++) {
            if (args[i].x) {
                free(args[i].x - TABAI_R52_PAD);
                free(args[i].x2 - TABAI_R52_PAD);
                free(args[i].y - TABAI_R52_PAD);
            } else {
                free(args[i].c); /* the bound record is the last user of its width's context */
            }
        }
        mpz_clears(A, B, P, W, NULL);
        free(a);
        free(b);
    }
}

static void r52_powmod_op(bench_ctx *c) {
    for (size_t mi = 0; mi < c->mod_count; mi++) {
        const bench_mod *m = &c->mods[mi];
        if (!r52_mod_ok(m)) continue;
        bench_case cs = {"powmod", m->bits, m->name, m->n};
        if (!bench_begin(c, &cs)) continue;
        const size_t n = m->n, ebits = m->bits;
        tabai_mont mc;
        if (tabai_mont_init(&mc, m->p, n) != TABAI_OK) bench_fail("tabai_mont_init(%s)", m->name);
        uint64_t *b = bench_alloc(n * 8), *e = bench_alloc(n * 8), *got = bench_alloc(n * 8),
                 *want = bench_alloc(n * 8), *ws = bench_alloc(8 * tabai_r52_scratch_limbs(n, ebits, 1));
        bench_rand_below(c, b, m->p, n);
        bench_rand_limbs(c, e, n);
        unsigned top = (unsigned)(ebits - 64 * (n - 1));
        if (top < 64) e[n - 1] &= (1ull << top) - 1;
        e[n - 1] |= 1ull << (top - 1);
        mpz_t B, E, P, W;
        mpz_inits(B, E, P, W, NULL);
        mpz_from(B, b, n);
        mpz_from(E, e, n);
        mpz_from(P, m->p, n);
        mpz_powm(W, B, E, P);
        mpz_to(want, n, W);
        r52_arg args[3];
        bench_impl impls[3];
        memset(args, 0, sizeof args);
        tabai_r52 ctxs[2];
        size_t k = 0;
        for (unsigned vl = 4; vl <= 8; vl += 4) {
            if (vl == 4 && tabai_r52_digits(m->bits, n, 4) > 92) continue;
            ctxs[vl / 8].vl = vl;
            args[k] = (r52_arg){.c = &ctxs[vl / 8], .mc = &mc, .r = got, .b = b, .e = e, .ebits = ebits,
                                .ws = ws};
            run_powmod(&args[k], 1);
            bench_check_limbs(&cs, "powmod_r52", got, want, n);
            impls[k] = (bench_impl){"tabai", vl == 4 ? "ifma_r52_ymm" : "ifma_r52_zmm", "powmod_r52",
                                    run_powmod, NULL, &args[k], 1};
            k++;
        }
        /* OpenSSL in the same measurement (ratios from one run) */
        r52_arg *o = &args[k];
        o->bctx = BN_CTX_new();
        o->bmont = BN_MONT_CTX_new();
        o->br = BN_new();
        o->bb = bn_from(b, n);
        o->be = bn_from(e, n);
        o->bp = bn_from(m->p, n);
        if (!o->bctx || !o->bmont || !BN_MONT_CTX_set(o->bmont, o->bp, o->bctx))
            bench_fail("BN_MONT_CTX_set(%s)", m->name);
        BN_set_flags(o->be, BN_FLG_CONSTTIME);
        BN_set_flags(o->bb, BN_FLG_CONSTTIME);
        run_openssl_powmod(o, 1);
        bn_to(got, n, o->br);
        bench_check_limbs(&cs, "BN_mod_exp_mont_consttime", got, want, n);
        impls[k] = (bench_impl){"openssl", NULL, "BN_mod_exp_mont_consttime", run_openssl_powmod,
                                NULL, o, 1};
        k++;
        bench_measure(c, &cs, impls, k);
        BN_free(o->br), BN_free(o->bb), BN_free(o->be), BN_free(o->bp);
        BN_MONT_CTX_free(o->bmont);
        BN_CTX_free(o->bctx);
        mpz_clears(B, E, P, W, NULL);
        free(b), free(e), free(got), free(want), free(ws);
    }
}

void bench_suite_r52(bench_ctx *c) {
    static const char *const labels[] = {"ifma_r52_ymm", "ifma_r52_zmm", "ifma_r52x2_ymm",
                                         "ifma_r52x2_zmm"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) bench_kernel(c, labels[i]);
    if (bench_op(c, "mont_mul")) r52_chain_op(c, 0);
    if (bench_op(c, "mont_sqr")) r52_chain_op(c, 1);
    if (bench_op(c, "powmod")) r52_powmod_op(c);
}
