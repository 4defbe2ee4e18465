/* tabai-bench: tabai beside GMP and OpenSSL, same process, alternating, median of many samples.
 *
 *   tabai-bench [--ops LIST] [--bits LIST] [--seconds S] [--json PATH] [--list] [--progress]
 *               [--tiers LIST] [--moduli LIST]
 *
 * The interface is public (the Python `tabai bench` and users' scripts rely on it); see
 * bench/README.md. Suites are listed in bench/suites.h. */
#define _GNU_SOURCE
#include <gmp.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/dispatch/registry.h"
#include "harness.h"
#include "moduli.h"

#define BENCH_SUITE(name) void bench_suite_##name(bench_ctx *c);
#include "suites.h"
#undef BENCH_SUITE

static void (*const suites[])(bench_ctx *) = {
#define BENCH_SUITE(name) bench_suite_##name,
#include "suites.h"
#undef BENCH_SUITE
};
#define SUITE_COUNT (sizeof suites / sizeof suites[0])

#ifndef TABAI_BENCH_CFLAGS
#define TABAI_BENCH_CFLAGS "?"
#endif
#ifndef TABAI_BENCH_BUILD_TYPE
#define TABAI_BENCH_BUILD_TYPE "?"
#endif

static const size_t default_limbs[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 32, 64};

/* The kernel registry (src/dispatch/registry.def) as JSON, one object per label: its ops, the
 * lowest tier of its records, lanes, digit bits (0: chosen per size), where it lives. The
 * Python tools take their kernel labels from here (`--list`, and the run's meta). */
static void registry_json(char *buf, size_t size) {
    size_t k = (size_t)snprintf(buf, size, "[");
    char esc[2][256];
    for (const tabai_kernel_rec *r = tabai_registry; r->label && k < size; r++) {
        const tabai_kernel_rec *q = tabai_registry;
        while (strcmp(q->label, r->label)) q++;
        if (q != r) continue; /* the first record of each label speaks for it */
        k += (size_t)snprintf(buf + k, size - k, "%s\n  {\"label\": %s, \"ops\": [", k > 1 ? "," : "",
                              bench_json_str(esc[0], sizeof esc[0], r->label));
        int nops = 0;
        for (int op = 0; op < TABAI_KOP_COUNT; op++) {
            int has = 0;
            for (q = r; q->label; q++) has |= !strcmp(q->label, r->label) && (int)q->op == op;
            if (has && k < size)
                k += (size_t)snprintf(buf + k, size - k, "%s\"%s\"", nops++ ? ", " : "",
                                      tabai_kop_name((tabai_kop)op));
        }
        if (k < size)
            k += (size_t)snprintf(buf + k, size - k,
                                  "], \"tier\": \"%s\", \"lanes\": %u, \"radix\": %u, \"source\": %s}",
                                  tabai_tier_name(r->tier), r->lanes, r->radix,
                                  bench_json_str(esc[1], sizeof esc[1], r->source));
    }
    if (k < size) snprintf(buf + k, size - k, "]");
}

static void usage(FILE *f) {
    fputs("usage: tabai-bench [--ops LIST] [--bits LIST] [--seconds S] [--json PATH] [--list]\n"
          "                   [--progress] [--tiers LIST] [--moduli LIST] [--threads N] [--curves LIST]\n"
          "  --ops LIST     comma-separated operations (default: all; see --list)\n"
          "  --bits LIST    comma-separated sizes in bits: limb ops use ceil(bits/64) limbs\n"
          "                 (default 1..16, 32, 64 limbs); modular ops use every default modulus\n"
          "                 of that size, else a fixed-seed random odd modulus of exactly that\n"
          "                 many bits (default: every embedded modulus)\n"
          "  --moduli LIST  modular ops on these embedded moduli (names from --list) instead\n"
          "  --curves LIST  curve operations on these curves (P-256, P-384, P-521, secp256k1,\n"
          "                 X25519; default all)\n"
          "  --seconds S    time budget per measurement (default 0.2)\n"
          "  --threads N    batches (rsa_private) also on N threads: kernel label mb8_tN\n"
          "  --tiers LIST   tabai tiers to measure (default: every tier up to TABAI_CPU / native;\n"
          "                 a tier whose kernel is the same function as a lower one is skipped)\n"
          "  --json PATH    write the results there (default: stdout)\n"
          "  --list         print {\"ops\", \"kernels\", \"moduli\"} as JSON on stdout and exit\n"
          "  --reproduce    the seeds' experiments beside tabai's (= --ops reproduce): writes\n"
          "                 TABAI_REPRODUCE_MD (default reproduction.md) and its records as .json\n"
          "  --progress     print '@progress DONE TOTAL LABEL' lines on stderr instead of\n"
          "                 one human-readable line per measurement\n",
          f);
}

