/* Multi-buffer Montgomery multiplication in radix 2^32 with AVX-512F/VL vpmuludq: the
 * 32-bit baseline of seed 001, against which the IFMA kernels (src/ifma) are measured.
 * One independent multiplication per 64-bit lane, 8 lanes in a zmm (mb8) or 4 in a ymm
 * (mb4); digits < 2^32 stored in 64-bit lanes (layout of mb.h). Compiled with
 * -mavx512f -mavx512vl (this file only; reached only through the lead's dispatch).
 *
 * Difference from the seed: the seed packs 8 operations per ymm in 32-bit lanes and pairs
 * vpmuludq with odd/even shuffles; here one operation sits in each 64-bit lane, so that the
 * layout, the conversions, the contexts and the exponentiation engine are those of the IFMA
 * kernels (only w differs). vpmuludq reads the low 32 bits of each 64-bit lane, which is
 * exactly one digit: no shuffle is needed, and a lane holds a digit product or an
 * accumulator without packing.
 *
 * Algorithm: word-serial Montgomery (Bos, Montgomery, Shumow, Zaverucha, SAC 2013,
 * Algorithm 2) in radix B = 2^32, R = B^d: for every row i, q_i = (t_i * k0) mod B and
 * t += (a_i * b + q_i * p) * B^i; every digit product x < 2^64 contributes lo(x) = x mod B
 * to its digit position and hi(x) = x >> 32 to the next one. The schedule is by columns
 * (product scanning, "finely integrated" in Koc, Acar, Kaliski 1996): column m gathers
 * every a_i*b_j and q_i*p_j with i + j = m in registers, so no accumulator array is loaded
 * or stored; for m < d, q_m is computed from the column's low part and its q_m*p_0 added;
 * for m >= d the column's low digit is output digit m - d. Same sums as the row order, same
 * exact result.
 *
 * One column without splitting each product: per product x, two adds and one shift,
 *     S += x (mod 2^64),  H += x >> 32,
 * with S starting at the carry c from the previous column. The true sum of the low halves
 * is then recovered exactly once per column: U = c + sum lo(x) = S - (H << 32) (mod 2^64),
 * exact because c + sum lo(x) < 2^64 (bound below). The column value is U + H * B, its
 * digit U mod B, and the carry to the next column c' = (U >> 32) + H. This saves the
 * vpandq per product of the split lo/hi accumulation (4 vector instructions per product
 * instead of 5, vpmuludq included).
 *
 * Bound: column m has n_m <= 2d products (a_i b_j and q_i p_j, i + j = m, i, j < d), each
 * lo <= B - 1 and hi <= B - 2. If c <= 2d * B then U <= c + 2d(B - 1) < 4d * B, and
 * c' = (U >> 32) + H < 4d + 2d(B - 2) <= 2d * B. By induction every carry is <= 2d * B
 * <= 2^40 and every U < 4d * B <= 2^41 for d <= 128: far below 2^64, so U is exact.
 *
 * End: T = (a b + q p) / R < 2p (a, b < p); its d digits come out of the columns
 * normalised, with the carry out of the last column c_top in {0, 1}. T - p is computed by
 * a borrow chain alongside (digit m - d as soon as it is known), and r = T or T - p chosen
 * per lane by a mask from vpcmpuq (keep T iff c_top < borrow), then a masked blend: no
 * branch. Loops run over the public d only; no address depends on the operands.
 *
 * Aliasing: column m reads a_i, b_j for i, j > m - d only and writes digit m - d of r, so
 * r may be a and/or b. */
#ifndef TABAI_AVX512_TEMPLATE

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../internal.h"
#include "../mb/mb.h"

#define M32 0xFFFFFFFFULL

#define TABAI_AVX512_TEMPLATE 1
#define VT __m512i
#define VL 8
#define SFX(x) x##_zmm
#define V_LD(p) _mm512_loadu_si512((const void *)(p))
#define V_ST(p, x) _mm512_storeu_si512((void *)(p), (x))
#define V_ZERO() _mm512_setzero_si512()
#define V_SET1(c) _mm512_set1_epi64((long long)(c))
#define V_MUL(x, y) _mm512_mul_epu32((x), (y))
#define V_ADD(x, y) _mm512_add_epi64((x), (y))
#define V_SUB(x, y) _mm512_sub_epi64((x), (y))
#define V_SRL(x, n) _mm512_srli_epi64((x), (n))
#define V_SLL(x, n) _mm512_slli_epi64((x), (n))
#define V_AND(x, y) _mm512_and_si512((x), (y))
#define V_LTU_MASK(x, y) _mm512_cmplt_epu64_mask((x), (y))
#define V_BLEND(m, x, y) _mm512_mask_blend_epi64((m), (x), (y)) /* m ? y : x */
#include "mont_avx512.c"
#undef VT
#undef VL
#undef SFX
#undef V_LD
#undef V_ST
#undef V_ZERO
#undef V_SET1
#undef V_MUL
#undef V_ADD
#undef V_SUB
#undef V_SRL
#undef V_SLL
#undef V_AND
#undef V_LTU_MASK
#undef V_BLEND

