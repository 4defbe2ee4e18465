/* The body of the eight-lane curve kernels (ec_r52.h), written over the names of src/vec.h
 * (VT, V_ML, V_MH, ...) plus VM, the lane-mask type. The including file defines the macro
 * set, then includes this file once per digit count with ECD (5 or 8) and FN(x) (a suffix
 * per ECD) defined, then expands EC_R52_KERNEL(symbol, "label").
 *
 * Field (every lane the same modulus; digits < 2^52, values fully reduced below m):
 * word-serial Montgomery multiplication in radix 2^52 (Bos, Montgomery, Shumow, Zaverucha,
 * "Montgomery multiplication using vector instructions", SAC 2013, Algorithm 2), the digit
 * accumulators unnormalised between rows: digit j collects at most 4 terms < 2^52 per row,
 * 4 d terms in all plus the row carries (< 2^9), below 2^58 for d <= 8; the result T < 2m
 * (a, b < m, R > m) is normalised once and m subtracted under a lane mask. Addition and
 * subtraction: one carry chain and a masked correction by m. Inversion: the affine
 * conversion's by the curve's inv_p, lane by lane (the batch layer's safegcd); qinv's by
 * Fermat, a^(m-2) by fixed 4-bit windows of the public exponent. Points: the complete
 * projective formulas of Renes, Costello, Batina (EUROCRYPT 2016), Algorithms 4 and 6
 * (a = -3), 7 and 9 (a = 0), and the mixed 5 and 8 for k G; scalar multiplication by signed
 * 5-bit Booth windows (digits in [-16, 16] computed by arithmetic, as OpenSSL's
 * ecp_nistz256), each lane's table entry chosen by a scan of every entry under lane masks;
 * on a = -3 k P's doublings run in Jacobian coordinates (jdbl, no exceptional input), the
 * accumulator converted before and after them every window; secp256k1's k P by GLV
 * (pmul_glv). Nothing branches on or indexes by a lane's value. */

#ifndef EC_R52_ONCE
#define EC_R52_ONCE 1
#define EC_M52 0xFFFFFFFFFFFFFULL
#define EC_L TABAI_EC_R52_LANES
#define EC_UNROLL _Pragma("GCC unroll 8")

/* Bit i of k[n] (0 above); i public. */
static inline uint64_t ec_kbit(const uint64_t *k, size_t n, size_t i) {
    return i / 64 < n ? (k[i / 64] >> (i % 64)) & 1 : 0;
}

/* Booth digit i (w = 5) of every lane's scalar (lane l at k + l n): sign (0/1) and absolute
 * value per lane, by shifts and adds only: b(5i-1) + b(5i) + 2 b(5i+1) + 4 b(5i+2)
 * + 8 b(5i+3) - 16 b(5i+4). */
static inline void ec_booth8(uint64_t *neg, uint64_t *abs, const uint64_t *k, size_t n,
                             size_t i) {
    size_t pos = TABAI_EC_R52_W * i;
    for (unsigned l = 0; l < EC_L; l++) {
        const uint64_t *kl = k + l * n;
        int64_t d = (int64_t)(pos ? ec_kbit(kl, n, pos - 1) : 0);
        for (int j = 0; j < TABAI_EC_R52_W - 1; j++)
            d += (int64_t)(ec_kbit(kl, n, pos + (size_t)j) << j);
        d -= (int64_t)(ec_kbit(kl, n, pos + TABAI_EC_R52_W - 1) << (TABAI_EC_R52_W - 1));
        uint64_t s = (uint64_t)(d >> 63);
        neg[l] = s & 1;
        abs[l] = ((uint64_t)d ^ s) - s;
    }
}
#endif /* EC_R52_ONCE */

#define D ECD

/* A modulus broadcast to every lane. */
typedef struct FN(ecmod) {
    VT m[D], one[D], rr[D], k0;
    const uint64_t *e;
    size_t ebits;
} FN(ecmod);

typedef struct FN(ecpt) {
    VT x[D], y[D], z[D];
} FN(ecpt);

typedef struct FN(eccv) {
    FN(ecmod) p;
    VT b[D], b3[D];
    int a_zero;
    size_t n, qbits;
    const uint64_t *gtab;
    void (*inv_p)(const void *ctx, uint64_t *r, const uint64_t *a);
    int glv;
    void (*glv_split)(const void *ctx, const uint64_t *k, uint64_t *k1, uint64_t *k2,
                      uint64_t *neg1, uint64_t *neg2);
    VT beta[D];
    const void *ctx;
} FN(eccv);

static void FN(mod_load)(FN(ecmod) *v, const tabai_ec_r52_mod *m) {
    for (int j = 0; j < D; j++) {
        v->m[j] = V_SET1(m->m[j]);
        v->one[j] = V_SET1(m->one[j]);
        v->rr[j] = V_SET1(m->rr[j]);
    }
    v->k0 = V_SET1(m->k0);
    v->e = m->e;
    v->ebits = m->ebits;
}

