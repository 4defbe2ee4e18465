/* Shared helpers of the C tests (GMP is the oracle).
 *
 * Every test program calls tu_init(argv[0]) first and returns tu_finish() at the end.
 *   - Seed: every run prints its seed; TABAI_TEST_SEED=0x... replays it.
 *   - Counts: TABAI_TEST_ITERS=x scales every count by x (a float, default 1; each scaled
 *     count is at least 1), so the sanitizer and valgrind runs can use 0.25 or less and a
 *     soak run 20.
 *   - Tier: if TABAI_CPU names a tier above the CPU's, tu_init prints "skipped: tier X not
 *     available" and exits with TU_SKIP (77, ctest's SKIP_RETURN_CODE); otherwise it checks
 *     that tabai_cpu_name() is that tier (an unknown value must give native), and fails the
 *     run otherwise.
 * Failures never abort: TU_CHECK counts them, prints the first TU_MAX_REPORTS with the
 * limb count, every input in hex and the seed, and tu_finish() returns 1 if any failed.
 *
 * Input classes (named, reused by every test):
 *   limb operands  tu_fill(a, n, TU_*)       uniform, runs of 0/1 bits, edge limbs
 *                                            {0, 1, 2^63-1, 2^63, 2^64-2, 2^64-1}, zero,
 *                                            all ones, alternating bits, sparse
 *   residues       tu_operand(a, p, n, TU_OP_*)   0, 1, p-1, p-2, R mod p, uniform < p,
 *                                            runs mod p, edge limbs mod p, p-1-small
 *   moduli         tu_modulus(p, n, TU_MOD_*, parity)  uniform, top limb 1, top limb all
 *                                            ones, 2^(64n) - c, 2^(64(n-1)) + c, 2^k + c,
 *                                            2^k - c, 2^k, 2^k + 1, runs, edge limbs
 *   real moduli    tu_real_moduli[]          the benchmark's embedded curve, MODP and RSA
 *                                            moduli (bench/moduli.h)
 */
#ifndef TABAI_TESTUTIL_H
#define TABAI_TESTUTIL_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#include "tabai.h"

/* ---- run setup, seed, counts ---- */
/* exit code of a program whose tier (TABAI_CPU) is above the CPU's: ctest SKIP_RETURN_CODE */
#define TU_SKIP 77
void tu_init(const char *prog);
int tu_finish(void);
extern uint64_t tu_seed;
extern double tu_scale;
/* base scaled by TABAI_TEST_ITERS, at least 1 */
size_t tu_iters(double base);
/* the tier TABAI_CPU asked for, capped at native (native if unset or unknown) */
tabai_tier tu_expected_tier(void);
/* checks tabai_cpu_name() against tu_expected_tier() (called by tu_init) */
void tu_check_tier(void);

/* ---- PRNG (xoshiro256**, seeded from tu_seed by splitmix64) ---- */
uint64_t tu_rand(void);
uint64_t tu_below(uint64_t bound); /* uniform in [0, bound), bound >= 1 */
uint64_t tu_edge_limb(void);       /* one of the six edge limbs */
extern const uint64_t tu_edge_limbs[6];

/* ---- GMP conversion ---- */
void tu_to_mpz(mpz_t z, const uint64_t *a, size_t n);
/* a[n] = z (z >= 0 must fit; aborts the test otherwise) */
void tu_from_mpz(uint64_t *a, size_t n, const mpz_t z);
/* 1 if a[n] == z (z >= 0) */
int tu_eq_mpz(const uint64_t *a, size_t n, const mpz_t z);
int tu_eq_n(const uint64_t *a, const uint64_t *b, size_t n);

/* ---- limb operand classes ---- */
enum {
    TU_UNIFORM,
    TU_RUNS,  /* long runs of 0 and 1 bits */
    TU_EDGE,  /* each limb one of the edge limbs */
    TU_ZERO,
    TU_ONES,  /* every limb 2^64-1 */
    TU_ALT,   /* alternating bit patterns 0x55.. / 0xaa.. and alternating 0 / ~0 limbs */
    TU_SPARSE, /* a few bits set */
    TU_CLASS_COUNT
};
const char *tu_class_name(int cls);
void tu_fill(uint64_t *a, size_t n, int cls);
/* a class chosen at random, weighted towards uniform and runs; returns the class */
int tu_fill_any(uint64_t *a, size_t n);

