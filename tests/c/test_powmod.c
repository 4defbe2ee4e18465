/* Modular exponentiation and inversion against GMP, in the tier TABAI_CPU selects:
 *   tabai_mont_powmod, tabai_mont_powmod_vartime, tabai_ohta_powmod,
 *   tabai_ohta_powmod_vartime, tabai_powmod, tabai_powmod_vartime     vs mpz_powm
 *   tabai_mont_inv_prime  vs mpz_invert, on primes from mpz_nextprime and the embedded
 *                         curve, MODP and RSA-CRT primes
 *   tabai_inv_vartime     vs mpz_invert on odd, even and 2^k moduli (every n = 1..128),
 *                         TABAI_ERR_NOINV (output untouched) when gcd(a, m) != 1; its
 *                         binary fallback tabai_inv_odd_binary_vartime on the odd ones
 * Sizes n = 1..16, 17, 31, 32, 33, 48, 64, 96, 128 limbs; exponents of 0 bits (e NULL and
 * not), 1 bit, all ones (64 and 65 bits), zero bits with ebits > 0, random lengths not a
 * multiple of 64, the lengths where the window size changes, and the full length of p
 * (large n: only the constant-time paths, to keep the run short). Bases 0, 1, p-1, R mod p,
 * random, and for tabai_powmod unreduced ones (b >= m), m = 1, and m with leading zero limbs.
 * r == b aliasing where documented; guard limbs around outputs; exact-size heap scratch
 * (tabai_powmod_scratch_limbs) so that ASan sees any overrun. */
#include <stdlib.h>
#include <string.h>

#include "mod/mod.h"
#include "testutil.h"

#define NMAX TABAI_MAX_LIMBS

static mpz_t P, B, E, W, T;

enum { F_MONT, F_MONT_VT, F_OHTA, F_OHTA_VT, F_ANY, F_ANY_VT, F_COUNT };
static const char *const fnames[F_COUNT] = {"tabai_mont_powmod", "tabai_mont_powmod_vartime",
                                            "tabai_ohta_powmod", "tabai_ohta_powmod_vartime",
                                            "tabai_powmod",      "tabai_powmod_vartime"};

/* one call of function f on (b, e, ebits) mod p; want = b^e mod p from GMP */
static void want_powm(uint64_t *w, const uint64_t *p, size_t n, const uint64_t *b, const uint64_t *e,
                      size_t ebits) {
    tu_to_mpz(P, p, n), tu_to_mpz(B, b, n);
    tu_to_mpz(E, e, (ebits + 63) / 64);
    mpz_powm(W, B, E, P);
    tu_from_mpz(w, n, W);
}

static void run_one(int f, const tabai_mont *mc, const tabai_ohta *oc, const uint64_t *p, size_t n,
                    const uint64_t *b0, const uint64_t *e0, size_t ebits, int alias,
                    const uint64_t *w) {
    size_t el = (ebits + 63) / 64;
    uint64_t *b = tu_dup(b0, n), *e = ebits ? tu_dup(e0, el) : NULL, *r = tu_buf_new(n);
    size_t sl = tabai_powmod_scratch_limbs(n, ebits);
    uint64_t *scratch = malloc(sl * 8);
    uint64_t *out = r;
    if (alias) {
        memcpy(r, b0, n * 8);
        out = r, free(b), b = r;
    }
    tabai_status s = TABAI_ERR_KERNEL;
    switch (f) {
    case F_MONT: s = tabai_mont_powmod(mc, out, b, e, ebits, scratch, sl); break;
    case F_MONT_VT: s = tabai_mont_powmod_vartime(mc, out, b, e, ebits, scratch, sl); break;
    case F_OHTA: s = tabai_ohta_powmod(oc, out, b, e, ebits, scratch, sl); break;
    case F_OHTA_VT: s = tabai_ohta_powmod_vartime(oc, out, b, e, ebits, scratch, sl); break;
    case F_ANY: s = tabai_powmod(out, b, e, ebits, p, n); break;
    case F_ANY_VT: s = tabai_powmod_vartime(out, b, e, ebits, p, n); break;
    }
    size_t ebv = ebits;
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r) && (alias || tu_eq_n(b, b0, n)) &&
                 (!ebits || tu_eq_n(e, e0, el)),
             alias ? "powmod r == b" : fnames[f], n, TU_V("p", p, n), TU_V("b", b0, n),
             TU_V("e", e0, el), TU_V("ebits", &ebv, 1), TU_V("got", r, n), TU_V("want", w, n));
    if (f == F_MONT || f == F_MONT_VT || f == F_OHTA || f == F_OHTA_VT) {
        /* tabai_powmod_window / scratch size are consistent */
        TU_CHECK(sl >= ((size_t)1 << tabai_powmod_window(ebits)) * n, "scratch >= 2^w n limbs", n,
                 TU_V("ebits", &ebv, 1));
    }
    if (!alias) free(b);
    free(e), free(scratch), tu_buf_free(r);
}

