/* The dispatch layer (src/dispatch): for every tier up to the native one and every slot of its
 * kernel table (src/dispatch/tables.h), the slot is filled, its symbol name names its operation,
 * and it computes that operation (against GMP and against the generic table's slot 0):
 * add_n, sub_n, mul_1, addmul_1, mul[k], sqr[k], mont_mul[k], mont_sqr[k], mod_add[k],
 * mod_sub[k] for k = 1..16 at n = k, slot 0 at n = 1..40, 48, 64, 96, 128. Tiers above
 * native have no table. Also: tabai_tier_parse / tabai_tier_name, the features behind the
 * native tier, tabai_cpu_set_tier (tier in use, active table, contexts keep the kernels
 * they copied), and TABAI_CPU itself: run with --unknown-env under TABAI_CPU=<bogus>, the
 * program checks that the library printed a message and chose native. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/dispatch/tables.h"
#include "testutil.h"

#define NMAX TABAI_MAX_LIMBS
#define ML(p) ((mp_limb_t *)(p))
#define CML(p) ((const mp_limb_t *)(p))

static const char *const tiers[TABAI_TIER_COUNT] = {"generic", "bmi2", "avx2", "avx512", "ifma"};
static mpz_t P, A, B, T, RINV, RR;

static uint64_t neg_inv64(uint64_t p0) {
    uint64_t x = p0;
    for (int i = 0; i < 6; i++) x *= 2 - p0 * x;
    return (uint64_t)0 - x;
}

/* symbol of a slot: "<op>_n[k]_<tier>" with a tier name no higher than t */
static int sym_ok(const char *sym, const char *op, tabai_tier t) {
    if (!sym) return 0;
    size_t l = strlen(op);
    if (strncmp(sym, op, l) != 0 || sym[l] != '_' || sym[l + 1] != 'n') return 0;
    const char *us = strrchr(sym, '_');
    for (int i = 0; i <= (int)t; i++)
        if (strcmp(us + 1, tiers[i]) == 0) return 1;
    return 0;
}

static void check_limb_slots(const tabai_kernels *k, const tabai_kernels *g, tabai_tier t) {
    static const size_t ns[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 127, 128};
    TU_CHECK(k->add_n && k->sub_n && k->mul_1 && k->addmul_1, "add_n/sub_n/mul_1/addmul_1 filled", 0,
             TU_NOV);
    if (!(k->add_n && k->sub_n && k->mul_1 && k->addmul_1)) return;
    uint64_t a[NMAX], b[NMAX], r[NMAX], w[NMAX], r2[NMAX];
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        size_t n = ns[i];
        for (int it = 0; it < 3; it++) {
            tu_fill_any(a, n), tu_fill_any(b, n);
            uint64_t c = k->add_n(r, a, b, n), wc = mpn_add_n(ML(w), CML(a), CML(b), n);
            TU_CHECK(c == wc && tu_eq_n(r, w, n), "slot add_n", n, TU_V("a", a, n), TU_V("b", b, n));
            c = k->sub_n(r, a, b, n), wc = mpn_sub_n(ML(w), CML(a), CML(b), n);
            TU_CHECK(c == wc && tu_eq_n(r, w, n), "slot sub_n", n, TU_V("a", a, n), TU_V("b", b, n));
            uint64_t m = it == 0 ? ~(uint64_t)0 : tu_rand();
            c = k->mul_1(r, a, n, m), wc = mpn_mul_1(ML(w), CML(a), n, m);
            uint64_t gc = g->mul_1(r2, a, n, m);
            TU_CHECK(c == wc && tu_eq_n(r, w, n) && gc == c && tu_eq_n(r2, r, n), "slot mul_1", n,
                     TU_V("a", a, n), TU_V("b", &m, 1));
            memcpy(r, b, n * 8), memcpy(w, b, n * 8);
            c = k->addmul_1(r, a, n, m), wc = mpn_addmul_1(ML(w), CML(a), n, m);
            TU_CHECK(c == wc && tu_eq_n(r, w, n), "slot addmul_1", n, TU_V("r", b, n), TU_V("a", a, n),
                     TU_V("b", &m, 1));
        }
    }
    (void)t;
}

