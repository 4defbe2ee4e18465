/* The single-number radix-2^52 IFMA kernels (src/ifma/r52.h) and exponentiation
 * (src/mod/powmod_r52.h) against GMP:
 *   tabai_mont_mul_r52n_ifma, tabai_mont_sqr_r52n_ifma (ymm and zmm), and the two-stream
 *   tabai_mont_mul2 / sqr2: r < 2p and r R == a b (mod p), R = 2^(52 dd), for every modulus
 *   length 1024 .. 8192 bits in 64-bit steps; moduli uniform, 2^(64(n-1)) + c (just above a
 *   power of two), 2^(64n) - c, 2^(64n) - 1; operands 0, 1, p - 1, 2p - 1 (the largest
 *   almost-Montgomery input), all-ones digits below 2p, uniform below 2p, a = b = p - 1.
 *   tabai_powmod_r52 and tabai_powmod2_r52 vs mpz_powm: short random exponents at every
 *   length, full-length exponents at 1024, 1536, 2048, 3072, 4096, 8192 bits.
 * Below tier ifma, or on a CPU without IFMA, the kernels cannot run: exit 77 (skipped); the
 * exponentiation that tabai_mont_powmod / tabai_powmod use there is test_powmod's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digits.h"
#include "mod/powmod_r52.h"
#include "testutil.h"

#define PADW TABAI_R52_PAD
#define M52 0xFFFFFFFFFFFFFULL

static mpz_t P, A, B, W, X, R;

/* padded digit buffer */
typedef struct { uint64_t v[TABAI_R52_BUF + 8]; } dbuf;
static uint64_t *dg(dbuf *b) { return b->v + PADW; }

static void to_digits(uint64_t *d, size_t dd, const mpz_t z) {
    uint64_t limbs[TABAI_MAX_LIMBS + 4] = {0};
    size_t cnt = 0;
    mpz_export(limbs, &cnt, -1, 8, 0, 0, z);
    const uint64_t *src[1] = {limbs};
    tabai_mb_to_digits(d, 1, 52, dd, src, TABAI_MAX_LIMBS + 4);
}
static void from_digits(mpz_t z, const uint64_t *d, size_t dd) {
    mpz_set_ui(z, 0);
    for (size_t i = dd; i-- > 0;) {
        mpz_mul_2exp(z, z, 52);
        mpz_add_ui(z, z, d[i]);
    }
}
static int digits_ok(const uint64_t *d, size_t dd) {
    for (size_t i = 0; i < dd; i++)
        if (d[i] >> 52) return 0;
    return 1;
}

/* r must be < 2p, normalised, and r R == a b mod p */
static void check_prod(const uint64_t *r, const mpz_t a, const mpz_t b, const mpz_t p,
                       size_t dd, const char *what, size_t n) {
    from_digits(X, r, dd);
    mpz_mul_2exp(W, X, 52 * dd);
    mpz_mul(R, a, b);
    mpz_sub(W, W, R);
    int ok = digits_ok(r, dd) && mpz_divisible_p(W, p);
    mpz_mul_2exp(R, p, 1);
    ok = ok && mpz_cmp(X, R) < 0;
    uint64_t pl[TABAI_MAX_LIMBS] = {0};
    tu_from_mpz(pl, n, p);
    TU_CHECK(ok, what, n, TU_V("p", pl, n), TU_V("r digits", r, dd));
}

