/* Double exponentiation r = a1^e1 * a2^e2 mod p against GMP (two mpz_powm and a product),
 * in the tier TABAI_CPU selects: tabai_mont_powmod2_vartime (odd p),
 * tabai_ohta_powmod2_vartime (any p >= 2), tabai_powmod2_vartime (any m >= 1, unreduced
 * bases, leading zero limbs, m = 1).
 * Sizes n = 1..9, 16, 17, 32, 33, 48, 64 limbs; every modulus class, odd and even.
 * Exponents: 0 bits (NULL and not), 1 bit, zero bits with ebits > 0, all ones, random of
 * equal and of different lengths (one much shorter than the other, and the DSA shape: 256
 * bits against a 2048-bit p), single set bits at the top or bottom. Bases 0, 1, p-1, p-2,
 * R mod p, random, and a1 == a2 (the same buffer). r == a1 and r == a2 aliasing; guard
 * limbs around outputs; exact-size heap scratch (tabai_powmod2_scratch_limbs). Errors:
 * NULL, a base >= p, short scratch, an oversized exponent: status and output unchanged.
 * Fixed-base comb (tabai_mont_powmod_base_table, tabai_mont_powmod_base) against mpz_powm:
 * rows 1..6, exponent lengths 1..1000 (not multiples of rows or 64), exponents 0, all ones,
 * only the top bit, random; the default rows; errors with the table and r unchanged. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define NMAX TABAI_MAX_LIMBS
#define EMAX (2 * NMAX + 1)

static mpz_t P, A1, A2, E1, E2, W, T;

enum { F_MONT, F_OHTA, F_ANY, F_COUNT };
static const char *const fnames[F_COUNT] = {"tabai_mont_powmod2_vartime",
                                            "tabai_ohta_powmod2_vartime", "tabai_powmod2_vartime"};

static void want_powm2(uint64_t *w, const uint64_t *p, size_t n, const uint64_t *a1,
                       const uint64_t *e1, size_t e1bits, const uint64_t *a2, const uint64_t *e2,
                       size_t e2bits) {
    tu_to_mpz(P, p, n), tu_to_mpz(A1, a1, n), tu_to_mpz(A2, a2, n);
    tu_to_mpz(E1, e1, (e1bits + 63) / 64), tu_to_mpz(E2, e2, (e2bits + 63) / 64);
    mpz_powm(W, A1, E1, P);
    mpz_powm(T, A2, E2, P);
    mpz_mul(W, W, T);
    mpz_mod(W, W, P);
    tu_from_mpz(w, n, W);
}

static tabai_status call(int f, const tabai_mont *mc, const tabai_ohta *oc, const uint64_t *p,
                         size_t n, uint64_t *r, const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                         const uint64_t *a2, const uint64_t *e2, size_t e2bits, uint64_t *scratch,
                         size_t sl) {
    switch (f) {
    case F_MONT: return tabai_mont_powmod2_vartime(mc, r, a1, e1, e1bits, a2, e2, e2bits, scratch, sl);
    case F_OHTA: return tabai_ohta_powmod2_vartime(oc, r, a1, e1, e1bits, a2, e2, e2bits, scratch, sl);
    default: return tabai_powmod2_vartime(r, a1, e1, e1bits, a2, e2, e2bits, p, n);
    }
}

/* alias: 0 none, 1 r == a1, 2 r == a2, 3 a1 == a2 (one buffer) */
static void run_one(int f, const tabai_mont *mc, const tabai_ohta *oc, const uint64_t *p, size_t n,
                    const uint64_t *a10, const uint64_t *e10, size_t e1bits, const uint64_t *a20,
                    const uint64_t *e20, size_t e2bits, int alias) {
    uint64_t w[NMAX];
    const uint64_t *a2w = alias == 3 ? a10 : a20;
    want_powm2(w, p, n, a10, e10, e1bits, a2w, e20, e2bits);
    size_t l1 = (e1bits + 63) / 64, l2 = (e2bits + 63) / 64;
    uint64_t *r = tu_buf_new(n), *a1 = tu_dup(a10, n), *a2 = tu_dup(a2w, n);
    uint64_t *e1 = e1bits ? tu_dup(e10, l1) : NULL, *e2 = e2bits ? tu_dup(e20, l2) : NULL;
    size_t sl = tabai_powmod2_scratch_limbs(n, e1bits, e2bits);
    uint64_t *scratch = malloc(sl * 8);
    const uint64_t *x1 = a1, *x2 = a2;
    if (alias == 1) memcpy(r, a10, n * 8), x1 = r;
    if (alias == 2) memcpy(r, a2w, n * 8), x2 = r;
    if (alias == 3) x2 = a1;
    tabai_status s = call(f, mc, oc, p, n, r, x1, e1, e1bits, x2, e2, e2bits, scratch, sl);
    size_t b1 = e1bits, b2 = e2bits;
    TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r) && tu_eq_n(a1, a10, n) &&
                 tu_eq_n(a2, a2w, n) && (!e1bits || tu_eq_n(e1, e10, l1)) &&
                 (!e2bits || tu_eq_n(e2, e20, l2)),
             fnames[f], n, TU_V("p", p, n), TU_V("a1", a10, n), TU_V("e1", e10, l1),
             TU_V("e1bits", &b1, 1), TU_V("a2", a2w, n), TU_V("e2", e20, l2),
             TU_V("e2bits", &b2, 1), TU_V("alias", &(uint64_t){(uint64_t)alias}, 1),
             TU_V("got", r, n), TU_V("want", w, n));
    free(a1), free(a2), free(e1), free(e2), free(scratch), tu_buf_free(r);
}