static void FN(cv_load)(FN(eccv) *v, const tabai_ec_r52_curve *c) {
    FN(mod_load)(&v->p, &c->p);
    for (int j = 0; j < D; j++) {
        v->b[j] = V_SET1(c->b[j]);
        v->b3[j] = V_SET1(c->b3[j]);
    }
    v->a_zero = c->a_zero;
    v->n = c->n;
    v->qbits = c->qbits;
    v->gtab = c->gtab;
    v->inv_p = c->inv_p;
    v->glv = c->glv;
    v->glv_split = c->glv_split;
    for (int j = 0; j < D; j++) v->beta[j] = V_SET1(c->beta[j]);
    v->ctx = c->ctx;
}

/* r = t mod m for unnormalised digits t[0..D) of a value < 2 m: normalise, then subtract m
 * where no borrow comes out (lane mask). */
static inline void FN(norm_sub)(VT *r, const VT *t, const FN(ecmod) *M) {
    const VT m52 = V_SET1(EC_M52);
    VT x[D], y[D], c = V_ZERO(), bw = V_ZERO();
    EC_UNROLL
    for (int j = 0; j < D; j++) {
        VT s = V_ADD(t[j], c);
        x[j] = V_AND(s, m52);
        c = V_SRL(s, 52);
    }
    EC_UNROLL
    for (int j = 0; j < D; j++) {
        VT e = V_ADD(V_SUB(x[j], M->m[j]), bw);
        y[j] = V_AND(e, m52);
        bw = V_SRA(e, 52);
    }
    VM lt = V_LTZ_MASK(bw); /* x < m: keep x */
    EC_UNROLL
    for (int j = 0; j < D; j++) r[j] = V_BLEND(lt, y[j], x[j]);
}

/* r = a b R^-1 mod m (a, b < m). r may alias a and/or b. */
static inline void FN(mul)(VT *r, const VT *a, const VT *b, const FN(ecmod) *M) {
    const VT z = V_ZERO();
    VT t[D + 1];
    EC_UNROLL
    for (int j = 0; j <= D; j++) t[j] = z;
    EC_UNROLL
    for (int i = 0; i < D; i++) {
        VT ai = a[i];
        EC_UNROLL
        for (int j = 0; j < D; j++) {
            t[j] = V_ML(t[j], ai, b[j]);
            t[j + 1] = V_MH(t[j + 1], ai, b[j]);
        }
        VT q = V_ML(z, t[0], M->k0); /* reads t_0 mod 2^52 only */
        EC_UNROLL
        for (int j = 0; j < D; j++) {
            t[j] = V_ML(t[j], q, M->m[j]);
            t[j + 1] = V_MH(t[j + 1], q, M->m[j]);
        }
        VT c = V_SRL(t[0], 52); /* t_0 is now a multiple of 2^52 */
        EC_UNROLL
        for (int j = 0; j < D; j++) t[j] = t[j + 1];
        t[0] = V_ADD(t[0], c);
        t[D] = z;
    }
    FN(norm_sub)(r, t, M);
}

/* r = a + b mod m. */
static inline void FN(add)(VT *r, const VT *a, const VT *b, const FN(ecmod) *M) {
    VT t[D];
    EC_UNROLL
    for (int j = 0; j < D; j++) t[j] = V_ADD(a[j], b[j]);
    FN(norm_sub)(r, t, M);
}

/* r = a - b mod m: the borrow chain, then m added under the lanes that borrowed (the carry
 * out of the top digit dropped). */
static inline void FN(sub)(VT *r, const VT *a, const VT *b, const FN(ecmod) *M) {
    const VT m52 = V_SET1(EC_M52);
    VT x[D], bw = V_ZERO(), c = V_ZERO();
    EC_UNROLL
    for (int j = 0; j < D; j++) {
        VT e = V_ADD(V_SUB(a[j], b[j]), bw);
        x[j] = V_AND(e, m52);
        bw = V_SRA(e, 52);
    }
    VM neg = V_LTZ_MASK(bw);
    EC_UNROLL
    for (int j = 0; j < D; j++) {
        VT s = V_ADD(V_ADD(x[j], V_MASKZ_MOV(neg, M->m[j])), c);
        r[j] = V_AND(s, m52);
        c = V_SRL(s, 52);
    }
}

static inline void FN(copy)(VT *r, const VT *a) {
    for (int j = 0; j < D; j++) r[j] = a[j];
}

/* r = a^e (Montgomery form) for the modulus' public exponent e (M->e, M->ebits): fixed
 * 4-bit windows, the table read at the exponent's (public) digits. Constant time in a. */
static void FN(pow)(VT *r, const VT *a, const FN(ecmod) *M) {
    VT t[16][D], acc[D];
    FN(copy)(t[0], M->one);
    FN(copy)(t[1], a);
    for (int i = 2; i < 16; i++) FN(mul)(t[i], t[i - 1], a, M);
    FN(copy)(acc, M->one);
    for (size_t w = (M->ebits + 3) / 4; w-- > 0;) {
        for (int j = 0; j < 4; j++) FN(mul)(acc, acc, acc, M);
        size_t pos = 4 * w;
        unsigned dg = (unsigned)((M->e[pos / 64] >> (pos % 64)) & 15);
        if (dg) FN(mul)(acc, acc, t[dg], M); /* a digit of the public exponent */
    }
    FN(copy)(r, acc);
    tabai_wipe(t, sizeof t);
}

