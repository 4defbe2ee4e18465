/* Single-number Montgomery multiplication and squaring in radix 2^52 with AVX-512 IFMA: the
 * digits of one number across ymm (4 digits) or zmm (8 digits) vectors. Compiled with
 * -mavx512f -mavx512vl -mavx512ifma (this file only; reached only when the CPU has IFMA and
 * the tier in use is ifma). Layout and contract: r52.h; algorithm, bounds, constant-time
 * argument and measurements: README.md.
 *
 * Two phases:
 * 1. Product (product scanning): output vector K (digits VL K .. VL K + VL - 1) is the sum
 *    over rows i of lo52(a_i * b[VL K - i + l]) + hi52(a_i * b[VL K - i - 1 + l]), b read
 *    by unaligned loads from its zero-padded buffer, a_i broadcast. Squaring: the
 *    off-diagonal products once (lanes masked to j > i), doubled, plus the diagonal by a
 *    lane permutation. Written unnormalised to a stack buffer S (2 DD digits).
 * 2. Reduction (word-serial Montgomery, Bos-Montgomery-Shumow-Zaverucha SAC 2013 Alg. 2):
 *    a window of NV + 1 vectors of S in registers; row i computes q_i in a scalar register
 *    from the complete digit t_i and adds q_i * p at offset i to the window (p read from its
 *    padded buffer shifted by i mod VL lanes). The next complete digit is computed in scalar
 *    from the window's lane (read before q_i's terms land) plus the carry and the two terms
 *    of q_i that reach it (lo52(q_i p_1) + hi52(q_i p_0)): the serial chain per digit is
 *    imul, mulx and a few adds, and never waits for a vector round trip of its own q.
 *    Every VL rows the window shifts by a vector (register renaming) and reads the next
 *    vector of S. Then one carry normalisation (vector shifts, then the carry ripple as a
 *    multiword add of kmasks) and the store. */
#ifndef TABAI_R52_TEMPLATE

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../internal.h"
#include "r52.h"

#define R52_M 0xFFFFFFFFFFFFFULL
#define R52_CAT_(x, y) x##y
#define R52_CAT(x, y) R52_CAT_(x, y)
#define FN(x) R52_CAT(x, R52_SFX)
#define R52_UNROLL TABAI_UNROLL_BY(64)
#define TABAI_R52_TEMPLATE 1
/* The sanitizer and VERIFY builds (TABAI_ROLLED, src/internal.h) take the rolled product at
 * every size (the same vector functions; the unrolled copies multiply their compile time);
 * the sanitizer builds also build this file uninstrumented (src/CMakeLists.txt) */
#if defined(TABAI_ROLLED)
#define R52_ROLLED 1
#else
#define R52_ROLLED 0
#endif

/* ---- zmm ---- */
#define VT __m512i
#define VL 8
#define MT __mmask8
#define V_LDA(p) _mm512_load_si512((const void *)(p))
#define V_LDU(p) _mm512_loadu_si512((const void *)(p))
#define V_STU(p, x) _mm512_storeu_si512((void *)(p), (x))
#define V_STA(p, x) _mm512_store_si512((void *)(p), (x))
#define V_ZERO() _mm512_setzero_si512()
#define V_SET1(c) _mm512_set1_epi64((long long)(c))
#define V_ML(acc, x, y) _mm512_madd52lo_epu64((acc), (x), (y))
#define V_MH(acc, x, y) _mm512_madd52hi_epu64((acc), (x), (y))
#define V_MMLO(acc, m, x, y) _mm512_mask_madd52lo_epu64((acc), (m), (x), (y))
#define V_MMHI(acc, m, x, y) _mm512_mask_madd52hi_epu64((acc), (m), (x), (y))
#define V_ADD(x, y) _mm512_add_epi64((x), (y))
#define V_MADD(x, m, y, z) _mm512_mask_add_epi64((x), (m), (y), (z))
#define V_SRL(x, n) _mm512_srli_epi64((x), (n))
#define V_AND(x, y) _mm512_and_si512((x), (y))
#define V_OR(x, y) _mm512_or_si512((x), (y))
#define V_MAND(m, x) _mm512_maskz_mov_epi64((m), (x))
#define V_GT(x, y) _mm512_cmpgt_epu64_mask((x), (y))
#define V_EQ(x, y) _mm512_cmpeq_epu64_mask((x), (y))
#define V_ALIGN(hi, lo, n) _mm512_alignr_epi64((hi), (lo), (n))
#define V_PERM(idx, x) _mm512_permutexvar_epi64((idx), (x))
#define V_DUPIDX() _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0)
/* rolled loops leave the lane index a variable; clang wants a constant expression for the
 * extract even in unrolled ones (gcc takes what constant propagation gives): both read the
 * lane by a permutation */
