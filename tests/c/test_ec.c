/* The short-Weierstrass curves of tabai_ec.h against OpenSSL's libcrypto as the oracle
 * (EC_POINT_mul / EC_POINT_add, ECDSA_do_sign / ECDSA_do_verify), at the tier TABAI_CPU
 * selects: curve parameters, k G and k P with edge scalars (0, 1, 2, q-1, q, q+1, long),
 * P + Q with P + P, P + (-P) and infinity, points of small x, SEC1 decoding (compressed and
 * not) and its rejections, ECDH, ECDSA both ways, RFC 6979 appendix A.2.5-A.2.7, low S,
 * and every documented error with the outputs untouched. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <stdio.h>
#include <string.h>

#include "ec/bmi2/p521_mul.h" /* inline assembly: run only at tiers with BMI2 and ADX */
#include "ec/ec.h"
#include "ec/field.h"
#include "ec/p521_field.h"
#include "tabai_ec.h"
#include "testutil.h"

#define MAXB 133 /* 1 + 2 * 66 */

typedef struct {
    tabai_curve c;
    int nid;
    const EVP_MD *(*md)(void);
    tabai_hash h;
} curve_case;

static const curve_case CASES[] = {
    {TABAI_CURVE_P256, NID_X9_62_prime256v1, EVP_sha256, TABAI_HASH_SHA256},
    {TABAI_CURVE_P384, NID_secp384r1, EVP_sha384, TABAI_HASH_SHA384},
    {TABAI_CURVE_P521, NID_secp521r1, EVP_sha512, TABAI_HASH_SHA512},
    {TABAI_CURVE_SECP256K1, NID_secp256k1, EVP_sha256, TABAI_HASH_SHA256},
};

static BN_CTX *bnctx;

#define CHECK(cond, what) TU_CHECK((cond), (what), 0, TU_NOV)

static void rand_bytes(uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)tu_rand();
}

static size_t oct(const EC_GROUP *g, const EC_POINT *p, int compressed, uint8_t *out) {
    if (EC_POINT_is_at_infinity(g, p)) {
        out[0] = 0;
        return 1;
    }
    return EC_POINT_point2oct(g, p, compressed ? POINT_CONVERSION_COMPRESSED
                                               : POINT_CONVERSION_UNCOMPRESSED,
                              out, MAXB, bnctx);
}

/* out (1 + 2L) as tabai writes points: infinity as 0x00 and 2L zero bytes */
static void oct_full(const EC_GROUP *g, const EC_POINT *p, size_t L, uint8_t *out) {
    memset(out, 0, 1 + 2 * L);
    oct(g, p, 0, out);
}

static const char *cname;

/* The field and scalar products of the tier (Montgomery, or the special-form reductions on
 * plain residues) against GMP on every operand class (0, 1, p-1, p-2, R mod p, near p,
 * p/2, runs, edge limbs, uniform), in place too; and the curve's inlined field operations
 * of the tier (ctx.impl and ctx.impl_mul: mul, sqr, add, sub) on the same pairs. */
static void test_field(tabai_curve cv) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    size_t n = c->n;
    mpz_t P, A, B, Z, Ri;
    mpz_inits(P, A, B, Z, Ri, NULL);
    for (int f = 0; f < 2; f++) {
        const tabai_ec_mod *m = f ? &x.fq : &x.fp;
        int plain = !f && c->form != TABAI_EC_FORM_MONT;
        tu_to_mpz(P, m->m, n);
        mpz_set_ui(Ri, 1);
        if (!plain) {
            mpz_mul_2exp(Ri, Ri, 64 * n);
            mpz_invert(Ri, Ri, P);
        }
        size_t iters = tu_iters(4);
        for (int ca = 0; ca < TU_OP_COUNT; ca++)
            for (int cb = 0; cb < TU_OP_COUNT; cb++)
                for (size_t it = 0; it < iters; it++) {
                    uint64_t a[TABAI_EC_LIMBS] = {0}, b[TABAI_EC_LIMBS] = {0}, r[TABAI_EC_LIMBS];
                    tu_operand(a, m->m, n, ca);
                    tu_operand(b, m->m, n, cb);
                    tu_to_mpz(A, a, n), tu_to_mpz(B, b, n);
                    mpz_mul(Z, A, B), mpz_mul(Z, Z, Ri), mpz_mod(Z, Z, P);
                    m->mul(r, a, b, m->m, m->minv, n);
                    TU_CHECK(tu_eq_mpz(r, n, Z), f ? "scalar mul" : "field mul", n,
                             TU_V("a", a, n), TU_V("b", b, n));
                    memcpy(r, a, sizeof r);
                    m->mul(r, r, b, m->m, m->minv, n);
                    TU_CHECK(tu_eq_mpz(r, n, Z), "field mul in place", n, TU_V("a", a, n));
                    mpz_mul(Z, A, A), mpz_mul(Z, Z, Ri), mpz_mod(Z, Z, P);
                    m->sqr(r, a, m->m, m->minv, n);
                    TU_CHECK(tu_eq_mpz(r, n, Z), f ? "scalar sqr" : "field sqr", n,
                             TU_V("a", a, n));
                    if (f) continue;
                    /* the curve's inlined field operations at this tier (curve_impl.h): the
                     * instance's and its k P's where that is another (impl_mul) */
                    for (int w = 0; w < 2; w++) {
                        const tabai_ec_impl *im = w ? x.impl_mul : x.impl;
                        if (!im) continue;
                        mpz_mul(Z, A, B), mpz_mul(Z, Z, Ri), mpz_mod(Z, Z, P);
                        im->fe_mul(r, a, b);
                        TU_CHECK(tu_eq_mpz(r, n, Z), "inlined field mul", n, TU_V("a", a, n),
                                 TU_V("b", b, n));
                        memcpy(r, a, sizeof r);
                        im->fe_mul(r, r, r);
                        mpz_mul(Z, A, A), mpz_mul(Z, Z, Ri), mpz_mod(Z, Z, P);
                        TU_CHECK(tu_eq_mpz(r, n, Z), "inlined field mul a a in place", n,
                                 TU_V("a", a, n));
                        im->fe_sqr(r, a);
                        TU_CHECK(tu_eq_mpz(r, n, Z), "inlined field sqr", n, TU_V("a", a, n));
                        mpz_add(Z, A, B), mpz_mod(Z, Z, P);
                        im->fe_add(r, a, b);
                        TU_CHECK(tu_eq_mpz(r, n, Z), "inlined field add", n, TU_V("a", a, n),
                                 TU_V("b", b, n));
                        mpz_sub(Z, A, B), mpz_mod(Z, Z, P);
                        memcpy(r, a, sizeof r);
                        im->fe_sub(r, r, b);
                        TU_CHECK(tu_eq_mpz(r, n, Z), "inlined field sub", n, TU_V("a", a, n),
                                 TU_V("b", b, n));
                    }
                }
    }
    mpz_clears(P, A, B, Z, Ri, NULL);
}

/* P-521's radix-2^58 operations (p521_field.h) on loosely reduced limbs up to their bound
 * (limbs below 2^58 + 2^10, the top one below 2^57 + 2^4, many at it), and the products,
 * squares and differences of lazy sums (of three loosely reduced values as factors, of two
 * as a subtrahend) and lazy differences (factors), in chains (each output the next input),
 * against GMP: the value mod p and the outputs' bound; and the conversions from and to
 * words. The product and square are the portable ones and, at a tier with BMI2 and ADX,
 * those of bmi2/p521_mul.h (the bmi2 instance's), each of the latter also compared limb for
 * limb with the portable one (the same limbs, not only the same residue). */