static void make_exponent(uint64_t *e, size_t ebits, int kind) {
    size_t el = (ebits + 63) / 64;
    if (el == 0) return;
    switch (kind) {
    case 0: tu_fill_any(e, el); break;
    case 1: memset(e, 0xff, el * 8); break;
    case 2: memset(e, 0, el * 8); break;
    }
    if (ebits % 64) e[el - 1] &= ((uint64_t)1 << (ebits % 64)) - 1;
}

/* one modulus: every function that applies, for a list of exponents and bases */
/* full: 0 no full-length exponent, 1 only the constant-time paths, 2 every function */
static void check_modulus(const uint64_t *p, size_t n, int full_mode) {
    static tabai_mont mc;
    static tabai_ohta oc;
    int odd = (int)(p[0] & 1) && !(n == 1 && p[0] < 3);
    TU_CHECK(tabai_ohta_init(&oc, p, n) == TABAI_OK, "tabai_ohta_init", n, TU_V("p", p, n));
    if (odd) TU_CHECK(tabai_mont_init(&mc, p, n) == TABAI_OK, "tabai_mont_init", n, TU_V("p", p, n));
    size_t pbits = oc.bits;
    /* exponent lengths and kinds (kind 0 random, 1 all ones, 2 zero bits) */
    size_t lens[24], kinds[24], nl = 0;
    lens[nl] = 0, kinds[nl++] = 0;
    lens[nl] = 1, kinds[nl++] = 1;
    lens[nl] = 64, kinds[nl++] = 1;
    lens[nl] = 65, kinds[nl++] = 1;
    lens[nl] = 64, kinds[nl++] = 2;
    lens[nl] = 1 + tu_below(n <= 16 ? 64 * n : 200), kinds[nl++] = 0;
    lens[nl] = 2 + tu_below(64), kinds[nl++] = 0;
    static const size_t bounds[] = {22, 23, 89, 90, 306, 307, 2048, 2049};
    for (size_t i = 0; i < 8; i++) {
        if (bounds[i] > 400 && n > 16) continue;
        if (bounds[i] > 100 && n > 40) continue;
        lens[nl] = bounds[i], kinds[nl++] = 0;
    }
    size_t nfixed = nl;
    if (full_mode) lens[nl] = pbits, kinds[nl++] = 0; /* full length, like an RSA exponent */
    int full_all = full_mode == 2;
    uint64_t e[2 * NMAX + 1], b[NMAX], w[NMAX];
    for (size_t i = 0; i < nl; i++) {
        size_t ebits = lens[i];
        make_exponent(e, ebits, (int)kinds[i]);
        int full = i >= nfixed;
        int opc = (int)(i % 5);
        static const int ops[5] = {TU_OP_UNIFORM, TU_OP_PM1, TU_OP_RMODP, TU_OP_ONE, TU_OP_ZERO};
        tu_operand(b, p, n, i < 3 ? TU_OP_UNIFORM : ops[opc]);
        tu_note("ebits %zu (%s), base %s", ebits, kinds[i] == 0 ? "random" : kinds[i] == 1 ? "ones" : "zero",
                tu_op_name(ops[opc]));
        want_powm(w, p, n, b, e, ebits);
        for (int f = 0; f < F_COUNT; f++) {
            if (!odd && (f == F_MONT || f == F_MONT_VT)) continue;
            if (full && !full_all && f != F_MONT && (f != F_ANY || n > 64)) continue;
            /* tabai_powmod builds its contexts per call: sample it at large n */
            if (n > 33 && (f == F_ANY || f == F_ANY_VT) && !full && i % 4 != 1) continue;
            run_one(f, &mc, &oc, p, n, b, e, ebits, 0, w);
        }
        if (!full || full_all) {
            if (odd) run_one(F_MONT, &mc, &oc, p, n, b, e, ebits, 1, w);
            if (odd) run_one(F_MONT_VT, &mc, &oc, p, n, b, e, ebits, 1, w);
            run_one(F_OHTA, &mc, &oc, p, n, b, e, ebits, 1, w);
            run_one(F_OHTA_VT, &mc, &oc, p, n, b, e, ebits, 1, w);
        }
    }
    /* ebits == 0 with e == NULL: 1 mod p */
    size_t sl0 = tabai_powmod_scratch_limbs(n, 0);
    uint64_t *r = tu_buf_new(n), *scratch = malloc(sl0 * 8);
    tu_operand(b, p, n, TU_OP_UNIFORM);
    mpz_set_ui(W, 1), tu_to_mpz(P, p, n), mpz_mod(W, W, P), tu_from_mpz(w, n, W);
    TU_CHECK(tabai_ohta_powmod(&oc, r, b, NULL, 0, scratch, sl0) == TABAI_OK && tu_eq_n(r, w, n) &&
                 tu_buf_ok(r),
             "tabai_ohta_powmod e = NULL, ebits = 0", n, TU_V("p", p, n), TU_V("got", r, n));
    if (odd)
        TU_CHECK(tabai_mont_powmod(&mc, r, b, NULL, 0, scratch, sl0) == TABAI_OK && tu_eq_n(r, w, n),
                 "tabai_mont_powmod e = NULL, ebits = 0", n, TU_V("p", p, n), TU_V("got", r, n));
    TU_CHECK(tabai_powmod(r, b, NULL, 0, p, n) == TABAI_OK && tu_eq_n(r, w, n),
             "tabai_powmod e = NULL, ebits = 0", n, TU_V("p", p, n), TU_V("got", r, n));
    free(scratch), tu_buf_free(r);
    (void)nfixed;
}

