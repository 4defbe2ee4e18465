/* The point formulas and scalar multiplications of point.c, instantiated for one curve and
 * one tier with its field operations inlined: no indirect call and no runtime limb count on
 * the hot paths. Included by one small .c per curve (p256.c, secp256k1.c, ...), once per tier,
 * after defining:
 *   EC_N               limbs of p and q
 *   EC_AZERO           1: a = 0 (Renes-Costello-Batina Algorithms 7-9); 0: a = -3 (4-6)
 *   EC_GLV             1: the curve has the endomorphism of tabai_ec_curve.glv
 *   EC_FN(name)        the name of an instance function (static, prefixed per curve and tier)
 *   FE_MUL(r, a, b)    r = a b R^-1 mod p, FE_SQR(r, a) r = a^2 R^-1 mod p: inputs < p,
 *                      output < p, r may alias a and b (Montgomery form, bit-identical to the
 *                      tier's tabai_mont_mul_n<EC_N> kernel)
 *   EC_P               const uint64_t[EC_N]: p
 *   FE_ADD, FE_SUB     optional: r = a + b, a - b mod p (default: portable C below)
 *   FE_ADD_LAZY        optional: r = a + b whose result is used only as a factor of FE_MUL
 *                      or FE_SQR or as the subtrahend of FE_SUB, for fields whose sums may
 *                      skip a carry pass there (P-521's radix 2^58; default: FE_ADD)
 *   FE_SUB_LAZY        optional: r = a - b for a, b from the other operations (not lazy
 *                      ones), used only as a factor of FE_MUL or FE_SQR whose other factor
 *                      is at most a lazy sum (default: FE_SUB)
 *   FE_HALF(r, a)      optional: r = a / 2 mod p (default: portable C below)
 *   EC_DBL_Z_SQR       optional: the a = -3 doubling's Z3 = S Z (S = 2 Y) as
 *                      ((S + Z)^2 - S^2 - Z^2) / 2, a square, two differences and a halving
 *                      for a product, where the product costs far more than the square
 *                      (P-521; S + Z is a lazy sum of a lazy sum, as 3 alpha is)
 *   EC_DBL_Z3_EARLY    optional: the doubling's Z3 = S Z right after S^2, not beside its last
 *                      product (the default, faster on P-256 and P-384, slower on P-521)
 *   EC_MUL_DA          optional: k P's windows but the last end in a doubling-addition
 *                      (jdadd_inc, 13M + 5S) instead of a doubling and an addition (12M +
 *                      7S): faster on P-256 and P-384 from tier bmi2, not on P-521 or at
 *                      generic; EC_MUL_DA_INLINE inlines it (faster on P-384, not P-256)
 *   EC_MADD_FUSED      optional: the incomplete mixed addition's X3 and Y3 by FE_SQR_SUB2 and
 *                      FE_MUL_SUB (P-521 at ifma; P-256's fused mixed addition was slower)
 *   EC_MADD_Z3_LATE    optional: the incomplete mixed addition's Z3 = Z1 H beside its last
 *                      product, not before X3 (faster on P-384's k G, not on the others)
 *   FE_MUL_SUB(r, a, b, c), FE_SQR_SUB2(r, a, b), FE_TRIPLE(r, a), FE_SUB2X(r, a, b)
 *                      optional: r = a b R^-1 - c, a^2 R^-1 - 2 b, 3 a, 2 (a - b) mod p,
 *                      fused (the doubling's Y3, X3, 3 alpha and, with EC_DBL_W, 2 (fb - X3);
 *                      default: the operations above in turn)
 *   FE_IN(r, a), FE_OUT(r, a), FE_IS_ZERO(a)
 *                      optional: the field operations work on a representation of their own
 *                      (P-521's radix 2^58): FE_IN takes an element of the context's form
 *                      (< p, 64-bit words) into it, FE_OUT brings one back to words below p,
 *                      FE_IS_ZERO(a) is 1 if a = 0 mod p (constant time); the instance
 *                      functions convert the points they take and give, the tables' entries
 *                      and the curve's b. The one, (1, 0, ...), must be the same in both
 *                      unless EC_ONE says otherwise; such a field defines FE_HALF too.
 *   EC_FE_N            optional: words of a field element when more than EC_N (P-521's
 *                      radix 2^52 at ifma: 12); the instance's points then have a type of
 *                      their own (EC_FN(pt)), converted at its entry and exit (FE_IN)
 *   EC_ONE(x)          optional: the field's one in the operations' form (default: the
 *                      context's x->fp.one)
 * and defines EC_IMPL_NAME, a const tabai_ec_impl; with EC_IMPL7_NAME (4-limb curves) or
 * EC_IMPL7_AVX2_NAME (an even EC_N) defined too, one more each whose k G reads the width-7
 * table with the AVX-512F scan kernel (tiers avx512, ifma) or the AVX2 one (whose k P reads
 * its table with the AVX2 scan too); with EC_IMPL_AVX2_NAME, one whose k P alone does (k G
 * as EC_IMPL_NAME's: P-521, whose width-7 table would be large). Same algorithms, the same
 * results and the same constant-time rules as point.c's generic code (src/ec/README.md). */
#include "../cpu/mbtypes.h"
#include "ec.h"
#include "field.h"

#ifdef EC_FE_N /* elements of more words than p (a reduced radix): points of the instance's own */
typedef struct {
    uint64_t x[EC_FE_N], y[EC_FE_N], z[EC_FE_N];
} EC_FN(pt);
#else
#define EC_FE_N EC_N
typedef tabai_ec_point EC_FN(pt);
#endif
#define EC_PT EC_FN(pt) /* the instance's point type */
#ifndef EC_ONE
#define EC_ONE(x) ((x)->fp.one) /* the field's one in the operations' form */
#endif
typedef uint64_t EC_FN(fe)[EC_FE_N];
static const uint64_t EC_FN(zero)[EC_FE_N]; /* the field's 0 in every form */

/* r = a + b mod p for a, b < p: the sum, the borrow of sum - p, then p subtracted under
 * its mask. Three carry chains: a select of sum or sum - p by masks was compiled into
 * vector instructions and took much longer than a chain. */
TABAI_INLINE void EC_FN(add)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t s[EC_N], t, cy = 0, bw = 0;
    _Pragma("GCC unroll 16")
    for (size_t i = 0; i < EC_N; i++) cy = tabai_adc(&s[i], a[i], b[i], cy);
#pragma GCC unroll 16
    for (size_t i = 0; i < EC_N; i++) bw = tabai_sbb(&t, s[i], EC_P[i], bw);
    uint64_t m = tabai_mask(cy | (bw ^ 1)); /* s >= p: subtract p */
    bw = 0;
#pragma GCC unroll 16
    for (size_t i = 0; i < EC_N; i++) bw = tabai_sbb(&r[i], s[i], EC_P[i] & m, bw);
}
/* r = a - b mod p for a, b < p: the difference, then p added under the borrow's mask. */
TABAI_INLINE void EC_FN(sub)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t d[EC_N], bw = 0, cy = 0;
    _Pragma("GCC unroll 16")
    for (size_t i = 0; i < EC_N; i++) bw = tabai_sbb(&d[i], a[i], b[i], bw);
    uint64_t m = tabai_mask(bw);
    _Pragma("GCC unroll 16")
    for (size_t i = 0; i < EC_N; i++) cy = tabai_adc(&r[i], d[i], EC_P[i] & m, cy);
}
TABAI_INLINE void EC_FN(cpy)(uint64_t *r, const uint64_t *a) {
    _Pragma("GCC unroll 16") for (size_t i = 0; i < EC_FE_N; i++) r[i] = a[i];
}

#define F_MUL FE_MUL
#define F_SQR FE_SQR
#ifdef FE_ADD /* the instance's own additions (FE_ADD(r, a, b), FE_SUB(r, a, b)) */
#define F_ADD FE_ADD
#define F_SUB FE_SUB
#else
#define F_ADD EC_FN(add)
#define F_SUB EC_FN(sub)
#endif
#ifdef FE_ADD_LAZY
#define F_ADDL FE_ADD_LAZY
#define F_SUBL FE_SUB_LAZY
#else
#define F_ADDL F_ADD
#define F_SUBL F_SUB
#endif
#ifndef FE_IS_ZERO
#define FE_IS_ZERO(a) fe_is_zero(a, EC_N)
#endif
#ifdef FE_IN /* the curve's b in the operations' form, through the scratch element tmp */
#define EC_FORM 1
#define EC_B(x, tmp) (FE_IN(tmp, (x)->c->b_m), (const uint64_t *)(tmp))
#else
#define EC_FORM 0
#define EC_B(x, tmp) ((void)(tmp), (x)->c->b_m)
#endif

/* The second half of Renes-Costello-Batina (EUROCRYPT 2016) Algorithms 4-5 (a = -3) /
 * 7-8 (a = 0), shared by the full and the mixed addition: from t0 = X1 X2, t1 = Y1 Y2,
 * t2 = Z1 Z2, t3 = X1 Y2 + X2 Y1, t4 = Y1 Z2 + Y2 Z1, Y3 = X1 Z2 + X2 Z1 (all overwritten).
 * The papers' sequences with the independent products next to each other (the two products
 * by b, then the additions, then the six last products), so that the additions no longer
 * wait between products one by one (the products themselves are bound by the throughput of
 * their instructions, src/ec/README.md). On Zen 3 this order made signing (the mixed
 * addition) faster on every curve and ECDH faster except on P-521, slightly slower there, in
 * alternating tabai-ec-time runs; grouping the first half's products too (point_add) gained
 * nothing on P-256 and lost on P-521, so it keeps the papers' order. */
