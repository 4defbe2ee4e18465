/* Shared helpers of the C tests: seed, counts, PRNG, GMP conversion, named input classes,
 * guarded buffers, failure reports. See testutil.h. */
#include "testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../bench/moduli.h"

uint64_t tu_seed;
double tu_scale = 1.0;
unsigned long long tu_checks, tu_failures;
static const char *prog_name = "test";
static char note_buf[256];
static void real_moduli_init(void);

/* ---- PRNG ---- */
static uint64_t rng[4];
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
uint64_t tu_rand(void) {
    uint64_t r = rotl(rng[1] * 5, 7) * 9, t = rng[1] << 17;
    rng[2] ^= rng[0];
    rng[3] ^= rng[1];
    rng[1] ^= rng[2];
    rng[0] ^= rng[3];
    rng[2] ^= t;
    rng[3] = rotl(rng[3], 45);
    return r;
}
uint64_t tu_below(uint64_t bound) {
    if (bound <= 1) return 0;
    return (uint64_t)(((unsigned __int128)tu_rand() * bound) >> 64);
}
const uint64_t tu_edge_limbs[6] = {0, 1, 0x7fffffffffffffffu, 0x8000000000000000u,
                                   0xfffffffffffffffeu, 0xffffffffffffffffu};
uint64_t tu_edge_limb(void) { return tu_edge_limbs[tu_below(6)]; }

/* ---- setup ---- */
size_t tu_iters(double base) {
    double x = base * tu_scale;
    return x < 1.0 ? 1 : (size_t)(x + 0.5);
}

tabai_tier tu_expected_tier(void) {
    tabai_tier native = tabai_cpu_native_tier();
    const char *env = getenv("TABAI_CPU");
    if (!env || !*env) return native;
    int want = tabai_tier_parse(env);
    if (want < 0 || want > (int)native) return native;
    return (tabai_tier)want;
}

void tu_check_tier(void) {
    tabai_tier want = tu_expected_tier();
    const char *got = tabai_cpu_name();
    const char *exp = tabai_tier_name(want);
    TU_CHECK(got && exp && strcmp(got, exp) == 0 && tabai_cpu_tier() == want,
             "tier in use is the one TABAI_CPU asked for (capped at native)", 0, TU_NOV);
    if (!(got && exp && strcmp(got, exp) == 0))
        fprintf(stderr, "%s: tabai_cpu_name() = %s, expected %s (TABAI_CPU=%s)\n", prog_name,
                got ? got : "(null)", exp ? exp : "(null)",
                getenv("TABAI_CPU") ? getenv("TABAI_CPU") : "(unset)");
}

void tu_init(const char *prog) {
    const char *slash = prog ? strrchr(prog, '/') : NULL;
    prog_name = slash ? slash + 1 : (prog ? prog : "test");
    /* a tier above the CPU's: nothing of that tier can run; exit with ctest's skip code
     * rather than re-run a lower tier and pass */
    const char *cpu = getenv("TABAI_CPU");
    int want = cpu && *cpu ? tabai_tier_parse(cpu) : -1;
    if (want > (int)tabai_cpu_native_tier()) {
        printf("%s: skipped: tier %s not available (native %s)\n", prog_name,
               tabai_tier_name((tabai_tier)want), tabai_tier_name(tabai_cpu_native_tier()));
        exit(TU_SKIP);
    }
    const char *s = getenv("TABAI_TEST_SEED");
    if (s && *s) {
        tu_seed = strtoull(s, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
                     ((uint64_t)getpid() << 32);
        tu_seed = splitmix(&x);
    }
    real_moduli_init();
    uint64_t sm = tu_seed;
    for (int i = 0; i < 4; i++) rng[i] = splitmix(&sm);
    const char *it = getenv("TABAI_TEST_ITERS");
    if (it && *it) {
        double v = strtod(it, NULL);
        if (v > 0) tu_scale = v;
    }
    printf("%s: TABAI_TEST_SEED=0x%016llx TABAI_TEST_ITERS=%g tier=%s (TABAI_CPU=%s, native %s)\n",
           prog_name, (unsigned long long)tu_seed, tu_scale, tabai_cpu_name(),
           getenv("TABAI_CPU") ? getenv("TABAI_CPU") : "unset",
           tabai_tier_name(tabai_cpu_native_tier()));
    fflush(stdout);
    tu_check_tier();
}

int tu_finish(void) {
    printf("%s: %llu checks, %llu failures (TABAI_TEST_SEED=0x%016llx, tier %s)\n", prog_name,
           tu_checks, tu_failures, (unsigned long long)tu_seed, tabai_cpu_name());
    return tu_failures ? 1 : 0;
}

/* ---- GMP ---- */
void tu_to_mpz(mpz_t z, const uint64_t *a, size_t n) {
    mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, a);
}
void tu_from_mpz(uint64_t *a, size_t n, const mpz_t z) {
    size_t cnt = 0;
    if (mpz_sgn(z) < 0 || mpz_sizeinbase(z, 2) > 64 * n) {
        fprintf(stderr, "%s: tu_from_mpz: value does not fit %zu limbs\n", prog_name, n);
        abort();
    }
    memset(a, 0, n * sizeof(uint64_t));
    mpz_export(a, &cnt, -1, sizeof(uint64_t), 0, 0, z);
}
int tu_eq_mpz(const uint64_t *a, size_t n, const mpz_t z) {
    if (mpz_sgn(z) < 0 || mpz_sizeinbase(z, 2) > 64 * n) return 0;
    uint64_t *t = calloc(n ? n : 1, sizeof(uint64_t));
    size_t cnt = 0;
    mpz_export(t, &cnt, -1, sizeof(uint64_t), 0, 0, z);
    int eq = memcmp(t, a, n * sizeof(uint64_t)) == 0;
    free(t);
    return eq;
}
int tu_eq_n(const uint64_t *a, const uint64_t *b, size_t n) {
    return memcmp(a, b, n * sizeof(uint64_t)) == 0;
}