/* Lanes of n-limb values (lane l at x + l n) to D digits per lane. Public indices only. */
static void FN(load)(VT *r, const uint64_t *x, size_t n) {
    _Alignas(64) uint64_t buf[D][EC_L];
    for (unsigned l = 0; l < EC_L; l++) {
        const uint64_t *xl = x + l * n;
        for (int t = 0; t < D; t++) {
            size_t bit = 52 * (size_t)t, li = bit / 64, off = bit % 64;
            uint64_t v = li < n ? xl[li] >> off : 0;
            if (off > 12 && li + 1 < n) v |= xl[li + 1] << (64 - off);
            buf[t][l] = v & EC_M52;
        }
    }
    for (int t = 0; t < D; t++) r[t] = V_LD(buf[t]);
    tabai_wipe(buf, sizeof buf);
}

/* D normalised digits per lane to n-limb lanes (the value must fit n limbs). */
static void FN(store)(uint64_t *x, const VT *a, size_t n) {
    _Alignas(64) uint64_t buf[D][EC_L];
    for (int t = 0; t < D; t++) V_ST(buf[t], a[t]);
    for (unsigned l = 0; l < EC_L; l++) {
        for (size_t i = 0; i < n; i++) {
            size_t bit = 64 * i, t = bit / 52, off = bit % 52;
            uint64_t v = t < (size_t)D ? buf[t][l] >> off : 0;
            if (t + 1 < (size_t)D) v |= buf[t + 1][l] << (52 - off);
            if (off > 40 && t + 2 < (size_t)D) v |= buf[t + 2][l] << (104 - off);
            x[l * n + i] = v;
        }
    }
    tabai_wipe(buf, sizeof buf);
}

/* Montgomery form and back. */
static inline void FN(to_mont)(VT *r, const VT *a, const FN(ecmod) *M) {
    FN(mul)(r, a, M->rr, M);
}
static inline void FN(from_mont)(VT *r, const VT *a, const FN(ecmod) *M) {
    VT one[D];
    one[0] = V_SET1(1);
    for (int j = 1; j < D; j++) one[j] = V_ZERO();
    FN(mul)(r, a, one, M);
}

/* ---- complete formulas (Renes, Costello, Batina 2016) ---- */
#define FMUL(r, a, b) FN(mul)(r, a, b, &C->p)
#define FADD(r, a, b) FN(add)(r, a, b, &C->p)
#define FSUB(r, a, b) FN(sub)(r, a, b, &C->p)

/* Algorithms 4 (a = -3) and 7 (a = 0): R = P + Q for any P, Q (R may alias); with aff (a
 * constant at each call) Q's Z is taken as 1 and not read, Algorithms 5 and 8 (the mixed
 * additions: one product and four additions fewer, still complete for any P and an affine
 * Q; Q at infinity is the caller's to handle). */
/* clang-format off */
static inline void FN(padd_any)(const FN(eccv) *C, FN(ecpt) *R, const FN(ecpt) *P,
                                const FN(ecpt) *Q, const int aff) {
    /* clang-format on */
    VT t0[D], t1[D], t2[D], t3[D], t4[D], X3[D], Y3[D], Z3[D];
    FMUL(t0, P->x, Q->x);
    FMUL(t1, P->y, Q->y);
    if (aff) FN(copy)(t2, P->z);
    else FMUL(t2, P->z, Q->z);
    FADD(t3, P->x, P->y);
    FADD(t4, Q->x, Q->y);
    FMUL(t3, t3, t4);
    FADD(t4, t0, t1);
    FSUB(t3, t3, t4);
    if (aff) { /* Y1 + Y2 Z1 and X1 + X2 Z1 */
        FMUL(t4, Q->y, P->z);
        FADD(t4, t4, P->y);
        FMUL(Y3, Q->x, P->z);
        FADD(Y3, Y3, P->x);
    } else {
        FADD(t4, P->y, P->z);
        FADD(X3, Q->y, Q->z);
        FMUL(t4, t4, X3);
        FADD(X3, t1, t2);
        FSUB(t4, t4, X3);
        FADD(X3, P->x, P->z);
        FADD(Y3, Q->x, Q->z);
        FMUL(X3, X3, Y3);
        FADD(Y3, t0, t2);
        FSUB(Y3, X3, Y3);
    }
    if (!C->a_zero) { /* public: the curve */
        FMUL(Z3, C->b, t2);
        FSUB(X3, Y3, Z3);
        FADD(Z3, X3, X3);
        FADD(X3, X3, Z3);
        FSUB(Z3, t1, X3);
        FADD(X3, t1, X3);
        FMUL(Y3, C->b, Y3);
        FADD(t1, t2, t2);
        FADD(t2, t1, t2);
        FSUB(Y3, Y3, t2);
        FSUB(Y3, Y3, t0);
        FADD(t1, Y3, Y3);
        FADD(Y3, t1, Y3);
        FADD(t1, t0, t0);
        FADD(t0, t1, t0);
        FSUB(t0, t0, t2);
        FMUL(t1, t4, Y3);
        FMUL(t2, t0, Y3);
        FMUL(Y3, X3, Z3);
        FADD(Y3, Y3, t2);
        FMUL(X3, t3, X3);
        FSUB(X3, X3, t1);
        FMUL(Z3, t4, Z3);
        FMUL(t1, t3, t0);
        FADD(Z3, Z3, t1);
    } else {
        FADD(X3, t0, t0);
        FADD(t0, X3, t0);
        FMUL(t2, C->b3, t2);
        FADD(Z3, t1, t2);
        FSUB(t1, t1, t2);
        FMUL(Y3, C->b3, Y3);
        FMUL(X3, t4, Y3);
        FMUL(t2, t3, t1);
        FSUB(X3, t2, X3);
        FMUL(Y3, Y3, t0);
        FMUL(t1, t1, Z3);
        FADD(Y3, t1, Y3);
        FMUL(t0, t0, t3);
        FMUL(Z3, Z3, t4);
        FADD(Z3, Z3, t0);
    }
    FN(copy)(R->x, X3);
    FN(copy)(R->y, Y3);
    FN(copy)(R->z, Z3);
}
/* clang-format off */
static void FN(padd)(const FN(eccv) *C, FN(ecpt) *R, const FN(ecpt) *P, const FN(ecpt) *Q) {
    FN(padd_any)(C, R, P, Q, 0);
}
static void FN(padd_aff)(const FN(eccv) *C, FN(ecpt) *R, const FN(ecpt) *P,
                         const FN(ecpt) *Q) {
    FN(padd_any)(C, R, P, Q, 1);
}
/* clang-format on */

