/* What P-384's and P-521's radix-2^52 fields (p384_r52.h, p521_r52.h; built only in this
 * folder, with the IFMA flags) share: a block of a product's row and the calls of ec.h that
 * the tests and the bench use. */
#ifndef TABAI_EC_R52_FIELD_H
#define TABAI_EC_R52_FIELD_H

#include <immintrin.h>
#include <stdint.h>

/* one block of a product's row: acc[q + m] = fn(acc[q + m], A[m], b) for m < n with
 * q + m < nc (acc's column vectors), A[0..3] a's copy shifted by the row's s; all
 * compile-time constants, so the branches fold away */
#define EC_R52_BLOCK(fn, acc, A, n, q, b, nc)                                                      \
    do {                                                                                           \
        const __m256i b_ = (b);                                                                    \
        if (0 < (n) && (q) < (nc)) acc[(q)] = fn(acc[(q)], A[0], b_);                              \
        if (1 < (n) && (q) + 1 < (nc)) acc[(q) + 1] = fn(acc[(q) + 1], A[1], b_);                  \
        if (2 < (n) && (q) + 2 < (nc)) acc[(q) + 2] = fn(acc[(q) + 2], A[2], b_);                  \
        if (3 < (n) && (q) + 3 < (nc)) acc[(q) + 3] = fn(acc[(q) + 3], A[3], b_);                  \
    } while (0)

/* tabai_ec_<f>_r52_* of ec.h: the field f's operations as calls */
#define EC_R52_CALLS(f)                                                                            \
    void tabai_ec_##f##_r52_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {               \
        f##_r52_mul(r, a, b);                                                                      \
    }                                                                                              \
    void tabai_ec_##f##_r52_sqr(uint64_t *r, const uint64_t *a) { f##_r52_sqr(r, a); }             \
    void tabai_ec_##f##_r52_add(uint64_t *r, const uint64_t *a, const uint64_t *b) {               \
        f##_r52_add(r, a, b);                                                                      \
    }                                                                                              \
    void tabai_ec_##f##_r52_sub(uint64_t *r, const uint64_t *a, const uint64_t *b) {               \
        f##_r52_sub(r, a, b);                                                                      \
    }                                                                                              \
    void tabai_ec_##f##_r52_mul_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,             \
                                    const uint64_t *c) {                                           \
        f##_r52_mul_sub(r, a, b, c);                                                               \
    }                                                                                              \
    void tabai_ec_##f##_r52_sqr_sub2(uint64_t *r, const uint64_t *a, const uint64_t *b) {          \
        f##_r52_sqr_sub2(r, a, b);                                                                 \
    }                                                                                              \
    void tabai_ec_##f##_r52_triple(uint64_t *r, const uint64_t *a) { f##_r52_triple(r, a); }       \
    void tabai_ec_##f##_r52_sub2x(uint64_t *r, const uint64_t *a, const uint64_t *b) {             \
        f##_r52_sub2x(r, a, b);                                                                    \
    }                                                                                              \
    void tabai_ec_##f##_r52_half(uint64_t *r, const uint64_t *a) { f##_r52_half(r, a); }

#endif