TABAI_INLINE void EC_FN(add_tail)(const tabai_ec_ctx *x, EC_PT *r, uint64_t *t0, uint64_t *t1,
                                  uint64_t *t2, uint64_t *t3, uint64_t *t4, uint64_t *Y3) {
    EC_FN(fe) X3, Z3;
#if !EC_AZERO
    EC_FN(fe) bt, u;
    const uint64_t *b = EC_B(x, bt);
    F_MUL(Z3, b, t2);
    F_MUL(X3, b, Y3);
    F_ADD(u, t2, t2);
    F_ADD(t2, u, t2); /* 3 t2 */
    F_SUB(Y3, Y3, Z3);
    F_ADD(Z3, Y3, Y3);
    F_ADD(Y3, Y3, Z3); /* 3 (Y3 - b t2) */
    F_SUB(X3, X3, t2);
    F_SUB(X3, X3, t0);
    F_ADD(u, X3, X3);
    F_ADD(X3, u, X3); /* 3 (b Y3 - 3 t2 - t0) */
    F_ADD(u, t0, t0);
    F_ADD(t0, u, t0);
    F_SUB(t0, t0, t2); /* 3 t0 - 3 t2 */
    F_SUB(Z3, t1, Y3);
    F_ADD(Y3, t1, Y3);
    F_MUL(t1, t4, X3);
    F_MUL(t2, t0, X3);
    F_MUL(X3, t3, Y3);
    F_MUL(Y3, Y3, Z3);
    F_MUL(Z3, t4, Z3);
    F_MUL(t0, t3, t0);
    F_SUB(r->x, X3, t1);
    F_ADD(r->y, Y3, t2);
    F_ADD(r->z, Z3, t0);
#else
    const uint64_t *b3 = x->c->b3_m;
    F_MUL(t2, b3, t2);
    F_MUL(Y3, b3, Y3);
    F_ADD(X3, t0, t0);
    F_ADD(t0, X3, t0);
    F_ADD(Z3, t1, t2);
    F_SUB(t1, t1, t2);
    F_MUL(X3, t4, Y3);
    F_MUL(t2, t3, t1);
    F_MUL(Y3, Y3, t0);
    F_MUL(t1, t1, Z3);
    F_MUL(t0, t0, t3);
    F_MUL(Z3, Z3, t4);
    F_SUB(r->x, t2, X3);
    F_ADD(r->y, t1, Y3);
    F_ADD(r->z, Z3, t0);
#endif
}

/* Renes-Costello-Batina Algorithm 4 (a = -3) / 7 (a = 0): r = p + q for any p, q (r may
 * alias). */
static void EC_FN(point_add)(const tabai_ec_ctx *x, EC_PT *r, const EC_PT *p, const EC_PT *q) {
    EC_FN(fe) t0, t1, t2, t3, t4, X3, Y3;
    F_MUL(t0, p->x, q->x);
    F_MUL(t1, p->y, q->y);
    F_MUL(t2, p->z, q->z);
    F_ADD(t3, p->x, p->y);
    F_ADD(t4, q->x, q->y);
    F_MUL(t3, t3, t4);
    F_ADD(t4, t0, t1);
    F_SUB(t3, t3, t4);
    F_ADD(t4, p->y, p->z);
    F_ADD(X3, q->y, q->z);
    F_MUL(t4, t4, X3);
    F_ADD(X3, t1, t2);
    F_SUB(t4, t4, X3);
    F_ADD(X3, p->x, p->z);
    F_ADD(Y3, q->x, q->z);
    F_MUL(X3, X3, Y3);
    F_ADD(Y3, t0, t2);
    F_SUB(Y3, X3, Y3);
    EC_FN(add_tail)(x, r, t0, t1, t2, t3, t4, Y3);
}

/* Algorithm 6 (a = -3) / 9 (a = 0): r = 2 p (r may alias p). */
static void EC_FN(point_dbl)(const tabai_ec_ctx *x, EC_PT *r, const EC_PT *p) {
    EC_FN(fe) t0, t1, t2, X3, Y3, Z3;
#if !EC_AZERO
    EC_FN(fe) t3, bt;
    const uint64_t *b = EC_B(x, bt);
    F_SQR(t0, p->x);
    F_SQR(t1, p->y);
    F_SQR(t2, p->z);
    F_MUL(t3, p->x, p->y);
    F_ADD(t3, t3, t3);
    F_MUL(Z3, p->x, p->z);
    F_ADD(Z3, Z3, Z3);
    F_MUL(Y3, b, t2);
    F_SUB(Y3, Y3, Z3);
    F_ADD(X3, Y3, Y3);
    F_ADD(Y3, X3, Y3);
    F_SUB(X3, t1, Y3);
    F_ADD(Y3, t1, Y3);
    F_MUL(Y3, X3, Y3);
    F_MUL(X3, X3, t3);
    F_ADD(t3, t2, t2);
    F_ADD(t2, t2, t3);
    F_MUL(Z3, b, Z3);
    F_SUB(Z3, Z3, t2);
    F_SUB(Z3, Z3, t0);
    F_ADD(t3, Z3, Z3);
    F_ADD(Z3, Z3, t3);
    F_ADD(t3, t0, t0);
    F_ADD(t0, t3, t0);
    F_SUB(t0, t0, t2);
    F_MUL(t0, t0, Z3);
    F_ADD(Y3, Y3, t0);
    F_MUL(t0, p->y, p->z);
    F_ADD(t0, t0, t0);
    F_MUL(Z3, t0, Z3);
    F_SUB(X3, X3, Z3);
    F_MUL(Z3, t0, t1);
    F_ADD(Z3, Z3, Z3);
    F_ADD(Z3, Z3, Z3);
#else
    const uint64_t *b3 = x->c->b3_m;
    F_SQR(t0, p->y);
    F_ADD(Z3, t0, t0);
    F_ADD(Z3, Z3, Z3);
    F_ADD(Z3, Z3, Z3);
    F_MUL(t1, p->y, p->z);
    F_SQR(t2, p->z);
    F_MUL(t2, b3, t2);
    F_MUL(X3, t2, Z3);
    F_ADD(Y3, t0, t2);
    F_MUL(Z3, t1, Z3);
    F_ADD(t1, t2, t2);
    F_ADD(t2, t1, t2);
    F_SUB(t0, t0, t2);
    F_MUL(Y3, t0, Y3);
    F_ADD(Y3, X3, Y3);
    F_MUL(t1, p->x, p->y);
    F_MUL(X3, t0, t1);
    F_ADD(X3, X3, X3);
#endif
    EC_FN(cpy)(r->x, X3);
    EC_FN(cpy)(r->y, Y3);
    EC_FN(cpy)(r->z, Z3);
}

static inline void EC_FN(point_inf)(const tabai_ec_ctx *x, EC_PT *r) {
    memset(r, 0, sizeof *r);
    EC_FN(cpy)(r->y, EC_ONE(x));
}

/* r = m ? a : b for a mask m (0 or all ones), EC_FE_N words, by 128-bit vector operations (the
 * SIMD units, not the ALUs that the field products' mulx competes with); r may alias. */
static inline void EC_FN(fe_sel)(uint64_t *r, uint64_t m, const uint64_t *a, const uint64_t *b) {
    typedef uint64_t v2 __attribute__((vector_size(16)));
    const v2 mv = {m, m};
#pragma GCC unroll 16
    for (size_t i = 0; i + 1 < EC_FE_N; i += 2) {
        v2 va, vb;
        memcpy(&va, a + i, sizeof va);
        memcpy(&vb, b + i, sizeof vb);
        vb = (va & mv) | (vb & ~mv);
        memcpy(r + i, &vb, sizeof vb);
    }
    if (EC_FE_N % 2) r[EC_FE_N - 1] = (a[EC_FE_N - 1] & m) | (b[EC_FE_N - 1] & ~m);
}

/* r = -r if neg (0 or 1): y = p - y under a mask (y = 0 stays 0). */
static inline void EC_FN(point_cneg)(EC_PT *r, uint64_t neg) {
    EC_FN(fe) ny;
    F_SUB(ny, EC_FN(zero), r->y);
    tabai_cmov_n(r->y, neg, ny, r->y, EC_FE_N);
}

static inline void EC_FN(jdbl_ct)(EC_PT *r, const EC_PT *p);
#ifdef EC_DBL_W
static inline void EC_FN(jdbl_w_ct)(EC_PT *r);
#endif
static void EC_FN(jdblu)(EC_PT *r, EC_PT *pu, const EC_PT *p);
static void EC_FN(jadd)(const tabai_ec_ctx *x, EC_PT *r, const EC_PT *p, const EC_PT *q,
                        int q_affine, const uint64_t *zg, uint64_t *zr);

/* r = a^-1 (a nonzero, public), variable time: the context's inversion, through the
 * context's form for a field of its own representation. r may alias a. */
static void EC_FN(inv_vartime)(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a) {
#if EC_FORM
    uint64_t w[EC_N];
    FE_OUT(w, a);
    tabai_ec_fe_inv_vartime(x, w, w);
    FE_IN(r, w);
#else
    tabai_ec_fe_inv_vartime(x, r, a);
#endif
}

/* pa = p with Z = 1 for a public p: p itself when its Z is one, else (X / Z : Y / Z : 1) by
 * a variable-time inversion; 0 for infinity (pa not set). */
static int EC_FN(affine_in)(const tabai_ec_ctx *x, EC_PT *pa, const EC_PT *p) {
    if (FE_IS_ZERO(p->z)) return 0;
    *pa = *p;
    if (memcmp(p->z, EC_ONE(x), EC_FE_N * sizeof *p->z) == 0) return 1;
    EC_FN(fe) zi;
    EC_FN(inv_vartime)(x, zi, p->z);
    F_MUL(pa->x, p->x, zi);
    F_MUL(pa->y, p->y, zi);
    EC_FN(cpy)(pa->z, EC_ONE(x));
    return 1;
}

/* (r, p) = (p + q, p with r's Z) for p, q of the same Z (co-Z), both finite, p != +-q:
 * Meloni's ZADDU ("New point addition formulae for ECC applications", WAIFI 2007, in the
 * notation of Goundar, Joye, Miyaji, Rivain, Venelli, "Scalar multiplication on Weierstrass
 * elliptic curves from Co-Z arithmetic", J. Cryptogr. Eng. 2011): with C = (X1 - X2)^2,
 * W1 = X1 C, W2 = X2 C, X3 = (Y1 - Y2)^2 - W1 - W2, Y3 = (Y1 - Y2)(W1 - X3) - Y1 (W1 - W2),
 * Z3 = Z (X1 - X2), and p becomes (W1, Y1 (W1 - W2), Z3). 5M + 2S, no product by a or b.
 * zr = X1 - X2 = Z3 / Z. Public points only (the tables of mul and mul2_vartime); r must
 * not alias p or q. */
static void EC_FN(zaddu)(EC_PT *r, EC_PT *p, const EC_PT *q, uint64_t *zr) {
    EC_FN(fe) c, w1, w2, dy, a1, t;
    F_SUB(zr, p->x, q->x);
    F_SUB(dy, p->y, q->y);
    F_SQR(c, zr);
    F_SQR(r->x, dy);
    F_MUL(w1, p->x, c);
    F_MUL(w2, q->x, c);
    F_MUL(r->z, p->z, zr);
    F_SUB(t, w1, w2);
    F_MUL(a1, p->y, t);
    F_SUB(r->x, r->x, w1);
    F_SUB(r->x, r->x, w2);
    F_SUB(t, w1, r->x);
    F_MUL(t, dy, t);
    F_SUB(r->y, t, a1);
    EC_FN(cpy)(p->x, w1);
    EC_FN(cpy)(p->y, a1);
    EC_FN(cpy)(p->z, r->z);
}