static void p521_r58_limbs(uint64_t *l, int cls) {
    for (int i = 0; i < 9; i++) {
        const uint64_t top = i < 8 ? (UINT64_C(1) << 58) + (UINT64_C(1) << 10) - 1
                                   : (UINT64_C(1) << 57) + (UINT64_C(1) << 4) - 1;
        uint64_t r = tu_rand();
        switch (cls) {
        case 0: l[i] = top - (r & 3); break;                  /* at the bound */
        case 1: l[i] = r % (top + 1); break;                  /* anywhere below it */
        case 2: l[i] = (r & 1) ? top : 0; break;              /* bound or zero */
        default: l[i] = r & ((UINT64_C(1) << 58) - 1); break; /* reduced limbs */
        }
    }
}
static void r58_to_mpz(mpz_t z, const uint64_t *l) {
    mpz_set_ui(z, 0);
    for (int i = 8; i >= 0; i--) mpz_mul_2exp(z, z, 58), mpz_add_ui(z, z, l[i]);
}
static int r58_bounded(const uint64_t *l) {
    for (int i = 0; i < 9; i++)
        if (l[i] >= (i < 8 ? (UINT64_C(1) << 58) + (UINT64_C(1) << 10)
                           : (UINT64_C(1) << 57) + (UINT64_C(1) << 4)))
            return 0;
    return 1;
}
typedef void (*r58_mul_fn)(uint64_t *, const uint64_t *, const uint64_t *);
typedef void (*r58_sqr_fn)(uint64_t *, const uint64_t *);
static void r58_mul_c(uint64_t *r, const uint64_t *a, const uint64_t *b) { p521_r58_mul(r, a, b); }
static void r58_sqr_c(uint64_t *r, const uint64_t *a) { p521_r58_sqr(r, a); }
static void r58_mul_x(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t u[9];
    p521_r58_mul(u, a, b);
    p521_r58_mul_bmi2(r, a, b);
    TU_CHECK(memcmp(r, u, sizeof u) == 0, "r58 mulx product = portable", 9, TU_V("a", a, 9),
             TU_V("b", b, 9));
}
static void r58_sqr_x(uint64_t *r, const uint64_t *a) {
    uint64_t u[9];
    p521_r58_sqr(u, a);
    p521_r58_sqr_bmi2(r, a);
    TU_CHECK(memcmp(r, u, sizeof u) == 0, "r58 mulx square = portable", 9, TU_V("a", a, 9));
}
static void test_p521_r58_with(r58_mul_fn mul, r58_sqr_fn sqr) {
    mpz_t P, A, B, Z, R;
    mpz_inits(P, A, B, Z, R, NULL);
    mpz_ui_pow_ui(P, 2, 521), mpz_sub_ui(P, P, 1);
    uint64_t a[9], b[9], r[9], w[9], x[9], y[9];
    for (size_t it = 0; it < tu_iters(4000); it++) {
        p521_r58_limbs(a, (int)(it % 4));
        p521_r58_limbs(b, (int)(it / 4 % 4));
        for (int step = 0; step < 11; step++) { /* a chain: r becomes a */
            r58_to_mpz(A, a), r58_to_mpz(B, b);
            const char *what = "";
            switch (step) {
            case 0: mul(r, a, b), mpz_mul(Z, A, B), what = "r58 mul"; break;
            case 1: sqr(r, a), mpz_mul(Z, A, A), what = "r58 sqr"; break;
            case 2: p521_r58_add(r, a, b), mpz_add(Z, A, B), what = "r58 add"; break;
            case 3: p521_r58_sub(r, a, b), mpz_sub(Z, A, B), what = "r58 sub"; break;
            case 4: p521_r58_sub(r, b, a), mpz_sub(Z, B, A), what = "r58 sub"; break;
            case 5: /* r aliasing both factors */
                memcpy(r, a, sizeof r), mul(r, r, r), mpz_mul(Z, A, A), what = "r58 mul a a";
                break;
            case 6: /* (a + b + a)(b + b), lazy sums */
                p521_r58_add_lazy(x, a, b), p521_r58_add_lazy(x, x, a), p521_r58_add_lazy(y, b, b);
                mul(r, x, y);
                mpz_add(Z, A, B), mpz_add(Z, Z, A), mpz_mul(Z, Z, B), mpz_mul_2exp(Z, Z, 1);
                what = "r58 mul of lazy sums";
                break;
            case 7: /* (b + a + b)^2 */
                p521_r58_add_lazy(x, b, a), p521_r58_add_lazy(x, x, b), sqr(r, x);
                mpz_add(Z, A, B), mpz_add(Z, Z, B), mpz_mul(Z, Z, Z);
                what = "r58 sqr of a lazy sum";
                break;
            case 8: /* a - (b + b) */
                p521_r58_add_lazy(y, b, b), p521_r58_sub(r, a, y);
                mpz_sub(Z, A, B), mpz_sub(Z, Z, B), what = "r58 sub of a lazy sum";
                break;
            case 9: /* (b - a)(a + b + a), a lazy difference and a lazy sum */
                p521_r58_sub_lazy(x, b, a), p521_r58_add_lazy(y, a, b), p521_r58_add_lazy(y, y, a);
                mul(r, x, y);
                mpz_sub(Z, B, A), mpz_add(R, A, B), mpz_add(R, R, A), mpz_mul(Z, Z, R);
                what = "r58 mul of a lazy difference";
                break;
            default: /* (a - b)^2 */
                p521_r58_sub_lazy(x, a, b), sqr(x, x), memcpy(r, x, sizeof r); /* aliased */
                mpz_sub(Z, A, B), mpz_mul(Z, Z, Z), what = "r58 sqr of a lazy difference";
                break;
            }
            mpz_mod(Z, Z, P);
            r58_to_mpz(R, r), mpz_mod(R, R, P);
            TU_CHECK(mpz_cmp(R, Z) == 0, what, 9, TU_V("a", a, 9), TU_V("b", b, 9));
            TU_CHECK(r58_bounded(r), "r58 output bound", 9, TU_V("r", r, 9));
            p521_r58_to_words(w, r);
            TU_CHECK(tu_eq_mpz(w, 9, Z), "r58 to words", 9, TU_V("r", r, 9));
            TU_CHECK(p521_r58_is_zero(r) == (mpz_sgn(Z) == 0), "r58 is zero", 9, TU_V("r", r, 9));
            p521_r58_from_words(a, w);
            TU_CHECK(r58_bounded(a), "r58 from words", 9, TU_V("w", w, 9));
            memcpy(a, r, sizeof a);
        }
    }
    /* zero in random forms: a + (-a mod p) limb by limb (limbs below 2^59.01), and the
     * values one away from it, against GMP */
    for (size_t it = 0; it < tu_iters(4000); it++) {
        p521_r58_limbs(a, (int)(it % 4));
        r58_to_mpz(A, a);
        mpz_neg(Z, A), mpz_mod(Z, Z, P);
        for (int i = 0; i < 9; i++) {
            a[i] += mpz_getlimbn(Z, 0) & ((UINT64_C(1) << (i < 8 ? 58 : 57)) - 1);
            mpz_fdiv_q_2exp(Z, Z, i < 8 ? 58 : 57);
        }
        for (int d = -1; d <= 1; d++) {
            memcpy(b, a, sizeof b);
            if (d < 0 && b[0] == 0) continue;
            b[0] += (uint64_t)(int64_t)d;
            r58_to_mpz(B, b), mpz_mod(B, B, P);
            TU_CHECK(p521_r58_is_zero(b) == (mpz_sgn(B) == 0), "r58 is zero near 0 mod p", 9,
                     TU_V("b", b, 9));
            TU_CHECK(p521_r58_is_zero(b) == (d == 0), "r58 is zero of a - a", 9, TU_V("b", b, 9));
        }
    }
    /* zero in every form: 0, p, 2p, 4p as limbs */
    for (uint64_t k = 0; k <= 4; k++) {
        for (int i = 0; i < 9; i++) a[i] = k * ((UINT64_C(1) << (i < 8 ? 58 : 57)) - 1);
        TU_CHECK(p521_r58_is_zero(a) == 1, "r58 is zero of k p", 9, TU_V("a", a, 9));
        p521_r58_to_words(w, a);
        memset(b, 0, sizeof b);
        TU_CHECK(memcmp(w, b, sizeof w) == 0, "r58 k p to words", 9, TU_V("w", w, 9));
    }
    mpz_clears(P, A, B, Z, R, NULL);
}
/* P-521's radix-2^52 field of tier ifma (ifma/p521_r52.h, through ec.h's calls) on
 * normalized operands at their bounds (digits 0..9 below 2^52, digit 10 below 2^26 as a
 * product's factor and below 2^28 - 2 as a subtrahend; all 2^52 - 1, all zero, uniform),
 * in chains (each output the next input), against GMP: the value mod p (a product is
 * a b 2^-572), the outputs normalized (digit 10 below 2^10: a sum's is its inputs' sum and
 * a carry), and aliasing. */
#define R52_M ((UINT64_C(1) << 52) - 1)
static void p521_r52_digits(uint64_t *d, int cls, unsigned topbits) {
    for (int i = 0; i < 12; i++) {
        const uint64_t top = i < 10 ? R52_M : i == 10 ? (UINT64_C(1) << topbits) - 1 : 0;
        uint64_t r = tu_rand();
        switch (cls) {
        case 0: d[i] = top - (r & 1 & (top > 0)); break;  /* at the bound */
        case 1: d[i] = r & top; break;                    /* anywhere below it */
        case 2: d[i] = (r & 1) ? top : 0; break;          /* bound or zero */
        default: d[i] = i == 10 ? r & 1 : r & top; break; /* a canonical-sized value */
        }
    }
}
static void r52_to_mpz(mpz_t z, const uint64_t *d) {
    mpz_set_ui(z, 0);
    for (int i = 10; i >= 0; i--) mpz_mul_2exp(z, z, 52), mpz_add_ui(z, z, d[i]);
}
static int r52_normalized(const uint64_t *d) {
    for (int i = 0; i < 10; i++)
        if (d[i] > R52_M) return 0;
    return d[10] < 1024 && d[11] == 0;
}
static void test_p521_r52(void) {
    if (tabai_cpu_tier() < TABAI_TIER_IFMA) {
        printf("  P-521 radix-2^52 field: skipped (tier below ifma)\n");
        return;
    }
    mpz_t P, A, B, C, Z, R, Ri;
    mpz_inits(P, A, B, C, Z, R, Ri, NULL);
    mpz_ui_pow_ui(P, 2, 521), mpz_sub_ui(P, P, 1);
    mpz_ui_pow_ui(Ri, 2, 572), mpz_invert(Ri, Ri, P); /* the product's 2^-572 */
    uint64_t a[12], b[12], c[12], r[12];
    for (size_t it = 0; it < tu_iters(4000); it++) {
        p521_r52_digits(a, (int)(it % 4), 26);
        p521_r52_digits(b, (int)(it / 4 % 4), 26);
        for (int step = 0; step < 11; step++) { /* a chain: r becomes a */
            p521_r52_digits(c, (int)((it + (size_t)step) % 4), step & 1 ? 28 : 8);
            if (step & 1) c[10] = c[10] > 1 ? c[10] - 2 : c[10]; /* below 2^28 - 2 */
            r52_to_mpz(A, a), r52_to_mpz(B, b), r52_to_mpz(C, c);
            const char *what = "";
            switch (step) {
            case 0:
                tabai_ec_p521_r52_mul(r, a, b), mpz_mul(Z, A, B), mpz_mul(Z, Z, Ri),
                    what = "r52 mul";
                break;
            case 1:
                tabai_ec_p521_r52_sqr(r, a), mpz_mul(Z, A, A), mpz_mul(Z, Z, Ri), what = "r52 sqr";
                break;
            case 2: tabai_ec_p521_r52_sub(r, a, c), mpz_sub(Z, A, C), what = "r52 sub"; break;
            case 3:
                tabai_ec_p521_r52_mul_sub(r, a, b, c), mpz_mul(Z, A, B), mpz_mul(Z, Z, Ri),
                    mpz_sub(Z, Z, C), what = "r52 mul_sub";
                break;
            case 4: tabai_ec_p521_r52_add(r, a, c), mpz_add(Z, A, C), what = "r52 add"; break;
            case 5:
                tabai_ec_p521_r52_sqr_sub2(r, a, c), mpz_mul(Z, A, A), mpz_mul(Z, Z, Ri),
                    mpz_submul_ui(Z, C, 2), what = "r52 sqr_sub2";
                break;
            case 6: tabai_ec_p521_r52_triple(r, a), mpz_mul_ui(Z, A, 3), what = "r52 triple"; break;
            case 7:
                tabai_ec_p521_r52_sub2x(r, a, c), mpz_sub(Z, A, C), mpz_mul_2exp(Z, Z, 1),
                    what = "r52 sub2x";
                break;
            case 8:
                tabai_ec_p521_r52_half(r, a), mpz_mul_2exp(Z, A, 520), what = "r52 half";
                break; /* 2^520 = 1/2 */
            case 9:    /* r aliasing every input */
                memcpy(r, a, sizeof r), tabai_ec_p521_r52_mul(r, r, r), mpz_mul(Z, A, A),
                    mpz_mul(Z, Z, Ri);
                what = "r52 mul a a in place";
                break;
            default:
                memcpy(r, a, sizeof r), tabai_ec_p521_r52_sub(r, r, r), mpz_set_ui(Z, 0),
                    what = "r52 a - a";
                break;
            }
            mpz_mod(Z, Z, P);
            r52_to_mpz(R, r), mpz_mod(R, R, P);
            TU_CHECK(mpz_cmp(R, Z) == 0, what, 12, TU_V("a", a, 12), TU_V("b", b, 12),
                     TU_V("c", c, 12));
            TU_CHECK(r52_normalized(r), "r52 output normalized", 12, TU_V("r", r, 12));
            memcpy(a, r, sizeof a);
        }
    }
    mpz_clears(P, A, B, C, Z, R, Ri, NULL);
}
/* P-384's radix-2^52 field of tier ifma (ifma/p384_r52.h, through ec.h's calls): the same
 * chains as P-521's above on operands at their bounds (digits 0..6 below 2^52, digit 7
 * below 2^51 as a factor or a minuend, below 2^33 as a subtrahend), against GMP: the value
 * mod p (plain products), the outputs normalized (digit 7 below 2^40: a sum's is its
 * inputs' sum and a carry), and aliasing. */
