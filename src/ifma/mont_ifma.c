/* Multi-buffer Montgomery multiplication in radix 2^52 with AVX-512 IFMA (seed 001):
 * vpmadd52luq / vpmadd52huq, one independent multiplication per 64-bit lane, 8 lanes in a
 * zmm (mb8) or 4 in a ymm (mb4). Compiled with -mavx512f -mavx512vl -mavx512ifma (this file
 * only; reached only through the lead's dispatch when the CPU has IFMA).
 *
 * Algorithm: word-serial Montgomery (Bos, Montgomery, Shumow, Zaverucha, SAC 2013,
 * Algorithm 2) in radix 2^52, R = 2^(52 d). The accumulator t (d digits, relative to the
 * current row) is kept unnormalised in 64-bit lanes between rows; row i does
 *     t += a_i * b                      (lo52 of a_i*b_j into digit j, hi52 into j + 1)
 *     q  = lo52(t_0 * k0)               (one vpmadd52luq on zero: it reads only t_0 mod 2^52)
 *     t += q * p                        (same way)
 *     t  = t / 2^52, the carry t_0 >> 52 added to the new t_0
 * Rows are done two per pass over t (register blocking: each t digit loaded and stored
 * once per two rows, eight madds per load/store; b_j and p_j loaded once per pass).
 *
 * Accumulator bound: a digit position m receives, from each row i with i <= m <= i + d,
 * at most four terms < 2^52 (lo and hi of a_i*b, lo and hi of q_i*p), so at most 4 d terms
 * over the whole product, plus the row carries t_0 >> 52 < 2^9. For d <= 79:
 * 4 * 79 * 2^52 + 79 * 2^9 < 316 * 2^52 + 2^16 < 2^61 < 2^64: no lane overflows, and every
 * carry t_0 >> 52 is < 2^9.
 *
 * End: T = t < 2p (a, b < p); the d digits are normalised (carry c_d in {0, 1} out of the
 * top digit), T - p computed with a borrow chain, and the result selected per lane with a
 * mask from vpcmpq (no branch). Loops run over the public d only; no address depends on
 * the operands. */
#ifndef TABAI_IFMA_TEMPLATE

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../internal.h"
#include "../mb/mb.h"

#define IFMA_M52 0xFFFFFFFFFFFFFULL
#define IFMA_MAXD 79 /* TABAI_MB_MAX_BITS / 52 rounded up */

/* ---- zmm, 8 lanes ---- */
#define TABAI_IFMA_TEMPLATE 1
#define VT __m512i
#define VL 8
#define SFX(x) x##_zmm
#define V_LD(p) _mm512_loadu_si512((const void *)(p))
#define V_ST(p, x) _mm512_storeu_si512((void *)(p), (x))
#define V_ZERO() _mm512_setzero_si512()
#define V_SET1(c) _mm512_set1_epi64((long long)(c))
#define V_ML(acc, x, y) _mm512_madd52lo_epu64((acc), (x), (y))
#define V_MH(acc, x, y) _mm512_madd52hi_epu64((acc), (x), (y))
#define V_ADD(x, y) _mm512_add_epi64((x), (y))
#define V_SUB(x, y) _mm512_sub_epi64((x), (y))
#define V_SRL(x, n) _mm512_srli_epi64((x), (n))
#define V_AND(x, y) _mm512_and_si512((x), (y))
#define V_LTZ_MASK(x) _mm512_cmplt_epi64_mask((x), _mm512_setzero_si512())
#define V_BLEND(m, x, y) _mm512_mask_blend_epi64((m), (x), (y)) /* m ? y : x */
#include "mont_ifma.c"
#undef VT
#undef VL
#undef SFX
#undef V_LD
#undef V_ST
#undef V_ZERO
#undef V_SET1
#undef V_ML
#undef V_MH
#undef V_ADD
#undef V_SUB
#undef V_SRL
#undef V_AND
#undef V_LTZ_MASK
#undef V_BLEND