/* t[0..n-1] (Jacobian, n <= 16, finite) to affine coordinates (Z ignored after) for a co-Z
 * chain: Z(t[j]) = Z(t[j - 1]) zr[j] for 0 < j < n (zr[0] unused), as zaddu leaves them;
 * `also`, if set, has t[n - 1]'s Z and is converted too. One variable-time inversion of the
 * last Z, then Z(t[j - 1])^-1 = Z(t[j])^-1 zr[j] going down, and x Z^-2, y Z^-3: 4M + 1S an
 * entry (Montgomery's trick would add 3M an entry to form the products of the Z's, which the
 * chain gives). Public points only. */
static void EC_FN(affine_coz)(const tabai_ec_ctx *x, EC_PT *t, EC_FN(fe) zr[], int n, EC_PT *also) {
    EC_FN(fe) zi, z2;
    EC_FN(inv_vartime)(x, zi, t[n - 1].z);
    for (int j = n - 1; j >= 0; j--) {
        F_SQR(z2, zi);
        F_MUL(t[j].x, t[j].x, z2);
        if (also && j == n - 1) F_MUL(also->x, also->x, z2);
        F_MUL(z2, z2, zi);
        F_MUL(t[j].y, t[j].y, z2);
        if (also && j == n - 1) F_MUL(also->y, also->y, z2);
        if (j) F_MUL(zi, zi, zr[j]);
    }
}

/* t[j] = t[0] + j a for 0 < j < n (n <= 16) by zaddu, t[0] and a co-Z on entry (jdblu leaves
 * them so), then t[0..n-1] to affine coordinates by one inversion (affine_coz), and a too
 * (it ends with t[n - 1]'s Z) when also is a. Public points only: the tables of mul and
 * mul2_vartime. */
static void EC_FN(coz_chain_affine)(const tabai_ec_ctx *x, EC_PT *t, int n, EC_PT *a, EC_PT *also) {
    EC_FN(fe) zr[16];
    for (int j = 1; j < n; j++) EC_FN(zaddu)(&t[j], a, &t[j - 1], zr[j]);
    EC_FN(affine_coz)(x, t, zr, n, also);
}

#if EC_GLV
/* tab[j] = (j + 1) p in affine coordinates (x, y; z unused), j < 16, for a finite p: the
 * table of mul. p is public (the peer's key), so the multiples are made in variable time by
 * co-Z additions (Longa, Miri, "New composite operations and precomputation scheme for
 * elliptic curve cryptosystems over prime fields", PKC 2008): 2 p by jdblu, which leaves p
 * with 2 p's Z, then (j + 1) p = p + j p by zaddu, which leaves p with the sum's Z (no
 * exceptional case: p = +-j p only for j = +-1 mod q), and one inversion for all (affine_coz):
 * 1 doubling and 14 additions of 5M + 2S, 4M + 1S an entry to affine. The windows then add
 * the entries by mixed Jacobian additions (mul_scan). */
static void EC_FN(aff_table)(const tabai_ec_ctx *x, EC_PT *tab, const EC_PT *p) {
    EC_PT pu;
    EC_FN(jdblu)(&tab[1], &pu, p);
    EC_FN(coz_chain_affine)(x, tab + 1, TABAI_EC_TAB - 1, &pu, &pu);
    tab[0] = pu;
}

#else
/* tab[j] = (2 j + 1) p in affine coordinates (x, y; z unused), j < 16, for a finite p: the
 * table of odd multiples of mul, made as aff_table's (Longa, Miri, PKC 2008, whose
 * precomputation is of these): 2 p by jdblu, which leaves p with 2 p's Z, then
 * (2 j + 1) p = 2 p + (2 j - 1) p by zaddu, which leaves 2 p with the sum's Z (no exceptional
 * case: 2 p = +-(2 j - 1) p only for 2 j - 1 = +-2 mod q), and one inversion for all. */
static void EC_FN(aff_table_odd)(const tabai_ec_ctx *x, EC_PT *tab, const EC_PT *p) {
    EC_PT d2;
    EC_FN(jdblu)(&d2, &tab[0], p);
    EC_FN(coz_chain_affine)(x, tab, TABAI_EC_TAB, &d2, NULL);
}

#endif

/* The table of mul packed for a vector scan (tabai_mb_scan_fn's contract, four lanes of one
 * index): entry i = 1..16 of EC_AW words holds x || y of tab[i - 1] (i p, or (2 i - 1) p for
 * the odd multiples) and zero words after them (EC_AW: 2 EC_N rounded up to whole vectors of
 * four); entry 0 (a GLV window's digit 0, no addition) is zero. */
#define EC_AW (((2 * EC_FE_N + 3) / 4) * 4)
static void EC_FN(pack_aff)(uint64_t *pt, const EC_PT *tab) {
    memset(pt, 0, (TABAI_EC_TAB + 1) * EC_AW * sizeof *pt);
    for (int i = 1; i <= TABAI_EC_TAB; i++) {
        memcpy(pt + i * EC_AW, tab[i - 1].x, EC_FE_N * sizeof *pt);
        memcpy(pt + i * EC_AW + EC_FE_N, tab[i - 1].y, EC_FE_N * sizeof *pt);
    }
}

/* (t->x, t->y) = entry abs (0..16) of mul's affine table: zero for 0, tab[abs - 1] otherwise;
 * by the vector scan kernel of the tier over the packed copy pt when scan is set (every
 * entry loaded, the wanted one kept by masks; through the caller's scratch ent[EC_AW] and
 * idx[4], which the caller wipes once at its end), else by a masked scan of all 16 entries. */
static inline void EC_FN(read_aff)(EC_PT *t, const EC_PT *tab, const uint64_t *pt,
                                   tabai_mb_scan_fn scan, uint64_t abs, uint64_t *ent,
                                   uint64_t *idx) {
    if (!scan) { /* public: the tier */
        memset(t->x, 0, sizeof t->x);
        memset(t->y, 0, sizeof t->y);
        for (uint64_t j = 0; j < TABAI_EC_TAB; j++) {
            uint64_t msk = tabai_mask(tabai_eq(j + 1, abs));
#pragma GCC unroll 16
            for (size_t l = 0; l < EC_FE_N; l++) {
                t->x[l] |= tab[j].x[l] & msk;
                t->y[l] |= tab[j].y[l] & msk;
            }
        }
        return;
    }
    idx[0] = idx[1] = idx[2] = idx[3] = abs;
    scan(ent, pt, TABAI_EC_TAB + 1, EC_AW / 4, 4, idx);
    memcpy(t->x, ent, EC_FE_N * sizeof *ent);
    memcpy(t->y, ent + EC_FE_N, EC_FE_N * sizeof *ent);
}

/* r = a / 2 mod p for a < p, p odd (constant time): a + p under the mask of a's low bit,
 * shifted right by one, the sum's carry becoming the top bit (the shifts as 128-bit ones,
 * shrd: the compiler vectorised the or of two 64-bit shifts). r may alias a. */
#ifdef FE_HALF
#define F_HALF FE_HALF
#else
#ifdef FE_IN
#error "a field of its own representation (FE_IN) defines its FE_HALF too"
#endif
TABAI_INLINE void EC_FN(half)(uint64_t *r, const uint64_t *a) {
    uint64_t s[EC_N], m = 0 - (a[0] & 1), cy = 0;
#pragma GCC unroll 16
    for (size_t i = 0; i < EC_N; i++) cy = tabai_adc(&s[i], a[i], EC_P[i] & m, cy);
#pragma GCC unroll 16
    for (size_t i = 0; i + 1 < EC_N; i++)
        r[i] = (uint64_t)((((tabai_u128)s[i + 1] << 64) | s[i]) >> 1);
    r[EC_N - 1] = (uint64_t)((((tabai_u128)cy << 64) | s[EC_N - 1]) >> 1);
}
#define F_HALF EC_FN(half)
#endif

/* The end of a masked Jacobian addition acc + t: acc = (X3, Y3, Z3), but (x, y, 1) of t when
 * acc is at infinity (Z = 0), and acc kept when abs = 0 (t the zero entry). Constant time. */
static inline void EC_FN(jadd_select)(const tabai_ec_ctx *x, EC_PT *acc, const EC_PT *t,
                                      uint64_t *X3, uint64_t *Y3, uint64_t *Z3, uint64_t abs) {
    const uint64_t inf = tabai_mask(FE_IS_ZERO(acc->z)), keep = tabai_mask(tabai_eq(abs, 0));
    EC_FN(fe_sel)(X3, inf, t->x, X3);
    EC_FN(fe_sel)(Y3, inf, t->y, Y3);
    EC_FN(fe_sel)(Z3, inf, EC_ONE(x), Z3);
    EC_FN(fe_sel)(acc->x, keep, acc->x, X3);
    EC_FN(fe_sel)(acc->y, keep, acc->y, Y3);
    EC_FN(fe_sel)(acc->z, keep, acc->z, Z3);
}

/* acc = acc + (t->x, t->y) in Jacobian coordinates, constant time, for any acc (infinity:
 * Z = 0) and a finite affine t, acc kept when abs = 0 (t is then the zero entry and its sum
 * is dropped by masks): the windows of mul. The unified addition of E. Brier and M. Joye
 * ("Weierstrass elliptic curves and side-channel attacks", PKC 2002), lambda =
 * (x1^2 + x1 x2 + x2^2 + a) / (y1 + y2), whose one case without a quotient, y1 = -y2 with
 * x1 != x2, takes the chord's (y1 - y2) / (x1 - x2) by masks, the arrangement of
 * libsecp256k1's secp256k1_gej_add_ge, here with a's term a Z1^4 in R: U1 = X1,
 * U2 = x2 Z1^2, S1 = Y1, S2 = y2 Z1^3, T = U1 + U2, M = S1 + S2, R = T^2 - U1 U2 + a Z1^4;
 * when M = 0, R := 2 S1 and M' := U1 - U2 (else M' = M); X3 = R^2 - T M'^2, Z3 = Z1 M',
 * Y3 = (R (T M'^2 - 2 X3) - M^3 M') / 2, where M^3 M' is M'^4 or 0. P = t doubles, P = -t
 * gives Z3 = 0; acc at infinity is replaced by (x, y, 1) under a mask. 7M + 6S (7M + 5S for
 * a = 0), against the complete projective formula's 11M + 2 products by b and the change of
 * coordinates around it (2M + 1S) when the doublings are Jacobian. */