#if R52_ROLLED || defined(__clang__)
#define V_EXT(x, l)                                                                              \
    ((uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(                                         \
        _mm512_permutexvar_epi64(_mm512_set1_epi64((long long)(l)), (x)))))
#else
#define V_EXT(x, l)                                                                              \
    ((l) == 0 ? (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(x))                          \
              : (uint64_t)_mm_extract_epi64(_mm512_extracti32x4_epi32((x), (l) / 2), (l) % 2))
#endif
#define V_INS0(x, v) _mm512_mask_mov_epi64((x), 1, _mm512_set1_epi64((long long)(v)))
#define R52_SFX _z
#define R52_NVMAX 20
#define R52_NV2MAX 12
#define R52_CNV(nv) (!R52_ROLLED && ((nv) == 3 || (nv) == 4 || (nv) == 5))
#include "mont1_ifma.c"
#undef VT
#undef VL
#undef MT
#undef V_LDA
#undef V_LDU
#undef V_STU
#undef V_STA
#undef V_ZERO
#undef V_SET1
#undef V_ML
#undef V_MH
#undef V_MMLO
#undef V_MMHI
#undef V_ADD
#undef V_MADD
#undef V_SRL
#undef V_AND
#undef V_OR
#undef V_MAND
#undef V_GT
#undef V_EQ
#undef V_ALIGN
#undef V_PERM
#undef V_DUPIDX
#undef V_EXT
#undef V_INS0
#undef R52_SFX
#undef R52_NVMAX
#undef R52_NV2MAX
#undef R52_CNV

/* ---- ymm ---- */
#define VT __m256i
#define VL 4
#define MT __mmask8
#define V_LDA(p) _mm256_load_si256((const __m256i *)(p))
#define V_LDU(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_STU(p, x) _mm256_storeu_si256((__m256i *)(p), (x))
#define V_STA(p, x) _mm256_store_si256((__m256i *)(p), (x))
#define V_ZERO() _mm256_setzero_si256()
#define V_SET1(c) _mm256_set1_epi64x((long long)(c))
#define V_ML(acc, x, y) _mm256_madd52lo_epu64((acc), (x), (y))
#define V_MH(acc, x, y) _mm256_madd52hi_epu64((acc), (x), (y))
#define V_MMLO(acc, m, x, y) _mm256_mask_madd52lo_epu64((acc), (m), (x), (y))
#define V_MMHI(acc, m, x, y) _mm256_mask_madd52hi_epu64((acc), (m), (x), (y))
#define V_ADD(x, y) _mm256_add_epi64((x), (y))
#define V_MADD(x, m, y, z) _mm256_mask_add_epi64((x), (m), (y), (z))
#define V_SRL(x, n) _mm256_srli_epi64((x), (n))
#define V_AND(x, y) _mm256_and_si256((x), (y))
#define V_OR(x, y) _mm256_or_si256((x), (y))
#define V_MAND(m, x) _mm256_maskz_mov_epi64((m), (x))
#define V_GT(x, y) _mm256_cmpgt_epu64_mask((x), (y))
#define V_EQ(x, y) _mm256_cmpeq_epu64_mask((x), (y))
#define V_ALIGN(hi, lo, n) _mm256_alignr_epi64((hi), (lo), (n))
#define V_PERM(idx, x) _mm256_permutexvar_epi64((idx), (x))
#define V_DUPIDX() _mm256_set_epi64x(1, 1, 0, 0)
#if R52_ROLLED || defined(__clang__)
#define V_EXT(x, l)                                                                              \
    ((uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(                                         \
        _mm256_permutexvar_epi64(_mm256_set1_epi64x((long long)(l)), (x)))))
