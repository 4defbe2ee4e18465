/* Montgomery contexts against GMP (R = 2^(64n); oracle: mpz_mul + mpz_mod with R^-1 from
 * mpz_invert), for every n = 1..128 in the tier TABAI_CPU selects:
 *   tabai_mont_init (limbs, limbs with leading zero limbs, big-endian bytes with leading zero
 *   bytes): n, pinv, R^2 mod p, R mod p, bits; mul, sqr, to, from, add, sub, neg.
 * Moduli (odd): every class of testutil (uniform, top limb 1, top limb all ones, 2^(64n) - c,
 * 2^(64(n-1)) + c, 2^k +- c, 2^k + 1, 2^(64n) - 1, runs, edge limbs) and the embedded real
 * moduli; above n = 40 each n takes a rotating third of the classes.
 * Operands: 0, 1, p-1, p-2, R mod p, uniform, runs, edge limbs, near p, p/2, in fixed worst
 * pairs and random pairs; outputs aliased to each input and to both (r == a == b); guard
 * limbs around every output. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define NMAX TABAI_MAX_LIMBS

typedef tabai_status (*bin_fn)(const tabai_mont *, uint64_t *, const uint64_t *, const uint64_t *);
typedef tabai_status (*un_fn)(const tabai_mont *, uint64_t *, const uint64_t *);

static mpz_t P, RINV, R, T, U;

/* r = f(a, b) with separate output, r == a, r == b; a == b (same pointer) if b == NULL. */
static void check_bin(const char *what, bin_fn f, const tabai_mont *ctx, const uint64_t *a0,
                      const uint64_t *b0, const uint64_t *want) {
    size_t n = ctx->n;
    int same = b0 == NULL;
    if (same) b0 = a0;
    uint64_t *a = tu_dup(a0, n), *b = same ? a : tu_dup(b0, n), *r = tu_buf_new(n);
    tabai_status s = f(ctx, r, a, b);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, want, n) && tu_buf_ok(r) && tu_eq_n(a, a0, n) &&
                 tu_eq_n(b, b0, n),
             what, n, TU_V("p", ctx->p, n), TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, n),
             TU_V("want", want, n));
    memcpy(r, a0, n * 8);
    s = same ? f(ctx, r, r, r) : f(ctx, r, r, b);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, want, n) && tu_buf_ok(r),
             same ? "r == a == b" : "r == a", n, TU_V("p", ctx->p, n), TU_V("a", a0, n),
             TU_V("b", b0, n), TU_V("got", r, n), TU_V("want", want, n));
    if (!same) {
        memcpy(r, b0, n * 8);
        s = f(ctx, r, a, r);
        TU_CHECK(s == TABAI_OK && tu_eq_n(r, want, n) && tu_buf_ok(r), "r == b", n,
                 TU_V("p", ctx->p, n), TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, n),
                 TU_V("want", want, n));
        free(b);
    }
    free(a), tu_buf_free(r);
}

static void check_un(const char *what, un_fn f, const tabai_mont *ctx, const uint64_t *a0,
                     const uint64_t *want) {
    size_t n = ctx->n;
    uint64_t *a = tu_dup(a0, n), *r = tu_buf_new(n);
    tabai_status s = f(ctx, r, a);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, want, n) && tu_buf_ok(r) && tu_eq_n(a, a0, n), what, n,
             TU_V("p", ctx->p, n), TU_V("a", a0, n), TU_V("got", r, n), TU_V("want", want, n));
    memcpy(r, a0, n * 8);
    s = f(ctx, r, r);
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, want, n) && tu_buf_ok(r), "r == a", n,
             TU_V("p", ctx->p, n), TU_V("a", a0, n), TU_V("got", r, n), TU_V("want", want, n));
    free(a), tu_buf_free(r);
}

/* want = x mod p as n limbs */
static void want_of(uint64_t *w, mpz_t x, size_t n) {
    mpz_mod(x, x, P);
    tu_from_mpz(w, n, x);
}

