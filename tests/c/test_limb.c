/* The raw limb functions of include/tabai.h against GMP's mpn layer, for every n = 1..128
 * and n = 129 .. 1000 (mul_n, sqr_n, mul: any n)
 * in the tier TABAI_CPU selects: tabai_add_n, sub_n, mul_n, sqr_n, mul (m x n), mul_1,
 * addmul_1, cmp_n, cnd_select_n, cnd_sub_n.
 * Operands: every named class of testutil (uniform, runs, edge limbs, zero, all ones,
 * alternating, sparse), a == b, every aliasing the doc comments allow, all pairs of edge
 * limbs at n = 1 and 2 (exhaustive), n = 0 (writes nothing). Every output sits between
 * guard limbs that must stay intact; inputs are exact-size heap copies (ASan sees any
 * over-read) and must be unchanged after the call. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

_Static_assert(sizeof(mp_limb_t) == sizeof(uint64_t), "GMP limbs must be 64-bit");
#define ML(p) ((mp_limb_t *)(p))
#define CML(p) ((const mp_limb_t *)(p))
#define NMAX TABAI_MAX_LIMBS

/* ---- add / sub ---- */
typedef uint64_t (*addsub_fn)(uint64_t *, const uint64_t *, const uint64_t *, size_t);

static void check_addsub(int is_sub, const uint64_t *a0, const uint64_t *b0, size_t n) {
    const char *what = is_sub ? "tabai_sub_n" : "tabai_add_n";
    addsub_fn f = is_sub ? tabai_sub_n : tabai_add_n;
    uint64_t want[NMAX], *a = tu_dup(a0, n), *b = tu_dup(b0, n), *r = tu_buf_new(n);
    uint64_t wc = is_sub ? mpn_sub_n(ML(want), CML(a0), CML(b0), n)
                         : mpn_add_n(ML(want), CML(a0), CML(b0), n);
    /* separate output */
    uint64_t c = f(r, a, b, n);
    TU_CHECK(tu_eq_n(r, want, n) && c == wc && tu_buf_ok(r) && tu_eq_n(a, a0, n) &&
                 tu_eq_n(b, b0, n),
             what, n, TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, n), TU_V("want", want, n),
             TU_V("carry", &c, 1), TU_V("want carry", &wc, 1));
    /* r == a */
    memcpy(r, a0, n * 8);
    c = f(r, r, b, n);
    TU_CHECK(tu_eq_n(r, want, n) && c == wc && tu_buf_ok(r), "r == a", n, TU_V("a", a0, n),
             TU_V("b", b0, n), TU_V("got", r, n), TU_V("want", want, n));
    /* r == b */
    memcpy(r, b0, n * 8);
    c = f(r, a, r, n);
    TU_CHECK(tu_eq_n(r, want, n) && c == wc && tu_buf_ok(r), "r == b", n, TU_V("a", a0, n),
             TU_V("b", b0, n), TU_V("got", r, n), TU_V("want", want, n));
    /* a == b (same pointer), then r == a == b */
    wc = is_sub ? mpn_sub_n(ML(want), CML(a0), CML(a0), n) : mpn_add_n(ML(want), CML(a0), CML(a0), n);
    c = f(r, a, a, n);
    TU_CHECK(tu_eq_n(r, want, n) && c == wc && tu_buf_ok(r) && tu_eq_n(a, a0, n), "a == b", n,
             TU_V("a", a0, n), TU_V("got", r, n), TU_V("want", want, n));
    memcpy(r, a0, n * 8);
    c = f(r, r, r, n);
    TU_CHECK(tu_eq_n(r, want, n) && c == wc && tu_buf_ok(r), "r == a == b", n, TU_V("a", a0, n),
             TU_V("got", r, n), TU_V("want", want, n));
    free(a), free(b), tu_buf_free(r);
}

