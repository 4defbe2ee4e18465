/* The benchmark's embedded moduli (bench/moduli.h, written by tools/gen/moduli.py) against
 * independent sources:
 *   - RFC 3526 primes: OpenSSL's BN_get_rfc3526_prime_2048/3072/4096;
 *   - curve primes: OpenSSL's EC_GROUP_get_curve for secp256k1, P-256, P-384, P-521, and
 *     the P-256 group order from EC_GROUP_get_order;
 *   - 2^255 - 19 and BLS12-381 p recomputed with GMP from their defining formulas;
 *   - RSA n, p, q: read again from the PEM files (folder given as argv[1], default
 *     data/keys) with OpenSSL, so a regenerated key without a regenerated header fails here;
 *   - every entry: odd, the stated bit length and limb count, top limb non-zero, and prime
 *     (GMP, 30 rounds) except the RSA moduli n, which must equal p*q.
 * Exit status 0 when all agree, 1 otherwise. */
#include <stdio.h> /* before gmp.h, which declares gmp_fprintf only after it */

#include <gmp.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moduli.h"

static int failures;

static const bench_modulus *find(const char *name) {
    for (size_t i = 0; i < BENCH_MODULI_COUNT; i++)
        if (!strcmp(bench_moduli[i].name, name)) return &bench_moduli[i];
    fprintf(stderr, "FAIL %s: missing from bench/moduli.h\n", name);
    failures++;
    return NULL;
}

static void to_mpz(mpz_t z, const bench_modulus *m) { mpz_import(z, m->n, -1, 8, 0, 0, m->limbs); }

static void bn_to_mpz(mpz_t z, const BIGNUM *b) {
    char *hex = BN_bn2hex(b);
    mpz_set_str(z, hex, 16);
    OPENSSL_free(hex);
}

static void expect(const char *name, const mpz_t want, const char *source) {
    const bench_modulus *m = find(name);
    if (!m) return;
    mpz_t z;
    mpz_init(z);
    to_mpz(z, m);
    if (mpz_cmp(z, want) != 0) {
        gmp_fprintf(stderr, "FAIL %s differs from %s\n  table %Zx\n  want  %Zx\n", name, source, z,
                    want);
        failures++;
    } else {
        printf("ok   %-13s = %s\n", name, source);
    }
    mpz_clear(z);
}

static void expect_bn(const char *name, const BIGNUM *b, const char *source) {
    mpz_t w;
    mpz_init(w);
    bn_to_mpz(w, b);
    expect(name, w, source);
    mpz_clear(w);
}

static void check_curve(const char *name, int nid, const char *order_name) {
    EC_GROUP *g = EC_GROUP_new_by_curve_name(nid);
    BIGNUM *p = BN_new(), *a = BN_new(), *b = BN_new();
    if (!g || !EC_GROUP_get_curve(g, p, a, b, NULL)) {
        fprintf(stderr, "FAIL %s: OpenSSL has no curve %d\n", name, nid);
        failures++;
    } else {
        expect_bn(name, p, "OpenSSL EC_GROUP_get_curve");
        if (order_name) expect_bn(order_name, EC_GROUP_get0_order(g), "OpenSSL EC_GROUP_get0_order");
    }
    BN_free(p);
    BN_free(a);
    BN_free(b);
    EC_GROUP_free(g);
}

static void check_rsa(const char *dir, unsigned bits) {
    char path[4096], nn[32], pn[32], qn[32];
    snprintf(path, sizeof path, "%s/rsa-%u.pem", dir, bits);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "FAIL cannot open %s\n", path);
        failures++;
        return;
    }
    EVP_PKEY *k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
    fclose(f);
    BIGNUM *n = NULL, *p = NULL, *q = NULL;
    if (!k || !EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_N, &n) ||
        !EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_FACTOR1, &p) ||
        !EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_FACTOR2, &q)) {
        fprintf(stderr, "FAIL %s: not an RSA private key\n", path);
        failures++;
    } else {
        snprintf(nn, sizeof nn, "rsa%u_n", bits);
        snprintf(pn, sizeof pn, "rsa%u_p", bits);
        snprintf(qn, sizeof qn, "rsa%u_q", bits);
        expect_bn(nn, n, "PEM modulus (OpenSSL)");
        expect_bn(pn, p, "PEM factor 1 (OpenSSL)");
        expect_bn(qn, q, "PEM factor 2 (OpenSSL)");
    }
    BN_free(n);
    BN_free(p);
    BN_free(q);
    EVP_PKEY_free(k);
}