#define VT __m256i
#define VL 4
#define SFX(x) x##_ymm
#define V_LD(p) _mm256_loadu_si256((const void *)(p))
#define V_ST(p, x) _mm256_storeu_si256((void *)(p), (x))
#define V_ZERO() _mm256_setzero_si256()
#define V_SET1(c) _mm256_set1_epi64x((long long)(c))
#define V_MUL(x, y) _mm256_mul_epu32((x), (y))
#define V_ADD(x, y) _mm256_add_epi64((x), (y))
#define V_SUB(x, y) _mm256_sub_epi64((x), (y))
#define V_SRL(x, n) _mm256_srli_epi64((x), (n))
#define V_SLL(x, n) _mm256_slli_epi64((x), (n))
#define V_AND(x, y) _mm256_and_si256((x), (y))
#define V_LTU_MASK(x, y) _mm256_cmplt_epu64_mask((x), (y))
#define V_BLEND(m, x, y) _mm256_mask_blend_epi64((m), (x), (y))
#include "mont_avx512.c"

void tabai_mont_mul_r32n_mb8_avx512(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *p, const uint64_t *k0, size_t d) {
    mont_mul_zmm(r, a, b, p, k0, d);
}

void tabai_mont_sqr_r32n_mb8_avx512(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                    const uint64_t *k0, size_t d) {
    mont_mul_zmm(r, a, a, p, k0, d);
}

void tabai_mont_mul_r32n_mb4_avx512(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *p, const uint64_t *k0, size_t d) {
    mont_mul_ymm(r, a, b, p, k0, d);
}

void tabai_mont_sqr_r32n_mb4_avx512(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                    const uint64_t *k0, size_t d) {
    mont_mul_ymm(r, a, a, p, k0, d);
}

#else /* TABAI_AVX512_TEMPLATE: the kernel for one vector width (VT, VL lanes) */

/* r = a*b*R^-1 mod p, R = 2^(32 d), in every lane; contract of tabai_mb_mont_mul_fn. */
TABAI_INLINE void SFX(mont_mul_body)(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                     const uint64_t *p, const uint64_t *k0, size_t d) {
    VT q[TABAI_MB_MAX_DIGITS]; /* q_i (low 32 bits valid); from column d on, digit m - d of
                                  T - p replaces q_{m-d}, which is no longer read */
    const VT m32 = V_SET1(M32), kk = V_LD(k0);
    VT c = V_ZERO(), bw = V_ZERO();
    for (size_t m = 0; m < d; m++) {
        /* column m < d: a_i b_{m-i} for i = 0..m, q_i p_{m-i} for i = 0..m-1 */
        VT s0 = c, h0 = V_ZERO(), s1 = V_ZERO(), h1 = V_ZERO();
        const uint64_t *pa = a, *pb = b + m * VL, *pp = p + m * VL;
        for (size_t i = 0; i < m; i++, pa += VL, pb -= VL, pp -= VL) {
            VT x = V_MUL(V_LD(pa), V_LD(pb));
            VT y = V_MUL(q[i], V_LD(pp));
            s0 = V_ADD(s0, x);
            h0 = V_ADD(h0, V_SRL(x, 32));
            s1 = V_ADD(s1, y);
            h1 = V_ADD(h1, V_SRL(y, 32));
        }
        VT x = V_MUL(V_LD(pa), V_LD(b)); /* a_m b_0 */
        s0 = V_ADD(s0, x);
        h0 = V_ADD(h0, V_SRL(x, 32));
        VT h = V_ADD(h0, h1);
        VT u = V_SUB(V_ADD(s0, s1), V_SLL(h, 32)); /* c + sum of low halves, exact */
        VT qm = V_MUL(u, kk);                       /* q_m = (u * k0) mod 2^32 in its low half */
        q[m] = qm;
        VT y = V_MUL(qm, V_LD(p)); /* q_m p_0: u + lo(y) = 0 mod 2^32 */
        u = V_ADD(u, V_AND(y, m32));
        c = V_ADD(V_ADD(V_SRL(u, 32), h), V_SRL(y, 32));
    }
    for (size_t m = d; m < 2 * d; m++) {
        /* column m >= d: a_i b_{m-i}, q_i p_{m-i} for i = m-d+1..d-1 */
        VT s0 = c, h0 = V_ZERO(), s1 = V_ZERO(), h1 = V_ZERO();
        const uint64_t *pa = a + (m - d + 1) * VL, *pb = b + (d - 1) * VL,
                       *pp = p + (d - 1) * VL;
        for (size_t i = m - d + 1; i < d; i++, pa += VL, pb -= VL, pp -= VL) {
            VT x = V_MUL(V_LD(pa), V_LD(pb));
            VT y = V_MUL(q[i], V_LD(pp));
            s0 = V_ADD(s0, x);
            h0 = V_ADD(h0, V_SRL(x, 32));
            s1 = V_ADD(s1, y);
            h1 = V_ADD(h1, V_SRL(y, 32));
        }
        VT h = V_ADD(h0, h1);
        VT u = V_SUB(V_ADD(s0, s1), V_SLL(h, 32));
        VT t = V_AND(u, m32); /* digit m - d of T */
        c = V_ADD(V_SRL(u, 32), h);
        V_ST(r + (m - d) * VL, t);
        VT v = V_SUB(V_SUB(t, V_LD(p + (m - d) * VL)), bw); /* T - p, borrow chain */
        bw = V_SRL(v, 63);
        q[m - d] = V_AND(v, m32);
    }
    /* c = c_top in {0, 1}: T >= R > p if set; else T < p iff the chain borrowed */
    __mmask8 keep = V_LTU_MASK(c, bw);
    for (size_t i = 0; i < d; i++)
        V_ST(r + i * VL, V_BLEND(keep, q[i], V_LD(r + i * VL)));
}

static void SFX(mont_mul)(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                          const uint64_t *k0, size_t d) {
    SFX(mont_mul_body)(r, a, b, p, k0, d);
}

#endif /* TABAI_AVX512_TEMPLATE */
