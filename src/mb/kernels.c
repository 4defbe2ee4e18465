/* The multi-buffer kernels (mb.h): one line each. The batch API picks the first usable entry
 * marked for it in tabai_mb_kernel_active(); the benchmark and the tests walk the whole list. */
#include <string.h>

#include "../cpu/kernels.h"
#include "mb.h"

#define IFMA_FEATURES (TABAI_CPU_AVX512F | TABAI_CPU_AVX512VL | TABAI_CPU_AVX512IFMA)
#define AVX512_FEATURES (TABAI_CPU_AVX512F | TABAI_CPU_AVX512VL)

const tabai_mb_kernel tabai_mb_kernels[] = {
    {"ifma_zmm", "mont_mul_r52n_mb8_ifma", "mont_sqr_r52n_mb8_ifma", 8, 52, IFMA_FEATURES, TABAI_TIER_IFMA,
     tabai_mont_mul_r52n_mb8_ifma, tabai_mont_sqr_r52n_mb8_ifma, tabai_mb_scan_avx512},
    {"ifma_ymm", "mont_mul_r52n_mb4_ifma", "mont_sqr_r52n_mb4_ifma", 4, 52, IFMA_FEATURES, TABAI_TIER_IFMA,
     tabai_mont_mul_r52n_mb4_ifma, tabai_mont_sqr_r52n_mb4_ifma, tabai_mb_scan_avx512},
    {"avx512f32_zmm", "mont_mul_r32n_mb8_avx512", "mont_sqr_r32n_mb8_avx512", 8, 32, AVX512_FEATURES, TABAI_TIER_AVX512,
     tabai_mont_mul_r32n_mb8_avx512, tabai_mont_sqr_r32n_mb8_avx512, tabai_mb_scan_avx512},
    {"avx512f32_ymm", "mont_mul_r32n_mb4_avx512", "mont_sqr_r32n_mb4_avx512", 4, 32, AVX512_FEATURES, TABAI_TIER_AVX512,
     tabai_mont_mul_r32n_mb4_avx512, tabai_mont_sqr_r32n_mb4_avx512, tabai_mb_scan_avx512},
    {NULL, NULL, NULL, 0, 0, 0, TABAI_TIER_GENERIC, NULL, NULL, NULL},
};

int tabai_mb_kernel_usable(const tabai_mb_kernel *k) {
    return k && (tabai_cpu_features() & k->features) == k->features && tabai_cpu_tier() >= k->tier;
}

const tabai_mb_kernel *tabai_mb_kernel_find(const char *name) {
    for (const tabai_mb_kernel *k = tabai_mb_kernels; k->name; k++)
        if (!strcmp(k->name, name)) return k;
    return NULL;
}

const tabai_mb_kernel *tabai_mb_kernel_active(void) {
    const tabai_mb_kernel *k = &tabai_mb_kernels[0]; /* ifma_zmm */
    return tabai_mb_kernel_usable(k) ? k : NULL;
}
