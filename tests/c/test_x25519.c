/* X25519 (tabai_x25519, tabai_x25519_base, tabai_x25519_keypair) against RFC 7748 and
 * OpenSSL's EVP X25519.
 *
 *   test_x25519 [--long]
 *
 * - RFC 7748 section 5.2: the two test vectors, and the iterated function after 1 and 1000
 *   iterations (with --long also after 1,000,000: about half a minute);
 * - RFC 7748 section 6.1: both public keys and the shared secret, from both sides;
 * - random scalars and u-coordinates (the top bit of u random too, u >= p included) against
 *   OpenSSL's EVP_PKEY_derive; edge u-coordinates (0, 1, p - 1, p, p + 1, 2^255 - 1, all
 *   ones, the points of order 8) against OpenSSL, an all-zero result being TABAI_ERR_POINT
 *   on both sides with the output left as it was;
 * - tabai_x25519_base = tabai_x25519(k, 9); key pairs from tabai_x25519_keypair against
 *   OpenSSL's public key of the same private key; TABAI_ERR_NULL for each NULL argument. */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tabai_ec.h"
#include "testutil.h"

static void hex32(uint8_t out[32], const char *hex) {
    for (int i = 0; i < 32; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) abort();
        out[i] = (uint8_t)v;
    }
}

static void print32(const char *what, const uint8_t *b) {
    fprintf(stderr, "  %s ", what);
    for (int i = 0; i < 32; i++) fprintf(stderr, "%02x", b[i]);
    fputc('\n', stderr);
}

static int fails;
static void check32(const char *what, const uint8_t *got, const uint8_t *want, const uint8_t *k,
                    const uint8_t *u) {
    if (memcmp(got, want, 32) == 0) return;
    if (++fails <= 10) {
        fprintf(stderr, "FAIL %s (seed 0x%016llx)\n", what, (unsigned long long)tu_seed);
        if (k) print32("k   ", k);
        if (u) print32("u   ", u);
        print32("got ", got);
        print32("want", want);
    }
}
static void check(int cond, const char *what) {
    if (!cond && ++fails <= 10) fprintf(stderr, "FAIL %s (seed 0x%016llx)\n", what,
                                        (unsigned long long)tu_seed);
}

/* OpenSSL's X25519(k, u): 1 and out written, or 0 when it refuses (an all-zero result). */
static int ossl_x25519(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]) {
    EVP_PKEY *sk = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k, 32);
    EVP_PKEY *pk = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, u, 32);
    if (!sk || !pk) abort();
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(sk, NULL);
    size_t len = 32;
    int ok = ctx && EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_derive_set_peer(ctx, pk) == 1 &&
             EVP_PKEY_derive(ctx, out, &len) == 1 && len == 32;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(sk);
    EVP_PKEY_free(pk);
    return ok;
}

static void ossl_public(uint8_t out[32], const uint8_t k[32]) {
    EVP_PKEY *sk = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k, 32);
    size_t len = 32;
    if (!sk || EVP_PKEY_get_raw_public_key(sk, out, &len) != 1 || len != 32) abort();
    EVP_PKEY_free(sk);
}

static void rand32(uint8_t *b) {
    for (int i = 0; i < 32; i += 8) {
        uint64_t r = tu_rand();
        memcpy(b + i, &r, 8);
    }
}

/* tabai against OpenSSL on one (k, u), the refusal of an all-zero result included. */
static void compare(const char *what, const uint8_t k[32], const uint8_t u[32]) {
    uint8_t got[32], want[32];
    memset(got, 0xA5, 32);
    tabai_status s = tabai_x25519(got, k, u);
    int ok = ossl_x25519(want, k, u);
    if (ok) {
        check(s == TABAI_OK, what);
        check32(what, got, want, k, u);
    } else {
        uint8_t sentinel[32];
        memset(sentinel, 0xA5, 32);
        check(s == TABAI_ERR_POINT, what);
        check32(what, got, sentinel, k, u);
    }
}