static void check_mul_slot(const tabai_kernels *k, const tabai_kernels *g, size_t slot, size_t n,
                           tabai_tier t) {
    uint64_t a[NMAX], b[NMAX], r[2 * NMAX], w[2 * NMAX], r2[2 * NMAX];
    TU_CHECK(k->mul[slot] && k->sqr[slot], "mul/sqr slot filled", slot, TU_NOV);
    TU_CHECK(sym_ok(k->mul_sym[slot], "mul", t) && sym_ok(k->sqr_sym[slot], "sqr", t),
             "mul/sqr slot symbol names", slot, TU_NOV);
    if (!k->mul[slot] || !k->sqr[slot]) return;
    for (int it = 0; it < 4; it++) {
        if (it == 0) tu_fill(a, n, TU_ONES), tu_fill(b, n, TU_ONES);
        else tu_fill_any(a, n), tu_fill_any(b, n);
        k->mul[slot](r, a, b, n);
        mpn_mul_n(ML(w), CML(a), CML(b), n);
        g->mul[0](r2, a, b, n);
        TU_CHECK(tu_eq_n(r, w, 2 * n) && tu_eq_n(r2, w, 2 * n), k->mul_sym[slot], n, TU_V("a", a, n),
                 TU_V("b", b, n), TU_V("got", r, 2 * n), TU_V("want", w, 2 * n));
        k->sqr[slot](r, a, n);
        mpn_sqr(ML(w), CML(a), n);
        g->sqr[0](r2, a, n);
        TU_CHECK(tu_eq_n(r, w, 2 * n) && tu_eq_n(r2, w, 2 * n), k->sqr_sym[slot], n, TU_V("a", a, n),
                 TU_V("got", r, 2 * n), TU_V("want", w, 2 * n));
    }
}

static void check_mont_slot(const tabai_kernels *k, const tabai_kernels *g, size_t slot, size_t n,
                            tabai_tier t) {
    TU_CHECK(k->mont_mul[slot] && k->mont_sqr[slot] && k->mod_add[slot] && k->mod_sub[slot],
             "mont/mod slots filled", slot, TU_NOV);
    TU_CHECK(sym_ok(k->mont_mul_sym[slot], "mont_mul", t) && sym_ok(k->mont_sqr_sym[slot], "mont_sqr", t),
             "mont slot symbol names", slot, TU_NOV);
    if (!(k->mont_mul[slot] && k->mont_sqr[slot] && k->mod_add[slot] && k->mod_sub[slot])) return;
    static const int mods[] = {TU_MOD_UNIFORM, TU_MOD_TOPONES, TU_MOD_BELOW_R, TU_MOD_TOP1,
                               TU_MOD_ALLONES, TU_MOD_ABOVE_LOW};
    uint64_t p[NMAX], a[NMAX], b[NMAX], r[NMAX], r2[NMAX], w[NMAX];
    for (size_t mi = 0; mi < sizeof mods / sizeof mods[0]; mi++) {
        tu_modulus(p, n, mods[mi], TU_ODD);
        uint64_t pinv = neg_inv64(p[0]);
        tu_to_mpz(P, p, n);
        mpz_set_ui(T, 0), mpz_setbit(T, 64 * n), mpz_invert(RINV, T, P);
        for (int it = 0; it < 3; it++) {
            tu_operand(a, p, n, it == 0 ? TU_OP_PM1 : TU_OP_UNIFORM);
            tu_operand(b, p, n, it == 0 ? TU_OP_PM1 : it == 1 ? TU_OP_RUNS : TU_OP_UNIFORM);
            tu_to_mpz(A, a, n), tu_to_mpz(B, b, n);
            tu_note("modulus class %s", tu_mod_name(mods[mi]));
            k->mont_mul[slot](r, a, b, p, pinv, n);
            g->mont_mul[0](r2, a, b, p, pinv, n);
            mpz_mul(T, A, B), mpz_mul(T, T, RINV), mpz_mod(T, T, P), tu_from_mpz(w, n, T);
            TU_CHECK(tu_eq_n(r, w, n) && tu_eq_n(r2, w, n), k->mont_mul_sym[slot], n, TU_V("p", p, n),
                     TU_V("a", a, n), TU_V("b", b, n), TU_V("got", r, n), TU_V("want", w, n));
            k->mont_sqr[slot](r, a, p, pinv, n);
            mpz_mul(T, A, A), mpz_mul(T, T, RINV), mpz_mod(T, T, P), tu_from_mpz(w, n, T);
            TU_CHECK(tu_eq_n(r, w, n), k->mont_sqr_sym[slot], n, TU_V("p", p, n), TU_V("a", a, n),
                     TU_V("got", r, n), TU_V("want", w, n));
            k->mod_add[slot](r, a, b, p, n);
            mpz_add(T, A, B), mpz_mod(T, T, P), tu_from_mpz(w, n, T);
            TU_CHECK(tu_eq_n(r, w, n), "mod_add slot", n, TU_V("p", p, n), TU_V("a", a, n),
                     TU_V("b", b, n), TU_V("got", r, n), TU_V("want", w, n));
            k->mod_sub[slot](r, a, b, p, n);
            mpz_sub(T, A, B), mpz_mod(T, T, P), tu_from_mpz(w, n, T);
            TU_CHECK(tu_eq_n(r, w, n), "mod_sub slot", n, TU_V("p", p, n), TU_V("a", a, n),
                     TU_V("b", b, n), TU_V("got", r, n), TU_V("want", w, n));
        }
    }
    tu_note("%s", "");
}