/* ---- ymm, 4 lanes ---- */
#define VT __m256i
#define VL 4
#define SFX(x) x##_ymm
#define V_LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_ST(p, x) _mm256_storeu_si256((__m256i *)(p), (x))
#define V_ZERO() _mm256_setzero_si256()
#define V_SET1(c) _mm256_set1_epi64x((long long)(c))
#define V_ML(acc, x, y) _mm256_madd52lo_epu64((acc), (x), (y))
#define V_MH(acc, x, y) _mm256_madd52hi_epu64((acc), (x), (y))
#define V_ADD(x, y) _mm256_add_epi64((x), (y))
#define V_SUB(x, y) _mm256_sub_epi64((x), (y))
#define V_SRL(x, n) _mm256_srli_epi64((x), (n))
#define V_AND(x, y) _mm256_and_si256((x), (y))
#define V_LTZ_MASK(x) _mm256_cmplt_epi64_mask((x), _mm256_setzero_si256())
#define V_BLEND(m, x, y) _mm256_mask_blend_epi64((m), (x), (y))
#include "mont_ifma.c"

/* The entry points: constant-d bodies for the common sizes (the compiler unrolls and keeps
 * small accumulators in registers), the runtime-d body for the rest. d is public. */
#define IFMA_DISPATCH(body, ...)                                                             \
    switch (d) {                                                                              \
    case 5: body(__VA_ARGS__, 5); break;                                                      \
    case 8: body(__VA_ARGS__, 8); break;                                                      \
    case 10: body(__VA_ARGS__, 10); break;                                                    \
    case 20: body(__VA_ARGS__, 20); break;                                                    \
    case 40: body(__VA_ARGS__, 40); break;                                                    \
    case 79: body(__VA_ARGS__, 79); break;                                                    \
    default: body(__VA_ARGS__, d); break;                                                     \
    }

void tabai_mont_mul_r52n_mb8_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *p, const uint64_t *k0, size_t d) {
    IFMA_DISPATCH(mont_mul_zmm, r, a, b, p, k0)
}

void tabai_mont_sqr_r52n_mb8_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                  const uint64_t *k0, size_t d) {
    IFMA_DISPATCH(mont_mul_zmm, r, a, a, p, k0)
}

void tabai_mont_mul_r52n_mb4_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *p, const uint64_t *k0, size_t d) {
    IFMA_DISPATCH(mont_mul_ymm, r, a, b, p, k0)
}

void tabai_mont_sqr_r52n_mb4_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                  const uint64_t *k0, size_t d) {
    IFMA_DISPATCH(mont_mul_ymm, r, a, a, p, k0)
}

#else /* TABAI_IFMA_TEMPLATE: the body, once per vector width */

/* One row, any d >= 1: t = (t + ai*b + q*p) / 2^52 with q = lo52(t_0 + ai*b_0) * k0. */
TABAI_INLINE void SFX(row1)(VT *t, VT ai, const uint64_t *b, const uint64_t *p, VT k0,
                            size_t d) {
    const VT z = V_ZERO();
    VT b0 = V_LD(b), p0 = V_LD(p);
    VT u = V_ML(t[0], ai, b0);
    VT q = V_ML(z, u, k0);
    u = V_ML(u, q, p0);
    VT c = V_SRL(u, 52);
    VT bm = b0, pm = p0; /* b_{j-1}, p_{j-1} */
    for (size_t j = 1; j < d; j++) {
        VT bj = V_LD(b + j * VL), pj = V_LD(p + j * VL);
        VT x = t[j];
        x = V_ML(x, ai, bj);
        x = V_MH(x, ai, bm);
        x = V_ML(x, q, pj);
        x = V_MH(x, q, pm);
        if (j == 1) x = V_ADD(x, c);
        t[j - 1] = x;
        bm = bj;
        pm = pj;
    }
    VT x = V_MH(V_MH(z, ai, bm), q, pm);
    if (d == 1) x = V_ADD(x, c);
    t[d - 1] = x;
}

