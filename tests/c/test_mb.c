/* Tests of the multi-buffer Montgomery kernels (src/mb/mb.h) against GMP, per lane:
 *  - every kernel of tabai_mb_kernels[] that tabai_mb_kernel_usable() reports at the tier in
 *    use (the others are skipped and named), and the portable reference
 *    tabai_mont_mul_rwn_mbl_generic at L = 4, 8 and w = 32, 52 (always), for every digit
 *    count d = 1 .. ceil(TABAI_MB_MAX_BITS / w): mont_mul and mont_sqr against
 *    a*b*2^(-w d) mod p, digit for digit against the reference kernel, output digits
 *    normalised, guard words intact;
 *  - each lane its own modulus, of a different class per lane: uniform d-digit, smallest
 *    d-digit values 2^(w(d-1)) + c, largest 2^(w d) - c, 2^(w d) - 1 (all digits 2^w - 1),
 *    top digit 1, runs of bits, short moduli (random length, down to 3), 2^k +- c;
 *  - operands of a different class per lane: 0, 1, p-1, p-2, uniform, (2^(w d) - 1) mod p,
 *    R mod p, floor(p/2), runs mod p; and for every d a group with every lane
 *    p = 2^(w d) - 1 or 2^(w d) - c and a, b in {p - 1, p - 2}, where the digit products
 *    reach their maximum (the accumulator bound);
 *  - the stack scribbled before each call (the kernels do not zero their accumulators);
 *  - aliasing r == a, r == b, r == a == b (mul), r == a (sqr);
 *  - tabai_mb_powmod (with tabai_mb_mont_init, tabai_mb_to/from_digits) against mpz_powm at
 *    64, 256, 1024, 2048 bits (and 4096 once), random and edge exponents, NULL lanes;
 *  - the table scans tabai_mb_scan_avx2 (4 lanes) and tabai_mb_scan_avx512 (4 and 8) where
 *    the tier has them, against a plain read: entries 1 to 64, d = 1 to 9 digits, each
 *    lane's index random or out of range (all ones: zeros), guard words intact.
 * TABAI_TEST_SEED replays a run; TABAI_TEST_ITERS scales the counts. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb/mb.h"
#include "testutil.h"

#define MAXL TABAI_MB_MAX_LANES
#define MAXD TABAI_MB_MAX_DIGITS
#define MAXW (MAXD * MAXL)

/* ---- the kernels under test: the list's entries plus the reference as pseudo-kernels ---- */

typedef struct kut {
    const char *name;
    unsigned L, w;
    tabai_mb_mont_mul_fn mul;
    tabai_mb_mont_sqr_fn sqr;
    int is_ref;
} kut;

#define REF(LL, WW)                                                                           \
    static void ref_mul_##LL##_##WW(uint64_t *r, const uint64_t *a, const uint64_t *b,      \
                                    const uint64_t *p, const uint64_t *k0, size_t d) {      \
        tabai_mont_mul_rwn_mbl_generic(r, a, b, p, k0, d, LL, WW);                          \
    }                                                                                         \
    static void ref_sqr_##LL##_##WW(uint64_t *r, const uint64_t *a, const uint64_t *p,      \
                                    const uint64_t *k0, size_t d) {                         \
        tabai_mont_mul_rwn_mbl_generic(r, a, a, p, k0, d, LL, WW);                          \
    }
REF(8, 52)
REF(4, 52)
REF(8, 32)
REF(4, 32)

static tabai_mb_mont_mul_fn ref_for(unsigned L, unsigned w) {
    if (w == 52) return L == 8 ? ref_mul_8_52 : ref_mul_4_52;
    return L == 8 ? ref_mul_8_32 : ref_mul_4_32;
}

/* ---- digits <-> mpz, one lane ---- */

static void lane_get(mpz_t z, const uint64_t *x, unsigned L, unsigned l, size_t d, unsigned w) {
    mpz_set_ui(z, 0);
    for (size_t i = d; i-- > 0;) {
        mpz_mul_2exp(z, z, w);
        mpz_add_ui(z, z, x[i * L + l]);
    }
}

