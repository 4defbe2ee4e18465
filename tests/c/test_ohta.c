/* Ohta contexts (seed 003, Algorithm 3) against GMP (mpz_mul + mpz_mod), for every
 * n = 1..128 in the tier TABAI_CPU selects: tabai_ohta_init (limbs, leading zero limbs,
 * big-endian bytes), K = floor(R^2 / p) (saturated to n+1 limbs of ones for
 * p = 2^(64(n-1)), see docs/bounds/ohta.md), tabai_ohta_mul, tabai_ohta_sqr,
 * tabai_ohta_reduce, tabai_ohta_add, tabai_ohta_sub, tabai_ohta_neg.
 * Moduli: every class of testutil with its natural parity and forced even (top limb 1,
 * p just above a power of two, 2^k, 2^k + 1, 2^(64n) - 1, 2^(64(n-1)) exactly: the cases
 * where the truncated product H*K loses the most), and the embedded real moduli; above
 * n = 40 each n takes a rotating quarter of the classes, alternately even (tabai_ohta_init,
 * a bit-serial division, is what costs most time here).
 * Operands: p-1 x p-1 (the largest H), 0, 1, p-2, R mod p, uniform, runs, edge limbs;
 * reduce: x = p*R - 1 (the largest allowed), (p-1)^2, p, 0, random high half < p with a
 * low half of ones, zeros or random. Outputs aliased to each input and both; guard limbs.
 * The second conditional subtraction: inputs with f = H - d*p in [2p, 3p), checked to be
 * so with GMP, at every even n >= 6 (check_second_subtraction). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define NMAX TABAI_MAX_LIMBS

static mpz_t P, T;

static void want_of(uint64_t *w, mpz_t x, size_t n) {
    mpz_mod(x, x, P);
    tu_from_mpz(w, n, x);
}

static void check_mul(const tabai_ohta *ctx, const uint64_t *a0, const uint64_t *b0) {
    size_t n = ctx->n;
    uint64_t w[NMAX], *a = tu_dup(a0, n), *b = tu_dup(b0, n), *r = tu_buf_new(n);
    mpz_t A, B;
    mpz_inits(A, B, NULL);
    tu_to_mpz(A, a0, n), tu_to_mpz(B, b0, n);
    mpz_mul(T, A, B), want_of(w, T, n);
#define VALS TU_V("p", ctx->p, n), TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, n), TU_V("want", w, n)
    tabai_status s = tabai_ohta_mul(ctx, r, a, b);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r) && tu_eq_n(a, a0, n) &&
                 tu_eq_n(b, b0, n),
             "tabai_ohta_mul", n, VALS);
    memcpy(r, a0, n * 8);
    s = tabai_ohta_mul(ctx, r, r, b);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_ohta_mul r == a", n, VALS);
    memcpy(r, b0, n * 8);
    s = tabai_ohta_mul(ctx, r, a, r);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_ohta_mul r == b", n, VALS);
    /* squares: a == b, r == a == b, sqr */
    mpz_mul(T, A, A), want_of(w, T, n);
    s = tabai_ohta_mul(ctx, r, a, a);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_ohta_mul a == b", n, VALS);
    memcpy(r, a0, n * 8);
    s = tabai_ohta_mul(ctx, r, r, r);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_ohta_mul r == a == b", n,
             VALS);
    s = tabai_ohta_sqr(ctx, r, a);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r) && tu_eq_n(a, a0, n),
             "tabai_ohta_sqr", n, VALS);
    memcpy(r, a0, n * 8);
    s = tabai_ohta_sqr(ctx, r, r);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_ohta_sqr r == a", n, VALS);
    mpz_mul(T, B, B), want_of(w, T, n);
    s = tabai_ohta_sqr(ctx, r, b);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_ohta_sqr (b)", n, VALS);
#undef VALS
    mpz_clears(A, B, NULL);
    free(a), free(b), tu_buf_free(r);
}

/* a + b, a - b, -a and -b mod p against GMP (mpz_add, mpz_sub, mpz_neg + mpz_mod), each
 * with r distinct and aliased to its inputs */
