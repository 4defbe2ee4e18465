/* Constant-time test, valgrind method (libsecp256k1's ctime_tests): every secret input is
 * marked undefined with a memcheck client request, each constant-time public entry point is
 * called, and memcheck reports any conditional branch or memory address computed from an
 * undefined value; the ctest run uses --error-exitcode, so one report fails the test. The
 * outputs are then marked defined again and compared with GMP, so wrong answers fail too.
 *
 *   test_ctime [--tier generic|bmi2|avx2] [--leaky]      (tier also from TABAI_CPU)
 *
 * Public by design (never marked undefined): limb counts, moduli and contexts, exponent bit
 * lengths, byte lengths, the kernel choice. Library-side declassifications (a bit that is
 * revealed on purpose, marked defined inside the library when it is built with
 * -DTABAI_CTIME_DECLASSIFY, see src/internal.h and README.md): whether an operand is < p
 * (TABAI_ERR_RANGE), whether inv_prime's operand is 0 (TABAI_ERR_NOINV), whether a value fits
 * the byte length or limb count (TABAI_ERR_SIZE of to_bytes / from_bytes).
 *
 * Tier: valgrind hides ADX in CPUID (it executes mulx/adcx/adox), so under valgrind the
 * library would detect tier generic only. The test overrides the detected features through
 * the internal hook tabai_cpu_force_native_for_testing, caps the tier with
 * tabai_cpu_set_tier, and fails unless the tier in use, every context and every dispatch slot
 * it uses belong to the requested tier. Outside valgrind the requests are no-ops and the run
 * only checks results (and skips with 77 if the CPU lacks the tier).
 *
 * --leaky runs two deliberately leaky functions compiled only into this program (a select
 * that branches on the secret bit, a table lookup at a secret index); memcheck must report
 * both, so ctest expects valgrind's exit code (ctime.leaky). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "../../bench/moduli.h"
#include "../../src/dispatch/tables.h"
#include "../../src/ec/ec.h"
#include "../../src/ec/field.h"
#include "../../src/ec/mb.h"
#include "../../src/mb/mb.h"
#include "../../src/rsa/rsa.h"
#include "tabai_ec.h"
#include "testutil.h"

#define SECRET(p, bytes) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (bytes)))
#define PUBLIC(p, bytes) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (bytes)))
#define L8(n) ((n) * sizeof(uint64_t))

#define MAXN TABAI_MAX_LIMBS
/* Every fixed-size slot (1..16) and each code path of the any-n slot: generic Karatsuba and
 * block REDC at 24, 32, 48, 64; bmi2 rows for multiples of 8 from 24, one Karatsuba step for
 * even n >= 48 (50: odd halves), columns otherwise (17, 33); the largest size, 128. */
static const size_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                               17, 24, 32, 33, 40, 48, 50, 64, 128};

static tabai_tier want_tier;

/* ---- deliberately leaky functions (compiled only into this test) ---- */
static volatile int leak_sink;
__attribute__((noinline)) static void leaky_copy_a(uint64_t *r, const uint64_t *a, size_t n) {
    for (size_t i = 0; i < n; i++) r[i] = a[i];
    leak_sink = 1;
}
__attribute__((noinline)) static void leaky_copy_b(uint64_t *r, const uint64_t *b, size_t n) {
    for (size_t i = 0; i < n; i++) r[i] = b[i];
    leak_sink = 2;
}
/* r = cond ? a : b with a branch on the secret cond: what tabai_cnd_select_n must not do */
__attribute__((noinline)) static void leaky_select(uint64_t *r, uint64_t cond, const uint64_t *a,
                                                   const uint64_t *b, size_t n) {
    if (cond) leaky_copy_a(r, a, n);
    else leaky_copy_b(r, b, n);
}
/* tab[idx]: a load at a secret address, what the powmod table scan must not do */
__attribute__((noinline)) static uint64_t leaky_lookup(const uint64_t *tab, uint64_t idx) {
    return tab[idx & 15];
}

static int run_leaky(void) {
    uint64_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, r[4], tab[16], cond = 1, idx = 11;
    for (int i = 0; i < 16; i++) tab[i] = 100 + (uint64_t)i;
    SECRET(&cond, sizeof cond);
    SECRET(a, sizeof a);
    SECRET(b, sizeof b);
    leaky_select(r, cond, a, b, 4);
    PUBLIC(a, sizeof a);
    PUBLIC(b, sizeof b);
    PUBLIC(r, sizeof r);
    SECRET(&idx, sizeof idx);
    uint64_t v = leaky_lookup(tab, idx);
    PUBLIC(&v, sizeof v);
    /* the functions are correct: only memcheck's reports may fail this run */
    int ok = memcmp(r, a, sizeof r) == 0 && v == 111;
    printf("leaky: select and lookup ran (%s); memcheck must have reported both\n",
           ok ? "results correct" : "WRONG RESULTS");
    return ok ? 0 : 1;
}

/* ---- GMP helpers ---- */
static void mpz_of(mpz_t z, const uint64_t *a, size_t n) { tu_to_mpz(z, a, n); }

/* ---- tier ---- */

/* The tier in use, the tier of a context, and the dispatch slots of limb count n all belong
 * to the requested tier (their symbols end in _<tier>; tier avx2 keeps bmi2's integer kernels
 * in these slots and adds its vector code elsewhere: the curves' table scans, the AVX2
 * kernels of tabai_mul_with). */
static void check_tier_slots(size_t n) {
    const tabai_kernels *k = tabai_kernels_active();
    const char *tn = tabai_tier_name(want_tier == TABAI_TIER_AVX2 ? TABAI_TIER_BMI2 : want_tier);
    char suffix[16];
    snprintf(suffix, sizeof suffix, "_%s", tn);
    size_t s = tabai_slot(n);
    const char *syms[4] = {k->mul_sym[s], k->sqr_sym[s], k->mont_mul_sym[s], k->mont_sqr_sym[s]};
    TU_CHECK(tabai_cpu_tier() == want_tier && k->tier == want_tier, "tier in use", n, TU_NOV);
    for (int i = 0; i < 4; i++) {
        size_t ls = syms[i] ? strlen(syms[i]) : 0, lt = strlen(suffix);
        int ok = ls > lt && strcmp(syms[i] + ls - lt, suffix) == 0;
        TU_CHECK(ok, "dispatch slot is the requested tier's kernel", n, TU_NOV);
        if (!ok) fprintf(stderr, "slot %zu: %s, tier %s\n", s, syms[i] ? syms[i] : "(null)", tn);
    }
}

static int force_tier(const char *name) {
    int t = tabai_tier_parse(name);
    if (t < 0 || strcmp(name, "native") == 0) {
        fprintf(stderr, "ctime: unknown tier '%s'\n", name);
        exit(2);
    }
    want_tier = (tabai_tier)t;
    if (RUNNING_ON_VALGRIND) {
        unsigned f = tabai_cpu_features(); /* as valgrind's CPUID reports them */
        if (t >= TABAI_TIER_BMI2) f |= TABAI_CPU_BMI2 | TABAI_CPU_ADX; /* it executes both */
        if (t >= TABAI_TIER_AVX2 && !((f & TABAI_CPU_AVX2) && (f & TABAI_CPU_FMA))) return 77;
        if (t >= TABAI_TIER_AVX512) return 77; /* valgrind has no AVX-512 */
        tabai_cpu_force_native_for_testing(f);
    } else if ((int)tabai_cpu_native_tier() < t) {
        return 77;
    }
    if (tabai_cpu_set_tier(want_tier) != TABAI_OK) return 2;
    setenv("TABAI_CPU", name, 1); /* so that tu_init's own tier check expects it too */
    return 0;
}

