/* tabai-ec-time: per-operation times of the short-Weierstrass curves (src/ec) beside
 * OpenSSL's EVP in one run, alternating (the fastest call of each), and each operation's
 * bound: its field multiplications and squarings, counted by running the scalar
 * multiplication the library runs through a counting instance of the curve's inlined point
 * code (bench/ec_count.c), times the measured multiplication and squaring of the tier's
 * inlined code (their reciprocal throughput: two independent chains interleaved; the
 * chained latency is printed beside it), plus its inversions (safegcd) times their measured
 * times: those the counting instance makes (variable-time field inversions of the k P and
 * verification tables) and the protocol's own (signing: Z^-1 of k G and k^-1 mod n,
 * inverted side by side by tabai_ec_inv2_ct; verification: s^-1 mod n; ECDH: the affine
 * conversion of d Q).
 *   tabai-ec-time [seconds per measurement, default 0.2] [curve: P-256, P-384, P-521 or
 *                 secp256k1; default all four]
 * TABAI_CPU caps the tier as everywhere. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ec/bmi2/p521_mul.h" /* inline assembly: called only where the tier has BMI2 */
#include "ec/ec.h"
#include "ec/field.h"
#include "ec/p521_field.h"
#include "ec_count.h"
#include "tabai_ec.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef int (*op_fn)(void *);

/* microseconds per call: the fastest single call within the budget (at least 50 calls): on
 * a shared machine every longer round carries the neighbours' load, while some single calls
 * run undisturbed */
static double time_op(op_fn f, void *arg, double budget) {
    double best = 1e30, end = now() + budget;
    for (int k = 0; k < 50 || now() < end; k++) {
        double t0 = now();
        f(arg);
        double t = now() - t0;
        if (t < best) best = t;
    }
    return best * 1e6;
}

typedef struct {
    tabai_curve c;
    size_t L;
    uint8_t sk[66], pk[133], peer[133], dg[64], sig[132];
    EVP_PKEY *key, *peerkey;
    EVP_PKEY_CTX *sctx, *vctx, *dctx;
    unsigned char osig[200];
    size_t osig_len;
} job;

static int t_sign(void *a) {
    job *j = a;
    return tabai_ecdsa_sign_digest(j->c, j->sig, j->sk, j->dg, 32, TABAI_HASH_SHA256, NULL, 0, 0);
}
static int t_verify(void *a) {
    job *j = a;
    return tabai_ecdsa_verify_digest_vartime(j->c, j->pk, 1 + 2 * j->L, j->dg, 32, j->sig, 0);
}
static int t_ecdh(void *a) {
    job *j = a;
    uint8_t s[66];
    return tabai_ecdh(j->c, s, j->sk, j->peer, 1 + 2 * j->L);
}
static int o_sign(void *a) {
    job *j = a;
    unsigned char out[200];
    size_t l = sizeof out;
    return EVP_PKEY_sign(j->sctx, out, &l, j->dg, 32);
}
static int o_verify(void *a) {
    job *j = a;
    return EVP_PKEY_verify(j->vctx, j->osig, j->osig_len, j->dg, 32);
}
static int o_ecdh(void *a) {
    job *j = a;
    uint8_t s[66];
    size_t l = sizeof s;
    return EVP_PKEY_derive(j->dctx, s, &l);
}

static EVP_PKEY *load_key(const char *group, const uint8_t *sk, size_t L, const uint8_t *pk) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *k = NULL;
    BIGNUM *d = sk ? BN_bin2bn(sk, (int)L, NULL) : NULL;
    unsigned char dbuf[66];
    OSSL_PARAM ps[4];
    int i = 0;
    ps[i++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0);
    ps[i++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pk, 1 + 2 * L);
    if (d) {
        BN_bn2nativepad(d, dbuf, (int)L);
        ps[i++] = OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_PRIV_KEY, dbuf, L);
    }
    ps[i] = OSSL_PARAM_construct_end();
    EVP_PKEY_fromdata_init(c);
    EVP_PKEY_fromdata(c, &k, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, ps);
    EVP_PKEY_CTX_free(c);
    BN_free(d);
    return k;
}

