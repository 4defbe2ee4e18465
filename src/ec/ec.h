/* Internal interface of src/ec/: the curve table (generated, curves.c) and the field,
 * scalar and point arithmetic shared by ec.c and the tests. Nothing here is exported. */
#ifndef TABAI_EC_INTERNAL_H
#define TABAI_EC_INTERNAL_H

#include "../dispatch/tables.h"
#include "../internal.h"
#include "tabai_ec.h"

#define TABAI_EC_NCURVES 4
#define TABAI_EC_LIMBS 9 /* P-521: 9 limbs */
#define TABAI_EC_GLV_BITS 129 /* the bound of the GLV halves (tools/gen/ec_consts.py) */

/* How field elements are held: Montgomery form, or plain residues for the primes whose
 * special form gives a cheaper reduction after the tier's product kernel (special.c). */
typedef enum tabai_ec_form {
    TABAI_EC_FORM_MONT = 0,
    TABAI_EC_FORM_MERSENNE = 1 /* p = 2^521 - 1 */
} tabai_ec_form;

/* One curve y^2 = x^3 + a x + b over F_p, generator G of prime order q (called n in the
 * standards; here n is the limb count). Limb arrays hold n limbs, zero above. */
typedef struct tabai_ec_curve {
    tabai_curve id;
    const char *name;
    size_t n;      /* limbs of p and of q */
    size_t bytes;  /* L = Ln: bytes of a field element and of a scalar */
    size_t pbits, qbits;
    int a_zero;    /* 1: a = 0 (secp256k1); 0: a = -3 (the NIST curves) */
    tabai_ec_form form; /* the field's representation; "_m" constants are in it */
    /* p_rr, p_one: R^2 and R mod p of the field's form (1 and 1 for the plain forms) */
    uint64_t p[TABAI_EC_LIMBS], pinv, p_rr[TABAI_EC_LIMBS], p_one[TABAI_EC_LIMBS];
    uint64_t p_minus2[TABAI_EC_LIMBS], p_sqrt[TABAI_EC_LIMBS]; /* p - 2, (p + 1) / 4 */
    uint64_t a[TABAI_EC_LIMBS], b[TABAI_EC_LIMBS], gx[TABAI_EC_LIMBS], gy[TABAI_EC_LIMBS];
    uint64_t b_m[TABAI_EC_LIMBS], b3_m[TABAI_EC_LIMBS]; /* b R, 3 b R mod p */
    uint64_t gx_m[TABAI_EC_LIMBS], gy_m[TABAI_EC_LIMBS];
    uint64_t q[TABAI_EC_LIMBS], qinv, q_rr[TABAI_EC_LIMBS], q_one[TABAI_EC_LIMBS];
    uint64_t q_minus2[TABAI_EC_LIMBS], q_half[TABAI_EC_LIMBS]; /* q - 2, (q - 1) / 2 */
    /* GLV (a = 0): lambda (x, y) = (beta x, y); k = k1 + k2 lambda with c1 = round(k g1 /
     * 2^384), c2 = round(k g2 / 2^384), k2 = c1 (-b1) + c2 (-b2), k1 = k - k2 lambda mod q */
    int glv;
    uint64_t beta_m[TABAI_EC_LIMBS];                         /* field form */
    uint64_t lam_m[TABAI_EC_LIMBS], mb1_m[TABAI_EC_LIMBS], mb2_m[TABAI_EC_LIMBS]; /* x R mod q */
    uint64_t g1[TABAI_EC_LIMBS], g2[TABAI_EC_LIMBS];
} tabai_ec_curve;

extern const tabai_ec_curve tabai_ec_curves[TABAI_EC_NCURVES];

/* The curve of an id, or NULL. */
const tabai_ec_curve *tabai_ec_curve_get(tabai_curve c);

/* A modulus with the kernels of the tier in use (taken once per call of the public API, as
 * tabai_mont takes them at init): arithmetic modulo p or q in Montgomery form. */
typedef struct tabai_ec_mod {
    size_t n;
    const uint64_t *m;
    uint64_t minv;
    const uint64_t *rr, *one;
    tabai_mont_mul_fn mul;
    tabai_mont_sqr_fn sqr;
    tabai_mod_addsub_fn add, sub;
} tabai_ec_mod;

/* A projective point (X : Y : Z), coordinates in Montgomery form; infinity is (0 : 1 : 0). */
typedef struct tabai_ec_point {
    uint64_t x[TABAI_EC_LIMBS], y[TABAI_EC_LIMBS], z[TABAI_EC_LIMBS];
} tabai_ec_point;

struct tabai_ec_ctx;
/* The point operations of one curve and tier with the field arithmetic inlined
 * (curve_impl.h instantiated by p256.c, secp256k1.c, ...); the same contracts as the
 * tabai_ec_point_* and tabai_ec_mul* functions below, which call them when the context has
 * them. */