/* ---- mul_n / sqr_n ---- */
static void check_mul_n(const uint64_t *a0, const uint64_t *b0, size_t n) {
    uint64_t *want = malloc(16 * n), *a = tu_dup(a0, n), *b = tu_dup(b0, n), *r = tu_buf_new(2 * n);
    mpn_mul_n(ML(want), CML(a0), CML(b0), n);
    tabai_mul_n(r, a, b, n);
    TU_CHECK(tu_eq_n(r, want, 2 * n) && tu_buf_ok(r) && tu_eq_n(a, a0, n) && tu_eq_n(b, b0, n),
             "tabai_mul_n", n, TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, 2 * n),
             TU_V("want", want, 2 * n));
    /* a == b (same pointer) against mpn_sqr */
    mpn_sqr(ML(want), CML(a0), n);
    tabai_mul_n(r, a, a, n);
    TU_CHECK(tu_eq_n(r, want, 2 * n) && tu_buf_ok(r) && tu_eq_n(a, a0, n), "tabai_mul_n a == b", n,
             TU_V("a", a0, n), TU_V("got", r, 2 * n), TU_V("want", want, 2 * n));
    free(want), free(a), free(b), tu_buf_free(r);
}

static void check_sqr_n(const uint64_t *a0, size_t n) {
    uint64_t *want = malloc(16 * n), *a = tu_dup(a0, n), *r = tu_buf_new(2 * n);
    mpn_sqr(ML(want), CML(a0), n);
    tabai_sqr_n(r, a, n);
    TU_CHECK(tu_eq_n(r, want, 2 * n) && tu_buf_ok(r) && tu_eq_n(a, a0, n), "tabai_sqr_n", n,
             TU_V("a", a0, n), TU_V("got", r, 2 * n), TU_V("want", want, 2 * n));
    free(want), free(a), tu_buf_free(r);
}

/* ---- mul (an x bn) ---- */
static void check_mul(const uint64_t *a0, size_t an, const uint64_t *b0, size_t bn) {
    uint64_t *want = malloc(8 * (an + bn)), *a = tu_dup(a0, an), *b = tu_dup(b0, bn),
             *r = tu_buf_new(an + bn);
    if (an >= bn) mpn_mul(ML(want), CML(a0), an, CML(b0), bn);
    else mpn_mul(ML(want), CML(b0), bn, CML(a0), an);
    tabai_mul(r, a, an, b, bn);
    size_t bnv = bn;
    TU_CHECK(tu_eq_n(r, want, an + bn) && tu_buf_ok(r) && tu_eq_n(a, a0, an) && tu_eq_n(b, b0, bn),
             "tabai_mul (an x bn)", an, TU_V("bn", &bnv, 1), TU_V("a", a0, an), TU_V("b", b0, bn),
             TU_V("got", r, an + bn), TU_V("want", want, an + bn));
    free(want), free(a), free(b), tu_buf_free(r);
}

/* ---- mul_1 / addmul_1 ---- */
static void check_mul_1(const uint64_t *a0, size_t n, uint64_t m, const uint64_t *r0) {
    uint64_t want[NMAX], *a = tu_dup(a0, n), *r = tu_buf_new(n);
    uint64_t wh = mpn_mul_1(ML(want), CML(a0), n, m);
    uint64_t h = tabai_mul_1(r, a, n, m);
    TU_CHECK(tu_eq_n(r, want, n) && h == wh && tu_buf_ok(r) && tu_eq_n(a, a0, n), "tabai_mul_1", n,
             TU_V("a", a0, n), TU_V("b", &m, 1), TU_V("got", r, n), TU_V("want", want, n),
             TU_V("high", &h, 1), TU_V("want high", &wh, 1));
    memcpy(r, a0, n * 8);
    h = tabai_mul_1(r, r, n, m);
    TU_CHECK(tu_eq_n(r, want, n) && h == wh && tu_buf_ok(r), "tabai_mul_1 r == a", n,
             TU_V("a", a0, n), TU_V("b", &m, 1), TU_V("got", r, n), TU_V("want", want, n));
    /* addmul_1: r0 += a*m */
    memcpy(want, r0, n * 8);
    wh = mpn_addmul_1(ML(want), CML(a0), n, m);
    memcpy(r, r0, n * 8);
    h = tabai_addmul_1(r, a, n, m);
    TU_CHECK(tu_eq_n(r, want, n) && h == wh && tu_buf_ok(r) && tu_eq_n(a, a0, n), "tabai_addmul_1",
             n, TU_V("r in", r0, n), TU_V("a", a0, n), TU_V("b", &m, 1), TU_V("got", r, n),
             TU_V("want", want, n), TU_V("high", &h, 1), TU_V("want high", &wh, 1));
    /* addmul_1 with r == a: a += a*m */
    memcpy(want, a0, n * 8);
    wh = mpn_addmul_1(ML(want), CML(a0), n, m);
    memcpy(r, a0, n * 8);
    h = tabai_addmul_1(r, r, n, m);
    TU_CHECK(tu_eq_n(r, want, n) && h == wh && tu_buf_ok(r), "tabai_addmul_1 r == a", n,
             TU_V("a", a0, n), TU_V("b", &m, 1), TU_V("got", r, n), TU_V("want", want, n));
    free(a), tu_buf_free(r);
}

