/* The eight-lane curve batches (tabai_ec.h, src/ec/mb.c) in the benchmark:
 *
 *   ecdh_mb          tabai_ecdh_batch on 8 pairs, `ns` per operation (per_call 8)
 *   ecdsa_sign_mb    tabai_ecdsa_sign_batch on 8 digests (SHA-256 size, RFC 6979)
 *   ecdsa_verify_mb  tabai_ecdsa_verify_batch_vartime on 8 valid signatures
 *   ec_fmul_mb       the lanes' field product (5 or 8 digits) per lane, with its "bound"
 *                    record: the 4 d^2 + d vpmadd52 of the algorithm in a throughput loop
 *
 * Curves P-256, P-384 and secp256k1 (the `modulus` field; `--curves` chooses). Kernels:
 * "scalar" (the single-operation function on the same 8 items, one at a time: the tier in
 * use) and "ifma_zmm" (the batch through the IFMA kernel, only when the CPU has IFMA and the
 * tier is ifma). The peers (OpenSSL, libsecp256k1) are the single-operation ops of the
 * curve suite (ecdh, ecdsa_sign, ecdsa_verify), in the same run when selected together.
 * Before timing, every batch result is compared with the single function's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../src/ec/mb.h"
#include "harness.h"
#include "tabai_ec.h"

void bench_loop_madd52_zmm(uint64_t trips); /* suite_mb.c */

#define NB 8

typedef struct mb_ec_arg {
    tabai_curve cv;
    const tabai_ec_r52_kernel *k;
    const tabai_ec_r52_curve *r;
    size_t L, Ln;
    uint8_t sk[NB][66], pk[NB][133], peer[NB][133], dg[NB][32], sig[NB][132], out[NB][132];
    const uint8_t *skp[NB], *pkp[NB], *peerp[NB], *dgp[NB], *sigp[NB];
    uint8_t *outp[NB];
    size_t pk_len[NB], dg_len[NB];
    tabai_status st[NB];
    uint64_t x[64], y[64];
    uint64_t insns;
} mb_ec_arg;

static void run_ecdh_single(void *v, size_t it) {
    mb_ec_arg *a = v;
    for (size_t i = 0; i < it; i++)
        for (int j = 0; j < NB; j++) /* checked against the batch before the timed runs */
            (void)!tabai_ecdh(a->cv, a->out[j], a->sk[j], a->peer[j], a->pk_len[j]);
}
static void run_ecdh_mb(void *v, size_t it) {
    mb_ec_arg *a = v;
    for (size_t i = 0; i < it; i++)
        tabai_ecdh_batch_with(a->k, a->cv, NB, a->st, a->outp, a->skp, a->peerp, a->pk_len);
}
static void run_sign_single(void *v, size_t it) {
    mb_ec_arg *a = v;
    for (size_t i = 0; i < it; i++)
        for (int j = 0; j < NB; j++) /* checked against the batch before the timed runs */
            (void)!tabai_ecdsa_sign_digest(a->cv, a->out[j], a->sk[j], a->dg[j], 32,
                                           TABAI_HASH_SHA256, NULL, 0, 0);
}
static void run_sign_mb(void *v, size_t it) {
    mb_ec_arg *a = v;
    for (size_t i = 0; i < it; i++)
        tabai_ecdsa_sign_batch_with(a->k, a->cv, NB, a->st, a->outp, a->skp, a->dgp, a->dg_len,
                                    TABAI_HASH_SHA256, NULL, NULL, 0);
}
static void run_verify_single(void *v, size_t it) {
    mb_ec_arg *a = v;
    for (size_t i = 0; i < it; i++)
        for (int j = 0; j < NB; j++) /* checked against the batch before the timed runs */
            (void)!tabai_ecdsa_verify_digest_vartime(a->cv, a->pk[j], a->pk_len[j], a->dg[j], 32,
                                                     a->sig[j], 0);
}
static void run_verify_mb(void *v, size_t it) {
    mb_ec_arg *a = v;
    for (size_t i = 0; i < it; i++)
        tabai_ecdsa_verify_batch_with_vartime(a->k, a->cv, NB, a->st, a->pkp, a->pk_len, a->dgp,
                                              a->dg_len, a->sigp, 0);
}
static void run_fmul(void *v, size_t it) {
    mb_ec_arg *a = v;
    for (size_t i = 0; i < it; i++) a->k->fmul(a->r, a->x, a->x, a->y);
}
static void run_fmul_bound(void *v, size_t it) {
    mb_ec_arg *a = v;
    uint64_t trips = (it * a->insns + 11) / 12;
    if (trips) bench_loop_madd52_zmm(trips);
}

static int wanted(const bench_ctx *c, const char *name) {
    if (!c->want_curve_count) return 1;
    for (size_t i = 0; i < c->want_curve_count; i++)
        if (!strcasecmp(c->want_curves[i], name)) return 1;
    return 0;
}