static inline void EC_FN(jmadd_masked)(const tabai_ec_ctx *x, EC_PT *acc, const EC_PT *t,
                                       uint64_t abs) {
    EC_FN(fe) zz, u2, s2, tt, m, rr, ra, ma, n, q, w, X3, Y3, Z3;
    F_SQR(zz, acc->z);
    F_MUL(u2, t->x, zz);
    F_MUL(s2, t->y, zz);
    F_MUL(s2, s2, acc->z);
    F_ADD(tt, acc->x, u2);
    F_ADD(m, acc->y, s2);
    F_SQR(rr, tt);
    F_MUL(w, acc->x, u2);
    F_SUB(rr, rr, w);
#if !EC_AZERO
    F_SQR(zz, zz);
    F_ADD(w, zz, zz);
    F_ADD(w, w, zz);
    F_SUB(rr, rr, w); /* R = T^2 - U1 U2 - 3 Z1^4 */
#endif
    const uint64_t deg = FE_IS_ZERO(m);
    F_ADD(ra, acc->y, acc->y);
    F_SUB(ma, acc->x, u2);
    tabai_cmov_n(ra, deg, ra, rr, EC_FE_N);
    tabai_cmov_n(ma, deg, ma, m, EC_FE_N);
    F_SQR(n, ma);
    F_MUL(q, tt, n); /* T M'^2 */
    F_SQR(n, n);
    tabai_cmov_n(n, deg, EC_FN(zero), n, EC_FE_N); /* M^3 M' */
    F_SQR(w, ra);
    F_SUB(X3, w, q);
    F_MUL(Z3, acc->z, ma);
    F_ADD(w, X3, X3);
    F_SUB(w, q, w);
    F_MUL(w, ra, w);
    F_SUB(w, w, n);
    F_HALF(Y3, w);
    EC_FN(jadd_select)(x, acc, t, X3, Y3, Z3, abs);
}

/* acc = acc + (t->x, t->y) in Jacobian coordinates by the incomplete mixed addition
 * madd-2004-hmv of the Explicit-Formulas Database (8M + 3S, OpenSSL's ecp_nistz256 k G
 * addition): H = x2 Z1^2 - X1, r = y2 Z1^3 - Y1, X3 = r^2 - H^3 - 2 X1 H^2,
 * Y3 = r (X1 H^2 - X3) - Y1 H^3, Z3 = Z1 H. acc at infinity (Z = 0) is replaced by
 * (x, y, 1) and acc kept when abs = 0, by masks; acc = -t gives Z3 = 0, infinity, as it
 * should. acc = t (H = r = 0) is wrong: mul_base_w shows that k G's windows never meet it,
 * mul_scan that k P's windows other than the last never meet acc = +-t. Constant time. */
static inline void EC_FN(jmadd_inc_core)(const EC_PT *acc, const EC_PT *t, uint64_t *X3,
                                         uint64_t *Y3, uint64_t *Z3, uint64_t *ax, uint64_t *ay) {
    EC_FN(fe) zz, u2, s2, h, r, hh, hhh, v, w;
    F_SQR(zz, acc->z);
    F_MUL(u2, t->x, zz);
    F_MUL(s2, acc->z, zz);
    F_MUL(s2, t->y, s2);
    F_SUBL(h, u2, acc->x);
    F_SUBL(r, s2, acc->y);
    F_SQR(hh, h);
#ifdef EC_MADD_FUSED /* X3 = (r^2 - 2 v) - H^3, Y3 = r w - Y1 H^3 by the fused operations */
    F_MUL(hhh, h, hh);
    F_MUL(v, acc->x, hh);
#ifndef EC_MADD_Z3_LATE
    F_MUL(Z3, acc->z, h);
#endif
    FE_SQR_SUB2(X3, r, v);
    F_SUB(X3, X3, hhh);
    F_SUBL(w, v, X3);
#ifdef EC_MADD_Z3_LATE
    F_MUL(Z3, acc->z, h);
#endif
    F_MUL(hh, acc->y, hhh); /* hh: Y1 H^3 */
    FE_MUL_SUB(Y3, r, w, hh);
    if (ax) EC_FN(cpy)(ax, v), EC_FN(cpy)(ay, hh); /* acc with Z3: (X1 H^2, Y1 H^3) */
#else
    F_SQR(X3, r);
    F_MUL(hhh, h, hh);
    F_MUL(v, acc->x, hh);
#ifndef EC_MADD_Z3_LATE
    F_MUL(Z3, acc->z, h);
#endif
    F_SUBL(X3, X3, hhh); /* a lazy difference is a valid minuend of F_SUB (P-521) */
    F_ADDL(w, v, v);
    F_SUB(X3, X3, w);
    F_SUBL(w, v, X3);
#ifdef EC_MADD_Z3_LATE
    F_MUL(Z3, acc->z, h);
#endif
    F_MUL(Y3, r, w);
    F_MUL(w, acc->y, hhh);
    F_SUB(Y3, Y3, w);
    if (ax) EC_FN(cpy)(ax, v), EC_FN(cpy)(ay, w); /* acc with Z3: (X1 H^2, Y1 H^3) */
#endif
}
static inline void EC_FN(jmadd_inc_masked)(const tabai_ec_ctx *x, EC_PT *acc, const EC_PT *t,
                                           uint64_t abs) {
    EC_FN(fe) X3, Y3, Z3;
    EC_FN(jmadd_inc_core)(acc, t, X3, Y3, Z3, NULL, NULL);
    EC_FN(jadd_select)(x, acc, t, X3, Y3, Z3, abs);
}
#if !EC_GLV && !defined(EC_MUL_DA)
/* The same without the masks, for an acc that is finite and never +-t (the windows of mul
 * but the last, whose digits are never zero): acc = acc + t, constant time. */
static __attribute__((noinline)) void EC_FN(jmadd_inc)(EC_PT *acc, const EC_PT *t) {
    EC_FN(fe) X3, Y3, Z3;
    EC_FN(jmadd_inc_core)(acc, t, X3, Y3, Z3, NULL, NULL);
    EC_FN(cpy)(acc->x, X3);
    EC_FN(cpy)(acc->y, Y3);
    EC_FN(cpy)(acc->z, Z3);
}
#endif

/* r = 32 r in Jacobian coordinates, constant time: five doublings of jdbl_ct (4M + 4S,
 * 3M + 4S for a = 0; exception-free on a prime-order curve, Z = 0 stays 0), or, where the
 * instance defines EC_DBL_W (measured faster there: src/ec/README.md), of jdbl_w_ct with Y
 * held doubled between one sum before them and one halving after. */
static inline void EC_FN(jdbl5_ct)(EC_PT *r) {
#ifdef EC_DBL_W
    F_ADDL(r->y, r->y, r->y); /* W = 2 Y: only a factor of the first doubling */
    for (int j = 0; j < TABAI_EC_W; j++) EC_FN(jdbl_w_ct)(r);
#ifdef FE_ADD_LAZY
    F_ADD(r->y, r->y, EC_FN(zero)); /* the lazy W3's carries */
#endif
    F_HALF(r->y, r->y);
#else
    for (int j = 0; j < TABAI_EC_W; j++) EC_FN(jdbl_ct)(r, r);
#endif
}

#if !EC_GLV && defined(EC_MUL_DA)
/* acc = 2 acc + t, as (acc + t) + acc: the incomplete mixed addition leaves acc with the sum's
 * Z (X1 H^2, Y1 H^3, Z1 H), and the co-Z addition zaddu adds the two (the doubling-addition
 * of Longa and Miri, PKC 2008): 13M + 5S where a doubling and the addition take 12M + 7S, for
 * a finite acc with acc != +-t and acc + t != -acc (mul's windows but the last). Constant
 * time. */
