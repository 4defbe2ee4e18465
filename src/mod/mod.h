/* Internal interface of src/mod/: shared by mont.c, ohta.c, powmod.c, inv.c. */
#ifndef TABAI_MOD_H
#define TABAI_MOD_H

#include "../cpu/kernels.h"
#include "../internal.h"

/* Strip leading zero limbs and check 1 <= n <= TABAI_MAX_LIMBS; returns the length or 0. */
size_t tabai_mod_modulus_len(const uint64_t *p, size_t n);

/* r = a mod p for a[n] < 2^64 * p ... used at init only (variable time, public data):
 * r[n] = 2^k mod p by doubling from 2^(bits-1). */
void tabai_mod_pow2_vartime(uint64_t *r, size_t k, const uint64_t *p, size_t n, size_t bits);

/* The Ohta products, used by powmod: r = a*b mod p (ctx->n limbs). */
void tabai_ohta_mul_unchecked(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                              const uint64_t *b);
void tabai_ohta_sqr_unchecked(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a);

#endif
