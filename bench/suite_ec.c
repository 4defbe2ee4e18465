/* Elliptic curves (include/tabai_ec.h) beside OpenSSL (EVP and EC_POINT) and libsecp256k1.
 *
 *   op            tabai                                 OpenSSL                     libsecp256k1
 *   ec_mul_base   ec_public_key (d G)                   EC_POINT_mul(d, NULL) and   ec_pubkey_create and
 *                                                       EC_POINT_point2oct          ec_pubkey_serialize
 *   ec_mul        ec_point_mul (k P, P = 7 G)           EC_POINT_mul(NULL, P, k)    -
 *                                                       and EC_POINT_point2oct
 *   ecdh          ecdh (x of d Q, Q validated)          EVP_PKEY_derive             ecdh (x, no hash)
 *   ecdsa_sign    ecdsa_sign_digest (RFC 6979)          EVP_PKEY_sign (digest)      ecdsa_sign (RFC 6979)
 *   ecdsa_verify  ecdsa_verify_digest_vartime (r||s)    EVP_PKEY_verify (DER)       ecdsa_verify
 *   x25519        x25519                                EVP_PKEY_derive (X25519)    -
 *
 * Records: `modulus` is the curve's name ("P-256", "P-384", "P-521", "secp256k1", "X25519"),
 * `bits` its field size; `--curves LIST` chooses curves (default all). The keys are made by
 * OpenSSL and given to every implementation; before timing, each result is checked: the
 * public keys and ECDH secrets byte for byte, every signature verified by the others (and
 * tabai's secp256k1 signature equal to libsecp256k1's: both RFC 6979 with SHA-256, low S).
 * The peers' conversions (DER, key objects) are outside the timed calls, except OpenSSL's
 * own DER signature format, which is its API. tabai's point functions return the SEC1 bytes
 * of an affine point, so the peers' point products are timed with their encoding too
 * (OpenSSL's EC_POINT_mul leaves a Jacobian point; point2oct makes it affine). */
#define OPENSSL_API_COMPAT 30000
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "harness.h"
#include "tabai_ec.h"
#ifdef TABAI_BENCH_HAVE_SECP256K1
#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#endif

static int curve_wanted(const bench_ctx *c, const char *name) {
    if (!c->want_curve_count) return 1;
    for (size_t i = 0; i < c->want_curve_count; i++)
        if (!strcasecmp(c->want_curves[i], name)) return 1;
    return 0;
}

/* ---------------------------------------------------------------------------- X25519 -- */
typedef struct x_arg {
    uint8_t k[32], u[32], out[32];
    EVP_PKEY_CTX *ctx;
} x_arg;

static void run_x25519_tabai(void *v, size_t it) {
    x_arg *a = v;
    for (size_t i = 0; i < it; i++) /* checked once before the timed runs */
        (void)!tabai_x25519(a->out, a->k, a->u);
}
static void run_x25519_ossl(void *v, size_t it) {
    x_arg *a = v;
    for (size_t i = 0; i < it; i++) {
        size_t len = 32;
        EVP_PKEY_derive(a->ctx, a->out, &len);
    }
}

static void bench_x25519(bench_ctx *c) {
    bench_case cs = {"x25519", 255, "X25519", 0};
    if (!curve_wanted(c, "X25519") || !bench_begin(c, &cs)) return;
    x_arg a;
    for (int i = 0; i < 32; i++) a.k[i] = (uint8_t)bench_rand64(c);
    uint8_t peer[32];
    for (int i = 0; i < 32; i++) peer[i] = (uint8_t)bench_rand64(c);
    if (tabai_x25519_base(a.u, peer) != TABAI_OK) bench_fail("x25519: base failed");
    EVP_PKEY *sk = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, a.k, 32);
    EVP_PKEY *pk = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, a.u, 32);
    a.ctx = sk ? EVP_PKEY_CTX_new(sk, NULL) : NULL;
    if (!a.ctx || EVP_PKEY_derive_init(a.ctx) != 1 || EVP_PKEY_derive_set_peer(a.ctx, pk) != 1)
        bench_fail("x25519: OpenSSL set-up failed");
    x_arg b = a;
    uint8_t want[32];
    size_t len = 32;
    if (EVP_PKEY_derive(a.ctx, want, &len) != 1 || tabai_x25519(a.out, a.k, a.u) != TABAI_OK ||
        memcmp(a.out, want, 32))
        bench_fail("x25519: tabai and OpenSSL disagree");
    bench_impl im[] = {
        {"tabai", tabai_cpu_name(), "x25519", run_x25519_tabai, NULL, &a, 1},
        {"openssl", NULL, "EVP_PKEY_derive", run_x25519_ossl, NULL, &b, 1},
    };
    bench_measure(c, &cs, im, 2);
    EVP_PKEY_CTX_free(a.ctx);
    EVP_PKEY_free(sk);
    EVP_PKEY_free(pk);
}