static void check_entries(void) {
    mpz_t z, p, q;
    mpz_inits(z, p, q, NULL);
    for (size_t i = 0; i < BENCH_MODULI_COUNT; i++) {
        const bench_modulus *m = &bench_moduli[i];
        to_mpz(z, m);
        int bad = m->n == 0 || m->limbs[m->n - 1] == 0 || m->n != (m->bits + 63) / 64 ||
                  mpz_sizeinbase(z, 2) != m->bits || mpz_even_p(z);
        size_t len = strlen(m->name);
        if (!strncmp(m->name, "rsa", 3) && m->name[len - 1] == 'n') {
            char pn[32], qn[32];
            snprintf(pn, sizeof pn, "%.*sp", (int)len - 1, m->name);
            snprintf(qn, sizeof qn, "%.*sq", (int)len - 1, m->name);
            const bench_modulus *mp = find(pn), *mq = find(qn);
            if (mp && mq) {
                to_mpz(p, mp);
                to_mpz(q, mq);
                mpz_mul(p, p, q);
                bad |= mpz_cmp(p, z) != 0;
            }
        } else {
            bad |= mpz_probab_prime_p(z, 30) == 0;
        }
        if (bad) {
            fprintf(stderr, "FAIL %s: shape (bits %u, limbs %zu), parity, primality or n != p*q\n",
                    m->name, m->bits, m->n);
            failures++;
        }
    }
    printf("ok   %zu entries: odd, exact bit length and limb count, prime (or n = p*q)\n",
           (size_t)BENCH_MODULI_COUNT);
    mpz_clears(z, p, q, NULL);
}

int main(int argc, char **argv) {
    const char *keys = argc > 1 ? argv[1] : "data/keys";
    BIGNUM *b = BN_new();
    expect_bn("modp2048", BN_get_rfc3526_prime_2048(b), "OpenSSL BN_get_rfc3526_prime_2048");
    expect_bn("modp3072", BN_get_rfc3526_prime_3072(b), "OpenSSL BN_get_rfc3526_prime_3072");
    expect_bn("modp4096", BN_get_rfc3526_prime_4096(b), "OpenSSL BN_get_rfc3526_prime_4096");
    BN_free(b);

    check_curve("secp256k1_p", NID_secp256k1, NULL);
    check_curve("p256_p", NID_X9_62_prime256v1, "p256_n");
    check_curve("p384_p", NID_secp384r1, NULL);
    check_curve("p521_p", NID_secp521r1, NULL);

    mpz_t w, x, t;
    mpz_inits(w, x, t, NULL);
    mpz_ui_pow_ui(w, 2, 255);
    mpz_sub_ui(w, w, 19);
    expect("curve25519_p", w, "2^255 - 19 (GMP)");
    /* BLS12-381: p = (x-1)^2 (x^4 - x^2 + 1) / 3 + x, x = -0xd201000000010000 */
    mpz_set_str(x, "-d201000000010000", 16);
    mpz_sub_ui(w, x, 1);
    mpz_mul(w, w, w);
    mpz_pow_ui(t, x, 4);
    mpz_submul(t, x, x);
    mpz_add_ui(t, t, 1);
    mpz_mul(w, w, t);
    mpz_divexact_ui(w, w, 3);
    mpz_add(w, w, x);
    expect("bls12_381_p", w, "BLS12-381 formula in x (GMP)");
    mpz_clears(w, x, t, NULL);

    for (unsigned bits = 2048; bits <= 4096; bits += 1024) check_rsa(keys, bits);
    check_entries();

    if (failures) {
        fprintf(stderr, "test_moduli: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_moduli: all %zu embedded moduli agree with their sources\n",
           (size_t)BENCH_MODULI_COUNT);
    return 0;
}