static void check_tables(void) {
    tabai_tier native = tabai_cpu_native_tier();
    const tabai_kernels *g = tabai_kernels_for_tier(TABAI_TIER_GENERIC);
    TU_CHECK(g != NULL, "generic table exists", 0, TU_NOV);
    if (!g) return;
    for (int ti = 0; ti < TABAI_TIER_COUNT; ti++) {
        tabai_tier t = (tabai_tier)ti;
        const tabai_kernels *k = tabai_kernels_for_tier(t);
        tu_note("table %s", tiers[ti]);
        if (ti > (int)native) {
            TU_CHECK(k == NULL, "no table above the native tier", 0, TU_NOV);
            continue;
        }
        TU_CHECK(k != NULL && k->tier == t && k->name && strcmp(k->name, tiers[ti]) == 0,
                 "table of a tier <= native: tier and name", 0, TU_NOV);
        if (!k) continue;
        check_limb_slots(k, g, t);
        for (size_t s = 1; s <= TABAI_FIXED_MAX; s++) {
            tu_note("table %s, slot %zu", tiers[ti], s);
            check_mul_slot(k, g, s, s, t);
            check_mont_slot(k, g, s, s, t);
        }
        static const size_t any_n[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
                                       15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                                       29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 48, 64,
                                       96, 128};
        for (size_t i = 0; i < sizeof any_n / sizeof any_n[0]; i++) {
            tu_note("table %s, slot 0, n = %zu", tiers[ti], any_n[i]);
            check_mul_slot(k, g, 0, any_n[i], t);
            check_mont_slot(k, g, 0, any_n[i], t);
        }
        tu_note("%s", "");
    }
    TU_CHECK(tabai_kernels_for_tier((tabai_tier)-1) == NULL &&
                 tabai_kernels_for_tier((tabai_tier)TABAI_TIER_COUNT) == NULL,
             "tabai_kernels_for_tier out of range", 0, TU_NOV);
}