/* kind: 0 random, 1 all ones, 2 zero bits, 3 only the top bit, 4 only bit 0 and the top */
static void make_exponent(uint64_t *e, size_t ebits, int kind) {
    size_t el = (ebits + 63) / 64;
    if (el == 0) return;
    memset(e, 0, el * 8);
    switch (kind) {
    case 0: tu_fill_any(e, el); break;
    case 1: memset(e, 0xff, el * 8); break;
    case 2: break;
    case 3: e[(ebits - 1) / 64] = (uint64_t)1 << ((ebits - 1) % 64); break;
    case 4:
        e[(ebits - 1) / 64] = (uint64_t)1 << ((ebits - 1) % 64);
        e[0] |= 1;
        break;
    }
    if (ebits % 64) e[el - 1] &= ((uint64_t)1 << (ebits % 64)) - 1;
}

static void check_modulus(const uint64_t *p, size_t n) {
    static tabai_mont mc;
    static tabai_ohta oc;
    int odd = (int)(p[0] & 1) && !(n == 1 && p[0] < 3);
    TU_CHECK(tabai_ohta_init(&oc, p, n) == TABAI_OK, "tabai_ohta_init", n, TU_V("p", p, n));
    if (odd) TU_CHECK(tabai_mont_init(&mc, p, n) == TABAI_OK, "tabai_mont_init", n, TU_V("p", p, n));
    const size_t pbits = oc.bits;
    /* (e1bits, kind1, e2bits, kind2) */
    size_t cases[][4] = {
        {0, 0, 0, 0},   {1, 1, 0, 0},   {0, 0, 1, 1},   {1, 1, 1, 1},     {64, 2, 64, 2},
        {64, 1, 65, 1}, {65, 4, 3, 3},  {7, 0, 200, 0}, {200, 0, 7, 0},   {256, 0, 256, 0},
        {256, 0, 255, 0}, {pbits, 0, pbits, 0}, {pbits, 0, 256, 0}, {256, 0, pbits + 1, 1},
        {2 + tu_below(400), 0, 2 + tu_below(400), 0}, {1000, 0, 30, 4}};
    static const int ops[] = {TU_OP_UNIFORM, TU_OP_ZERO, TU_OP_ONE, TU_OP_PM1,
                              TU_OP_PM2,     TU_OP_RMODP, TU_OP_EDGE, TU_OP_RUNS};
    const size_t nops = sizeof ops / sizeof *ops;
    uint64_t e1[EMAX], e2[EMAX], a1[NMAX], a2[NMAX];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t e1bits = cases[i][0], e2bits = cases[i][2];
        if (n > 17 && (e1bits > 1100 || e2bits > 1100)) continue; /* keep large n short */
        make_exponent(e1, e1bits, (int)cases[i][1]);
        make_exponent(e2, e2bits, (int)cases[i][3]);
        int o1 = i < 4 ? TU_OP_UNIFORM : ops[i % nops], o2 = ops[(i * 3 + 1) % nops];
        tu_operand(a1, p, n, o1);
        tu_operand(a2, p, n, o2);
        tu_note("e1bits %zu, e2bits %zu, a1 %s, a2 %s", e1bits, e2bits, tu_op_name(o1), tu_op_name(o2));
        for (int f = 0; f < F_COUNT; f++) {
            if (!odd && f == F_MONT) continue;
            if (n > 33 && f == F_ANY && i % 3) continue;
            run_one(f, &mc, &oc, p, n, a1, e1, e1bits, a2, e2, e2bits, 0);
        }
        int alias = 1 + (int)(i % 3);
        run_one(odd ? F_MONT : F_OHTA, &mc, &oc, p, n, a1, e1, e1bits, a2, e2, e2bits, alias);
        if (i % 4 == 0) run_one(F_ANY, &mc, &oc, p, n, a1, e1, e1bits, a2, e2, e2bits, alias);
    }
    /* both exponents NULL with 0 bits */
    tu_operand(a1, p, n, TU_OP_UNIFORM);
    tu_operand(a2, p, n, TU_OP_UNIFORM);
    for (int f = 0; f < F_COUNT; f++) {
        if (!odd && f == F_MONT) continue;
        run_one(f, &mc, &oc, p, n, a1, NULL, 0, a2, NULL, 0, 0);
    }
}