static void lane_set(uint64_t *x, unsigned L, unsigned l, size_t d, unsigned w, const mpz_t z) {
    mpz_t t, q;
    mpz_inits(t, q, NULL);
    mpz_set(t, z);
    for (size_t i = 0; i < d; i++) {
        mpz_tdiv_r_2exp(q, t, w);
        x[i * L + l] = mpz_get_ui(q);
        mpz_tdiv_q_2exp(t, t, w);
    }
    if (mpz_sgn(t) != 0) {
        fprintf(stderr, "lane_set: value too long\n");
        abort();
    }
    mpz_clears(t, q, NULL);
}

/* z = a value below 2^bits of limb class cls */
static void rand_bits(mpz_t z, size_t bits, int cls) {
    uint64_t limbs[80]; /* up to 52 * 79 + 64 = 4172 bits */
    if (bits > 64 * 80) abort();
    size_t n = (bits + 63) / 64;
    tu_fill(limbs, n, cls);
    mpz_import(z, n, -1, 8, 0, 0, limbs);
    mpz_tdiv_r_2exp(z, z, bits);
}

/* ---- moduli and operands, a class per lane ---- */

enum { M_UNIFORM, M_LOW, M_HIGH, M_ALLONES, M_TOP1, M_RUNS, M_SHORT, M_POW2P, M_POW2M, M_COUNT };
static const char *const mod_names[M_COUNT] = {"uniform", "2^(w(d-1))+c", "2^(wd)-c",
                                               "2^(wd)-1", "top digit 1", "runs", "short",
                                               "2^k+c", "2^k-c"};

static void make_modulus(mpz_t p, size_t d, unsigned w, int cls) {
    const size_t bits = w * d;
    mpz_t t;
    mpz_init(t);
    switch (cls) {
    case M_UNIFORM:
        rand_bits(p, bits, TU_UNIFORM);
        mpz_setbit(p, bits - 1 - tu_below(w)); /* d digits, top digit non-zero */
        break;
    case M_LOW:
        mpz_set_ui(p, 0);
        mpz_setbit(p, w * (d - 1));
        mpz_add_ui(p, p, tu_below(1000));
        break;
    case M_HIGH:
        mpz_set_ui(p, 0);
        mpz_setbit(p, bits);
        mpz_sub_ui(p, p, 1 + tu_below(1000));
        break;
    case M_ALLONES:
        mpz_set_ui(p, 0);
        mpz_setbit(p, bits);
        mpz_sub_ui(p, p, 1);
        break;
    case M_TOP1:
        rand_bits(p, w * (d - 1), tu_below(2) ? TU_UNIFORM : TU_ONES);
        mpz_setbit(p, w * (d - 1));
        break;
    case M_RUNS:
        rand_bits(p, bits, TU_RUNS);
        break;
    case M_SHORT:
        rand_bits(p, 2 + tu_below(bits - 1), TU_UNIFORM);
        break;
    case M_POW2P:
    case M_POW2M: {
        size_t k = 2 + tu_below(bits - 1); /* 2^k +- c < 2^(w d) */
        mpz_set_ui(p, 0);
        mpz_setbit(p, k - (cls == M_POW2P));
        mpz_set_ui(t, 1 + tu_below(64));
        if (cls == M_POW2P) mpz_add(p, p, t);
        else mpz_sub(p, p, t);
        break;
    }
    }
    mpz_setbit(p, 0); /* odd */
    if (mpz_cmp_ui(p, 3) < 0) mpz_set_ui(p, 3);
    if (mpz_sizeinbase(p, 2) > bits) { /* 2^k + c rounding up: stay below R */
        mpz_set_ui(p, 0);
        mpz_setbit(p, bits);
        mpz_sub_ui(p, p, 1);
    }
    mpz_clear(t);
}

enum { O_ZERO, O_ONE, O_PM1, O_PM2, O_UNIFORM, O_ONESMOD, O_RMODP, O_HALF, O_RUNS, O_COUNT };

