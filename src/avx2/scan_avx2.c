/* The constant-time table scan of tabai_mb_scan_fn with AVX2, four lanes of 64 bits (ymm):
 * ent = tab[idx_l] in every lane l. Every entry is loaded in full; each lane keeps the digits
 * of the entry i where i == idx_l by a mask from a vector compare (vpcmpeqq) and a blend
 * (vpblendvb), whose latency does not depend on the mask. Two digit vectors stay in named
 * registers while the entries stream past. Compiled with -mavx2 only (src/CMakeLists.txt);
 * used by the curves' k G on the width-7 table at tier avx2 (src/ec/curve_impl.h), where
 * the AVX-512F scan is not available. */
#include <immintrin.h>

#include "../cpu/mbtypes.h"

void tabai_mb_scan_avx2(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d, unsigned L,
                        const uint64_t *idx) {
    (void)L; /* 4 */
    const size_t words = d * 4;
    const __m256i want = _mm256_loadu_si256((const __m256i *)idx);
    size_t j0 = 0;
    for (; j0 + 2 <= d; j0 += 2) {
        __m256i x0 = _mm256_setzero_si256(), x1 = _mm256_setzero_si256();
        const uint64_t *t = tab + j0 * 4;
        for (size_t i = 0; i < entries; i++, t += words) {
            const __m256i m = _mm256_cmpeq_epi64(want, _mm256_set1_epi64x((long long)i));
            x0 = _mm256_blendv_epi8(x0, _mm256_loadu_si256((const __m256i *)t), m);
            x1 = _mm256_blendv_epi8(x1, _mm256_loadu_si256((const __m256i *)(t + 4)), m);
        }
        _mm256_storeu_si256((__m256i *)(ent + j0 * 4), x0);
        _mm256_storeu_si256((__m256i *)(ent + j0 * 4 + 4), x1);
    }
    if (j0 < d) { /* an odd last digit */
        __m256i x = _mm256_setzero_si256();
        const uint64_t *t = tab + j0 * 4;
        for (size_t i = 0; i < entries; i++, t += words) {
            const __m256i m = _mm256_cmpeq_epi64(want, _mm256_set1_epi64x((long long)i));
            x = _mm256_blendv_epi8(x, _mm256_loadu_si256((const __m256i *)t), m);
        }
        _mm256_storeu_si256((__m256i *)(ent + j0 * 4), x);
    }
}