static void setup(mb_ec_arg *a, tabai_curve cv, const tabai_ec_r52_kernel *k) {
    memset(a, 0, sizeof *a);
    a->cv = cv;
    a->k = k;
    a->r = tabai_ec_r52_curve_get(tabai_ec_curve_get(cv));
    a->L = tabai_ec_field_bytes(cv);
    a->Ln = tabai_ec_scalar_bytes(cv);
    for (int j = 0; j < NB; j++) {
        uint8_t sk2[66];
        if (tabai_ec_keypair(cv, a->sk[j], a->pk[j]) != TABAI_OK ||
            tabai_ec_keypair(cv, sk2, a->peer[j]) != TABAI_OK)
            bench_fail("tabai_ec_keypair failed");
        for (int b = 0; b < 32; b++) a->dg[j][b] = (uint8_t)(j * 31 + b * 7);
        if (tabai_ecdsa_sign_digest(cv, a->sig[j], a->sk[j], a->dg[j], 32, TABAI_HASH_SHA256, NULL,
                                    0, 0) != TABAI_OK)
            bench_fail("tabai_ecdsa_sign_digest failed");
        a->pk_len[j] = 1 + 2 * a->L;
        a->dg_len[j] = 32;
        a->skp[j] = a->sk[j];
        a->pkp[j] = a->pk[j];
        a->peerp[j] = a->peer[j];
        a->dgp[j] = a->dg[j];
        a->sigp[j] = a->sig[j];
        a->outp[j] = a->out[j];
    }
}

/* the batch's outputs against the single functions' (op 0 ecdh, 1 sign, 2 verify) */
static void check(mb_ec_arg *a, int op, const char *cname) {
    uint8_t want[132];
    for (int j = 0; j < NB; j++) {
        a->st[j] = TABAI_ERR_FAULT;
        memset(a->out[j], 0, sizeof a->out[j]);
    }
    if (op == 0) run_ecdh_mb(a, 1);
    if (op == 1) run_sign_mb(a, 1);
    if (op == 2) run_verify_mb(a, 1);
    for (int j = 0; j < NB; j++) {
        tabai_status s = TABAI_OK;
        size_t len = 0;
        if (op == 0) s = tabai_ecdh(a->cv, want, a->sk[j], a->peer[j], a->pk_len[j]), len = a->L;
        if (op == 1)
            s = tabai_ecdsa_sign_digest(a->cv, want, a->sk[j], a->dg[j], 32, TABAI_HASH_SHA256,
                                        NULL, 0, 0),
            len = 2 * a->Ln;
        if (op == 2) s = tabai_ecdsa_verify_digest_vartime(a->cv, a->pk[j], a->pk_len[j], a->dg[j],
                                                           32, a->sig[j], 0);
        if (s != TABAI_OK || a->st[j] != TABAI_OK || memcmp(want, a->out[j], len))
            bench_fail("%s: the batch (%s) differs from the single function", cname,
                       op == 0 ? "ecdh" : op == 1 ? "sign" : "verify");
    }
}

void bench_suite_ec_mb(bench_ctx *c) {
    static const tabai_curve curves[] = {TABAI_CURVE_P256, TABAI_CURVE_P384,
                                         TABAI_CURVE_SECP256K1};
    static const char *const ops[] = {"ecdh_mb", "ecdsa_sign_mb", "ecdsa_verify_mb"};
    static const char *const syms[] = {"ecdh_batch", "ecdsa_sign_batch",
                                       "ecdsa_verify_batch_vartime"};
    static const char *const single[] = {"ecdh", "ecdsa_sign_digest",
                                         "ecdsa_verify_digest_vartime"};
    const bench_fn run_single[] = {run_ecdh_single, run_sign_single, run_verify_single};
    const bench_fn run_mb[] = {run_ecdh_mb, run_sign_mb, run_verify_mb};
    const tabai_ec_r52_kernel *k = tabai_ec_mb_kernel_active();
    bench_kernel(c, "scalar");
    bench_kernel(c, "ifma_zmm");
    for (int op = 0; op < 3; op++) {
        if (!bench_op(c, ops[op])) continue;
        for (size_t ci = 0; ci < sizeof curves / sizeof curves[0]; ci++) {
            const char *cname = tabai_curve_name(curves[ci]);
            if (!wanted(c, cname)) continue;
            bench_case cs = {ops[op], (unsigned)(8 * tabai_ec_field_bytes(curves[ci])), cname, 0};
            if (!bench_begin(c, &cs)) continue;
            mb_ec_arg *a = bench_alloc(sizeof *a);
            setup(a, curves[ci], k);
            bench_impl impls[2];
            size_t cnt = 0;
            impls[cnt++] = (bench_impl){"tabai", "scalar", single[op], run_single[op], NULL, a, NB};
            if (k) {
                check(a, op, cname);
                impls[cnt++] = (bench_impl){"tabai", k->name, syms[op], run_mb[op], NULL, a, NB};
            }
            bench_measure(c, &cs, impls, cnt);
            free(a);
        }
    }
    if (bench_op(c, "ec_fmul_mb") && k) {
        for (size_t ci = 0; ci < sizeof curves / sizeof curves[0]; ci++) {
            const char *cname = tabai_curve_name(curves[ci]);
            if (!wanted(c, cname)) continue;
            bench_case cs = {"ec_fmul_mb", (unsigned)(8 * tabai_ec_field_bytes(curves[ci])), cname,
                             0};
            if (!bench_begin(c, &cs)) continue;
            mb_ec_arg *a = bench_alloc(sizeof *a);
            memset(a, 0, sizeof *a);
            a->cv = curves[ci];
            a->k = k;
            a->r = tabai_ec_r52_curve_get(tabai_ec_curve_get(curves[ci]));
            uint64_t d = a->r->d;
            for (size_t t = 0; t < d * 8; t++) a->x[t] = a->y[t] = a->r->p.one[t / 8];
            a->insns = 4 * d * d + d; /* a*b and q*p: two madds a product; q: one */
            bench_impl impls[2] = {
                {"tabai", k->name, "ec_fmul_r52_mb8_ifma", run_fmul, NULL, a, 8},
                {"bound", k->name, NULL, run_fmul_bound, NULL, a, 8}};
            bench_measure(c, &cs, impls, 2);
            free(a);
        }
    }
}