static void die_usage(const char *fmt, const char *arg) {
    fprintf(stderr, "tabai-bench: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
    exit(2);
}

/* Splits a comma list in place; returns the item count. */
static size_t split(char *s, char **items, size_t max) {
    size_t k = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        while (*tok == ' ') tok++;
        if (*tok && k < max) items[k++] = tok;
    }
    return k;
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* A fixed-seed random odd modulus of exactly `bits` bits. */
static bench_mod random_modulus(unsigned bits) {
    bench_mod m;
    size_t n = (bits + 63) / 64;
    uint64_t *p = bench_alloc(n * sizeof *p);
    bench_ctx tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.rng = 0x7461626169ull ^ bits; /* "tabai" */
    bench_rand_limbs(&tmp, p, n);
    unsigned top = bits - 64 * (unsigned)(n - 1); /* bits in the top limb, 1..64 */
    if (top < 64) p[n - 1] &= (1ull << top) - 1;
    p[n - 1] |= 1ull << (top - 1);
    p[0] |= 1;
    char *name = bench_alloc(32);
    snprintf(name, 32, "rand_%u", bits);
    m.name = name;
    m.bits = bits;
    m.n = n;
    m.p = p;
    return m;
}

static bench_mod embedded(size_t i) {
    bench_mod m = {bench_moduli[i].name, bench_moduli[i].bits, bench_moduli[i].n,
                   bench_moduli[i].limbs};
    return m;
}

static void features_json(char *out, size_t sz) {
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{TABAI_CPU_SSE2, "sse2"},         {TABAI_CPU_AVX2, "avx2"},
                 {TABAI_CPU_FMA, "fma"},           {TABAI_CPU_BMI2, "bmi2"},
                 {TABAI_CPU_ADX, "adx"},           {TABAI_CPU_AVX512F, "avx512f"},
                 {TABAI_CPU_AVX512VL, "avx512vl"}, {TABAI_CPU_AVX512BW, "avx512bw"},
                 {TABAI_CPU_AVX512IFMA, "avx512ifma"}};
    unsigned f = tabai_cpu_features();
    size_t k = (size_t)snprintf(out, sz, "[");
    int first = 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (f & names[i].bit) {
            k += (size_t)snprintf(out + k, sz - k, "%s\"%s\"", first ? "" : ", ", names[i].name);
            first = 0;
        }
    snprintf(out + k, sz - k, "]");
}

static const char *compiler_name(void) {
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown";
#endif
}

/* The command line, before it is applied to the context. */
typedef struct bench_args {
    char *ops, *bits, *tiers, *moduli, *curves;
    const char *json_path;
    int list;
} bench_args;

/* Parses argv into a and the numeric options into c; exits on a usage error. Returns 0, or
 * 1 if the run is over (--help). */
