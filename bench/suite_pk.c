/* Public-key operations beside OpenSSL through EVP:
 *   dh   one Diffie-Hellman key agreement in the RFC 3526 groups embedded as modp2048,
 *        modp3072, modp4096: tabai = the peer's public value checked (2 <= y <= p-2 and the
 *        Legendre symbol (y/p) == 1, i.e. y^q == 1 for the safe prime: tabai_jacobi_vartime)
 *        + y^x mod p (tabai_mont_powmod, scratch preallocated) + the secret as len(p) bytes;
 *        OpenSSL = EVP_PKEY_derive with the named group (modp_2048, ...; the peer set once,
 *        padded output), the same private exponent x (OpenSSL's own key: its short exponent
 *        for named groups) and peer. The secrets are compared before timing.
 * (rsa_sign and rsa_verify are in suite_mb.c beside rsa_private, with the same keys.) */
#include <gmp.h>
#include <openssl/core_names.h>
#include <openssl/dh.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "moduli.h"
#include "peers.h"

typedef struct dh_arg {
    const tabai_mont *ctx;
    const uint64_t *y, *x;
    size_t xbits;
    uint64_t *scratch;
    unsigned char out[1024];
    size_t bytes;
    EVP_PKEY_CTX *dctx;
} dh_arg;

static void run_dh_tabai(void *v, size_t it) {
    dh_arg *a = v;
    const size_t n = a->ctx->n;
    uint64_t z[TABAI_MAX_LIMBS], pm1[TABAI_MAX_LIMBS], two[TABAI_MAX_LIMBS] = {2};
    for (size_t i = 0; i < it; i++) {
        int j;
        memcpy(pm1, a->ctx->p, n * 8);
        pm1[0] -= 1; /* p odd: p - 1 without a borrow; 2 <= y < p - 1 */
        if (tabai_cmp_n(a->y, two, n) < 0 || tabai_cmp_n(a->y, pm1, n) >= 0 ||
            tabai_jacobi_vartime(&j, a->y, a->ctx->p, n) != TABAI_OK || j != 1)
            bench_fail("dh: peer value rejected");
        if (tabai_mont_powmod(a->ctx, z, a->y, a->x, a->xbits, a->scratch,
                              tabai_powmod_scratch_limbs(n, a->xbits)) != TABAI_OK ||
            tabai_to_bytes(a->out, a->bytes, z, n) != TABAI_OK)
            bench_fail("tabai dh");
    }
}

static void run_dh_openssl(void *v, size_t it) {
    dh_arg *a = v;
    for (size_t i = 0; i < it; i++) {
        size_t len = a->bytes;
        if (EVP_PKEY_derive(a->dctx, a->out, &len) != 1 || len != a->bytes)
            bench_fail("EVP_PKEY_derive");
    }
}

static EVP_PKEY *dh_key(const char *group) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(NULL, "DH", NULL);
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
                                                             (char *)group, 0),
                            OSSL_PARAM_construct_end()};
    EVP_PKEY *k = NULL;
    if (!pctx || EVP_PKEY_keygen_init(pctx) != 1 || EVP_PKEY_CTX_set_params(pctx, params) != 1 ||
        EVP_PKEY_generate(pctx, &k) != 1)
        bench_fail("DH key generation (%s)", group);
    EVP_PKEY_CTX_free(pctx);
    return k;
}

static void bn_param(uint64_t *r, size_t n, const EVP_PKEY *k, const char *name) {
    BIGNUM *b = NULL;
    if (!EVP_PKEY_get_bn_param(k, name, &b)) bench_fail("EVP_PKEY_get_bn_param(%s)", name);
    memset(r, 0, n * 8);
    bn_to(r, n, b);
    BN_clear_free(b);
}

static void dh_op(bench_ctx *c) {
    static const struct { const char *mod, *group; } groups[] = {
        {"modp2048", "modp_2048"}, {"modp3072", "modp_3072"}, {"modp4096", "modp_4096"}};
    for (size_t gi = 0; gi < sizeof groups / sizeof *groups; gi++) {
        const bench_mod *m = NULL;
        for (size_t i = 0; i < c->mod_count; i++)
            if (!strcmp(c->mods[i].name, groups[gi].mod)) m = &c->mods[i];
        if (!m) continue;
        bench_case cs = {"dh", m->bits, m->name, m->n};
        if (!bench_begin(c, &cs)) continue;
        const size_t n = m->n;
        static tabai_mont ctx;
        if (tabai_mont_init(&ctx, m->p, n) != TABAI_OK) bench_fail("tabai_mont_init(%s)", m->name);
        EVP_PKEY *a = dh_key(groups[gi].group), *b = dh_key(groups[gi].group);
        static uint64_t x[TABAI_MAX_LIMBS], y[TABAI_MAX_LIMBS];
        bn_param(x, n, a, OSSL_PKEY_PARAM_PRIV_KEY);
        bn_param(y, n, b, OSSL_PKEY_PARAM_PUB_KEY);
        size_t xbits = 0;
        for (size_t i = n; i-- > 0 && !xbits;)
            if (x[i]) xbits = 64 * i + 64 - (size_t)__builtin_clzll(x[i]);
        static dh_arg ta, oa;
        memset(&ta, 0, sizeof ta), memset(&oa, 0, sizeof oa);
        ta.ctx = &ctx, ta.y = y, ta.x = x, ta.xbits = xbits, ta.bytes = oa.bytes = 8 * n;
        ta.scratch = bench_alloc(tabai_powmod_scratch_limbs(n, xbits) * 8);
        oa.dctx = EVP_PKEY_CTX_new(a, NULL);
        if (!oa.dctx || EVP_PKEY_derive_init(oa.dctx) != 1 || EVP_PKEY_derive_set_peer(oa.dctx, b) != 1 ||
            EVP_PKEY_CTX_set_dh_pad(oa.dctx, 1) != 1)
            bench_fail("EVP_PKEY_derive_init (%s)", groups[gi].group);
        run_dh_tabai(&ta, 1);
        run_dh_openssl(&oa, 1);
        if (memcmp(ta.out, oa.out, ta.bytes)) bench_fail("dh: tabai and OpenSSL secrets differ");
        bench_impl impls[2] = {{"tabai", "single", "mont_powmod", run_dh_tabai, NULL, &ta, 1},
                               {"openssl", NULL, "EVP_PKEY_derive", run_dh_openssl, NULL, &oa, 1}};
        bench_measure(c, &cs, impls, 2);
        EVP_PKEY_CTX_free(oa.dctx);
        EVP_PKEY_free(a);
        EVP_PKEY_free(b);
        free(ta.scratch);
    }
}

void bench_suite_pk(bench_ctx *c) {
    bench_kernel(c, "single");
    if (bench_op(c, "dh")) dh_op(c);
}