#else
#define V_EXT(x, l) ((uint64_t)_mm256_extract_epi64((x), (l)))
#endif
#define V_INS0(x, v) _mm256_mask_mov_epi64((x), 1, _mm256_set1_epi64x((long long)(v)))
#define R52_SFX _y
#define R52_NVMAX 23
#define R52_NV2MAX 12
#define R52_CNV(nv) (!R52_ROLLED && ((nv) == 5 || (nv) == 8 || (nv) == 10))
#include "mont1_ifma.c"

/* ---- entry points ---- */

void tabai_mont_mul_r52n_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                              const uint64_t *p, uint64_t k0, size_t dd, unsigned vl) {
    if (vl == 8) op_z(r, NULL, a, NULL, b, NULL, p, NULL, k0, 0, dd / 8, 1, 0);
    else op_y(r, NULL, a, NULL, b, NULL, p, NULL, k0, 0, dd / 4, 1, 0);
}

void tabai_mont_sqr_r52n_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t k0,
                              size_t dd, unsigned vl) {
    if (vl == 8) op_z(r, NULL, a, NULL, a, NULL, p, NULL, k0, 0, dd / 8, 1, 1);
    else op_y(r, NULL, a, NULL, a, NULL, p, NULL, k0, 0, dd / 4, 1, 1);
}

void tabai_mont_mul2_r52n_ifma(uint64_t *r1, uint64_t *r2, const uint64_t *a1,
                               const uint64_t *a2, const uint64_t *b1, const uint64_t *b2,
                               const uint64_t *p1, const uint64_t *p2, uint64_t k01,
                               uint64_t k02, size_t dd, unsigned vl) {
    if (vl == 8) op_z(r1, r2, a1, a2, b1, b2, p1, p2, k01, k02, dd / 8, 2, 0);
    else op_y(r1, r2, a1, a2, b1, b2, p1, p2, k01, k02, dd / 4, 2, 0);
}

void tabai_mont_sqr2_r52n_ifma(uint64_t *r1, uint64_t *r2, const uint64_t *a1,
                               const uint64_t *a2, const uint64_t *p1, const uint64_t *p2,
                               uint64_t k01, uint64_t k02, size_t dd, unsigned vl) {
    if (vl == 8) op_z(r1, r2, a1, a2, a1, a2, p1, p2, k01, k02, dd / 8, 2, 1);
    else op_y(r1, r2, a1, a2, a1, a2, p1, p2, k01, k02, dd / 4, 2, 1);
}

void tabai_r52_scan_ifma(uint64_t *ent, const uint64_t *tab, size_t entries, size_t stride,
                         size_t dd, uint64_t idx) {
    /* dd is a multiple of 4: ymm blocks; every entry is read, a mask keeps the one */
    for (size_t j = 0; j < dd; j += 4) {
        __m256i x = _mm256_setzero_si256();
        const __m256i want = _mm256_set1_epi64x((long long)idx);
        __m256i cur = _mm256_setzero_si256();
        const __m256i one = _mm256_set1_epi64x(1);
        const uint64_t *t = tab + j;
        for (size_t i = 0; i < entries; i++, t += stride) {
            __mmask8 m = _mm256_cmpeq_epu64_mask(cur, want);
            x = _mm256_mask_mov_epi64(x, m, _mm256_loadu_si256((const __m256i *)t));
            cur = _mm256_add_epi64(cur, one);
        }
        _mm256_storeu_si256((__m256i *)(ent + j), x);
    }
}

#else /* TABAI_R52_TEMPLATE: once per vector width */

/* Rows i and i + 1 of a product vector, every lane: bb = b + VL K - i. Four chains. */
TABAI_INLINE void FN(rows2)(VT *x0, VT *x1, VT *y0, VT *y1, const uint64_t *a,
                            const uint64_t *bb, size_t i) {
    const VT a0 = V_SET1(a[i]), a1 = V_SET1(a[i + 1]);
    *x0 = V_ML(*x0, a0, V_LDU(bb));
    *y0 = V_MH(*y0, a0, V_LDU(bb - 1));
    *x1 = V_ML(*x1, a1, V_LDU(bb - 1));
    *y1 = V_MH(*y1, a1, V_LDU(bb - 2));
}