typedef struct tabai_ec_impl {
    void (*add)(const struct tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p,
                const tabai_ec_point *q);
    void (*dbl)(const struct tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p);
    void (*mul)(const struct tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k,
                const tabai_ec_point *p);
    void (*mul_base)(const struct tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k);
    void (*mul2_vartime)(const struct tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *u1,
                         const uint64_t *u2, const tabai_ec_point *p);
    /* the inlined field operations, callable for the tests: r = a b R^-1, a^2 R^-1, a + b,
     * a - b mod p (Montgomery form, R = 1 for P-521's plain residues); a, b < p, r < p, r may
     * alias; constant time */
    void (*fe_mul)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*fe_sqr)(uint64_t *r, const uint64_t *a);
    void (*fe_add)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*fe_sub)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    /* the unified addition of mul's windows, callable for the tests: r = p + q for p in
     * Jacobian coordinates (X / Z^2, Y / Z^3; Z = 0 is infinity) and q affine and finite
     * (q->z ignored), r Jacobian; r may alias p; constant time */
    void (*jmadd)(const struct tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p,
                  const tabai_ec_point *q);
    /* r = a^e (the form of fe_mul) for a public, nonzero exponent e of ebits bits (e.g. the
     * square root's (p + 1) / 4): tabai_ec_pow's 4-bit window on the inlined field
     * operations; r may alias a; constant time in a */
    void (*fe_pow)(uint64_t *r, const uint64_t *a, const uint64_t *e, size_t ebits);
} tabai_ec_impl;

/* A curve with its field and scalar moduli bound to the tier's kernels, and the curve's
 * inlined point code for the tier (NULL: the generic code of point.c through fp's kernels;
 * a caller that replaces fp's kernels must set it to NULL, and impl_mul too); impl_mul:
 * the instance whose k P (tabai_ec_mul_ct, ECDH) the tier takes instead of impl's, where
 * that one is faster and impl's other operations are (P-384 at tier ifma), else NULL. */
typedef struct tabai_ec_ctx {
    const tabai_ec_curve *c;
    tabai_ec_mod fp, fq;
    const tabai_ec_impl *impl, *impl_mul;
} tabai_ec_ctx;

/* The instances (one per curve and tier; the tiers above bmi2 use bmi2's, but for P-521
 * at ifma, and P-384's k P there through impl_mul). */
extern const tabai_ec_impl tabai_ec_impl_p256_generic, tabai_ec_impl_p256_bmi2;
extern const tabai_ec_impl tabai_ec_impl_secp256k1_generic, tabai_ec_impl_secp256k1_bmi2;
/* bmi2's with k G by the width-7 table scanned with AVX-512F (the tiers avx512 and ifma) */
extern const tabai_ec_impl tabai_ec_impl_p256_avx512, tabai_ec_impl_secp256k1_avx512;
/* the same with the AVX2 scan (tier avx2) */
extern const tabai_ec_impl tabai_ec_impl_p256_avx2, tabai_ec_impl_secp256k1_avx2;
extern const tabai_ec_impl tabai_ec_impl_p384_generic, tabai_ec_impl_p384_bmi2;
extern const tabai_ec_impl tabai_ec_impl_p384_avx2; /* bmi2's, 7-bit k G, AVX2 scan */
extern const tabai_ec_impl tabai_ec_impl_p384_ifma; /* ifma: radix 2^52 on ymm (its k P) */
/* its field (ifma/p384_r52.h) as calls, for the tests (tier ifma only):
 * elements of 8 words, normalized (digits 0..6 below 2^52, digit 7 below 2^51) */