static void p384_r52_digits(uint64_t *d, int cls, unsigned topbits) {
    for (int i = 0; i < 8; i++) {
        const uint64_t top = i < 7 ? R52_M : (UINT64_C(1) << topbits) - 1;
        uint64_t r = tu_rand();
        switch (cls) {
        case 0: d[i] = top - (r & 1); break;                   /* at the bound */
        case 1: d[i] = r & top; break;                         /* anywhere below it */
        case 2: d[i] = (r & 1) ? top : 0; break;               /* bound or zero */
        default: d[i] = i == 7 ? r & 0xfffff : r & top; break; /* a canonical-sized value */
        }
    }
}
static void r52_to_mpz8(mpz_t z, const uint64_t *d) {
    mpz_set_ui(z, 0);
    for (int i = 7; i >= 0; i--) mpz_mul_2exp(z, z, 52), mpz_add_ui(z, z, d[i]);
}
static int r52_normalized8(const uint64_t *d) {
    for (int i = 0; i < 7; i++)
        if (d[i] > R52_M) return 0;
    return d[7] < (UINT64_C(1) << 40);
}
static void test_p384_r52(void) {
    if (tabai_cpu_tier() < TABAI_TIER_IFMA) {
        printf("  P-384 radix-2^52 field: skipped (tier below ifma)\n");
        return;
    }
    mpz_t P, A, B, C, Z, R;
    mpz_inits(P, A, B, C, Z, R, NULL);
    mpz_ui_pow_ui(P, 2, 384), mpz_ui_pow_ui(Z, 2, 128), mpz_sub(P, P, Z);
    mpz_ui_pow_ui(Z, 2, 96), mpz_sub(P, P, Z), mpz_ui_pow_ui(Z, 2, 32), mpz_add(P, P, Z);
    mpz_sub_ui(P, P, 1);
    uint64_t a[8], b[8], c[8], r[8];
    for (size_t it = 0; it < tu_iters(4000); it++) {
        p384_r52_digits(a, (int)(it % 4), 51);
        p384_r52_digits(b, (int)(it / 4 % 4), 51);
        for (int step = 0; step < 11; step++) { /* a chain: r becomes a */
            p384_r52_digits(c, (int)((it + (size_t)step) % 4), 33);
            r52_to_mpz8(A, a), r52_to_mpz8(B, b), r52_to_mpz8(C, c);
            const char *what = "";
            switch (step) {
            case 0: tabai_ec_p384_r52_mul(r, a, b), mpz_mul(Z, A, B), what = "p384 r52 mul"; break;
            case 1: tabai_ec_p384_r52_sqr(r, a), mpz_mul(Z, A, A), what = "p384 r52 sqr"; break;
            case 2: tabai_ec_p384_r52_sub(r, a, c), mpz_sub(Z, A, C), what = "p384 r52 sub"; break;
            case 3:
                tabai_ec_p384_r52_mul_sub(r, a, b, c), mpz_mul(Z, A, B), mpz_sub(Z, Z, C);
                what = "p384 r52 mul_sub";
                break;
            case 4: tabai_ec_p384_r52_add(r, a, c), mpz_add(Z, A, C), what = "p384 r52 add"; break;
            case 5:
                tabai_ec_p384_r52_sqr_sub2(r, a, c), mpz_mul(Z, A, A), mpz_submul_ui(Z, C, 2);
                what = "p384 r52 sqr_sub2";
                break;
            case 6:
                tabai_ec_p384_r52_triple(r, a), mpz_mul_ui(Z, A, 3), what = "p384 r52 triple";
                break;
            case 7:
                tabai_ec_p384_r52_sub2x(r, a, c), mpz_sub(Z, A, C), mpz_mul_2exp(Z, Z, 1);
                what = "p384 r52 sub2x";
                break;
            case 8: /* a / 2 = a (p + 1) / 2 */
                tabai_ec_p384_r52_half(r, a), mpz_add_ui(Z, P, 1), mpz_fdiv_q_2exp(Z, Z, 1);
                mpz_mul(Z, Z, A), what = "p384 r52 half";
                break;
            case 9: /* a lazy difference as a factor, r aliasing every input */
                tabai_ec_p384_r52_sub_lazy(r, a, c), mpz_sub(Z, A, C);
                tabai_ec_p384_r52_mul(r, r, r), mpz_mul(Z, Z, Z);
                what = "p384 r52 (a - c)^2, lazy, in place";
                break;
            default:
                memcpy(r, a, sizeof r), tabai_ec_p384_r52_sub(r, r, r), mpz_set_ui(Z, 0);
                what = "p384 r52 a - a";
                break;
            }
            mpz_mod(Z, Z, P);
            r52_to_mpz8(R, r), mpz_mod(R, R, P);
            TU_CHECK(mpz_cmp(R, Z) == 0, what, 8, TU_V("a", a, 8), TU_V("b", b, 8),
                     TU_V("c", c, 8));
            TU_CHECK(r52_normalized8(r), "p384 r52 output normalized", 8, TU_V("r", r, 8));
            memcpy(a, r, sizeof a);
        }
    }
    mpz_clears(P, A, B, C, Z, R, NULL);
}
static void test_p521_r58(void) {
    test_p521_r58_with(r58_mul_c, r58_sqr_c);
    if (tabai_cpu_tier() >= TABAI_TIER_BMI2) test_p521_r58_with(r58_mul_x, r58_sqr_x);
    else printf("  P-521 mulx product and square: skipped (tier below bmi2)\n");
}

/* The verification's u1 G + u2 Q (Jacobian, variable time) against EC_POINT_mul, with the
 * exceptions of its incomplete formulas: Q = G and Q = -G (the table entry meets the
 * accumulator), u1 or u2 of 0, 1, n-1, and random. */