/* Vector K (digits VL K .. VL K + VL - 1) of a*b, unnormalised: the rows i whose products
 * reach it, b read by unaligned loads from its padded buffer. */
TABAI_INLINE VT FN(pvec)(const uint64_t *a, const uint64_t *b, size_t dd, size_t K) {
    const size_t base = VL * K;
    const size_t lo = base > dd ? base - dd : 0;
    const size_t hi = base + VL - 1 < dd - 1 ? base + VL - 1 : dd - 1;
    VT x0 = V_ZERO(), x1 = V_ZERO(), y0 = V_ZERO(), y1 = V_ZERO();
    size_t i = lo;
    for (; i + 1 <= hi; i += 2) FN(rows2)(&x0, &x1, &y0, &y1, a, b + base - i, i);
    if (i <= hi) {
        const VT a0 = V_SET1(a[i]);
        x0 = V_ML(x0, a0, V_LDU(b + base - i));
        y0 = V_MH(y0, a0, V_LDU(b + base - i - 1));
    }
    return V_ADD(V_ADD(x0, x1), V_ADD(y0, y1));
}

/* Vector K of a^2: the off-diagonal products a_i a_j (j > i) once, on the lanes where
 * j > i (merge masks from i and K only), doubled, then lo52(a_k^2) into digit 2k and
 * hi52(a_k^2) into 2k + 1 by a lane permutation and masked madds. */
TABAI_INLINE VT FN(svec)(const uint64_t *a, size_t dd, size_t K) {
    const unsigned full = (1u << VL) - 1;
    const VT dup = V_DUPIDX();
    const size_t base = VL * K;
    const size_t lo = base > dd ? base - dd : 0;
    size_t hi = (base + VL - 2) / 2; /* the last row with a lane j > i (lo terms) */
    if (hi > dd - 1) hi = dd - 1;
    VT x0 = V_ZERO(), x1 = V_ZERO(), y0 = V_ZERO(), y1 = V_ZERO();
    size_t i = lo;
    /* rows whose every lane has j > i + 1 (no masks): 2 i + 2 - base <= 0 */
    for (; i + 1 <= hi && 2 * (i + 1) + 2 <= base; i += 2)
        FN(rows2)(&x0, &x1, &y0, &y1, a, a + base - i, i);
    for (; i <= hi; i++) {
        /* lo: lanes l with j = base + l - i > i; hi: j = base + l - i - 1 > i */
        const long m = (long)(2 * i + 1) - (long)base;
        const MT mlo = (MT)(m <= 0 ? full : m >= VL ? 0 : (full << m) & full);
        const MT mhi = (MT)(m + 1 <= 0 ? full : m + 1 >= VL ? 0 : (full << (m + 1)) & full);
        const VT a0 = V_SET1(a[i]);
        if (i & 1) { /* two chains */
            x1 = V_MMLO(x1, mlo, a0, V_LDU(a + base - i));
            y1 = V_MMHI(y1, mhi, a0, V_LDU(a + base - i - 1));
        } else {
            x0 = V_MMLO(x0, mlo, a0, V_LDU(a + base - i));
            y0 = V_MMHI(y0, mhi, a0, V_LDU(a + base - i - 1));
        }
    }
    VT s = V_ADD(V_ADD(x0, x1), V_ADD(y0, y1));
    s = V_ADD(s, s);
    const VT ak = V_PERM(dup, V_LDU(a + base / 2));
    s = V_MMLO(s, (MT)(0x55 & full), ak, ak);
    s = V_MMHI(s, (MT)(0xAA & full), ak, ak);
    return s;
}

#define R52_PN(x) FN(R52_CAT(x, _r))
#define R52_PATTR static __attribute__((noinline))
#define R52_PU
#include "mont1_prod.h"
#undef R52_PN
#undef R52_PATTR
#undef R52_PU
#define R52_PN(x) FN(R52_CAT(x, _c))
#define R52_PATTR TABAI_INLINE
#define R52_PU TABAI_UNROLL_BY(64)
#include "mont1_prod.h"
#undef R52_PN
#undef R52_PATTR
#undef R52_PU

