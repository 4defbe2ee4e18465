/* Eight elliptic-curve operations side by side in radix 2^52: one field element per 64-bit
 * lane, a curve of a 256-bit field in 5 digits (R = 2^260), a 384-bit one in 8 (R = 2^416).
 * The body (ec_r52_body.h) is written once over the vector-macro names of src/vec.h and
 * instantiated twice: with AVX-512 IFMA in zmm (ec_r52_ifma.c, this folder's flags) and
 * with a portable C model of the same instructions (src/mb/ec_r52_generic.c, the generic
 * flags), which is the reference the tests compare lane for lane and which any tier runs.
 *
 * Interface: lanes in and out are 64-bit limbs, lane l at x + l * n (n = the curve's limbs),
 * plain residues (not Montgomery), fully reduced. Every lane uses the same curve. Algorithms,
 * bounds and sources: src/ec/README.md, section "Eight lanes". */
#ifndef TABAI_IFMA_EC_R52_H
#define TABAI_IFMA_EC_R52_H

#include <stddef.h>
#include <stdint.h>

#define TABAI_EC_R52_LANES 8
#define TABAI_EC_R52_MAXD 8  /* digits of a 384-bit field (416 bits) */
#define TABAI_EC_R52_W 5     /* signed Booth windows of 5 bits, digits in [-16, 16] */
#define TABAI_EC_R52_TAB 16  /* multiples 1..16 per window */
#define TABAI_EC_R52_GLV_BITS 129 /* the bound of the GLV halves (= TABAI_EC_GLV_BITS) */

/* One modulus (p or q) in radix 2^52: digits < 2^52, least significant first. */
typedef struct tabai_ec_r52_mod {
    uint64_t m[TABAI_EC_R52_MAXD];   /* the modulus */
    uint64_t k0;                     /* -m^-1 mod 2^52 */
    uint64_t rr[TABAI_EC_R52_MAXD];  /* R^2 mod m, R = 2^(52 d) */
    uint64_t one[TABAI_EC_R52_MAXD]; /* R mod m */
    const uint64_t *e;               /* q - 2 (qinv's Fermat exponent), 64-bit limbs; p: NULL */
    size_t ebits;                    /* its bit length (public); p: 0 */
} tabai_ec_r52_mod;

/* One curve y^2 = x^3 + a x + b (a = -3 or a = 0) with its generator's table. */
typedef struct tabai_ec_r52_curve {
    size_t d;        /* digits: 5 or 8 */
    size_t n;        /* 64-bit limbs of a field element and of a scalar at the interface */
    size_t qbits;    /* bits of the group order: the Booth windows are qbits / 5 + 1 */
    int a_zero;      /* 1: a = 0 (secp256k1); 0: a = -3 */
    tabai_ec_r52_mod p, q;
    uint64_t b[TABAI_EC_R52_MAXD], b3[TABAI_EC_R52_MAXD]; /* b R, 3 b R mod p */
    /* window i, entry j (1..16), coordinate c (0 = x, 1 = y), digit t of j 2^(5i) G, affine,
     * Montgomery form: gtab[((i * 16 + j - 1) * 2 + c) * d + t] */
    const uint64_t *gtab;
    /* r = a^-1 mod p on n plain limbs (a < p, a = 0 gives 0; r may alias a), constant time,
     * called with ctx: the affine conversion's inversion, lane by lane (the batch layer
     * gives its safegcd, src/mod) */
    void (*inv_p)(const void *ctx, uint64_t *r, const uint64_t *a);
    /* glv (a = 0 curves with the endomorphism lambda (x, y) = (beta x, y)): k P as
     * k1 P + k2 lambda P, k = k1 + k2 lambda mod q split by glv_split (called with ctx, lane
     * by lane, constant time: k < q of n limbs to magnitudes k1, k2 < 2^TABAI_EC_R52_GLV_BITS of
     * n limbs and their signs, 1 for negative); beta R mod p */
    int glv;
    void (*glv_split)(const void *ctx, const uint64_t *k, uint64_t *k1, uint64_t *k2,
                      uint64_t *neg1, uint64_t *neg2);
    uint64_t beta[TABAI_EC_R52_MAXD];
    const void *ctx;
} tabai_ec_r52_curve;

/* The kernels of one instantiation. Every function is constant time in its secret inputs
 * (k, the points' coordinates) unless its name ends in _vartime; the loop counts depend on
 * the curve only; table reads scan every entry with per-lane masks.
 *   mul:      (x, y) = affine k P per lane, k < q (n limbs), P = (px, py) on the curve.
 *   mul_base: (x, y) = affine k G per lane, k < 2^qbits.
 *   mul2_vartime: x = affine x of u1 G + u2 P per lane (public inputs).
 *   Each returns the mask of the lanes whose result is the point at infinity (x, y then 0);
 *   y may be NULL.
 *   oncurve:  the mask of the lanes with py^2 = px^3 + a px + b (px, py < p).
 *   qinv:     r = a^-1 mod q (a = 0 gives 0), Fermat (a reference for the tests: the batch
 *             layer inverts scalars by the safegcd); qmul: r = a b mod q (a, b < q). */
typedef struct tabai_ec_r52_kernel {
    const char *name; /* "ifma_zmm", "generic8" */
    unsigned (*mul)(const tabai_ec_r52_curve *c, uint64_t *x, uint64_t *y, const uint64_t *k,
                    const uint64_t *px, const uint64_t *py);
    unsigned (*mul_base)(const tabai_ec_r52_curve *c, uint64_t *x, uint64_t *y,
                         const uint64_t *k);
    unsigned (*mul2_vartime)(const tabai_ec_r52_curve *c, uint64_t *x, const uint64_t *u1,
                             const uint64_t *u2, const uint64_t *px, const uint64_t *py);
    unsigned (*oncurve)(const tabai_ec_r52_curve *c, const uint64_t *px, const uint64_t *py);
    void (*qinv)(const tabai_ec_r52_curve *c, uint64_t *r, const uint64_t *a);
    void (*qmul)(const tabai_ec_r52_curve *c, uint64_t *r, const uint64_t *a, const uint64_t *b);
    /* r = a b R^-1 mod p per lane on digit vectors (d * 8 words, digit t of lane l at
     * t * 8 + l; a, b < p): the bare field product, for the tests and the bench */
    void (*fmul)(const tabai_ec_r52_curve *c, uint64_t *r, const uint64_t *a, const uint64_t *b);
} tabai_ec_r52_kernel;

extern const tabai_ec_r52_kernel tabai_ec_r52_mb8_ifma;    /* src/ifma/ec_r52_ifma.c */
extern const tabai_ec_r52_kernel tabai_ec_r52_mb8_generic; /* src/mb/ec_r52_generic.c */

#endif
