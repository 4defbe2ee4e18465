/* libFuzzer target: the explicitly chosen kernels (the seeds' delayed-carry multiplications
 * and the carry-save Ohta) against GMP.
 * Input: tier, kernel byte, n, a[n], b[n] (the digit-boundary class of fuzz.h is one byte
 * away), then for the Ohta kernels a modulus and two residues.
 * tabai_mul_with: TABAI_OK and a*b when tabai_kernel_available says the kernel runs here,
 * else TABAI_ERR_TIER / TABAI_ERR_KERNEL with r untouched. tabai_ohta_mul_with likewise.
 * Then, at tier ifma on an IFMA CPU, the single-number radix-2^52 kernels (src/ifma/r52.h):
 * an odd modulus of 16 .. 128 limbs, two residues, the width from the kernel byte:
 * mont_mul, mont_sqr and the two-stream mul2 / sqr2, r < 2p and r R == a b mod p. */
#include <stdlib.h>
#include <string.h>

#include "digits.h"
#include "fuzz.h"
#include "mod/powmod_r52.h"

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
    if (tabai_r52_usable()) {
        size_t pn = 16 + fz_size(&in, 113) - 1;
        uint64_t *q = malloc(pn * 8), *u = malloc(pn * 8), *v = malloc(pn * 8);
        fz_modulus(&in, q, pn, FZ_ODD);
        q[pn - 1] |= (uint64_t)1 << 63; /* exactly pn limbs: 1024 .. 8192 bits */
        fz_residue(&in, u, q, pn);
        fz_residue(&in, v, q, pn);
        tabai_mont *mc = malloc(sizeof *mc);
        tabai_r52 *c = aligned_alloc(64, sizeof *c);
        FZ_STATUS(tabai_mont_init(mc, q, pn), TABAI_OK, "tabai_mont_init (r52)");
        const unsigned vl = (k & 1) && tabai_r52_digits(mc->bits, pn, 4) <= 92 ? 4 : 8;
        FZ_CHECK(tabai_r52_init(c, mc, vl, 0) == 0, "tabai_r52_init");
        fz_note(2, "p", q, pn), fz_note(3, "x", u, pn), fz_note(4, "y", v, pn);
        const size_t dd = c->dd;
        static uint64_t bx[TABAI_R52_BUF], by[TABAI_R52_BUF], br[TABAI_R52_BUF], br2[TABAI_R52_BUF];
        uint64_t *x = bx + TABAI_R52_PAD, *y = by + TABAI_R52_PAD, *o = br + TABAI_R52_PAD,
                 *o2 = br2 + TABAI_R52_PAD;
        /* the kernels read the pads (zero) around dd digits: a longer earlier input must not
         * leave digits there */
        memset(bx, 0, sizeof bx), memset(by, 0, sizeof by);
        const uint64_t *src[1] = {u};
        tabai_mb_to_digits(x, 1, 52, dd, src, pn);
        src[0] = v;
        tabai_mb_to_digits(y, 1, 52, dd, src, pn);
        fz_to_mpz(A, u, pn), fz_to_mpz(B, v, pn), fz_to_mpz(P, q, pn);
        for (int op = 0; op < 4; op++) {
            const uint64_t *p52 = tabai_r52_p(c);
            if (op == 0) tabai_mont_mul_r52n_ifma(o, x, y, p52, c->k0, dd, vl);
            if (op == 1) tabai_mont_sqr_r52n_ifma(o, x, p52, c->k0, dd, vl);
            if (op == 2) tabai_mont_mul2_r52n_ifma(o, o2, x, y, y, x, p52, p52, c->k0, c->k0, dd, vl);
            if (op == 3) tabai_mont_sqr2_r52n_ifma(o, o2, x, x, p52, p52, c->k0, c->k0, dd, vl);
            for (int w = 0; w < (op >= 2 ? 2 : 1); w++) {
                const uint64_t *res = w ? o2 : o;
                int ok = 1;
                mpz_set_ui(Z, 0);
                for (size_t i = dd; i-- > 0;) {
                    ok &= (res[i] >> 52) == 0;
                    mpz_mul_2exp(Z, Z, 52);
                    mpz_add_ui(Z, Z, res[i]);
                }
                mpz_mul_2exp(B, P, 1);
                ok &= mpz_cmp(Z, B) < 0;
                mpz_mul_2exp(Z, Z, 52 * dd);
                fz_to_mpz(B, v, pn);
                mpz_mul(B, A, op & 1 ? A : B);
                mpz_sub(Z, Z, B);
                ok &= mpz_divisible_p(Z, P);
                FZ_CHECK(ok, op == 0 ? "mont_mul_r52n_ifma" : op == 1 ? "mont_sqr_r52n_ifma"
                             : op == 2 ? "mont_mul2_r52n_ifma" : "mont_sqr2_r52n_ifma");
                fz_to_mpz(B, v, pn);
            }
        }
        free(q), free(u), free(v), free(mc), free(c);
    }
    free(a), free(b), free(r);
    return 0;
}
