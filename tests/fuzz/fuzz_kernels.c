/* libFuzzer target: the explicitly chosen kernels (the seeds' delayed-carry multiplications
 * and the carry-save Ohta) against GMP.
 * Input: tier, kernel byte, n, a[n], b[n] (the digit-boundary class of fuzz.h is one byte
 * away), then for the Ohta kernels a modulus and two residues.
 * tabai_mul_with: TABAI_OK and a*b when tabai_kernel_available says the kernel runs here,
 * else TABAI_ERR_TIER / TABAI_ERR_KERNEL with r untouched. tabai_ohta_mul_with likewise. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static mpz_t A, B, Z, P;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t s) {
    static int init;
    if (!init) mpz_inits(A, B, Z, P, NULL), init = 1;
    fz_in in;
    fz_begin(&in, d, s);
    tabai_kernel k = (tabai_kernel)(fz_byte(&in) % TABAI_KERNEL_COUNT);
    size_t n = fz_size(&in, FZ_MAX);
    uint64_t *a = malloc(n * 8), *b = malloc(n * 8), *r = malloc(2 * n * 8);
    fz_clear_notes();
    fz_note_n(n);
    fz_limbs(&in, a, n);
    if (fz_byte(&in) & 1) memcpy(b, a, n * 8);
    else fz_limbs(&in, b, n);
    fz_note(0, "a", a, n), fz_note(1, "b", b, n);
    fz_to_mpz(A, a, n), fz_to_mpz(B, b, n);
    tabai_status avail = tabai_kernel_available(k);
    fz_arm(r, 2 * n);
    tabai_status st = tabai_mul_with(k, r, a, b, n);
    if (st == TABAI_OK) {
        FZ_CHECK(avail == TABAI_OK, "tabai_mul_with ran a kernel not available");
        mpz_mul(Z, A, B);
        FZ_CHECK(fz_eq_mpz(r, 2 * n, Z), tabai_kernel_name(k));
    } else {
        FZ_CHECK(st == TABAI_ERR_TIER || st == TABAI_ERR_KERNEL, "tabai_mul_with status");
        FZ_CHECK(avail != TABAI_OK || st == TABAI_ERR_KERNEL, "tabai_mul_with refused an available kernel");
        FZ_CHECK(fz_untouched(r, 2 * n), "tabai_mul_with wrote on error");
    }
    /* Ohta with the kernel: p >= 2 of up to 32 limbs */
    size_t pn = fz_size(&in, 32);
    uint64_t p[32], x[32], y[32], rr[32];
    fz_modulus(&in, p, pn, FZ_ANY);
    fz_to_mpz(P, p, pn);
    size_t mn = fz_norm(p, pn);
    if (mpz_cmp_ui(P, 2) >= 0) {
        tabai_ohta *o = malloc(sizeof *o);
        FZ_STATUS(tabai_ohta_init(o, p, pn), TABAI_OK, "tabai_ohta_init");
        int ok = fz_residue(&in, x, p, mn) & fz_residue(&in, y, p, mn);
        fz_note(2, "p", p, mn), fz_note(3, "x", x, mn), fz_note(4, "y", y, mn);
        fz_arm(rr, mn);
        st = tabai_ohta_mul_with(k, o, rr, x, y);
        if (st == TABAI_OK) {
            FZ_CHECK(ok, "tabai_ohta_mul_with accepted an unreduced operand");
            fz_to_mpz(A, x, mn), fz_to_mpz(B, y, mn);
            mpz_mul(Z, A, B), mpz_mod(Z, Z, P);
            FZ_CHECK(fz_eq_mpz(rr, mn, Z), tabai_kernel_name(k));
        } else {
            FZ_CHECK(fz_untouched(rr, mn), "tabai_ohta_mul_with wrote on error");
            FZ_CHECK(st == TABAI_ERR_KERNEL || st == TABAI_ERR_TIER || (!ok && st == TABAI_ERR_RANGE),
                     "tabai_ohta_mul_with status");
        }
        free(o);
    }
    free(a), free(b), free(r);
    return 0;
}
