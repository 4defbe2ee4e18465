/* libFuzzer target: the batch API (tabai_modmul_batch, tabai_powmod_batch) against
 * GMP. At tier ifma the groups run in the multi-buffer IFMA kernels (8 lanes, or 4 for a last
 * group of at most 4), below it in the scalar loop; the tier byte of fz_begin picks it.
 * Input: tier, n (capped at 64 limbs: the multi-buffer kernels go to 4096 bits), count (1..12),
 * an exponent length (0 .. 64n bits), then per operation a modulus (odd) and two residues (any of them may
 * be out of range: then the status must be TABAI_ERR_RANGE and nothing written), and an
 * exponent. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAXC 12
#define MAXN 64

static mpz_t A, B, E, P, Z;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t s) {
    static int init;
    if (!init) mpz_inits(A, B, E, P, Z, NULL), init = 1;
    fz_in in;
    fz_begin(&in, d, s);
    const size_t n = fz_size(&in, MAXN), count = 1 + fz_byte(&in) % MAXC;
    /* exponents up to the modulus length: every window size of the batch engine */
    const size_t ebits = ((size_t)fz_byte(&in) << 8 | fz_byte(&in)) % (64 * n + 1);
    const size_t en = ebits ? (ebits + 63) / 64 : 1;
    static uint64_t m[MAXC][MAXN], a[MAXC][MAXN], b[MAXC][MAXN], e[MAXC][MAXN], r[MAXC][MAXN];
    uint64_t *rp[MAXC];
    const uint64_t *mp[MAXC], *ap[MAXC], *bp[MAXC], *ep[MAXC];
    int ok_a = 1, ok_b = 1;
    fz_clear_notes();
    fz_note_n(n);
    for (size_t i = 0; i < count; i++) {
        size_t mn = 1 + fz_byte(&in) % n; /* moduli of mixed lengths in one batch */
        memset(m[i], 0, sizeof m[i]);
        memset(a[i], 0, sizeof a[i]);
        memset(b[i], 0, sizeof b[i]);
        fz_modulus(&in, m[i], mn, FZ_ODD);
        if (fz_norm(m[i], mn) == 1 && m[i][0] < 3) m[i][0] = 3;
        ok_a &= fz_residue(&in, a[i], m[i], mn);
        ok_b &= fz_residue(&in, b[i], m[i], mn);
        fz_limbs(&in, e[i], en);
        if (ebits % 64) e[i][en - 1] &= ((uint64_t)1 << (ebits % 64)) - 1;
        if (!ebits) e[i][0] = 0; /* ebits = 0: the exponent 0 */
        rp[i] = r[i], mp[i] = m[i], ap[i] = a[i], bp[i] = b[i], ep[i] = e[i];
        if (i == 0) fz_note(0, "m0", m[0], n), fz_note(1, "a0", a[0], n), fz_note(2, "b0", b[0], n);
    }
    for (size_t i = 0; i < count; i++) fz_arm(r[i], n);
    tabai_status st = tabai_modmul_batch(count, rp, ap, bp, mp, n);
    if (!(ok_a && ok_b)) {
        FZ_STATUS(st, TABAI_ERR_RANGE, "tabai_modmul_batch on an unreduced operand");
        for (size_t i = 0; i < count; i++) FZ_CHECK(fz_untouched(r[i], n), "modmul_batch wrote on error");
    } else {
        FZ_STATUS(st, TABAI_OK, "tabai_modmul_batch");
        for (size_t i = 0; i < count; i++) {
            fz_to_mpz(A, a[i], n), fz_to_mpz(B, b[i], n), fz_to_mpz(P, m[i], n);
            mpz_mul(Z, A, B), mpz_mod(Z, Z, P);
            FZ_CHECK(fz_eq_mpz(r[i], n, Z), "tabai_modmul_batch");
        }
    }
    for (size_t i = 0; i < count; i++) fz_arm(r[i], n);
    st = tabai_powmod_batch(count, rp, bp, ep, ebits, mp, n, 1 + (unsigned)(count & 1));
    if (!ok_b) {
        FZ_STATUS(st, TABAI_ERR_RANGE, "tabai_powmod_batch on an unreduced base");
        for (size_t i = 0; i < count; i++) FZ_CHECK(fz_untouched(r[i], n), "powmod_batch wrote on error");
    } else {
        FZ_STATUS(st, TABAI_OK, "tabai_powmod_batch");
        for (size_t i = 0; i < count; i++) {
            fz_to_mpz(B, b[i], n), fz_to_mpz(E, e[i], en), fz_to_mpz(P, m[i], n);
            mpz_powm(Z, B, E, P);
            FZ_CHECK(fz_eq_mpz(r[i], n, Z), "tabai_powmod_batch");
        }
    }
    return 0;
}