/* Algorithm 6 (a = -3) and 9 (a = 0): R = 2 P (R may alias P). */
static void FN(pdbl)(const FN(eccv) *C, FN(ecpt) *R, const FN(ecpt) *P) {
    VT t0[D], t1[D], t2[D], t3[D], X3[D], Y3[D], Z3[D];
    if (!C->a_zero) {
        FMUL(t0, P->x, P->x);
        FMUL(t1, P->y, P->y);
        FMUL(t2, P->z, P->z);
        FMUL(t3, P->x, P->y);
        FADD(t3, t3, t3);
        FMUL(Z3, P->x, P->z);
        FADD(Z3, Z3, Z3);
        FMUL(Y3, C->b, t2);
        FSUB(Y3, Y3, Z3);
        FADD(X3, Y3, Y3);
        FADD(Y3, X3, Y3);
        FSUB(X3, t1, Y3);
        FADD(Y3, t1, Y3);
        FMUL(Y3, X3, Y3);
        FMUL(X3, X3, t3);
        FADD(t3, t2, t2);
        FADD(t2, t2, t3);
        FMUL(Z3, C->b, Z3);
        FSUB(Z3, Z3, t2);
        FSUB(Z3, Z3, t0);
        FADD(t3, Z3, Z3);
        FADD(Z3, Z3, t3);
        FADD(t3, t0, t0);
        FADD(t0, t3, t0);
        FSUB(t0, t0, t2);
        FMUL(t0, t0, Z3);
        FADD(Y3, Y3, t0);
        FMUL(t0, P->y, P->z);
        FADD(t0, t0, t0);
        FMUL(Z3, t0, Z3);
        FSUB(X3, X3, Z3);
        FMUL(Z3, t0, t1);
        FADD(Z3, Z3, Z3);
        FADD(Z3, Z3, Z3);
    } else {
        FMUL(t0, P->y, P->y);
        FADD(Z3, t0, t0);
        FADD(Z3, Z3, Z3);
        FADD(Z3, Z3, Z3);
        FMUL(t1, P->y, P->z);
        FMUL(t2, P->z, P->z);
        FMUL(t2, C->b3, t2);
        FMUL(X3, t2, Z3);
        FADD(Y3, t0, t2);
        FMUL(Z3, t1, Z3);
        FADD(t1, t2, t2);
        FADD(t2, t1, t2);
        FSUB(t0, t0, t2);
        FMUL(Y3, t0, Y3);
        FADD(Y3, X3, Y3);
        FMUL(t1, P->x, P->y);
        FMUL(X3, t0, t1);
        FADD(X3, X3, X3);
    }
    FN(copy)(R->x, X3);
    FN(copy)(R->y, Y3);
    FN(copy)(R->z, Z3);
}

/* R = 2 P in Jacobian coordinates (x = X / Z^2, y = Y / Z^3; R may alias P) on an a = -3
 * curve: dbl-2001-b of the Explicit-Formulas Database with Z3 = 2 Y Z as a product, 8
 * products where Algorithm 6 takes 13. No exceptional input on a prime-order curve: Z = 0
 * gives Z3 = 0, and a nonzero Y stays nonzero there (Y3 = -8 Y^4 when X = 0), which jac_proj
 * needs. Constant time. */