static void check_names_and_features(void) {
    for (int i = 0; i < TABAI_TIER_COUNT; i++) {
        TU_CHECK(tabai_tier_name((tabai_tier)i) && strcmp(tabai_tier_name((tabai_tier)i), tiers[i]) == 0,
                 "tabai_tier_name", 0, TU_NOV);
        TU_CHECK(tabai_tier_parse(tiers[i]) == i, "tabai_tier_parse", 0, TU_NOV);
    }
    tabai_tier native = tabai_cpu_native_tier();
    TU_CHECK(tabai_tier_parse("native") == (int)native, "tabai_tier_parse(native)", 0, TU_NOV);
    TU_CHECK(tabai_tier_parse("bogus") == -1 && tabai_tier_parse("Generic") == -1 &&
                 tabai_tier_parse("bmi2 ") == -1,
             "tabai_tier_parse unknown", 0, TU_NOV);
    unsigned f = tabai_cpu_features();
    int bmi2 = (f & TABAI_CPU_BMI2) && (f & TABAI_CPU_ADX);
    int avx2 = bmi2 && (f & TABAI_CPU_AVX2);
    unsigned a512 = TABAI_CPU_AVX512F | TABAI_CPU_AVX512VL | TABAI_CPU_AVX512BW;
    int avx512 = avx2 && (f & a512) == a512;
    int ifma = avx512 && (f & TABAI_CPU_AVX512IFMA);
    tabai_tier want = ifma ? TABAI_TIER_IFMA : avx512 ? TABAI_TIER_AVX512 : avx2 ? TABAI_TIER_AVX2
                      : bmi2 ? TABAI_TIER_BMI2 : TABAI_TIER_GENERIC;
    uint64_t fv = f, nv = native;
    TU_CHECK(native == want, "native tier follows the features", 0, TU_V("features", &fv, 1),
             TU_V("native", &nv, 1));
    TU_CHECK((f & TABAI_CPU_SSE2) != 0, "x86-64 has SSE2", 0, TU_V("features", &fv, 1));
    const char *brand = tabai_cpu_brand();
    TU_CHECK(brand && *brand, "tabai_cpu_brand", 0, TU_NOV);
    printf("test_dispatch: %s, features 0x%x, native tier %s\n", brand ? brand : "?", f, tiers[native]);
}

static void check_set_tier(void) {
    tabai_tier native = tabai_cpu_native_tier(), start = tabai_cpu_tier();
    uint64_t p[4] = {0xffffffff00000001u, 0x123456789abcdef1u, 3, 0xfedcba9876543210u};
    static tabai_mont before, ctx;
    static tabai_ohta obefore, octx;
    TU_CHECK(tabai_cpu_set_tier(TABAI_TIER_GENERIC) == TABAI_OK, "tabai_cpu_set_tier(generic)", 0, TU_NOV);
    (void)!tabai_mont_init(&before, p, 4);
    (void)!tabai_ohta_init(&obefore, p, 4);
    for (int ti = 0; ti < TABAI_TIER_COUNT; ti++) {
        tabai_tier want = ti < (int)native ? (tabai_tier)ti : native;
        TU_CHECK(tabai_cpu_set_tier((tabai_tier)ti) == TABAI_OK, "tabai_cpu_set_tier", 0, TU_NOV);
        tu_note("set tier %s", tiers[ti]);
        TU_CHECK(tabai_cpu_tier() == want && strcmp(tabai_cpu_name(), tiers[want]) == 0,
                 "tabai_cpu_set_tier caps at native", 0, TU_NOV);
        const tabai_kernels *k = tabai_kernels_active();
        TU_CHECK(k == tabai_kernels_for_tier(want), "active table follows the tier", 0, TU_NOV);
        (void)!tabai_mont_init(&ctx, p, 4);
        TU_CHECK(ctx.tier == want && ctx.mul == k->mont_mul[4] && ctx.sqr == k->mont_sqr[4] &&
                     ctx.add == k->mod_add[4] && ctx.sub == k->mod_sub[4],
                 "a context copies the kernels of the tier in use", 0, TU_NOV);
        TU_CHECK(before.tier == TABAI_TIER_GENERIC &&
                     before.mul == tabai_kernels_for_tier(TABAI_TIER_GENERIC)->mont_mul[4],
                 "a context keeps the kernels it copied", 0, TU_NOV);
        /* Ohta contexts too: their tier is the tier of the kernels they run */
        (void)!tabai_ohta_init(&octx, p, 4);
        TU_CHECK(octx.tier == want && octx.mul == k->mul[4] && octx.sqr == k->sqr[4],
                 "an Ohta context copies the limb products of the tier in use", 0, TU_NOV);
        TU_CHECK(obefore.tier == TABAI_TIER_GENERIC &&
                     obefore.mul == tabai_kernels_for_tier(TABAI_TIER_GENERIC)->mul[4] &&
                     obefore.sqr == tabai_kernels_for_tier(TABAI_TIER_GENERIC)->sqr[4],
                 "an Ohta context keeps the kernels it copied", 0, TU_NOV);
        uint64_t u[4] = {9, 10, 11, 12}, v1[4], v2[4];
        TU_CHECK(tabai_ohta_mul(&obefore, v1, u, u) == TABAI_OK &&
                     tabai_ohta_mul(&octx, v2, u, u) == TABAI_OK && tu_eq_n(v1, v2, 4),
                 "old and new Ohta contexts agree", 4, TU_V("old", v1, 4), TU_V("new", v2, 4));
        /* the public functions follow the tier: a product through the API vs GMP */
        uint64_t a[8], b[8], r[16], w[16];
        tu_fill_any(a, 8), tu_fill_any(b, 8);
        tabai_mul_n(r, a, b, 8);
        mpn_mul_n(ML(w), CML(a), CML(b), 8);
        TU_CHECK(tu_eq_n(r, w, 16), "tabai_mul_n after tabai_cpu_set_tier", 8, TU_V("a", a, 8),
                 TU_V("b", b, 8));
        uint64_t x[4] = {5, 6, 7, 8}, y[4], z[4];
        TU_CHECK(tabai_mont_mul(&before, y, x, x) == TABAI_OK && tabai_mont_mul(&ctx, z, x, x) == TABAI_OK &&
                     tu_eq_n(y, z, 4),
                 "old and new contexts agree", 4, TU_V("old", y, 4), TU_V("new", z, 4));
    }
    tu_note("%s", "");
    (void)!tabai_cpu_set_tier(start);
    TU_CHECK(tabai_cpu_tier() == start, "tier restored", 0, TU_NOV);
}