/* ---- cmp / cnd_select / cnd_sub ---- */
static int sign(int x) { return (x > 0) - (x < 0); }

static void check_cmp(const uint64_t *a0, const uint64_t *b0, size_t n) {
    uint64_t *a = tu_dup(a0, n), *b = tu_dup(b0, n);
    int want = sign(mpn_cmp(CML(a0), CML(b0), n)), got = tabai_cmp_n(a, b, n);
    uint64_t g = (uint64_t)(int64_t)got, w = (uint64_t)(int64_t)want;
    TU_CHECK(got == want && tu_eq_n(a, a0, n) && tu_eq_n(b, b0, n), "tabai_cmp_n", n,
             TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", &g, 1), TU_V("want", &w, 1));
    got = tabai_cmp_n(b, a, n);
    TU_CHECK(got == -want, "tabai_cmp_n (swapped)", n, TU_V("a", b0, n), TU_V("b", a0, n));
    TU_CHECK(tabai_cmp_n(a, a, n) == 0, "tabai_cmp_n a == a", n, TU_V("a", a0, n));
    free(a), free(b);
}

static const uint64_t conds[] = {0, 1, 2, 0x8000000000000000u, 0xffffffffffffffffu, 0x100};

static void check_cnd(const uint64_t *a0, const uint64_t *b0, size_t n) {
    uint64_t want[NMAX], *a = tu_dup(a0, n), *b = tu_dup(b0, n), *r = tu_buf_new(n);
    for (size_t ci = 0; ci < sizeof conds / sizeof conds[0]; ci++) {
        uint64_t cond = conds[ci];
        const uint64_t *sel = cond ? a0 : b0;
        /* select: separate, r == a, r == b, a == b */
        tabai_cnd_select_n(r, cond, a, b, n);
        TU_CHECK(tu_eq_n(r, sel, n) && tu_buf_ok(r) && tu_eq_n(a, a0, n) && tu_eq_n(b, b0, n),
                 "tabai_cnd_select_n", n, TU_V("cond", &cond, 1), TU_V("a", a0, n),
                 TU_V("b", b0, n), TU_V("got", r, n));
        memcpy(r, a0, n * 8);
        tabai_cnd_select_n(r, cond, r, b, n);
        TU_CHECK(tu_eq_n(r, sel, n) && tu_buf_ok(r), "tabai_cnd_select_n r == a", n,
                 TU_V("cond", &cond, 1), TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, n));
        memcpy(r, b0, n * 8);
        tabai_cnd_select_n(r, cond, a, r, n);
        TU_CHECK(tu_eq_n(r, sel, n) && tu_buf_ok(r), "tabai_cnd_select_n r == b", n,
                 TU_V("cond", &cond, 1), TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, n));
        tabai_cnd_select_n(r, cond, a, a, n);
        TU_CHECK(tu_eq_n(r, a0, n) && tu_buf_ok(r), "tabai_cnd_select_n a == b", n,
                 TU_V("cond", &cond, 1), TU_V("a", a0, n), TU_V("got", r, n));
        /* cnd_sub: r = cond ? a - b : a, borrow only if cond */
        uint64_t wb = 0;
        if (cond) wb = mpn_sub_n(ML(want), CML(a0), CML(b0), n);
        else memcpy(want, a0, n * 8);
        uint64_t bw = tabai_cnd_sub_n(r, cond, a, b, n);
        TU_CHECK(tu_eq_n(r, want, n) && bw == wb && tu_buf_ok(r) && tu_eq_n(a, a0, n) &&
                     tu_eq_n(b, b0, n),
                 "tabai_cnd_sub_n", n, TU_V("cond", &cond, 1), TU_V("a", a0, n), TU_V("b", b0, n),
                 TU_V("got", r, n), TU_V("want", want, n), TU_V("borrow", &bw, 1),
                 TU_V("want borrow", &wb, 1));
        memcpy(r, a0, n * 8);
        bw = tabai_cnd_sub_n(r, cond, r, b, n);
        TU_CHECK(tu_eq_n(r, want, n) && bw == wb && tu_buf_ok(r), "tabai_cnd_sub_n r == a", n,
                 TU_V("cond", &cond, 1), TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, n),
                 TU_V("want", want, n));
        memcpy(r, b0, n * 8);
        bw = tabai_cnd_sub_n(r, cond, a, r, n);
        TU_CHECK(tu_eq_n(r, want, n) && bw == wb && tu_buf_ok(r), "tabai_cnd_sub_n r == b", n,
                 TU_V("cond", &cond, 1), TU_V("a", a0, n), TU_V("b", b0, n), TU_V("got", r, n),
                 TU_V("want", want, n));
        memcpy(r, a0, n * 8);
        bw = tabai_cnd_sub_n(r, cond, r, r, n);
        for (size_t i = 0; i < n; i++) want[i] = cond ? 0 : a0[i];
        TU_CHECK(tu_eq_n(r, want, n) && bw == 0 && tu_buf_ok(r), "tabai_cnd_sub_n r == a == b", n,
                 TU_V("cond", &cond, 1), TU_V("a", a0, n), TU_V("got", r, n));
    }
    free(a), free(b), tu_buf_free(r);
}

