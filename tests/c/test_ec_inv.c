/* Modular inversion by safegcd (src/mod/safegcd.c) and the curves' four inversions built on
 * it (src/ec/inv.c) against GMP's mpz_invert: for each curve's p and q, the named residue
 * classes (0, 1, p-1, p-2, R mod p, runs, edge limbs, near p, p/2), 2, powers of two, long
 * runs of ones and zeros and uniform values, in the field's form (Montgomery, or plain for
 * P-521), constant-time and variable-time, in place too; then the generic functions on odd
 * moduli of every bit length from 2 to 576 (the radix-2^62 limb boundaries included) and of
 * the test classes of moduli, at n = 1..9; the paired inversion of signing (tabai_ec_inv2_ct,
 * over tabai_modinv2_safegcd) on every pair of a field and a scalar class. 0 has no inverse
 * and gives 0. */
#include <stdio.h>
#include <string.h>

#include "ec/ec.h"
#include "ec/field.h"
#include "mod/mod.h"
#include "testutil.h"

static const tabai_curve CURVES[] = {TABAI_CURVE_P256, TABAI_CURVE_P384, TABAI_CURVE_P521,
                                     TABAI_CURVE_SECP256K1};

/* a[n] < m: the extra classes of this test (k selects one) */
static void extra_operand(uint64_t *a, const uint64_t *m, size_t n, size_t bits, int k) {
    memset(a, 0, n * 8);
    size_t s = tu_below(bits - 1), len = 1 + tu_below(bits - 1 - s);
    switch (k) {
    case 0: a[0] = 2; break;
    case 1: a[s / 64] = (uint64_t)1 << (s % 64); break; /* 2^s < m */
    case 2:                                               /* a run of ones */
        for (size_t i = s; i < s + len && i + 1 < bits; i++) a[i / 64] |= (uint64_t)1 << (i % 64);
        break;
    case 3: /* ones below bit bits - 1 with a run of zeros */
        for (size_t i = 0; i + 1 < bits; i++)
            if (i < s || i >= s + len) a[i / 64] |= (uint64_t)1 << (i % 64);
        break;
    default: /* m - 2^s: for s >= 31, one swap then 30 halvings, the packed f row of the
              * constant-time steps at its largest (safegcd.c) */
        a[s / 64] = (uint64_t)1 << (s % 64);
        tabai_sub_n(a, m, a, n);
        break;
    }
}
#define EXTRA_COUNT 5

/* one curve modulus: m = p (f = 0) or q (f = 1) */
static void check_curve(const tabai_ec_ctx *x, int f, mpz_t M, mpz_t A, mpz_t Z, mpz_t R2) {
    const tabai_ec_curve *c = x->c;
    const tabai_ec_mod *m = f ? &x->fq : &x->fp;
    size_t n = c->n, bits = f ? c->qbits : c->pbits;
    int plain = !f && c->form != TABAI_EC_FORM_MONT;
    tu_to_mpz(M, m->m, n);
    mpz_set_ui(R2, 1); /* the result is R^2 / A for the Montgomery form (A = a R) */
    if (!plain) mpz_mul_2exp(R2, R2, 128 * n), mpz_mod(R2, R2, M);
    size_t iters = tu_iters(40);
    for (int cls = 0; cls < TU_OP_COUNT + EXTRA_COUNT; cls++)
        for (size_t it = 0; it < (cls == TU_OP_UNIFORM ? 10 * iters : iters); it++) {
            uint64_t a[TABAI_EC_LIMBS] = {0}, r[TABAI_EC_LIMBS], s[TABAI_EC_LIMBS];
            if (cls < TU_OP_COUNT) tu_operand(a, m->m, n, cls);
            else extra_operand(a, m->m, n, bits, cls - TU_OP_COUNT);
            tu_to_mpz(A, a, n);
            if (mpz_sgn(A) == 0) mpz_set_ui(Z, 0);
            else mpz_invert(Z, A, M), mpz_mul(Z, Z, R2), mpz_mod(Z, Z, M);
            const char *what = f ? "scalar_inv_ct" : "fe_inv_ct";
            if (f) tabai_ec_scalar_inv_ct(x, r, a);
            else tabai_ec_fe_inv_ct(x, r, a);
            TU_CHECK(tu_eq_mpz(r, n, Z), what, n, TU_V("a", a, n));
            memcpy(s, a, sizeof s);
            if (f) tabai_ec_scalar_inv_ct(x, s, s);
            else tabai_ec_fe_inv_ct(x, s, s);
            TU_CHECK(tu_eq_mpz(s, n, Z), "inv_ct in place", n, TU_V("a", a, n));
            /* the variable-time ones (the signature's s; the verifier's odd multiples' Z) */
            uint64_t v[TABAI_EC_LIMBS];
            if (f) tabai_ec_scalar_inv_vartime(x, v, a);
            else tabai_ec_fe_inv_vartime(x, v, a);
            TU_CHECK(tu_eq_mpz(v, n, Z), f ? "scalar_inv_vartime" : "fe_inv_vartime", n,
                     TU_V("a", a, n));
            memcpy(v, a, sizeof v);
            if (f) tabai_ec_scalar_inv_vartime(x, v, v);
            else tabai_ec_fe_inv_vartime(x, v, v);
            TU_CHECK(tu_eq_mpz(v, n, Z), "inv_vartime in place", n, TU_V("a", a, n));
            /* the Fermat exponentiation it replaced agrees */
            if (it == 0) {
                tabai_ec_pow(m, s, a, f ? c->q_minus2 : c->p_minus2, bits);
                TU_CHECK(tu_eq_n(s, r, n), "safegcd = Fermat", n, TU_V("a", a, n));
            }
        }
}