/* TABAI_CPU=<unknown>: a message on stderr and the native tier. Must run before any other
 * library call (the tier is read once). */
static int unknown_env(void) {
    const char *env = getenv("TABAI_CPU");
    if (!env || tabai_tier_parse(env) >= 0) {
        fprintf(stderr, "test_dispatch --unknown-env needs TABAI_CPU set to an unknown value\n");
        return 1;
    }
    FILE *tmp = tmpfile(); /* stderr is captured in an anonymous temporary file */
    if (!tmp) return 1;
    int fd = fileno(tmp);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    tabai_tier t = tabai_cpu_tier();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char buf[512] = {0};
    lseek(fd, 0, SEEK_SET);
    ssize_t got = read(fd, buf, sizeof buf - 1);
    fclose(tmp);
    int ok_msg = got > 0 && strstr(buf, "TABAI_CPU") && strstr(buf, env);
    int ok_tier = t == tabai_cpu_native_tier();
    printf("test_dispatch: TABAI_CPU=%s -> tier %s, message: %s", env, tiers[t], got > 0 ? buf : "(none)\n");
    if (!ok_msg) fprintf(stderr, "test_dispatch: FAIL no message naming TABAI_CPU and the value\n");
    if (!ok_tier) fprintf(stderr, "test_dispatch: FAIL tier %s, expected native\n", tiers[t]);
    return ok_msg && ok_tier ? 0 : 1;
}

int main(int argc, char **argv) {
    int unknown = argc > 1 && strcmp(argv[1], "--unknown-env") == 0;
    if (unknown && unknown_env()) return 1;
    tu_init(argv[0]);
    mpz_inits(P, A, B, T, RINV, RR, NULL);
    check_names_and_features();
    check_tables();
    check_set_tier();
    tu_check_tier();
    mpz_clears(P, A, B, T, RINV, RR, NULL);
    return tu_finish();
}