static void make_operand(mpz_t a, const mpz_t p, size_t d, unsigned w, int cls) {
    switch (cls) {
    case O_ZERO: mpz_set_ui(a, 0); break;
    case O_ONE: mpz_set_ui(a, 1); break;
    case O_PM1: mpz_sub_ui(a, p, 1); break;
    case O_PM2: mpz_sub_ui(a, p, 2); break;
    case O_UNIFORM: rand_bits(a, w * d + 64, TU_UNIFORM); break;
    case O_ONESMOD:
        mpz_set_ui(a, 0);
        mpz_setbit(a, w * d);
        mpz_sub_ui(a, a, 1);
        break;
    case O_RMODP:
        mpz_set_ui(a, 0);
        mpz_setbit(a, w * d);
        break;
    case O_HALF: mpz_tdiv_q_2exp(a, p, 1); break;
    default: rand_bits(a, w * d, TU_RUNS); break;
    }
    mpz_mod(a, a, p);
}

/* k0 = -p^-1 mod 2^w */
static uint64_t neg_inv(const mpz_t p, unsigned w) {
    mpz_t m, x;
    mpz_inits(m, x, NULL);
    mpz_set_ui(m, 0);
    mpz_setbit(m, w);
    mpz_invert(x, p, m);
    mpz_sub(x, m, x);
    uint64_t k = mpz_get_ui(x);
    mpz_clears(m, x, NULL);
    return k;
}

/* ---- one group of L moduli at digit count d ---- */

typedef struct group {
    unsigned L, w;
    size_t d;
    mpz_t p[MAXL], rinv[MAXL];
    uint64_t pd[MAXW], k0[MAXL];
    int cls[MAXL];
} group;

/* worst: every lane 2^(w d) - 1 or 2^(w d) - c */
static void group_make(group *g, unsigned L, unsigned w, size_t d, unsigned salt, int worst) {
    g->L = L;
    g->w = w;
    g->d = d;
    mpz_t R;
    mpz_init(R);
    mpz_setbit(R, w * d);
    for (unsigned l = 0; l < L; l++) {
        mpz_inits(g->p[l], g->rinv[l], NULL);
        g->cls[l] = worst ? (l % 2 ? M_HIGH : M_ALLONES) : (int)((l + salt) % M_COUNT);
        make_modulus(g->p[l], d, w, g->cls[l]);
        lane_set(g->pd, L, l, d, w, g->p[l]);
        g->k0[l] = neg_inv(g->p[l], w);
        mpz_invert(g->rinv[l], R, g->p[l]);
    }
    mpz_clear(R);
}

static void group_free(group *g) {
    for (unsigned l = 0; l < g->L; l++) mpz_clears(g->p[l], g->rinv[l], NULL);
}

/* Check r (d*L digits) against a*b*R^-1 mod p lane by lane and against ref digit for digit. */
static void check_result(const kut *k, const group *g, const char *what, const uint64_t *r,
                         const uint64_t *ref, const uint64_t *a, const uint64_t *b) {
    const unsigned L = g->L, w = g->w;
    const size_t d = g->d, n = (w * d + 63) / 64;
    mpz_t x, y, e, got;
    mpz_inits(x, y, e, got, NULL);
    int digits_ok = 1;
    for (size_t i = 0; i < d * L; i++) digits_ok &= r[i] >> w == 0;
    tu_note("kernel %s, %s, d = %zu", k->name, what, d);
    TU_CHECK(digits_ok, "output digits normalised", d, TU_NOV);
    if (ref) TU_CHECK(tu_eq_n(r, ref, d * L), "same digits as the reference", d, TU_NOV);
    tu_note("");
    for (unsigned l = 0; l < L; l++) {
        lane_get(x, a, L, l, d, w);
        lane_get(y, b, L, l, d, w);
        mpz_mul(e, x, y);
        mpz_mul(e, e, g->rinv[l]);
        mpz_mod(e, e, g->p[l]);
        lane_get(got, r, L, l, d, w);
        if (mpz_cmp(got, e) != 0) {
            uint64_t va[MAXD], vb[MAXD], vp[MAXD], vr[MAXD], ve[MAXD];
            tu_from_mpz(va, n, x);
            tu_from_mpz(vb, n, y);
            tu_from_mpz(vp, n, g->p[l]);
            tu_from_mpz(vr, n, got);
            tu_from_mpz(ve, n, e);
            tu_note("kernel %s, %s, d = %zu, lane %u, modulus class %s", k->name, what, d, l,
                    mod_names[g->cls[l]]);
            TU_CHECK(0, "r == a*b*R^-1 mod p", n, TU_V("a", va, n), TU_V("b", vb, n),
                     TU_V("p", vp, n), TU_V("r", vr, n), TU_V("expected", ve, n));
            tu_note("");
        } else {
            TU_CHECK(1, "r == a*b*R^-1 mod p", n, TU_NOV);
        }
    }
    mpz_clears(x, y, e, got, NULL);
}