#ifdef EC_MUL_DA_INLINE
static inline void EC_FN(jdadd_inc)(EC_PT *acc, const EC_PT *t) {
#else
static __attribute__((noinline)) void EC_FN(jdadd_inc)(EC_PT *acc, const EC_PT *t) {
#endif
    EC_PT sum, a1;
    EC_FN(fe) zr;
    EC_FN(jmadd_inc_core)(acc, t, sum.x, sum.y, sum.z, a1.x, a1.y);
    EC_FN(cpy)(a1.z, sum.z);
    EC_FN(zaddu)(acc, &a1, &sum, zr);
}
/* r = 16 r: jdbl5_ct's doublings but one */
static inline void EC_FN(jdbl4_ct)(EC_PT *r) {
#ifdef EC_DBL_W
    F_ADDL(r->y, r->y, r->y);
    for (int j = 0; j + 1 < TABAI_EC_W; j++) EC_FN(jdbl_w_ct)(r);
#ifdef FE_ADD_LAZY
    F_ADD(r->y, r->y, EC_FN(zero)); /* the lazy W3's carries */
#endif
    F_HALF(r->y, r->y);
#else
    for (int j = 0; j + 1 < TABAI_EC_W; j++) EC_FN(jdbl_ct)(r, r);
#endif
}
#endif

/* r = the Jacobian p as projective (X Z : Y : Z^3), 2M + 1S, constant time; infinity (Z = 0)
 * as (0 : 1 : 0). r may alias p. */
static inline void EC_FN(jac_to_proj)(const tabai_ec_ctx *x, EC_PT *r, const EC_PT *p) {
    EC_FN(fe) zz;
    F_SQR(zz, p->z);
    F_MUL(r->x, p->x, p->z);
    F_MUL(r->z, zz, p->z);
    EC_FN(cpy)(r->y, p->y);
    tabai_cmov_n(r->y, FE_IS_ZERO(r->z), EC_ONE(x), r->y, EC_FE_N);
    tabai_wipe(zz, sizeof zz);
}

#if EC_GLV
/* k P = k1 P + k2 lambda(P) (point.c's mul_glv_ct, inlined field operations), in Jacobian
 * coordinates: the doublings by jdbl5_ct, the unified additions of jmadd_masked of the
 * affine tables of aff_table, read by read_aff with scan. Constant time in k; p is public
 * (the peer's key). */
static void EC_FN(mul_scan)(const tabai_ec_ctx *x, EC_PT *r, const uint64_t *k, const EC_PT *p,
                            tabai_mb_scan_fn scan) {
    EC_PT tab[TABAI_EC_TAB], tab2[TABAI_EC_TAB], acc, t, pa;
    uint64_t k1[4], k2[4], s1, s2, neg, abs;
    uint64_t pt[(TABAI_EC_TAB + 1) * EC_AW], pt2[(TABAI_EC_TAB + 1) * EC_AW], ent[EC_AW], idx[4];
    if (!EC_FN(affine_in)(x, &pa, p)) { /* public: k infinity is infinity */
        EC_FN(point_inf)(x, r);
        return;
    }
    tabai_ec_glv_split(x, k, k1, k2, &s1, &s2);
    EC_FN(aff_table)(x, tab, &pa);
    for (int j = 0; j < TABAI_EC_TAB; j++) {
        tab2[j] = tab[j];
        F_MUL(tab2[j].x, tab[j].x, x->c->beta_m);
    }
    if (scan) EC_FN(pack_aff)(pt, tab), EC_FN(pack_aff)(pt2, tab2);
    size_t w = tabai_ec_booth_windows(TABAI_EC_GLV_BITS);
    memset(&acc, 0, sizeof acc); /* infinity: Z = 0 */
    for (size_t i = w; i-- > 0;) {
        if (i + 1 < w) EC_FN(jdbl5_ct)(&acc);
        tabai_ec_booth_digit(k1, 4, i, &neg, &abs);
        EC_FN(read_aff)(&t, tab, pt, scan, abs, ent, idx);
        EC_FN(point_cneg)(&t, neg ^ s1);
        EC_FN(jmadd_masked)(x, &acc, &t, abs);
        tabai_ec_booth_digit(k2, 4, i, &neg, &abs);
        EC_FN(read_aff)(&t, tab2, pt2, scan, abs, ent, idx);
        EC_FN(point_cneg)(&t, neg ^ s2);
        EC_FN(jmadd_masked)(x, &acc, &t, abs);
    }
    EC_FN(jac_to_proj)(x, r, &acc);
    tabai_wipe(tab, sizeof tab), tabai_wipe(tab2, sizeof tab2);
    if (scan) tabai_wipe(pt, sizeof pt), tabai_wipe(pt2, sizeof pt2);
    tabai_wipe(&acc, sizeof acc), tabai_wipe(&t, sizeof t);
    tabai_wipe(ent, sizeof ent), tabai_wipe(idx, sizeof idx);
    tabai_wipe(k1, sizeof k1), tabai_wipe(k2, sizeof k2);
    s1 = s2 = neg = abs = 0;
}
#else
/* k P by regular windows of odd digits (tabai_ec_odd_prepare: 5 bits, every digit odd, in
 * [-31, 31]; point.c's tabai_ec_mul_ct computes the same by signed windows), in Jacobian
 * coordinates: the doublings by jdbl5_ct, the entries of the table of odd multiples of
 * aff_table_odd read by read_aff with scan and added by the incomplete mixed addition
 * jmadd_inc (8M + 3S, no masks: no digit is zero), the last window by the unified
 * jmadd_masked (7M + 6S). An even k is replaced by q - k, odd, and the result negated at the
 * end, by masks. Constant time in k; p is public (the peer's key).
 *
 * Why no window but the last meets the incomplete addition's exceptional case, acc = +-t,
 * for 0 <= k < q (every caller; the point API reduces k mod q), and acc is never at infinity:
 * the scalar used, k' (k or q - k), is odd and 0 < k' <= q, k' = sum d_j 2^(5 j) with odd d_j
 * in [-31, 31]. Before window i's addition acc = V_i P with V_i = sum_(j > i) d_j 2^(5 (j - i)),
 * 32 times an odd number (its lowest digit is odd), so never 0, and t = d_i P. V_i 2^(5 i) =
 * k' - sum_(j <= i) d_j 2^(5 j), whose sum is below 2^(5 i + 5) in size, so |V_i| < q / 32 + 32
 * for i >= 1, and acc = +-t would need V_i = +-d_i + m q with |V_i -+ d_i| < q: m = 0, an even
 * V_i equal to an odd +-d_i. V_i = 0 mod q needs |V_i| >= q. The last window (i = 0) keeps the
 * unified addition, which has no exceptional case (k' = q, for k = 0, ends at infinity there).
 * With EC_MUL_DA, window i >= 1 forms 2 A + t from A = (V_i / 2) P after four doublings:
 * A = +-t would need V_i / 2 (16 times an odd number) = +-d_i, and A + t = -A, V_i + d_i = 0
 * mod q with V_i + d_i odd and |V_i + d_i| < q: neither occurs.
 * test_ec checks k P against OpenSSL at k = j 2^(5 i) + e, q - j and the windows' boundaries. */
static void EC_FN(mul_scan)(const tabai_ec_ctx *x, EC_PT *r, const uint64_t *k, const EC_PT *p,
                            tabai_mb_scan_fn scan) {
    EC_PT tab[TABAI_EC_TAB], acc, t, pa;
    uint64_t pt[(TABAI_EC_TAB + 1) * EC_AW], ent[EC_AW], idx[4];
    uint64_t kk[EC_N], W[EC_N + 1];
    if (!EC_FN(affine_in)(x, &pa, p)) { /* public: k infinity is infinity */
        EC_FN(point_inf)(x, r);
        return;
    }
    TABAI_VERIFY_CHECK(tabai_lt_n(k, x->c->q, EC_N)); /* the argument above needs k < q */
    const uint64_t flip = 1 ^ (k[0] & 1);             /* k even: q - k, the result negated */
    {
        uint64_t bw = 0;
        for (size_t l = 0; l < EC_N; l++) bw = tabai_sbb(&kk[l], x->c->q[l], k[l], bw);
        tabai_cmov_n(kk, flip, kk, k, EC_N);
    }
    const size_t w = tabai_ec_odd_windows(x->c->qbits);
    tabai_ec_odd_prepare(W, kk, EC_N, w);
    EC_FN(aff_table_odd)(x, tab, &pa);
    if (scan) EC_FN(pack_aff)(pt, tab);
    uint64_t neg, abs;
    /* i0: the windows left below the accumulator's first value */
    size_t i0 = w - 1;
    if (x->c->qbits + 4 <= TABAI_EC_W * w) { /* public: the curve (P-256, P-521) */
        /* k' <= q < 2^(5 w - 4), so W's top window is 16 and its digit 1 for every k: the
         * accumulator after that window's doublings is 32 P = 31 P + P, both affine and so
         * co-Z, by one zaddu, in place of five doublings; then window w - 2's addition
         * (32 P = +-t would need 32 = +-d mod q, d odd in [-31, 31]) */
        EC_PT p31 = tab[TABAI_EC_TAB - 1], p1 = tab[0];
        EC_FN(fe) zr, X3, Y3, Z3;
        EC_FN(cpy)(p31.z, EC_ONE(x));
        EC_FN(cpy)(p1.z, EC_ONE(x));
        EC_FN(zaddu)(&acc, &p31, &p1, zr);
        tabai_ec_odd_digit(W, EC_N, w - 2, &neg, &abs);
        EC_FN(read_aff)(&t, tab, pt, scan, abs, ent, idx);
        EC_FN(point_cneg)(&t, neg);
        EC_FN(jmadd_inc_core)(&acc, &t, X3, Y3, Z3, NULL, NULL);
        EC_FN(cpy)(acc.x, X3);
        EC_FN(cpy)(acc.y, Y3);
        EC_FN(cpy)(acc.z, Z3);
        i0 = w - 2;
    } else {
        tabai_ec_odd_digit(W, EC_N, w - 1, &neg, &abs);
        EC_FN(read_aff)(&acc, tab, pt, scan, abs, ent, idx);
        EC_FN(point_cneg)(&acc, neg);
        EC_FN(cpy)(acc.z, EC_ONE(x));
    }
    for (size_t i = i0; i-- > 0;) {
#ifdef EC_MUL_DA
        if (i) EC_FN(jdbl4_ct)(&acc); /* i public: the window's index */
        else EC_FN(jdbl5_ct)(&acc);
#else
        EC_FN(jdbl5_ct)(&acc);
#endif
        tabai_ec_odd_digit(W, EC_N, i, &neg, &abs);
        EC_FN(read_aff)(&t, tab, pt, scan, abs, ent, idx);
        EC_FN(point_cneg)(&t, neg);
#ifdef EC_MUL_DA
        if (i) EC_FN(jdadd_inc)(&acc, &t);
#else
        if (i) EC_FN(jmadd_inc)(&acc, &t);
#endif
        else EC_FN(jmadd_masked)(x, &acc, &t, abs);
    }
    EC_FN(point_cneg)(&acc, flip);
    EC_FN(jac_to_proj)(x, r, &acc);
    tabai_wipe(tab, sizeof tab);
    if (scan) tabai_wipe(pt, sizeof pt);
    tabai_wipe(&acc, sizeof acc), tabai_wipe(&t, sizeof t);
    tabai_wipe(ent, sizeof ent), tabai_wipe(idx, sizeof idx);
    tabai_wipe(kk, sizeof kk), tabai_wipe(W, sizeof W);
    neg = abs = 0;
}
#endif
static void EC_FN(mul)(const tabai_ec_ctx *x, EC_PT *r, const uint64_t *k, const EC_PT *p) {
    EC_FN(mul_scan)(x, r, k, p, NULL);
}
#if defined(EC_IMPL7_NAME) || defined(EC_IMPL7_AVX2_NAME) || defined(EC_IMPL_AVX2_NAME)
/* the tiers from avx2 up: the table read by the AVX2 scan */
static void EC_FN(mul_avx2)(const tabai_ec_ctx *x, EC_PT *r, const uint64_t *k, const EC_PT *p) {
    EC_FN(mul_scan)(x, r, k, p, tabai_mb_scan_avx2);
}
#endif

/* k G by the generator's table (point.c's tabai_ec_mul_base_ct, inlined field operations):
 * signed windows of bw bits (a compile-time constant in each caller): 5 with the 16-entry
 * table scanned here, or 7 with the 64-entry table of tabai_ec_base_table7 scanned by the
 * vector kernel scan7 (37 mixed additions for 256 bits instead of 52, 55 for 77 at 384;
 * each entry, x || y, is 2 EC_N words, read as sd digit vectors of sl lanes:
 * tabai_mb_scan_avx512 with one vector of 8 for 4 limbs, tabai_mb_scan_avx2 with EC_N / 2
 * of 4; every entry loaded, the wanted one kept by masks), added from the lowest window up
 * to a Jacobian accumulator by the incomplete mixed addition jmadd_inc_masked (8M + 3S,
 * where Renes-Costello-Batina's complete one took 11M and two products by b).
 *
 * Why its exceptional case, acc = t, cannot occur, for 0 <= k < n (every caller: d and the
 * nonce are in [1, n - 1]): before window i the accumulator holds S_i G with
 * S_i = sum_(j < i) d_j 2^(w j) = (k mod 2^(w i)) - 2^(w i) k_(w i - 1) (Booth), so
 * |S_i| <= 2^(w i - 1); the entry is d_i 2^(w i) G with 1 <= |d_i| <= 2^(w - 1). acc = t
 * needs S_i = d_i 2^(w i) mod n with both sides different integers, so
 * 2^(w i - 1) (2^w + 1) >= n: only the top window i = W - 1 (weight 2^e, e = w (W - 1)), for
 * the four curves and w = 5, 7. There k = S_i + d 2^e with d the top digit
 * floor(k / 2^e) + k_(e - 1) in [0, 2^(b - e)] (b = the bit length of n; 2^b - n is below
 * 2^(e - 2) for all four curves), and acc = t means k = d 2^(e + 1) - m n for an integer m,
 * which 0 <= k < n limits to m = 0, 1, 2: m = 0 gives the top digit 2 d, not d; m = 1 needs
 * n < d 2^(e + 1) < 2n and gives k = (d - 2^(b - e - 1)) 2^(e + 1) + (2^b - n), whose top
 * digit is 2 d - 2^(b - e), equal to d only for d = 2^(b - e), where d 2^(e + 1) = 2^(b + 1)
 * > 2n; m = 2 needs d = 2^(b - e) and gives k = 2 (2^b - n) < 2^(e - 1), top digit 0. So
 * acc = t never occurs; acc = -t (H = 0, r != 0) gives Z = 0 and the next window's mask
 * takes the entry, and only k = 0 mod n ends at infinity. test_ec checks k G against OpenSSL at the candidate scalars of this argument
 * (k = j 2^e, j 2^(e + 1) - n, j 2^(e + 1) - 2n mod n) and the Booth boundaries. */
TABAI_INLINE void EC_FN(mul_base_w)(const tabai_ec_ctx *x, EC_PT *r, const uint64_t *k,
                                    const unsigned bw, tabai_mb_scan_fn scan7, const size_t sd,
                                    const unsigned sl) {
    (void)scan7, (void)sd, (void)sl; /* curves of an even limb count only */
    const size_t tabn = (size_t)1 << (bw - 1);
    const uint64_t *tab = bw == 7 ? tabai_ec_base_table7(x->c) : tabai_ec_base_table(x->c);
    size_t w = x->c->qbits / bw + 1;
    EC_PT acc, t;
    TABAI_VERIFY_CHECK(tabai_lt_n(k, x->c->q, EC_N)); /* the argument above needs k < n */
    memset(&acc, 0, sizeof acc);                      /* Jacobian infinity: Z = 0 */
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < w; i++) {
        uint64_t neg, abs;
        tabai_ec_booth_digit_w(k, EC_N, i, bw, &neg, &abs);
        const uint64_t *row = tab + i * tabn * 2 * EC_N;
#if EC_N % 2 == 0
        if (bw == 7) {
            _Alignas(64) uint64_t ent[2 * EC_N], idx[8];
            for (int l = 0; l < 8; l++) idx[l] = abs - 1; /* abs = 0: no entry (all ones) */
            scan7(ent, row, tabn, sd, sl, idx);
            memcpy(t.x, ent, EC_N * 8);
            memcpy(t.y, ent + EC_N, EC_N * 8);
            tabai_wipe(ent, sizeof ent), tabai_wipe(idx, sizeof idx);
        } else
#endif
        {
            memset(t.x, 0, EC_N * 8);
            memset(t.y, 0, EC_N * 8);
            for (uint64_t j = 0; j < tabn; j++) { /* masked scan of the whole row */
                uint64_t msk = tabai_mask(tabai_eq(j + 1, abs));
                const uint64_t *e = row + j * 2 * EC_N;
                _Pragma("GCC unroll 16") for (size_t l = 0; l < EC_N; l++) {
                    t.x[l] |= e[l] & msk;
                    t.y[l] |= e[EC_N + l] & msk;
                }
            }
        }
#if EC_FORM
        FE_IN(t.x, t.x);
        FE_IN(t.y, t.y);
#endif
        EC_FN(point_cneg)(&t, neg);
        /* digit 0: the sum dropped by masks */
        EC_FN(jmadd_inc_masked)(x, &acc, &t, abs);
    }
    EC_FN(jac_to_proj)(x, r, &acc);
    tabai_wipe(&acc, sizeof acc);
    tabai_wipe(&t, sizeof t);
}
static void EC_FN(mul_base)(const tabai_ec_ctx *x, EC_PT *r, const uint64_t *k) {
    EC_FN(mul_base_w)(x, r, k, TABAI_EC_W, NULL, 0, 0);
}
#ifdef EC_IMPL7_NAME
/* the tiers with AVX-512F (4-limb curves: an entry is one vector of 8 words) */
static void EC_FN(mul_base7)(const tabai_ec_ctx *x, EC_PT *r, const uint64_t *k) {
    EC_FN(mul_base_w)(x, r, k, 7, tabai_mb_scan_avx512, 1, 8);
}
#endif
#ifdef EC_IMPL7_AVX2_NAME
/* the tiers with AVX2 (an entry is EC_N / 2 vectors of 4 words) */
static void EC_FN(mul_base7_avx2)(const tabai_ec_ctx *x, EC_PT *r, const uint64_t *k) {
    EC_FN(mul_base_w)(x, r, k, 7, tabai_mb_scan_avx2, EC_N / 2, 4);
}
#endif