/* ---- limb classes ---- */
static const char *const class_names[TU_CLASS_COUNT] = {"uniform", "runs",   "edge",  "zero",
                                                        "ones",    "alternating", "sparse"};
const char *tu_class_name(int cls) {
    return cls >= 0 && cls < TU_CLASS_COUNT ? class_names[cls] : "?";
}

static void fill_runs(uint64_t *a, size_t n) {
    size_t bits = 64 * n, pos = 0;
    uint64_t bit = tu_rand() & 1;
    memset(a, 0, n * sizeof(uint64_t));
    while (pos < bits) {
        size_t len = 1 + (size_t)tu_below((uint64_t)1 << tu_below(9)); /* 1..256 */
        for (size_t i = 0; i < len && pos < bits; i++, pos++)
            if (bit) a[pos / 64] |= (uint64_t)1 << (pos % 64);
        bit ^= 1;
    }
}

void tu_fill(uint64_t *a, size_t n, int cls) {
    switch (cls) {
    case TU_UNIFORM:
        for (size_t i = 0; i < n; i++) a[i] = tu_rand();
        break;
    case TU_RUNS: fill_runs(a, n); break;
    case TU_EDGE:
        for (size_t i = 0; i < n; i++) a[i] = tu_edge_limb();
        break;
    case TU_ZERO: memset(a, 0, n * sizeof(uint64_t)); break;
    case TU_ONES: memset(a, 0xff, n * sizeof(uint64_t)); break;
    case TU_ALT: {
        static const uint64_t pats[4][2] = {{0x5555555555555555u, 0x5555555555555555u},
                                            {0xaaaaaaaaaaaaaaaau, 0xaaaaaaaaaaaaaaaau},
                                            {0, ~(uint64_t)0},
                                            {~(uint64_t)0, 0}};
        uint64_t k = tu_below(4);
        for (size_t i = 0; i < n; i++) a[i] = pats[k][i & 1];
        break;
    }
    case TU_SPARSE: {
        memset(a, 0, n * sizeof(uint64_t));
        uint64_t k = 1 + tu_below(4);
        for (uint64_t j = 0; j < k; j++) {
            uint64_t b = tu_below(64 * n);
            a[b / 64] |= (uint64_t)1 << (b % 64);
        }
        break;
    }
    default: abort();
    }
}

int tu_fill_any(uint64_t *a, size_t n) {
    /* uniform 40%, runs 25%, edge 15%, the rest 20% */
    uint64_t x = tu_below(100);
    int cls = x < 40 ? TU_UNIFORM
              : x < 65 ? TU_RUNS
              : x < 80 ? TU_EDGE
                       : (int)(TU_ZERO + tu_below(TU_CLASS_COUNT - TU_ZERO));
    tu_fill(a, n, cls);
    return cls;
}

/* ---- residues ---- */
static const char *const op_names[TU_OP_COUNT] = {"0",       "1",    "p-1",  "p-2",  "R mod p",
                                                  "uniform", "runs", "edge", "near p", "p/2"};
const char *tu_op_name(int cls) { return cls >= 0 && cls < TU_OP_COUNT ? op_names[cls] : "?"; }