/* Two rows, d >= 2: t = (t + a0*b + q0*p + 2^52 (a1*b + q1*p)) / 2^104. */
TABAI_INLINE void SFX(row2)(VT *t, VT a0, VT a1, const uint64_t *b, const uint64_t *p, VT k0,
                            size_t d) {
    const VT z = V_ZERO();
    VT b0 = V_LD(b), b1 = V_LD(b + VL), p0 = V_LD(p), p1 = V_LD(p + VL);
    /* digit 0: q0 */
    VT u0 = V_ML(t[0], a0, b0);
    VT q0 = V_ML(z, u0, k0);
    u0 = V_ML(u0, q0, p0);
    /* digit 1: the a-terms first (independent of q0), then q0's, the carry, q1 */
    VT u1 = V_ML(t[1], a0, b1);
    u1 = V_MH(u1, a0, b0);
    u1 = V_ML(u1, a1, b0);
    u1 = V_ML(u1, q0, p1);
    u1 = V_MH(u1, q0, p0);
    u1 = V_ADD(u1, V_SRL(u0, 52));
    VT q1 = V_ML(z, u1, k0);
    u1 = V_ML(u1, q1, p0);
    VT c = V_SRL(u1, 52);
    /* digits 2 .. d-1 -> new t[j-2] */
    VT bm1 = b1, bm2 = b0, pm1 = p1, pm2 = p0; /* b_{j-1}, b_{j-2}, p_{j-1}, p_{j-2} */
    for (size_t j = 2; j < d; j++) {
        VT bj = V_LD(b + j * VL), pj = V_LD(p + j * VL);
        VT x = t[j];
        if (j == 2) x = V_ADD(x, c);
        x = V_ML(x, a0, bj);
        x = V_MH(x, a0, bm1);
        x = V_ML(x, q0, pj);
        x = V_MH(x, q0, pm1);
        x = V_ML(x, a1, bm1);
        x = V_MH(x, a1, bm2);
        x = V_ML(x, q1, pm1);
        x = V_MH(x, q1, pm2);
        t[j - 2] = x;
        bm2 = bm1;
        bm1 = bj;
        pm2 = pm1;
        pm1 = pj;
    }
    /* digit d (no t_d, no b_d): new t[d-2] */
    VT x = d == 2 ? c : z;
    x = V_MH(x, a0, bm1);
    x = V_MH(x, q0, pm1);
    x = V_ML(x, a1, bm1);
    x = V_MH(x, a1, bm2);
    x = V_ML(x, q1, pm1);
    x = V_MH(x, q1, pm2);
    t[d - 2] = x;
    /* digit d+1: new t[d-1] */
    t[d - 1] = V_MH(V_MH(z, a1, bm1), q1, pm1);
}

/* r = a*b*2^(-52 d) mod p per lane (contract of tabai_mb_mont_mul_fn). */
TABAI_INLINE void SFX(mont_mul)(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                const uint64_t *p, const uint64_t *k0p, size_t d) {
    VT t[IFMA_MAXD];
    const VT m52 = V_SET1(IFMA_M52);
    const VT k0 = V_LD(k0p);
    for (size_t j = 0; j < d; j++) t[j] = V_ZERO();
    size_t i = 0;
    for (; i + 1 < d; i += 2) SFX(row2)(t, V_LD(a + i * VL), V_LD(a + (i + 1) * VL), b, p, k0, d);
    if (i < d) SFX(row1)(t, V_LD(a + i * VL), b, p, k0, d);
    /* normalise T (< 2p) and subtract p; r may alias a or b: both are read no more */
    VT c = V_ZERO(), bw = V_ZERO();
    for (size_t j = 0; j < d; j++) {
        VT x = V_ADD(t[j], c);
        c = V_SRL(x, 52);
        x = V_AND(x, m52);
        t[j] = x;
        VT s = V_SUB(V_SUB(x, V_LD(p + j * VL)), bw);
        bw = V_SRL(s, 63);
        V_ST(r + j * VL, V_AND(s, m52));
    }
    /* c - bw < 0: T < p, keep T; else T - p */
    const __mmask8 keep = V_LTZ_MASK(V_SUB(c, bw));
    for (size_t j = 0; j < d; j++) V_ST(r + j * VL, V_BLEND(keep, V_LD(r + j * VL), t[j]));
}

#endif