/* Fill the stack below the caller with a pattern: the kernels keep their accumulators in
 * stack arrays without zeroing them first, so a read of a digit before its first write
 * would pick this up (and give a wrong result) rather than a leftover zero. */
static __attribute__((noinline)) void scribble_stack(uint64_t pattern) {
    volatile uint64_t junk[4096];
    for (size_t i = 0; i < 4096; i++) junk[i] = pattern ^ (i * 0x9e3779b97f4a7c15ULL);
    (void)junk[0];
}

/* All products of one group: operand classes per lane rotate with salt; worst: every lane
 * a, b in {p - 1, p - 2} (with p = 2^(w d) - 1 every digit product at its maximum). */
static void test_group(const kut *k, const group *g, unsigned salt, int worst) {
    const unsigned L = g->L, w = g->w;
    const size_t d = g->d, nw = d * L;
    uint64_t a[MAXW], b[MAXW], ref[MAXW], tmp[MAXW];
    uint64_t *r = tu_buf_new(nw);
    tabai_mb_mont_mul_fn refmul = ref_for(L, w);
    mpz_t x;
    mpz_init(x);
    for (unsigned l = 0; l < L; l++) {
        make_operand(x, g->p[l], d, w,
                     worst ? (salt + l) % 2 ? O_PM2 : O_PM1 : (int)((l + salt) % O_COUNT));
        lane_set(a, L, l, d, w, x);
        make_operand(x, g->p[l], d, w,
                     worst ? (salt + l / 2) % 2 ? O_PM2 : O_PM1
                                  : (int)((3 * l + salt / O_COUNT + 1) % O_COUNT));
        lane_set(b, L, l, d, w, x);
    }
    /* mul */
    refmul(ref, a, b, g->pd, g->k0, d);
    const uint64_t *cmp = k->is_ref ? NULL : ref;
    tu_buf_fill(r, nw, 0x5a5a5a5a5a5a5a5aULL);
    scribble_stack(tu_rand());
    k->mul(r, a, b, g->pd, g->k0, d);
    check_result(k, g, "mul", r, cmp, a, b);
    TU_CHECK(tu_buf_ok(r), "guards intact (mul)", d, TU_NOV);
    /* sqr */
    refmul(ref, a, a, g->pd, g->k0, d);
    tu_buf_fill(r, nw, 0xa5a5a5a5a5a5a5a5ULL);
    scribble_stack(tu_rand());
    k->sqr(r, a, g->pd, g->k0, d);
    check_result(k, g, "sqr", r, cmp, a, a);
    TU_CHECK(tu_buf_ok(r), "guards intact (sqr)", d, TU_NOV);
    /* aliasing */
    refmul(ref, a, b, g->pd, g->k0, d);
    memcpy(tmp, a, nw * 8);
    k->mul(tmp, tmp, b, g->pd, g->k0, d);
    check_result(k, g, "mul r == a", tmp, cmp, a, b);
    memcpy(tmp, b, nw * 8);
    k->mul(tmp, a, tmp, g->pd, g->k0, d);
    check_result(k, g, "mul r == b", tmp, cmp, a, b);
    refmul(ref, a, a, g->pd, g->k0, d);
    memcpy(tmp, a, nw * 8);
    k->mul(tmp, tmp, tmp, g->pd, g->k0, d);
    check_result(k, g, "mul r == a == b", tmp, cmp, a, a);
    memcpy(tmp, a, nw * 8);
    k->sqr(tmp, tmp, g->pd, g->k0, d);
    check_result(k, g, "sqr r == a", tmp, cmp, a, a);
    mpz_clear(x);
    tu_buf_free(r);
}