/* tabai_ec_inv2_ct (a field element and a scalar at once) against GMP and the single
 * inversions, on every pair of the operand classes, in place too */
static void check_pair(const tabai_ec_ctx *x, mpz_t M, mpz_t A, mpz_t Z, mpz_t R2) {
    const tabai_ec_curve *c = x->c;
    size_t n = c->n;
    for (int ca = 0; ca < TU_OP_COUNT + EXTRA_COUNT; ca++)
        for (int cb = 0; cb < TU_OP_COUNT + EXTRA_COUNT; cb++)
            for (size_t it = 0; it < tu_iters(2); it++) {
                uint64_t a[2][TABAI_EC_LIMBS] = {{0}}, r[2][TABAI_EC_LIMBS], s[TABAI_EC_LIMBS];
                for (int f = 0; f < 2; f++) {
                    const tabai_ec_mod *m = f ? &x->fq : &x->fp;
                    int cls = f ? cb : ca;
                    if (cls < TU_OP_COUNT) tu_operand(a[f], m->m, n, cls);
                    else extra_operand(a[f], m->m, n, f ? c->qbits : c->pbits, cls - TU_OP_COUNT);
                }
                tabai_ec_inv2_ct(x, r[0], a[0], r[1], a[1]);
                for (int f = 0; f < 2; f++) {
                    const tabai_ec_mod *m = f ? &x->fq : &x->fp;
                    tu_to_mpz(M, m->m, n);
                    tu_to_mpz(A, a[f], n);
                    mpz_set_ui(R2, 1);
                    if (f || c->form == TABAI_EC_FORM_MONT)
                        mpz_mul_2exp(R2, R2, 128 * n), mpz_mod(R2, R2, M);
                    if (mpz_sgn(A) == 0) mpz_set_ui(Z, 0);
                    else mpz_invert(Z, A, M), mpz_mul(Z, Z, R2), mpz_mod(Z, Z, M);
                    TU_CHECK(tu_eq_mpz(r[f], n, Z), f ? "inv2_ct scalar" : "inv2_ct field", n,
                             TU_V("a", a[f], n));
                    if (f) tabai_ec_scalar_inv_ct(x, s, a[f]);
                    else tabai_ec_fe_inv_ct(x, s, a[f]);
                    TU_CHECK(tu_eq_n(s, r[f], n), "inv2_ct = the single inversion", n,
                             TU_V("a", a[f], n));
                }
                uint64_t b[2][TABAI_EC_LIMBS];
                memcpy(b, a, sizeof b);
                tabai_ec_inv2_ct(x, b[0], b[0], b[1], b[1]);
                TU_CHECK(tu_eq_n(b[0], r[0], n) && tu_eq_n(b[1], r[1], n), "inv2_ct in place", n,
                         TU_V("a", a[0], n));
            }
}