/* clang-format off */
static void FN(jdbl)(const FN(eccv) *C, FN(ecpt) *R, const FN(ecpt) *P) {
    /* clang-format on */
    VT a[D], b[D], c[D], t[D], X3[D], Y3[D], Z3[D];
    FMUL(c, P->z, P->z); /* delta */
    FMUL(b, P->y, P->y); /* gamma */
    FSUB(t, P->x, c);
    FADD(a, P->x, c);
    FMUL(a, a, t);
    FADD(t, a, a);
    FADD(a, t, a); /* alpha = 3 (X - delta)(X + delta) */
    FMUL(c, P->x, b);
    FADD(c, c, c);
    FADD(c, c, c); /* 4 beta */
    FMUL(b, b, b);
    FADD(b, b, b);
    FADD(b, b, b);
    FADD(b, b, b); /* 8 gamma^2 */
    FMUL(Z3, P->y, P->z);
    FADD(Z3, Z3, Z3);
    FMUL(X3, a, a);
    FSUB(X3, X3, c);
    FSUB(X3, X3, c);
    FSUB(t, c, X3);
    FMUL(Y3, a, t);
    FSUB(Y3, Y3, b);
    FN(copy)(R->x, X3);
    FN(copy)(R->y, Y3);
    FN(copy)(R->z, Z3);
}

/* The lanes where the value a (fully reduced) is zero. */
static inline VM FN(is_zero)(const VT *a) {
    VM z = (VM)0xff;
    for (int j = 0; j < D; j++) z &= V_EQ_MASK(a[j], V_ZERO());
    return z;
}

/* Projective (X : Y : Z) (x = X / Z, y = Y / Z) to Jacobian (X Z, Y Z^2, Z), in place; the
 * point at infinity (Z = 0) as (0, 1, 0), which jdbl keeps at infinity with Y nonzero. 3M. */
/* clang-format off */
static void FN(proj_jac)(const FN(eccv) *C, FN(ecpt) *R) {
    /* clang-format on */
    VT t[D];
    const VM inf = FN(is_zero)(R->z);
    FMUL(t, R->z, R->z);
    FMUL(R->y, R->y, t);
    FMUL(R->x, R->x, R->z);
    for (int j = 0; j < D; j++) R->y[j] = V_MASK_MOV(R->y[j], inf, C->p.one[j]);
}

/* Jacobian (X, Y, Z) to projective (X Z : Y : Z^3), in place; infinity (Z = 0, Y nonzero) to
 * (0 : Y : 0), the complete formulas' infinity. 3M. */
/* clang-format off */
static void FN(jac_proj)(const FN(eccv) *C, FN(ecpt) *R) {
    /* clang-format on */
    VT t[D];
    FMUL(R->x, R->x, R->z);
    FMUL(t, R->z, R->z);
    FMUL(R->z, t, R->z);
}

static void FN(pinf)(const FN(eccv) *C, FN(ecpt) *R) {
    for (int j = 0; j < D; j++) R->x[j] = R->z[j] = V_ZERO();
    FN(copy)(R->y, C->p.one);
}

/* y = -y in the lanes of neg. */
static inline void FN(pcneg)(const FN(eccv) *C, FN(ecpt) *R, VM neg) {
    VT z[D], ny[D];
    for (int j = 0; j < D; j++) z[j] = V_ZERO();
    FSUB(ny, z, R->y);
    for (int j = 0; j < D; j++) R->y[j] = V_MASK_MOV(R->y[j], neg, ny[j]);
}

/* R = tab[idx - 1] per lane (idx 1..16), infinity for idx 0: every entry read. */
static void FN(scan)(const FN(eccv) *C, FN(ecpt) *R, const FN(ecpt) *tab, VT idx) {
    FN(pinf)(C, R);
    for (uint64_t j = 0; j < TABAI_EC_R52_TAB; j++) {
        VM m = V_EQ_MASK(idx, V_SET1(j + 1));
        for (int t = 0; t < D; t++) {
            R->x[t] = V_MASK_MOV(R->x[t], m, tab[j].x[t]);
            R->y[t] = V_MASK_MOV(R->y[t], m, tab[j].y[t]);
            R->z[t] = V_MASK_MOV(R->z[t], m, tab[j].z[t]);
        }
    }
}

static inline void FN(digit)(VM *neg, VT *abs, const uint64_t *k, size_t n, size_t i) {
    _Alignas(64) uint64_t ng[EC_L], ab[EC_L];
    ec_booth8(ng, ab, k, n, i);
    *neg = V_EQ_MASK(V_LD(ng), V_SET1(1));
    *abs = V_LD(ab);
    tabai_wipe(ng, sizeof ng);
    tabai_wipe(ab, sizeof ab);
}

