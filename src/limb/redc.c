/* Portable C Montgomery kernels, tier "generic": product-scanning (FIPS) product and squaring,
 * modular add and sub; runtime n and fixed-size instances n = 1..16.
 * Source: Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
 * algorithms", IEEE Micro 16(3), 1996 (CIOS and SOS). */
#include "limb.h"

void tabai_mont_mul_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                              uint64_t pinv, size_t n) {
    tabai_mont_mul_inline(r, a, b, p, pinv, n);
}

void tabai_mont_sqr_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv,
                              size_t n) {
    tabai_mont_sqr_inline(r, a, p, pinv, n);
}

void tabai_mod_add_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             size_t n) {
    tabai_mod_add_inline(r, a, b, p, n);
}

void tabai_mod_sub_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             size_t n) {
    tabai_mod_sub_inline(r, a, b, p, n);
}

#define X(N)                                                                                  \
    void tabai_mont_mul_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,     \
                                       const uint64_t *p, uint64_t pinv, size_t n) {          \
        (void)n;                                                                              \
        tabai_mont_mul_inline(r, a, b, p, pinv, N);                                           \
    }                                                                                         \
    void tabai_mont_sqr_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *p,     \
                                       uint64_t pinv, size_t n) {                             \
        (void)n;                                                                              \
        tabai_mont_sqr_inline(r, a, p, pinv, N);                                              \
    }                                                                                         \
    void tabai_mod_add_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,      \
                                      const uint64_t *p, size_t n) {                          \
        (void)n;                                                                              \
        tabai_mod_add_inline(r, a, b, p, N);                                                  \
    }                                                                                         \
    void tabai_mod_sub_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,      \
                                      const uint64_t *p, size_t n) {                          \
        (void)n;                                                                              \
        tabai_mod_sub_inline(r, a, b, p, N);                                                  \
    }
TABAI_FOR_FIXED(X)
#undef X