static void test_mul2(tabai_curve cv, const EC_GROUP *g, size_t L) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    size_t n = c->n;
    const BIGNUM *N = EC_GROUP_get0_order(g);
    BIGNUM *U1 = BN_new(), *U2 = BN_new(), *K = BN_new();
    EC_POINT *Q = EC_POINT_new(g), *R = EC_POINT_new(g);
    size_t iters = tu_iters(6);
    for (size_t it = 0; it < iters * 5; it++) {
        int kind = (int)(it % 5);
        if (kind == 0) EC_POINT_copy(Q, EC_GROUP_get0_generator(g));
        else if (kind == 1) {
            EC_POINT_copy(Q, EC_GROUP_get0_generator(g));
            EC_POINT_invert(g, Q, bnctx);
        } else {
            BN_rand_range(K, N);
            EC_POINT_mul(g, Q, K, NULL, NULL, bnctx);
            if (EC_POINT_is_at_infinity(g, Q)) continue;
        }
        for (int e = 0; e < 4; e++) {
            BN_rand_range(U1, N);
            BN_rand_range(U2, N);
            if (e == 1) BN_zero(U1);
            if (e == 2) BN_copy(U2, U1); /* with Q = +-G: u1 G meets +-u2 G */
            if (e == 3) BN_sub(U2, N, BN_value_one());
            EC_POINT_mul(g, R, U1, Q, U2, bnctx);
            uint8_t want[MAXB], got[MAXB], enc[MAXB], buf[66];
            oct_full(g, R, L, want);
            size_t el = oct(g, Q, 0, enc);
            uint64_t u1[TABAI_EC_LIMBS] = {0}, u2[TABAI_EC_LIMBS] = {0};
            BN_bn2binpad(U1, buf, (int)L);
            (void)!tabai_from_bytes(u1, n, buf, L);
            BN_bn2binpad(U2, buf, (int)L);
            (void)!tabai_from_bytes(u2, n, buf, L);
            /* Q into the field form with Z = 1 (decoded by our own check first) */
            uint64_t qx[TABAI_EC_LIMBS] = {0}, qy[TABAI_EC_LIMBS] = {0};
            (void)!tabai_from_bytes(qx, n, enc + 1, L);
            (void)!tabai_from_bytes(qy, n, enc + 1 + L, L);
            (void)el;
            tabai_ec_point P, J;
            memset(&P, 0, sizeof P);
            fe_mul(&x.fp, P.x, qx, x.fp.rr);
            fe_mul(&x.fp, P.y, qy, x.fp.rr);
            memcpy(P.z, x.fp.one, n * 8);
            tabai_ec_mul2_vartime(&x, &J, u1, u2, &P);
            memset(got, 0, sizeof got);
            if (!fe_is_zero(J.z, n)) {
                uint64_t zi[TABAI_EC_LIMBS], z2[TABAI_EC_LIMBS], one[TABAI_EC_LIMBS] = {1};
                tabai_ec_pow(&x.fp, zi, J.z, c->p_minus2, c->pbits);
                fe_sqr(&x.fp, z2, zi);
                fe_mul(&x.fp, qx, J.x, z2);
                fe_mul(&x.fp, z2, z2, zi);
                fe_mul(&x.fp, qy, J.y, z2);
                fe_mul(&x.fp, qx, qx, one);
                fe_mul(&x.fp, qy, qy, one);
                got[0] = 4;
                (void)!tabai_to_bytes(got + 1, L, qx, n);
                (void)!tabai_to_bytes(got + 1 + L, L, qy, n);
            }
            TU_CHECK(!memcmp(got, want, 1 + 2 * L), "u1 G + u2 Q (vartime)", (size_t)kind,
                     TU_V("u1", u1, n), TU_V("u2", u2, n));
        }
    }
    BN_free(U1), BN_free(U2), BN_free(K);
    EC_POINT_free(Q), EC_POINT_free(R);
}

/* x, y of the affine P (finite) in the context's field form */
static void to_field(const tabai_ec_ctx *x, const EC_GROUP *g, const EC_POINT *P, size_t L,
                     uint64_t *px, uint64_t *py) {
    uint8_t enc[MAXB];
    size_t n = x->c->n;
    oct(g, P, 0, enc);
    memset(px, 0, n * 8), memset(py, 0, n * 8);
    (void)!tabai_from_bytes(px, n, enc + 1, L);
    (void)!tabai_from_bytes(py, n, enc + 1 + L, L);
    fe_mul(&x->fp, px, px, x->fp.rr);
    fe_mul(&x->fp, py, py, x->fp.rr);
}

/* The unified Jacobian + affine addition of k P's windows (impl->jmadd) against
 * EC_POINT_add, P given in Jacobian coordinates with a random Z, on the cases the scalar
 * multiplication cannot be steered into: Q random, Q = P (a doubling), Q = -P (infinity),
 * Q = (x2, -y1) with x1^2 + x1 x2 + x2^2 + a = 0 (y1 + y2 = 0 with x1 != x2, where the
 * unified slope has no quotient), and P at infinity (Z = 0). */
static void test_jmadd(const curve_case *cc, const EC_GROUP *g, size_t L) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cc->c);
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    if (!x.impl) return;
    size_t n = c->n;
    const BIGNUM *N = EC_GROUP_get0_order(g);
    BIGNUM *K = BN_new(), *Pp = BN_new(), *A = BN_new(), *B = BN_new(), *X1 = BN_new(),
           *Y1 = BN_new(), *D = BN_new(), *X2 = BN_new(), *T = BN_new();
    EC_GROUP_get_curve(g, Pp, A, B, bnctx);
    EC_POINT *P = EC_POINT_new(g), *Q = EC_POINT_new(g), *R = EC_POINT_new(g);
    size_t iters = tu_iters(8), degenerate = 0;
    for (size_t it = 0; it < iters * 5; it++) {
        int kind = (int)(it % 5);
        BN_rand_range(K, N);
        if (BN_is_zero(K)) continue;
        EC_POINT_mul(g, P, K, NULL, NULL, bnctx);
        if (kind == 0) {
            BN_rand_range(K, N);
            EC_POINT_mul(g, Q, K, NULL, NULL, bnctx);
        } else if (kind == 1 || kind == 4) {
            EC_POINT_copy(Q, P);
        } else if (kind == 2) {
            EC_POINT_copy(Q, P);
            EC_POINT_invert(g, Q, bnctx);
        } else { /* x2 = (-x1 + sqrt(-3 x1^2 - 4 a)) / 2, y2 = -y1: a new P until it exists */
            int found = 0;
            for (int tries = 0; tries < 256 && !found; tries++) {
                BN_rand_range(K, N);
                if (BN_is_zero(K)) continue;
                EC_POINT_mul(g, P, K, NULL, NULL, bnctx);
                EC_POINT_get_affine_coordinates(g, P, X1, Y1, bnctx);
                BN_mod_sqr(D, X1, Pp, bnctx);
                BN_mul_word(D, 3);
                BN_copy(T, A);
                BN_mul_word(T, 4);
                BN_add(D, D, T);
                BN_mod_sub(D, Pp, D, Pp, bnctx); /* -(3 x1^2 + 4 a) */
                ERR_set_mark();
                int sq = BN_mod_sqrt(T, D, Pp, bnctx) != NULL;
                ERR_pop_to_mark();
                if (!sq) continue;
                BN_mod_sub(X2, T, X1, Pp, bnctx);
                if (BN_is_odd(X2)) BN_add(X2, X2, Pp);
                BN_rshift1(X2, X2);
                if (!BN_cmp(X2, X1)) continue;
                BN_mod_sub(T, Pp, Y1, Pp, bnctx);
                found = EC_POINT_set_affine_coordinates(g, Q, X2, T, bnctx) == 1;
            }
            CHECK(found, "a point q with y1 + y2 = 0, x1 != x2");
            if (!found) continue;
            degenerate++;
        }
        EC_POINT_add(g, R, P, Q, bnctx);
        tabai_ec_point J, q, S;
        memset(&J, 0, sizeof J), memset(&q, 0, sizeof q);
        to_field(&x, g, Q, L, q.x, q.y);
        if (kind == 4) { /* P at infinity: Z = 0, X and Y anything */
            EC_POINT_copy(R, Q);
            J.x[0] = 5, J.y[0] = 7;
        } else { /* (x z^2, y z^3, z) */
            uint64_t z[TABAI_EC_LIMBS] = {0}, z2[TABAI_EC_LIMBS];
            to_field(&x, g, P, L, J.x, J.y);
            z[0] = tu_rand() | 1;
            fe_mul(&x.fp, J.z, z, x.fp.rr);
            fe_sqr(&x.fp, z2, J.z);
            fe_mul(&x.fp, J.x, J.x, z2);
            fe_mul(&x.fp, z2, z2, J.z);
            fe_mul(&x.fp, J.y, J.y, z2);
        }
        x.impl->jmadd(&x, &S, &J, &q);
        uint8_t want[MAXB], got[MAXB];
        oct_full(g, R, L, want);
        memset(got, 0, sizeof got);
        if (!fe_is_zero(S.z, n)) {
            uint64_t zi[TABAI_EC_LIMBS], z2[TABAI_EC_LIMBS], one[TABAI_EC_LIMBS] = {1};
            tabai_ec_pow(&x.fp, zi, S.z, c->p_minus2, c->pbits);
            fe_sqr(&x.fp, z2, zi);
            fe_mul(&x.fp, S.x, S.x, z2);
            fe_mul(&x.fp, z2, z2, zi);
            fe_mul(&x.fp, S.y, S.y, z2);
            fe_mul(&x.fp, S.x, S.x, one);
            fe_mul(&x.fp, S.y, S.y, one);
            got[0] = 4;
            (void)!tabai_to_bytes(got + 1, L, S.x, n);
            (void)!tabai_to_bytes(got + 1 + L, L, S.y, n);
        }
        TU_CHECK(!memcmp(got, want, 1 + 2 * L), "Jacobian + affine unified addition", (size_t)kind,
                 TU_NOV);
    }
    CHECK(degenerate > 0, "the y1 = -y2, x1 != x2 case was reached");
    BN_free(K), BN_free(Pp), BN_free(A), BN_free(B), BN_free(X1), BN_free(Y1), BN_free(D);
    BN_free(X2), BN_free(T);
    EC_POINT_free(P), EC_POINT_free(Q), EC_POINT_free(R);
}

