/* The benchmark harness: timing, alternation, statistics, records, JSON.
 * API and rules for suite writers: bench/README.md.
 *
 * A suite is a function `void bench_suite_NAME(bench_ctx *c)` named once in bench/suites.h.
 * main.c calls every suite three ways: to list what it offers (--list), to count the
 * measurements it will make (for @progress), and to run them. The suite code is the same in
 * the three passes; the harness functions below tell it what to do:
 *
 *     bench_kernel(c, "bmi2");                  // a kernel label this suite can measure
 *     if (bench_op(c, "mul")) {                 // declares "mul"; true if it is to run now
 *         for (size_t i = 0; i < c->limb_count; i++) {
 *             bench_case cs = {"mul", 64 * n, NULL, n};
 *             if (!bench_begin(c, &cs)) continue; // counting pass: counted, nothing else
 *             ... set up, compute each implementation's result once, bench_check_limbs ...
 *             bench_measure(c, &cs, impls, count); // times them A B A B, emits records
 *         }
 *     }
 */
#ifndef TABAI_BENCH_HARNESS_H
#define TABAI_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "tabai.h"

#define BENCH_MAX_OPS 64
#define BENCH_MAX_KERNELS 64
#define BENCH_MAX_BITS 8192

/** One modulus of a modular operation: an embedded default one or a fixed-seed random one. */
typedef struct bench_mod {
    const char *name; /* "p256_p", "rsa2048_n", "rand_1000" */
    unsigned bits;    /* exact bit length */
    size_t n;         /* limbs = ceil(bits/64) */
    const uint64_t *p;/* n limbs, least significant first; p odd, top limb non-zero */
} bench_mod;

/** What one measurement is: the fields shared by its records. */
typedef struct bench_case {
    const char *op;      /* "mul", "mont_mul", ... */
    unsigned bits;       /* operand bits (limb ops: 64n) or modulus bits */
    const char *modulus; /* modulus name, or NULL for limb operations */
    size_t n;            /* limb count, 0 to leave it out of the records */
} bench_case;

/** Runs the operation `iters` times back to back (the timed body of one sample). */
typedef void (*bench_fn)(void *arg, size_t iters);

/** One implementation of a case. */
typedef struct bench_impl {
    const char *impl;           /* "tabai", "gmp", "openssl", "bound" */
    const char *kernel;         /* short label ("generic", "bmi2", ...) or NULL */
    const char *symbol;         /* function run, without tabai_ ("mont_mul_n4_bmi2"), or NULL */
    bench_fn run;               /* the timed body */
    void (*prepare)(void *arg); /* optional, called before each sample, not timed */
    void *arg;
    unsigned per_call;          /* operations per run(arg, 1), 0 meaning 1: a multi-buffer
                                   kernel's lanes (ns and tsc are per single operation) */
} bench_impl;

typedef enum bench_mode { BENCH_LIST, BENCH_COUNT, BENCH_RUN } bench_mode;

typedef struct bench_ctx {
    bench_mode mode;
    /* selection (read by suites) */
    size_t limbs[BENCH_MAX_BITS / 64 + 1]; /* limb counts for limb ops, ascending, distinct */
    size_t limb_count;
    const bench_mod *mods; /* moduli for modular ops, in order */
    size_t mod_count;
    tabai_tier tier_cap;   /* the tier in use at start (TABAI_CPU) */
    unsigned tier_mask;    /* bit t: --tiers selected tier t (all tiers <= cap by default) */
    double seconds;        /* budget per measurement */
    unsigned threads;      /* --threads: batches also measured on this many threads (1: not) */
    const char *want_curves[16]; /* --curves: curve names (the curve suite), none = all */
    size_t want_curve_count;
    /* private to the harness */
    const char *want_ops[BENCH_MAX_OPS];
    size_t want_op_count;
    const char *ops[BENCH_MAX_OPS]; /* declared by the suites */
    size_t op_count;
    const char *kernels[BENCH_MAX_KERNELS];
    size_t kernel_count;
    size_t done, total;
    int progress;
    uint64_t rng;
} bench_ctx;

/* ---- for suites ------------------------------------------------------------------------ */

/** Declares op `name` (for --list and the --ops check); returns 1 if it is selected and this
 *  is the counting or the running pass, else 0. */
int bench_op(bench_ctx *c, const char *name);
/** Declares a kernel label for --list (duplicates ignored). */
void bench_kernel(bench_ctx *c, const char *label);
/** 1 if the tabai tier t is to be measured (t <= cap and chosen by --tiers). */
int bench_tier_wanted(const bench_ctx *c, tabai_tier t);
/** Counting pass: counts the case and returns 0. Running pass: seeds the random generator
 *  from the case (reproducible operands) and returns 1. */
int bench_begin(bench_ctx *c, const bench_case *cs);
/** Times the implementations of one case, alternating A B A B, and emits one record each.
 *  Before this, the suite must have checked that they all compute the same result. */
void bench_measure(bench_ctx *c, const bench_case *cs, const bench_impl *impls, size_t count);

/** The figures of one implementation timed by bench_time, per single operation. */
typedef struct bench_timing {
    double tsc, tsc_min;  /* median and minimum TSC ticks */
    double ns, ns_min;    /* the same in ns, at the TSC frequency of bench_timer_init */
    size_t rounds, batch; /* samples taken, calls per sample */
} bench_timing;
/** The timing loop of bench_measure without its record: times the implementations
 *  alternating A B A B within about `seconds` and writes their figures to out[count]. For a
 *  suite that needs the figures back (the reproduction report). */
void bench_time(const bench_impl *impls, size_t count, double seconds, bench_timing *out);

/** Fixed-seed random limbs (splitmix64), reseeded by bench_begin. */
uint64_t bench_rand64(bench_ctx *c);
void bench_rand_limbs(bench_ctx *c, uint64_t *r, size_t n);
/** r[n] = a uniform-ish random value below p[n] (p's top limb non-zero). */
void bench_rand_below(bench_ctx *c, uint64_t *r, const uint64_t *p, size_t n);

/** Prints "tabai-bench: <what>: wrong result" with both values and exits with status 3
 *  unless got[n] == want[n]. */
void bench_check_limbs(const bench_case *cs, const char *what, const uint64_t *got,
                       const uint64_t *want, size_t n);
/** Prints a message and exits with status 3 (a setup step of a suite failed). */
void bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/** malloc that exits on failure, zero-filled. */
void *bench_alloc(size_t bytes);

/* ---- for main.c ------------------------------------------------------------------------ */
/** Measures the TSC frequency against CLOCK_MONOTONIC and the timer's own overhead. */
void bench_timer_init(void);
double bench_tsc_hz(void);
/** Writes {"meta": meta_json, "records": [...]} (meta_json: a JSON object text). */
int bench_write_json(const char *path, const char *meta_json);
/** Minimal JSON string escaping into out (size outsz); returns out. */
char *bench_json_str(char *out, size_t outsz, const char *s);

#endif
