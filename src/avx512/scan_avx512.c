/* The constant-time table scan of the multi-buffer exponentiation (src/mb/mb.c) with
 * AVX-512F/VL: ent = tab[idx_l] in every lane l. Every entry is loaded in full; lane l keeps
 * the digits of entry i where i == idx_l by a masked move (vpcmpeqq -> k mask -> vmovdqa64
 * with merge masking), whose latency does not depend on the mask. Blocks of 8 digit vectors
 * stay in named registers while the entries stream past (an array indexed by a runtime
 * count would live on the stack: a load and a store per digit and entry). Compiled with
 * -mavx512f -mavx512vl only (src/CMakeLists.txt); used by the multi-buffer kernels, which
 * all need AVX-512F/VL. */
#include <immintrin.h>

#include "../mb/mb.h"

/* one lane width: V the vector type, W its lanes, the load/store/move/compare intrinsics */
#define SCAN_BODY(V, W, ZERO, LOAD, STORE, MOVE, CMPEQ, SET1, MASKZ, TERN)                       \
    const size_t words = d * W;                                                                 \
    const V want = LOAD(idx);                                                                   \
    size_t j0 = 0;                                                                              \
    for (; j0 + 8 <= d; j0 += 8) {                                                              \
        V x0 = ZERO(), x1 = ZERO(), x2 = ZERO(), x3 = ZERO(), x4 = ZERO(), x5 = ZERO(),       \
          x6 = ZERO(), x7 = ZERO();                                                             \
        const uint64_t *t = tab + j0 * W;                                                       \
        for (size_t i = 0; i < entries; i++, t += words) {                                      \
            const V m = MASKZ(CMPEQ(want, SET1((long long)i)), SET1(-1));                       \
            x0 = TERN(x0, LOAD(t), m, 0xf8);                                                    \
            x1 = TERN(x1, LOAD(t + W), m, 0xf8);                                                \
            x2 = TERN(x2, LOAD(t + 2 * W), m, 0xf8);                                            \
            x3 = TERN(x3, LOAD(t + 3 * W), m, 0xf8);                                            \
            x4 = TERN(x4, LOAD(t + 4 * W), m, 0xf8);                                            \
            x5 = TERN(x5, LOAD(t + 5 * W), m, 0xf8);                                            \
            x6 = TERN(x6, LOAD(t + 6 * W), m, 0xf8);                                            \
            x7 = TERN(x7, LOAD(t + 7 * W), m, 0xf8);                                            \
        }                                                                                       \
        uint64_t *o = ent + j0 * W;                                                             \
        STORE(o, x0);                                                                           \
        STORE(o + W, x1);                                                                       \
        STORE(o + 2 * W, x2);                                                                   \
        STORE(o + 3 * W, x3);                                                                   \
        STORE(o + 4 * W, x4);                                                                   \
        STORE(o + 5 * W, x5);                                                                   \
        STORE(o + 6 * W, x6);                                                                   \
        STORE(o + 7 * W, x7);                                                                   \
    }                                                                                           \
    for (; j0 < d; j0++) { /* the last d mod 8 digits, one vector each */                       \
        V x = ZERO();                                                                           \
        const uint64_t *t = tab + j0 * W;                                                       \
        for (size_t i = 0; i < entries; i++, t += words)                                        \
            x = MOVE(x, CMPEQ(want, SET1((long long)i)), LOAD(t));                              \
        STORE(ent + j0 * W, x);                                                                 \
    }

#define LOAD512(p) _mm512_loadu_si512((const void *)(p))
#define STORE512(p, x) _mm512_storeu_si512((void *)(p), x)
#define LOAD256(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STORE256(p, x) _mm256_storeu_si256((__m256i *)(void *)(p), x)

static void scan8(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d,
                  const uint64_t *idx) {
    SCAN_BODY(__m512i, 8, _mm512_setzero_si512, LOAD512, STORE512, _mm512_mask_mov_epi64,
              _mm512_cmpeq_epu64_mask, _mm512_set1_epi64, _mm512_maskz_mov_epi64,
              _mm512_ternarylogic_epi64)
}

static void scan4(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d,
                  const uint64_t *idx) {
    SCAN_BODY(__m256i, 4, _mm256_setzero_si256, LOAD256, STORE256, _mm256_mask_mov_epi64,
              _mm256_cmpeq_epu64_mask, _mm256_set1_epi64x, _mm256_maskz_mov_epi64,
              _mm256_ternarylogic_epi64)
}

void tabai_mb_scan_avx512(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d,
                          unsigned L, const uint64_t *idx) {
    if (L == 8) scan8(ent, tab, entries, d, idx);
    else scan4(ent, tab, entries, d, idx); /* L == 4 */
}