void tu_operand(uint64_t *a, const uint64_t *p, size_t n, int cls) {
    mpz_t P, x;
    mpz_inits(P, x, NULL);
    tu_to_mpz(P, p, n);
    uint64_t *t = calloc(n, sizeof(uint64_t));
    switch (cls) {
    case TU_OP_ZERO: mpz_set_ui(x, 0); break;
    case TU_OP_ONE: mpz_set_ui(x, 1); break;
    case TU_OP_PM1: mpz_sub_ui(x, P, 1); break;
    case TU_OP_PM2: mpz_sub_ui(x, P, 2); break;
    case TU_OP_RMODP: mpz_setbit(x, 64 * n); break;
    case TU_OP_UNIFORM: {
        size_t bits = mpz_sizeinbase(P, 2);
        do {
            tu_fill(t, n, TU_UNIFORM);
            for (size_t i = 0; i < n; i++) {
                size_t lo = 64 * i;
                if (lo >= bits) t[i] = 0;
                else if (bits - lo < 64) t[i] &= ((uint64_t)1 << (bits - lo)) - 1;
            }
            tu_to_mpz(x, t, n);
        } while (mpz_cmp(x, P) >= 0);
        break;
    }
    case TU_OP_RUNS: tu_fill(t, n, TU_RUNS), tu_to_mpz(x, t, n); break;
    case TU_OP_EDGE: tu_fill(t, n, TU_EDGE), tu_to_mpz(x, t, n); break;
    case TU_OP_NEARP:
        mpz_sub_ui(x, P, 1 + tu_below(1u << 16));
        if (mpz_sgn(x) < 0) mpz_sub_ui(x, P, 1);
        break;
    case TU_OP_HALF:
        mpz_fdiv_q_2exp(x, P, 1);
        if (tu_rand() & 1) mpz_add_ui(x, x, 1);
        break;
    default: abort();
    }
    mpz_mod(x, x, P);
    tu_from_mpz(a, n, x);
    free(t);
    mpz_clears(P, x, NULL);
}

/* ---- moduli ---- */
static const char *const mod_names[TU_MOD_COUNT] = {
    "uniform", "top limb 1", "top limb ones", "2^(64n)-c", "2^(64(n-1))+c", "2^k+c",
    "2^k-c",   "2^k",        "2^k+1",         "2^(64n)-1", "runs",          "edge"};
const char *tu_mod_name(int cls) { return cls >= 0 && cls < TU_MOD_COUNT ? mod_names[cls] : "?"; }

static void set_pow2(uint64_t *p, size_t n, size_t k) {
    memset(p, 0, n * sizeof(uint64_t));
    p[k / 64] = (uint64_t)1 << (k % 64);
}
static void add_small(uint64_t *p, size_t n, uint64_t c) {
    for (size_t i = 0; i < n && c; i++) {
        uint64_t s = p[i] + c;
        c = s < c;
        p[i] = s;
    }
}
static void sub_small(uint64_t *p, size_t n, uint64_t c) {
    for (size_t i = 0; i < n && c; i++) {
        uint64_t s = p[i] - c;
        c = p[i] < c;
        p[i] = s;
    }
}

void tu_modulus(uint64_t *p, size_t n, int cls, int parity) {
    size_t lowk = 64 * (n - 1);
    switch (cls) {
    case TU_MOD_UNIFORM:
    case TU_MOD_RUNS:
    case TU_MOD_EDGE:
        do tu_fill(p, n, cls == TU_MOD_UNIFORM ? TU_UNIFORM : cls == TU_MOD_RUNS ? TU_RUNS : TU_EDGE);
        while (p[n - 1] == 0);
        break;
    case TU_MOD_TOP1:
        tu_fill(p, n, tu_rand() & 1 ? TU_UNIFORM : TU_RUNS);
        p[n - 1] = 1;
        break;
    case TU_MOD_TOPONES:
        tu_fill(p, n, tu_rand() & 1 ? TU_UNIFORM : TU_RUNS);
        p[n - 1] = ~(uint64_t)0;
        break;
    case TU_MOD_BELOW_R:
        memset(p, 0, n * sizeof(uint64_t));
        sub_small(p, n, 1 + tu_below(1u << 20));
        break;
    case TU_MOD_ABOVE_LOW:
        set_pow2(p, n, lowk);
        add_small(p, n, tu_below(1u << 20) + (n == 1 ? 2 : 0));
        break;
    case TU_MOD_POW2_PLUS:
        set_pow2(p, n, lowk + tu_below(64));
        add_small(p, n, 1 + tu_below(1u << 20));
        break;
    case TU_MOD_POW2_MINUS: {
        size_t k = lowk + 1 + tu_below(64); /* 64(n-1) < k <= 64n */
        uint64_t cmax = k - 1 < 20 ? (uint64_t)1 << (k - 1) : (uint64_t)1 << 20;
        if (k == 64 * n) memset(p, 0, n * sizeof(uint64_t));
        else set_pow2(p, n, k);
        sub_small(p, n, 1 + tu_below(cmax));
        break;
    }
    case TU_MOD_POW2:
        set_pow2(p, n, lowk + (n == 1 ? 1 + tu_below(63) : tu_below(64)));
        break;
    case TU_MOD_POW2_1:
        set_pow2(p, n, lowk + (n == 1 ? 1 + tu_below(63) : tu_below(64)));
        add_small(p, n, 1);
        break;
    case TU_MOD_ALLONES: memset(p, 0xff, n * sizeof(uint64_t)); break;
    default: abort();
    }
    if (parity == TU_ODD) p[0] |= 1;
    if (parity == TU_EVEN) p[0] &= ~(uint64_t)1;
    if (n == 1) {
        if (parity == TU_ODD && p[0] < 3) p[0] = 3;
        if (p[0] < 2) p[0] = 2;
    }
}