static void check_pair(const tabai_mont *ctx, const uint64_t *a, const uint64_t *b) {
    size_t n = ctx->n;
    uint64_t w[NMAX];
    mpz_t A, B;
    mpz_inits(A, B, NULL);
    tu_to_mpz(A, a, n);
    tu_to_mpz(B, b, n);
    /* mul, and a == b / r == a == b on the square */
    mpz_mul(T, A, B), mpz_mul(T, T, RINV), want_of(w, T, n);
    check_bin("tabai_mont_mul", tabai_mont_mul, ctx, a, b, w);
    mpz_mul(T, A, A), mpz_mul(T, T, RINV), want_of(w, T, n);
    check_bin("tabai_mont_mul a == b", tabai_mont_mul, ctx, a, NULL, w);
    check_un("tabai_mont_sqr", tabai_mont_sqr, ctx, a, w);
    mpz_mul(T, B, B), mpz_mul(T, T, RINV), want_of(w, T, n);
    check_un("tabai_mont_sqr", tabai_mont_sqr, ctx, b, w);
    /* to / from */
    mpz_mul(T, A, R), want_of(w, T, n);
    check_un("tabai_mont_to", tabai_mont_to, ctx, a, w);
    mpz_mul(T, A, RINV), want_of(w, T, n);
    check_un("tabai_mont_from", tabai_mont_from, ctx, a, w);
    /* add, sub, neg */
    mpz_add(T, A, B), want_of(w, T, n);
    check_bin("tabai_mont_add", tabai_mont_add, ctx, a, b, w);
    mpz_add(T, A, A), want_of(w, T, n);
    check_bin("tabai_mont_add a == b", tabai_mont_add, ctx, a, NULL, w);
    mpz_sub(T, A, B), want_of(w, T, n);
    check_bin("tabai_mont_sub", tabai_mont_sub, ctx, a, b, w);
    mpz_sub(T, B, A), want_of(w, T, n);
    check_bin("tabai_mont_sub (b - a)", tabai_mont_sub, ctx, b, a, w);
    mpz_set_ui(T, 0), want_of(w, T, n);
    check_bin("tabai_mont_sub a == b", tabai_mont_sub, ctx, a, NULL, w);
    mpz_neg(T, A), want_of(w, T, n);
    check_un("tabai_mont_neg", tabai_mont_neg, ctx, a, w);
    mpz_clears(A, B, NULL);
}

/* init three ways; check the context against GMP. Returns 1 if usable. */
static int check_init(tabai_mont *ctx, const uint64_t *p, size_t n) {
    uint64_t w[NMAX + 2];
    tu_to_mpz(P, p, n);
    mpz_set_ui(R, 0);
    mpz_setbit(R, 64 * n);
    TU_CHECK(mpz_invert(RINV, R, P) != 0, "R invertible mod p (test setup)", n, TU_V("p", p, n));
    tabai_status s = tabai_mont_init(ctx, p, n);
    TU_CHECK(s == TABAI_OK && ctx->n == n, "tabai_mont_init", n, TU_V("p", p, n));
    if (s != TABAI_OK || ctx->n != n) return 0;
    TU_CHECK(tu_eq_n(ctx->p, p, n) && ctx->pinv * p[0] == ~(uint64_t)0 &&
                 ctx->bits == mpz_sizeinbase(P, 2) && ctx->mul && ctx->sqr && ctx->add && ctx->sub,
             "tabai_mont_init: p, pinv, bits, kernels", n, TU_V("p", p, n),
             TU_V("pinv", &ctx->pinv, 1));
    mpz_mul(T, R, R), want_of(w, T, n);
    TU_CHECK(tu_eq_n(ctx->rr, w, n), "tabai_mont_init: rr = R^2 mod p", n, TU_V("p", p, n),
             TU_V("got", ctx->rr, n), TU_V("want", w, n));
    mpz_set(T, R), want_of(w, T, n);
    TU_CHECK(tu_eq_n(ctx->one, w, n), "tabai_mont_init: one = R mod p", n, TU_V("p", p, n),
             TU_V("got", ctx->one, n), TU_V("want", w, n));
    TU_CHECK(ctx->tier == tabai_cpu_tier(), "tabai_mont_init: tier of the kernels", n,
             TU_V("p", p, n));
    /* leading zero limbs are stripped */
    tabai_mont c2;
    memcpy(w, p, n * 8);
    w[n] = w[n + 1] = 0;
    size_t extra = n + 2 <= NMAX ? 2 : NMAX - n;
    s = tabai_mont_init(&c2, w, n + extra);
    TU_CHECK(s == TABAI_OK && c2.n == n && c2.pinv == ctx->pinv && tu_eq_n(c2.rr, ctx->rr, n) &&
                 tu_eq_n(c2.one, ctx->one, n),
             "tabai_mont_init with leading zero limbs", n, TU_V("p", p, n));
    /* big-endian bytes with 0..3 leading zero bytes */
    size_t z = tu_below(4), len = 8 * n + z;
    uint8_t *be = calloc(len, 1);
    TU_CHECK(tabai_to_bytes(be + z, 8 * n, p, n) == TABAI_OK, "tabai_to_bytes", n, TU_V("p", p, n));
    s = tabai_mont_init_bytes(&c2, be, len);
    TU_CHECK(s == TABAI_OK && c2.n == n && tu_eq_n(c2.p, p, n) && c2.pinv == ctx->pinv &&
                 tu_eq_n(c2.rr, ctx->rr, n) && tu_eq_n(c2.one, ctx->one, n),
             "tabai_mont_init_bytes", n, TU_V("p", p, n));
    /* and without the leading zero bytes of the top limb */
    size_t skip = z;
    while (skip < len - 1 && be[skip] == 0) skip++;
    s = tabai_mont_init_bytes(&c2, be + skip, len - skip);
    TU_CHECK(s == TABAI_OK && c2.n == n && c2.pinv == ctx->pinv && tu_eq_n(c2.rr, ctx->rr, n),
             "tabai_mont_init_bytes (minimal length)", n, TU_V("p", p, n));
    free(be);
    return 1;
}