static void test_params(const curve_case *cc, const EC_GROUP *g, size_t L) {
    uint8_t p[66], a[66], b[66], gx[66], gy[66], n[66], t[66];
    CHECK(tabai_ec_curve_params(cc->c, p, a, b, gx, gy, n) == TABAI_OK, "curve_params");
    BIGNUM *P = BN_new(), *A = BN_new(), *B = BN_new(), *X = BN_new(), *Y = BN_new();
    EC_GROUP_get_curve(g, P, A, B, bnctx);
    BN_bn2binpad(P, t, (int)L);
    CHECK(!memcmp(t, p, L), "p");
    BN_bn2binpad(A, t, (int)L);
    CHECK(!memcmp(t, a, L), "a");
    BN_bn2binpad(B, t, (int)L);
    CHECK(!memcmp(t, b, L), "b");
    EC_POINT_get_affine_coordinates(g, EC_GROUP_get0_generator(g), X, Y, bnctx);
    BN_bn2binpad(X, t, (int)L);
    CHECK(!memcmp(t, gx, L), "Gx");
    BN_bn2binpad(Y, t, (int)L);
    CHECK(!memcmp(t, gy, L), "Gy");
    BN_bn2binpad(EC_GROUP_get0_order(g), t, (int)L);
    CHECK(!memcmp(t, n, L), "n");
    CHECK(tabai_ec_field_bytes(cc->c) == L && tabai_ec_scalar_bytes(cc->c) == L, "sizes");
    CHECK(tabai_curve_parse(tabai_curve_name(cc->c)) == (int)cc->c, "name");
    /* G on the curve (the check accepts it) and n G = infinity, (n-1) G = -G */
    uint8_t G[MAXB], out[MAXB];
    G[0] = 4;
    memcpy(G + 1, gx, L);
    memcpy(G + 1 + L, gy, L);
    CHECK(tabai_ec_public_key_check(cc->c, out, G, 1 + 2 * L) == TABAI_OK, "G on curve");
    CHECK(tabai_ec_point_mul(cc->c, out, n, L, G, 1 + 2 * L) == TABAI_OK, "n G");
    CHECK(out[0] == 0, "n G = infinity");
    BN_free(P), BN_free(A), BN_free(B), BN_free(X), BN_free(Y);
}

/* k P by tabai (point_mul) vs OpenSSL, k of any length */
static void check_mul(const curve_case *cc, const EC_GROUP *g, const EC_POINT *P,
                      const uint8_t *k, size_t klen, size_t L) {
    uint8_t in[MAXB], want[MAXB], got[MAXB];
    size_t il = oct(g, P, (int)(tu_rand() & 1), in);
    BIGNUM *K = BN_bin2bn(k, (int)klen, NULL);
    EC_POINT *R = EC_POINT_new(g);
    EC_POINT_mul(g, R, NULL, P, K, bnctx);
    oct_full(g, R, L, want);
    memset(got, 0xaa, sizeof got);
    CHECK(tabai_ec_point_mul(cc->c, got, k, klen, in, il) == TABAI_OK, "point_mul status");
    TU_CHECK(!memcmp(got, want, 1 + 2 * L), "point_mul vs EC_POINT_mul", klen, TU_NOV);
    EC_POINT_free(R);
    BN_free(K);
}

/* The internal k P (the tier's inlined instance, whose table starts from Z = 1) on G given
 * with Z = lambda != 1 (projective (lambda X : lambda Y : lambda)) against G with Z = 1, the
 * results compared projectively (X1 Z2 = X2 Z1, Y1 Z2 = Y2 Z1), and on infinity (k O = O). */
static void test_mul_proj(tabai_curve cv) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    size_t n = c->n;
    tabai_ec_point P, Q, R1, R2;
    memset(&P, 0, sizeof P);
    memcpy(P.x, c->gx_m, n * 8);
    memcpy(P.y, c->gy_m, n * 8);
    memcpy(P.z, x.fp.one, n * 8);
    uint64_t lam[TABAI_EC_LIMBS] = {0}, k[TABAI_EC_LIMBS] = {0}, a[TABAI_EC_LIMBS],
             b[TABAI_EC_LIMBS];
    for (int it = 0; it < 4; it++) {
        lam[0] = 3 + 2 * (uint64_t)it; /* any nonzero residue < p */
        memset(&Q, 0, sizeof Q);
        fe_mul(&x.fp, Q.x, P.x, lam);
        fe_mul(&x.fp, Q.y, P.y, lam);
        fe_mul(&x.fp, Q.z, P.z, lam);
        size_t kb = c->qbits - 1; /* k < 2^(qbits - 1) < q */
        memset(k, 0, sizeof k);
        for (size_t i = 0; i < kb / 64; i++) k[i] = tu_rand();
        if (kb % 64) k[kb / 64] = tu_rand() & (((uint64_t)1 << (kb % 64)) - 1);
        tabai_ec_mul_ct(&x, &R1, k, &P);
        tabai_ec_mul_ct(&x, &R2, k, &Q);
        fe_mul(&x.fp, a, R1.x, R2.z);
        fe_mul(&x.fp, b, R2.x, R1.z);
        int ok = !memcmp(a, b, n * 8);
        fe_mul(&x.fp, a, R1.y, R2.z);
        fe_mul(&x.fp, b, R2.y, R1.z);
        ok &= !memcmp(a, b, n * 8) && !fe_is_zero(R1.z, n);
        TU_CHECK(ok, "k P with Z != 1", n, TU_V("k", k, n));
    }
    memset(&Q, 0, sizeof Q);
    memcpy(Q.y, x.fp.one, n * 8); /* infinity (0 : 1 : 0) */
    tabai_ec_mul_ct(&x, &R1, k, &Q);
    CHECK(fe_is_zero(R1.z, n), "k infinity = infinity");
}

/* k G of K (through tabai_ec_public_key) against EC_POINT_mul; K = 0 is skipped. */
static void check_public_key(const curve_case *cc, const EC_GROUP *g, const BIGNUM *K, size_t L) {
    if (BN_is_zero(K)) return;
    uint8_t sk[66], pk[MAXB], want[MAXB];
    EC_POINT *P = EC_POINT_new(g);
    EC_POINT_mul(g, P, K, NULL, NULL, bnctx);
    size_t wl = oct(g, P, 0, want);
    BN_bn2binpad(K, sk, (int)L);
    CHECK(tabai_ec_public_key(cc->c, pk, wl, sk) == TABAI_OK, "public_key (edge k)");
    TU_CHECK(!memcmp(pk, want, wl), "k G vs EC_POINT_mul (edge k)", L, TU_NOV);
    EC_POINT_free(P);
}
/* k G (tabai_ec_public_key, the tier's windows) against EC_POINT_mul on the scalars where
 * the incomplete addition of k G's windows could meet its exceptional case if the argument
 * of mul_base_w (curve_impl.h) were wrong: k = j 2^e, j 2^(e+1) - n and j 2^(e+1) - 2n
 * (mod n) for e the top window's weight of the 5- and 7-bit windows, 1 <= j <= 64, and the
 * Booth boundaries 2^(w i) +- 1, 2^(w i - 1) +- 1 of every window; then 1, 2, 3, n-1, n-2. */
static void test_mul_base_edges(const curve_case *cc, const EC_GROUP *g, size_t L) {
    const BIGNUM *N = EC_GROUP_get0_order(g);
    const int qbits = BN_num_bits(N);
    BIGNUM *K = BN_new(), *E = BN_new();
    for (int w = 5; w <= 7; w += 2) {
        const int e = (qbits / w) * w; /* the top window's weight */
        for (int j = 1; j <= 64; j++)
            for (int m = 0; m < 3; m++) {
                BN_set_word(K, (BN_ULONG)j);
                BN_lshift(K, K, m ? e + 1 : e);
                for (int t = 0; t < m; t++) BN_sub(K, K, N);
                BN_nnmod(K, K, N, bnctx);
                check_public_key(cc, g, K, L);
            }
        for (int i = 1; w * i < qbits; i++)
            for (int sh = 0; sh < 2; sh++)
                for (int d = -1; d <= 1; d += 2) {
                    BN_one(E);
                    BN_lshift(E, E, w * i - sh);
                    BN_set_word(K, 1);
                    if (d < 0) BN_sub(K, E, K);
                    else BN_add(K, E, K);
                    check_public_key(cc, g, K, L);
                }
    }
    for (int v = 1; v <= 3; v++) {
        BN_set_word(K, (BN_ULONG)v);
        check_public_key(cc, g, K, L);
        BN_sub(K, N, K);
        check_public_key(cc, g, K, L);
    }
    BN_free(K), BN_free(E);
}

/* k P at the scalars of the argument above mul_scan in curve_impl.h (windows of 5 bits):
 * k = j 2^(5 i) + e for small j and e in the low and top windows (an accumulator of few
 * digits, near +-t), n - j (the last window's candidates n - 2 |d_0|), and the Booth
 * boundaries 2^(5 i) +- 1, 2^(5 i - 1) +- 1 of the low and top windows, on a random point. */