static int parse_args(bench_ctx *c, bench_args *a, int argc, char **argv) {
    c->seconds = 0.2;
    c->threads = 1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(o, "--ops") && more) a->ops = argv[++i];
        else if (!strcmp(o, "--bits") && more) a->bits = argv[++i];
        else if (!strcmp(o, "--tiers") && more) a->tiers = argv[++i];
        else if (!strcmp(o, "--moduli") && more) a->moduli = argv[++i];
        else if (!strcmp(o, "--curves") && more) a->curves = argv[++i];
        else if (!strcmp(o, "--json") && more) a->json_path = argv[++i];
        else if (!strcmp(o, "--seconds") && more) {
            char *end;
            c->seconds = strtod(argv[++i], &end);
            if (*end || !(c->seconds > 0 && c->seconds <= 3600))
                die_usage("--seconds: expected a number in (0, 3600], got '%s'", argv[i]);
        } else if (!strcmp(o, "--threads") && more) {
            char *end;
            long t = strtol(argv[++i], &end, 10);
            if (*end || t < 1 || t > 256)
                die_usage("--threads: expected an integer in 1..256, got '%s'", argv[i]);
            c->threads = (unsigned)t;
        } else if (!strcmp(o, "--list")) a->list = 1;
        else if (!strcmp(o, "--reproduce")) { /* = --ops reproduce (bench/suite_delayed.c) */
            static char reproduce_ops[] = "reproduce";
            a->ops = reproduce_ops;
        }
        else if (!strcmp(o, "--progress")) c->progress = 1;
        else if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            usage(stdout);
            return 1;
        } else die_usage("unknown or incomplete option '%s'", o);
    }
    return 0;
}

/* --tiers: every tier up to the one in use at start (native capped by TABAI_CPU), or those
 * listed. */
static void choose_tiers(bench_ctx *c, char *tiers_arg) {
    c->tier_cap = tabai_cpu_tier();
    c->tier_mask = 0;
    if (!tiers_arg) {
        c->tier_mask = (1u << TABAI_TIER_COUNT) - 1;
        return;
    }
    char *items[16];
    size_t k = split(tiers_arg, items, 16);
    for (size_t i = 0; i < k; i++) {
        int t = tabai_tier_parse(items[i]);
        if (t < 0 || !strcmp(items[i], "native"))
            die_usage("--tiers: unknown tier '%s' (generic, bmi2, avx2, avx512, ifma)", items[i]);
        if (t > (int)c->tier_cap)
            fprintf(stderr, "tabai-bench: tier %s is above the tier in use (%s): skipped\n",
                    items[i], tabai_tier_name(c->tier_cap));
        c->tier_mask |= 1u << t;
    }
}

/* --bits and --moduli: the limb counts and the moduli the suites run on. */
static void choose_sizes(bench_ctx *c, char *bits_arg, char *moduli_arg) {
    static bench_mod mods[BENCH_MODULI_COUNT + 256];
    size_t mod_count = 0;
    if (bits_arg) {
        char *items[256];
        size_t k = split(bits_arg, items, 256);
        if (!k) die_usage("--bits: empty list '%s'", "");
        for (size_t i = 0; i < k; i++) {
            char *end;
            long b = strtol(items[i], &end, 10);
            if (*end || b < 2 || b > BENCH_MAX_BITS)
                die_usage("--bits: expected integers in 2..8192, got '%s'", items[i]);
            size_t n = ((size_t)b + 63) / 64, j;
            for (j = 0; j < c->limb_count && c->limbs[j] != n; j++) {
            }
            if (j == c->limb_count) c->limbs[c->limb_count++] = n;
            int dup = 0;
            for (size_t q = 0; q < mod_count; q++) dup |= mods[q].bits == (unsigned)b;
            if (dup) continue;
            int found = 0;
            for (size_t q = 0; q < BENCH_MODULI_COUNT; q++)
                if (bench_moduli[q].bits == (unsigned)b) {
                    mods[mod_count++] = embedded(q);
                    found = 1;
                }
            if (!found) mods[mod_count++] = random_modulus((unsigned)b);
        }
        qsort(c->limbs, c->limb_count, sizeof c->limbs[0], cmp_size);
    } else {
        c->limb_count = sizeof default_limbs / sizeof default_limbs[0];
        memcpy(c->limbs, default_limbs, sizeof default_limbs);
        for (size_t q = 0; q < BENCH_MODULI_COUNT; q++) mods[mod_count++] = embedded(q);
    }
    if (moduli_arg) {
        char *items[64];
        size_t k = split(moduli_arg, items, 64);
        mod_count = 0;
        for (size_t i = 0; i < k; i++) {
            size_t q;
            for (q = 0; q < BENCH_MODULI_COUNT && strcmp(bench_moduli[q].name, items[i]); q++) {
            }
            if (q == BENCH_MODULI_COUNT)
                die_usage("--moduli: unknown modulus '%s' (see --list)", items[i]);
            mods[mod_count++] = embedded(q);
        }
    }
    c->mods = mods;
    c->mod_count = mod_count;
}

