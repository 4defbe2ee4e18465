/* The constant-time table scan of tabai_mb_scan_fn with AVX2, four lanes of 64 bits (ymm):
 * ent = tab[idx_l] in every lane l. Every entry is loaded in full; each lane keeps the digits
 * of the entry i where i == idx_l by a mask from a vector compare (vpcmpeqq) and a blend
 * (vpblendvb), whose latency does not depend on the mask. Up to six digit vectors stay in
 * registers while the entries stream past (one pass and one compare an entry for the
 * curves' tables, whose entries are two to five vectors). Compiled with -mavx2 only
 * (src/CMakeLists.txt); used by the curves' k P from tier avx2 up and their k G on the
 * width-7 table at tier avx2, where the AVX-512F scan is not available
 * (src/ec/curve_impl.h). */
#include <immintrin.h>

#include "../cpu/mbtypes.h"

#define SCAN_NV 6 /* digit vectors a pass at most */

/* Digit vectors j0 .. j0 + NV - 1 of every entry in one pass: NV accumulators in registers,
 * one compare an entry for all of them. */
static inline __attribute__((always_inline)) void scan_pass(uint64_t *ent, const uint64_t *tab,
                                                            size_t entries, size_t words,
                                                            __m256i want, size_t j0, int nv) {
    __m256i x[SCAN_NV];
#pragma GCC unroll 8
    for (int v = 0; v < nv; v++) x[v] = _mm256_setzero_si256();
    __m256i i_vec = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi64x(1);
    const uint64_t *t = tab + j0 * 4;
    for (size_t i = 0; i < entries; i++, t += words) {
        const __m256i m = _mm256_cmpeq_epi64(want, i_vec);
#pragma GCC unroll 8
        for (int v = 0; v < nv; v++)
            x[v] = _mm256_blendv_epi8(x[v], _mm256_loadu_si256((const __m256i *)(t + 4 * v)), m);
        i_vec = _mm256_add_epi64(i_vec, one);
    }
#pragma GCC unroll 8
    for (int v = 0; v < nv; v++) _mm256_storeu_si256((__m256i *)(ent + (j0 + v) * 4), x[v]);
}

/* Up to SCAN_NV digit vectors a pass, so an entry of the curves' tables (2 to 5 vectors) is
 * read in one pass with one compare; more passes for the long multi-buffer entries. */
void tabai_mb_scan_avx2(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d, unsigned L,
                        const uint64_t *idx) {
    (void)L; /* 4 */
    const size_t words = d * 4;
    const __m256i want = _mm256_loadu_si256((const __m256i *)idx);
    for (size_t j0 = 0; j0 < d;) {
        size_t nv = d - j0 < SCAN_NV ? d - j0 : SCAN_NV;
        switch (nv) { /* constant counts: the accumulators stay in registers */
        case 1: scan_pass(ent, tab, entries, words, want, j0, 1); break;
        case 2: scan_pass(ent, tab, entries, words, want, j0, 2); break;
        case 3: scan_pass(ent, tab, entries, words, want, j0, 3); break;
        case 4: scan_pass(ent, tab, entries, words, want, j0, 4); break;
        case 5: scan_pass(ent, tab, entries, words, want, j0, 5); break;
        default: scan_pass(ent, tab, entries, words, want, j0, SCAN_NV); break;
        }
        j0 += nv;
    }
}