static void test_mul_edges(const curve_case *cc, const EC_GROUP *g, size_t L) {
    const BIGNUM *N = EC_GROUP_get0_order(g);
    const int top = (BN_num_bits(N) - 1) / 5; /* the top window's index */
    const int win[] = {0, 1, 2, top - 1, top};
    BIGNUM *K = BN_new(), *E = BN_new();
    EC_POINT *P = EC_POINT_new(g);
    uint8_t k[66];
    BN_rand_range(K, N);
    EC_POINT_mul(g, P, K, NULL, NULL, bnctx);
#define CHECK_K()                                                                                  \
    do {                                                                                           \
        BN_nnmod(K, K, N, bnctx);                                                                  \
        BN_bn2binpad(K, k, (int)L);                                                                \
        check_mul(cc, g, P, k, L, L);                                                              \
    } while (0)
    for (int j = 1; j <= 33; j++) {
        for (size_t wi = 0; wi < sizeof win / sizeof *win; wi++)
            for (int e = -1; e <= 1; e++) {
                BN_set_word(K, (BN_ULONG)j);
                BN_lshift(K, K, 5 * win[wi]);
                if (e < 0) BN_sub_word(K, 1);
                else BN_add_word(K, (BN_ULONG)e);
                CHECK_K();
            }
        BN_copy(K, N);
        BN_sub_word(K, (BN_ULONG)j);
        CHECK_K();
    }
    for (size_t wi = 1; wi < sizeof win / sizeof *win; wi++)
        for (int sh = 0; sh < 2; sh++)
            for (int d = -1; d <= 1; d += 2) {
                BN_one(E);
                BN_lshift(E, E, 5 * win[wi] - sh);
                BN_set_word(K, 1);
                if (d < 0) BN_sub(K, E, K);
                else BN_add(K, E, K);
                CHECK_K();
            }
    /* the odd digits' extremes (tabai_ec_odd_prepare, m windows): a top digit t, every digit
     * below it c, k = t 2^(5 (m - 1)) + c (2^(5 (m - 1)) - 1) / 31, where it lies in [0, n);
     * an even k is recoded as n - k */
    const int m = (BN_num_bits(N) + 4) / 5;
    const int tops[] = {1, 3, 15}, lows[] = {-31, -1, 1, 31};
    for (size_t ti = 0; ti < sizeof tops / sizeof *tops; ti++)
        for (size_t li = 0; li < sizeof lows / sizeof *lows; li++) {
            BN_one(E);
            BN_lshift(E, E, 5 * (m - 1));
            BN_sub_word(E, 1);
            BN_div_word(E, 31);
            BN_mul_word(E, (BN_ULONG)(lows[li] < 0 ? -lows[li] : lows[li]));
            BN_one(K);
            BN_lshift(K, K, 5 * (m - 1));
            BN_mul_word(K, (BN_ULONG)tops[ti]);
            if (lows[li] < 0) BN_sub(K, K, E);
            else BN_add(K, K, E);
            if (BN_is_negative(K) || BN_cmp(K, N) >= 0) continue;
            CHECK_K();
            BN_sub(K, N, K); /* the other parity */
            CHECK_K();
        }
#undef CHECK_K
    EC_POINT_free(P);
    BN_free(K), BN_free(E);
}

static void test_mul(const curve_case *cc, const EC_GROUP *g, size_t L) {
    const BIGNUM *N = EC_GROUP_get0_order(g);
    const EC_POINT *G = EC_GROUP_get0_generator(g);
    uint8_t k[140];
    /* edge scalars: 0, 1, 2, 3, n-1, n-2, n, n+1, 2n-1, and a long all-ones one */
    long deltas[] = {-1, -2, 0, 1};
    for (unsigned v = 0; v < 4; v++) {
        memset(k, 0, L);
        k[L - 1] = (uint8_t)v;
        check_mul(cc, g, G, k, L, L);
    }
    BIGNUM *T = BN_new();
    for (size_t i = 0; i < 4; i++) {
        BN_copy(T, N);
        if (deltas[i] < 0) BN_sub_word(T, (BN_ULONG)-deltas[i]);
        else BN_add_word(T, (BN_ULONG)deltas[i]);
        BN_bn2binpad(T, k, (int)L + 1);
        check_mul(cc, g, G, k, L + 1, L);
    }
    memset(k, 0xff, sizeof k);
    check_mul(cc, g, G, k, sizeof k, L);
    check_mul(cc, g, G, k, 0, L);
    /* random scalars on G and on random points; public_key against EC_POINT_mul */
    EC_POINT *P = EC_POINT_new(g), *R = EC_POINT_new(g);
    size_t iters = tu_iters(24);
    for (size_t it = 0; it < iters; it++) {
        rand_bytes(k, L);
        BIGNUM *K = BN_bin2bn(k, (int)L, NULL);
        BN_mod(K, K, N, bnctx);
        BN_bn2binpad(K, k, (int)L);
        check_mul(cc, g, G, k, L, L);
        EC_POINT_mul(g, P, K, NULL, NULL, bnctx);
        rand_bytes(k, L);
        check_mul(cc, g, P, k, L, L);
        /* public key, both forms */
        if (!BN_is_zero(K)) {
            uint8_t sk[66], pk[MAXB], want[MAXB];
            BN_bn2binpad(K, sk, (int)L);
            for (int comp = 0; comp < 2; comp++) {
                size_t wl = oct(g, P, comp, want);
                CHECK(tabai_ec_public_key(cc->c, pk, wl, sk) == TABAI_OK, "public_key");
                CHECK(!memcmp(pk, want, wl), "public_key vs OpenSSL");
                uint8_t full[MAXB], wfull[MAXB];
                CHECK(tabai_ec_public_key_check(cc->c, full, pk, wl) == TABAI_OK, "check");
                oct(g, P, 0, wfull);
                CHECK(!memcmp(full, wfull, 1 + 2 * L), "check: decompressed");
            }
        }
        BN_free(K);
    }
    BN_free(T);
    EC_POINT_free(P), EC_POINT_free(R);
    test_mul_base_edges(cc, g, L);
    test_mul_edges(cc, g, L);
}

static void check_add(const curve_case *cc, const EC_GROUP *g, const EC_POINT *P,
                      const EC_POINT *Q, size_t L) {
    uint8_t a[MAXB], b[MAXB], want[MAXB], got[MAXB];
    size_t al = oct(g, P, 0, a), bl = oct(g, Q, 1, b);
    EC_POINT *R = EC_POINT_new(g);
    EC_POINT_add(g, R, P, Q, bnctx);
    oct_full(g, R, L, want);
    CHECK(tabai_ec_point_add(cc->c, got, a, al, b, bl) == TABAI_OK, "point_add status");
    CHECK(!memcmp(got, want, 1 + 2 * L), "point_add vs EC_POINT_add");
    EC_POINT_free(R);
}

/* a point of small x: the first x = 0, 1, 2, ... OpenSSL accepts (compressed, even y) */
static int small_x_point(const EC_GROUP *g, EC_POINT *P, size_t L, unsigned *x) {
    uint8_t enc[67] = {0};
    enc[0] = 2;
    for (unsigned v = 0; v < 64; v++) {
        enc[L] = (uint8_t)v;
        ERR_set_mark();
        int ok = EC_POINT_oct2point(g, P, enc, 1 + L, bnctx);
        ERR_pop_to_mark();
        if (ok) {
            *x = v;
            return 1;
        }
    }
    return 0;
}

static void test_add(const curve_case *cc, const EC_GROUP *g, size_t L) {
    const BIGNUM *N = EC_GROUP_get0_order(g);
    EC_POINT *P = EC_POINT_new(g), *Q = EC_POINT_new(g), *I = EC_POINT_new(g);
    BIGNUM *K = BN_new();
    EC_POINT_set_to_infinity(g, I);
    size_t iters = tu_iters(16);
    for (size_t it = 0; it < iters; it++) {
        BN_rand_range(K, N);
        EC_POINT_mul(g, P, K, NULL, NULL, bnctx);
        BN_rand_range(K, N);
        EC_POINT_mul(g, Q, K, NULL, NULL, bnctx);
        check_add(cc, g, P, Q, L);
        check_add(cc, g, P, P, L);
        check_add(cc, g, P, I, L);
        check_add(cc, g, I, P, L);
        EC_POINT_copy(Q, P);
        EC_POINT_invert(g, Q, bnctx);
        check_add(cc, g, P, Q, L);
    }
    check_add(cc, g, I, I, L);
    unsigned x;
    if (small_x_point(g, P, L, &x)) {
        uint8_t enc[MAXB], full[MAXB];
        size_t el = oct(g, P, 1, enc);
        CHECK(tabai_ec_public_key_check(cc->c, full, enc, el) == TABAI_OK, "small x accepted");
        check_add(cc, g, P, P, L);
        check_add(cc, g, P, EC_GROUP_get0_generator(g), L);
        uint8_t k[66];
        for (int i = 0; i < 4; i++) {
            rand_bytes(k, L);
            check_mul(cc, g, P, k, L, L);
        }
    }
    BN_free(K);
    EC_POINT_free(P), EC_POINT_free(Q), EC_POINT_free(I);
}

static void test_ecdh(const curve_case *cc, const EC_GROUP *g, size_t L) {
    const BIGNUM *N = EC_GROUP_get0_order(g);
    EC_POINT *Q = EC_POINT_new(g), *S = EC_POINT_new(g);
    BIGNUM *D = BN_new(), *E = BN_new(), *X = BN_new();
    size_t iters = tu_iters(16);
    for (size_t it = 0; it < iters; it++) {
        BN_rand_range(D, N);
        BN_rand_range(E, N);
        if (BN_is_zero(D) || BN_is_zero(E)) continue;
        EC_POINT_mul(g, Q, E, NULL, NULL, bnctx);
        EC_POINT_mul(g, S, NULL, Q, D, bnctx);
        EC_POINT_get_affine_coordinates(g, S, X, NULL, bnctx);
        uint8_t sk[66], pk[MAXB], want[66], got[66];
        BN_bn2binpad(D, sk, (int)L);
        BN_bn2binpad(X, want, (int)L);
        size_t pl = oct(g, Q, (int)(it & 1), pk);
        CHECK(tabai_ecdh(cc->c, got, sk, pk, pl) == TABAI_OK, "ecdh status");
        CHECK(!memcmp(got, want, L), "ecdh vs OpenSSL");
    }
    /* our own key pairs agree */
    uint8_t sa[66], pa[MAXB], sb[66], pb[MAXB], s1[66], s2[66];
    CHECK(tabai_ec_keypair(cc->c, sa, pa) == TABAI_OK, "keypair");
    CHECK(tabai_ec_keypair(cc->c, sb, pb) == TABAI_OK, "keypair");
    CHECK(tabai_ecdh(cc->c, s1, sa, pb, 1 + 2 * L) == TABAI_OK, "ecdh a");
    CHECK(tabai_ecdh(cc->c, s2, sb, pa, 1 + 2 * L) == TABAI_OK, "ecdh b");
    CHECK(!memcmp(s1, s2, L), "ecdh agree");
    BN_free(D), BN_free(E), BN_free(X);
    EC_POINT_free(Q), EC_POINT_free(S);
}