/* tabai_powmod2_vartime on bases >= m, m = 1 and m with leading zero limbs */
static void check_any_extra(size_t n) {
    uint64_t m[NMAX], a1[NMAX], a2[NMAX], e1[4], e2[4], w[NMAX];
    size_t e1bits = 1 + tu_below(250), e2bits = 1 + tu_below(250);
    make_exponent(e1, e1bits, 0), make_exponent(e2, e2bits, 0);
    tu_modulus(m, n, (int)tu_below(TU_MOD_COUNT), TU_ANY);
    tu_fill(a1, n, TU_UNIFORM), tu_fill(a2, n, TU_UNIFORM);
    uint64_t *r = tu_buf_new(n);
    want_powm2(w, m, n, a1, e1, e1bits, a2, e2, e2bits);
    TU_CHECK(tabai_powmod2_vartime(r, a1, e1, e1bits, a2, e2, e2bits, m, n) == TABAI_OK &&
                 tu_eq_n(r, w, n) && tu_buf_ok(r),
             "tabai_powmod2_vartime unreduced bases", n, TU_V("m", m, n), TU_V("got", r, n),
             TU_V("want", w, n));
    /* leading zero limbs */
    if (n >= 2) {
        size_t k = 1 + tu_below(n - 1);
        tu_modulus(m, k, TU_MOD_UNIFORM, TU_ANY);
        for (size_t i = k; i < n; i++) m[i] = 0;
        want_powm2(w, m, n, a1, e1, e1bits, a2, e2, e2bits);
        TU_CHECK(tabai_powmod2_vartime(r, a1, e1, e1bits, a2, e2, e2bits, m, n) == TABAI_OK &&
                     tu_eq_n(r, w, n) && tu_buf_ok(r),
                 "tabai_powmod2_vartime leading zero limbs", n, TU_V("m", m, n), TU_V("got", r, n),
                 TU_V("want", w, n));
    }
    /* m = 1 gives 0; m = 0 is TABAI_ERR_MODULUS with r unchanged */
    memset(m, 0, n * 8), m[0] = 1;
    TU_CHECK(tabai_powmod2_vartime(r, a1, e1, e1bits, a2, e2, e2bits, m, n) == TABAI_OK &&
                 tu_eq_n(r, (uint64_t[NMAX]){0}, n),
             "tabai_powmod2_vartime m = 1", n, TU_V("got", r, n));
    m[0] = 0;
    tu_buf_fill(r, n, 0x5a5a5a5a5a5a5a5aULL);
    uint64_t *keep = tu_dup(r, n);
    TU_CHECK(tabai_powmod2_vartime(r, a1, e1, e1bits, a2, e2, e2bits, m, n) == TABAI_ERR_MODULUS &&
                 tu_eq_n(r, keep, n),
             "tabai_powmod2_vartime m = 0", n, TU_V("got", r, n));
    free(keep);
    tu_buf_free(r);
}