/* tabai_powmod on unreduced bases, m = 1, and m with leading zero limbs */
static void check_powmod_any_extra(size_t n) {
    uint64_t m[NMAX], b[NMAX], e[4], w[NMAX];
    size_t ebits = 1 + tu_below(200), el = (ebits + 63) / 64;
    make_exponent(e, ebits, 0);
    /* b >= m, full-width b */
    tu_modulus(m, n, (int)tu_below(TU_MOD_COUNT), TU_ANY);
    tu_fill(b, n, TU_UNIFORM);
    b[n - 1] |= (uint64_t)1 << 63;
    for (int vt = 0; vt < 2; vt++) {
        uint64_t *r = tu_buf_new(n);
        tu_to_mpz(P, m, n), tu_to_mpz(B, b, n), tu_to_mpz(E, e, el);
        mpz_powm(W, B, E, P), tu_from_mpz(w, n, W);
        tabai_status s = vt ? tabai_powmod_vartime(r, b, e, ebits, m, n) : tabai_powmod(r, b, e, ebits, m, n);
        TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_powmod unreduced b", n,
                 TU_V("m", m, n), TU_V("b", b, n), TU_V("e", e, el), TU_V("got", r, n),
                 TU_V("want", w, n));
        /* m with its top limbs zero: the result has n limbs, the top ones zero */
        if (n > 1) {
            size_t k = 1 + tu_below(n - 1);
            uint64_t m2[NMAX];
            memcpy(m2, m, n * 8);
            for (size_t i = k; i < n; i++) m2[i] = 0;
            uint64_t any = 0;
            for (size_t i = 1; i < k; i++) any |= m2[i];
            if (!any && m2[0] < 2) m2[0] = 2 + (tu_rand() & 1);
            tu_to_mpz(P, m2, n), mpz_powm(W, B, E, P), tu_from_mpz(w, n, W);
            s = vt ? tabai_powmod_vartime(r, b, e, ebits, m2, n) : tabai_powmod(r, b, e, ebits, m2, n);
            TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r),
                     "tabai_powmod m with leading zero limbs", n, TU_V("m", m2, n), TU_V("b", b, n),
                     TU_V("e", e, el), TU_V("got", r, n), TU_V("want", w, n));
        }
        /* m = 1: 0 */
        memset(m, 0, n * 8);
        m[0] = 1;
        s = vt ? tabai_powmod_vartime(r, b, e, ebits, m, n) : tabai_powmod(r, b, e, ebits, m, n);
        memset(w, 0, n * 8);
        TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_powmod m = 1", n,
                 TU_V("b", b, n), TU_V("got", r, n));
        tu_buf_free(r);
        tu_modulus(m, n, (int)tu_below(TU_MOD_COUNT), TU_ANY);
    }
}