static const int fixed_pairs[][2] = {
    {TU_OP_PM1, TU_OP_PM1},   {TU_OP_PM1, TU_OP_PM2}, {TU_OP_RMODP, TU_OP_PM1},
    {TU_OP_ZERO, TU_OP_PM1},  {TU_OP_ONE, TU_OP_UNIFORM}, {TU_OP_RMODP, TU_OP_RMODP},
    {TU_OP_NEARP, TU_OP_HALF}, {TU_OP_EDGE, TU_OP_RUNS}};

static void check_modulus(const uint64_t *p, size_t n, size_t random_pairs) {
    static tabai_mont ctx;
    if (!check_init(&ctx, p, n)) return;
    uint64_t a[NMAX], b[NMAX];
    size_t nf = sizeof fixed_pairs / sizeof fixed_pairs[0];
    for (size_t i = 0; i < nf + random_pairs; i++) {
        int ca = i < nf ? fixed_pairs[i][0] : (int)tu_below(TU_OP_COUNT);
        int cb = i < nf ? fixed_pairs[i][1] : (int)tu_below(TU_OP_COUNT);
        if (i >= nf && i % 3 == 0) ca = cb = TU_OP_UNIFORM;
        tu_operand(a, p, n, ca);
        tu_operand(b, p, n, cb);
        check_pair(&ctx, a, b);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    mpz_inits(P, RINV, R, T, U, NULL);
    uint64_t p[NMAX];
    for (size_t n = 1; n <= NMAX; n++) {
        size_t pairs = tu_iters(n <= 16 ? 10 : n <= 40 ? 3 : 1);
        for (int cls = 0; cls < TU_MOD_COUNT; cls++) {
            if (cls == TU_MOD_POW2) continue; /* odd: the same as 2^k + 1 */
            if (n > 40 && (cls + n) % 3 != 0) continue;
            tu_modulus(p, n, cls, TU_ODD);
            tu_note("modulus class %s", tu_mod_name(cls));
            check_modulus(p, n, pairs);
        }
        for (size_t i = 0; i < tu_real_moduli_count; i++) {
            if (tu_real_moduli[i].n != n) continue;
            tu_note("modulus %s", tu_real_moduli[i].name);
            check_modulus(tu_real_moduli[i].limbs, n, pairs);
        }
    }
    mpz_clears(P, RINV, R, T, U, NULL);
    return tu_finish();
}