/* every status: the code, and r and scratch unchanged */
static void check_errors(size_t n) {
    uint64_t p[NMAX], a1[NMAX], a2[NMAX], e[4] = {0x1234567, 0, 0, 0};
    tu_modulus(p, n, TU_MOD_UNIFORM, TU_ODD);
    static tabai_mont mc;
    static tabai_ohta oc;
    (void)!tabai_mont_init(&mc, p, n);
    (void)!tabai_ohta_init(&oc, p, n);
    tu_operand(a1, p, n, TU_OP_UNIFORM), tu_operand(a2, p, n, TU_OP_UNIFORM);
    size_t sl = tabai_powmod2_scratch_limbs(n, 30, 30);
    uint64_t *scratch = malloc(sl * 8), *r = tu_buf_new(n);
    const uint64_t S = 0xa5a5a5a5a5a5a5a5ULL;
    for (int f = F_MONT; f <= F_OHTA; f++) {
        struct { const char *what; tabai_status want; } cs[] = {
            {"NULL ctx", TABAI_ERR_NULL},      {"NULL a1", TABAI_ERR_NULL},
            {"NULL e2, e2bits > 0", TABAI_ERR_NULL}, {"a1 = p", TABAI_ERR_RANGE},
            {"a2 = p", TABAI_ERR_RANGE},       {"short scratch", TABAI_ERR_SCRATCH},
            {"e1bits too large", TABAI_ERR_SIZE}};
        for (size_t c = 0; c < sizeof cs / sizeof *cs; c++) {
            tu_buf_fill(r, n, S);
            for (size_t i = 0; i < sl; i++) scratch[i] = S;
            const tabai_mont *m = c == 0 ? NULL : &mc;
            const tabai_ohta *o = c == 0 ? NULL : &oc;
            const uint64_t *x1 = c == 1 ? NULL : c == 3 ? p : a1, *x2 = c == 4 ? p : a2;
            const uint64_t *e2 = c == 2 ? NULL : e;
            size_t e1bits = c == 6 ? (size_t)64 * NMAX * 2 + 1 : 30, s = c == 5 ? sl - 1 : sl;
            tabai_status st = f == F_MONT
                                  ? tabai_mont_powmod2_vartime(m, r, x1, e, e1bits, x2, e2, 30, scratch, s)
                                  : tabai_ohta_powmod2_vartime(o, r, x1, e, e1bits, x2, e2, 30, scratch, s);
            int same = tu_buf_ok(r);
            for (size_t i = 0; i < n; i++) same &= r[i] == S;
            for (size_t i = 0; i < sl; i++) same &= scratch[i] == S;
            TU_CHECK(st == cs[c].want && same, cs[c].what, n, TU_V("status", &(uint64_t){(uint64_t)(int64_t)st}, 1));
        }
    }
    free(scratch), tu_buf_free(r);
}