static void check_inv_prime(const uint64_t *p, size_t n, size_t count) {
    static tabai_mont mc;
    if (tabai_mont_init(&mc, p, n) != TABAI_OK) {
        TU_CHECK(0, "tabai_mont_init (inv_prime)", n, TU_V("p", p, n));
        return;
    }
    uint64_t a[NMAX], w[NMAX];
    uint64_t *r = tu_buf_new(n);
    tu_to_mpz(P, p, n);
    for (size_t i = 0; i < count; i++) {
        static const int ops[] = {TU_OP_UNIFORM, TU_OP_ONE, TU_OP_PM1, TU_OP_RMODP, TU_OP_RUNS, TU_OP_PM2};
        tu_operand(a, p, n, i < 6 ? ops[i] : TU_OP_UNIFORM);
        tu_to_mpz(B, a, n);
        if (mpz_sgn(B) == 0) continue;
        mpz_invert(W, B, P), tu_from_mpz(w, n, W);
        tabai_status s = tabai_mont_inv_prime(&mc, r, a);
        TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_mont_inv_prime", n,
                 TU_V("p", p, n), TU_V("a", a, n), TU_V("got", r, n), TU_V("want", w, n));
        memcpy(r, a, n * 8);
        s = tabai_mont_inv_prime(&mc, r, r);
        TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_mont_inv_prime r == a", n,
                 TU_V("p", p, n), TU_V("a", a, n), TU_V("got", r, n), TU_V("want", w, n));
    }
    /* a = 0: TABAI_ERR_NOINV, r untouched */
    memset(a, 0, n * 8);
    tu_buf_fill(r, n, 0x5a5a5a5a5a5a5a5au);
    memcpy(w, r, n * 8);
    TU_CHECK(tabai_mont_inv_prime(&mc, r, a) == TABAI_ERR_NOINV && tu_eq_n(r, w, n) && tu_buf_ok(r),
             "tabai_mont_inv_prime(0) = TABAI_ERR_NOINV, r untouched", n, TU_V("p", p, n));
    tu_buf_free(r);
}

