/* The constant-time table scan of the multi-buffer exponentiation (src/mb/mb.c) with
 * AVX-512F/VL: ent = tab[idx_l] in every lane l. Every entry is loaded in full; lane l keeps
 * the digits of entry i where i == idx_l by a masked move (vpcmpeqq -> k mask -> vmovdqa64
 * with merge masking), whose latency does not depend on the mask. Blocks of 8 digit vectors
 * stay in named registers while the entries stream past (an array indexed by a runtime
 * count would live on the stack: a load and a store per digit and entry). Compiled with
 * -mavx512f -mavx512vl only (src/CMakeLists.txt); used by the multi-buffer kernels, which
 * all need AVX-512F/VL. */
#include "../cpu/mbtypes.h"

/* one lane width: the V_ names of the vec.h inclusion in force where it is expanded */
#define SCAN_BODY                                                                               \
    const size_t words = d * VL;                                                                \
    const VT want = V_LD(idx);                                                                  \
    size_t j0 = 0;                                                                              \
    for (; j0 + 8 <= d; j0 += 8) {                                                              \
        VT x0 = V_ZERO(), x1 = V_ZERO(), x2 = V_ZERO(), x3 = V_ZERO(), x4 = V_ZERO(),          \
           x5 = V_ZERO(), x6 = V_ZERO(), x7 = V_ZERO();                                         \
        const uint64_t *t = tab + j0 * VL;                                                      \
        for (size_t i = 0; i < entries; i++, t += words) {                                      \
            const VT m = V_MASKZ_MOV(V_EQ_MASK(want, V_SET1(i)), V_SET1(-1));                   \
            x0 = V_TERN(x0, V_LD(t), m, 0xf8);                                                  \
            x1 = V_TERN(x1, V_LD(t + VL), m, 0xf8);                                             \
            x2 = V_TERN(x2, V_LD(t + 2 * VL), m, 0xf8);                                         \
            x3 = V_TERN(x3, V_LD(t + 3 * VL), m, 0xf8);                                         \
            x4 = V_TERN(x4, V_LD(t + 4 * VL), m, 0xf8);                                         \
            x5 = V_TERN(x5, V_LD(t + 5 * VL), m, 0xf8);                                         \
            x6 = V_TERN(x6, V_LD(t + 6 * VL), m, 0xf8);                                         \
            x7 = V_TERN(x7, V_LD(t + 7 * VL), m, 0xf8);                                         \
        }                                                                                       \
        uint64_t *o = ent + j0 * VL;                                                            \
        V_ST(o, x0);                                                                            \
        V_ST(o + VL, x1);                                                                       \
        V_ST(o + 2 * VL, x2);                                                                   \
        V_ST(o + 3 * VL, x3);                                                                   \
        V_ST(o + 4 * VL, x4);                                                                   \
        V_ST(o + 5 * VL, x5);                                                                   \
        V_ST(o + 6 * VL, x6);                                                                   \
        V_ST(o + 7 * VL, x7);                                                                   \
    }                                                                                           \
    for (; j0 < d; j0++) { /* the last d mod 8 digits, one vector each */                       \
        VT x = V_ZERO();                                                                        \
        const uint64_t *t = tab + j0 * VL;                                                      \
        for (size_t i = 0; i < entries; i++, t += words)                                        \
            x = V_MASK_MOV(x, V_EQ_MASK(want, V_SET1(i)), V_LD(t));                             \
        V_ST(ent + j0 * VL, x);                                                                 \
    }

#define TABAI_VEC_BITS 512
#include "../vec.h"
static void scan8(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d,
                  const uint64_t *idx) {
    SCAN_BODY
}

#undef TABAI_VEC_BITS
#define TABAI_VEC_BITS 256
#include "../vec.h"
static void scan4(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d,
                  const uint64_t *idx) {
    SCAN_BODY
}

void tabai_mb_scan_avx512(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d,
                          unsigned L, const uint64_t *idx) {
    if (L == 8) scan8(ent, tab, entries, d, idx);
    else scan4(ent, tab, entries, d, idx); /* L == 4 */
}