static EC_KEY *ossl_key(const EC_GROUP *g, const uint8_t *sk, size_t L) {
    EC_KEY *k = EC_KEY_new();
    EC_KEY_set_group(k, g);
    BIGNUM *D = BN_bin2bn(sk, (int)L, NULL);
    EC_POINT *Q = EC_POINT_new(g);
    EC_POINT_mul(g, Q, D, NULL, NULL, bnctx);
    EC_KEY_set_private_key(k, D);
    EC_KEY_set_public_key(k, Q);
    BN_free(D);
    EC_POINT_free(Q);
    return k;
}

static void test_ecdsa(const curve_case *cc, const EC_GROUP *g, size_t L) {
    const BIGNUM *N = EC_GROUP_get0_order(g);
    BIGNUM *half = BN_new();
    BN_rshift1(half, N);
    size_t iters = tu_iters(12);
    static const size_t dlens[] = {32, 48, 64, 20, 0, 66, 1, 100};
    for (size_t it = 0; it < iters; it++) {
        uint8_t sk[66], pk[MAXB], dg[128], sig[132], sig2[132], extra[200];
        CHECK(tabai_ec_keypair(cc->c, sk, pk) == TABAI_OK, "keypair");
        size_t dl = dlens[it % 8];
        rand_bytes(dg, dl);
        unsigned flags = (it & 1) ? TABAI_ECDSA_LOW_S : 0;
        rand_bytes(extra, sizeof extra);
        size_t el = (it % 3 == 2) ? (it % 2 ? sizeof extra : 40) : 0; /* 200: heap buffer */
        CHECK(tabai_ecdsa_sign_digest(cc->c, sig, sk, dg, dl, cc->h, el ? extra : NULL, el,
                                      flags) == TABAI_OK, "sign");
        CHECK(tabai_ecdsa_sign_digest(cc->c, sig2, sk, dg, dl, cc->h, el ? extra : NULL, el,
                                      flags) == TABAI_OK, "sign again");
        CHECK(!memcmp(sig, sig2, 2 * L), "deterministic");
        EC_KEY *k = ossl_key(g, sk, L);
        ECDSA_SIG *s = ECDSA_SIG_new();
        BIGNUM *R = BN_bin2bn(sig, (int)L, NULL), *S = BN_bin2bn(sig + L, (int)L, NULL);
        if (flags) CHECK(BN_cmp(S, half) <= 0, "low S");
        ECDSA_SIG_set0(s, R, S);
        CHECK(ECDSA_do_verify(dg, (int)dl, s, k) == 1, "OpenSSL verifies ours");
        CHECK(tabai_ecdsa_verify_digest_vartime(cc->c, pk, 1 + 2 * L, dg, dl, sig, flags) ==
                  TABAI_OK, "we verify ours");
        ECDSA_SIG_free(s);
        /* OpenSSL's signature, verified by us; then broken ones rejected */
        s = ECDSA_do_sign(dg, (int)dl, k);
        const BIGNUM *r0, *s0;
        ECDSA_SIG_get0(s, &r0, &s0);
        BN_bn2binpad(r0, sig, (int)L);
        BN_bn2binpad(s0, sig + L, (int)L);
        CHECK(tabai_ecdsa_verify_digest_vartime(cc->c, pk, 1 + 2 * L, dg, dl, sig, 0) ==
                  TABAI_OK, "we verify OpenSSL's");
        int high = BN_cmp(s0, half) > 0;
        CHECK(tabai_ecdsa_verify_digest_vartime(cc->c, pk, 1 + 2 * L, dg, dl, sig,
                                                TABAI_ECDSA_LOW_S) ==
                  (high ? TABAI_ERR_SIGNATURE : TABAI_OK), "low-S rule on verify");
        sig[L + 3] ^= 4;
        CHECK(tabai_ecdsa_verify_digest_vartime(cc->c, pk, 1 + 2 * L, dg, dl, sig, 0) ==
                  TABAI_ERR_SIGNATURE, "broken s rejected");
        sig[L + 3] ^= 4;
        if (dl) {
            dg[0] ^= 0x80;
            CHECK(tabai_ecdsa_verify_digest_vartime(cc->c, pk, 1 + 2 * L, dg, dl, sig, 0) ==
                      TABAI_ERR_SIGNATURE, "other digest rejected");
        }
        /* r = 0, s = n: malformed */
        uint8_t bad[132];
        memcpy(bad, sig, 2 * L);
        memset(bad, 0, L);
        CHECK(tabai_ecdsa_verify_digest_vartime(cc->c, pk, 1 + 2 * L, dg, dl, bad, 0) ==
                  TABAI_ERR_SIGNATURE, "r = 0");
        memcpy(bad, sig, 2 * L);
        BN_bn2binpad(N, bad + L, (int)L);
        CHECK(tabai_ecdsa_verify_digest_vartime(cc->c, pk, 1 + 2 * L, dg, dl, bad, 0) ==
                  TABAI_ERR_SIGNATURE, "s = n");
        ECDSA_SIG_free(s);
        EC_KEY_free(k);
    }
    BN_free(half);
}

/* ---- RFC 6979 appendix A.2.5-A.2.7, message "sample" (published test data) ---- */
typedef struct {
    tabai_curve c;
    int nid;
    const char *x, *ux, *uy;
    struct {
        tabai_hash h;
        const EVP_MD *(*md)(void);
        const char *r, *s;
    } sig[2];
} rfc_case;

static const rfc_case RFC[] = {
    {TABAI_CURVE_P256, NID_X9_62_prime256v1,
     "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721",
     "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6",
     "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299",
     {{TABAI_HASH_SHA256, EVP_sha256,
       "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
       "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"},
      {TABAI_HASH_SHA512, EVP_sha512,
       "8496A60B5E9B47C825488827E0495B0E3FA109EC4568FD3F8D1097678EB97F00",
       "2362AB1ADBE2B8ADF9CB9EDAB740EA6049C028114F2460F96554F61FAE3302FE"}}},
    {TABAI_CURVE_P384, NID_secp384r1,
     "6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D8"
     "96D5724E4C70A825F872C9EA60D2EDF5",
     "EC3A4E415B4E19A4568618029F427FA5DA9A8BC4AE92E02E06AAE5286B300C64"
     "DEF8F0EA9055866064A254515480BC13",
     "8015D9B72D7D57244EA8EF9AC0C621896708A59367F9DFB9F54CA84B3F1C9DB1"
     "288B231C3AE0D4FE7344FD2533264720",
     {{TABAI_HASH_SHA384, EVP_sha384,
       "94EDBB92A5ECB8AAD4736E56C691916B3F88140666CE9FA73D64C4EA95AD133C"
       "81A648152E44ACF96E36DD1E80FABE46",
       "99EF4AEB15F178CEA1FE40DB2603138F130E740A19624526203B6351D0A3A94F"
       "A329C145786E679E7B82C71A38628AC8"},
      {TABAI_HASH_SHA256, EVP_sha256,
       "21B13D1E013C7FA1392D03C5F99AF8B30C570C6F98D4EA8E354B63A21D3DAA33"
       "BDE1E888E63355D92FA2B3C36D8FB2CD",
       "F3AA443FB107745BF4BD77CB3891674632068A10CA67E3D45DB2266FA7D1FEEB"
       "EFDC63ECCD1AC42EC0CB8668A4FA0AB0"}}},
    {TABAI_CURVE_P521, NID_secp521r1,
     "0FAD06DAA62BA3B25D2FB40133DA757205DE67F5BB0018FEE8C86E1B68C7E75C"
     "AA896EB32F1F47C70855836A6D16FCC1466F6D8FBEC67DB89EC0C08B0E996B83538",
     "1894550D0785932E00EAA23B694F213F8C3121F86DC97A04E5A7167DB4E5BCD3"
     "71123D46E45DB6B5D5370A7F20FB633155D38FFA16D2BD761DCAC474B9A2F5023A4",
     "0493101C962CD4D2FDDF782285E64584139C2F91B47F87FF82354D6630F746A2"
     "8A0DB25741B5B34A828008B22ACC23F924FAAFBD4D33F81EA66956DFEAA2BFDFCF5",
     {{TABAI_HASH_SHA512, EVP_sha512,
       "0C328FAFCBD79DD77850370C46325D987CB525569FB63C5D3BC53950E6D4C5F1"
       "74E25A1EE9017B5D450606ADD152B534931D7D4E8455CC91F9B15BF05EC36E377FA",
       "0617CCE7CF5064806C467F678D3B4080D6F1CC50AF26CA209417308281B68AF2"
       "82623EAA63E5B5C0723D8B8C37FF0777B1A20F8CCB1DCCC43997F1EE0E44DA4A67A"},
      {0, NULL, NULL, NULL}}},
};

static void hex_to(uint8_t *out, size_t L, const char *hex) {
    BIGNUM *b = NULL;
    BN_hex2bn(&b, hex);
    BN_bn2binpad(b, out, (int)L);
    BN_free(b);
}