static void kernels(const tabai_mont *mc, const uint64_t *pl, size_t n) {
    tu_to_mpz(P, pl, n);
    for (unsigned vl = 4; vl <= 8; vl += 4) {
        if (vl == 4 && tabai_r52_digits(mc->bits, n, 4) > 92) continue; /* zmm only */
        static tabai_r52 c;
        TU_CHECK(tabai_r52_init(&c, mc, vl, 0) == 0, "tabai_r52_init", n, TU_NOV);
        const size_t dd = c.dd;
        const uint64_t *p = tabai_r52_p(&c);
        static dbuf ba, bb, br, br2, ba2, bb2;
        memset(&ba, 0, sizeof ba), memset(&bb, 0, sizeof bb), memset(&br, 0, sizeof br);
        memset(&br2, 0, sizeof br2), memset(&ba2, 0, sizeof ba2), memset(&bb2, 0, sizeof bb2);
        /* operands: 0, 1, p-1, 2p-1, all-ones digits below 2p, uniform below 2p */
        enum { NOPS = 7 };
        for (int ia = 0; ia < NOPS; ia++) {
            for (int ib = 0; ib < NOPS; ib++) {
                if (ib != ia && ia > 2 && ib > 2 && tu_below(3) != 0) continue;
                mpz_t *z[2] = {&A, &B};
                int cls[2] = {ia, ib};
                for (int s = 0; s < 2; s++) {
                    mpz_t *t = z[s];
                    switch (cls[s]) {
                    case 0: mpz_set_ui(*t, 0); break;
                    case 1: mpz_set_ui(*t, 1); break;
                    case 2: mpz_sub_ui(*t, P, 1); break;
                    case 3: mpz_mul_2exp(*t, P, 1), mpz_sub_ui(*t, *t, 1); break;
                    case 4: { /* the most all-ones digits below 2p */
                        size_t bits = mpz_sizeinbase(P, 2);
                        mpz_set_ui(*t, 1);
                        mpz_mul_2exp(*t, *t, bits / 52 * 52);
                        mpz_sub_ui(*t, *t, 1);
                        break;
                    }
                    default: { /* uniform below 2p */
                        uint64_t l[TABAI_MAX_LIMBS + 1] = {0};
                        for (size_t i = 0; i <= n; i++) l[i] = tu_rand();
                        tu_to_mpz(*t, l, n + 1);
                        mpz_mul_2exp(R, P, 1);
                        mpz_mod(*t, *t, R);
                    }
                    }
                }
                to_digits(dg(&ba), dd, A);
                to_digits(dg(&bb), dd, B);
                tabai_mont_mul_r52n_ifma(dg(&br), dg(&ba), dg(&bb), p, c.k0, dd, vl);
                check_prod(dg(&br), A, B, P, dd, vl == 4 ? "mont_mul ymm" : "mont_mul zmm", n);
                if (ia == ib) {
                    tabai_mont_sqr_r52n_ifma(dg(&br), dg(&ba), p, c.k0, dd, vl);
                    check_prod(dg(&br), A, A, P, dd, vl == 4 ? "mont_sqr ymm" : "mont_sqr zmm", n);
                }
                /* aliasing r = a */
                memcpy(dg(&br), dg(&ba), dd * 8);
                tabai_mont_mul_r52n_ifma(dg(&br), dg(&br), dg(&bb), p, c.k0, dd, vl);
                check_prod(dg(&br), A, B, P, dd, "mont_mul r == a", n);
                /* two streams: the second with the operands swapped and squared */
                memcpy(dg(&ba2), dg(&bb), dd * 8);
                memcpy(dg(&bb2), dg(&ba), dd * 8);
                tabai_mont_mul2_r52n_ifma(dg(&br), dg(&br2), dg(&ba), dg(&ba2), dg(&bb),
                                          dg(&bb2), p, p, c.k0, c.k0, dd, vl);
                check_prod(dg(&br), A, B, P, dd, "mont_mul2 first", n);
                check_prod(dg(&br2), B, A, P, dd, "mont_mul2 second", n);
                tabai_mont_sqr2_r52n_ifma(dg(&br), dg(&br2), dg(&ba), dg(&ba2), p, p, c.k0, c.k0,
                                          dd, vl);
                check_prod(dg(&br), A, A, P, dd, "mont_sqr2 first", n);
                check_prod(dg(&br2), B, B, P, dd, "mont_sqr2 second", n);
            }
        }
        /* the pads are never written */
        int pads = 1;
        for (size_t i = 0; i < PADW; i++) pads &= br.v[i] == 0 && br.v[PADW + dd + i] == 0;
        TU_CHECK(pads, "pads untouched", n, TU_NOV);
    }
}