/* r[0 .. VL nv) = the normalised digits of x[0 .. nv) (unnormalised, value < 2^(52 VL nv)).
 * First each digit's carry moved one lane up (vector shifts): digits <= 2^52 - 1 + 2^10;
 * then the carries out g_j in {0, 1} and the all-ones digits e_j as bit masks G and E of up
 * to 3 words; the carry into each digit is ((G << 1) + E) ^ E (a 1 ripples through all-ones
 * digits), added by a masked add. Constant time: no branch on the values. */
TABAI_INLINE void FN(norm)(uint64_t *r, VT *x, const size_t nv) {
    const VT m52 = V_SET1(R52_M), one = V_SET1(1);
    VT cprev = V_ZERO();
    uint64_t G[3] = {0, 0, 0}, E[3] = {0, 0, 0};
    R52_UNROLL
    for (size_t k = 0; k < nv; k++) {
        const VT c = V_SRL(x[k], 52);
        VT y = V_ADD(V_AND(x[k], m52), V_ALIGN(c, cprev, VL - 1));
        cprev = c;
        const uint64_t g = (uint64_t)V_GT(y, m52);
        y = V_AND(y, m52);
        const uint64_t e = (uint64_t)V_EQ(y, m52);
        x[k] = y;
        G[(VL * k) / 64] |= g << ((VL * k) % 64);
        E[(VL * k) / 64] |= e << ((VL * k) % 64);
    }
    uint64_t C[3];
    unsigned char cy = 0;
    uint64_t g0 = G[0] << 1, g1 = (G[1] << 1) | (G[0] >> 63), g2 = (G[2] << 1) | (G[1] >> 63);
    unsigned long long s0, s1, s2;
    cy = __builtin_ia32_addcarryx_u64(cy, g0, E[0], &s0);
    cy = __builtin_ia32_addcarryx_u64(cy, g1, E[1], &s1);
    (void)__builtin_ia32_addcarryx_u64(cy, g2, E[2], &s2);
    C[0] = s0 ^ E[0];
    C[1] = s1 ^ E[1];
    C[2] = s2 ^ E[2];
    R52_UNROLL
    for (size_t k = 0; k < nv; k++) {
        const MT cin = (MT)((C[(VL * k) / 64] >> ((VL * k) % 64)) & ((1u << VL) - 1));
        V_STU(r + VL * k, V_AND(V_MADD(x[k], cin, x[k], one), m52));
    }
}

/* The reduction of one or two unnormalised double-length products S1, S2 (2 VL NV digits +
 * VL zeros each) by p1, p2 (padded), into r1, r2: NV constant (the window in registers), NS
 * streams (1 or 2) interleaved row by row. The window acc[k] holds digits VL (w + k) ..
 * VL (w + k + 1) - 1 of the running sum; t the complete digit of the current row. */