static void check_inv_vartime(size_t n) {
    uint64_t m[NMAX], a[NMAX], w[NMAX];
    uint64_t *r = tu_buf_new(n);
    for (int k = 0; k < 6; k++) {
        /* odd composite-or-prime, even, 2^k, 2^k+1, top limb 1, all ones */
        static const int cls[6] = {TU_MOD_UNIFORM, TU_MOD_UNIFORM, TU_MOD_POW2, TU_MOD_POW2_1,
                                   TU_MOD_TOP1, TU_MOD_ALLONES};
        static const int par[6] = {TU_ODD, TU_EVEN, TU_ANY, TU_ANY, TU_ANY, TU_ANY};
        tu_modulus(m, n, cls[k], par[k]);
        tu_to_mpz(P, m, n);
        size_t reps = tu_iters(3) + 2;
        for (size_t i = 0; i < reps; i++) {
            int op = i == 0 ? TU_OP_ONE : i == 1 ? TU_OP_PM1 : (i % 3 == 2 ? TU_OP_RUNS : TU_OP_UNIFORM);
            tu_operand(a, m, n, op);
            if (i == 2) { /* a shares a factor with m (if m is not prime) */
                mpz_set_ui(T, 3);
                if (mpz_even_p(P)) mpz_set_ui(T, 6);
                tu_to_mpz(B, a, n);
                mpz_mul(B, B, T), mpz_mod(B, B, P), tu_from_mpz(a, n, B);
            }
            tu_to_mpz(B, a, n);
            int inv = mpz_invert(W, B, P);
            tu_buf_fill(r, n, 0x5a5a5a5a5a5a5a5au);
            tabai_status s = tabai_inv_vartime(r, a, m, n);
            if (inv) {
                tu_from_mpz(w, n, W);
                TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_inv_vartime", n,
                         TU_V("m", m, n), TU_V("a", a, n), TU_V("got", r, n), TU_V("want", w, n));
                /* the binary fallback behind safegcd (O(bits^2 n): sampled above 32 limbs) */
                if ((m[0] & 1) && (n <= 32 || i == 0)) {
                    tu_buf_fill(r, n, 0x5a5a5a5a5a5a5a5au);
                    int ok = tabai_inv_odd_binary_vartime(r, a, m, n);
                    TU_CHECK(ok == 1 && tu_eq_n(r, w, n) && tu_buf_ok(r),
                             "tabai_inv_odd_binary_vartime", n, TU_V("m", m, n), TU_V("a", a, n),
                             TU_V("got", r, n), TU_V("want", w, n));
                }
            } else {
                tu_buf_fill(w, n, 0x5a5a5a5a5a5a5a5au);
                uint64_t sv = (uint64_t)(int64_t)s;
                TU_CHECK(s == TABAI_ERR_NOINV && tu_eq_n(r, w, n) && tu_buf_ok(r),
                         "tabai_inv_vartime not invertible: TABAI_ERR_NOINV, r untouched", n,
                         TU_V("m", m, n), TU_V("a", a, n), TU_V("status", &sv, 1), TU_V("r", r, n));
            }
        }
    }
    tu_buf_free(r);
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    mpz_inits(P, B, E, W, T, NULL);
    static const size_t sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                   14, 15, 16, 17, 31, 32, 33, 48, 64, 96, 128};
    uint64_t p[NMAX];
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        size_t reps = tu_iters(1);
        for (size_t rep = 0; rep < reps; rep++) {
            int cls = (int)((si + rep * 5) % TU_MOD_COUNT);
            tu_modulus(p, n, TU_MOD_UNIFORM, TU_ODD);
            check_modulus(p, n, n <= 33 ? 2 : 1);
            tu_modulus(p, n, TU_MOD_UNIFORM, TU_EVEN);
            check_modulus(p, n, n <= 16 ? 2 : n <= 33 ? 1 : 0);
            tu_modulus(p, n, cls, TU_ANY);
            check_modulus(p, n, n <= 16 ? 2 : 0);
        }
        check_powmod_any_extra(n);
        /* primes for the Fermat inverse */
        if (n <= 16) {
            tu_fill(p, n, TU_UNIFORM);
            p[n - 1] |= (uint64_t)1 << 63;
            if (n == 1) p[0] >>= tu_below(60);
            tu_to_mpz(T, p, n);
            mpz_nextprime(T, T);
            if (mpz_sizeinbase(T, 2) <= 64 * n) {
                tu_from_mpz(p, n, T);
                tu_note("prime from mpz_nextprime");
                check_inv_prime(p, n, tu_iters(4) + 2);
            }
        }
    }
    for (size_t i = 0; i < tu_real_moduli_count; i++) {
        const tu_real_modulus *m = &tu_real_moduli[i];
        tu_note("modulus %s", m->name);
        if (strstr(m->name, "_n") && strncmp(m->name, "rsa", 3) == 0) continue; /* composite */
        if (m->n <= 32 || tu_scale >= 1) check_inv_prime(m->limbs, m->n, 1);
    }
    for (size_t n = 1; n <= NMAX; n++) {
        tu_note("inv_vartime");
        check_inv_vartime(n);
    }
    mpz_clears(P, B, E, W, T, NULL);
    return tu_finish();
}