/* the generic functions: r = a^-1 mod m (plain), a = 0 gives 0 */
static void check_generic(const uint64_t *m, size_t n, size_t count, mpz_t M, mpz_t A,
                          mpz_t Z, mpz_t G) {
    size_t bits = tabai_bitlen_vartime(m, n);
    uint64_t minv = 1; /* -m^-1 mod 2^64 by Newton */
    uint64_t y = m[0];
    for (int i = 0; i < 6; i++) y *= 2 - m[0] * y;
    minv = 0 - y;
    tu_to_mpz(M, m, n);
    for (size_t it = 0; it < count; it++) {
        uint64_t a[9] = {0}, r[9], r2[9];
        int cls = (int)(it % (TU_OP_COUNT + EXTRA_COUNT));
        if (bits < 3 || cls < TU_OP_COUNT) tu_operand(a, m, n, cls % TU_OP_COUNT);
        else extra_operand(a, m, n, bits, cls - TU_OP_COUNT);
        tu_to_mpz(A, a, n);
        mpz_gcd(G, A, M);
        if (mpz_cmp_ui(G, 1) != 0 && mpz_sgn(A) != 0) continue; /* no inverse: unspecified */
        if (mpz_sgn(A) == 0 || mpz_cmp_ui(M, 1) == 0) mpz_set_ui(Z, 0);
        else mpz_invert(Z, A, M);
        tabai_modinv_safegcd(r, a, m, minv, bits, n);
        TU_CHECK(tu_eq_mpz(r, n, Z), "modinv_safegcd", n, TU_V("m", m, n), TU_V("a", a, n));
        tabai_modinv_safegcd_vartime(r2, a, m, minv, bits, n);
        TU_CHECK(tu_eq_mpz(r2, n, Z), "modinv_safegcd_vartime", n, TU_V("m", m, n),
                 TU_V("a", a, n));
    }
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    mpz_t M, A, Z, R2;
    mpz_inits(M, A, Z, R2, NULL);
    for (size_t i = 0; i < sizeof CURVES / sizeof CURVES[0]; i++) {
        const tabai_ec_curve *c = tabai_ec_curve_get(CURVES[i]);
        tabai_ec_ctx x;
        tabai_ec_ctx_init(&x, c);
        tu_note("curve %s", c->name);
        check_curve(&x, 0, M, A, Z, R2);
        check_curve(&x, 1, M, A, Z, R2);
        check_pair(&x, M, A, Z, R2);
    }
    tu_note("odd moduli of every bit length");
    for (size_t bits = 2; bits <= 576; bits++) {
        uint64_t m[9] = {0};
        size_t n = (bits + 63) / 64;
        for (size_t j = 0; j < n; j++) m[j] = tu_rand();
        if (bits % 64) m[n - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
        m[(bits - 1) / 64] |= (uint64_t)1 << ((bits - 1) % 64);
        m[0] |= 1;
        check_generic(m, n, tu_iters(bits % 62 < 3 || bits % 62 > 59 ? 60 : 8), M, A, Z, R2);
        /* 2^bits - 1 */
        for (size_t j = 0; j < n; j++) m[j] = ~(uint64_t)0;
        if (bits % 64) m[n - 1] = ((uint64_t)1 << (bits % 64)) - 1;
        check_generic(m, n, tu_iters(4), M, A, Z, R2);
    }
    tu_note("odd moduli of the test classes");
    for (size_t n = 1; n <= 9; n++)
        for (int cls = 0; cls < TU_MOD_COUNT; cls++) {
            uint64_t m[9];
            tu_modulus(m, n, cls, TU_ODD);
            check_generic(m, n, tu_iters(30), M, A, Z, R2);
        }
    mpz_clears(M, A, Z, R2, NULL);
    return tu_finish();
}