/* R = k P per lane (k: lanes of n limbs, k < 2^qbits), P..16P in a per-lane table. */
static void FN(pmul)(const FN(eccv) *C, FN(ecpt) *R, const uint64_t *k, const FN(ecpt) *P) {
    FN(ecpt) tab[TABAI_EC_R52_TAB], acc, t;
    tab[0] = *P;
    FN(pdbl)(C, &tab[1], P);
    for (int j = 2; j < TABAI_EC_R52_TAB; j++) FN(padd)(C, &tab[j], &tab[j - 1], P);
    size_t w = C->qbits / TABAI_EC_R52_W + 1;
    VM neg;
    VT abs;
    FN(digit)(&neg, &abs, k, C->n, w - 1);
    FN(scan)(C, &acc, tab, abs);
    FN(pcneg)(C, &acc, neg);
    for (size_t i = w - 1; i-- > 0;) {
        if (C->a_zero) { /* public: the curve; Algorithm 9 (9M) was level with jdbl there */
            for (int j = 0; j < TABAI_EC_R52_W; j++) FN(pdbl)(C, &acc, &acc);
        } else { /* the doublings in Jacobian coordinates, 8M each for Algorithm 6's 13 */
            FN(proj_jac)(C, &acc);
            for (int j = 0; j < TABAI_EC_R52_W; j++) FN(jdbl)(C, &acc, &acc);
            FN(jac_proj)(C, &acc);
        }
        FN(digit)(&neg, &abs, k, C->n, i);
        FN(scan)(C, &t, tab, abs);
        FN(pcneg)(C, &t, neg);
        FN(padd)(C, &acc, &acc, &t);
    }
    *R = acc;
    tabai_wipe(tab, sizeof tab);
    tabai_wipe(&acc, sizeof acc);
    tabai_wipe(&t, sizeof t);
}

/* R = k P per lane on a curve with GLV (C->glv): k = k1 + k2 lambda (the batch layer's
 * split, lane by lane, each half below 2^129 with a sign), k1 P + k2 lambda P by the two
 * halves' Booth windows side by side over P..16P and its image (beta x, y), each entry's
 * sign the digit's xor the half's, by masks: 26 windows of five doublings and two additions
 * where pmul takes 52 of five and one (Gallant, Lambert, Vanstone, CRYPTO 2001; point.c's
 * mul_glv_ct). Constant time in k. */
/* clang-format off */
static void FN(pmul_glv)(const FN(eccv) *C, FN(ecpt) *R, const uint64_t *k,
                         const FN(ecpt) *P) {
    /* clang-format on */
    FN(ecpt) tab[TABAI_EC_R52_TAB], tab2[TABAI_EC_R52_TAB], acc, t;
    uint64_t k1[EC_L * TABAI_EC_R52_MAXD], k2[EC_L * TABAI_EC_R52_MAXD];
    _Alignas(64) uint64_t s1[EC_L], s2[EC_L];
    const size_t n = C->n;
    for (unsigned l = 0; l < EC_L; l++)
        C->glv_split(C->ctx, k + l * n, k1 + l * n, k2 + l * n, &s1[l], &s2[l]);
    const VM m1 = V_EQ_MASK(V_LD(s1), V_SET1(1)), m2 = V_EQ_MASK(V_LD(s2), V_SET1(1));
    tab[0] = *P;
    FN(pdbl)(C, &tab[1], P);
    for (int j = 2; j < TABAI_EC_R52_TAB; j++) FN(padd)(C, &tab[j], &tab[j - 1], P);
    for (int j = 0; j < TABAI_EC_R52_TAB; j++) {
        tab2[j] = tab[j];
        FMUL(tab2[j].x, tab[j].x, C->beta);
    }
    const size_t w = TABAI_EC_R52_GLV_BITS / TABAI_EC_R52_W + 1;
    VM neg;
    VT abs;
    FN(pinf)(C, &acc);
    for (size_t i = w; i-- > 0;) {
        if (i + 1 < w)
            for (int j = 0; j < TABAI_EC_R52_W; j++) FN(pdbl)(C, &acc, &acc);
        FN(digit)(&neg, &abs, k1, n, i);
        FN(scan)(C, &t, tab, abs);
        FN(pcneg)(C, &t, neg ^ m1);
        FN(padd)(C, &acc, &acc, &t);
        FN(digit)(&neg, &abs, k2, n, i);
        FN(scan)(C, &t, tab2, abs);
        FN(pcneg)(C, &t, neg ^ m2);
        FN(padd)(C, &acc, &acc, &t);
    }
    *R = acc;
    tabai_wipe(tab, sizeof tab);
    tabai_wipe(tab2, sizeof tab2);
    tabai_wipe(&acc, sizeof acc);
    tabai_wipe(&t, sizeof t);
    tabai_wipe(k1, sizeof k1);
    tabai_wipe(k2, sizeof k2);
    tabai_wipe(s1, sizeof s1);
    tabai_wipe(s2, sizeof s2);
}

/* R = k G per lane by the generator's affine table: one complete addition a window, each
 * lane's entry by a scan of the whole row (entries broadcast). */
