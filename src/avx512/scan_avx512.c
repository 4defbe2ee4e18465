/* The constant-time table scan of the multi-buffer exponentiation (src/mb/mb.c) with
 * AVX-512F/VL: ent = tab[idx_l] in every lane l. Every entry is loaded in full; lane l keeps
 * the digits of entry i where i == idx_l by a masked move (vpcmpeqq -> k mask -> vmovdqa64
 * with merge masking), whose latency does not depend on the mask. Up to 16 digit vectors
 * stay in registers while the entries stream past. Compiled with -mavx512f -mavx512vl only
 * (src/CMakeLists.txt); used by the multi-buffer kernels, which all need AVX-512F/VL. */
#include <immintrin.h>

#include "../mb/mb.h"

#define BLOCK 16

void tabai_mb_scan_avx512(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d,
                          unsigned L, const uint64_t *idx) {
    const size_t words = d * L;
    if (L == 8) {
        const __m512i want = _mm512_loadu_si512(idx);
        for (size_t j0 = 0; j0 < d; j0 += BLOCK) {
            const size_t nb = d - j0 < BLOCK ? d - j0 : BLOCK;
            __m512i acc[BLOCK];
            for (size_t j = 0; j < BLOCK; j++) acc[j] = _mm512_setzero_si512();
            for (size_t i = 0; i < entries; i++) {
                const __mmask8 k = _mm512_cmpeq_epu64_mask(want, _mm512_set1_epi64((long long)i));
                const uint64_t *t = tab + i * words + j0 * 8;
                for (size_t j = 0; j < nb; j++)
                    acc[j] = _mm512_mask_mov_epi64(acc[j], k, _mm512_loadu_si512(t + 8 * j));
            }
            for (size_t j = 0; j < nb; j++) _mm512_storeu_si512(ent + (j0 + j) * 8, acc[j]);
        }
    } else { /* L == 4 */
        const __m256i want = _mm256_loadu_si256((const __m256i *)idx);
        for (size_t j0 = 0; j0 < d; j0 += BLOCK) {
            const size_t nb = d - j0 < BLOCK ? d - j0 : BLOCK;
            __m256i acc[BLOCK];
            for (size_t j = 0; j < BLOCK; j++) acc[j] = _mm256_setzero_si256();
            for (size_t i = 0; i < entries; i++) {
                const __mmask8 k = _mm256_cmpeq_epu64_mask(want, _mm256_set1_epi64x((long long)i));
                const uint64_t *t = tab + i * words + j0 * 4;
                for (size_t j = 0; j < nb; j++)
                    acc[j] = _mm256_mask_mov_epi64(acc[j], k,
                                                   _mm256_loadu_si256((const __m256i *)(t + 4 * j)));
            }
            for (size_t j = 0; j < nb; j++) _mm256_storeu_si256((__m256i *)(ent + (j0 + j) * 4), acc[j]);
        }
    }
}