static void test_kernel(const kut *k) {
    const size_t maxd = tabai_mb_digits(TABAI_MB_MAX_BITS, k->w);
    const unsigned long long c0 = tu_checks, f0 = tu_failures;
    /* the reference is slow: fewer groups */
    const size_t groups = tu_iters(k->is_ref ? 1 : 3), ops = tu_iters(k->is_ref ? 3 : 10);
    for (size_t d = 1; d <= maxd; d++) {
        for (size_t gi = 0; gi < groups; gi++) {
            group g;
            group_make(&g, k->L, k->w, d, (unsigned)(gi * 3 + d), 0);
            for (size_t oi = 0; oi < ops; oi++)
                test_group(k, &g, (unsigned)(oi + gi * ops + d), 0);
            group_free(&g);
        }
        group g; /* the largest moduli and operands: the accumulator bound */
        group_make(&g, k->L, k->w, d, 0, 1);
        for (unsigned oi = 0; oi < 4; oi++) test_group(k, &g, oi, 1);
        group_free(&g);
    }
    printf("  %-16s L=%u w=%u d=1..%zu: %llu checks, %llu failures\n", k->name, k->L, k->w,
           maxd, tu_checks - c0, tu_failures - f0);
}

/* ---- multi-buffer exponentiation ---- */

static void test_powmod(const tabai_mb_kernel *k, size_t bits, size_t reps) {
    const unsigned L = k->lanes, w = k->w;
    const size_t n = bits / 64;
    tabai_mb_mont *ctx = malloc(sizeof *ctx);
    uint64_t pl[MAXL][64], bl[MAXL][64], el[MAXL][64], rl[MAXL][64];
    uint64_t *bd = malloc(MAXW * 8), *rd = malloc(MAXW * 8);
    mpz_t p, b, e, want;
    mpz_inits(p, b, e, want, NULL);
    for (size_t rep = 0; rep < reps; rep++) {
        const uint64_t *pp[MAXL], *bp[MAXL], *ep[MAXL];
        uint64_t *rp[MAXL];
        for (unsigned l = 0; l < L; l++) {
            static const int mcls[] = {TU_MOD_UNIFORM, TU_MOD_TOP1, TU_MOD_TOPONES,
                                       TU_MOD_BELOW_R, TU_MOD_ABOVE_LOW, TU_MOD_ALLONES,
                                       TU_MOD_RUNS, TU_MOD_POW2_1};
            tu_modulus(pl[l], n, mcls[(l + rep) % 8], TU_ODD);
            tu_operand(bl[l], pl[l], n, (int)((l + 3 * rep) % TU_OP_COUNT));
            switch ((l + rep) % 5) {
            case 0: tu_fill(el[l], n, TU_ONES); break;
            case 1: tu_fill(el[l], n, TU_SPARSE); break;
            default: tu_fill(el[l], n, TU_UNIFORM); break;
            }
            pp[l] = pl[l];
            bp[l] = bl[l];
            ep[l] = ((l + rep) % 7 == 6) ? NULL : el[l]; /* exponent 0 */
            rp[l] = rl[l];
        }
        tabai_status s = tabai_mb_mont_init(ctx, k, pp, n);
        TU_CHECK(s == TABAI_OK, "tabai_mb_mont_init", n, TU_V("p0", pl[0], n));
        if (s != TABAI_OK) continue;
        const size_t ebits = 64 * n;
        uint64_t *scratch = malloc(tabai_mb_powmod_scratch(ctx, ebits) * 8);
        tabai_mb_to_digits(bd, L, w, ctx->d, bp, n);
        tabai_mb_powmod(ctx, rd, bd, ep, ebits, scratch);
        tabai_mb_from_digits(rp, n, rd, L, w, ctx->d);
        for (unsigned l = 0; l < L; l++) {
            tu_to_mpz(p, pl[l], n);
            tu_to_mpz(b, bl[l], n);
            if (ep[l]) tu_to_mpz(e, el[l], n);
            else mpz_set_ui(e, 0);
            mpz_powm(want, b, e, p);
            tu_note("kernel %s, powmod %zu bits, lane %u", k->name, bits, l);
            TU_CHECK(tu_eq_mpz(rl[l], n, want), "mb_powmod == mpz_powm", n, TU_V("p", pl[l], n),
                     TU_V("b", bl[l], n), TU_V("e", el[l], ep[l] ? n : 0),
                     TU_V("r", rl[l], n));
            tu_note("");
        }
        free(scratch);
    }
    mpz_clears(p, b, e, want, NULL);
    free(bd);
    free(rd);
    free(ctx);
}