typedef struct {
    tabai_ec_ctx x;
    uint64_t a[12], b[12], c[12]; /* TABAI_EC_LIMBS words, or P-521's 12 of radix 2^52 */
} fjob;
/* the curve's inlined product (square) of the tier, what the point code uses: P-521's in
 * radix 2^58 (its impl->fe_mul adds the conversions from and to words), the mulx one of
 * bmi2/p521_mul.h from tier bmi2 up, the radix-2^52 one at ifma (as a call) */
static int p521_mulx(const fjob *f) {
    return f->x.impl == &tabai_ec_impl_p521_bmi2 || f->x.impl == &tabai_ec_impl_p521_bmi2_avx2;
}
static int p521_r52(const fjob *f) { return f->x.impl == &tabai_ec_impl_p521_ifma; }
static void fmul(const fjob *f, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    if (p521_r52(f)) tabai_ec_p521_r52_mul(r, a, b);
    else if (p521_mulx(f)) p521_r58_mul_bmi2(r, a, b);
    else if (f->x.c->form == TABAI_EC_FORM_MERSENNE) p521_r58_mul(r, a, b);
    else if (f->x.impl) f->x.impl->fe_mul(r, a, b);
    else f->x.fp.mul(r, a, b, f->x.fp.m, f->x.fp.minv, f->x.fp.n);
}
static void fsqr(const fjob *f, uint64_t *r, const uint64_t *a) {
    if (p521_r52(f)) tabai_ec_p521_r52_sqr(r, a);
    else if (p521_mulx(f)) p521_r58_sqr_bmi2(r, a);
    else if (f->x.c->form == TABAI_EC_FORM_MERSENNE) p521_r58_sqr(r, a);
    else if (f->x.impl) f->x.impl->fe_sqr(r, a);
    else f->x.fp.sqr(r, a, f->x.fp.m, f->x.fp.minv, f->x.fp.n);
}
/* latency: a chain of 100 dependent products (squares) */
static int t_fmul(void *v) {
    fjob *f = v;
    for (int i = 0; i < 100; i++) fmul(f, f->a, f->a, f->b);
    return 0;
}
static int t_fsqr(void *v) {
    fjob *f = v;
    for (int i = 0; i < 100; i++) fsqr(f, f->a, f->a);
    return 0;
}
/* reciprocal throughput: two independent chains of 50, interleaved */
static int t_fmul2(void *v) {
    fjob *f = v;
    for (int i = 0; i < 50; i++) fmul(f, f->a, f->a, f->b), fmul(f, f->c, f->c, f->b);
    return 0;
}
static int t_fsqr2(void *v) {
    fjob *f = v;
    for (int i = 0; i < 50; i++) fsqr(f, f->a, f->a), fsqr(f, f->c, f->c);
    return 0;
}

/* the inversions of the protocols (safegcd; src/ec/inv.c) */
typedef void (*inv_fn)(const tabai_ec_ctx *, uint64_t *, const uint64_t *);
static inv_fn inv_which;
static int t_inv(void *v) {
    fjob *f = v;
    for (int i = 0; i < 10; i++) inv_which(&f->x, f->a, f->a);
    return 0;
}
static double time_inv(fjob *f, inv_fn fn, double budget) {
    inv_which = fn;
    return time_op(t_inv, f, budget) / 10;
}
/* signing's pair: a field element and a scalar at once */
static int t_inv2(void *v) {
    fjob *f = v;
    for (int i = 0; i < 10; i++) tabai_ec_inv2_ct(&f->x, f->a, f->a, f->b, f->b);
    return 0;
}