/* --list: what the suites offer (after pass 1), the kernel registry and the moduli. */
static void print_list(const bench_ctx *c) {
    char buf[256];
    static char reg[8192];
    printf("{\"ops\": [");
    for (size_t i = 0; i < c->op_count; i++)
        printf("%s%s", i ? ", " : "", bench_json_str(buf, sizeof buf, c->ops[i]));
    printf("],\n \"kernels\": [");
    for (size_t i = 0; i < c->kernel_count; i++)
        printf("%s%s", i ? ", " : "", bench_json_str(buf, sizeof buf, c->kernels[i]));
    registry_json(reg, sizeof reg);
    printf("],\n \"registry\": %s", reg);
    printf(",\n \"moduli\": [");
    for (size_t q = 0; q < BENCH_MODULI_COUNT; q++)
        printf("%s\n  {\"name\": %s, \"bits\": %u}", q ? "," : "",
               bench_json_str(buf, sizeof buf, bench_moduli[q].name), bench_moduli[q].bits);
    printf("\n ]}\n");
}

/* 0 if every --ops name is an operation some suite offers, else prints the known ones. */
static int check_ops(const bench_ctx *c) {
    for (size_t i = 0; i < c->want_op_count; i++) {
        size_t j;
        for (j = 0; j < c->op_count && strcmp(c->ops[j], c->want_ops[i]); j++) {
        }
        if (j == c->op_count) {
            fprintf(stderr, "tabai-bench: --ops: unknown operation '%s'; known:", c->want_ops[i]);
            for (j = 0; j < c->op_count; j++) fprintf(stderr, " %s", c->ops[j]);
            fputc('\n', stderr);
            return 2;
        }
    }
    return 0;
}