const tu_real_modulus *tu_real_moduli;
size_t tu_real_moduli_count;

static void real_moduli_init(void) {
    static tu_real_modulus tab[BENCH_MODULI_COUNT];
    for (size_t i = 0; i < BENCH_MODULI_COUNT; i++) {
        tab[i].name = bench_moduli[i].name;
        tab[i].n = bench_moduli[i].n;
        tab[i].limbs = bench_moduli[i].limbs;
    }
    tu_real_moduli = tab;
    tu_real_moduli_count = BENCH_MODULI_COUNT;
}

/* ---- guarded buffers ---- */
static uint64_t guard_word(size_t i) { return 0xa5c3f00d5eed0000u ^ (i * 0x9e3779b97f4a7c15u); }

uint64_t *tu_buf_new(size_t n) {
    uint64_t *base = malloc((n + 2 * TU_GUARD + 1) * sizeof(uint64_t));
    if (!base) abort();
    base[0] = n;
    for (size_t i = 0; i < TU_GUARD; i++) {
        base[1 + i] = guard_word(i);
        base[1 + TU_GUARD + n + i] = guard_word(TU_GUARD + i);
    }
    uint64_t *r = base + 1 + TU_GUARD;
    for (size_t i = 0; i < n; i++) r[i] = 0x0badc0de0badc0deu + i;
    return r;
}
void tu_buf_free(uint64_t *r) {
    if (r) free(r - 1 - TU_GUARD);
}
void tu_buf_fill(uint64_t *r, size_t n, uint64_t v) {
    for (size_t i = 0; i < n; i++) r[i] = v;
}
int tu_buf_ok(const uint64_t *r) {
    const uint64_t *base = r - 1 - TU_GUARD;
    size_t n = base[0];
    for (size_t i = 0; i < TU_GUARD; i++)
        if (base[1 + i] != guard_word(i) || base[1 + TU_GUARD + n + i] != guard_word(TU_GUARD + i))
            return 0;
    return 1;
}
uint64_t *tu_dup(const uint64_t *a, size_t n) {
    uint64_t *r = malloc((n ? n : 1) * sizeof(uint64_t));
    if (!r) abort();
    memcpy(r, a, n * sizeof(uint64_t));
    return r;
}

/* ---- reports ---- */
void tu_print_hex(const char *name, const uint64_t *a, size_t n) {
    fprintf(stderr, "    %s = 0x", name);
    if (!a || n == 0) {
        fprintf(stderr, "(none)\n");
        return;
    }
    for (size_t i = n; i-- > 0;) fprintf(stderr, "%016llx%s", (unsigned long long)a[i], i ? "_" : "");
    fprintf(stderr, "\n");
}

void tu_note(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note_buf, sizeof note_buf, fmt, ap);
    va_end(ap);
}

void tu_fail(const char *file, int line, const char *what, size_t n, ...) {
    tu_failures++;
    if (tu_failures > TU_MAX_REPORTS) {
        if (tu_failures == TU_MAX_REPORTS + 1)
            fprintf(stderr, "%s: more failures, not reported\n", prog_name);
        return;
    }
    const char *fn = strrchr(file, '/');
    fprintf(stderr, "%s: FAIL %s:%d: %s (n = %zu)%s%s\n", prog_name, fn ? fn + 1 : file, line, what,
            n, note_buf[0] ? "; " : "", note_buf);
    va_list ap;
    va_start(ap, n);
    for (;;) {
        const char *name = va_arg(ap, const char *);
        if (!name) break;
        const uint64_t *ptr = va_arg(ap, const uint64_t *);
        size_t len = va_arg(ap, size_t);
        if (ptr) tu_print_hex(name, ptr, len);
    }
    va_end(ap);
    fprintf(stderr, "    replay: TABAI_TEST_SEED=0x%016llx TABAI_CPU=%s (tier in use %s)\n",
            (unsigned long long)tu_seed, getenv("TABAI_CPU") ? getenv("TABAI_CPU") : "native",
            tabai_cpu_name());
}