/* the fixed-base comb on an odd modulus */
static void check_base(const uint64_t *p, size_t n) {
    static tabai_mont mc;
    TU_CHECK(tabai_mont_init(&mc, p, n) == TABAI_OK, "tabai_mont_init", n, TU_V("p", p, n));
    static const size_t lens[] = {1, 2, 7, 64, 65, 130, 257, 1000};
    uint64_t g[NMAX], e[EMAX], w[NMAX];
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
        size_t ebits = lens[li];
        if (n > 17 && ebits > 300) continue;
        for (unsigned rows = 0; rows <= TABAI_POWMOD_BASE_MAX_ROWS; rows++) {
            unsigned rw = rows ? rows : tabai_powmod_base_rows(ebits); /* 0: the default */
            size_t tl = tabai_powmod_base_table_limbs(n, rw);
            uint64_t *tab = malloc(tl * 8), *r = tu_buf_new(n);
            tu_operand(g, p, n, li == 0 ? TU_OP_ONE : li == 1 ? TU_OP_PM1 : TU_OP_UNIFORM);
            TU_CHECK(tabai_mont_powmod_base_table(&mc, tab, tl, g, ebits, rw) == TABAI_OK,
                     "tabai_mont_powmod_base_table", n, TU_V("g", g, n));
            for (int kind = 0; kind < 4; kind++) {
                make_exponent(e, ebits, kind == 0 ? 0 : kind == 1 ? 1 : kind == 2 ? 2 : 3);
                size_t el = (ebits + 63) / 64, rv = rw, eb = ebits;
                uint64_t *ed = tu_dup(e, el);
                want_powm2(w, p, n, g, ed, ebits, g, ed, 0);
                tabai_status s = tabai_mont_powmod_base(&mc, r, ed, ebits, tab, tl, rw);
                TU_CHECK(s == TABAI_OK && tu_eq_n(r, w, n) && tu_buf_ok(r), "tabai_mont_powmod_base",
                         n, TU_V("p", p, n), TU_V("g", g, n), TU_V("e", e, el),
                         TU_V("ebits", &eb, 1), TU_V("rows", &rv, 1), TU_V("got", r, n),
                         TU_V("want", w, n));
                free(ed);
            }
            /* errors: nothing written */
            const uint64_t S = 0x5a5a5a5a5a5a5a5aULL;
            tu_buf_fill(r, n, S);
            uint64_t *tab2 = malloc(tl * 8);
            for (size_t i = 0; i < tl; i++) tab2[i] = S;
            int same = 1;
            same &= tabai_mont_powmod_base(&mc, r, e, ebits, tab, tl - 1, rw) == TABAI_ERR_SIZE;
            same &= tabai_mont_powmod_base(&mc, r, e, 0, tab, tl, rw) == TABAI_ERR_SIZE;
            same &= tabai_mont_powmod_base(&mc, r, e, ebits, tab, tl, 7) == TABAI_ERR_SIZE;
            same &= tabai_mont_powmod_base(NULL, r, e, ebits, tab, tl, rw) == TABAI_ERR_NULL;
            same &= tabai_mont_powmod_base_table(&mc, tab2, tl, p, ebits, rw) == TABAI_ERR_RANGE;
            same &= tabai_mont_powmod_base_table(&mc, tab2, tl - 1, g, ebits, rw) == TABAI_ERR_SIZE;
            same &= tabai_mont_powmod_base_table(&mc, tab2, tl, g, ebits, 0) == TABAI_ERR_SIZE;
            same &= tabai_mont_powmod_base_table(&mc, NULL, tl, g, ebits, rw) == TABAI_ERR_NULL;
            for (size_t i = 0; i < n; i++) same &= r[i] == S;
            for (size_t i = 0; i < tl; i++) same &= tab2[i] == S;
            TU_CHECK(same && tu_buf_ok(r), "powmod_base errors", n, TU_NOV);
            free(tab), free(tab2), tu_buf_free(r);
        }
    }
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    mpz_inits(P, A1, A2, E1, E2, W, T, NULL);
    static const size_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 32, 33, 48, 64};
    uint64_t p[NMAX];
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (size_t rep = 0; rep < tu_iters(1); rep++) {
            /* odd uniform, even uniform, then one class per size and repetition */
            const int cls[3] = {TU_MOD_UNIFORM, TU_MOD_UNIFORM, (int)((si + rep * 5) % TU_MOD_COUNT)};
            const int par[3] = {TU_ODD, TU_EVEN, TU_ANY};
            for (int k = 0; k < 3; k++) {
                tu_modulus(p, n, cls[k], par[k]);
                tu_note("n %zu, modulus %s, parity %d", n, tu_mod_name(cls[k]), par[k]);
                check_modulus(p, n);
            }
        }
        check_any_extra(n);
        check_errors(n);
        tu_modulus(p, n, (int)(si % TU_MOD_COUNT), TU_ODD);
        tu_note("n %zu, fixed base, modulus %s", n, tu_mod_name((int)(si % TU_MOD_COUNT)));
        check_base(p, n);
    }
    /* the embedded real moduli (MODP groups, curve primes, RSA moduli and primes) */
    for (size_t i = 0; i < tu_real_moduli_count; i++) {
        const tu_real_modulus *m = &tu_real_moduli[i];
        if (m->n > 64) continue;
        tu_note("modulus %s", m->name);
        check_modulus(m->limbs, m->n);
        if (m->limbs[0] & 1) check_base(m->limbs, m->n);
    }
    mpz_clears(P, A1, A2, E1, E2, W, T, NULL);
    return tu_finish();
}