/* The run's header: printed on stderr and written as the JSON meta object into meta. */
static void write_header(const bench_ctx *c, char *meta, size_t meta_size) {
    static char reg[8192];
    char features[256], date[64], esc[5][512], tiers[256];
    features_json(features, sizeof features);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    const char *cap_env = getenv("TABAI_CPU");
    size_t tk = (size_t)snprintf(tiers, sizeof tiers, "[");
    for (int t = 0; t < TABAI_TIER_COUNT; t++)
        if (bench_tier_wanted(c, (tabai_tier)t))
            tk += (size_t)snprintf(tiers + tk, sizeof tiers - tk, "%s\"%s\"", tk > 1 ? ", " : "",
                                   tabai_tier_name((tabai_tier)t));
    snprintf(tiers + tk, sizeof tiers - tk, "]");
    const char *ossl = OpenSSL_version(OPENSSL_VERSION);
    fprintf(stderr, "tabai-bench %s  %s\n", tabai_version(), date);
    fprintf(stderr, "cpu        %s\n", tabai_cpu_brand());
    fprintf(stderr, "features   %s\n", features);
    fprintf(stderr, "tier       native %s, in use %s (TABAI_CPU=%s), selected %s\n",
            tabai_tier_name(tabai_cpu_native_tier()), tabai_tier_name(c->tier_cap),
            cap_env ? cap_env : "unset", tiers);
    fprintf(stderr, "compiler   %s; flags %s (%s); library objects -O2\n", compiler_name(),
            TABAI_BENCH_CFLAGS, TABAI_BENCH_BUILD_TYPE);
    fprintf(stderr, "peers      GMP %s, %s\n", gmp_version, ossl);
    fprintf(stderr, "tsc        %.6f GHz (measured against CLOCK_MONOTONIC); TSC ticks are not "
                    "core cycles\n",
            bench_tsc_hz() * 1e-9);
    fprintf(stderr, "plan       %zu measurements, %.3g s budget each, samples >= 2 us, A B A B\n",
            c->total, c->seconds);
    fflush(stderr);

    registry_json(reg, sizeof reg);
    snprintf(meta, meta_size,
             "{\"tabai_version\": \"%s\", \"date\": \"%s\", \"cpu\": %s, \"features\": %s, "
             "\"native_tier\": \"%s\", \"tier\": \"%s\", \"tier_cap\": %s, \"tiers\": %s, "
             "\"compiler\": %s, \"flags\": %s, \"build_type\": \"%s\", "
             "\"lib_flags\": \"-O2 (generic C); ISA-specific files their own\", "
             "\"tsc_hz\": %.0f, \"note\": \"TSC ticks are not core cycles\", "
             "\"gmp_version\": \"%s\", \"openssl_version\": %s, \"seconds\": %.9g, "
             "\"batch_ns_min\": 2000, \"stat\": \"median of samples, implementations "
             "alternating\", \"registry\": %s}",
             tabai_version(), date, bench_json_str(esc[0], sizeof esc[0], tabai_cpu_brand()),
             features, tabai_tier_name(tabai_cpu_native_tier()), tabai_tier_name(c->tier_cap),
             cap_env ? bench_json_str(esc[1], sizeof esc[1], cap_env) : "null", tiers,
             bench_json_str(esc[2], sizeof esc[2], compiler_name()),
             bench_json_str(esc[3], sizeof esc[3], TABAI_BENCH_CFLAGS), TABAI_BENCH_BUILD_TYPE,
             bench_tsc_hz(), gmp_version,
             bench_json_str(esc[4], sizeof esc[4], ossl), c->seconds, reg);
}

int main(int argc, char **argv) {
    static bench_ctx c;
    bench_args a = {0};
    if (parse_args(&c, &a, argc, argv)) return 0;
    choose_tiers(&c, a.tiers);
    if (a.curves) c.want_curve_count = split(a.curves, (char **)c.want_curves, 16);
    if (a.ops) c.want_op_count = split(a.ops, (char **)c.want_ops, BENCH_MAX_OPS);
    choose_sizes(&c, a.bits, a.moduli);

    /* pass 1: what the suites offer */
    c.mode = BENCH_LIST;
    for (size_t s = 0; s < SUITE_COUNT; s++) suites[s](&c);
    if (a.list) {
        print_list(&c);
        return 0;
    }
    if (check_ops(&c)) return 2;

    /* pass 2: count */
    c.mode = BENCH_COUNT;
    for (size_t s = 0; s < SUITE_COUNT; s++) suites[s](&c);

    bench_timer_init();
    static char meta[16384];
    write_header(&c, meta, sizeof meta);

    /* pass 3: run */
    c.mode = BENCH_RUN;
    for (size_t s = 0; s < SUITE_COUNT; s++) {
        suites[s](&c);
        (void)!tabai_cpu_set_tier(c.tier_cap); /* a suite may have moved it */
    }
    if (bench_write_json(a.json_path, meta) != 0) {
        fprintf(stderr, "tabai-bench: cannot write %s\n", a.json_path ? a.json_path : "stdout");
        return 1;
    }
    if (a.json_path && !c.progress) fprintf(stderr, "wrote %s\n", a.json_path);
    return 0;
}