static void test_rfc6979(void) {
    for (size_t i = 0; i < sizeof RFC / sizeof RFC[0]; i++) {
        const rfc_case *v = &RFC[i];
        size_t L = tabai_ec_scalar_bytes(v->c);
        uint8_t sk[66], pk[MAXB], want[MAXB], sig[132], exp[132], dg[64];
        hex_to(sk, L, v->x);
        want[0] = 4;
        hex_to(want + 1, L, v->ux);
        hex_to(want + 1 + L, L, v->uy);
        CHECK(tabai_ec_public_key(v->c, pk, 1 + 2 * L, sk) == TABAI_OK, "rfc6979 pk");
        CHECK(!memcmp(pk, want, 1 + 2 * L), "rfc6979 public key");
        EC_GROUP *g = EC_GROUP_new_by_curve_name(v->nid);
        EC_KEY *k = ossl_key(g, sk, L);
        for (int j = 0; j < 2 && v->sig[j].r; j++) {
            unsigned dl = 0;
            EVP_Digest("sample", 6, dg, &dl, v->sig[j].md(), NULL);
            hex_to(exp, L, v->sig[j].r);
            hex_to(exp + L, L, v->sig[j].s);
            /* an independent check of the typed vector: OpenSSL verifies it */
            ECDSA_SIG *s = ECDSA_SIG_new();
            ECDSA_SIG_set0(s, BN_bin2bn(exp, (int)L, NULL), BN_bin2bn(exp + L, (int)L, NULL));
            CHECK(ECDSA_do_verify(dg, (int)dl, s, k) == 1, "rfc6979 vector verifies");
            ECDSA_SIG_free(s);
            CHECK(tabai_ecdsa_sign_digest(v->c, sig, sk, dg, dl, v->sig[j].h, NULL, 0, 0) ==
                      TABAI_OK, "rfc6979 sign");
            TU_CHECK(!memcmp(sig, exp, 2 * L), "rfc6979 signature byte for byte", L, TU_NOV);
        }
        EC_KEY_free(k);
        EC_GROUP_free(g);
    }
}

/* ---- bad input: the documented status, the output untouched ---- */
static int untouched(const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0xa5) return 0;
    return 1;
}

static void test_errors(const curve_case *cc, const EC_GROUP *g, size_t L) {
    tabai_curve c = cc->c;
    uint8_t out[MAXB + 8], sk[66], pk[MAXB], bad[MAXB], dg[32] = {1};
    CHECK(tabai_ec_keypair(c, sk, pk) == TABAI_OK, "keypair");
    size_t PL = 1 + 2 * L;
#define EXPECT(call, st, what)                                                               \
    do {                                                                                      \
        memset(out, 0xa5, sizeof out);                                                        \
        CHECK((call) == (st), what);                                                          \
        CHECK(untouched(out, sizeof out), what ": output untouched");                        \
    } while (0)
    EXPECT(tabai_ec_public_key((tabai_curve)9, out, PL, sk), TABAI_ERR_CURVE, "curve");
    EXPECT(tabai_ecdh((tabai_curve)0, out, sk, pk, PL), TABAI_ERR_CURVE, "curve");
    EXPECT(tabai_ec_public_key(c, out, PL, NULL), TABAI_ERR_NULL, "null sk");
    EXPECT(tabai_ec_public_key(c, out, PL + 1, sk), TABAI_ERR_SIZE, "pk_len");
    /* d = 0, d = n, d = 2^(8L) - 1 */
    uint8_t d[66];
    memset(d, 0, L);
    EXPECT(tabai_ec_public_key(c, out, PL, d), TABAI_ERR_SCALAR, "d = 0");
    EXPECT(tabai_ecdh(c, out, d, pk, PL), TABAI_ERR_SCALAR, "ecdh d = 0");
    EXPECT(tabai_ecdsa_sign_digest(c, out, d, dg, 32, cc->h, NULL, 0, 0), TABAI_ERR_SCALAR,
           "sign d = 0");
    BN_bn2binpad(EC_GROUP_get0_order(g), d, (int)L);
    EXPECT(tabai_ec_public_key(c, out, PL, d), TABAI_ERR_SCALAR, "d = n");
    EXPECT(tabai_ecdh(c, out, d, pk, PL), TABAI_ERR_SCALAR, "ecdh d = n");
    memset(d, 0xff, L);
    EXPECT(tabai_ecdsa_sign_digest(c, out, d, dg, 32, cc->h, NULL, 0, 0), TABAI_ERR_SCALAR,
           "sign d > n");
    EXPECT(tabai_ecdsa_sign_digest(c, out, sk, dg, 32, (tabai_hash)99, NULL, 0, 0),
           TABAI_ERR_KERNEL, "unknown hash");
    /* public keys: bad prefix, wrong length, off the curve, x = p, infinity */
    memcpy(bad, pk, PL);
    bad[0] = 5;
    EXPECT(tabai_ec_public_key_check(c, out, bad, PL), TABAI_ERR_POINT, "prefix");
    EXPECT(tabai_ecdh(c, out, sk, bad, PL), TABAI_ERR_POINT, "ecdh prefix");
    EXPECT(tabai_ec_public_key_check(c, out, pk, PL - 1), TABAI_ERR_POINT, "length");
    memcpy(bad, pk, PL);
    bad[PL - 1] ^= 1;
    EXPECT(tabai_ec_public_key_check(c, out, bad, PL), TABAI_ERR_POINT, "off curve");
    EXPECT(tabai_ecdh(c, out, sk, bad, PL), TABAI_ERR_POINT, "ecdh off curve");
    EXPECT(tabai_ec_point_mul(c, out, sk, L, bad, PL), TABAI_ERR_POINT, "mul off curve");
    EXPECT(tabai_ec_point_add(c, out, bad, PL, pk, PL), TABAI_ERR_POINT, "add off curve");
    uint8_t sig[132];
    memset(sig, 1, sizeof sig);
    CHECK(tabai_ecdsa_verify_digest_vartime(c, bad, PL, dg, 32, sig, 0) == TABAI_ERR_POINT,
          "verify off curve");
    BIGNUM *P = BN_new();
    EC_GROUP_get_curve(g, P, NULL, NULL, bnctx);
    bad[0] = 2;
    BN_bn2binpad(P, bad + 1, (int)L);
    EXPECT(tabai_ec_public_key_check(c, out, bad, 1 + L), TABAI_ERR_POINT, "x = p");
    memcpy(bad, pk, PL);
    BN_bn2binpad(P, bad + 1 + L, (int)L);
    EXPECT(tabai_ec_public_key_check(c, out, bad, PL), TABAI_ERR_POINT, "y = p");
    BN_free(P);
    bad[0] = 0;
    EXPECT(tabai_ec_public_key_check(c, out, bad, 1), TABAI_ERR_POINT, "infinity");
    EXPECT(tabai_ecdh(c, out, sk, bad, 1), TABAI_ERR_POINT, "ecdh infinity");
    /* compressed x with no square root: the first x of OpenSSL's rejection */
    uint8_t enc[67] = {0};
    enc[0] = 2;
    EC_POINT *Q = EC_POINT_new(g);
    for (unsigned v = 0; v < 64; v++) {
        enc[L] = (uint8_t)v;
        ERR_set_mark();
        int ok = EC_POINT_oct2point(g, Q, enc, 1 + L, bnctx);
        ERR_pop_to_mark();
        if (!ok) {
            EXPECT(tabai_ec_public_key_check(c, out, enc, 1 + L), TABAI_ERR_POINT, "no root");
            break;
        }
    }
    EC_POINT_free(Q);
#undef EXPECT
}

/* width-w NAF digits (2 <= w <= 14) of random and edge scalars of 1 to 9 limbs against their
 * definition: sum d_i 2^i = k, every digit 0 or odd with |d| < 2^(w-1), a non-zero digit
 * followed by w - 1 zeros, the top digit non-zero and the count returned one past it */
static void test_wnaf(void) {
    mpz_t k, s, t;
    mpz_inits(k, s, t, NULL);
    for (size_t it = 0; it < tu_iters(400); it++) {
        const size_t n = 1 + tu_below(TABAI_EC_LIMBS);
        const unsigned w = 2 + (unsigned)tu_below(13);
        uint64_t K[TABAI_EC_LIMBS];
        tu_fill_any(K, n);
        int16_t naf[TABAI_EC_LIMBS * 64 + 2];
        size_t len = tabai_ec_wnaf_vartime(naf, K, n, w);
        int ok = len <= 64 * n + 1 && (len == 0 || naf[len - 1] != 0);
        mpz_set_ui(s, 0);
        for (size_t i = len; i-- > 0;) {
            int d = naf[i];
            mpz_mul_2exp(s, s, 1);
            if (d > 0) mpz_add_ui(s, s, (unsigned long)d);
            if (d < 0) mpz_sub_ui(s, s, (unsigned long)-d);
            if (d && (!(d & 1) || d >= (1 << (w - 1)) || d <= -(1 << (w - 1)))) ok = 0;
            for (size_t j = i + 1; d && j < i + w && j < len; j++) ok &= naf[j] == 0;
        }
        tu_to_mpz(k, K, n);
        TU_CHECK(ok && mpz_cmp(s, k) == 0, "wNAF digits", n, TU_V("k", K, n));
    }
    mpz_clears(k, s, t, NULL);
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    bnctx = BN_CTX_new();
    test_wnaf();
    test_p521_r58();
    test_p521_r52();
    test_p384_r52();
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const curve_case *cc = &CASES[i];
        EC_GROUP *g = EC_GROUP_new_by_curve_name(cc->nid);
        size_t L = (size_t)(EC_GROUP_get_degree(g) + 7) / 8;
        cname = tabai_curve_name(cc->c);
        tu_note("curve %s", cname);
        test_field(cc->c);
        test_params(cc, g, L);
        test_mul2(cc->c, g, L);
        test_mul_proj(cc->c);
        test_jmadd(cc, g, L);
        test_mul(cc, g, L);
        test_add(cc, g, L);
        test_ecdh(cc, g, L);
        test_ecdsa(cc, g, L);
        test_errors(cc, g, L);
        EC_GROUP_free(g);
    }
    tu_note("RFC 6979");
    test_rfc6979();
    BN_CTX_free(bnctx);
    return tu_finish();
}
