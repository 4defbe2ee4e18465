/* The benchmark harness: see harness.h and bench/README.md.
 *
 * Timing: `lfence; rdtsc` around a batch of calls; the TSC frequency is measured against
 * CLOCK_MONOTONIC at start, and clock_gettime drives the time budget. Each sample times a
 * batch sized so that it lasts at least BATCH_NS; the implementations of a case are sampled
 * in turn (A B A B ...) so that a frequency change or a neighbour's load hits all of them
 * alike. The record keeps the median and the minimum of the per-call times. */
#define _GNU_SOURCE
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH_NS 2000.0  /* a sample lasts at least this long */
#define MIN_SAMPLES 5    /* per implementation, even over budget */
#define MAX_SAMPLES 20000 /* per implementation */

/* ------------------------------------------------------------------------------------------
 * Clocks
 * ------------------------------------------------------------------------------------------ */
static inline uint64_t tsc_now(void) {
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
}

static double mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double g_tsc_hz;
static double g_overhead; /* ticks of an empty tsc_now() pair */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void bench_timer_init(void) {
    double hz[5];
    for (int k = 0; k < 5; k++) {
        double t0 = mono_ns();
        uint64_t c0 = tsc_now();
        while (mono_ns() - t0 < 10e6) {
        }
        uint64_t c1 = tsc_now();
        double t1 = mono_ns();
        hz[k] = (double)(c1 - c0) * 1e9 / (t1 - t0);
    }
    g_tsc_hz = median(hz, 5);
    double ov[101];
    for (int k = 0; k < 101; k++) {
        uint64_t a = tsc_now(), b = tsc_now();
        ov[k] = (double)(b - a);
    }
    g_overhead = median(ov, 101);
}

double bench_tsc_hz(void) { return g_tsc_hz; }

/* ------------------------------------------------------------------------------------------
 * Errors, memory, random numbers
 * ------------------------------------------------------------------------------------------ */
void bench_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tabai-bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(3);
}

void *bench_alloc(size_t bytes) {
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) bench_fail("out of memory (%zu bytes)", bytes);
    return p;
}

static char *dupstr(const char *s) {
    if (!s) return NULL;
    char *d = bench_alloc(strlen(s) + 1);
    memcpy(d, s, strlen(s) + 1);
    return d;
}