static void check_addsub(const tabai_ohta *ctx, const uint64_t *a0, const uint64_t *b0) {
    size_t n = ctx->n;
    uint64_t w[NMAX], *a = tu_dup(a0, n), *b = tu_dup(b0, n), *r = tu_buf_new(n);
    mpz_t A, B;
    mpz_inits(A, B, NULL);
    tu_to_mpz(A, a0, n), tu_to_mpz(B, b0, n);
#define VALS TU_V("p", ctx->p, n), TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, n), TU_V("want", w, n)
#define CHECK2(call, x0, name)                                                                  \
    do {                                                                                        \
        tabai_status s_ = (call);                                                               \
        TU_CHECK(s_ == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r) && tu_eq_n(a, a0, n) &&     \
                     tu_eq_n(b, b0, n),                                                         \
                 name, n, VALS);                                                                \
        memcpy(r, x0, n * 8);                                                                   \
    } while (0)
    mpz_add(T, A, B), want_of(w, T, n);
    CHECK2(tabai_ohta_add(ctx, r, a, b), a0, "tabai_ohta_add");
    CHECK2(tabai_ohta_add(ctx, r, r, b), b0, "tabai_ohta_add r == a");
    CHECK2(tabai_ohta_add(ctx, r, a, r), a0, "tabai_ohta_add r == b");
    mpz_add(T, A, A), want_of(w, T, n);
    CHECK2(tabai_ohta_add(ctx, r, r, r), a0, "tabai_ohta_add r == a == b");
    mpz_sub(T, A, B), want_of(w, T, n);
    CHECK2(tabai_ohta_sub(ctx, r, a, b), a0, "tabai_ohta_sub");
    CHECK2(tabai_ohta_sub(ctx, r, r, b), b0, "tabai_ohta_sub r == a");
    CHECK2(tabai_ohta_sub(ctx, r, a, r), a0, "tabai_ohta_sub r == b");
    mpz_set_ui(T, 0), want_of(w, T, n);
    CHECK2(tabai_ohta_sub(ctx, r, r, r), a0, "tabai_ohta_sub r == a == b");
    mpz_neg(T, A), want_of(w, T, n);
    CHECK2(tabai_ohta_neg(ctx, r, a), b0, "tabai_ohta_neg");
    mpz_neg(T, B), want_of(w, T, n);
    CHECK2(tabai_ohta_neg(ctx, r, r), b0, "tabai_ohta_neg r == a (b)");
#undef CHECK2
#undef VALS
    mpz_clears(A, B, NULL);
    free(a), free(b), tu_buf_free(r);
}

static void check_reduce(const tabai_ohta *ctx, const uint64_t *x0) {
    size_t n = ctx->n;
    uint64_t w[NMAX], *x = tu_dup(x0, 2 * n), *r = tu_buf_new(n);
    tu_to_mpz(T, x0, 2 * n);
    want_of(w, T, n);
    tabai_status s = tabai_ohta_reduce(ctx, r, x);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r) && tu_eq_n(x, x0, 2 * n),
             "tabai_ohta_reduce", n, TU_V("p", ctx->p, n), TU_V("x", x0, 2 * n), TU_V("got", r, n),
             TU_V("want", w, n));
    free(x), tu_buf_free(r);
}

static int check_init(tabai_ohta *ctx, const uint64_t *p, size_t n) {
    uint64_t w[NMAX + 2];
    tu_to_mpz(P, p, n);
    tabai_status s = tabai_ohta_init(ctx, p, n);
    TU_CHECK(s == TABAI_OK && ctx->n == n, "tabai_ohta_init", n, TU_V("p", p, n));
    if (s != TABAI_OK || ctx->n != n) return 0;
    TU_CHECK(tu_eq_n(ctx->p, p, n) && ctx->bits == mpz_sizeinbase(P, 2), "tabai_ohta_init: p, bits",
             n, TU_V("p", p, n));
    /* K = floor(R^2 / p), or n+1 limbs of ones when that does not fit (p = 2^(64(n-1))) */
    mpz_set_ui(T, 0);
    mpz_setbit(T, 128 * n);
    mpz_fdiv_q(T, T, P);
    uint64_t kw[NMAX + 1];
    if (mpz_sizeinbase(T, 2) > 64 * (n + 1)) memset(kw, 0xff, (n + 1) * 8);
    else tu_from_mpz(kw, n + 1, T);
    TU_CHECK(tu_eq_n(ctx->k, kw, n + 1), "tabai_ohta_init: K = floor(R^2/p)", n, TU_V("p", p, n),
             TU_V("got", ctx->k, n + 1), TU_V("want", kw, n + 1));
    /* the other two ways (init is a bit-serial division: sample them at large n) */
    if (n > 24 && tu_below(4) != 0) return 1;
    tabai_ohta c2;
    memcpy(w, p, n * 8);
    w[n] = w[n + 1] = 0;
    size_t extra = n + 2 <= NMAX ? 2 : NMAX - n;
    s = tabai_ohta_init(&c2, w, n + extra);
    TU_CHECK(s == TABAI_OK && c2.n == n && tu_eq_n(c2.k, ctx->k, n + 1),
             "tabai_ohta_init with leading zero limbs", n, TU_V("p", p, n));
    size_t z = tu_below(4), len = 8 * n + z;
    uint8_t *be = calloc(len, 1);
    (void)!tabai_to_bytes(be + z, 8 * n, p, n);
    s = tabai_ohta_init_bytes(&c2, be, len);
    TU_CHECK(s == TABAI_OK && c2.n == n && tu_eq_n(c2.p, p, n) && tu_eq_n(c2.k, ctx->k, n + 1),
             "tabai_ohta_init_bytes", n, TU_V("p", p, n));
    free(be);
    return 1;
}