/* every operation on one pair of n-limb operands */
static void check_all(const uint64_t *a, const uint64_t *b, size_t n) {
    check_addsub(0, a, b, n);
    check_addsub(1, a, b, n);
    check_mul_n(a, b, n);
    check_sqr_n(a, n);
    check_sqr_n(b, n);
    check_cmp(a, b, n);
    check_cnd(a, b, n);
    uint64_t m = (tu_rand() & 1) ? tu_edge_limb() : tu_rand();
    check_mul_1(a, n, m, b);
}

/* all pairs of operands made of edge limbs, n = 1 and 2 */
static void exhaustive_edges(void) {
    uint64_t a[2], b[2];
    tu_note("exhaustive edge limbs");
    for (size_t n = 1; n <= 2; n++) {
        size_t count = n == 1 ? 6 : 36;
        for (size_t i = 0; i < count; i++) {
            a[0] = tu_edge_limbs[i % 6], a[1] = tu_edge_limbs[i / 6];
            for (size_t j = 0; j < count; j++) {
                b[0] = tu_edge_limbs[j % 6], b[1] = tu_edge_limbs[j / 6];
                check_addsub(0, a, b, n);
                check_addsub(1, a, b, n);
                check_mul_n(a, b, n);
                check_cmp(a, b, n);
                check_mul_1(a, n, b[0], b);
                check_mul(a, n, b, 1);
            }
            check_sqr_n(a, n);
        }
    }
}