/* --------------------------------------------------------------- short Weierstrass -- */
typedef struct curve_info {
    tabai_curve id;
    const char *name; /* tabai's name, the records' modulus */
    const char *ossl; /* OpenSSL group name */
    int nid;
    unsigned bits;
    tabai_hash hash;
    const EVP_MD *(*md)(void);
} curve_info;

static const curve_info curves[] = {
    {TABAI_CURVE_P256, "P-256", "P-256", NID_X9_62_prime256v1, 256, TABAI_HASH_SHA256, EVP_sha256},
    {TABAI_CURVE_P384, "P-384", "P-384", NID_secp384r1, 384, TABAI_HASH_SHA384, EVP_sha384},
    {TABAI_CURVE_P521, "P-521", "P-521", NID_secp521r1, 521, TABAI_HASH_SHA512, EVP_sha512},
    {TABAI_CURVE_SECP256K1, "secp256k1", "secp256k1", NID_secp256k1, 256, TABAI_HASH_SHA256,
     EVP_sha256},
};

/* One curve's shared state: two OpenSSL key pairs (ours and the peer's), their bytes. */
typedef struct ec_arg {
    const curve_info *cv;
    size_t L, Ln;
    uint8_t sk[66], pk[133], peer_pk[133], k[66], P[133], digest[64], sig[132], out[133];
    size_t pk_len, dlen, der_len;
    uint8_t der[160];
    unsigned flags;
    EC_GROUP *group;
    EC_POINT *Pp, *R;
    BIGNUM *d, *kbn;
    BN_CTX *bnctx;
    EVP_PKEY *key, *peer;
    EVP_PKEY_CTX *dctx, *sctx, *vctx;
#ifdef TABAI_BENCH_HAVE_SECP256K1
    secp256k1_context *sctx256;
    secp256k1_pubkey spub, speer;
    secp256k1_ecdsa_signature ssig;
#endif
} ec_arg;

static EVP_PKEY *ossl_key(const curve_info *cv) {
    EVP_PKEY *k = EVP_EC_gen(cv->ossl);
    if (!k) bench_fail("%s: EVP_EC_gen failed", cv->name);
    return k;
}

static void ossl_key_bytes(EVP_PKEY *k, uint8_t *sk, size_t Ln, uint8_t *pk, size_t pk_len) {
    BIGNUM *d = NULL;
    size_t len = 0;
    if (sk && (EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, &d) != 1 ||
               BN_bn2binpad(d, sk, (int)Ln) < 0))
        bench_fail("EVP_PKEY_get_bn_param(priv) failed");
    BN_clear_free(d);
    if (EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, pk, pk_len, &len) != 1 ||
        len != pk_len)
        bench_fail("EVP_PKEY_get_octet_string_param(pub) failed");
}