TABAI_INLINE void FN(redc_body)(uint64_t *r1, uint64_t *r2, const uint64_t *S1,
                                const uint64_t *S2, const uint64_t *p1, const uint64_t *p2,
                                uint64_t k01, uint64_t k02, const size_t NV, const int NS,
                                const uint64_t *a1, const uint64_t *a2, const uint64_t *b1,
                                const uint64_t *b2, const int SQ) {
    /* the product vectors beyond the first window: computed inside the loop (LAZY, the rolled
     * sizes, measured faster there), or read from S (the unrolled RSA half sizes, where the
     * whole product up front measured faster) */
    const int LAZY = !R52_CNV(NV);
    VT acc[2][R52_NVMAX + 1], nxt[2];
    uint64_t t[2], k0[2] = {k01, k02}, pp0[2], pp1[2];
    const uint64_t *S[2] = {S1, S2}, *p[2] = {p1, p2}, *A[2] = {a1, a2}, *B[2] = {b1, b2};
    R52_UNROLL
    for (int u = 0; u < NS; u++) {
        R52_UNROLL
        for (size_t k = 0; k <= NV; k++) acc[u][k] = V_LDA(S[u] + VL * k);
        t[u] = S[u][0];
        pp0[u] = p[u][0];
        pp1[u] = p[u][1];
    }
    for (size_t w = 0; w < NV; w++) {
        /* the product vector the window takes next, computed here so that its madds fill
         * the latency of the q chain below */
        R52_UNROLL
        for (int u = 0; u < NS; u++) {
            const size_t K = w + NV + 1;
            nxt[u] = K >= 2 * NV ? V_ZERO()
                     : !LAZY     ? V_LDA(S[u] + VL * K)
                     : SQ        ? FN(svec)(A[u], VL * NV, K)
                                 : FN(pvec)(A[u], B[u], VL * NV, K);
        }
        R52_UNROLL
        for (int s = 0; s < VL; s++) {
            R52_UNROLL
            for (int u = 0; u < NS; u++) {
                const uint64_t tt = t[u];
                const uint64_t q = (tt * k0[u]) & R52_M;
                /* the carry of tt + lo52(q p_0): tt rounded up to a multiple of 2^52 */
                const uint64_t c = (tt >> 52) + (((tt & R52_M) + R52_M) >> 52);
                const uint64_t v = s + 1 < VL ? V_EXT(acc[u][0], s + 1) : V_EXT(acc[u][1], 0);
                const tabai_u128 x0 = (tabai_u128)q * pp0[u], x1 = (tabai_u128)q * pp1[u];
                t[u] = v + c + (uint64_t)(x0 >> 52) + ((uint64_t)x1 & R52_M);
                const VT Q = V_SET1(q);
                const uint64_t *ps = p[u] - s;
                R52_UNROLL
                for (size_t k = 0; k <= NV; k++)
                    acc[u][k] = V_MH(V_ML(acc[u][k], Q, V_LDU(ps + VL * k)), Q,
                                     V_LDU(ps + VL * k - 1));
            }
        }
        R52_UNROLL
        for (int u = 0; u < NS; u++) {
            R52_UNROLL
            for (size_t k = 0; k < NV; k++) acc[u][k] = acc[u][k + 1];
            acc[u][NV] = nxt[u];
        }
    }
    /* acc[0] lane 0 lacks only the last carry: t is the complete digit */
    acc[0][0] = V_INS0(acc[0][0], t[0]);
    FN(norm)(r1, acc[0], NV);
    if (NS == 2) {
        acc[1][0] = V_INS0(acc[1][0], t[1]);
        FN(norm)(r2, acc[1], NV);
    }
}

/* The product (unrolled for the constant dd of the RSA half sizes, R52_CNV: 1024, 1536 and
 * 2048 bits; rolled otherwise, to bound the code size and the compile time), then the
 * reduction, of one or two streams. */
TABAI_INLINE void FN(op_body)(uint64_t *r1, uint64_t *r2, const uint64_t *a1, const uint64_t *a2,
                              const uint64_t *b1, const uint64_t *b2, const uint64_t *p1,
                              const uint64_t *p2, uint64_t k01, uint64_t k02, const size_t NV,
                              const int NS, const int SQ) {
    /* the product: at the RSA half sizes all of it here, elsewhere the first NV + 1 vectors
     * (the reduction's first window) and the rest inside the reduction */
    _Alignas(64) uint64_t S1[VL * 2 * NV], S2[NS == 2 ? VL * 2 * NV : 1];
    const size_t dd = NV * VL;
    if (R52_CNV(NV)) { /* all of it up front, unrolled */
        if (SQ) FN(sqrprod_c)(S1, a1, dd, 0, 2 * NV);
        else FN(prod_c)(S1, a1, b1, dd, 0, 2 * NV);
        if (NS == 2 && SQ) FN(sqrprod_c)(S2, a2, dd, 0, 2 * NV);
        if (NS == 2 && !SQ) FN(prod_c)(S2, a2, b2, dd, 0, 2 * NV);
    } else {
        if (SQ) FN(sqrprod_r)(S1, a1, dd, 0, NV + 1);
        else FN(prod_r)(S1, a1, b1, dd, 0, NV + 1);
        if (NS == 2 && SQ) FN(sqrprod_r)(S2, a2, dd, 0, NV + 1);
        if (NS == 2 && !SQ) FN(prod_r)(S2, a2, b2, dd, 0, NV + 1);
    }
    FN(redc_body)(r1, r2, S1, S2, p1, p2, k01, k02, NV, NS, a1, a2, b1, b2, SQ);
}

