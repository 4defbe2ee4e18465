/* Portable C limb kernels, tier "generic": add, sub, mul_1, addmul_1, mul (mulPre), sqr.
 * mul and sqr scan products column by column (Comba) with a three-limb accumulator, in
 * fixed-size instances (n = 1..16) compiled from one inline body so that the compiler
 * unrolls them fully; above 16 limbs, Karatsuba onto those instances. */
#include "limb.h"

uint64_t tabai_add_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    uint64_t cy = 0;
    for (size_t i = 0; i < n; i++) cy = tabai_adc(&r[i], a[i], b[i], cy);
    return cy;
}

uint64_t tabai_sub_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    uint64_t bw = 0;
    for (size_t i = 0; i < n; i++) bw = tabai_sbb(&r[i], a[i], b[i], bw);
    return bw;
}

uint64_t tabai_mul_1_n_generic(uint64_t *r, const uint64_t *a, size_t n, uint64_t b) {
    return tabai_mul_1_inline(r, a, n, b);
}

uint64_t tabai_addmul_1_n_generic(uint64_t *r, const uint64_t *a, size_t n, uint64_t b) {
    return tabai_addmul_1_inline(r, a, n, b);
}


#define X(N)                                                                                  \
    void tabai_mul_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) { \
        (void)n;                                                                              \
        tabai_mul_n_inline(r, a, b, N);                                                       \
    }                                                                                         \
    void tabai_sqr_n##N##_generic(uint64_t *r, const uint64_t *a, size_t n) {                 \
        (void)n;                                                                              \
        tabai_sqr_inline(r, a, N);                                                            \
    }
TABAI_FOR_FIXED(X)
#undef X

#define MUL_FIXED(N) tabai_mul_n##N##_generic,
#define SQR_FIXED(N) tabai_sqr_n##N##_generic,
const tabai_mul_n_fn tabai_mul_fixed_generic[TABAI_FIXED_MAX + 1] = {
    NULL, TABAI_FOR_FIXED(MUL_FIXED)};
const tabai_sqr_n_fn tabai_sqr_fixed_generic[TABAI_FIXED_MAX + 1] = {
    NULL, TABAI_FOR_FIXED(SQR_FIXED)};
#undef MUL_FIXED
#undef SQR_FIXED