static void run_mul_base_tabai(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++) /* checked once before the timed runs */
        (void)!tabai_ec_public_key(a->cv->id, a->out, a->pk_len, a->sk);
}
static void run_mul_base_ossl(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++) {
        EC_POINT_mul(a->group, a->R, a->d, NULL, NULL, a->bnctx);
        EC_POINT_point2oct(a->group, a->R, POINT_CONVERSION_UNCOMPRESSED, a->out, a->pk_len,
                           a->bnctx);
    }
}
static void run_mul_tabai(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++) /* checked once before the timed runs */
        (void)!tabai_ec_point_mul(a->cv->id, a->out, a->k, a->Ln, a->P, a->pk_len);
}
static void run_mul_ossl(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++) {
        EC_POINT_mul(a->group, a->R, NULL, a->Pp, a->kbn, a->bnctx);
        EC_POINT_point2oct(a->group, a->R, POINT_CONVERSION_UNCOMPRESSED, a->out, a->pk_len,
                           a->bnctx);
    }
}
static void run_ecdh_tabai(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++) /* checked once before the timed runs */
        (void)!tabai_ecdh(a->cv->id, a->out, a->sk, a->peer_pk, a->pk_len);
}
static void run_ecdh_ossl(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++) {
        size_t len = a->L;
        EVP_PKEY_derive(a->dctx, a->out, &len);
    }
}
static void run_sign_tabai(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++) /* checked once before the timed runs */
        (void)!tabai_ecdsa_sign_digest(a->cv->id, a->out, a->sk, a->digest, a->dlen, a->cv->hash,
                                       NULL, 0, a->flags);
}
static void run_sign_ossl(void *v, size_t it) {
    ec_arg *a = v;
    uint8_t der[160];
    for (size_t i = 0; i < it; i++) {
        size_t len = sizeof der;
        EVP_PKEY_sign(a->sctx, der, &len, a->digest, a->dlen);
    }
}
static void run_verify_tabai(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++) /* checked once before the timed runs */
        (void)!tabai_ecdsa_verify_digest_vartime(a->cv->id, a->pk, a->pk_len, a->digest, a->dlen,
                                                 a->sig, a->flags);
}
static void run_verify_ossl(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++) EVP_PKEY_verify(a->vctx, a->der, a->der_len, a->digest, a->dlen);
}
#ifdef TABAI_BENCH_HAVE_SECP256K1
static void run_mul_base_secp(void *v, size_t it) {
    ec_arg *a = v;
    secp256k1_pubkey p;
    for (size_t i = 0; i < it; i++) {
        size_t len = 65;
        if (!secp256k1_ec_pubkey_create(a->sctx256, &p, a->sk) ||
            !secp256k1_ec_pubkey_serialize(a->sctx256, a->out, &len, &p, SECP256K1_EC_UNCOMPRESSED))
            abort();
    }
}
static int x_only(unsigned char *out, const unsigned char *x, const unsigned char *y, void *d) {
    (void)y, (void)d;
    memcpy(out, x, 32);
    return 1;
}
static void run_ecdh_secp(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++)
        if (!secp256k1_ecdh(a->sctx256, a->out, &a->speer, a->sk, x_only, NULL)) abort();
}
static void run_sign_secp(void *v, size_t it) {
    ec_arg *a = v;
    secp256k1_ecdsa_signature s;
    for (size_t i = 0; i < it; i++)
        if (!secp256k1_ecdsa_sign(a->sctx256, &s, a->digest, a->sk, NULL, NULL)) abort();
}
static void run_verify_secp(void *v, size_t it) {
    ec_arg *a = v;
    for (size_t i = 0; i < it; i++)
        if (!secp256k1_ecdsa_verify(a->sctx256, &a->ssig, a->digest, &a->spub)) abort();
}
#endif

/* The DER signature of r || s (OpenSSL's ECDSA_SIG). */
static size_t der_of(uint8_t *der, const uint8_t *rs, size_t Ln) {
    ECDSA_SIG *s = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(rs, (int)Ln, NULL), *ss = BN_bin2bn(rs + Ln, (int)Ln, NULL);
    if (!s || !r || !ss || ECDSA_SIG_set0(s, r, ss) != 1) bench_fail("ECDSA_SIG_set0 failed");
    unsigned char *p = der;
    int len = i2d_ECDSA_SIG(s, &p);
    ECDSA_SIG_free(s);
    if (len <= 0) bench_fail("i2d_ECDSA_SIG failed");
    return (size_t)len;
}
/* r || s of a DER signature. */
static void rs_of(uint8_t *rs, const uint8_t *der, size_t len, size_t Ln) {
    const unsigned char *p = der;
    ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &p, (long)len);
    if (!s || BN_bn2binpad(ECDSA_SIG_get0_r(s), rs, (int)Ln) < 0 ||
        BN_bn2binpad(ECDSA_SIG_get0_s(s), rs + Ln, (int)Ln) < 0)
        bench_fail("d2i_ECDSA_SIG failed");
    ECDSA_SIG_free(s);
}