int main(int argc, char **argv) {
    double budget = argc > 1 ? atof(argv[1]) : 0.2;
    const char *only = argc > 2 ? argv[2] : NULL;
    static const struct {
        tabai_curve c;
        const char *group;
    } curves[] = {{TABAI_CURVE_P256, "P-256"},
                  {TABAI_CURVE_P384, "P-384"},
                  {TABAI_CURVE_P521, "P-521"},
                  {TABAI_CURVE_SECP256K1, "secp256k1"}};
    size_t known = 0;
    for (size_t ci = 0; ci < 4; ci++) known += only && !strcmp(only, curves[ci].group);
    if (only && !known) {
        fprintf(stderr, "tabai-ec-time: unknown curve %s (P-256, P-384, P-521, secp256k1)\n", only);
        return 2;
    }
    printf("tier %s, OpenSSL %s, %.2f s a measurement\n", tabai_cpu_name(),
           OpenSSL_version(OPENSSL_VERSION), budget);
    printf("%-10s %-7s %10s %10s %8s %8s %8s %5s %10s %8s\n", "curve", "op", "tabai_us", "ossl_us",
           "ossl/tb", "fmul", "fsqr", "inv", "bound_us", "share");
    for (size_t ci = 0; ci < 4; ci++) {
        if (only && strcmp(only, curves[ci].group) != 0) continue;
        job j;
        memset(&j, 0, sizeof j);
        j.c = curves[ci].c;
        j.L = tabai_ec_field_bytes(j.c);
        uint8_t psk[66];
        if (tabai_ec_keypair(j.c, j.sk, j.pk) != TABAI_OK ||
            tabai_ec_keypair(j.c, psk, j.peer) != TABAI_OK) {
            printf("%s: key pair failed\n", curves[ci].group);
            return 1;
        }
        for (int i = 0; i < 64; i++) j.dg[i] = (uint8_t)(i * 7 + 1);
        t_sign(&j); /* its signature is checked below (t_verify) */
        j.key = load_key(curves[ci].group, j.sk, j.L, j.pk);
        j.peerkey = load_key(curves[ci].group, NULL, j.L, j.peer);
        j.sctx = EVP_PKEY_CTX_new(j.key, NULL);
        EVP_PKEY_sign_init(j.sctx);
        j.vctx = EVP_PKEY_CTX_new(j.key, NULL);
        EVP_PKEY_verify_init(j.vctx);
        j.dctx = EVP_PKEY_CTX_new(j.key, NULL);
        EVP_PKEY_derive_init(j.dctx);
        EVP_PKEY_derive_set_peer(j.dctx, j.peerkey);
        j.osig_len = sizeof j.osig;
        EVP_PKEY_sign(j.sctx, j.osig, &j.osig_len, j.dg, 32);
        if (t_verify(&j) != TABAI_OK || o_verify(&j) != 1) {
            printf("%s: self-check failed\n", curves[ci].group);
            return 1;
        }
        /* the field multiplication of the tier */
        fjob f;
        const tabai_ec_curve *cu = tabai_ec_curve_get(j.c);
        tabai_ec_ctx_init(&f.x, cu);
        memset(f.a, 0, sizeof f.a), memset(f.b, 0, sizeof f.b), memset(f.c, 0, sizeof f.c);
        memcpy(f.a, cu->gx_m, sizeof cu->gx_m);
        memcpy(f.b, cu->gy_m, sizeof cu->gy_m);
        memcpy(f.c, cu->b_m, sizeof cu->b_m);
        if (p521_r52(&f)) /* digits of 52 bits (any value: only the timing counts) */
            for (int i = 11; i-- > 0;) {
                const unsigned bit = 52u * (unsigned)i, w = bit / 64, sh = bit % 64;
                uint64_t *v[3] = {f.a, f.b, f.c};
                for (int k = 0; k < 3; k++) {
                    uint64_t d = v[k][w] >> sh;
                    if (sh > 12 && w + 1 < 9) d |= v[k][w + 1] << (64 - sh);
                    v[k][i] = d & ((UINT64_C(1) << 52) - 1);
                }
            }
        else if (cu->form == TABAI_EC_FORM_MERSENNE)
            p521_r58_from_words(f.a, f.a), p521_r58_from_words(f.b, f.b),
                p521_r58_from_words(f.c, f.c);
        /* latency (a chain) and reciprocal throughput (two chains); the bound takes the
         * latter, as the point formulas' products overlap */
        double fm_lat = time_op(t_fmul, &f, budget) / 100, fm = time_op(t_fmul2, &f, budget) / 100;
        printf("%-10s %-7s %10.4f %10.4f (us: chained, two chains)\n", curves[ci].group, "fmul",
               fm_lat, fm);
        double fs_lat = time_op(t_fsqr, &f, budget) / 100, fs = time_op(t_fsqr2, &f, budget) / 100;
        printf("%-10s %-7s %10.4f %10.4f\n", curves[ci].group, "fsqr", fs_lat, fs);
        /* the inversions, microseconds each (the field's in the context's form) */
        memcpy(f.a, cu->gx_m, sizeof cu->gx_m);
        double fi_ct = time_inv(&f, tabai_ec_fe_inv_ct, budget);
        double fi_vt = time_inv(&f, tabai_ec_fe_inv_vartime, budget);
        memcpy(f.a, cu->q, sizeof cu->q);
        f.a[0] -= 3; /* a scalar below q; its inverses, chained, stay below q */
        double qi_ct = time_inv(&f, tabai_ec_scalar_inv_ct, budget);
        double qi_vt = time_inv(&f, tabai_ec_scalar_inv_vartime, budget);
        memcpy(f.b, cu->q, sizeof cu->q);
        f.b[0] -= 2; /* a scalar below q */
        double pair_ct = time_op(t_inv2, &f, budget) / 10;
        printf("%-10s %-7s %10.2f %10.2f %10.2f %10.2f %10.2f (us: field ct, vartime; scalar "
               "ct, vartime; the pair)\n",
               curves[ci].group, "inv", fi_ct, fi_vt, qi_ct, qi_vt, pair_ct);
        static const char *names[] = {"sign", "verify", "ecdh"};
        op_fn ours[] = {t_sign, t_verify, t_ecdh}, theirs[] = {o_sign, o_verify, o_ecdh};
        /* the protocols' own inversions beside the scalar multiplication's */
        const double proto_inv[] = {pair_ct, qi_vt, fi_ct};
        for (int o = 0; o < 3; o++) {
            /* alternate: ours, theirs, ours, theirs; the better of each pair */
            double a1 = time_op(ours[o], &j, budget), b1 = time_op(theirs[o], &j, budget);
            double a2 = time_op(ours[o], &j, budget), b2 = time_op(theirs[o], &j, budget);
            double a = a1 < a2 ? a1 : a2, b = b1 < b2 ? b1 : b2;
            /* count: the scalar multiplication through the counting instance */
            tabai_ec_ctx x;
            tabai_ec_ctx_init(&x, cu);
            x.impl = tabai_ec_count_impl(j.c, tabai_cpu_tier());
            x.impl_mul = NULL;
            tabai_ec_point P, R;
            uint64_t k[TABAI_EC_LIMBS] = {0};
            for (size_t l = 0; l < cu->n; l++) k[l] = cu->q[l] - 1 - l;
            memset(&P, 0, sizeof P);
            memcpy(P.x, cu->gx_m, sizeof P.x);
            memcpy(P.y, cu->gy_m, sizeof P.y);
            memcpy(P.z, cu->p_one, sizeof P.z);
            tabai_ec_count_mul = tabai_ec_count_sqr = tabai_ec_count_inv = 0;
            if (o == 0) tabai_ec_mul_base_ct(&x, &R, k);
            else if (o == 1) tabai_ec_mul2_vartime(&x, &R, k, k, &P);
            else tabai_ec_mul_ct(&x, &R, k, &P);
            double bound = (double)tabai_ec_count_mul * fm + (double)tabai_ec_count_sqr * fs +
                           (double)tabai_ec_count_inv * fi_vt + proto_inv[o];
            printf("%-10s %-7s %10.2f %10.2f %8.2f %8lu %8lu %5lu %10.2f %7.0f%%\n",
                   curves[ci].group, names[o], a, b, b / a, tabai_ec_count_mul, tabai_ec_count_sqr,
                   tabai_ec_count_inv, bound, 100 * bound / a);
        }
        EVP_PKEY_CTX_free(j.sctx), EVP_PKEY_CTX_free(j.vctx), EVP_PKEY_CTX_free(j.dctx);
        EVP_PKEY_free(j.key), EVP_PKEY_free(j.peerkey);
    }
    return 0;
}