static const int fixed_pairs[][2] = {
    {TU_OP_PM1, TU_OP_PM1},    {TU_OP_PM1, TU_OP_PM2},     {TU_OP_NEARP, TU_OP_PM1},
    {TU_OP_ZERO, TU_OP_PM1},   {TU_OP_ONE, TU_OP_UNIFORM}, {TU_OP_RMODP, TU_OP_RMODP},
    {TU_OP_HALF, TU_OP_HALF},  {TU_OP_EDGE, TU_OP_RUNS}};

static void check_modulus(const uint64_t *p, size_t n, size_t random_pairs) {
    static tabai_ohta ctx;
    if (!check_init(&ctx, p, n)) return;
    uint64_t a[NMAX], b[NMAX], x[2 * NMAX];
    size_t nf = sizeof fixed_pairs / sizeof fixed_pairs[0];
    for (size_t i = 0; i < nf + random_pairs; i++) {
        int ca = i < nf ? fixed_pairs[i][0] : (int)tu_below(TU_OP_COUNT);
        int cb = i < nf ? fixed_pairs[i][1] : (int)tu_below(TU_OP_COUNT);
        if (i >= nf && i % 3 == 0) ca = cb = TU_OP_UNIFORM;
        tu_operand(a, p, n, ca);
        tu_operand(b, p, n, cb);
        check_mul(&ctx, a, b);
        check_addsub(&ctx, a, b);
    }
    /* reduce: x = p*R - 1: high half p-1, low half all ones */
    tu_operand(x + n, p, n, TU_OP_PM1);
    memset(x, 0xff, n * 8);
    check_reduce(&ctx, x);
    memset(x, 0, n * 8); /* (p-1)*R */
    check_reduce(&ctx, x);
    /* (p-1)^2 */
    tu_operand(a, p, n, TU_OP_PM1);
    tu_to_mpz(T, a, n);
    mpz_mul(T, T, T);
    tu_from_mpz(x, 2 * n, T);
    check_reduce(&ctx, x);
    /* p, 0 */
    memset(x, 0, 2 * n * 8);
    check_reduce(&ctx, x);
    memcpy(x, p, n * 8);
    check_reduce(&ctx, x);
    for (size_t i = 0; i < random_pairs + 2; i++) {
        tu_operand(x + n, p, n, (int)tu_below(TU_OP_COUNT));
        tu_fill(x, n, i % 3 == 0 ? TU_ONES : i % 3 == 1 ? TU_UNIFORM : TU_RUNS);
        check_reduce(&ctx, x);
    }
}

/* The estimate d of docs/bounds/ohta.md computed here with GMP: floor(T / R^2), T the
 * columns >= 2n-2 of H*K. */
static void ohta_estimate(mpz_t d, const mpz_t H, const uint64_t *k, size_t n) {
    uint64_t h[2 * NMAX];
    mpz_t t, term;
    mpz_inits(t, term, NULL);
    tu_from_mpz(h, 2 * n, H);
    for (size_t i = 0; i < 2 * n; i++)
        for (size_t j = 0; j <= n; j++) {
            if (i + j < 2 * n - 2) continue;
            mpz_set_ui(term, h[i]);
            mpz_mul_ui(term, term, k[j]);
            mpz_mul_2exp(term, term, 64 * (i + j));
            mpz_add(t, t, term);
        }
    mpz_tdiv_q_2exp(d, t, 128 * n);
    mpz_clears(t, term, NULL);
}

