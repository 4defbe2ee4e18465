/* Karatsuba multiplication and squaring above the fixed sizes (tier generic), onto the
 * fully unrolled fixed-size Comba kernels, with the step of kara.h. The sizes of the default
 * moduli (24, 32, 48 and 64 limbs) have their own instances, compiled from the same inline
 * step with a constant n, so that every carry chain is unrolled; other sizes recurse with a
 * runtime n. Above TABAI_MAX_LIMBS (raw limb functions only), every tier recurses here on
 * one heap scratch buffer down to its own kernels. Constant time: every branch, loop bound
 * and address depends on n only. */
#include <stdint.h>
#include <stdlib.h>

#include "kara.h"

/* runtime n: recursion down to the fixed sizes */
static void mul_any(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    if (n <= TABAI_FIXED_MAX) tabai_mul_fixed_generic[n](r, a, b, n);
    else kara_mul_step(r, a, b, n, mul_any, mul_any);
}
static void sqr_any(uint64_t *r, const uint64_t *a, size_t n) {
    if (n <= TABAI_FIXED_MAX) tabai_sqr_fixed_generic[n](r, a, n);
    else kara_sqr_step(r, a, n, sqr_any, sqr_any);
}

/* constant-n instances for the sizes of the default moduli, on halves H */
#define KARA_FIXED(N, H)                                                                      \
    static void mul_n##N(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {      \
        (void)n;                                                                              \
        kara_mul_step(r, a, b, N, H##_mul, H##_mul);                                          \
    }                                                                                         \
    static void sqr_n##N(uint64_t *r, const uint64_t *a, size_t n) {                          \
        (void)n;                                                                              \
        kara_sqr_step(r, a, N, H##_sqr, H##_sqr);                                             \
    }
#define n12_mul tabai_mul_n12_generic
#define n12_sqr tabai_sqr_n12_generic
#define n16_mul tabai_mul_n16_generic
#define n16_sqr tabai_sqr_n16_generic
#define n24_mul mul_n24
#define n24_sqr sqr_n24
#define n32_mul mul_n32
#define n32_sqr sqr_n32
KARA_FIXED(24, n12)
KARA_FIXED(32, n16)
KARA_FIXED(48, n24)
KARA_FIXED(64, n32)

void tabai_mul_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS && tabai_verify_disjoint(r, 16 * n, a, 8 * n) &&
                       tabai_verify_disjoint(r, 16 * n, b, 8 * n));
    switch (n) { /* n is public */
    case 24: mul_n24(r, a, b, n); break;
    case 32: mul_n32(r, a, b, n); break;
    case 48: mul_n48(r, a, b, n); break;
    case 64: mul_n64(r, a, b, n); break;
    default: mul_any(r, a, b, n);
    }
}

void tabai_sqr_n_generic(uint64_t *r, const uint64_t *a, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS && tabai_verify_disjoint(r, 16 * n, a, 8 * n));
    switch (n) {
    case 24: sqr_n24(r, a, n); break;
    case 32: sqr_n32(r, a, n); break;
    case 48: sqr_n48(r, a, n); break;
    case 64: sqr_n64(r, a, n); break;
    default: sqr_any(r, a, n);
    }
}

/* ---- any n: the raw limb functions above TABAI_MAX_LIMBS ---- */

size_t tabai_kara_scratch_limbs(size_t n) {
    size_t s = 0;
    for (; n > TABAI_MAX_LIMBS; n = (n + 1) / 2) s += KARA_STEP_SCRATCH(n);
    return s;
}

/* one step per level above TABAI_MAX_LIMBS, the children sharing the scratch behind it */
static void mul_big(const tabai_kernels *k, uint64_t *r, const uint64_t *a, const uint64_t *b,
                    size_t n, uint64_t *s) {
    if (n <= TABAI_MAX_LIMBS) {
        k->mul[tabai_slot(n)](r, a, b, n);
        return;
    }
    size_t h = (n + 1) / 2;
    uint64_t *rest = s + KARA_STEP_SCRATCH(n);
    uint64_t neg = kara_mul_pre(s, a, b, n);
    mul_big(k, r, a, b, h, rest);
    mul_big(k, r + 2 * h, a + h, b + h, n - h, rest);
    mul_big(k, kara_zm(s, n), kara_da(s), kara_db(s, n), h, rest);
    kara_post(r, s, neg, n);
}

static void sqr_big(const tabai_kernels *k, uint64_t *r, const uint64_t *a, size_t n,
                    uint64_t *s) {
    if (n <= TABAI_MAX_LIMBS) {
        k->sqr[tabai_slot(n)](r, a, n);
        return;
    }
    size_t h = (n + 1) / 2;
    uint64_t *rest = s + KARA_STEP_SCRATCH(n);
    kara_sqr_pre(s, a, n);
    sqr_big(k, r, a, h, rest);
    sqr_big(k, r + 2 * h, a + h, n - h, rest);
    sqr_big(k, kara_zm(s, n), kara_da(s), h, rest);
    kara_post(r, s, 1, n);
}

/* r[2n] = a[n]*b[n] by rows of k's mul_1 / addmul_1: no scratch at all. */
static void mul_rows_any(const tabai_kernels *k, uint64_t *r, const uint64_t *a,
                         const uint64_t *b, size_t n) {
    r[n] = k->mul_1(r, a, n, b[0]);
    for (size_t j = 1; j < n; j++) r[n + j] = k->addmul_1(r + j, a, n, b[j]);
}

static uint64_t *big_scratch(size_t n, size_t *bytes) {
    size_t sl = tabai_kara_scratch_limbs(n);
    if (sl > SIZE_MAX / sizeof(uint64_t)) return NULL;
    *bytes = sl * sizeof(uint64_t);
    return malloc(*bytes);
}

void tabai_mul_n_big(const tabai_kernels *k, uint64_t *r, const uint64_t *a, const uint64_t *b,
                     size_t n) {
    size_t bytes = 0;
    uint64_t *s = big_scratch(n, &bytes);
    if (!s) {
        mul_rows_any(k, r, a, b, n);
        return;
    }
    mul_big(k, r, a, b, n, s);
    tabai_wipe(s, bytes); /* differences of the operands, which may be secret */
    free(s);
}

void tabai_sqr_n_big(const tabai_kernels *k, uint64_t *r, const uint64_t *a, size_t n) {
    size_t bytes = 0;
    uint64_t *s = big_scratch(n, &bytes);
    if (!s) {
        mul_rows_any(k, r, a, a, n);
        return;
    }
    sqr_big(k, r, a, n, s);
    tabai_wipe(s, bytes);
    free(s);
}