/* ---- raw limb functions ---- */
static void test_limb(size_t n, int round) {
    uint64_t a[MAXN + 1], b[MAXN + 1], r[2 * MAXN + 2], w[2 * MAXN + 2];
    tu_fill(a, n, round ? TU_ONES : TU_UNIFORM);
    tu_fill(b, n, round ? TU_EDGE : TU_UNIFORM);
    uint64_t cy, want;
    mpz_t x, y, z;
    mpz_inits(x, y, z, NULL);

    /* cnd_select_n, cnd_sub_n: cond, a, b secret; cond takes the values 0, 1, 2^63 */
    static const uint64_t conds[3] = {0, 1, (uint64_t)1 << 63};
    for (int ci = 0; ci < 3; ci++) {
        uint64_t c = conds[ci];
        SECRET(&c, sizeof c);
        SECRET(a, L8(n));
        SECRET(b, L8(n));
        tabai_cnd_select_n(r, c, a, b, n);
        cy = tabai_cnd_sub_n(r + n, c, a, b, n);
        PUBLIC(&c, sizeof c);
        PUBLIC(a, L8(n));
        PUBLIC(b, L8(n));
        PUBLIC(r, L8(2 * n));
        PUBLIC(&cy, sizeof cy);
        TU_CHECK(memcmp(r, conds[ci] ? a : b, L8(n)) == 0, "cnd_select_n", n, TU_V("a", a, n),
                 TU_V("b", b, n));
        if (conds[ci]) {
            want = mpn_sub_n((mp_limb_t *)w, (const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
        } else {
            memcpy(w, a, L8(n));
            want = 0;
        }
        TU_CHECK(cy == want && memcmp(r + n, w, L8(n)) == 0, "cnd_sub_n", n, TU_V("a", a, n),
                 TU_V("b", b, n));
    }

    /* add_n, sub_n */
    SECRET(a, L8(n));
    SECRET(b, L8(n));
    cy = tabai_add_n(r, a, b, n);
    uint64_t bw = tabai_sub_n(r + n, a, b, n);
    PUBLIC(a, L8(n));
    PUBLIC(b, L8(n));
    PUBLIC(r, L8(2 * n));
    PUBLIC(&cy, sizeof cy);
    PUBLIC(&bw, sizeof bw);
    want = mpn_add_n((mp_limb_t *)w, (const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
    TU_CHECK(cy == want && memcmp(r, w, L8(n)) == 0, "add_n", n, TU_V("a", a, n), TU_V("b", b, n));
    want = mpn_sub_n((mp_limb_t *)w, (const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
    TU_CHECK(bw == want && memcmp(r + n, w, L8(n)) == 0, "sub_n", n, TU_V("a", a, n),
             TU_V("b", b, n));

    /* mul_n, sqr_n */
    SECRET(a, L8(n));
    SECRET(b, L8(n));
    tabai_mul_n(r, a, b, n);
    PUBLIC(r, L8(2 * n));
    PUBLIC(a, L8(n));
    PUBLIC(b, L8(n));
    mpn_mul_n((mp_limb_t *)w, (const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
    TU_CHECK(memcmp(r, w, L8(2 * n)) == 0, "mul_n", n, TU_V("a", a, n), TU_V("b", b, n));
    SECRET(a, L8(n));
    tabai_sqr_n(r, a, n);
    PUBLIC(a, L8(n));
    PUBLIC(r, L8(2 * n));
    mpn_sqr((mp_limb_t *)w, (const mp_limb_t *)a, (mp_size_t)n);
    TU_CHECK(memcmp(r, w, L8(2 * n)) == 0, "sqr_n", n, TU_V("a", a, n));

    /* mul with unequal lengths, both orders: n x m and m x n */
    size_t m = n > 1 ? n / 2 + 1 : 2;
    tu_fill(b, m, round ? TU_ONES : TU_UNIFORM);
    for (int swap = 0; swap < 2; swap++) {
        const uint64_t *x1 = swap ? b : a, *x2 = swap ? a : b;
        size_t n1 = swap ? m : n, n2 = swap ? n : m;
        SECRET(a, L8(n));
        SECRET(b, L8(m));
        tabai_mul(r, x1, n1, x2, n2);
        PUBLIC(a, L8(n));
        PUBLIC(b, L8(m));
        PUBLIC(r, L8(n + m));
        if (n >= m) mpn_mul((mp_limb_t *)w, (const mp_limb_t *)a, (mp_size_t)n, (const mp_limb_t *)b, (mp_size_t)m);
        else mpn_mul((mp_limb_t *)w, (const mp_limb_t *)b, (mp_size_t)m, (const mp_limb_t *)a, (mp_size_t)n);
        TU_CHECK(memcmp(r, w, L8(n + m)) == 0, "mul (unequal lengths)", n, TU_V("a", a, n),
                 TU_V("b", b, m));
    }

    /* mul_1, addmul_1: the scalar is secret too */
    uint64_t s = round ? ~(uint64_t)0 : tu_rand();
    tu_fill(r, n, TU_UNIFORM);
    memcpy(w, r, L8(n));
    SECRET(a, L8(n));
    SECRET(&s, sizeof s);
    SECRET(r, L8(n));
    uint64_t hi1 = tabai_addmul_1(r, a, n, s);
    uint64_t hi2 = tabai_mul_1(r + n, a, n, s);
    PUBLIC(a, L8(n));
    PUBLIC(&s, sizeof s);
    PUBLIC(r, L8(2 * n));
    PUBLIC(&hi1, sizeof hi1);
    PUBLIC(&hi2, sizeof hi2);
    want = mpn_addmul_1((mp_limb_t *)w, (const mp_limb_t *)a, (mp_size_t)n, s);
    TU_CHECK(hi1 == want && memcmp(r, w, L8(n)) == 0, "addmul_1", n, TU_V("a", a, n),
             TU_V("s", &s, 1));
    want = mpn_mul_1((mp_limb_t *)w, (const mp_limb_t *)a, (mp_size_t)n, s);
    TU_CHECK(hi2 == want && memcmp(r + n, w, L8(n)) == 0, "mul_1", n, TU_V("a", a, n),
             TU_V("s", &s, 1));

    /* cmp_n: constant time, only the result is public (marked defined after the call) */
    for (int k = 0; k < 3; k++) {
        memcpy(b, a, L8(n));
        if (k == 1) b[tu_below(n)] ^= (uint64_t)1 << tu_below(64);
        if (k == 2) b[0] ^= 1;
        SECRET(a, L8(n));
        SECRET(b, L8(n));
        int c = tabai_cmp_n(a, b, n);
        PUBLIC(a, L8(n));
        PUBLIC(b, L8(n));
        PUBLIC(&c, sizeof c);
        int g = mpn_cmp((const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
        TU_CHECK(c == (g > 0) - (g < 0), "cmp_n", n, TU_V("a", a, n), TU_V("b", b, n));
    }
    mpz_clears(x, y, z, NULL);
}

/* ---- byte conversions: the value is secret, the lengths public ---- */
static void test_bytes(size_t n, int round) {
    uint64_t a[MAXN], r[MAXN];
    uint8_t be[8 * MAXN + 8], wb[8 * MAXN + 8];
    tu_fill(a, n, round ? TU_SPARSE : TU_UNIFORM);
    a[n - 1] &= round ? 0 : ~(uint64_t)0; /* round 1: leading zero bytes (a secret count) */
    /* len = 8n + 3 (zero-extended), 8n, and 8n - 8 (fits only in round 1) */
    size_t lens[3] = {8 * n + 3, 8 * n, 8 * n - 8};
    for (int li = 0; li < 3; li++) {
        size_t len = lens[li];
        if (len == 0) continue;
        int fits = len >= 8 * n || a[n - 1] == 0;
        memset(be, 0xa5, len);
        SECRET(a, L8(n));
        tabai_status st = tabai_to_bytes(be, len, a, n);
        PUBLIC(a, L8(n));
        PUBLIC(be, len);
        TU_CHECK(st == (fits ? TABAI_OK : TABAI_ERR_SIZE), "to_bytes status", n, TU_V("a", a, n));
        if (!fits) continue;
        memset(wb, 0, len);
        mpz_t z;
        mpz_init(z);
        mpz_of(z, a, n);
        size_t cnt = 0;
        uint8_t tmp[8 * MAXN + 8];
        mpz_export(tmp, &cnt, 1, 1, 1, 0, z);
        memcpy(wb + len - cnt, tmp, cnt);
        mpz_clear(z);
        TU_CHECK(memcmp(be, wb, len) == 0, "to_bytes", n, TU_V("a", a, n));
        /* back: every byte secret (including the leading zeros) */
        memset(r, 0x5a, L8(n));
        SECRET(be, len);
        st = tabai_from_bytes(r, n, be, len);
        PUBLIC(be, len);
        PUBLIC(r, L8(n));
        TU_CHECK(st == TABAI_OK && memcmp(r, a, L8(n)) == 0, "from_bytes", n, TU_V("a", a, n),
                 TU_V("r", r, n));
    }
    /* from_bytes into fewer limbs than the value needs: TABAI_ERR_SIZE (public), r untouched */
    if (n > 1) {
        tu_fill(a, n, TU_UNIFORM);
        a[n - 1] |= round ? (uint64_t)1 << 63 : 1;
        (void)!tabai_to_bytes(be, 8 * n, a, n);
        for (size_t i = 0; i < n - 1; i++) r[i] = 0x77;
        SECRET(be, 8 * n);
        tabai_status st = tabai_from_bytes(r, n - 1, be, 8 * n);
        PUBLIC(be, 8 * n);
        PUBLIC(r, L8(n - 1));
        TU_CHECK(st == TABAI_ERR_SIZE && r[0] == 0x77, "from_bytes too long", n, TU_V("a", a, n));
    }
}

/* ---- Montgomery ---- */
typedef struct modulus {
    uint64_t p[MAXN];
    size_t n;
    int prime; /* known prime (an embedded real modulus) */
    const char *name;
} modulus;

static void pick_modulus(modulus *m, size_t n, int odd) {
    m->n = n;
    m->prime = 0;
    m->name = "uniform";
    for (size_t i = 0; i < tu_real_moduli_count && odd; i++) {
        const tu_real_modulus *rm = &tu_real_moduli[i];
        if (rm->n == n && (strncmp(rm->name, "modp", 4) == 0 || strstr(rm->name, "_p"))) {
            memcpy(m->p, rm->limbs, L8(n));
            m->prime = 1;
            m->name = rm->name;
            return;
        }
    }
    tu_modulus(m->p, n, TU_MOD_UNIFORM, odd ? TU_ODD : TU_EVEN);
}

/* r == z mod p with z an mpz */
static int eq_z(const uint64_t *r, size_t n, const mpz_t z) { return tu_eq_mpz(r, n, z); }

static void test_mont(const modulus *md, int round) {
    const size_t n = md->n;
    tabai_mont ctx;
    TU_CHECK(tabai_mont_init(&ctx, md->p, n) == TABAI_OK && ctx.n == n, "mont_init", n,
             TU_V("p", md->p, n));
    TU_CHECK(ctx.tier == want_tier &&
                 ctx.mul == tabai_kernels_for_tier(want_tier)->mont_mul[tabai_slot(n)],
             "mont context has the requested tier's kernels", n, TU_NOV);
    uint64_t a[MAXN], b[MAXN], r[8][MAXN];
    tu_operand(a, md->p, n, round ? TU_OP_PM1 : TU_OP_UNIFORM);
    tu_operand(b, md->p, n, round ? TU_OP_PM2 : TU_OP_UNIFORM);
    tabai_status st[8];
    SECRET(a, L8(n));
    SECRET(b, L8(n));
    st[0] = tabai_mont_mul(&ctx, r[0], a, b);
    st[1] = tabai_mont_sqr(&ctx, r[1], a);
    st[2] = tabai_mont_to(&ctx, r[2], a);
    st[3] = tabai_mont_from(&ctx, r[3], a);
    st[4] = tabai_mont_add(&ctx, r[4], a, b);
    st[5] = tabai_mont_sub(&ctx, r[5], a, b);
    st[6] = tabai_mont_neg(&ctx, r[6], a);
    memcpy(r[7], a, L8(n));
    st[7] = tabai_mont_mul(&ctx, r[7], r[7], r[7]); /* in place */
    PUBLIC(a, L8(n));
    PUBLIC(b, L8(n));
    PUBLIC(r, sizeof r);
    /* the statuses are not declassified by the test: the library must return public ones */
    for (int i = 0; i < 8; i++) TU_CHECK(st[i] == TABAI_OK, "mont status", n, TU_NOV);
    mpz_t p, x, y, z, rinv;
    mpz_inits(p, x, y, z, rinv, NULL);
    mpz_of(p, md->p, n);
    mpz_of(x, a, n);
    mpz_of(y, b, n);
    mpz_setbit(z, 64 * n);
    mpz_invert(rinv, z, p);
    mpz_mul(z, x, y), mpz_mul(z, z, rinv), mpz_mod(z, z, p);
    TU_CHECK(eq_z(r[0], n, z), "mont_mul", n, TU_V("a", a, n), TU_V("b", b, n), TU_V("p", md->p, n));
    mpz_mul(z, x, x), mpz_mul(z, z, rinv), mpz_mod(z, z, p);
    TU_CHECK(eq_z(r[1], n, z), "mont_sqr", n, TU_V("a", a, n), TU_V("p", md->p, n));
    TU_CHECK(eq_z(r[7], n, z), "mont_mul in place", n, TU_V("a", a, n), TU_V("p", md->p, n));
    mpz_set_ui(z, 0), mpz_setbit(z, 64 * n), mpz_mul(z, z, x), mpz_mod(z, z, p);
    TU_CHECK(eq_z(r[2], n, z), "mont_to", n, TU_V("a", a, n), TU_V("p", md->p, n));
    mpz_mul(z, x, rinv), mpz_mod(z, z, p);
    TU_CHECK(eq_z(r[3], n, z), "mont_from", n, TU_V("a", a, n), TU_V("p", md->p, n));
    mpz_add(z, x, y), mpz_mod(z, z, p);
    TU_CHECK(eq_z(r[4], n, z), "mont_add", n, TU_V("a", a, n), TU_V("b", b, n), TU_V("p", md->p, n));
    mpz_sub(z, x, y), mpz_mod(z, z, p);
    TU_CHECK(eq_z(r[5], n, z), "mont_sub", n, TU_V("a", a, n), TU_V("b", b, n), TU_V("p", md->p, n));
    mpz_neg(z, x), mpz_mod(z, z, p);
    TU_CHECK(eq_z(r[6], n, z), "mont_neg", n, TU_V("a", a, n), TU_V("p", md->p, n));

    /* an unreduced secret operand: TABAI_ERR_RANGE is public, r untouched */
    memcpy(a, md->p, L8(n));
    memset(r[0], 0x33, L8(n));
    SECRET(a, L8(n));
    st[0] = tabai_mont_mul(&ctx, r[0], a, b);
    PUBLIC(a, L8(n));
    TU_CHECK(st[0] == TABAI_ERR_RANGE && r[0][0] == 0x3333333333333333u, "mont_mul a = p", n,
             TU_NOV);
    mpz_clears(p, x, y, z, rinv, NULL);
}

/* ---- exponentiation and inversion: base and exponent secret, ebits public ---- */
static size_t ebits_for(size_t n, int round) {
    if (round) return 1 + (n * 7) % 23; /* window 1 */
    if (n <= 16) return 64 * n - 3;     /* windows 3..6, a partial top limb */
    return 1021;                        /* window 6 */
}

static void test_powmod(const modulus *md, int round) {
    const size_t n = md->n;
    size_t ebits = ebits_for(n, round), el = (ebits + 63) / 64;
    tabai_mont mc;
    tabai_ohta oc;
    (void)!tabai_mont_init(&mc, md->p, n);
    (void)!tabai_ohta_init(&oc, md->p, n);
    uint64_t b[MAXN], e[2 * MAXN], r[3][MAXN], *scratch;
    const size_t sl = tabai_powmod_scratch_limbs(n, ebits);
    scratch = malloc(L8(sl));
    tu_operand(b, md->p, n, TU_OP_UNIFORM);
    tu_fill(e, el, round ? TU_ONES : TU_UNIFORM);
    if (ebits % 64) e[el - 1] &= ((uint64_t)1 << (ebits % 64)) - 1;
    tabai_status st[3];
    SECRET(b, L8(n));
    SECRET(e, L8(el));
    st[0] = tabai_mont_powmod(&mc, r[0], b, e, ebits, scratch, sl);
    st[1] = tabai_ohta_powmod(&oc, r[1], b, e, ebits, scratch, sl);
    PUBLIC(b, L8(n));
    PUBLIC(e, L8(el));
    PUBLIC(r, sizeof r);
    PUBLIC(scratch, L8(tabai_powmod_scratch_limbs(n, ebits)));
    mpz_t p, x, y, z;
    mpz_inits(p, x, y, z, NULL);
    mpz_of(p, md->p, n);
    mpz_of(x, b, n);
    mpz_of(y, e, el);
    mpz_powm(z, x, y, p);
    TU_CHECK(st[0] == TABAI_OK && eq_z(r[0], n, z), "mont_powmod", n, TU_V("b", b, n),
             TU_V("e", e, el), TU_V("p", md->p, n));
    TU_CHECK(st[1] == TABAI_OK && eq_z(r[1], n, z), "ohta_powmod (odd p)", n, TU_V("b", b, n),
             TU_V("e", e, el), TU_V("p", md->p, n));

    /* Ohta on an even modulus, and the convenience tabai_powmod with any n-limb base: odd
     * m (Montgomery) in round 0, even m (Ohta) in round 1 */
    uint64_t pe[MAXN], bb[MAXN];
    memcpy(pe, md->p, L8(n));
    pe[0] &= ~(uint64_t)1;
    (void)!tabai_ohta_init(&oc, pe, n);
    TU_CHECK(oc.tier == want_tier, "ohta context has the requested tier", n, TU_NOV);
    tu_operand(b, pe, n, TU_OP_UNIFORM);
    tu_fill(bb, n, TU_UNIFORM);
    const uint64_t *m = round ? pe : md->p;
    SECRET(b, L8(n));
    SECRET(bb, L8(n));
    SECRET(e, L8(el));
    st[1] = tabai_ohta_powmod(&oc, r[1], b, e, ebits, scratch, sl);
    st[2] = tabai_powmod(r[2], bb, e, ebits, m, n);
    PUBLIC(b, L8(n));
    PUBLIC(bb, L8(n));
    PUBLIC(e, L8(el));
    PUBLIC(r, sizeof r);
    mpz_of(p, pe, n);
    mpz_of(x, b, n);
    mpz_powm(z, x, y, p);
    TU_CHECK(st[1] == TABAI_OK && eq_z(r[1], n, z), "ohta_powmod (even p)", n, TU_V("b", b, n),
             TU_V("e", e, el), TU_V("p", pe, n));
    mpz_of(p, m, n);
    mpz_of(x, bb, n);
    mpz_powm(z, x, y, p);
    TU_CHECK(st[2] == TABAI_OK && eq_z(r[2], n, z), "powmod", n, TU_V("b", bb, n),
             TU_V("e", e, el), TU_V("m", m, n));
    free(scratch);

    /* inv_prime: a secret; the exponent p - 2 and its length are public. Up to 64 limbs (the
     * real primes modp2048 / modp4096 at 32 and 64): at 128 limbs its 8192-bit exponent and
     * GMP's would double the run, and the same powmod runs above with a secret exponent. */
    if (round == 0 && n <= 64) {
        tu_operand(b, md->p, n, TU_OP_UNIFORM);
        b[0] |= 1; /* non-zero */
        SECRET(b, L8(n));
        st[0] = tabai_mont_inv_prime(&mc, r[0], b);
        PUBLIC(b, L8(n));
        PUBLIC(r[0], L8(n));
        mpz_of(p, md->p, n);
        mpz_of(x, b, n);
        if (md->prime) {
            mpz_invert(z, x, p);
        } else { /* not known to be prime: the Fermat exponentiation itself */
            mpz_sub_ui(y, p, 2);
            mpz_powm(z, x, y, p);
        }
        TU_CHECK(st[0] == TABAI_OK && eq_z(r[0], n, z), "mont_inv_prime", n, TU_V("a", b, n),
                 TU_V("p", md->p, n));
        /* a = 0: TABAI_ERR_NOINV, the one bit inv_prime reveals */
        memset(b, 0, L8(n));
        SECRET(b, L8(n));
        st[0] = tabai_mont_inv_prime(&mc, r[0], b);
        PUBLIC(b, L8(n));
        TU_CHECK(st[0] == TABAI_ERR_NOINV, "mont_inv_prime(0)", n, TU_NOV);
    }
    mpz_clears(p, x, y, z, NULL);
}

/* ---- Ohta: mul, sqr, reduce, the explicit kernels ---- */
static void test_ohta(const modulus *md, int round) {
    const size_t n = md->n;
    uint64_t p[MAXN];
    memcpy(p, md->p, L8(n));
    if (round) p[0] &= ~(uint64_t)1; /* even modulus in round 1 */
    tabai_ohta ctx;
    TU_CHECK(tabai_ohta_init(&ctx, p, n) == TABAI_OK && ctx.tier == want_tier, "ohta_init",
             n, TU_NOV);
    uint64_t a[MAXN], b[MAXN], x[2 * MAXN], r[8][MAXN];
    tu_operand(a, p, n, round ? TU_OP_PM1 : TU_OP_UNIFORM);
    tu_operand(b, p, n, round ? TU_OP_NEARP : TU_OP_UNIFORM);
    tu_fill(x, n, TU_UNIFORM);
    tu_operand(x + n, p, n, round ? TU_OP_PM1 : TU_OP_UNIFORM); /* x < p*R */
    static const tabai_kernel ks[4] = {TABAI_KERNEL_AUTO, TABAI_KERNEL_CARRY_SAVE_2X2,
                                       TABAI_KERNEL_CARRY_SAVE_3X3, TABAI_KERNEL_CARRY_SAVE_4X4};
    tabai_status st[7];
    SECRET(a, L8(n));
    SECRET(b, L8(n));
    SECRET(x, L8(2 * n));
    st[0] = tabai_ohta_mul(&ctx, r[0], a, b);
    st[1] = tabai_ohta_sqr(&ctx, r[1], a);
    st[2] = tabai_ohta_reduce(&ctx, r[2], x);
    for (int k = 0; k < 4; k++) st[3 + k] = tabai_ohta_mul_with(ks[k], &ctx, r[3 + k], a, b);
    PUBLIC(a, L8(n));
    PUBLIC(b, L8(n));
    PUBLIC(x, L8(2 * n));
    PUBLIC(r, sizeof r);
    mpz_t pz, az, bz, z;
    mpz_inits(pz, az, bz, z, NULL);
    mpz_of(pz, p, n);
    mpz_of(az, a, n);
    mpz_of(bz, b, n);
    mpz_mul(z, az, bz), mpz_mod(z, z, pz);
    TU_CHECK(st[0] == TABAI_OK && eq_z(r[0], n, z), "ohta_mul", n, TU_V("a", a, n),
             TU_V("b", b, n), TU_V("p", p, n));
    for (int k = 0; k < 4; k++) {
        TU_CHECK(st[3 + k] == TABAI_OK && eq_z(r[3 + k], n, z), tabai_kernel_name(ks[k]), n,
                 TU_V("a", a, n), TU_V("b", b, n), TU_V("p", p, n));
    }
    mpz_mul(z, az, az), mpz_mod(z, z, pz);
    TU_CHECK(st[1] == TABAI_OK && eq_z(r[1], n, z), "ohta_sqr", n, TU_V("a", a, n),
             TU_V("p", p, n));
    mpz_of(z, x, 2 * n), mpz_mod(z, z, pz);
    TU_CHECK(st[2] == TABAI_OK && eq_z(r[2], n, z), "ohta_reduce", n, TU_V("x", x, 2 * n),
             TU_V("p", p, n));
    mpz_clears(pz, az, bz, z, NULL);
}

/* ---- the explicit multiplication kernels (tabai_mul_with) ---- */
static void test_mul_with(size_t n, int round) {
    uint64_t a[MAXN], b[MAXN], r[2 * MAXN], w[2 * MAXN];
    tu_fill(a, n, round ? TU_ONES : TU_UNIFORM);
    tu_fill(b, n, round ? TU_ONES : TU_UNIFORM);
    mpn_mul_n((mp_limb_t *)w, (const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
    for (int k = 0; k < TABAI_KERNEL_COUNT; k++) {
        tabai_kernel kk = (tabai_kernel)k;
        if (kk >= TABAI_KERNEL_CARRY_SAVE_2X2) continue; /* Ohta kernels: test_ohta */
        if (tabai_kernel_available(kk) != TABAI_OK) {
            /* only the AVX2 kernels may refuse, and only below tier avx2 */
            int avx2 = kk == TABAI_KERNEL_SIMD29_AVX2 || kk == TABAI_KERNEL_FP64_VEC ||
                       kk == TABAI_KERNEL_FP64_FMA || kk == TABAI_KERNEL_FP64_FMA_VEC;
            TU_CHECK(avx2 && want_tier < TABAI_TIER_AVX2, "kernel unavailable", n, TU_NOV);
            continue;
        }
        memset(r, 0, L8(2 * n));
        SECRET(a, L8(n));
        SECRET(b, L8(n));
        tabai_status st = tabai_mul_with(kk, r, a, b, n);
        PUBLIC(a, L8(n));
        PUBLIC(b, L8(n));
        PUBLIC(r, L8(2 * n));
        TU_CHECK(st == TABAI_OK && memcmp(r, w, L8(2 * n)) == 0, tabai_kernel_name(kk), n,
                 TU_V("a", a, n), TU_V("b", b, n));
    }
}

/* ---- the multi-buffer layer and the batch API ----
 * Valgrind runs no AVX-512, so the layer above the vector kernels (transposes, per-lane
 * constants, the exponentiation with its window reads and table scan, RSA's reductions and
 * Garner's recombination) runs here on the portable reference kernel in a test-only kernel
 * entry (8 lanes, radix 2^52, the generic table scan). Secrets: the bases, exponents and
 * messages, and every secret part of the RSA keys (primes, their Montgomery constants,
 * dp, dq, qinv). */
static void ref_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                    const uint64_t *k0, size_t d) {
    tabai_mont_mul_rwn_mbl_generic(r, a, b, p, k0, d, 8, 52);
}
static void ref_sqr(uint64_t *r, const uint64_t *a, const uint64_t *p, const uint64_t *k0,
                    size_t d) {
    tabai_mont_mul_rwn_mbl_generic(r, a, a, p, k0, d, 8, 52);
}
static const tabai_mb_kernel ref_kernel = {"reference", "mont_mul_rwn_mbl_generic",
                                           "mont_mul_rwn_mbl_generic", 8, 52, 0,
                                           TABAI_TIER_GENERIC, ref_mul, ref_sqr, NULL};

static void secret_mont(tabai_mont *m, int secret) {
    if (secret) {
        SECRET(m->p, L8(m->n)), SECRET(m->rr, L8(m->n)), SECRET(m->one, L8(m->n));
        SECRET(&m->pinv, sizeof m->pinv);
    } else {
        PUBLIC(m->p, L8(m->n)), PUBLIC(m->rr, L8(m->n)), PUBLIC(m->one, L8(m->n));
        PUBLIC(&m->pinv, sizeof m->pinv);
    }
}
static void secret_key(tabai_rsa_key *k, int secret) {
    secret_mont(&k->mp, secret);
    secret_mont(&k->mq, secret);
    const size_t h = L8(k->mp.n > k->mq.n ? k->mp.n : k->mq.n), n = L8(k->pub.n);
    if (secret) {
        SECRET(k->dp, h), SECRET(k->dq, h), SECRET(k->qinv_m, h);
        SECRET(k->blind, n), SECRET(k->unblind, n); /* r^e and r^-1: r is secret */
    } else {
        PUBLIC(k->dp, h), PUBLIC(k->dq, h), PUBLIC(k->qinv_m, h);
        PUBLIC(k->blind, n), PUBLIC(k->unblind, n);
    }
}

/* the key of primes p, q (h limbs each), e = 65537: d, dp, dq, qinv with GMP, every parameter
 * as a 2h-limb number; 0 if e is not invertible */
static int key_of_primes(tabai_rsa_key *key, mpz_t n, mpz_t d, const mpz_t p, const mpz_t q,
                         size_t h) {
    mpz_t phi, t, dp, dq, qi, e;
    mpz_inits(phi, t, dp, dq, qi, e, NULL);
    mpz_set_ui(e, 65537);
    mpz_sub_ui(phi, p, 1);
    mpz_sub_ui(t, q, 1);
    mpz_mul(phi, phi, t);
    int ok = mpz_cmp(p, q) && mpz_invert(d, e, phi);
    if (ok) {
        mpz_mul(n, p, q);
        mpz_sub_ui(t, p, 1), mpz_mod(dp, d, t);
        mpz_sub_ui(t, q, 1), mpz_mod(dq, d, t);
        mpz_invert(qi, q, p);
        const size_t nl = 2 * h;
        uint64_t N[MAXN], D[MAXN], P[MAXN], Q[MAXN], DP[MAXN], DQ[MAXN], QI[MAXN];
        tu_from_mpz(N, nl, n), tu_from_mpz(D, nl, d), tu_from_mpz(P, nl, p);
        tu_from_mpz(Q, nl, q), tu_from_mpz(DP, nl, dp), tu_from_mpz(DQ, nl, dq);
        tu_from_mpz(QI, nl, qi);
        TU_CHECK(tabai_rsa_key_init(key, N, 65537, D, P, Q, DP, DQ, QI, nl) == TABAI_OK,
                 "rsa_key_init", h, TU_NOV);
    }
    mpz_clears(phi, t, dp, dq, qi, e, NULL);
    return ok;
}

/* an RSA key of 1024 bits (the smallest the library takes: 512-bit primes, top two bits set)
 * made with GMP; e = 65537 */
static void make_key(tabai_rsa_key *key, mpz_t n, mpz_t d) {
    enum { H = 8 };
    mpz_t p, q;
    mpz_inits(p, q, NULL);
    do {
        uint64_t l[MAXN];
        tu_fill(l, H, TU_UNIFORM);
        l[H - 1] |= (uint64_t)3 << 62;
        mpz_of(p, l, H);
        mpz_nextprime(p, p);
        tu_fill(l, H, TU_UNIFORM);
        l[H - 1] |= (uint64_t)3 << 62;
        mpz_of(q, l, H);
        mpz_nextprime(q, q);
    } while (mpz_sizeinbase(p, 2) != 64 * H || mpz_sizeinbase(q, 2) != 64 * H ||
             !key_of_primes(key, n, d, p, q, H));
    mpz_clears(p, q, NULL);
}

/* RSA-2048 (the shipped test key): one message, the whole private operation through the
 * reference lanes and the scalar loop, every secret part of the key and the message
 * undefined */
static void test_rsa2048(int round) {
    static tabai_rsa_key key;
    mpz_t p, q, n, d, x, z;
    mpz_inits(p, q, n, d, x, z, NULL);
    mpz_of(p, bench_modulus_rsa2048_p, 16), mpz_of(q, bench_modulus_rsa2048_q, 16);
    if (mpz_cmp(p, q) < 0) mpz_swap(p, q);
    TU_CHECK(key_of_primes(&key, n, d, p, q, 16), "RSA-2048 key", 16, TU_NOV);
    uint64_t c[32], m[2][32];
    tu_fill(c, 32, round ? TU_ONES : TU_UNIFORM);
    mpz_of(x, c, 32), mpz_mod(x, x, n), tu_from_mpz(c, 32, x);
    tabai_rsa_key *kp[1] = {&key};
    const uint64_t *cp[1] = {c};
    uint64_t *mp0[1] = {m[0]}, *mp1[1] = {m[1]};
    secret_key(&key, 1);
    SECRET(c, sizeof c);
    tabai_status st0 = tabai_rsa_private_batch_with(&ref_kernel, 1, mp0, cp, kp, 1);
    tabai_status st1 = tabai_rsa_private_batch_with(NULL, 1, mp1, cp, kp, 1);
    secret_key(&key, 0);
    PUBLIC(c, sizeof c);
    PUBLIC(m, sizeof m);
    mpz_powm(z, x, d, n);
    TU_CHECK(st0 == TABAI_OK && eq_z(m[0], 32, z), "RSA-2048 rsa_private_batch (mb lanes)", 32, TU_NOV);
    TU_CHECK(st1 == TABAI_OK && eq_z(m[1], 32, z), "RSA-2048 rsa_private_batch (scalar)", 32, TU_NOV);
    tabai_rsa_key_clear(&key);
    mpz_clears(p, q, n, d, x, z, NULL);
}

static void test_batch(int round) {
    /* RSA, the whole private operation (blinding with the key's secret pair, reductions, the
     * CRT exponentiations, Garner, unblinding, the check by e): 5 messages (a group of 8
     * lanes, 2 x 5 half-size exponentiations: 8 + 2), two 1024-bit keys mixed in one batch,
     * through the reference lanes and the scalar loop */
    enum { MSGS = 5, NL = 16 };
    static tabai_rsa_key keys[2];
    mpz_t n[2], d[2], z, x;
    mpz_inits(n[0], n[1], d[0], d[1], z, x, NULL);
    make_key(&keys[0], n[0], d[0]);
    make_key(&keys[1], n[1], d[1]);
    uint64_t c[MSGS][NL], m[2][MSGS][NL];
    tabai_rsa_key *kp[MSGS];
    const uint64_t *cp[MSGS];
    uint64_t *mp[2][MSGS];
    for (int i = 0; i < MSGS; i++) {
        kp[i] = &keys[i % 2];
        tu_fill(c[i], NL, round ? TU_ONES : TU_UNIFORM);
        mpz_of(x, c[i], NL);
        mpz_mod(x, x, n[i % 2]);
        tu_from_mpz(c[i], NL, x);
        cp[i] = c[i], mp[0][i] = m[0][i], mp[1][i] = m[1][i];
    }
    for (int k = 0; k < 2; k++) secret_key(&keys[k], 1);
    SECRET(c, sizeof c);
    tabai_status st0 = tabai_rsa_private_batch_with(&ref_kernel, MSGS, mp[0], cp, kp, 1);
    tabai_status st1 = tabai_rsa_private_batch_with(NULL, MSGS, mp[1], cp, kp, 2);
    for (int k = 0; k < 2; k++) secret_key(&keys[k], 0);
    PUBLIC(c, sizeof c);
    PUBLIC(m, sizeof m);
    for (int i = 0; i < MSGS; i++) {
        mpz_of(x, c[i], NL);
        mpz_powm(z, x, d[i % 2], n[i % 2]);
        TU_CHECK(st0 == TABAI_OK && eq_z(m[0][i], NL, z), "rsa_private_batch (mb lanes)", NL,
                 TU_V("c", c[i], NL));
        TU_CHECK(st1 == TABAI_OK && eq_z(m[1][i], NL, z), "rsa_private_batch (scalar)", NL,
                 TU_V("c", c[i], NL));
    }
    for (int k = 0; k < 2; k++) tabai_rsa_key_clear(&keys[k]);
    /* powmod and modmul batches: secret bases, exponents, operands; public moduli */
    enum { CNT = 10, N = 3 };
    uint64_t pm[CNT][N], a[CNT][N], b[CNT][N], e[CNT][N], r[2][CNT][N];
    const uint64_t *pp[CNT], *ap[CNT], *bp[CNT], *ep[CNT];
    uint64_t *rp[2][CNT];
    for (int i = 0; i < CNT; i++) {
        tu_modulus(pm[i], N, TU_MOD_UNIFORM, TU_ODD);
        tu_operand(a[i], pm[i], N, round ? TU_OP_PM1 : TU_OP_UNIFORM);
        tu_operand(b[i], pm[i], N, TU_OP_UNIFORM);
        tu_fill(e[i], N, round ? TU_ONES : TU_UNIFORM);
        pp[i] = pm[i], ap[i] = a[i], bp[i] = b[i], ep[i] = e[i], rp[0][i] = r[0][i], rp[1][i] = r[1][i];
    }
    SECRET(a, sizeof a), SECRET(b, sizeof b), SECRET(e, sizeof e);
    tabai_status s0 = tabai_powmod_batch_with(&ref_kernel, CNT, rp[0], bp, ep, 64 * N, pp, N, 1);
    tabai_status s1 = tabai_modmul_batch_with(&ref_kernel, CNT, rp[1], ap, bp, pp, N);
    PUBLIC(a, sizeof a), PUBLIC(b, sizeof b), PUBLIC(e, sizeof e), PUBLIC(r, sizeof r);
    for (int i = 0; i < CNT; i++) {
        mpz_t P, B, E;
        mpz_inits(P, B, E, NULL);
        mpz_of(P, pm[i], N), mpz_of(B, b[i], N), mpz_of(E, e[i], N);
        mpz_powm(z, B, E, P);
        TU_CHECK(s0 == TABAI_OK && eq_z(r[0][i], N, z), "powmod_batch (mb lanes)", N, TU_V("p", pm[i], N));
        mpz_of(x, a[i], N);
        mpz_mul(z, x, B), mpz_mod(z, z, P);
        TU_CHECK(s1 == TABAI_OK && eq_z(r[1][i], N, z), "modmul_batch (mb lanes)", N, TU_V("p", pm[i], N));
        mpz_clears(P, B, E, NULL);
    }
    mpz_clears(n[0], n[1], d[0], d[1], z, x, NULL);
}

/* X25519: the scalar marked secret for tabai_x25519, tabai_x25519_base and the key pair (its
 * random bytes marked secret as they leave getrandom is not possible: the whole output is
 * marked before the check instead). Results: both sides of a Diffie-Hellman agree. The zero
 * check of the result is the one documented declassification. */
static void test_x25519(int round) {
    uint8_t a[32], b[32], pa[32], pb[32], ka[32], kb[32];
    for (int i = 0; i < 32; i++) a[i] = (uint8_t)tu_rand(), b[i] = (uint8_t)tu_rand();
    if (round) memset(a, 0xff, 32); /* every bit set: the other swap pattern */
    SECRET(a, 32);
    SECRET(b, 32);
    TU_CHECK(tabai_x25519_base(pa, a) == TABAI_OK, "x25519_base status", 4, TU_NOV);
    TU_CHECK(tabai_x25519_base(pb, b) == TABAI_OK, "x25519_base status", 4, TU_NOV);
    PUBLIC(pa, 32);
    PUBLIC(pb, 32);
    tabai_status sa = tabai_x25519(ka, a, pb), sb = tabai_x25519(kb, b, pa);
    PUBLIC(ka, 32);
    PUBLIC(kb, 32);
    TU_CHECK(sa == TABAI_OK && sb == TABAI_OK && memcmp(ka, kb, 32) == 0,
             "x25519: both sides agree", 4, TU_NOV);
    uint8_t sk[32], pk[32];
    TU_CHECK(tabai_x25519_keypair(sk, pk) == TABAI_OK, "x25519_keypair status", 4, TU_NOV);
    SECRET(sk, 32);
    uint8_t again[32];
    const tabai_status s = tabai_x25519_base(again, sk); /* depends on the pointers only */
    PUBLIC(again, 32);
    TU_CHECK(s == TABAI_OK, "x25519_base status", 4, TU_NOV);
    TU_CHECK(memcmp(again, pk, 32) == 0, "x25519_keypair: pk = base(sk)", 4, TU_NOV);
}

/* ---- elliptic curves: the private scalar secret (and so the RFC 6979 nonce derived from
 * it), every curve; the results made public afterwards and checked (the public key by the
 * key check, ECDH by agreement, the signature by verification) ---- */
static void test_ec(int round) {
    static const tabai_curve curves[] = {TABAI_CURVE_P256, TABAI_CURVE_P384, TABAI_CURVE_P521,
                                         TABAI_CURVE_SECP256K1};
    for (size_t ci = 0; ci < sizeof curves / sizeof curves[0]; ci++) {
        tabai_curve c = curves[ci];
        size_t L = tabai_ec_field_bytes(c), PL = 1 + 2 * L;
        uint8_t sa[66], sb[66], pa[133], pb[133], pc[67], s1[66], s2[66], sig[132], dg[64];
        TU_CHECK(tabai_ec_keypair(c, sa, pa) == TABAI_OK && tabai_ec_keypair(c, sb, pb) == TABAI_OK,
                 "ec keypair", L, TU_NOV);
        for (size_t i = 0; i < sizeof dg; i++) dg[i] = (uint8_t)tu_rand();
        if (round) sa[L - 1] |= 1; /* a second shape of scalar: odd */
        SECRET(sa, L);
        SECRET(sb, L);
        tabai_status st1 = tabai_ec_public_key(c, pa, PL, sa);
        tabai_status st2 = tabai_ec_public_key(c, pc, 1 + L, sa);
        PUBLIC(pa, PL);
        PUBLIC(pc, 1 + L);
        TU_CHECK(st1 == TABAI_OK && st2 == TABAI_OK && tabai_ec_public_key_check(c, NULL, pa, PL) ==
                 TABAI_OK && memcmp(pa + 1, pc + 1, L) == 0, "ec public_key", L, TU_NOV);
        tabai_status e1 = tabai_ecdh(c, s1, sa, pb, PL);
        tabai_status e2 = tabai_ecdh(c, s2, sb, pa, PL);
        PUBLIC(s1, L);
        PUBLIC(s2, L);
        TU_CHECK(e1 == TABAI_OK && e2 == TABAI_OK && memcmp(s1, s2, L) == 0, "ecdh agrees", L,
                 TU_NOV);
        tabai_status g1 = tabai_ecdsa_sign_digest(c, sig, sa, dg, 32, TABAI_HASH_SHA256, dg + 32,
                                                  (size_t)round * 32, TABAI_ECDSA_LOW_S);
        PUBLIC(sig, 2 * L);
        TU_CHECK(g1 == TABAI_OK && tabai_ecdsa_verify_digest_vartime(c, pa, PL, dg, 32, sig, 0) ==
                 TABAI_OK, "ecdsa signature verifies", L, TU_NOV);
        /* point_mul: the scalar secret, any length */
        uint8_t out[133];
        SECRET(sb, L);
        tabai_status m1 = tabai_ec_point_mul(c, out, sb, L, pa, PL);
        PUBLIC(out, PL);
        PUBLIC(sb, L);
        TU_CHECK(m1 == TABAI_OK && memcmp(out + 1, s2, L) == 0, "ec point_mul = ecdh", L, TU_NOV);
        PUBLIC(sa, L);
    }
}

/* ---- the curves' constant-time inversions (safegcd) with the input secret: random
 * residues, 0 and 1; each result checked by a r = 1 in the field's form (0 for 0) ---- */
static void test_ec_inv(void) {
    static const tabai_curve curves[] = {TABAI_CURVE_P256, TABAI_CURVE_P384, TABAI_CURVE_P521,
                                         TABAI_CURVE_SECP256K1};
    for (size_t ci = 0; ci < sizeof curves / sizeof curves[0]; ci++) {
        tabai_ec_ctx x;
        tabai_ec_ctx_init(&x, tabai_ec_curve_get(curves[ci]));
        size_t n = x.c->n;
        for (int f = 0; f < 2; f++) {
            const tabai_ec_mod *m = f ? &x.fq : &x.fp;
            for (int k = 0; k < 4; k++) {
                uint64_t a[TABAI_EC_LIMBS] = {0}, r[TABAI_EC_LIMBS], t[TABAI_EC_LIMBS];
                if (k == 1) memcpy(a, m->one, n * 8);
                if (k >= 2) {
                    size_t bits = tabai_bitlen_vartime(m->m, n) - 1; /* a < 2^bits < m */
                    for (size_t i = 0; i < n; i++) a[i] = tu_rand();
                    for (size_t i = bits; i < 64 * n; i++) a[i / 64] &= ~((uint64_t)1 << (i % 64));
                }
                SECRET(a, n * 8);
                if (f) tabai_ec_scalar_inv_ct(&x, r, a);
                else tabai_ec_fe_inv_ct(&x, r, a);
                PUBLIC(r, n * 8);
                PUBLIC(a, n * 8);
                fe_mul(m, t, r, a);
                TU_CHECK(k == 0 ? fe_is_zero(r, n) : fe_eq(t, m->one, n),
                         f ? "ec scalar_inv_ct" : "ec fe_inv_ct", n, TU_V("a", a, n));
            }
        }
    }
}

/* fixed-base comb: the exponent secret (a DSA nonce); the base, its table, p, ebits and
 * rows public */
static void test_powmod_base(const modulus *md, int round) {
    const size_t n = md->n, ebits = round ? 257 : 64 * n - 5, el = (ebits + 63) / 64;
    if (n > 64) return;
    tabai_mont mc;
    (void)!tabai_mont_init(&mc, md->p, n);
    const unsigned rows = tabai_powmod_base_rows(ebits);
    const size_t tl = tabai_powmod_base_table_limbs(n, rows);
    uint64_t g[MAXN], e[2 * MAXN], r[MAXN], *tab = malloc(L8(tl));
    tu_operand(g, md->p, n, TU_OP_UNIFORM);
    tu_fill(e, el, round ? TU_ONES : TU_UNIFORM);
    if (ebits % 64) e[el - 1] &= ((uint64_t)1 << (ebits % 64)) - 1;
    tabai_status st = tabai_mont_powmod_base_table(&mc, tab, tl, g, ebits, rows);
    SECRET(e, L8(el));
    st |= tabai_mont_powmod_base(&mc, r, e, ebits, tab, tl, rows);
    PUBLIC(e, L8(el));
    PUBLIC(r, sizeof r);
    mpz_t p, x, y, z;
    mpz_inits(p, x, y, z, NULL);
    mpz_of(p, md->p, n), mpz_of(x, g, n), mpz_of(y, e, el);
    mpz_powm(z, x, y, p);
    TU_CHECK(st == TABAI_OK && eq_z(r, n, z), "mont_powmod_base", n, TU_V("g", g, n),
             TU_V("e", e, el), TU_V("p", md->p, n));
    mpz_clears(p, x, y, z, NULL);
    free(tab);
}

/* ---- the eight-lane curve batches on the portable model of the lanes (the IFMA body over
 * C; valgrind cannot run AVX-512): P-256 and secp256k1, nine items (a full group and a
 * padded one), the private scalars secret; results checked against the single functions ---- */
static void test_ec_mb(int round) {
    static const tabai_curve curves[] = {TABAI_CURVE_P256, TABAI_CURVE_SECP256K1};
    const tabai_ec_r52_kernel *k = &tabai_ec_r52_mb8_generic;
    enum { NI = 9 };
    for (size_t ci = 0; ci < sizeof curves / sizeof curves[0]; ci++) {
        tabai_curve c = curves[ci];
        size_t L = tabai_ec_field_bytes(c), PL = 1 + 2 * L;
        uint8_t sk[NI][32], pk[NI][65], peer[NI][65], out[NI][64], ref[64], dg[NI][32];
        const uint8_t *skp[NI], *peerp[NI], *dgp[NI];
        uint8_t *outp[NI], *pkp[NI];
        size_t plen[NI], dlen[NI];
        tabai_status st[NI];
        for (int i = 0; i < NI; i++) {
            uint8_t t[32];
            TU_CHECK(tabai_ec_keypair(c, sk[i], pk[i]) == TABAI_OK &&
                     tabai_ec_keypair(c, t, peer[i]) == TABAI_OK, "ec keypair", 0, TU_NOV);
            for (int b = 0; b < 32; b++) dg[i][b] = (uint8_t)tu_rand();
            skp[i] = sk[i], peerp[i] = peer[i], dgp[i] = dg[i], outp[i] = out[i], pkp[i] = pk[i];
            plen[i] = PL, dlen[i] = 32;
            if (round) sk[i][L - 1] |= 1;
        }
        SECRET(sk, sizeof sk);
        tabai_ecdh_batch_with(k, c, NI, st, outp, skp, peerp, plen);
        PUBLIC(out, sizeof out);
        PUBLIC(st, sizeof st);
        for (int i = 0; i < NI; i++) {
            PUBLIC(sk[i], 32);
            const tabai_status s = tabai_ecdh(c, ref, sk[i], peer[i], PL);
            TU_CHECK(s == TABAI_OK && st[i] == TABAI_OK && !memcmp(ref, out[i], L),
                     "ecdh_batch (lanes)", 0, TU_NOV);
        }
        SECRET(sk, sizeof sk);
        tabai_ec_public_key_batch_with(k, c, NI, st, pkp, PL, skp);
        PUBLIC(pk, sizeof pk);
        PUBLIC(st, sizeof st);
        for (int i = 0; i < NI; i++)
            TU_CHECK(st[i] == TABAI_OK && tabai_ec_public_key_check(c, NULL, pk[i], PL) == TABAI_OK,
                     "public_key_batch (lanes)", 0, TU_NOV);
        tabai_ecdsa_sign_batch_with(k, c, NI, st, outp, skp, dgp, dlen, TABAI_HASH_SHA256, NULL,
                                    NULL, round ? TABAI_ECDSA_LOW_S : 0);
        PUBLIC(out, sizeof out);
        PUBLIC(st, sizeof st);
        PUBLIC(sk, sizeof sk);
        for (int i = 0; i < NI; i++)
            TU_CHECK(st[i] == TABAI_OK && tabai_ecdsa_verify_digest_vartime(c, pk[i], PL, dg[i], 32,
                     out[i], 0) == TABAI_OK, "sign_batch (lanes) verifies", 0, TU_NOV);
    }
}

int main(int argc, char **argv) {
    const char *tier = getenv("TABAI_CPU");
    int leaky = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--leaky") == 0) leaky = 1;
        else if (strcmp(argv[i], "--tier") == 0 && i + 1 < argc) tier = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--tier generic|bmi2|avx2] [--leaky]\n", argv[0]);
            return 2;
        }
    }
    if (leaky) return run_leaky();
    if (!tier || !*tier) tier = "generic";
    int rc = force_tier(tier);
    if (rc == 77) {
        printf("ctime: tier %s cannot run here%s: skipped\n", tier,
               RUNNING_ON_VALGRIND ? " (valgrind)" : "");
        return 77;
    }
    if (rc) return rc;
    tu_init(argv[0]);
    if (!RUNNING_ON_VALGRIND)
        printf("ctime: not under valgrind: results are checked, constant time is not\n");
    TU_CHECK(tabai_cpu_tier() == want_tier && strcmp(tabai_cpu_name(), tier) == 0,
             "tier in use is the requested one", 0, TU_NOV);
    size_t rounds = tu_iters(2);
    for (size_t round = 0; round < rounds; round++) test_x25519((int)(round % 2));
    printf("x25519: done, %llu checks, %llu failures\n", tu_checks, tu_failures);
    for (size_t round = 0; round < rounds; round++) test_ec((int)(round % 2));
    test_ec_inv();
    printf("elliptic curves: done, %llu checks, %llu failures\n", tu_checks, tu_failures);
    test_ec_mb(0);
    test_ec_mb(1);
    printf("elliptic-curve batches on the model lanes: done, %llu checks, %llu failures\n",
           tu_checks, tu_failures);
    fflush(stdout);
    for (size_t round = 0; round < rounds; round++) test_batch((int)(round % 2));
    test_rsa2048(0);
    printf("batch API / RSA on the reference lanes: done, %llu checks, %llu failures\n",
           tu_checks, tu_failures);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        modulus md;
        pick_modulus(&md, n, 1);
        tu_note("n=%zu modulus %s", n, md.name);
        check_tier_slots(n);
        for (size_t round = 0; round < rounds; round++) {
            int rd = (int)(round % 2);
            test_limb(n, rd);
            test_bytes(n, rd);
            test_mul_with(n, rd);
            test_mont(&md, rd);
            test_ohta(&md, rd);
            test_powmod(&md, rd);
            test_powmod_base(&md, rd);
        }
        printf("n=%3zu (%s): done, %llu checks, %llu failures\n", n, md.name, tu_checks,
               tu_failures);
        fflush(stdout);
    }
    return tu_finish();
}