/* ---- verification (public data, variable time): point.c's Jacobian formulas ---- */
/* r = 2 p in Jacobian coordinates without a branch (r may alias p): for a Z = 0 input the
 * output has Z = 0; no other input is exceptional (a point of order 2 would need y = 0, and
 * the curves have prime order). */
TABAI_INLINE void EC_FN(jdbl_core)(EC_PT *r, EC_PT *pu, const EC_PT *p, const int w) {
    EC_FN(fe) s, d, s2, al, fb, g;
#ifndef FE_SQR_SUB2
    EC_FN(fe) g2;
#endif
    /* dbl-2001-b (a = -3) and dbl-2009-l (a = 0) of the Explicit-Formulas Database,
     * rearranged around S = 2 Y as OpenSSL's ecp_nistz256 doubling is (S. Gueron and
     * V. Krasnov, "Fast prime field elliptic curve cryptography with 256-bit primes", 2015):
     * fb = 4 beta = X S^2, g = 8 Y^4 = (S^2)^2 / 2 (one halving), Z3 = S Z; alpha =
     * 3 (X - Z^2)(X + Z^2), or 3 X^2 for a = 0. 4M + 4S (3M + 4S for a = 0) with ten
     * additions and a halving, where the database's 3M + 5S (2M + 5S) take fourteen
     * additions: a square traded for a product and four additions, faster here. The sums
     * and differences that are only factors or a subtrahend are lazy (F_ADDL, F_SUBL:
     * P-521's skip their carry). With w (a constant; pu NULL), p's and r's Y are held
     * doubled, W = 2 Y: W is S, and W3 = 2 Y3 = alpha (2 (fb - X3)) - (S^2)^2, so that the
     * doubling neither makes S nor halves (S^2)^2 and doubles fb - X3 instead. */
    const uint64_t *sy = p->y; /* S */
    if (!w) F_ADDL(s, p->y, p->y), sy = s;
#if !EC_AZERO
    F_SQR(d, p->z);
    F_SQR(s2, sy);
#ifdef EC_DBL_Z_SQR
    { /* S^2 and Z^2 are at hand: 3M + 5S */
        EC_FN(fe) zt;
        F_ADDL(zt, sy, p->z);
        F_SQR(zt, zt);
        F_SUB(zt, zt, s2);
        F_SUB(zt, zt, d);
        F_HALF(r->z, zt);
    }
#elif defined(EC_DBL_Z3_EARLY)
    F_MUL(r->z, sy, p->z);
#endif
    F_SUBL(al, p->x, d);
    F_ADDL(d, p->x, d);
    F_MUL(fb, s2, p->x);
    F_MUL(al, al, d);
#else
    F_SQR(al, p->x);
    F_SQR(s2, sy);
#ifdef EC_DBL_Z3_EARLY
    F_MUL(r->z, sy, p->z);
#endif
    F_MUL(fb, s2, p->x);
#endif
    F_SQR(g, s2);
#ifdef FE_TRIPLE
    FE_TRIPLE(al, al);
#else
    F_ADDL(d, al, al);
    F_ADDL(al, d, al); /* 3 alpha: a lazy sum of three */
#endif
    if (!w) F_HALF(g, g);
    if (pu) { /* p with Z3 = S Z: (X S^2, Y S^3) = (fb, g) */
        EC_FN(cpy)(pu->x, fb);
        EC_FN(cpy)(pu->y, g);
    }
    /* X3 = alpha^2 - 2 fb, Y3 = alpha (fb - X3) - g */
#ifdef FE_SQR_SUB2
    FE_SQR_SUB2(r->x, al, fb);
#else
    F_SQR(g2, al);     /* not into s: S is Z3's factor below */
    F_ADDL(d, fb, fb);
    F_SUB(r->x, g2, d);
#endif
#ifdef FE_SUB2X
    if (w) FE_SUB2X(fb, fb, r->x); /* 2 (fb - X3) */
#else
    if (w) F_SUB(fb, fb, r->x), F_ADDL(fb, fb, fb); /* 2 (fb - X3) */
#endif
    else F_SUBL(fb, fb, r->x);
#if !defined(EC_DBL_Z_SQR) && !defined(EC_DBL_Z3_EARLY)
    /* Z3 here, beside the last product, where it overlaps the chain of X3 and Y3 (placed
     * before alpha it was slower: src/ec/README.md); r may alias p, whose Z is read above */
    F_MUL(r->z, sy, p->z);
#endif
#ifdef FE_MUL_SUB
    FE_MUL_SUB(r->y, al, fb, g);
#else
    F_MUL(fb, al, fb);
#ifdef FE_ADD_LAZY
    /* W3 is only a factor of the next doubling (S^2, S Z), and jdbl5_ct passes its
     * carries before halving it: a lazy difference */
    if (w) F_SUBL(r->y, fb, g);
    else F_SUB(r->y, fb, g);
#else
    F_SUB(r->y, fb, g);
#endif
#endif
    if (pu) EC_FN(cpy)(pu->z, r->z);
}
static inline void EC_FN(jdbl_ct)(EC_PT *r, const EC_PT *p) { EC_FN(jdbl_core)(r, NULL, p, 0); }
#ifdef EC_DBL_W
/* r = 2 r with r's Y held doubled, W = 2 Y in and W3 = 2 Y3 out (jdbl5_ct's windows: one
 * sum before five doublings and one halving after them), constant time */
static inline void EC_FN(jdbl_w_ct)(EC_PT *r) { EC_FN(jdbl_core)(r, NULL, r, 1); }
#endif
/* r = 2 p and pu = p with r's Z (co-Z, DBLU: the doubling's own fb and g), for a finite p,
 * public (the tables); pu must not alias r or p */
static void EC_FN(jdblu)(EC_PT *r, EC_PT *pu, const EC_PT *p) { EC_FN(jdbl_core)(r, pu, p, 0); }

static void EC_FN(jdbl)(EC_PT *r, const EC_PT *p) {
    if (FE_IS_ZERO(p->z)) { /* public: verification only */
        *r = *p;
        return;
    }
    EC_FN(jdbl_ct)(r, p);
}

