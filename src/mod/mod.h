/* Internal interface of src/mod/: shared by mont.c, ohta.c, powmod.c, inv.c. */
#ifndef TABAI_MOD_H
#define TABAI_MOD_H

#include "../dispatch/tables.h"
#include "../internal.h"
#include "../limb/limb.h"

/* w bits of e starting at bit pos (bits at or above ebits read as 0): the window of the
 * fixed- and sliding-window exponentiations (powmod.c, the multi-buffer one in src/mb).
 * pos, ebits and w are public; the bits themselves are not branched on. */
static inline uint64_t tabai_window_bits(const uint64_t *e, size_t ebits, size_t pos, unsigned w) {
    uint64_t v = 0;
    for (unsigned i = 0; i < w; i++) {
        size_t b = pos + i;
        uint64_t bit = b < ebits ? (e[b / 64] >> (b % 64)) & 1 : 0;
        v |= bit << i;
    }
    return v;
}

/* p[*n] = the big-endian modulus be[len] without its leading zero bytes, for the contexts'
 * init_bytes (variable time: a modulus is public). p has room for TABAI_MAX_LIMBS limbs.
 * TABAI_ERR_NULL if be is NULL, TABAI_ERR_MODULUS if every byte is zero (or len == 0),
 * TABAI_ERR_SIZE above TABAI_MAX_LIMBS limbs. */
tabai_status tabai_mod_modulus_from_bytes(uint64_t *p, size_t *n, const uint8_t *be, size_t len);

/* r = a mod p for a[n] < 2^64 * p ... used at init only (variable time, public data):
 * r[n] = 2^k mod p by doubling from 2^(bits-1). */
void tabai_mod_pow2_vartime(uint64_t *r, size_t k, const uint64_t *p, size_t n, size_t bits);

/* The Ohta products, used by powmod: r = a*b mod p (ctx->n limbs). */
void tabai_ohta_mul_unchecked(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                              const uint64_t *b);
void tabai_ohta_sqr_unchecked(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a);

/* TABAI_VERIFY (only inside checks): the invariants of a Montgomery context after
 * tabai_mont_init: 1 <= n <= TABAI_MAX_LIMBS, top limb non-zero, p odd and >= 3,
 * pinv * p[0] == -1 mod 2^64, rr < p, one < p, the four kernels set. */
static inline int tabai_verify_mont_ctx(const tabai_mont *c) {
    return tabai_verify_mont_modulus(c->p, c->pinv, c->n) && c->p[c->n - 1] != 0 &&
           (c->n > 1 || c->p[0] >= 3) && tabai_lt_n(c->rr, c->p, c->n) &&
           tabai_lt_n(c->one, c->p, c->n) && c->mul && c->sqr && c->add && c->sub;
}
/* The same for an Ohta context: 1 <= n <= TABAI_MAX_LIMBS, top limb non-zero, p >= 2, and
 * K >= 2^(64n) (its top limb k[n] non-zero, since p < R). */
static inline int tabai_verify_ohta_ctx(const tabai_ohta *c) {
    return c->n >= 1 && c->n <= TABAI_MAX_LIMBS && c->p[c->n - 1] != 0 &&
           (c->n > 1 || c->p[0] >= 2) && c->k[c->n] != 0 && c->mul && c->sqr;
}

/* r[n] = a^-1 mod m (0 for a = 0; unspecified, < m, when gcd(a, m) > 1), by Bernstein-Yang
 * safegcd in signed radix 2^62 (safegcd.c). m odd, a < m, bits = m's bit length (public);
 * minv = -m^-1 mod 2^64. r may alias a.
 * tabai_modinv_safegcd: 1 <= n <= 9, constant time in a (a fixed number of steps for bits);
 * _vartime: 1 <= n <= TABAI_MAX_LIMBS, stops when the gcd is reached, for public a only;
 * returns 1 if gcd(a, m) = 1 (r is then the inverse), 0 if not, -1 if it ran past three
 * times the step bound (never seen; the caller then takes another algorithm). */
void tabai_modinv_safegcd(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t minv,
                          size_t bits, size_t n);
int tabai_modinv_safegcd_vartime(uint64_t *r, const uint64_t *a, const uint64_t *m,
                                 uint64_t minv, size_t bits, size_t n);
/* r0 = a0^-1 mod m0 and r1 = a1^-1 mod m1 at once, each as tabai_modinv_safegcd (constant
 * time, 1 <= n <= 9, 0 for 0), both moduli odd and at most bits bits long (bits public); the
 * two inversions' steps run side by side (about three quarters of the time of two calls).
 * r0 may alias a0 and r1 a1. */
void tabai_modinv2_safegcd(uint64_t *r0, const uint64_t *a0, const uint64_t *m0, uint64_t minv0,
                           uint64_t *r1, const uint64_t *a1, const uint64_t *m1, uint64_t minv1,
                           size_t bits, size_t n);

/* r[n] = a^-1 mod m for m odd, a < m (n limbs, 1 <= n <= TABAI_MAX_LIMBS) by the binary
 * extended Euclid (HAC 14.61); returns 1, or 0 (r untouched) when gcd(a, m) != 1. Variable
 * time. The fallback of tabai_inv_vartime behind safegcd, about 10 times slower. */
int tabai_inv_odd_binary_vartime(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n);

/* *r = the Jacobi symbol (a/m) for m odd >= 3, a < m, 1 <= n <= TABAI_MAX_LIMBS, both n
 * limbs, by batches of 62 "positive" divsteps in radix 2^62 (safegcd.c); variable time.
 * Returns 0, or -1 when the step budget (4 bits + 512 halvings) ran out without an answer,
 * as happens when gcd(a, m) is large: the caller then takes the binary algorithm. */
int tabai_jacobi_divsteps_vartime(int *r, const uint64_t *a, const uint64_t *m, size_t n);

#endif
