/* The multi-buffer kernels (seed 001) in the benchmark:
 *
 *   mont_mul_mb  on every selected modulus of at most 4096 bits: one Montgomery product,
 *                `ns` = the time of one call of a kernel / its lanes (every lane the same
 *                modulus here; the kernels' time does not depend on the values). Kernels:
 *                "scalar" (tabai_mont_mul at the tier in use, one at a time), and every
 *                multi-buffer kernel the CPU has: "ifma_zmm", "ifma_ymm", "avx512f32_zmm",
 *                "avx512f32_ymm". Beside each, an impl "bound" record with the same kernel
 *                label: the kernel's arithmetic in a throughput loop, per lane (zmm or ymm
 *                as the kernel): for IFMA its 4d^2 + d vpmadd52luq/huq (the multiplier is
 *                the limit); for the 32-bit baseline, whose shifts and adds weigh as much as
 *                its multiplies, the instruction mix of one digit pair (2 vpmuludq, 2 vpsrlq,
 *                4 vpaddq) for each of its d^2 + d/2 pairs. The floor of a kernel with those
 *                instructions on this core.
 *   mont_sqr_mb  the same for the squaring kernels (bound: d(d+1)/2 products for a^2).
 *   mb_to_digits, mb_from_digits  the transposes between L lanes of 64-bit limbs and the
 *                digit layout (radix 2^w), ns per lane, every usable kernel's (L, w).
 *   rsa_private  the RSA private-key operation on the embedded keys (bench/moduli.h, from
 *                data/keys) of every selected size: tabai "scalar" (tabai_rsa_private_batch
 *                through the scalar loop), "mb8" (the same 8 messages through the 8-lane
 *                IFMA kernel) and "single" (one message through the public function: at tier
 *                ifma its two halves through tabai_powmod2_r52), and OpenSSL's EVP_PKEY_sign with RSA_NO_PADDING on the same key
 *                (its default blinding included), `ns` per private-key operation. Every result
 *                is checked against GMP's c^d mod n first. */
#include <gmp.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/dispatch/tables.h"
#include "../src/rsa/rsa.h"
#include "harness.h"
#include "moduli.h"
#include "peers.h"

#define MB_WORDS (TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES)

/* ---- the multiply-throughput loops of the bound records ---- */
#define IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define AVX512_TARGET __attribute__((target("avx512f,avx512vl")))