/* ---- residues mod p (p[n] >= 2) ---- */
enum {
    TU_OP_ZERO,
    TU_OP_ONE,
    TU_OP_PM1,    /* p - 1 */
    TU_OP_PM2,    /* p - 2 (mod p) */
    TU_OP_RMODP,  /* 2^(64n) mod p */
    TU_OP_UNIFORM,
    TU_OP_RUNS,   /* runs of bits, reduced mod p */
    TU_OP_EDGE,   /* edge limbs, reduced mod p */
    TU_OP_NEARP,  /* p - 1 - small */
    TU_OP_HALF,   /* floor(p / 2) and around */
    TU_OP_COUNT
};
const char *tu_op_name(int cls);
void tu_operand(uint64_t *a, const uint64_t *p, size_t n, int cls);

/* ---- moduli of exactly n limbs (top limb non-zero) ---- */
enum {
    TU_MOD_UNIFORM,
    TU_MOD_TOP1,       /* top limb 1 */
    TU_MOD_TOPONES,    /* top limb 2^64-1 */
    TU_MOD_BELOW_R,    /* 2^(64n) - c, small c */
    TU_MOD_ABOVE_LOW,  /* 2^(64(n-1)) + c, small c (the smallest n-limb values) */
    TU_MOD_POW2_PLUS,  /* 2^k + c, k in the top limb, small c */
    TU_MOD_POW2_MINUS, /* 2^k - c */
    TU_MOD_POW2,       /* 2^k exactly (even) */
    TU_MOD_POW2_1,     /* 2^k + 1 */
    TU_MOD_ALLONES,    /* 2^(64n) - 1 */
    TU_MOD_RUNS,
    TU_MOD_EDGE,
    TU_MOD_COUNT
};
enum { TU_ANY = 0, TU_ODD = 1, TU_EVEN = 2 };
const char *tu_mod_name(int cls);
/* p[n] of class cls; parity TU_ODD forces odd (and >= 3), TU_EVEN forces even (>= 2),
 * TU_ANY keeps the class's natural parity (uniform classes: random). */
void tu_modulus(uint64_t *p, size_t n, int cls, int parity);

/* The embedded real moduli of the benchmark (bench/moduli.h). */
typedef struct tu_real_modulus {
    const char *name;
    size_t n;
    const uint64_t *limbs;
} tu_real_modulus;
extern const tu_real_modulus *tu_real_moduli; /* filled by tu_init */
extern size_t tu_real_moduli_count;

/* ---- guarded output buffers ----
 * tu_buf_new(n) returns n limbs between guards of TU_GUARD limbs filled with a known
 * pattern; tu_buf_fill sets the n limbs; tu_buf_ok checks the guards (1 if intact).
 * tu_dup(a, n) is an exact-size heap copy of an input, so ASan catches any over-read. */
#define TU_GUARD 4
uint64_t *tu_buf_new(size_t n);
void tu_buf_free(uint64_t *r);
void tu_buf_fill(uint64_t *r, size_t n, uint64_t v);
int tu_buf_ok(const uint64_t *r);
uint64_t *tu_dup(const uint64_t *a, size_t n);

/* ---- checks ---- */
extern unsigned long long tu_checks, tu_failures;
#define TU_MAX_REPORTS 12
/* TU_CHECK(cond, what, n, TU_V("a", a, n), TU_V("b", b, n), ...): counts the check; on
 * failure prints what, n, each named value in hex (most significant limb first), the
 * seed and the tier. At least one TU_V is required (use TU_NOV for none). */
#define TU_V(name, ptr, len) (const char *)(name), (const uint64_t *)(ptr), (size_t)(len)
#define TU_NOV TU_V("-", 0, 0)
#define TU_CHECK(cond, what, n, ...)                                                         \
    do {                                                                                      \
        tu_checks++;                                                                          \
        if (!(cond)) tu_fail(__FILE__, __LINE__, (what), (size_t)(n), __VA_ARGS__, (const char *)0); \
    } while (0)
void tu_fail(const char *file, int line, const char *what, size_t n, ...);
/* print a value in hex, most significant limb first */
void tu_print_hex(const char *name, const uint64_t *a, size_t n);
/* context printed with every failure report from now on (e.g. the modulus class) */
void tu_note(const char *fmt, ...);

#endif