/* ent = tab[idx_l] per lane against the plain read, for one scan kernel of L lanes */
static void test_scan(const char *name, tabai_mb_scan_fn scan, unsigned L) {
    static const size_t counts[] = {1, 2, 16, 17, 64};
    const unsigned long long c0 = tu_checks, f0 = tu_failures;
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
        for (size_t d = 1; d <= 9; d++)
            for (size_t it = 0; it < tu_iters(8); it++) {
                const size_t entries = counts[ci], words = d * L;
                uint64_t *tab = malloc(entries * words * 8), idx[8], want[9 * 8], got[9 * 8 + 4];
                for (size_t i = 0; i < entries * words; i++) tab[i] = tu_rand();
                for (unsigned l = 0; l < L; l++)
                    idx[l] = (tu_rand() & 7) == 0 ? ~UINT64_C(0) : tu_rand() % entries;
                for (size_t j = 0; j < d; j++)
                    for (unsigned l = 0; l < L; l++)
                        want[j * L + l] = idx[l] < entries ? tab[idx[l] * words + j * L + l] : 0;
                for (size_t i = 0; i < 9 * 8 + 4; i++) got[i] = 0x5a5a5a5a5a5a5a5au;
                scan(got, tab, entries, d, L, idx);
                TU_CHECK(memcmp(got, want, words * 8) == 0, name, words, TU_V("got", got, words),
                         TU_V("want", want, words));
                TU_CHECK(got[words] == 0x5a5a5a5a5a5a5a5au, "scan guard", 1, TU_NOV);
                free(tab);
            }
    printf("  %-16s scans: %llu checks, %llu failures\n", name, tu_checks - c0, tu_failures - f0);
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    printf("tier %s\n", tabai_cpu_name());
    if (tabai_cpu_tier() >= TABAI_TIER_AVX2) test_scan("scan_avx2", tabai_mb_scan_avx2, 4);
    else printf("  %-16s skipped (not usable at tier %s)\n", "scan_avx2", tabai_cpu_name());
    if (tabai_cpu_tier() >= TABAI_TIER_AVX512) {
        test_scan("scan_avx512 x8", tabai_mb_scan_avx512, 8);
        test_scan("scan_avx512 x4", tabai_mb_scan_avx512, 4);
    } else {
        printf("  %-16s skipped (not usable at tier %s)\n", "scan_avx512", tabai_cpu_name());
    }
    /* the reference itself, at every shape the kernels use */
    static const kut refs[] = {
        {"reference", 8, 52, ref_mul_8_52, ref_sqr_8_52, 1},
        {"reference", 4, 52, ref_mul_4_52, ref_sqr_4_52, 1},
        {"reference", 8, 32, ref_mul_8_32, ref_sqr_8_32, 1},
        {"reference", 4, 32, ref_mul_4_32, ref_sqr_4_32, 1},
    };
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) test_kernel(&refs[i]);
    for (const tabai_mb_kernel *k = tabai_mb_kernels; k->name; k++) {
        if (!tabai_mb_kernel_usable(k)) {
            printf("  %-16s skipped (not usable at tier %s)\n", k->name, tabai_cpu_name());
            continue;
        }
        kut u = {k->name, k->lanes, k->w, k->mont_mul, k->mont_sqr, 0};
        test_kernel(&u);
        const unsigned long long c0 = tu_checks, f0 = tu_failures;
        static const size_t sizes[] = {64, 256, 1024, 2048, 4096};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            test_powmod(k, sizes[i], sizes[i] == 4096 ? 1 : tu_iters(sizes[i] >= 2048 ? 2 : 4));
        printf("  %-16s powmod 64..4096 bits: %llu checks, %llu failures\n", k->name,
               tu_checks - c0, tu_failures - f0);
    }
    return tu_finish();
}