/* r = p + q (add-2007-bl; madd-2007-bl when q_affine, its Z ignored). With zg (q_affine
 * only), p is on the isomorphic curve of the scaled coordinates (X : Y : Z zg) of the
 * effective-affine table (mul2_vartime) and q affine on the curve itself: the product uses
 * Z zg for Z. With zr (q_affine only, finite non-equal inputs), *zr = Z3 / Z1 = 2 H. */
static void EC_FN(jadd)(const tabai_ec_ctx *x, EC_PT *r, const EC_PT *p, const EC_PT *q,
                        int q_affine, const uint64_t *zg, uint64_t *zr) {
    if (FE_IS_ZERO(p->z)) {
        *r = *q;
        if (q_affine) EC_FN(cpy)(r->z, EC_ONE(x));
        if (zg) { /* q in the scaled coordinates: (x zg^2, y zg^3, 1) */
            EC_FN(fe) z2;
            F_SQR(z2, zg);
            F_MUL(r->x, q->x, z2);
            F_MUL(z2, z2, zg);
            F_MUL(r->y, q->y, z2);
        }
        return;
    }
    if (!q_affine && FE_IS_ZERO(q->z)) {
        *r = *p;
        return;
    }
    /* add-2007-bl (madd-2007-bl for an affine q) with the independent products side by
     * side (the order of curve_impl.h's other formulas, for the out-of-order window) */
    EC_FN(fe) z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t, az, r2;
    const uint64_t *pz = p->z;
    if (zg) { /* q in the scaled coordinates (affine there) */
        F_MUL(az, p->z, zg);
        pz = az;
    }
    if (q_affine) {
        F_SQR(z1z1, pz);
        F_MUL(s2, q->y, pz);
        F_MUL(u2, q->x, z1z1);
        F_MUL(s2, s2, z1z1);
        EC_FN(cpy)(u1, p->x);
        EC_FN(cpy)(s1, p->y);
    } else {
        F_SQR(z1z1, pz);
        F_SQR(z2z2, q->z);
        F_MUL(s2, q->y, pz);
        F_MUL(s1, p->y, q->z);
        F_MUL(u2, q->x, z1z1);
        F_MUL(u1, p->x, z2z2);
        F_MUL(s2, s2, z1z1);
        F_MUL(s1, s1, z2z2);
    }
    F_SUB(h, u2, u1);
    F_SUB(rr, s2, s1);
    if (FE_IS_ZERO(h)) {
        if (FE_IS_ZERO(rr)) {
            EC_FN(jdbl)(r, p);
        } else {
            memset(r, 0, sizeof *r);
            EC_FN(cpy)(r->y, EC_ONE(x));
        }
        return;
    }
    F_ADD(rr, rr, rr);
    F_ADD(i, h, h);
    if (q_affine) {
        if (zr) EC_FN(cpy)(zr, i);
        F_MUL(r->z, p->z, i);
        F_SQR(i, i);
        F_SQR(r2, rr);
    } else {
        F_ADD(t, p->z, q->z);
        F_SQR(i, i);
        F_SQR(r2, rr);
        F_SQR(t, t);
        F_SUB(t, t, z1z1);
        F_SUB(t, t, z2z2);
        F_MUL(r->z, t, h);
    }
    F_MUL(j, h, i);
    F_MUL(v, u1, i);
    F_SUB(t, r2, j);
    F_SUB(t, t, v);
    F_SUB(r->x, t, v);
    F_MUL(s1, s1, j);
    F_SUB(t, v, r->x);
    F_MUL(t, rr, t);
    F_ADD(s1, s1, s1);
    F_SUB(r->y, t, s1);
}

/* r = u1 G + u2 P, Jacobian, variable time (point.c's tabai_ec_mul2_vartime: u2 by a
 * width-5 NAF over P's odd multiples, u1 by a width-TABAI_EC_VW NAF over the generator's
 * affine table,
 * both split by the endomorphism where the curve has it). */
static void EC_FN(mul2_vartime)(const tabai_ec_ctx *x, EC_PT *r, const uint64_t *u1,
                                const uint64_t *u2, const EC_PT *p) {
    const uint64_t *vt = tabai_ec_verify_table(x->c);
    EC_PT acc, t, odd[8], p2;
#if EC_AZERO
    EC_FN(jdbl)(&p2, p); /* finite: P is a validated point of the prime-order group */
    /* Effective affine (libsecp256k1's ecmult odd-multiples table): on y^2 = x^3 + b',
     * a = 0, the coordinates scaled by Z(2P) make 2P affine, so the odd multiples come from
     * mixed additions; the ratios Z_j / Z_(j-1) = 2 H bring them all to the last one's Z,
     * and under that second scaling the table is affine: every addition of the main loop
     * is a mixed one. The doubling formula does not read b, so the loop runs on the scaled
     * curve; the generator's entries (affine on the curve itself) are added with Z zg,
     * zg = Z(2P) Z_7, and the result's Z times zg is the point on the curve. */
    EC_FN(fe) zg, zr[8], rho, r2;
    F_SQR(r2, p2.z);
    F_MUL(odd[0].x, p->x, r2);
    F_MUL(r2, r2, p2.z);
    F_MUL(odd[0].y, p->y, r2);
    EC_FN(cpy)(odd[0].z, EC_ONE(x));
    for (int j = 1; j < 8; j++) EC_FN(jadd)(x, &odd[j], &odd[j - 1], &p2, 1, NULL, zr[j]);
    F_MUL(zg, p2.z, odd[7].z);
    EC_FN(cpy)(rho, zr[7]);
    for (int j = 6; j >= 0; j--) { /* rho = Z_7 / Z_j */
        F_SQR(r2, rho);
        F_MUL(odd[j].x, odd[j].x, r2);
        F_MUL(r2, r2, rho);
        F_MUL(odd[j].y, odd[j].y, r2);
        if (j) F_MUL(rho, rho, zr[j]);
    }
    const int q_aff = 1;
    const uint64_t *gz = zg;
#else
    /* the odd multiples by co-Z additions of 2 p (aff_table's way: jdblu leaves p with
     * 2 p's Z, each zaddu 2 p with the sum's) and made affine by one inversion
     * (affine_coz), so that every addition of the main loop is a mixed one (7M + 4S for
     * 11M + 5S) */
    const int q_aff = !FE_IS_ZERO(p->z); /* public; infinity keeps the Jacobian additions */
    if (q_aff) {
        EC_FN(jdblu)(&p2, &odd[0], p);
        EC_FN(coz_chain_affine)(x, odd, 8, &p2, NULL);
    } else {
        for (int j = 0; j < 8; j++) odd[j] = *p;
    }
    const uint64_t *gz = NULL;
#endif
    int16_t naf[4][EC_N * 64 + 2];
    size_t len[4] = {0, 0, 0, 0}, top = 0;
    uint64_t sg[4] = {0, 0, 0, 0};
#if EC_GLV
    EC_PT odd2[8];
    {
        uint64_t k1[4], k2[4];
        tabai_ec_glv_split(x, u2, k1, k2, &sg[0], &sg[1]);
        len[0] = tabai_ec_wnaf_vartime(naf[0], k1, EC_N, 5);
        len[1] = tabai_ec_wnaf_vartime(naf[1], k2, EC_N, 5);
        tabai_ec_glv_split(x, u1, k1, k2, &sg[2], &sg[3]);
        len[2] = tabai_ec_wnaf_vartime(naf[2], k1, EC_N, TABAI_EC_VW);
        len[3] = tabai_ec_wnaf_vartime(naf[3], k2, EC_N, TABAI_EC_VW);
        for (int j = 0; j < 8; j++) {
            odd2[j] = odd[j];
            F_MUL(odd2[j].x, odd[j].x, x->c->beta_m);
        }
    }
#else
    len[0] = tabai_ec_wnaf_vartime(naf[0], u2, EC_N, 5);
    len[2] = tabai_ec_wnaf_vartime(naf[2], u1, EC_N, TABAI_EC_VW);
#endif
    for (int s = 0; s < 4; s++) top = len[s] > top ? len[s] : top;
    EC_FN(point_inf)(x, &acc);
    for (size_t i = top; i-- > 0;) {
        EC_FN(jdbl)(&acc, &acc);
        for (int s = 0; s < 4; s++) {
            int d = i < len[s] ? naf[s][i] : 0;
            if (!d) continue;
            size_t j = (size_t)(d > 0 ? d : -d) / 2;
            if (s < 2) {
#if EC_GLV
                t = s ? odd2[j] : odd[j];
#else
                t = odd[j];
#endif
            } else {
                const uint64_t *e = vt + ((size_t)(s - 2) * TABAI_EC_VT + j) * 2 * EC_N;
#if EC_FORM
                FE_IN(t.x, e);
                FE_IN(t.y, e + EC_N);
#else
                EC_FN(cpy)(t.x, e);
                EC_FN(cpy)(t.y, e + EC_N);
#endif
            }
            if ((d < 0) ^ (int)sg[s]) EC_FN(point_cneg)(&t, 1);
            if (s < 2) EC_FN(jadd)(x, &acc, &acc, &t, q_aff, NULL, NULL);
            else EC_FN(jadd)(x, &acc, &acc, &t, 1, gz, NULL);
        }
    }
#if EC_AZERO
    F_MUL(acc.z, acc.z, zg); /* back to the curve's coordinates (Z = 0 stays 0) */
#endif
    *r = acc;
}

static void EC_FN(fe_mul)(uint64_t *r, const uint64_t *a, const uint64_t *b) { F_MUL(r, a, b); }
static void EC_FN(fe_sqr)(uint64_t *r, const uint64_t *a) { F_SQR(r, a); }
static void EC_FN(fe_add)(uint64_t *r, const uint64_t *a, const uint64_t *b) { F_ADD(r, a, b); }
static void EC_FN(fe_sub)(uint64_t *r, const uint64_t *a, const uint64_t *b) { F_SUB(r, a, b); }
/* r = a^e for a public, nonzero e of ebits bits (the square roots' (p + 1) / 4), by e's runs
 * of ones: a run of L ones is acc^(2^L) a^(2^L - 1), and a^(2^k - 1) comes from the chain of
 * the top run's length (a^(2^(2k) - 1) = (a^(2^k - 1))^(2^k) a^(2^k - 1), a^(2^(k + 1) - 1) =
 * (a^(2^k - 1))^2 a), whose links are kept and cover the other runs greedily. The exponents
 * of the four curves take their bit length less one squarings and 0 (P-521), 7 (P-256) or 17
 * (P-384, secp256k1) products, where 4-bit windows took 14 for their table and up to 80
 * more. e is public, and so are the branches on its bits; constant time in a. */