/* Both errors of the estimate at once (q - d = 2, so f = H - d*p in [2p, 3p) and the second
 * subtraction is needed): p = 2^(64n) - 2^(32n) + 1 for even n >= 6, where R^2 mod p is
 * just below R and K's low limbs are all ones, with H = (p-1)^2 (= (p-2)p + 1: H mod p is
 * tiny) and, for reduce, H = q*p + s with q near R and s small. The test first checks with
 * GMP that each input really has q - d = 2. */
static void check_second_subtraction(size_t n) {
    uint64_t p[NMAX] = {0}, a[NMAX], x[2 * NMAX];
    for (size_t i = 0; i < n; i++) p[i] = i < n / 2 ? 0 : ~(uint64_t)0;
    p[0] = 1; /* 2^(64n) - 2^(32n) + 1 */
    tabai_ohta ctx;
    if (!check_init(&ctx, p, n)) return;
    mpz_t H, q, d;
    mpz_inits(H, q, d, NULL);
    tu_to_mpz(P, p, n);
    for (int variant = 0; variant < 3; variant++) {
        if (variant == 0) {
            mpz_sub_ui(H, P, 1);
            mpz_mul(H, H, H);
        } else { /* q = R - 1 - small, s < 2^(64n - 66) */
            mpz_set_ui(q, 1);
            mpz_mul_2exp(q, q, 64 * n);
            mpz_sub_ui(q, q, 1 + tu_below(1u << 20));
            mpz_mul(H, q, P);
            tu_fill(a, n, TU_UNIFORM); /* s < 2^(64n - 66): H mod p tiny */
            a[n - 1] = 0;
            a[n - 2] >>= 2;
            tu_to_mpz(d, a, n);
            mpz_add(H, H, variant == 1 ? d : (mpz_set_ui(d, 1), d));
        }
        ohta_estimate(d, H, ctx.k, n);
        mpz_tdiv_q(q, H, P);
        mpz_sub(q, q, d);
        TU_CHECK(mpz_cmp_ui(q, 2) == 0, "ohta second subtraction: input has q - d = 2", n,
                 TU_V("p", p, n));
        if (variant == 0) {
            mpz_sub_ui(H, P, 1);
            tu_from_mpz(a, n, H);
            check_mul(&ctx, a, a);
        } else {
            tu_from_mpz(x, 2 * n, H);
            check_reduce(&ctx, x);
        }
    }
    mpz_clears(H, q, d, NULL);
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    mpz_inits(P, T, NULL);
    uint64_t p[NMAX];
    const size_t stride = tu_scale < 0.5 ? 8 : 4; /* fewer moduli in the sanitizer runs */
    for (size_t n = 1; n <= NMAX; n++) {
        size_t pairs = tu_iters(n <= 16 ? 8 : n <= 40 ? 3 : 1);
        for (int cls = 0; cls < TU_MOD_COUNT; cls++) {
            if (n > 40 && (cls + n) % stride != 0) continue;
            for (int parity = TU_ANY; parity <= TU_EVEN; parity += TU_EVEN) {
                if (parity == TU_EVEN && (cls == TU_MOD_POW2 || cls == TU_MOD_POW2_1)) continue;
                if (n > 40 && (parity == TU_EVEN) != (n / 4) % 2) continue;
                tu_modulus(p, n, cls, parity);
                tu_note("modulus class %s%s", tu_mod_name(cls), parity == TU_EVEN ? ", even" : "");
                check_modulus(p, n, pairs);
            }
        }
        /* exactly 2^(64(n-1)) (K saturates), and 2^(64(n-1)) + 1 */
        memset(p, 0, n * 8);
        p[n - 1] = n == 1 ? 2 : 1;
        tu_note("modulus 2^(64(n-1))");
        check_modulus(p, n, pairs);
        p[0] |= 1;
        tu_note("modulus 2^(64(n-1)) + 1");
        check_modulus(p, n, pairs);
        for (size_t i = 0; i < tu_real_moduli_count; i++) {
            if (tu_real_moduli[i].n != n) continue;
            tu_note("modulus %s", tu_real_moduli[i].name);
            check_modulus(tu_real_moduli[i].limbs, n, pairs);
        }
    }
    for (size_t n = 6; n <= NMAX; n += 2) {
        tu_note("modulus 2^(64n) - 2^(32n) + 1 (f >= 2p)");
        check_second_subtraction(n);
    }
    /* every modulus 2 .. 300 at n = 1 */
    for (uint64_t m = 2; m <= 300; m++) {
        tu_note("small modulus %llu", (unsigned long long)m);
        check_modulus(&m, 1, 1);
    }
    mpz_clears(P, T, NULL);
    return tu_finish();
}