static void powmods(const tabai_mont *mc, const tabai_mont *mc2, const uint64_t *pl,
                    const uint64_t *pl2, size_t n, size_t ebits) {
    uint64_t b[TABAI_MAX_LIMBS], b2[TABAI_MAX_LIMBS], e[TABAI_MAX_LIMBS + 1] = {0},
        e2[TABAI_MAX_LIMBS + 1] = {0}, r[TABAI_MAX_LIMBS], r2[TABAI_MAX_LIMBS], w[TABAI_MAX_LIMBS];
    tu_operand(b, pl, n, (int)tu_below(TU_OP_COUNT));
    tu_operand(b2, pl2, n, (int)tu_below(TU_OP_COUNT));
    for (size_t i = 0; i < (ebits + 63) / 64; i++) e[i] = tu_rand(), e2[i] = tu_rand();
    if (ebits % 64) e[ebits / 64] &= ((uint64_t)1 << (ebits % 64)) - 1,
                    e2[ebits / 64] &= ((uint64_t)1 << (ebits % 64)) - 1;
    unsigned vl = 4;
    if (!tabai_r52_choose(mc->bits, ebits, &vl)) vl = 8;
    for (unsigned v = 4; v <= 8; v += 4) {
        if (v == 4 && tabai_r52_digits(mc->bits, n, 4) > 92) continue;
        static uint64_t ws[40000];
        TU_CHECK(tabai_r52_scratch_limbs(n, ebits, 1) <= sizeof ws / 8, "workspace size", n, TU_NOV);
        TU_CHECK(tabai_powmod_r52(mc, r, b, e, ebits, v, ws) == TABAI_OK, "powmod_r52 status", n,
                 TU_NOV);
        tu_to_mpz(P, pl, n), tu_to_mpz(A, b, n), tu_to_mpz(B, e, (ebits + 63) / 64 + 1);
        mpz_powm(W, A, B, P);
        tu_from_mpz(w, n, W);
        TU_CHECK(tu_eq_n(r, w, n), v == 4 ? "tabai_powmod_r52 ymm" : "tabai_powmod_r52 zmm", n,
                 TU_V("p", pl, n), TU_V("b", b, n), TU_V("e", e, (ebits + 63) / 64));
    }
    TU_CHECK(tabai_powmod2_r52(mc, mc2, r, r2, b, b2, e, e2, ebits) == TABAI_OK, "powmod2 status",
             n, TU_NOV);
    tu_to_mpz(P, pl, n), tu_to_mpz(A, b, n), tu_to_mpz(B, e, (ebits + 63) / 64 + 1);
    mpz_powm(W, A, B, P);
    tu_from_mpz(w, n, W);
    TU_CHECK(tu_eq_n(r, w, n), "tabai_powmod2_r52 first", n, TU_V("p", pl, n), TU_V("b", b, n));
    tu_to_mpz(P, pl2, n), tu_to_mpz(A, b2, n), tu_to_mpz(B, e2, (ebits + 63) / 64 + 1);
    mpz_powm(W, A, B, P);
    tu_from_mpz(w, n, W);
    TU_CHECK(tu_eq_n(r2, w, n), "tabai_powmod2_r52 second", n, TU_V("p", pl2, n), TU_V("b", b2, n));
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    if (!tabai_r52_usable()) {
        printf("SKIP: the IFMA single-number kernels need tier ifma on an IFMA CPU\n");
        return 77;
    }
    mpz_inits(P, A, B, W, X, R, NULL);
    static const int classes[] = {TU_MOD_UNIFORM, TU_MOD_ABOVE_LOW, TU_MOD_BELOW_R, TU_MOD_ALLONES};
    static tabai_mont mc, mc2;
    for (size_t bits = 1024; bits <= 8192; bits += 64) {
        const size_t n = bits / 64;
        uint64_t p[TABAI_MAX_LIMBS], p2[TABAI_MAX_LIMBS];
        for (size_t ci = 0; ci < sizeof classes / sizeof classes[0]; ci++) {
            tu_modulus(p, n, classes[ci], TU_ODD);
            tu_note("modulus %s, %zu bits", tu_mod_name(classes[ci]), bits);
            TU_CHECK(tabai_mont_init(&mc, p, n) == TABAI_OK, "mont_init", n, TU_V("p", p, n));
            if (mc.bits < 1024) continue; /* 2^(64(n-1)) + c at n = 16 */
            kernels(&mc, p, n);
        }
        tu_modulus(p, n, TU_MOD_UNIFORM, TU_ODD);
        tu_modulus(p2, n, TU_MOD_UNIFORM, TU_ODD);
        p[n - 1] |= (uint64_t)1 << 63, p2[n - 1] |= (uint64_t)1 << 63;
        (void)!tabai_mont_init(&mc, p, n), (void)!tabai_mont_init(&mc2, p2, n);
        const int full = bits == 1024 || bits == 1536 || bits == 2048 || bits == 3072 ||
                         bits == 4096 || bits == 8192;
        for (size_t it = 0; it < tu_iters(1); it++)
            powmods(&mc, &mc2, p, p2, n, full ? bits : 1 + tu_below(130));
    }
    mpz_clears(P, A, B, W, X, R, NULL);
    return tu_finish();
}
