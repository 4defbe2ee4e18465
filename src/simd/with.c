/* The public explicit-kernel entry points: tabai_mul_with, tabai_ohta_mul_with,
 * tabai_kernel_name, tabai_kernel_available. Generic flags; the AVX2 kernels are only called
 * after the tier check. */
#include "../cpu/kernels.h"
#include "../mod/mod.h"
#include "delayed.h"

static const char *const kernel_names[TABAI_KERNEL_COUNT] = {
    "auto",           "c16",           "simd29_sse2",   "simd29_avx2",
    "fp64",           "fp64_vec",      "fp64_fma",      "fp64_fma_vec",
    "carry_save_2x2", "carry_save_3x3", "carry_save_4x4"};

static const char *const kernel_symbols[TABAI_KERNEL_COUNT] = {
    NULL,
    "mul_n_c16_generic",
    "mul_n_simd29_sse2",
    "mul_n_simd29_avx2",
    "mul_n_fp64_generic",
    "mul_n_fp64_avx2",
    "mul_n_fp64fma_avx2",
    "mul_n_fp64fma_vec_avx2",
    "ohta_mul_cs2_generic",
    "ohta_mul_cs3_generic",
    "ohta_mul_cs4_generic"};

const char *tabai_kernel_name(tabai_kernel k) {
    if ((int)k < 0 || (int)k >= TABAI_KERNEL_COUNT) return NULL;
    return kernel_names[k];
}

const char *tabai_kernel_symbol(tabai_kernel k) {
    if ((int)k < 0 || (int)k >= TABAI_KERNEL_COUNT) return NULL;
    return kernel_symbols[k];
}

int tabai_kernel_parse(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < TABAI_KERNEL_COUNT; i++)
        if (strcmp(name, kernel_names[i]) == 0) return i;
    return -1;
}

static int needs_avx2(tabai_kernel k) {
    return k == TABAI_KERNEL_SIMD29_AVX2 || k == TABAI_KERNEL_FP64_VEC ||
           k == TABAI_KERNEL_FP64_FMA || k == TABAI_KERNEL_FP64_FMA_VEC;
}

static int is_ohta(tabai_kernel k) {
    return k == TABAI_KERNEL_CARRY_SAVE_2X2 || k == TABAI_KERNEL_CARRY_SAVE_3X3 ||
           k == TABAI_KERNEL_CARRY_SAVE_4X4;
}

tabai_status tabai_kernel_available(tabai_kernel k) {
    if ((int)k < 0 || (int)k >= TABAI_KERNEL_COUNT) return TABAI_ERR_KERNEL;
    unsigned f = tabai_cpu_features();
    if (k == TABAI_KERNEL_SIMD29_SSE2 && !(f & TABAI_CPU_SSE2)) return TABAI_ERR_TIER;
    if (needs_avx2(k)) {
        /* the tier in use (TABAI_CPU caps it) and the features the kernel's file was built for */
        if ((int)tabai_cpu_tier() < (int)TABAI_TIER_AVX2) return TABAI_ERR_TIER;
        if (!(f & TABAI_CPU_AVX2) || !(f & TABAI_CPU_FMA)) return TABAI_ERR_TIER;
    }
    return TABAI_OK;
}

tabai_status tabai_mul_with(tabai_kernel k, uint64_t *r, const uint64_t *a, const uint64_t *b,
                            size_t n) {
    if (!r || !a || !b) return TABAI_ERR_NULL;
    if (n == 0) return TABAI_ERR_SIZE;
    if ((int)k < 0 || (int)k >= TABAI_KERNEL_COUNT || is_ohta(k)) return TABAI_ERR_KERNEL;
    if (k != TABAI_KERNEL_AUTO && n > TABAI_MAX_LIMBS) return TABAI_ERR_KERNEL;
    tabai_status st = tabai_kernel_available(k);
    if (st != TABAI_OK) return st;
    switch (k) {
    case TABAI_KERNEL_AUTO: tabai_mul_n(r, a, b, n); break;
    case TABAI_KERNEL_C16: tabai_mul_n_c16_generic(r, a, b, n); break;
    case TABAI_KERNEL_SIMD29_SSE2: tabai_mul_n_simd29_sse2(r, a, b, n); break;
    case TABAI_KERNEL_SIMD29_AVX2: tabai_mul_n_simd29_avx2(r, a, b, n); break;
    case TABAI_KERNEL_FP64: tabai_mul_n_fp64_generic(r, a, b, n); break;
    case TABAI_KERNEL_FP64_VEC: tabai_mul_n_fp64_avx2(r, a, b, n); break;
    case TABAI_KERNEL_FP64_FMA: tabai_mul_n_fp64fma_avx2(r, a, b, n); break;
    case TABAI_KERNEL_FP64_FMA_VEC: tabai_mul_n_fp64fma_vec_avx2(r, a, b, n); break;
    default: return TABAI_ERR_KERNEL;
    }
    return TABAI_OK;
}

tabai_status tabai_ohta_mul_with(tabai_kernel k, const tabai_ohta *ctx, uint64_t *r,
                                 const uint64_t *a, const uint64_t *b) {
    if (!ctx || !r || !a || !b) return TABAI_ERR_NULL;
    if ((int)k < 0 || (int)k >= TABAI_KERNEL_COUNT) return TABAI_ERR_KERNEL;
    if (k != TABAI_KERNEL_AUTO && !is_ohta(k)) return TABAI_ERR_KERNEL;
    /* public: an unreduced operand is an error */
    if (!(tabai_reduced_public(a, ctx->p, ctx->n) & tabai_reduced_public(b, ctx->p, ctx->n)))
        return TABAI_ERR_RANGE;
    uint64_t t[TABAI_MAX_LIMBS]; /* r may alias a or b: the kernels read them first anyway */
    switch (k) {
    case TABAI_KERNEL_AUTO: tabai_ohta_mul_unchecked(ctx, t, a, b); break;
    case TABAI_KERNEL_CARRY_SAVE_2X2: tabai_ohta_mul_cs2_generic(ctx, t, a, b); break;
    case TABAI_KERNEL_CARRY_SAVE_3X3: tabai_ohta_mul_cs3_generic(ctx, t, a, b); break;
    case TABAI_KERNEL_CARRY_SAVE_4X4: tabai_ohta_mul_cs4_generic(ctx, t, a, b); break;
    default: return TABAI_ERR_KERNEL;
    }
    memcpy(r, t, ctx->n * sizeof(uint64_t));
    return TABAI_OK;
}