/* One function per window size and stream count (the window then lives in registers). */
#define R52_ARGS                                                                                 \
    uint64_t *r1, uint64_t *r2, const uint64_t *a1, const uint64_t *a2, const uint64_t *b1,      \
        const uint64_t *b2, const uint64_t *p1, const uint64_t *p2, uint64_t k01, uint64_t k02,  \
        int sq
#define R52_PASS r1, r2, a1, a2, b1, b2, p1, p2, k01, k02
#define R52_ONE(nv)                                                                              \
    static void R52_CAT(FN(op1_), nv)(R52_ARGS) {                                                \
        if (sq) FN(op_body)(R52_PASS, nv, 1, 1);                                                 \
        else FN(op_body)(R52_PASS, nv, 1, 0);                                                    \
    }
#define R52_TWO(nv)                                                                              \
    static void R52_CAT(FN(op2_), nv)(R52_ARGS) {                                                \
        if (sq) FN(op_body)(R52_PASS, nv, 2, 1);                                                 \
        else FN(op_body)(R52_PASS, nv, 2, 0);                                                    \
    }
R52_ONE(3)
R52_ONE(4)
R52_ONE(5)
R52_ONE(6)
R52_ONE(7)
R52_ONE(8)
R52_ONE(9)
R52_ONE(10)
R52_ONE(11)
R52_ONE(12)
R52_ONE(13)
R52_ONE(14)
R52_ONE(15)
R52_ONE(16)
R52_ONE(17)
R52_ONE(18)
R52_ONE(19)
R52_ONE(20)
#if R52_NVMAX > 20
R52_ONE(21)
R52_ONE(22)
R52_ONE(23)
#endif
R52_TWO(3)
R52_TWO(4)
R52_TWO(5)
R52_TWO(6)
R52_TWO(7)
R52_TWO(8)
R52_TWO(9)
R52_TWO(10)
R52_TWO(11)
R52_TWO(12)
#undef R52_ONE
#undef R52_TWO

#define R52_C1(nv)                                                                               \
    case nv: R52_CAT(FN(op1_), nv)(R52_PASS, sq); break;
#define R52_C2(nv)                                                                               \
    case nv: R52_CAT(FN(op2_), nv)(R52_PASS, sq); return;

/* ns = 2 beyond the two-stream sizes: the two operations one after the other. */
static void FN(op)(uint64_t *r1, uint64_t *r2, const uint64_t *a1, const uint64_t *a2,
                   const uint64_t *b1, const uint64_t *b2, const uint64_t *p1, const uint64_t *p2,
                   uint64_t k01, uint64_t k02, size_t nv, int ns, int sq) {
    if (ns == 2 && nv <= R52_NV2MAX) {
        switch (nv) {
            R52_C2(3) R52_C2(4) R52_C2(5) R52_C2(6) R52_C2(7) R52_C2(8) R52_C2(9) R52_C2(10)
            R52_C2(11) R52_C2(12)
        default: break;
        }
    }
    for (int u = 0; u < ns; u++) {
        if (u == 1) {
            r1 = r2;
            a1 = a2;
            b1 = b2;
            p1 = p2;
            k01 = k02;
        }
        switch (nv) {
            R52_C1(3) R52_C1(4) R52_C1(5) R52_C1(6) R52_C1(7) R52_C1(8) R52_C1(9) R52_C1(10)
            R52_C1(11) R52_C1(12) R52_C1(13) R52_C1(14) R52_C1(15) R52_C1(16) R52_C1(17)
            R52_C1(18) R52_C1(19) R52_C1(20)
#if R52_NVMAX > 20
            R52_C1(21) R52_C1(22) R52_C1(23)
#endif
        default: break;
        }
    }
}
#undef R52_C1
#undef R52_C2
#undef R52_ARGS
#undef R52_PASS

#endif