uint64_t bench_rand64(bench_ctx *c) {
    uint64_t z = (c->rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void bench_rand_limbs(bench_ctx *c, uint64_t *r, size_t n) {
    for (size_t i = 0; i < n; i++) r[i] = bench_rand64(c);
}

void bench_rand_below(bench_ctx *c, uint64_t *r, const uint64_t *p, size_t n) {
    /* random n limbs with the top limb below p's top limb: r < p (p[n-1] > 0) */
    bench_rand_limbs(c, r, n);
    r[n - 1] = p[n - 1] > 1 ? bench_rand64(c) % p[n - 1] : 0;
}

void bench_check_limbs(const bench_case *cs, const char *what, const uint64_t *got,
                       const uint64_t *want, size_t n) {
    if (memcmp(got, want, n * sizeof *got) == 0) return;
    fprintf(stderr, "tabai-bench: %s %u%s%s: %s: wrong result, not timed\n", cs->op, cs->bits,
            cs->modulus ? " " : "", cs->modulus ? cs->modulus : "", what);
    fprintf(stderr, "  got  0x");
    for (size_t i = n; i-- > 0;) fprintf(stderr, "%016llx", (unsigned long long)got[i]);
    fprintf(stderr, "\n  want 0x");
    for (size_t i = n; i-- > 0;) fprintf(stderr, "%016llx", (unsigned long long)want[i]);
    fprintf(stderr, "\n");
    exit(3);
}

/* ------------------------------------------------------------------------------------------
 * Declarations and selection
 * ------------------------------------------------------------------------------------------ */
int bench_op(bench_ctx *c, const char *name) {
    size_t i;
    for (i = 0; i < c->op_count; i++)
        if (!strcmp(c->ops[i], name)) break;
    if (i == c->op_count && c->op_count < BENCH_MAX_OPS) c->ops[c->op_count++] = name;
    if (c->mode == BENCH_LIST) return 0;
    if (c->want_op_count == 0) return 1;
    for (i = 0; i < c->want_op_count; i++)
        if (!strcmp(c->want_ops[i], name)) return 1;
    return 0;
}

void bench_kernel(bench_ctx *c, const char *label) {
    for (size_t i = 0; i < c->kernel_count; i++)
        if (!strcmp(c->kernels[i], label)) return;
    if (c->kernel_count < BENCH_MAX_KERNELS) c->kernels[c->kernel_count++] = label;
}

int bench_tier_wanted(const bench_ctx *c, tabai_tier t) {
    return (int)t <= (int)c->tier_cap && ((c->tier_mask >> t) & 1);
}

static uint64_t hash_str(uint64_t h, const char *s) {
    for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return h;
}

int bench_begin(bench_ctx *c, const bench_case *cs) {
    if (c->mode != BENCH_RUN) {
        if (c->mode == BENCH_COUNT) c->total++;
        return 0;
    }
    uint64_t h = hash_str(0xcbf29ce484222325u, cs->op);
    h = hash_str(h, cs->modulus);
    c->rng = h ^ ((uint64_t)cs->bits << 32) ^ cs->n;
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * Records
 * ------------------------------------------------------------------------------------------ */
typedef struct record {
    char *op, *modulus, *impl, *kernel, *symbol;
    unsigned bits;
    size_t n, reps, batch;
    double ns, tsc, ns_min, tsc_min;
} record;

static record *g_recs;
static size_t g_rec_count, g_rec_cap;

static void emit(const bench_case *cs, const bench_impl *im, double tsc, double tsc_min,
                 size_t reps, size_t batch) {
    if (g_rec_count == g_rec_cap) {
        g_rec_cap = g_rec_cap ? 2 * g_rec_cap : 256;
        g_recs = realloc(g_recs, g_rec_cap * sizeof *g_recs);
        if (!g_recs) bench_fail("out of memory (records)");
    }
    record *r = &g_recs[g_rec_count++];
    r->op = dupstr(cs->op);
    r->modulus = dupstr(cs->modulus);
    r->impl = dupstr(im->impl);
    r->kernel = dupstr(im->kernel);
    r->symbol = dupstr(im->symbol);
    r->bits = cs->bits;
    r->n = cs->n;
    r->reps = reps;
    r->batch = batch;
    r->tsc = tsc;
    r->tsc_min = tsc_min;
    r->ns = tsc * 1e9 / g_tsc_hz;
    r->ns_min = tsc_min * 1e9 / g_tsc_hz;
}

/* ------------------------------------------------------------------------------------------
 * Measurement
 * ------------------------------------------------------------------------------------------ */
static double sample(const bench_impl *im, size_t iters) {
    if (im->prepare) im->prepare(im->arg);
    uint64_t t0 = tsc_now();
    im->run(im->arg, iters);
    uint64_t t1 = tsc_now();
    double t = (double)(t1 - t0) - g_overhead;
    return t > 0 ? t : 0;
}

static void fmt_time(char *out, size_t sz, double ns) {
    if (ns >= 1e6) snprintf(out, sz, "%.3f ms", ns / 1e6);
    else if (ns >= 1e3) snprintf(out, sz, "%.3f us", ns / 1e3);
    else snprintf(out, sz, "%.1f ns", ns);
}

void bench_time(const bench_impl *impls, size_t count, double seconds, bench_timing *out) {
    const double target = BATCH_NS * 1e-9 * g_tsc_hz;
    const double warm_ns = seconds * 1e9 * 0.1 < 20e6 ? seconds * 1e9 * 0.1 : 20e6;
    size_t *batch = bench_alloc(count * sizeof *batch);
    double **samples = bench_alloc(count * sizeof *samples);

    /* calibrate each batch size (doubling; the lesser of two samples, after one untimed
     * call, so that a cold or interrupted sample does not pass for a long one and leave the
     * batch at one call), then warm up for warm_ns, alternating */
    for (size_t i = 0; i < count; i++) {
        size_t it = 1;
        sample(&impls[i], 1);
        for (;;) {
            double t = sample(&impls[i], it), t2 = sample(&impls[i], it);
            if (t2 < t) t = t2;
            if (t >= target || it >= ((size_t)1 << 30)) break;
            size_t next = t > 0 ? (size_t)(it * (1.2 * target / t)) : it * 16;
            it = next > 2 * it ? next : 2 * it;
        }
        batch[i] = it;
        samples[i] = bench_alloc(MAX_SAMPLES * sizeof(double));
    }
    double w0 = mono_ns();
    while (mono_ns() - w0 < warm_ns)
        for (size_t i = 0; i < count; i++) sample(&impls[i], batch[i]);

    /* measure: rounds of A B A B until the budget is spent */
    const double budget_ns = seconds * 1e9;
    const double t_begin = mono_ns();
    size_t rounds = 0;
    while (rounds < MAX_SAMPLES) {
        for (size_t i = 0; i < count; i++)
            samples[i][rounds] = sample(&impls[i], batch[i]) /
                                 ((double)batch[i] * (impls[i].per_call ? impls[i].per_call : 1));
        rounds++;
        if (rounds >= MIN_SAMPLES && mono_ns() - t_begin >= budget_ns) break;
    }
    for (size_t i = 0; i < count; i++) {
        double mn = samples[i][0];
        for (size_t k = 1; k < rounds; k++)
            if (samples[i][k] < mn) mn = samples[i][k];
        double med = median(samples[i], rounds);
        out[i] = (bench_timing){.tsc = med, .tsc_min = mn, .ns = med * 1e9 / g_tsc_hz,
                                .ns_min = mn * 1e9 / g_tsc_hz, .rounds = rounds, .batch = batch[i]};
        free(samples[i]);
    }
    free(samples);
    free(batch);
}

void bench_measure(bench_ctx *c, const bench_case *cs, const bench_impl *impls, size_t count) {
    if (c->mode != BENCH_RUN || count == 0) return;
    const double start = mono_ns();
    bench_timing *tm = bench_alloc(count * sizeof *tm);
    bench_time(impls, count, c->seconds, tm);

    c->done++;
    char line[2048];
    size_t len = (size_t)snprintf(line, sizeof line, "%s %u%s%s:", cs->op, cs->bits,
                                  cs->modulus ? " " : "", cs->modulus ? cs->modulus : "");
    for (size_t i = 0; i < count; i++) {
        emit(cs, &impls[i], tm[i].tsc, tm[i].tsc_min, tm[i].rounds, tm[i].batch);
        char tb[32];
        fmt_time(tb, sizeof tb, tm[i].ns);
        if (len < sizeof line)
            len += (size_t)snprintf(line + len, sizeof line - len, "%s %s%s%s %s (%.0f tsc)",
                                    i ? " |" : "", impls[i].impl, impls[i].kernel ? "/" : "",
                                    impls[i].kernel ? impls[i].kernel : "", tb, tm[i].tsc);
    }
    free(tm);
    if (c->progress)
        fprintf(stderr, "@progress %zu %zu %s %u%s%s\n", c->done, c->total, cs->op, cs->bits,
                cs->modulus ? " " : "", cs->modulus ? cs->modulus : "");
    else
        fprintf(stderr, "[%zu/%zu %.2fs] %s\n", c->done, c->total, (mono_ns() - start) * 1e-9,
                line);
    fflush(stderr);
}

/* ------------------------------------------------------------------------------------------
 * JSON
 * ------------------------------------------------------------------------------------------ */
char *bench_json_str(char *out, size_t outsz, const char *s) {
    size_t k = 0;
    if (!s) {
        snprintf(out, outsz, "null");
        return out;
    }
    out[k++] = '"';
    for (; *s && k + 8 < outsz; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            out[k++] = '\\';
            out[k++] = (char)ch;
        } else if (ch < 0x20) {
            k += (size_t)snprintf(out + k, outsz - k, "\\u%04x", ch);
        } else {
            out[k++] = (char)ch;
        }
    }
    out[k++] = '"';
    out[k] = 0;
    return out;
}

static void put_num(FILE *f, const char *key, double v) {
    fprintf(f, ", \"%s\": %.9g", key, v == v ? v : 0.0);
}

int bench_write_json(const char *path, const char *meta_json) {
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f) return -1;
    fprintf(f, "{\"meta\": %s,\n \"records\": [", meta_json);
    char a[256], b[256], m[256], k[256], s[256];
    for (size_t i = 0; i < g_rec_count; i++) {
        const record *r = &g_recs[i];
        fprintf(f, "%s\n  {\"op\": %s, \"bits\": %u, \"modulus\": %s, \"impl\": %s, \"kernel\": %s, "
                   "\"symbol\": %s",
                i ? "," : "", bench_json_str(a, sizeof a, r->op), r->bits,
                bench_json_str(m, sizeof m, r->modulus), bench_json_str(b, sizeof b, r->impl),
                bench_json_str(k, sizeof k, r->kernel), bench_json_str(s, sizeof s, r->symbol));
        put_num(f, "ns", r->ns);
        put_num(f, "tsc", r->tsc);
        fprintf(f, ", \"reps\": %zu", r->reps);
        put_num(f, "ns_min", r->ns_min);
        put_num(f, "tsc_min", r->tsc_min);
        if (r->n) fprintf(f, ", \"n\": %zu", r->n);
        fprintf(f, ", \"batch\": %zu}", r->batch);
    }
    fprintf(f, "\n ]}\n");
    int bad = ferror(f);
    if (path) bad |= fclose(f);
    else fflush(f);
    return bad ? -1 : 0;
}