/* n = 0: writes nothing, returns 0 */
static void check_zero_length(void) {
    uint64_t a[1] = {5}, b[1] = {7};
    uint64_t *r = tu_buf_new(0);
    tu_note("n = 0");
    TU_CHECK(tabai_add_n(r, a, b, 0) == 0 && tu_buf_ok(r), "tabai_add_n n = 0", 0, TU_NOV);
    TU_CHECK(tabai_sub_n(r, a, b, 0) == 0 && tu_buf_ok(r), "tabai_sub_n n = 0", 0, TU_NOV);
    tabai_mul_n(r, a, b, 0);
    tabai_sqr_n(r, a, 0);
    tabai_mul(r, a, 0, b, 0);
    TU_CHECK(tu_buf_ok(r), "mul_n/sqr_n/mul n = 0 write nothing", 0, TU_NOV);
    TU_CHECK(tabai_mul_1(r, a, 0, 3) == 0 && tabai_addmul_1(r, a, 0, 3) == 0 && tu_buf_ok(r),
             "mul_1/addmul_1 n = 0", 0, TU_NOV);
    TU_CHECK(tabai_cmp_n(a, b, 0) == 0, "cmp_n n = 0", 0, TU_NOV);
    tabai_cnd_select_n(r, 1, a, b, 0);
    TU_CHECK(tabai_cnd_sub_n(r, 1, a, b, 0) == 0 && tu_buf_ok(r), "cnd_* n = 0", 0, TU_NOV);
    tu_buf_free(r);
}

/* Above TABAI_MAX_LIMBS (no modulus): mul_n, sqr_n and mul (n x n and m x n) take any n,
 * their Karatsuba scratch sized from n. Sizes just above the limit (one more level, odd
 * halves), 2^k and far above it. */
static void check_big(void) {
    static const size_t sizes[] = {129, 130, 131, 200, 255, 256, 257, 1000};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        uint64_t *a = malloc(8 * n), *b = malloc(8 * n), *c = malloc(8 * n);
        size_t iters = tu_iters(n > 300 ? 2 : 4);
        for (size_t it = 0; it < iters; it++) {
            int ca = it < 2 ? (it ? TU_ONES : TU_UNIFORM) : tu_fill_any(a, n);
            int cb = it < 2 ? TU_ONES : tu_fill_any(b, n);
            if (it < 2) tu_fill(a, n, ca), tu_fill(b, n, cb);
            tu_note("big n, classes a %s, b %s", tu_class_name(ca), tu_class_name(cb));
            check_mul_n(a, b, n);
            check_sqr_n(a, n);
            check_mul(a, n, b, n);
            size_t an = 1 + tu_below(n);
            tu_fill_any(c, an);
            check_mul(c, an, b, n);
            check_mul(b, n, c, an);
        }
        free(a), free(b), free(c);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    check_zero_length();
    exhaustive_edges();
    uint64_t a[NMAX], b[NMAX], c[NMAX];
    for (size_t n = 1; n <= NMAX; n++) {
        size_t iters = tu_iters(n <= 16 ? 64 : n <= 40 ? 24 : 10);
        for (size_t it = 0; it < iters; it++) {
            int ca, cb;
            if (it < 2 * TU_CLASS_COUNT) { /* structured class pairs first */
                ca = (int)(it % TU_CLASS_COUNT);
                cb = (int)((it / TU_CLASS_COUNT + 3 * it + 1) % TU_CLASS_COUNT);
                tu_fill(a, n, ca);
                tu_fill(b, n, cb);
            } else {
                ca = tu_fill_any(a, n);
                cb = tu_fill_any(b, n);
            }
            tu_note("classes a %s, b %s", tu_class_name(ca), tu_class_name(cb));
            check_all(a, b, n);
            /* equal operands in different buffers; operands differing in one low limb */
            memcpy(c, a, n * 8);
            check_cmp(a, c, n);
            size_t k = tu_below(n);
            c[k] += (tu_rand() & 1) ? 1 : (uint64_t)-1;
            check_cmp(a, c, n);
            check_addsub(1, a, c, n);
            /* m x n products: bn = n against an = 1, n - 1, n + 1, random */
            size_t ans[4] = {1, n > 1 ? n - 1 : 1, n < NMAX ? n + 1 : n, 1 + tu_below(NMAX)};
            size_t an = ans[it % 4];
            tu_fill_any(c, an);
            check_mul(c, an, b, n);
            check_mul(b, n, c, an);
        }
    }
    check_big();
    return tu_finish();
}