/* 12 independent accumulators, `trips` x 12 instructions */
#define BOUND_LOOP(insn, reg)                                                                 \
    __asm__ volatile("vpxorq %%" reg "0, %%" reg "0, %%" reg "0\n\t"                          \
                     "1:\n\t" insn " %%" reg "0, %%" reg "0, %%" reg "1\n\t"                  \
                     insn " %%" reg "0, %%" reg "0, %%" reg "2\n\t"                            \
                     insn " %%" reg "0, %%" reg "0, %%" reg "3\n\t"                            \
                     insn " %%" reg "0, %%" reg "0, %%" reg "4\n\t"                            \
                     insn " %%" reg "0, %%" reg "0, %%" reg "5\n\t"                            \
                     insn " %%" reg "0, %%" reg "0, %%" reg "6\n\t"                            \
                     insn " %%" reg "0, %%" reg "0, %%" reg "7\n\t"                            \
                     insn " %%" reg "0, %%" reg "0, %%" reg "8\n\t"                            \
                     insn " %%" reg "0, %%" reg "0, %%" reg "9\n\t"                            \
                     insn " %%" reg "0, %%" reg "0, %%" reg "10\n\t"                           \
                     insn " %%" reg "0, %%" reg "0, %%" reg "11\n\t"                           \
                     insn " %%" reg "0, %%" reg "0, %%" reg "12\n\t"                           \
                     "dec %0\n\t"                                                               \
                     "jnz 1b\n"                                                                 \
                     : "+r"(trips)                                                              \
                     :                                                                          \
                     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",  \
                       "xmm9", "xmm10", "xmm11", "xmm12", "cc")

/* The 32-bit kernels are bound by all their vector ALU work, not by the multiplier: per digit
 * pair (a_i*b_j and q_i*p_j) 2 vpmuludq, 2 vpsrlq and 4 vpaddq (src/avx512/README.md). This
 * loop runs that mix, three digit pairs a trip, with independent accumulators. */
#define MIX32(reg, a0, a1, a2, a3)                                                             \
    "vpmuludq %%" reg "0, %%" reg "1, %%" reg "2\n\t"                                        \
    "vpmuludq %%" reg "1, %%" reg "0, %%" reg "3\n\t"                                        \
    "vpsrlq $32, %%" reg "2, %%" reg "4\n\t"                                                 \
    "vpsrlq $32, %%" reg "3, %%" reg "5\n\t"                                                 \
    "vpaddq %%" reg "2, %%" reg a0 ", %%" reg a0 "\n\t"                                      \
    "vpaddq %%" reg "4, %%" reg a1 ", %%" reg a1 "\n\t"                                      \
    "vpaddq %%" reg "3, %%" reg a2 ", %%" reg a2 "\n\t"                                      \
    "vpaddq %%" reg "5, %%" reg a3 ", %%" reg a3 "\n\t"
#define MIX32_LOOP(reg)                                                                        \
    __asm__ volatile("1:\n\t" MIX32(reg, "6", "7", "8", "9") MIX32(reg, "10", "11", "12", "13")  \
                         MIX32(reg, "14", "15", "16", "17") "dec %0\n\t"                      \
                                                            "jnz 1b\n"                          \
                     : "+r"(trips)                                                              \
                     :                                                                          \
                     : "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
                       "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "cc")
AVX512_TARGET static void loop_mix32_zmm(uint64_t trips) { MIX32_LOOP("zmm"); }
AVX512_TARGET static void loop_mix32_ymm(uint64_t trips) { MIX32_LOOP("ymm"); }

IFMA_TARGET static void loop_madd52_zmm(uint64_t trips) { BOUND_LOOP("vpmadd52luq", "zmm"); }
IFMA_TARGET static void loop_madd52_ymm(uint64_t trips) { BOUND_LOOP("vpmadd52luq", "ymm"); }

typedef struct mb_arg {
    const tabai_mb_kernel *k;
    const tabai_mb_mont *ctx;
    uint64_t *x, *y;      /* digits */
    const tabai_mont *mc; /* scalar */
    uint64_t *r, *b;      /* limbs */
    void (*loop)(uint64_t trips);
    uint64_t insns; /* bound: loop units per call (madd52: 1 instruction; mix32: 1 digit pair) */
    unsigned per_trip; /* units per loop trip */
} mb_arg;

static void run_mb(void *v, size_t it) {
    mb_arg *a = v;
    for (size_t i = 0; i < it; i++) a->k->mont_mul(a->x, a->x, a->y, a->ctx->p, a->ctx->k0, a->ctx->d);
}
static void run_mb_sqr(void *v, size_t it) {
    mb_arg *a = v;
    for (size_t i = 0; i < it; i++) a->k->mont_sqr(a->x, a->x, a->ctx->p, a->ctx->k0, a->ctx->d);
}
static void run_scalar_sqr(void *v, size_t it) {
    mb_arg *a = v;
    for (size_t i = 0; i < it; i++) (void)!tabai_mont_sqr(a->mc, a->r, a->r);
}
/* the transposes: L lanes of n limbs <-> d digits x L lanes, per lane */
typedef struct tr_arg {
    const tabai_mb_kernel *k;
    size_t n, d;
    const uint64_t *lanes[TABAI_MB_MAX_LANES];
    uint64_t *out[TABAI_MB_MAX_LANES];
    uint64_t *x;
} tr_arg;
static void run_to_digits(void *v, size_t it) {
    tr_arg *a = v;
    for (size_t i = 0; i < it; i++) tabai_mb_to_digits(a->x, a->k->lanes, a->k->w, a->d, a->lanes, a->n);
}
static void run_from_digits(void *v, size_t it) {
    tr_arg *a = v;
    for (size_t i = 0; i < it; i++) tabai_mb_from_digits(a->out, a->n, a->x, a->k->lanes, a->k->w, a->d);
}
static void run_scalar(void *v, size_t it) {
    mb_arg *a = v;
    for (size_t i = 0; i < it; i++) (void)!tabai_mont_mul(a->mc, a->r, a->r, a->b);
}
static void run_bound(void *v, size_t it) {
    mb_arg *a = v;
    uint64_t trips = (it * a->insns + a->per_trip - 1) / a->per_trip;
    if (trips) a->loop(trips);
}

static void *bound_loop(const tabai_mb_kernel *k) {
    if (k->w == 52) return k->lanes == 8 ? (void *)loop_madd52_zmm : (void *)loop_madd52_ymm;
    return k->lanes == 8 ? (void *)loop_mix32_zmm : (void *)loop_mix32_ymm;
}


static void mont_mul_mb_op(bench_ctx *c, int square) {
    const tabai_mb_kernel *ks[8];
    size_t nk = 0;
    for (const tabai_mb_kernel *k = tabai_mb_kernels; k->name; k++)
        if (tabai_mb_kernel_usable(k)) ks[nk++] = k;
    for (size_t mi = 0; mi < c->mod_count; mi++) {
        const bench_mod *m = &c->mods[mi];
        if (m->bits > TABAI_MB_MAX_BITS) continue;
        bench_case cs = {square ? "mont_sqr_mb" : "mont_mul_mb", m->bits, m->name, m->n};
        if (!bench_begin(c, &cs)) continue;
        const size_t n = m->n;
        uint64_t *a = bench_alloc(n * 8), *b = bench_alloc(n * 8), *want = bench_alloc(n * 8),
                 *got = bench_alloc(n * 8);
        bench_rand_below(c, a, m->p, n);
        bench_rand_below(c, b, m->p, n);
        if (square) memcpy(b, a, n * 8);
        mpz_t A, B, P;
        mpz_inits(A, B, P, NULL);
        mpz_from(A, a, n);
        mpz_from(B, b, n);
        mpz_from(P, m->p, n);
        mpz_mul(A, A, B);
        mpz_mod(A, A, P);
        mpz_to(want, n, A);

        mb_arg args[17];
        bench_impl impls[17];
        memset(args, 0, sizeof args);
        memset(impls, 0, sizeof impls);
        size_t cnt = 0;
        /* scalar: the tier in use, one product at a time */
        tabai_mont mc;
        if (tabai_mont_init(&mc, m->p, n) != TABAI_OK) bench_fail("tabai_mont_init(%s)", m->name);
        args[cnt].mc = &mc;
        args[cnt].r = bench_alloc(n * 8);
        args[cnt].b = bench_alloc(n * 8);
        (void)!tabai_mont_to(&mc, args[cnt].r, a);
        (void)!tabai_mont_to(&mc, args[cnt].b, b);
        (void)!tabai_mont_mul(&mc, got, args[cnt].r, args[cnt].b);
        (void)!tabai_mont_from(&mc, got, got);
        bench_check_limbs(&cs, "mont_mul", got, want, n);
        impls[cnt] = (bench_impl){"tabai", "scalar", square ? "mont_sqr" : "mont_mul",
                                  square ? run_scalar_sqr : run_scalar, NULL, &args[cnt], 1};
        cnt++;
        tabai_mb_mont *ctx = bench_alloc(nk * sizeof *ctx);
        for (size_t ki = 0; ki < nk; ki++) {
            const tabai_mb_kernel *k = ks[ki];
            const uint64_t *lanes[TABAI_MB_MAX_LANES], *al[TABAI_MB_MAX_LANES],
                *bl[TABAI_MB_MAX_LANES];
            uint64_t *rl[TABAI_MB_MAX_LANES] = {got};
            for (unsigned l = 0; l < k->lanes; l++) {
                lanes[l] = m->p;
                al[l] = a;
                bl[l] = b;
            }
            if (tabai_mb_mont_init(&ctx[ki], k, lanes, n) != TABAI_OK)
                bench_fail("tabai_mb_mont_init(%s, %s)", k->name, m->name);
            mb_arg *x = &args[cnt];
            x->k = k;
            x->ctx = &ctx[ki];
            x->x = bench_alloc(MB_WORDS * 8);
            x->y = bench_alloc(MB_WORDS * 8);
            tabai_mb_to_digits(x->x, k->lanes, k->w, ctx[ki].d, al, n);
            tabai_mb_to_digits(x->y, k->lanes, k->w, ctx[ki].d, bl, n);
            tabai_mb_mont_to(&ctx[ki], x->x, x->x);
            tabai_mb_mont_to(&ctx[ki], x->y, x->y);
            /* check: from(to(a) * to(b)) = a*b mod p */
            uint64_t *t = bench_alloc(MB_WORDS * 8);
            if (square) k->mont_sqr(t, x->x, ctx[ki].p, ctx[ki].k0, ctx[ki].d);
            else k->mont_mul(t, x->x, x->y, ctx[ki].p, ctx[ki].k0, ctx[ki].d);
            tabai_mb_mont_from(&ctx[ki], t, t);
            tabai_mb_from_digits(rl, n, t, k->lanes, k->w, ctx[ki].d);
            free(t);
            bench_check_limbs(&cs, k->mul_sym, got, want, n);
            impls[cnt] = (bench_impl){"tabai", k->name, square ? k->sqr_sym : k->mul_sym,
                                      square ? run_mb_sqr : run_mb, NULL, x, k->lanes};
            cnt++;
            const uint64_t d = ctx[ki].d;
            args[cnt].loop = (void (*)(uint64_t))bound_loop(k);
            /* multiplies of the kernel's algorithm: a*b (or the d(d+1)/2 products of a^2),
             * q*p, and q; IFMA takes two instructions (low, high) a product */
            const uint64_t ab = square ? d * (d + 1) / 2 : d * d;
            if (k->w == 52) { /* vpmadd52luq/huq: two a product, one for q */
                args[cnt].insns = 2 * ab + 2 * d * d + d;
                args[cnt].per_trip = 12;
            } else { /* digit pairs: (ab + q*p products) / 2, q's multiply as half a pair */
                args[cnt].insns = (ab + d * d + d + 1) / 2;
                args[cnt].per_trip = 3;
            }
            impls[cnt] = (bench_impl){"bound", k->name, NULL, run_bound, NULL, &args[cnt], k->lanes};
            cnt++;
        }
        bench_measure(c, &cs, impls, cnt);
        for (size_t i = 0; i < cnt; i++) {
            free(args[i].x);
            free(args[i].y);
            free(args[i].r);
            free(args[i].b);
        }
        free(ctx);
        mpz_clears(A, B, P, NULL);
        free(a);
        free(b);
        free(want);
        free(got);
    }
}

/* ---- RSA ---- */
#define RSA_MSGS 8
#define RSA_MSGS_MAX 64 /* --threads N: 8 N messages, at most this many */

typedef struct rsa_arg {
    const tabai_mb_kernel *k; /* NULL: scalar */
    size_t msgs;              /* messages a call */
    unsigned threads;         /* threads of the batch */
    tabai_rsa_key *const *keys;
    uint64_t **m;
    const uint64_t *const *cc;
    EVP_PKEY_CTX *sctx;
    unsigned char *msg, *sig;
    size_t bytes;
} rsa_arg;

static void run_rsa_tabai(void *v, size_t it) {
    rsa_arg *a = v;
    for (size_t i = 0; i < it; i++)
        if (tabai_rsa_private_batch_with(a->k, a->msgs, a->m, a->cc, a->keys,
                                         a->threads ? a->threads : 1) != TABAI_OK)
            bench_fail("tabai_rsa_private_batch failed");
}
static void run_rsa_openssl(void *v, size_t it) {
    rsa_arg *a = v;
    for (size_t i = 0; i < it; i++) {
        size_t len = a->bytes;
        if (EVP_PKEY_sign(a->sctx, a->sig, &len, a->msg, a->bytes) != 1)
            bench_fail("EVP_PKEY_sign failed");
    }
}


static EVP_PKEY *openssl_key(const bench_rsa_key *rk) {
    const size_t h = rk->h;
    BIGNUM *bn[8] = {bn_from(rk->n, 2 * h), bn_from(rk->e, 2 * h), bn_from(rk->d, 2 * h),
                     bn_from(rk->p, h),     bn_from(rk->q, h),     bn_from(rk->dp, h),
                     bn_from(rk->dq, h),    bn_from(rk->qinv, h)};
    static const char *const names[8] = {OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
                                         OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
                                         OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
                                         OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    for (int i = 0; i < 8; i++)
        if (!bld || !OSSL_PARAM_BLD_push_BN(bld, names[i], bn[i])) bench_fail("OSSL_PARAM_BLD");
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    EVP_PKEY *pkey = NULL;
    if (!params || !pctx || EVP_PKEY_fromdata_init(pctx) != 1 ||
        EVP_PKEY_fromdata(pctx, &pkey, EVP_PKEY_KEYPAIR, params) != 1)
        bench_fail("EVP_PKEY_fromdata (RSA-%u)", rk->bits);
    EVP_PKEY_CTX_free(pctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    for (int i = 0; i < 8; i++) BN_free(bn[i]);
    return pkey;
}

static int mod_selected(const bench_ctx *c, const char *name) {
    for (size_t i = 0; i < c->mod_count; i++)
        if (!strcmp(c->mods[i].name, name)) return 1;
    return 0;
}

static void rsa_private_op(bench_ctx *c) {
    const tabai_mb_kernel *mb8 = tabai_mb_kernel_active();
    for (size_t ki = 0; ki < BENCH_RSA_KEYS_COUNT; ki++) {
        const bench_rsa_key *rk = &bench_rsa_keys[ki];
        char nname[32];
        snprintf(nname, sizeof nname, "rsa%u_n", rk->bits);
        if (!mod_selected(c, nname)) continue;
        bench_case cs = {"rsa_private", rk->bits, nname, 2 * rk->h};
        if (!bench_begin(c, &cs)) continue;
        const size_t h = rk->h, n = 2 * h, bytes = 8 * n;
        tabai_rsa_key key;
        uint64_t kp[5][TABAI_MAX_LIMBS] = {{0}}; /* p, q, dP, dQ, qInv as n-limb numbers */
        const uint64_t *halves[5] = {rk->p, rk->q, rk->dp, rk->dq, rk->qinv};
        for (int j = 0; j < 5; j++) memcpy(kp[j], halves[j], h * sizeof(uint64_t));
        if (tabai_rsa_key_init(&key, rk->n, rk->e[0], rk->d, kp[0], kp[1], kp[2], kp[3], kp[4],
                               n) != TABAI_OK)
            bench_fail("tabai_rsa_key_init(RSA-%u)", rk->bits);
        tabai_rsa_key *keys[RSA_MSGS_MAX];
        uint64_t *cmsg[RSA_MSGS_MAX], *out[2][RSA_MSGS_MAX], *want[RSA_MSGS_MAX];
        const size_t tmsgs = c->threads > 1 && 8 * c->threads <= RSA_MSGS_MAX ? 8 * c->threads
                             : c->threads > 1                                 ? RSA_MSGS_MAX
                                                                              : RSA_MSGS;
        mpz_t C, D, N, W;
        mpz_inits(C, D, N, W, NULL);
        mpz_from(D, rk->d, n);
        mpz_from(N, rk->n, n);
        for (size_t i = 0; i < tmsgs; i++) {
            keys[i] = &key;
            cmsg[i] = bench_alloc(n * 8);
            want[i] = bench_alloc(n * 8);
            out[0][i] = bench_alloc(n * 8);
            out[1][i] = bench_alloc(n * 8);
            bench_rand_below(c, cmsg[i], rk->n, n);
            mpz_from(C, cmsg[i], n);
            mpz_powm(W, C, D, N);
            mpz_to(want[i], n, W);
        }
        rsa_arg args[6];
        bench_impl impls[6];
        memset(args, 0, sizeof args);
        size_t cnt = 0;
        /* scalar: 8 messages one at a time; mb8: the same 8 in one group of 8 lanes;
         * single: one message through the public function (at tier ifma its two CRT halves
         * run through the single-number layout, tabai_powmod2_r52); with --threads N > 1
         * also 8 N messages on 1 thread (mb8_t1) and on N threads (mb8_tN), for the scaling */
        static char tlabel[16];
        snprintf(tlabel, sizeof tlabel, "mb8_t%u", c->threads);
        for (int s = 0; s < 5; s++) {
            if (s >= 1 && !mb8) continue;
            if (s >= 3 && c->threads < 2) continue;
            const char *const label[5] = {"scalar", "mb8", "single", "mb8_t1", tlabel};
            const size_t msgs = s == 2 ? 1 : s >= 3 ? tmsgs : RSA_MSGS;
            args[cnt] = (rsa_arg){s == 1 || s >= 3 ? mb8 : s == 2 ? tabai_mb_kernel_active() : NULL,
                                  msgs, s == 4 ? c->threads : 1, keys, out[s != 0],
                                  (const uint64_t *const *)cmsg, NULL, NULL, NULL, 0};
            run_rsa_tabai(&args[cnt], 1);
            for (size_t i = 0; i < msgs; i++)
                bench_check_limbs(&cs, "rsa_private_batch", out[s != 0][i], want[i], n);
            impls[cnt] = (bench_impl){"tabai", label[s], "rsa_private_batch", run_rsa_tabai, NULL,
                                      &args[cnt], (unsigned)msgs};
            cnt++;
        }
        /* OpenSSL: the same key, raw private operation on message 0 (big-endian bytes) */
        EVP_PKEY *pkey = openssl_key(rk);
        rsa_arg *o = &args[cnt];
        o->bytes = bytes;
        o->msg = bench_alloc(bytes);
        o->sig = bench_alloc(bytes);
        (void)!tabai_to_bytes(o->msg, bytes, cmsg[0], n);
        o->sctx = EVP_PKEY_CTX_new(pkey, NULL);
        if (!o->sctx || EVP_PKEY_sign_init(o->sctx) != 1 ||
            EVP_PKEY_CTX_set_rsa_padding(o->sctx, RSA_NO_PADDING) != 1)
            bench_fail("EVP_PKEY_sign_init (RSA-%u)", rk->bits);
        run_rsa_openssl(o, 1);
        uint64_t *got = bench_alloc(n * 8);
        if (tabai_from_bytes(got, n, o->sig, bytes) != TABAI_OK) bench_fail("EVP_PKEY_sign: signature size");
        bench_check_limbs(&cs, "EVP_PKEY_sign", got, want[0], n);
        impls[cnt] = (bench_impl){"openssl", NULL, "EVP_PKEY_sign", run_rsa_openssl, NULL, o, 1};
        cnt++;
        bench_measure(c, &cs, impls, cnt);
        EVP_PKEY_CTX_free(o->sctx);
        EVP_PKEY_free(pkey);
        free(o->msg);
        free(o->sig);
        free(got);
        for (size_t i = 0; i < tmsgs; i++) {
            free(cmsg[i]);
            free(want[i]);
            free(out[0][i]);
            free(out[1][i]);
        }
        mpz_clears(C, D, N, W, NULL);
    }
}

/* ---- rsa_sign / rsa_verify: the whole PKCS #1 v1.5 path from a SHA-256 digest ----
 * tabai: EMSA-PKCS1-v1_5 encoding (RFC 8017 9.2, written here: the library has the raw
 * operations, the padding lives in the Python package) + tabai_rsa_private (blinded, CRT,
 * checked with e) + bytes; verify: bytes + tabai_rsa_public_vartime + the comparison with the
 * expected encoding. OpenSSL: EVP_PKEY_sign / EVP_PKEY_verify, RSA_PKCS1_PADDING, SHA-256. */
typedef struct sig_arg {
    tabai_rsa_key *key;
    EVP_PKEY_CTX *ctx;
    unsigned char digest[32], sig[1024], em[1024];
    size_t bytes;
    int verify;
} sig_arg;

static void emsa_pkcs1_sha256(unsigned char *em, size_t k, const unsigned char *digest) {
    static const unsigned char prefix[19] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                             0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20};
    em[0] = 0, em[1] = 1;
    memset(em + 2, 0xff, k - 3 - 19 - 32);
    em[k - 52] = 0;
    memcpy(em + k - 51, prefix, 19);
    memcpy(em + k - 32, digest, 32);
}

static void run_sig_tabai(void *v, size_t it) {
    sig_arg *a = v;
    const size_t n = a->key->pub.n;
    uint64_t x[TABAI_MAX_LIMBS], y[TABAI_MAX_LIMBS];
    unsigned char em[1024];
    for (size_t i = 0; i < it; i++) {
        if (!a->verify) {
            emsa_pkcs1_sha256(em, a->bytes, a->digest);
            if (tabai_from_bytes(x, n, em, a->bytes) != TABAI_OK ||
                tabai_rsa_private(a->key, y, x) != TABAI_OK ||
                tabai_to_bytes(a->sig, a->bytes, y, n) != TABAI_OK)
                bench_fail("tabai rsa_sign");
        } else {
            emsa_pkcs1_sha256(em, a->bytes, a->digest);
            if (tabai_from_bytes(x, n, a->sig, a->bytes) != TABAI_OK ||
                tabai_rsa_public_vartime(&a->key->pub, y, x) != TABAI_OK ||
                tabai_to_bytes(a->em, a->bytes, y, n) != TABAI_OK || memcmp(a->em, em, a->bytes))
                bench_fail("tabai rsa_verify");
        }
    }
}

static void run_sig_openssl(void *v, size_t it) {
    sig_arg *a = v;
    for (size_t i = 0; i < it; i++) {
        size_t len = a->bytes;
        if (!a->verify ? EVP_PKEY_sign(a->ctx, a->sig, &len, a->digest, 32) != 1
                       : EVP_PKEY_verify(a->ctx, a->sig, a->bytes, a->digest, 32) != 1)
            bench_fail("EVP_PKEY_%s", a->verify ? "verify" : "sign");
    }
}

static void rsa_sig_op(bench_ctx *c, int verify) {
    for (size_t ki = 0; ki < BENCH_RSA_KEYS_COUNT; ki++) {
        const bench_rsa_key *rk = &bench_rsa_keys[ki];
        char nname[32];
        snprintf(nname, sizeof nname, "rsa%u_n", rk->bits);
        if (!mod_selected(c, nname)) continue;
        bench_case cs = {verify ? "rsa_verify" : "rsa_sign", rk->bits, nname, 2 * rk->h};
        if (!bench_begin(c, &cs)) continue;
        const size_t h = rk->h, n = 2 * h;
        static tabai_rsa_key key;
        uint64_t kp[5][TABAI_MAX_LIMBS] = {{0}};
        const uint64_t *halves[5] = {rk->p, rk->q, rk->dp, rk->dq, rk->qinv};
        for (int j = 0; j < 5; j++) memcpy(kp[j], halves[j], h * sizeof(uint64_t));
        if (tabai_rsa_key_init(&key, rk->n, rk->e[0], rk->d, kp[0], kp[1], kp[2], kp[3], kp[4],
                               n) != TABAI_OK)
            bench_fail("tabai_rsa_key_init(RSA-%u)", rk->bits);
        static sig_arg ta, oa;
        memset(&ta, 0, sizeof ta), memset(&oa, 0, sizeof oa);
        ta.key = &key, ta.bytes = oa.bytes = 8 * n, ta.verify = oa.verify = verify;
        for (int i = 0; i < 32; i++) ta.digest[i] = oa.digest[i] = (unsigned char)(7 * i + rk->bits);
        EVP_PKEY *pkey = openssl_key(rk);
        oa.ctx = EVP_PKEY_CTX_new(pkey, NULL);
        if (!oa.ctx || (verify ? EVP_PKEY_verify_init(oa.ctx) : EVP_PKEY_sign_init(oa.ctx)) != 1 ||
            EVP_PKEY_CTX_set_rsa_padding(oa.ctx, RSA_PKCS1_PADDING) != 1 ||
            EVP_PKEY_CTX_set_signature_md(oa.ctx, EVP_sha256()) != 1)
            bench_fail("EVP_PKEY_CTX (RSA-%u)", rk->bits);
        /* the signature both make (PKCS #1 v1.5 is deterministic): the same bytes */
        sig_arg s0 = ta;
        s0.verify = 0;
        run_sig_tabai(&s0, 1);
        if (!verify) {
            run_sig_openssl(&oa, 1);
            if (memcmp(s0.sig, oa.sig, oa.bytes)) bench_fail("rsa_sign: tabai and OpenSSL differ");
        } else {
            memcpy(ta.sig, s0.sig, ta.bytes), memcpy(oa.sig, s0.sig, oa.bytes);
            run_sig_openssl(&oa, 1);
        }
        bench_impl impls[2] = {
            {"tabai", "single", verify ? "rsa_public_vartime" : "rsa_private", run_sig_tabai, NULL, &ta, 1},
            {"openssl", NULL, verify ? "EVP_PKEY_verify" : "EVP_PKEY_sign", run_sig_openssl, NULL, &oa, 1}};
        bench_measure(c, &cs, impls, 2);
        EVP_PKEY_CTX_free(oa.ctx);
        EVP_PKEY_free(pkey);
        tabai_rsa_key_clear(&key);
    }
}

/* mb_to_digits / mb_from_digits: the transposes of one group, ns per lane */
static void transpose_op(bench_ctx *c, int to) {
    for (size_t mi = 0; mi < c->mod_count; mi++) {
        const bench_mod *m = &c->mods[mi];
        if (m->bits > TABAI_MB_MAX_BITS) continue;
        bench_case cs = {to ? "mb_to_digits" : "mb_from_digits", m->bits, m->name, m->n};
        if (!bench_begin(c, &cs)) continue;
        tr_arg args[8];
        bench_impl impls[8];
        size_t cnt = 0;
        uint64_t *src = bench_alloc(TABAI_MB_MAX_LANES * m->n * 8);
        bench_rand_limbs(c, src, TABAI_MB_MAX_LANES * m->n);
        for (const tabai_mb_kernel *k = tabai_mb_kernels; k->name && cnt < 8; k++) {
            if (!tabai_mb_kernel_usable(k)) continue;
            tr_arg *a = &args[cnt];
            a->k = k;
            a->n = m->n;
            a->d = tabai_mb_digits(64 * m->n, k->w);
            a->x = bench_alloc(MB_WORDS * 8);
            for (unsigned l = 0; l < k->lanes; l++) {
                a->lanes[l] = src + l * m->n;
                a->out[l] = bench_alloc(m->n * 8);
            }
            /* check: the round trip gives the limbs back */
            run_to_digits(a, 1);
            run_from_digits(a, 1);
            for (unsigned l = 0; l < k->lanes; l++)
                bench_check_limbs(&cs, "mb_from_digits(mb_to_digits)", a->out[l], a->lanes[l], m->n);
            impls[cnt] = (bench_impl){"tabai", k->name, to ? "mb_to_digits" : "mb_from_digits",
                                      to ? run_to_digits : run_from_digits, NULL, a, k->lanes};
            cnt++;
        }
        bench_measure(c, &cs, impls, cnt);
        for (size_t i = 0; i < cnt; i++) {
            free(args[i].x);
            for (unsigned l = 0; l < args[i].k->lanes; l++) free(args[i].out[l]);
        }
        free(src);
    }
}

void bench_suite_mb(bench_ctx *c) {
    bench_kernel(c, "scalar");
    for (const tabai_mb_kernel *k = tabai_mb_kernels; k->name; k++) bench_kernel(c, k->name);
    bench_kernel(c, "mb8");
    bench_kernel(c, "single");
    bench_kernel(c, "mb8_t1"); /* and mb8_tN with --threads N */
    if (bench_op(c, "mont_mul_mb")) mont_mul_mb_op(c, 0);
    if (bench_op(c, "mont_sqr_mb")) mont_mul_mb_op(c, 1);
    if (bench_op(c, "mb_to_digits")) transpose_op(c, 1);
    if (bench_op(c, "mb_from_digits")) transpose_op(c, 0);
    if (bench_op(c, "rsa_private")) rsa_private_op(c);
    if (bench_op(c, "rsa_sign")) rsa_sig_op(c, 0);
    if (bench_op(c, "rsa_verify")) rsa_sig_op(c, 1);
}

/* The zmm madd52 throughput loop for the other suites' bound records (suite_ec_mb.c):
 * trips x 12 independent vpmadd52luq. */
void bench_loop_madd52_zmm(uint64_t trips) { loop_madd52_zmm(trips); }