static void setup(bench_ctx *c, ec_arg *a, const curve_info *cv) {
    memset(a, 0, sizeof *a);
    a->cv = cv;
    a->L = tabai_ec_field_bytes(cv->id);
    a->Ln = tabai_ec_scalar_bytes(cv->id);
    a->pk_len = 1 + 2 * a->L;
    a->key = ossl_key(cv);
    a->peer = ossl_key(cv);
    ossl_key_bytes(a->key, a->sk, a->Ln, a->pk, a->pk_len);
    ossl_key_bytes(a->peer, NULL, 0, a->peer_pk, a->pk_len);
    a->group = EC_GROUP_new_by_curve_name(cv->nid);
    a->bnctx = BN_CTX_new();
    a->d = BN_bin2bn(a->sk, (int)a->Ln, NULL);
    a->R = EC_POINT_new(a->group);
    /* P = the peer's public key; k random below 2^(8 Ln - 1) */
    a->Pp = EC_POINT_new(a->group);
    if (!a->group || !a->Pp || EC_POINT_oct2point(a->group, a->Pp, a->peer_pk, a->pk_len, a->bnctx) != 1)
        bench_fail("%s: EC_POINT set-up failed", cv->name);
    memcpy(a->P, a->peer_pk, a->pk_len);
    for (size_t i = 0; i < a->Ln; i++) a->k[i] = (uint8_t)bench_rand64(c);
    a->k[0] &= 0x7f;
    if (cv->id == TABAI_CURVE_P521) a->k[0] &= 0x01;
    a->kbn = BN_bin2bn(a->k, (int)a->Ln, NULL);
    /* digest of a fixed message with the curve's hash */
    unsigned int dl = 0;
    EVP_Digest("tabai bench", 11, a->digest, &dl, cv->md(), NULL);
    a->dlen = dl;
    a->flags = cv->id == TABAI_CURVE_SECP256K1 ? TABAI_ECDSA_LOW_S : 0;
    a->dctx = EVP_PKEY_CTX_new(a->key, NULL);
    a->sctx = EVP_PKEY_CTX_new(a->key, NULL);
    a->vctx = EVP_PKEY_CTX_new(a->key, NULL);
    if (!a->dctx || EVP_PKEY_derive_init(a->dctx) != 1 ||
        EVP_PKEY_derive_set_peer(a->dctx, a->peer) != 1 || EVP_PKEY_sign_init(a->sctx) != 1 ||
        EVP_PKEY_verify_init(a->vctx) != 1)
        bench_fail("%s: EVP set-up failed", cv->name);
#ifdef TABAI_BENCH_HAVE_SECP256K1
    if (cv->id == TABAI_CURVE_SECP256K1) {
        a->sctx256 = secp256k1_context_create(SECP256K1_CONTEXT_SIGN | SECP256K1_CONTEXT_VERIFY);
        if (!secp256k1_ec_pubkey_parse(a->sctx256, &a->spub, a->pk, a->pk_len) ||
            !secp256k1_ec_pubkey_parse(a->sctx256, &a->speer, a->peer_pk, a->pk_len))
            bench_fail("secp256k1_ec_pubkey_parse failed");
    }
#endif
}

static void teardown(ec_arg *a) {
    EVP_PKEY_CTX_free(a->dctx), EVP_PKEY_CTX_free(a->sctx), EVP_PKEY_CTX_free(a->vctx);
    EVP_PKEY_free(a->key), EVP_PKEY_free(a->peer);
    EC_POINT_free(a->Pp), EC_POINT_free(a->R);
    BN_free(a->d), BN_free(a->kbn);
    BN_CTX_free(a->bnctx);
    EC_GROUP_free(a->group);
#ifdef TABAI_BENCH_HAVE_SECP256K1
    if (a->sctx256) secp256k1_context_destroy(a->sctx256);
#endif
}

