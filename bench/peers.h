/* Conversions between tabai's limbs (uint64_t, least significant first) and the peers'
 * numbers (GMP mpz_t, OpenSSL BIGNUM), shared by the suites that time the peers. A failed
 * conversion stops the benchmark (bench_fail). */
#ifndef TABAI_BENCH_PEERS_H
#define TABAI_BENCH_PEERS_H

#include <gmp.h>
#include <openssl/bn.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"

_Static_assert(sizeof(mp_limb_t) == sizeof(uint64_t), "64-bit GMP limbs expected");

static inline void mpz_from(mpz_t z, const uint64_t *a, size_t n) { mpz_import(z, n, -1, 8, 0, 0, a); }

static inline void mpz_to(uint64_t *r, size_t n, const mpz_t z) {
    memset(r, 0, n * 8);
    if (mpz_sizeinbase(z, 2) > 64 * n) bench_fail("internal: value wider than %zu limbs", n);
    mpz_export(r, NULL, -1, 8, 0, 0, z);
}

static inline BIGNUM *bn_from(const uint64_t *a, size_t n) {
    BIGNUM *b = BN_lebin2bn((const unsigned char *)a, (int)(n * 8), NULL);
    if (!b) bench_fail("BN_lebin2bn failed");
    return b;
}

static inline void bn_to(uint64_t *r, size_t n, const BIGNUM *b) {
    if (BN_bn2lebinpad(b, (unsigned char *)r, (int)(n * 8)) < 0)
        bench_fail("internal: BIGNUM wider than %zu limbs", n);
}

#endif
