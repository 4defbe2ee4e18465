/* Prototypes of the tier "bmi2" kernels (BMI2 + ADX): the generated assembly in src/x64
 * (.S files from tools/gen/x64.py) and the any-n C drivers of src/x64/big.c built on its row kernels.
 * Contracts: see the comment above each generated function and src/x64/README.md.
 * Limbs uint64_t, least significant first. Fixed-size kernels ignore their n argument. */
#ifndef TABAI_X64_H
#define TABAI_X64_H

#include <stddef.h>
#include <stdint.h>

/* Fixed sizes 1..16 (same X-macro shape as TABAI_FOR_FIXED). */
#define TABAI_X64_DECL(N)                                                                     \
    void tabai_mul_n##N##_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);  \
    void tabai_sqr_n##N##_bmi2(uint64_t *r, const uint64_t *a, size_t n);                     \
    void tabai_mont_mul_n##N##_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b,        \
                                    const uint64_t *p, uint64_t pinv, size_t n);              \
    void tabai_mont_sqr_n##N##_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *p,        \
                                    uint64_t pinv, size_t n);                                 \
    void tabai_mod_add_n##N##_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b,         \
                                   const uint64_t *p, size_t n);                              \
    void tabai_mod_sub_n##N##_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b,         \
                                   const uint64_t *p, size_t n);
TABAI_X64_DECL(1) TABAI_X64_DECL(2) TABAI_X64_DECL(3) TABAI_X64_DECL(4)
TABAI_X64_DECL(5) TABAI_X64_DECL(6) TABAI_X64_DECL(7) TABAI_X64_DECL(8)
TABAI_X64_DECL(9) TABAI_X64_DECL(10) TABAI_X64_DECL(11) TABAI_X64_DECL(12)
TABAI_X64_DECL(13) TABAI_X64_DECL(14) TABAI_X64_DECL(15) TABAI_X64_DECL(16)
#undef TABAI_X64_DECL

/* r[n] = a[n]*b, returns the high limb; any n >= 0; r may equal a. (row.S) */
uint64_t tabai_mul_1_n_bmi2(uint64_t *r, const uint64_t *a, size_t n, uint64_t b);
/* r[n] += a[n]*b, returns the high limb; any n >= 0; r must not overlap a unless equal. */
uint64_t tabai_addmul_1_n_bmi2(uint64_t *r, const uint64_t *a, size_t n, uint64_t b);

/* r[0 .. nb+7] += a[8]*b[nb], returns the carry out (0 or 1); nb >= 1; no overlap. (row.S) */
uint64_t tabai_addmul_8xn_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nb);

/* n = 32 (2048 bits), fully unrolled as the fixed sizes. (mul32.S) */
void tabai_mul_n32_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_sqr_n32_bmi2(uint64_t *r, const uint64_t *a, size_t n);

/* r[N] = t[2N] * 2^(-64N) mod p for t < p*2^(64N); t needs 2N+1 limbs of storage and is
 * destroyed; N = 24..128 step 8. (redc.S) */
typedef void (*tabai_redc_fn)(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv);
#define TABAI_X64_FOR_REDC(X) X(24) X(32) X(40) X(48) X(56) X(64) X(72) X(80) X(88) X(96) \
    X(104) X(112) X(120) X(128)
/* r[2N] = a[N]*b[N] by mulx rows with the accumulator in memory, N as above. (redc.S) */
#define TABAI_X64_REDC_DECL(N) \
    void tabai_redc_n##N##_bmi2(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv); \
    void tabai_mul_rows_n##N##_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
TABAI_X64_FOR_REDC(TABAI_X64_REDC_DECL)
#undef TABAI_X64_REDC_DECL

/* Any n >= 1 (src/x64/big.c), used above 16 limbs: schoolbook rows of the asm row kernels,
 * the square by its triangle, Montgomery as product/square then REDC rows. Same contracts
 * as the generic slot-0 kernels (mul/sqr: r must not overlap inputs; mont: r may alias). */
void tabai_mul_n_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_sqr_n_bmi2(uint64_t *r, const uint64_t *a, size_t n);
void tabai_mont_mul_n_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                           uint64_t pinv, size_t n);
void tabai_mont_sqr_n_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv,
                           size_t n);

#endif