static void point_bytes(const ec_arg *a, uint8_t *out) {
    if (EC_POINT_point2oct(a->group, a->R, POINT_CONVERSION_UNCOMPRESSED, out, a->pk_len,
                           a->bnctx) != a->pk_len)
        bench_fail("EC_POINT_point2oct failed");
}

enum { OP_MUL_BASE, OP_MUL, OP_ECDH, OP_SIGN, OP_VERIFY, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"ec_mul_base", "ec_mul", "ecdh", "ecdsa_sign",
                                               "ecdsa_verify"};

static void bench_curve_op(bench_ctx *c, const curve_info *cv, int op) {
    bench_case cs = {op_names[op], cv->bits, cv->name, 0};
    if (!bench_begin(c, &cs)) return;
    static ec_arg a;
    setup(c, &a, cv);
    bench_impl im[3];
    size_t cnt = 0;
    int secp = 0;
#ifdef TABAI_BENCH_HAVE_SECP256K1
    secp = cv->id == TABAI_CURVE_SECP256K1;
#endif
    uint8_t want[133];
    switch (op) {
    case OP_MUL_BASE:
        if (tabai_ec_public_key(cv->id, a.out, a.pk_len, a.sk) != TABAI_OK ||
            memcmp(a.out, a.pk, a.pk_len))
            bench_fail("%s ec_mul_base: tabai's d G differs from OpenSSL's public key", cv->name);
        EC_POINT_mul(a.group, a.R, a.d, NULL, NULL, a.bnctx);
        point_bytes(&a, want);
        if (memcmp(want, a.pk, a.pk_len)) bench_fail("%s: EC_POINT_mul(d) differs", cv->name);
        im[cnt++] = (bench_impl){"tabai", tabai_cpu_name(), "ec_public_key", run_mul_base_tabai, NULL, &a, 1};
        im[cnt++] =
            (bench_impl){"openssl", NULL, "EC_POINT_mul+point2oct", run_mul_base_ossl, NULL, &a, 1};
#ifdef TABAI_BENCH_HAVE_SECP256K1
        static const char secp_sym[] = "secp256k1_ec_pubkey_create+serialize";
        if (secp)
            im[cnt++] =
                (bench_impl){"libsecp256k1", NULL, secp_sym, run_mul_base_secp, NULL, &a, 1};
#endif
        break;
    case OP_MUL:
        if (tabai_ec_point_mul(cv->id, a.out, a.k, a.Ln, a.P, a.pk_len) != TABAI_OK)
            bench_fail("%s ec_mul: tabai failed", cv->name);
        EC_POINT_mul(a.group, a.R, NULL, a.Pp, a.kbn, a.bnctx);
        point_bytes(&a, want);
        if (memcmp(want, a.out, a.pk_len)) bench_fail("%s ec_mul: tabai and OpenSSL differ", cv->name);
        im[cnt++] = (bench_impl){"tabai", tabai_cpu_name(), "ec_point_mul", run_mul_tabai, NULL, &a, 1};
        im[cnt++] =
            (bench_impl){"openssl", NULL, "EC_POINT_mul+point2oct", run_mul_ossl, NULL, &a, 1};
        break;
    case OP_ECDH: {
        size_t len = a.L;
        if (tabai_ecdh(cv->id, a.out, a.sk, a.peer_pk, a.pk_len) != TABAI_OK ||
            EVP_PKEY_derive(a.dctx, want, &len) != 1 || len != a.L || memcmp(want, a.out, a.L))
            bench_fail("%s ecdh: tabai and OpenSSL differ", cv->name);
        im[cnt++] = (bench_impl){"tabai", tabai_cpu_name(), "ecdh", run_ecdh_tabai, NULL, &a, 1};
        im[cnt++] = (bench_impl){"openssl", NULL, "EVP_PKEY_derive", run_ecdh_ossl, NULL, &a, 1};
#ifdef TABAI_BENCH_HAVE_SECP256K1
        if (secp) {
            uint8_t x[32];
            if (!secp256k1_ecdh(a.sctx256, x, &a.speer, a.sk, x_only, NULL) || memcmp(x, want, 32))
                bench_fail("secp256k1 ecdh: libsecp256k1 differs");
            im[cnt++] = (bench_impl){"libsecp256k1", NULL, "secp256k1_ecdh", run_ecdh_secp, NULL, &a, 1};
        }
#endif
        break;
    }
    case OP_SIGN:
    case OP_VERIFY: {
        /* tabai signs; OpenSSL verifies it; OpenSSL signs; tabai verifies that */
        if (tabai_ecdsa_sign_digest(cv->id, a.sig, a.sk, a.digest, a.dlen, cv->hash, NULL, 0,
                                    a.flags) != TABAI_OK)
            bench_fail("%s ecdsa: tabai sign failed", cv->name);
        a.der_len = der_of(a.der, a.sig, a.Ln);
        if (EVP_PKEY_verify(a.vctx, a.der, a.der_len, a.digest, a.dlen) != 1)
            bench_fail("%s ecdsa: OpenSSL rejects tabai's signature", cv->name);
        uint8_t der[160], rs[132];
        size_t len = sizeof der;
        if (EVP_PKEY_sign(a.sctx, der, &len, a.digest, a.dlen) != 1)
            bench_fail("%s ecdsa: OpenSSL sign failed", cv->name);
        rs_of(rs, der, len, a.Ln);
        if (tabai_ecdsa_verify_digest_vartime(cv->id, a.pk, a.pk_len, a.digest, a.dlen, rs, 0) !=
            TABAI_OK)
            bench_fail("%s ecdsa: tabai rejects OpenSSL's signature", cv->name);
#ifdef TABAI_BENCH_HAVE_SECP256K1
        if (secp) {
            uint8_t cmp[64];
            if (!secp256k1_ecdsa_sign(a.sctx256, &a.ssig, a.digest, a.sk, NULL, NULL) ||
                !secp256k1_ecdsa_signature_serialize_compact(a.sctx256, cmp, &a.ssig) ||
                memcmp(cmp, a.sig, 64))
                bench_fail("secp256k1 ecdsa: tabai's RFC 6979 signature differs from "
                           "libsecp256k1's");
        }
#endif
        if (op == OP_SIGN) {
            im[cnt++] = (bench_impl){"tabai", tabai_cpu_name(), "ecdsa_sign_digest", run_sign_tabai, NULL, &a, 1};
            im[cnt++] = (bench_impl){"openssl", NULL, "EVP_PKEY_sign", run_sign_ossl, NULL, &a, 1};
#ifdef TABAI_BENCH_HAVE_SECP256K1
            if (secp) im[cnt++] = (bench_impl){"libsecp256k1", NULL, "secp256k1_ecdsa_sign",
                                               run_sign_secp, NULL, &a, 1};
#endif
        } else {
            im[cnt++] = (bench_impl){"tabai", tabai_cpu_name(), "ecdsa_verify_digest_vartime",
                                     run_verify_tabai, NULL, &a, 1};
            im[cnt++] = (bench_impl){"openssl", NULL, "EVP_PKEY_verify", run_verify_ossl, NULL, &a, 1};
#ifdef TABAI_BENCH_HAVE_SECP256K1
            if (secp) im[cnt++] = (bench_impl){"libsecp256k1", NULL, "secp256k1_ecdsa_verify",
                                               run_verify_secp, NULL, &a, 1};
#endif
        }
        break;
    }
    }
    (void)secp;
    bench_measure(c, &cs, im, cnt);
    teardown(&a);
}

void bench_suite_ec(bench_ctx *c) {
    for (int op = 0; op < OP_COUNT; op++) {
        if (!bench_op(c, op_names[op])) continue;
        for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
            if (curve_wanted(c, curves[i].name)) bench_curve_op(c, &curves[i], op);
    }
    if (bench_op(c, "x25519")) bench_x25519(c);
}