static size_t EC_FN(pow_run)(const uint64_t *e, size_t top, int bit) {
    size_t n = 0; /* the bits equal to `bit` from position top down */
    while (n <= top && (int)((e[(top - n) / 64] >> ((top - n) % 64)) & 1) == bit) n++;
    return n;
}
static void EC_FN(fe_pow)(uint64_t *r, const uint64_t *a, const uint64_t *e, size_t ebits) {
    enum { LINKS = 2 * 16 }; /* two links a bit of the top run's length (< 2^16 bits) */
    EC_FN(fe) xk[LINKS], acc;
    size_t klen[LINKS], nk, top = ebits - 1;
    while (top > 0 && !((e[top / 64] >> (top % 64)) & 1)) top--; /* public: e's length */
    TABAI_VERIFY_CHECK((e[top / 64] >> (top % 64)) & 1);         /* e nonzero */
    const size_t l0 = EC_FN(pow_run)(e, top, 1);
    /* the chain of l0 from its top bit: k -> 2k (k squarings and a product), -> k + 1 */
    EC_FN(cpy)(xk[0], a), klen[0] = 1, nk = 1;
    int hb = 0;
    while ((l0 >> (hb + 1)) != 0) hb++;
    for (int b = hb - 1; b >= 0; b--) {
        const size_t k = klen[nk - 1];
        EC_FN(cpy)(xk[nk], xk[nk - 1]);
        for (size_t j = 0; j < k; j++) F_SQR(xk[nk], xk[nk]);
        F_MUL(xk[nk], xk[nk], xk[nk - 1]), klen[nk] = 2 * k, nk++;
        if ((l0 >> b) & 1) {
            F_SQR(xk[nk], xk[nk - 1]);
            F_MUL(xk[nk], xk[nk], a), klen[nk] = 2 * k + 1, nk++;
        }
    }
    EC_FN(cpy)(acc, xk[nk - 1]); /* a^(2^l0 - 1) */
    size_t pos = top + 1 - l0;   /* the bits below the run: pos of them left */
    while (pos > 0) {
        const size_t z = EC_FN(pow_run)(e, pos - 1, 0);
        for (size_t j = 0; j < z; j++) F_SQR(acc, acc);
        pos -= z;
        if (!pos) break;
        size_t l = EC_FN(pow_run)(e, pos - 1, 1);
        pos -= l;
        while (l > 0) { /* the longest kept link that fits, down to a itself */
            size_t i = nk - 1;
            while (klen[i] > l) i--;
            for (size_t j = 0; j < klen[i]; j++) F_SQR(acc, acc);
            F_MUL(acc, acc, xk[i]);
            l -= klen[i];
        }
    }
    EC_FN(cpy)(r, acc);
    tabai_wipe(xk, sizeof xk);
    tabai_wipe(acc, sizeof acc);
}
static void EC_FN(jmadd)(const tabai_ec_ctx *x, EC_PT *r, const EC_PT *p, const EC_PT *q) {
    *r = *p;
    EC_FN(jmadd_masked)(x, r, q, 1);
}

#if EC_FORM
/* The instance functions on the context's form: the points and elements converted on the
 * way in and out (the scalar multiplications' own scratch is wiped by them). */
static void EC_FN(pt_in)(EC_PT *r, const tabai_ec_point *p) {
    FE_IN(r->x, p->x);
    FE_IN(r->y, p->y);
    FE_IN(r->z, p->z);
}
static void EC_FN(pt_out)(tabai_ec_point *r, const EC_PT *p) {
    FE_OUT(r->x, p->x);
    FE_OUT(r->y, p->y);
    FE_OUT(r->z, p->z);
}
static void EC_FN(api_point_add)(const tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p,
                                 const tabai_ec_point *q) {
    EC_PT a, b;
    EC_FN(pt_in)(&a, p);
    EC_FN(pt_in)(&b, q);
    EC_FN(point_add)(x, &a, &a, &b);
    EC_FN(pt_out)(r, &a);
}
static void EC_FN(api_point_dbl)(const tabai_ec_ctx *x, tabai_ec_point *r,
                                 const tabai_ec_point *p) {
    EC_PT a;
    EC_FN(pt_in)(&a, p);
    EC_FN(point_dbl)(x, &a, &a);
    EC_FN(pt_out)(r, &a);
}
typedef void (*EC_FN(mul_fn))(const tabai_ec_ctx *, EC_PT *, const uint64_t *, const EC_PT *);
static void EC_FN(api_mul_by)(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k,
                              const tabai_ec_point *p, EC_FN(mul_fn) mul) {
    EC_PT a;
    EC_FN(pt_in)(&a, p);
    mul(x, &a, k, &a);
    EC_FN(pt_out)(r, &a);
    tabai_wipe(&a, sizeof a);
}
static void EC_FN(api_mul)(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k,
                           const tabai_ec_point *p) {
    EC_FN(api_mul_by)(x, r, k, p, EC_FN(mul));
}
#if defined(EC_IMPL_AVX2_NAME) || defined(EC_IMPL7_AVX2_NAME)
static void EC_FN(api_mul_avx2)(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k,
                                const tabai_ec_point *p) {
    EC_FN(api_mul_by)(x, r, k, p, EC_FN(mul_avx2));
}
#endif
typedef void (*EC_FN(mul_base_fn))(const tabai_ec_ctx *, EC_PT *, const uint64_t *);
static void EC_FN(api_mul_base_by)(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k,
                                   EC_FN(mul_base_fn) mul_base) {
    EC_PT a;
    mul_base(x, &a, k);
    EC_FN(pt_out)(r, &a);
    tabai_wipe(&a, sizeof a);
}
static void EC_FN(api_mul_base)(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k) {
    EC_FN(api_mul_base_by)(x, r, k, EC_FN(mul_base));
}
#ifdef EC_IMPL7_NAME
static void EC_FN(api_mul_base7)(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k) {
    EC_FN(api_mul_base_by)(x, r, k, EC_FN(mul_base7));
}
#endif
#ifdef EC_IMPL7_AVX2_NAME
static void EC_FN(api_mul_base7_avx2)(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k) {
    EC_FN(api_mul_base_by)(x, r, k, EC_FN(mul_base7_avx2));
}
#endif
static void EC_FN(api_mul2_vartime)(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *u1,
                                    const uint64_t *u2, const tabai_ec_point *p) {
    EC_PT a;
    EC_FN(pt_in)(&a, p);
    EC_FN(mul2_vartime)(x, &a, u1, u2, &a);
    EC_FN(pt_out)(r, &a);
}
#define EC_BINARY(op)                                                                              \
    static void EC_FN(api_fe_##op)(uint64_t * r, const uint64_t *a, const uint64_t *b) {           \
        EC_FN(fe) u, v;                                                                            \
        FE_IN(u, a);                                                                               \
        FE_IN(v, b);                                                                               \
        EC_FN(fe_##op)(u, u, v);                                                                   \
        FE_OUT(r, u);                                                                              \
    }
EC_BINARY(mul)
EC_BINARY(add)
EC_BINARY(sub)
#undef EC_BINARY
static void EC_FN(api_fe_sqr)(uint64_t *r, const uint64_t *a) {
    EC_FN(fe) u;
    FE_IN(u, a);
    EC_FN(fe_sqr)(u, u);
    FE_OUT(r, u);
}
static void EC_FN(api_fe_pow)(uint64_t *r, const uint64_t *a, const uint64_t *e, size_t ebits) {
    EC_FN(fe) u;
    FE_IN(u, a);
    EC_FN(fe_pow)(u, u, e, ebits);
    FE_OUT(r, u);
}
static void EC_FN(api_jmadd)(const tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p,
                             const tabai_ec_point *q) {
    EC_PT a, b;
    EC_FN(pt_in)(&a, p);
    EC_FN(pt_in)(&b, q);
    EC_FN(jmadd)(x, &a, &a, &b);
    EC_FN(pt_out)(r, &a);
}
#define EC_API(name) EC_FN(api_##name)
#else
#define EC_API(name) EC_FN(name)
#endif

const tabai_ec_impl EC_IMPL_NAME = {EC_API(point_add), EC_API(point_dbl),    EC_API(mul),
                                    EC_API(mul_base),  EC_API(mul2_vartime), EC_API(fe_mul),
                                    EC_API(fe_sqr),    EC_API(fe_add),       EC_API(fe_sub),
                                    EC_API(jmadd),     EC_API(fe_pow)};
#ifdef EC_IMPL7_NAME
const tabai_ec_impl EC_IMPL7_NAME = {EC_API(point_add), EC_API(point_dbl),    EC_API(mul_avx2),
                                     EC_API(mul_base7), EC_API(mul2_vartime), EC_API(fe_mul),
                                     EC_API(fe_sqr),    EC_API(fe_add),       EC_API(fe_sub),
                                     EC_API(jmadd),     EC_API(fe_pow)};
#endif
#ifdef EC_IMPL_AVX2_NAME
const tabai_ec_impl EC_IMPL_AVX2_NAME = {EC_API(point_add), EC_API(point_dbl),    EC_API(mul_avx2),
                                         EC_API(mul_base),  EC_API(mul2_vartime), EC_API(fe_mul),
                                         EC_API(fe_sqr),    EC_API(fe_add),       EC_API(fe_sub),
                                         EC_API(jmadd),     EC_API(fe_pow)};
#endif
#ifdef EC_IMPL7_AVX2_NAME
const tabai_ec_impl EC_IMPL7_AVX2_NAME = {
    EC_API(point_add),    EC_API(point_dbl), EC_API(mul_avx2), EC_API(mul_base7_avx2),
    EC_API(mul2_vartime), EC_API(fe_mul),    EC_API(fe_sqr),   EC_API(fe_add),
    EC_API(fe_sub),       EC_API(jmadd),     EC_API(fe_pow)};
#endif

#undef F_MUL
#undef F_SQR
#undef F_ADD
#undef F_SUB
#undef F_ADDL
#undef F_SUBL
#undef EC_FORM
#undef EC_B
#undef EC_API
#undef EC_AW
#undef F_HALF
/* the instance's parameters, so that a file may hold more than one instance */
#undef EC_N
#undef EC_FE_N
#undef EC_PT
#undef EC_ONE
#undef EC_AZERO
#undef EC_GLV
#undef EC_P
#undef EC_FN
#undef FE_MUL
#undef FE_SQR
#undef FE_ADD
#undef FE_SUB
#undef FE_ADD_LAZY
#undef FE_SUB_LAZY
#undef FE_HALF
#undef EC_DBL_Z_SQR
#undef EC_MUL_DA
#undef EC_MUL_DA_INLINE
#undef FE_IN
#undef FE_OUT
#undef FE_IS_ZERO
#undef FE_MUL_SUB
#undef FE_SQR_SUB2
#undef FE_TRIPLE
#undef FE_SUB2X
#undef EC_MADD_FUSED
#undef EC_IMPL_NAME
#undef EC_IMPL7_NAME
#undef EC_IMPL7_AVX2_NAME
#undef EC_IMPL_AVX2_NAME