static void FN(pmul_base)(const FN(eccv) *C, FN(ecpt) *R, const uint64_t *k) {
    FN(ecpt) acc, t, s;
    size_t w = C->qbits / TABAI_EC_R52_W + 1;
    FN(pinf)(C, &acc);
    for (size_t i = 0; i < w; i++) {
        VM neg;
        VT abs;
        FN(digit)(&neg, &abs, k, C->n, i);
        const uint64_t *row = C->gtab + i * TABAI_EC_R52_TAB * 2 * D;
        for (int j = 0; j < D; j++) t.x[j] = t.y[j] = V_ZERO();
        for (uint64_t j = 0; j < TABAI_EC_R52_TAB; j++) {
            VM m = V_EQ_MASK(abs, V_SET1(j + 1));
            const uint64_t *e = row + j * 2 * D;
            for (int d = 0; d < D; d++) {
                t.x[d] = V_MASK_MOV(t.x[d], m, V_SET1(e[d]));
                t.y[d] = V_MASK_MOV(t.y[d], m, V_SET1(e[D + d]));
            }
        }
        FN(pcneg)(C, &t, neg);
        FN(padd_aff)(C, &s, &acc, &t);            /* the entry is affine: the mixed addition */
        const VM zero = V_EQ_MASK(abs, V_ZERO()); /* digit 0: acc kept */
        for (int d = 0; d < D; d++) {
            acc.x[d] = V_MASK_MOV(s.x[d], zero, acc.x[d]);
            acc.y[d] = V_MASK_MOV(s.y[d], zero, acc.y[d]);
            acc.z[d] = V_MASK_MOV(s.z[d], zero, acc.z[d]);
        }
    }
    *R = acc;
    tabai_wipe(&acc, sizeof acc);
    tabai_wipe(&t, sizeof t);
    tabai_wipe(&s, sizeof s);
}

/* Affine plain coordinates of R into lanes (y may be NULL); returns the lanes at infinity
 * (Z = 0: then 0, 0). One inversion per lane: the curve's inv_p on each lane's plain Z,
 * Z^-1 then back to the Montgomery form (the safegcd of the batch layer, measured faster
 * than a Fermat power in the lanes: src/ec/README.md). */
static unsigned FN(affine)(const FN(eccv) *C, uint64_t *x, uint64_t *y, const FN(ecpt) *R) {
    VT zi[D], t[D];
    const VM inf = FN(is_zero)(R->z);
    _Alignas(64) uint64_t zl[EC_L * TABAI_EC_R52_MAXD];
    FN(from_mont)(t, R->z, &C->p);
    FN(store)(zl, t, C->n);
    for (unsigned l = 0; l < EC_L; l++) C->inv_p(C->ctx, zl + l * C->n, zl + l * C->n);
    FN(load)(zi, zl, C->n);
    FN(to_mont)(zi, zi, &C->p);
    tabai_wipe(zl, sizeof zl);
    FMUL(t, R->x, zi);
    FN(from_mont)(t, t, &C->p);
    FN(store)(x, t, C->n);
    if (y) {
        FMUL(t, R->y, zi);
        FN(from_mont)(t, t, &C->p);
        FN(store)(y, t, C->n);
    }
    tabai_wipe(zi, sizeof zi);
    tabai_wipe(t, sizeof t);
    return (unsigned)inf;
}

static void FN(pload)(const FN(eccv) *C, FN(ecpt) *P, const uint64_t *px, const uint64_t *py) {
    FN(load)(P->x, px, C->n);
    FN(load)(P->y, py, C->n);
    FN(to_mont)(P->x, P->x, &C->p);
    FN(to_mont)(P->y, P->y, &C->p);
    FN(copy)(P->z, C->p.one);
}

/* ---- the kernel entries of this digit count ---- */
static unsigned FN(k_mul)(const tabai_ec_r52_curve *c, uint64_t *x, uint64_t *y,
                          const uint64_t *k, const uint64_t *px, const uint64_t *py) {
    FN(eccv) C;
    FN(ecpt) P, R;
    FN(cv_load)(&C, c);
    FN(pload)(&C, &P, px, py);
    if (C.glv) FN(pmul_glv)(&C, &R, k, &P); /* public: the curve */
    else FN(pmul)(&C, &R, k, &P);
    unsigned inf = FN(affine)(&C, x, y, &R);
    tabai_wipe(&R, sizeof R);
    return inf;
}

static unsigned FN(k_mul_base)(const tabai_ec_r52_curve *c, uint64_t *x, uint64_t *y,
                               const uint64_t *k) {
    FN(eccv) C;
    FN(ecpt) R;
    FN(cv_load)(&C, c);
    FN(pmul_base)(&C, &R, k);
    unsigned inf = FN(affine)(&C, x, y, &R);
    tabai_wipe(&R, sizeof R);
    return inf;
}

/* u1 G + u2 P: the two constant-time multiplications and one complete addition (public
 * data; the simplest correct form, no table shared between them). */
static unsigned FN(k_mul2)(const tabai_ec_r52_curve *c, uint64_t *x, const uint64_t *u1,
                           const uint64_t *u2, const uint64_t *px, const uint64_t *py) {
    FN(eccv) C;
    FN(ecpt) P, R1, R2;
    FN(cv_load)(&C, c);
    FN(pload)(&C, &P, px, py);
    if (C.glv) FN(pmul_glv)(&C, &R2, u2, &P);
    else FN(pmul)(&C, &R2, u2, &P);
    FN(pmul_base)(&C, &R1, u1);
    FN(padd)(&C, &R1, &R1, &R2);
    return FN(affine)(&C, x, NULL, &R1);
}

