/* libFuzzer target: exponentiation and inversion against GMP.
 * Input: tier, n, a modulus m[n] (any parity), a base residue, an exponent of up to n limbs
 * (limb count and bit length from the input, so every window size is reached).
 * Checks tabai_powmod and tabai_powmod_vartime (any m >= 1, base of any size) against
 * mpz_powm; the context forms tabai_mont_powmod (odd m) and tabai_ohta_powmod (m >= 2) with
 * their _vartime twins; tabai_inv_vartime against mpz_invert (TABAI_ERR_NOINV when there is
 * none, output untouched); tabai_mont_inv_prime when m is a probable prime. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static mpz_t M, Bz, E, Z;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t s) {
    static int init;
    if (!init) mpz_inits(M, Bz, E, Z, NULL), init = 1;
    fz_in in;
    fz_begin(&in, d, s);
    /* m capped at 32 limbs so that each input stays fast; the exponent up to the modulus
     * length (every window size of the constant-time and sliding-window paths) */
    size_t n = fz_size(&in, 32);
    uint64_t m[32], b[32], e[32], r[32];
    fz_clear_notes();
    fz_note_n(n);
    fz_modulus(&in, m, n, FZ_ANY);
    fz_to_mpz(M, m, n);
    size_t mn = fz_norm(m, n);
    if (mn == 0) return 0;
    fz_limbs(&in, b, n); /* any size: tabai_powmod reduces it */
    size_t en = fz_size(&in, n);
    fz_limbs(&in, e, en);
    size_t ebits = ((size_t)fz_byte(&in) << 8 | fz_byte(&in)) % (64 * en + 1);
    if (ebits < 64 * en) e[ebits / 64] &= ((uint64_t)1 << (ebits % 64)) - 1;
    for (size_t i = ebits / 64 + (ebits % 64 != 0); i < en; i++) e[i] = 0;
    fz_note(0, "m", m, n), fz_note(1, "b", b, n), fz_note(2, "e", e, en);
    fz_to_mpz(Bz, b, n), fz_to_mpz(E, e, en);
    mpz_powm(Z, Bz, E, M);

    FZ_STATUS(tabai_powmod(r, b, e, ebits, m, n), TABAI_OK, "tabai_powmod");
    FZ_CHECK(fz_eq_mpz(r, n, Z), "tabai_powmod");
    FZ_STATUS(tabai_powmod_vartime(r, b, e, ebits, m, n), TABAI_OK, "tabai_powmod_vartime");
    FZ_CHECK(fz_eq_mpz(r, n, Z), "tabai_powmod_vartime");

    /* context forms with a reduced base */
    uint64_t br[32];
    int b_ok = fz_residue(&in, br, m, mn);
    fz_to_mpz(Bz, br, mn);
    mpz_powm(Z, Bz, E, M);
    const size_t sl = tabai_powmod_scratch_limbs(mn, ebits);
    uint64_t *scratch = malloc(sl * 8);
    if (mpz_cmp_ui(M, 2) >= 0) {
        tabai_ohta *o = malloc(sizeof *o);
        FZ_STATUS(tabai_ohta_init(o, m, n), TABAI_OK, "tabai_ohta_init");
        fz_arm(r, mn);
        FZ_STATUS(tabai_ohta_powmod(o, r, br, e, ebits, scratch, sl), b_ok ? TABAI_OK : TABAI_ERR_RANGE,
                  "tabai_ohta_powmod");
        FZ_CHECK(b_ok ? fz_eq_mpz(r, mn, Z) : fz_untouched(r, mn), "tabai_ohta_powmod");
        if (b_ok) {
            tabai_ohta_powmod_vartime(o, r, br, e, ebits, scratch, sl);
            FZ_CHECK(fz_eq_mpz(r, mn, Z), "tabai_ohta_powmod_vartime");
        }
        free(o);
    }
    if (mpz_odd_p(M) && mpz_cmp_ui(M, 3) >= 0) {
        tabai_mont *c = malloc(sizeof *c);
        FZ_STATUS(tabai_mont_init(c, m, n), TABAI_OK, "tabai_mont_init");
        fz_arm(r, mn);
        FZ_STATUS(tabai_mont_powmod(c, r, br, e, ebits, scratch, sl), b_ok ? TABAI_OK : TABAI_ERR_RANGE,
                  "tabai_mont_powmod");
        FZ_CHECK(b_ok ? fz_eq_mpz(r, mn, Z) : fz_untouched(r, mn), "tabai_mont_powmod");
        if (b_ok) {
            tabai_mont_powmod_vartime(c, r, br, e, ebits, scratch, sl);
            FZ_CHECK(fz_eq_mpz(r, mn, Z), "tabai_mont_powmod_vartime");
            if (mn <= 8 && mpz_probab_prime_p(M, 20)) {
                fz_arm(r, mn);
                tabai_status st = tabai_mont_inv_prime(c, r, br);
                if (mpz_sgn(Bz) == 0) {
                    FZ_STATUS(st, TABAI_ERR_NOINV, "tabai_mont_inv_prime(0)");
                    FZ_CHECK(fz_untouched(r, mn), "tabai_mont_inv_prime wrote on error");
                } else {
                    FZ_STATUS(st, TABAI_OK, "tabai_mont_inv_prime");
                    mpz_invert(Z, Bz, M);
                    FZ_CHECK(fz_eq_mpz(r, mn, Z), "tabai_mont_inv_prime");
                }
            }
        }
        /* one limb short: TABAI_ERR_SCRATCH, nothing written */
        fz_arm(r, mn);
        FZ_STATUS(tabai_mont_powmod(c, r, br, e, ebits, scratch, sl - 1), TABAI_ERR_SCRATCH,
                  "tabai_mont_powmod short scratch");
        FZ_CHECK(fz_untouched(r, mn), "tabai_mont_powmod short scratch wrote");
        free(c);
    }
    free(scratch);
    /* inv_vartime, any modulus >= 2 */
    if (b_ok && mpz_cmp_ui(M, 2) >= 0) {
        fz_arm(r, mn);
        tabai_status st = tabai_inv_vartime(r, br, m, mn);
        if (mpz_invert(Z, Bz, M)) {
            FZ_STATUS(st, TABAI_OK, "tabai_inv_vartime");
            FZ_CHECK(fz_eq_mpz(r, mn, Z), "tabai_inv_vartime");
        } else {
            FZ_STATUS(st, TABAI_ERR_NOINV, "tabai_inv_vartime (no inverse)");
            FZ_CHECK(fz_untouched(r, mn), "tabai_inv_vartime wrote on error");
        }
    }
    return 0;
}