int main(int argc, char **argv) {
    tu_init(argv[0]);
    int long_run = argc > 1 && !strcmp(argv[1], "--long");
    uint8_t k[32], u[32], r[32], want[32];

    /* RFC 7748 5.2: the two vectors */
    static const char *const vec[2][3] = {
        {"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
         "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
         "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"},
        {"4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
         "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
         "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"}};
    for (int i = 0; i < 2; i++) {
        hex32(k, vec[i][0]), hex32(u, vec[i][1]), hex32(want, vec[i][2]);
        check(tabai_x25519(r, k, u) == TABAI_OK, "RFC 7748 5.2 status");
        check32("RFC 7748 5.2 vector", r, want, k, u);
    }

    /* RFC 7748 5.2: k = u = 9, then (k, u) = (X25519(k, u), k) */
    {
        static const struct {
            unsigned long iters;
            const char *hex;
        } it[3] = {{1, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079"},
                   {1000, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"},
                   {1000000, "7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424"}};
        memset(k, 0, 32), memset(u, 0, 32);
        k[0] = u[0] = 9;
        unsigned long done = 0;
        for (int j = 0; j < (long_run ? 3 : 2); j++) {
            for (; done < it[j].iters; done++) {
                if (tabai_x25519(r, k, u) != TABAI_OK) check(0, "RFC 7748 iteration status");
                memcpy(u, k, 32);
                memcpy(k, r, 32);
            }
            hex32(want, it[j].hex);
            check32(j == 0 ? "RFC 7748 after 1 iteration"
                           : j == 1 ? "RFC 7748 after 1000 iterations"
                                    : "RFC 7748 after 1000000 iterations",
                    k, want, NULL, NULL);
        }
    }

    /* RFC 7748 6.1: Diffie-Hellman of Alice and Bob */
    {
        uint8_t a[32], b[32], pa[32], pb[32], ka[32], kb[32];
        hex32(a, "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
        hex32(b, "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
        check(tabai_x25519_base(pa, a) == TABAI_OK && tabai_x25519_base(pb, b) == TABAI_OK,
              "RFC 7748 6.1 public keys status");
        hex32(want, "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
        check32("RFC 7748 6.1 Alice's public key", pa, want, a, NULL);
        hex32(want, "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
        check32("RFC 7748 6.1 Bob's public key", pb, want, b, NULL);
        check(tabai_x25519(ka, a, pb) == TABAI_OK && tabai_x25519(kb, b, pa) == TABAI_OK,
              "RFC 7748 6.1 shared secret status");
        hex32(want, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
        check32("RFC 7748 6.1 shared secret (Alice)", ka, want, a, pb);
        check32("RFC 7748 6.1 shared secret (Bob)", kb, want, b, pa);
    }

    /* random (k, u) against OpenSSL; u's top bit random, so u >= 2^255 and u >= p occur as
     * far as masking goes; tabai_x25519_base against tabai_x25519(k, 9) */
    size_t iters = tu_iters(300);
    for (size_t i = 0; i < iters; i++) {
        rand32(k), rand32(u);
        if (i % 8 == 1) { /* u in [p, 2^255): non-canonical, reduced mod p */
            memset(u, 0xff, 32);
            u[31] = 0x7f;
            u[0] = (uint8_t)(0xed + tu_below(0x13));
        }
        compare("random k, u against OpenSSL", k, u);
        uint8_t nine[32] = {9}, b1[32], b2[32];
        check(tabai_x25519_base(b1, k) == TABAI_OK, "base status");
        check(tabai_x25519(b2, k, nine) == TABAI_OK, "x25519(k, 9) status");
        check32("x25519_base(k) = x25519(k, 9)", b1, b2, k, nine);
        ossl_public(want, k);
        check32("x25519_base(k) against OpenSSL's public key", b1, want, k, NULL);
    }

    /* edge u-coordinates: small order ones give an all-zero result (TABAI_ERR_POINT) */
    static const char *const edges[] = {
        "0000000000000000000000000000000000000000000000000000000000000000", /* 0 */
        "0100000000000000000000000000000000000000000000000000000000000000", /* 1 */
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p - 1 */
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p */
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p + 1 */
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* 2^255 - 1 */
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", /* all ones */
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800", /* order 8 */
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157", /* order 8 */
        "0200000000000000000000000000000000000000000000000000000000000000", /* 2 */
    };
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
        hex32(u, edges[e]);
        for (int j = 0; j < 4; j++) {
            rand32(k);
            compare("edge u against OpenSSL", k, u);
        }
    }
    /* u = 0 must be refused whatever the scalar */
    {
        uint8_t out[32], sentinel[32];
        memset(u, 0, 32);
        rand32(k);
        memset(out, 0x5a, 32), memset(sentinel, 0x5a, 32);
        check(tabai_x25519(out, k, u) == TABAI_ERR_POINT, "u = 0: TABAI_ERR_POINT");
        check32("u = 0: output unchanged", out, sentinel, k, u);
    }

    /* key pairs */
    for (int i = 0; i < 8; i++) {
        uint8_t sk[32], pk[32], again[32];
        check(tabai_x25519_keypair(sk, pk) == TABAI_OK, "keypair status");
        ossl_public(want, sk);
        check32("keypair: pk against OpenSSL", pk, want, sk, NULL);
        check(tabai_x25519_base(again, sk) == TABAI_OK, "base status");
        check32("keypair: pk = base(sk)", pk, again, sk, NULL);
    }
    {
        uint8_t sk1[32], pk1[32], sk2[32], pk2[32];
        check(tabai_x25519_keypair(sk1, pk1) == TABAI_OK &&
                  tabai_x25519_keypair(sk2, pk2) == TABAI_OK,
              "two key pairs: status");
        check(memcmp(sk1, sk2, 32) != 0, "two key pairs differ");
    }

    /* NULL arguments */
    hex32(k, vec[0][0]), hex32(u, vec[0][1]);
    check(tabai_x25519(NULL, k, u) == TABAI_ERR_NULL, "x25519(NULL, k, u)");
    check(tabai_x25519(r, NULL, u) == TABAI_ERR_NULL, "x25519(r, NULL, u)");
    check(tabai_x25519(r, k, NULL) == TABAI_ERR_NULL, "x25519(r, k, NULL)");
    check(tabai_x25519_base(NULL, k) == TABAI_ERR_NULL, "x25519_base(NULL, k)");
    check(tabai_x25519_base(r, NULL) == TABAI_ERR_NULL, "x25519_base(r, NULL)");
    check(tabai_x25519_keypair(NULL, r) == TABAI_ERR_NULL, "x25519_keypair(NULL, pk)");
    check(tabai_x25519_keypair(r, NULL) == TABAI_ERR_NULL, "x25519_keypair(sk, NULL)");

    if (fails) fprintf(stderr, "test_x25519: %d failures\n", fails);
    else printf("test_x25519: RFC 7748 5.2 (1, 1000%s iterations), 6.1, %zu random cases and "
                "the edge u-coordinates against OpenSSL: ok\n",
                long_run ? ", 1000000" : "", iters);
    return tu_finish() | (fails != 0);
}