static unsigned FN(k_oncurve)(const tabai_ec_r52_curve *c, const uint64_t *px,
                              const uint64_t *py) {
    FN(eccv) Cv;
    const FN(eccv) *C = &Cv;
    FN(ecpt) P;
    VT t[D], y2[D];
    FN(cv_load)(&Cv, c);
    FN(pload)(C, &P, px, py);
    FMUL(t, P.x, P.x);
    if (!C->a_zero) {
        VT three[D];
        FADD(three, C->p.one, C->p.one);
        FADD(three, three, C->p.one);
        FSUB(t, t, three);
    }
    FMUL(t, t, P.x);
    FADD(t, t, C->b);
    FMUL(y2, P.y, P.y);
    VM ok = (VM)0xff;
    for (int j = 0; j < D; j++) ok &= V_EQ_MASK(t[j], y2[j]);
    return (unsigned)ok;
}

static void FN(k_qinv)(const tabai_ec_r52_curve *c, uint64_t *r, const uint64_t *a) {
    FN(ecmod) Q;
    VT t[D];
    FN(mod_load)(&Q, &c->q);
    FN(load)(t, a, c->n);
    FN(to_mont)(t, t, &Q);
    FN(pow)(t, t, &Q);
    FN(from_mont)(t, t, &Q);
    FN(store)(r, t, c->n);
    tabai_wipe(t, sizeof t);
}

static void FN(k_qmul)(const tabai_ec_r52_curve *c, uint64_t *r, const uint64_t *a,
                       const uint64_t *b) {
    FN(ecmod) Q;
    VT x[D], y[D];
    FN(mod_load)(&Q, &c->q);
    FN(load)(x, a, c->n);
    FN(load)(y, b, c->n);
    FN(mul)(x, x, y, &Q);   /* a b R^-1 */
    FN(mul)(x, x, Q.rr, &Q); /* a b */
    FN(store)(r, x, c->n);
    tabai_wipe(x, sizeof x);
    tabai_wipe(y, sizeof y);
}

static void FN(k_fmul)(const tabai_ec_r52_curve *c, uint64_t *r, const uint64_t *a,
                       const uint64_t *b) {
    FN(ecmod) M;
    VT x[D], y[D];
    FN(mod_load)(&M, &c->p);
    for (int j = 0; j < D; j++) {
        x[j] = V_LD(a + j * EC_L);
        y[j] = V_LD(b + j * EC_L);
    }
    FN(mul)(x, x, y, &M);
    for (int j = 0; j < D; j++) V_ST(r + j * EC_L, x[j]);
}

#undef FMUL
#undef FADD
#undef FSUB
#undef D

#ifndef EC_R52_KERNEL
/* The kernel record of one instantiation (digit counts 5 and 8, suffixes _d5 and _d8). */
#define EC_R52_KERNEL(sym, label)                                                             \
    static unsigned sym##_mul(const tabai_ec_r52_curve *c, uint64_t *x, uint64_t *y,          \
                              const uint64_t *k, const uint64_t *px, const uint64_t *py) {    \
        return c->d == 5 ? k_mul_d5(c, x, y, k, px, py) : k_mul_d8(c, x, y, k, px, py);       \
    }                                                                                         \
    static unsigned sym##_mul_base(const tabai_ec_r52_curve *c, uint64_t *x, uint64_t *y,     \
                                   const uint64_t *k) {                                       \
        return c->d == 5 ? k_mul_base_d5(c, x, y, k) : k_mul_base_d8(c, x, y, k);             \
    }                                                                                         \
    static unsigned sym##_mul2(const tabai_ec_r52_curve *c, uint64_t *x, const uint64_t *u1,  \
                               const uint64_t *u2, const uint64_t *px, const uint64_t *py) {  \
        return c->d == 5 ? k_mul2_d5(c, x, u1, u2, px, py) : k_mul2_d8(c, x, u1, u2, px, py); \
    }                                                                                         \
    static unsigned sym##_oncurve(const tabai_ec_r52_curve *c, const uint64_t *px,            \
                                  const uint64_t *py) {                                       \
        return c->d == 5 ? k_oncurve_d5(c, px, py) : k_oncurve_d8(c, px, py);                 \
    }                                                                                         \
    static void sym##_qinv(const tabai_ec_r52_curve *c, uint64_t *r, const uint64_t *a) {     \
        if (c->d == 5) k_qinv_d5(c, r, a);                                                    \
        else k_qinv_d8(c, r, a);                                                              \
    }                                                                                         \
    static void sym##_qmul(const tabai_ec_r52_curve *c, uint64_t *r, const uint64_t *a,       \
                           const uint64_t *b) {                                               \
        if (c->d == 5) k_qmul_d5(c, r, a, b);                                                 \
        else k_qmul_d8(c, r, a, b);                                                           \
    }                                                                                         \
    static void sym##_fmul(const tabai_ec_r52_curve *c, uint64_t *r, const uint64_t *a,       \
                           const uint64_t *b) {                                               \
        if (c->d == 5) k_fmul_d5(c, r, a, b);                                                 \
        else k_fmul_d8(c, r, a, b);                                                           \
    }                                                                                         \
    const tabai_ec_r52_kernel sym = {label,          sym##_mul,  sym##_mul_base,             \
                                     sym##_mul2,     sym##_oncurve, sym##_qinv,              \
                                     sym##_qmul,     sym##_fmul}
#endif