void tabai_ec_p384_r52_mul(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p384_r52_sqr(uint64_t *r, const uint64_t *a);
void tabai_ec_p384_r52_add(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p384_r52_sub(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p384_r52_sub_lazy(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p384_r52_mul_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const uint64_t *c);
void tabai_ec_p384_r52_sqr_sub2(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p384_r52_triple(uint64_t *r, const uint64_t *a);
void tabai_ec_p384_r52_sub2x(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p384_r52_half(uint64_t *r, const uint64_t *a);
extern const tabai_ec_impl tabai_ec_impl_p521;      /* generic: portable C in radix 2^58 */
extern const tabai_ec_impl tabai_ec_impl_p521_bmi2; /* bmi2: the mulx product and square */
extern const tabai_ec_impl tabai_ec_impl_p521_bmi2_avx2; /* the same, k P by the AVX2 scan */
extern const tabai_ec_impl tabai_ec_impl_p521_ifma;      /* ifma: radix 2^52 on ymm, AVX2 scan */
/* its field (ifma/p521_r52.h) as calls, for the tests and the bench (tier ifma only):
 * elements of 12 words, normalized (digits 0..9 below 2^52, digit 10 below 2^26) */
void tabai_ec_p521_r52_mul(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p521_r52_sqr(uint64_t *r, const uint64_t *a);
void tabai_ec_p521_r52_add(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p521_r52_sub(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p521_r52_mul_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const uint64_t *c);
void tabai_ec_p521_r52_sqr_sub2(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p521_r52_triple(uint64_t *r, const uint64_t *a);
void tabai_ec_p521_r52_sub2x(uint64_t *r, const uint64_t *a, const uint64_t *b);
void tabai_ec_p521_r52_half(uint64_t *r, const uint64_t *a);

void tabai_ec_ctx_init(tabai_ec_ctx *x, const tabai_ec_curve *c);

/* P-521's field products on plain residues (special.c, radix 2^58 inside), with the kernel
 * signatures (p, pinv and n are ignored): r = a b mod p, r = a^2 mod p for a, b < p, r < p;
 * r may alias; constant time. Every tier. */
void tabai_ec_p521_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                       uint64_t pinv, size_t n);
void tabai_ec_p521_sqr(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv, size_t n);

/* Helpers shared by point.c and curve_impl.h. The generator's table: window i holds
 * j 2^(5i) G, j = 1..16, affine (x, y) in Montgomery form, n limbs each (built at first use). */
const uint64_t *tabai_ec_base_table(const tabai_ec_curve *c);
/* The same with windows of 7 bits (entries j = 1..64, window i holds j 2^(7i) G), for
 * P-256, P-384 and secp256k1 (NULL for P-521). */
#define TABAI_EC_TAB7 64
const uint64_t *tabai_ec_base_table7(const tabai_ec_curve *c);
/* k = k1 + k2 lambda mod q (k < q, 4 limbs), |k1|, |k2| < 2^129 as magnitudes and signs
 * (1: negative); constant time. */
void tabai_ec_glv_split(const tabai_ec_ctx *x, const uint64_t *k, uint64_t *k1, uint64_t *k2,
                        uint64_t *neg1, uint64_t *neg2);
/* Width-w NAF digits of k[n] (public, 2 <= w <= 14), least significant first: odd digits in
 * (-2^(w-1), 2^(w-1)) or 0; returns their count (at most 64 n + 1). */
size_t tabai_ec_wnaf_vartime(int16_t *naf, const uint64_t *k, size_t n, unsigned w);
/* The generator's odd multiples for verification (width-TABAI_EC_VW NAF digits of u1):
 * entry j < TABAI_EC_VT is (2j + 1) G, affine (x, y) in Montgomery form, n limbs each; on
 * the curves with the endomorphism, entry TABAI_EC_VT + j is lambda (2j + 1) G = (beta x, y).
 * Built at first use. */
#define TABAI_EC_VW 12
#define TABAI_EC_VT (1 << (TABAI_EC_VW - 2))
const uint64_t *tabai_ec_verify_table(const tabai_ec_curve *c);

/* Points (constant time unless named _vartime). */
void tabai_ec_point_add_ct(const tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p,
                           const tabai_ec_point *q);
void tabai_ec_point_dbl_ct(const tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p);
/* r = k P for k[n] < q, constant time in k (GLV on the curves that have it); P is public:
 * the inlined instances make its affine table by variable-time formulas and inversion. */
void tabai_ec_mul_ct(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k,
                     const tabai_ec_point *p);
/* r = k G by the precomputed table, constant time in k (k[n] < 2^qbits). */
void tabai_ec_mul_base_ct(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k);
/* r = u1 G + u2 P in Jacobian coordinates (x = X/Z^2, y = Y/Z^3; infinity Z = 0), for P
 * with Z = 1; variable time (public inputs only). */
void tabai_ec_mul2_vartime(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *u1,
                           const uint64_t *u2, const tabai_ec_point *p);

/* be[len] = a[n] for a value that fits by construction (an element < p in L bytes, a scalar
 * < q in Ln bytes), and r[n] = be[len] for len <= 8n (L, Ln <= 8n): tabai_to_bytes and
 * tabai_from_bytes cannot fail here (TABAI_VERIFY builds check it). */
static inline void tabai_ec_to_bytes(uint8_t *be, size_t len, const uint64_t *a, size_t n) {
    const tabai_status s = tabai_to_bytes(be, len, a, n);
    TABAI_VERIFY_CHECK(s == TABAI_OK);
    (void)s;
}
static inline void tabai_ec_from_bytes(uint64_t *r, size_t n, const uint8_t *be, size_t len) {
    const tabai_status s = tabai_from_bytes(r, n, be, len);
    TABAI_VERIFY_CHECK(s == TABAI_OK);
    (void)s;
}

#endif
