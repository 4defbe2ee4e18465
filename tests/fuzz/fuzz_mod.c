/* libFuzzer target: Montgomery and Ohta contexts against GMP.
 * Input: tier, n, a modulus p[n] (any parity), residues a, b (possibly unreduced, for the
 * error paths), a double-length x for tabai_ohta_reduce.
 * Montgomery (odd p >= 3): init, mul, sqr, to, from, add, sub, neg; Ohta (p >= 2): init, mul,
 * sqr, reduce. An unreduced operand must give TABAI_ERR_RANGE with r untouched; an even, 0
 * or 1 modulus TABAI_ERR_MODULUS for Montgomery. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static mpz_t P, A, B, Z, Rinv;

/* z = x * y * R^-1 mod p (mont) or x * y mod p (ohta) */
static void want_mul(mpz_t z, const mpz_t x, const mpz_t y, int mont) {
    mpz_mul(z, x, y);
    if (mont) mpz_mul(z, z, Rinv);
    mpz_mod(z, z, P);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t s) {
    static int init;
    if (!init) mpz_inits(P, A, B, Z, Rinv, NULL), init = 1;
    fz_in in;
    fz_begin(&in, d, s);
    size_t n = fz_size(&in, FZ_MAX);
    uint64_t p[FZ_MAX], a[FZ_MAX], b[FZ_MAX], r[FZ_MAX], x[2 * FZ_MAX];
    fz_clear_notes();
    fz_note_n(n);
    fz_modulus(&in, p, n, FZ_ANY);
    fz_note(0, "p", p, n);
    fz_to_mpz(P, p, n);
    size_t pn = fz_norm(p, n);
    int a_ok = pn ? fz_residue(&in, a, p, pn) : 0;
    int b_ok = pn ? fz_residue(&in, b, p, pn) : 0;
    fz_note(1, "a", a, pn), fz_note(2, "b", b, pn);
    fz_to_mpz(A, a, pn), fz_to_mpz(B, b, pn);

    /* Montgomery */
    tabai_mont *mc = malloc(sizeof *mc);
    tabai_status st = tabai_mont_init(mc, p, n);
    int mont_ok = mpz_odd_p(P) && mpz_cmp_ui(P, 3) >= 0;
    FZ_STATUS(st, mont_ok ? TABAI_OK : TABAI_ERR_MODULUS, "tabai_mont_init");
    if (mont_ok) {
        FZ_CHECK(mc->n == pn, "tabai_mont_init: n");
        mpz_set_ui(Z, 1);
        mpz_mul_2exp(Z, Z, 64 * pn);
        FZ_CHECK(mpz_invert(Rinv, Z, P), "R invertible");
        tabai_status want = a_ok && b_ok ? TABAI_OK : TABAI_ERR_RANGE;
        fz_arm(r, pn);
        FZ_STATUS(tabai_mont_mul(mc, r, a, b), want, "tabai_mont_mul");
        if (want == TABAI_OK) {
            want_mul(Z, A, B, 1);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_mont_mul");
            memcpy(r, a, pn * 8);
            tabai_mont_mul(mc, r, r, b);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_mont_mul r == a");
            tabai_mont_add(mc, r, a, b);
            mpz_add(Z, A, B), mpz_mod(Z, Z, P);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_mont_add");
            tabai_mont_sub(mc, r, a, b);
            mpz_sub(Z, A, B), mpz_mod(Z, Z, P);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_mont_sub");
        } else {
            FZ_CHECK(fz_untouched(r, pn), "tabai_mont_mul wrote on error");
        }
        want = a_ok ? TABAI_OK : TABAI_ERR_RANGE;
        fz_arm(r, pn);
        FZ_STATUS(tabai_mont_sqr(mc, r, a), want, "tabai_mont_sqr");
        if (a_ok) {
            want_mul(Z, A, A, 1);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_mont_sqr");
            tabai_mont_to(mc, r, a);
            mpz_mul_2exp(Z, A, 64 * pn), mpz_mod(Z, Z, P);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_mont_to");
            tabai_mont_from(mc, r, a);
            mpz_mul(Z, A, Rinv), mpz_mod(Z, Z, P);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_mont_from");
            tabai_mont_neg(mc, r, a);
            mpz_neg(Z, A), mpz_mod(Z, Z, P);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_mont_neg");
        } else {
            FZ_CHECK(fz_untouched(r, pn), "tabai_mont_sqr wrote on error");
        }
    }
    free(mc);

    /* Ohta */
    tabai_ohta *oc = malloc(sizeof *oc);
    st = tabai_ohta_init(oc, p, n);
    int ohta_ok = mpz_cmp_ui(P, 2) >= 0;
    FZ_STATUS(st, ohta_ok ? TABAI_OK : TABAI_ERR_MODULUS, "tabai_ohta_init");
    if (ohta_ok) {
        tabai_status want = a_ok && b_ok ? TABAI_OK : TABAI_ERR_RANGE;
        fz_arm(r, pn);
        FZ_STATUS(tabai_ohta_mul(oc, r, a, b), want, "tabai_ohta_mul");
        if (want == TABAI_OK) {
            want_mul(Z, A, B, 0);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_ohta_mul");
        } else {
            FZ_CHECK(fz_untouched(r, pn), "tabai_ohta_mul wrote on error");
        }
        if (a_ok) {
            tabai_ohta_sqr(oc, r, a);
            want_mul(Z, A, A, 0);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_ohta_sqr");
        }
        /* reduce: x = hi * 2^(64 pn) + lo, hi a residue (maybe unreduced) */
        fz_limbs(&in, x, pn);
        memcpy(x + pn, a, pn * 8);
        fz_note(3, "x", x, 2 * pn);
        fz_to_mpz(Z, x, 2 * pn);
        fz_arm(r, pn);
        FZ_STATUS(tabai_ohta_reduce(oc, r, x), a_ok ? TABAI_OK : TABAI_ERR_RANGE,
                  "tabai_ohta_reduce");
        if (a_ok) {
            mpz_mod(Z, Z, P);
            FZ_CHECK(fz_eq_mpz(r, pn, Z), "tabai_ohta_reduce");
        } else {
            FZ_CHECK(fz_untouched(r, pn), "tabai_ohta_reduce wrote on error");
        }
    }
    free(oc);
    return 0;
}
