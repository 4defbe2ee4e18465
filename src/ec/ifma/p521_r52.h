/* P-521's field GF(2^521 - 1) in eleven digits of radix 2^52 on AVX-512 IFMA (ymm, three
 * vectors of four: digits 0-3, 4-7, 8-10 and a zero pad; built only in this folder, with
 * -mavx512f -mavx512vl -mavx512ifma). An element is twelve words x[12], sum x_i 2^(52 i);
 * "normalized": digits 0..9 below 2^52, digit 10 below 2^8 (value below 2^528, congruent
 * to the element, not reduced), the pad zero. Every operation takes and gives normalized
 * elements; r may alias the inputs. Constant time: no branch or address depends on values
 * (the carry lookahead's masks are data, not control).
 *
 * Product (Montgomery form with R = 2^572, x stored as x 2^572 = x 2^51 mod p): since
 * p = -1 mod 2^52, REDC needs no multiplier, and in one pass: for the columns C_0..C_21 of
 * a b (vpmadd52luq / vpmadd52huq, the low half of a_i b_j at column i + j, the high half at
 * i + j + 1), a b 2^-572 = sum_(k >= 11) C_k 2^(52 (k - 11)) + sum_(1 <= k <= 10) 2 C_k
 * 2^(52 (k - 1)) + 4 C_0 2^(52 9) mod p (2^521 = 1: the low columns come back doubled one
 * digit down, C_0 at digit 9 times 4). The columns are accumulated in place: a is shifted
 * by s = 0..3 digits once (valignq), so that b_i's products land on whole vectors of columns
 * (i = s + 4 q); two sets of accumulators (even and odd i) halve the chains of vpmadd52. No
 * serial chain of steps (a word-serial REDC shifts the whole window every digit, a valignq
 * each). Then one carry round and a carry lookahead (the digits that generate a carry and
 * those equal to 2^52 - 1 that propagate one, as 11-bit masks added as integers) give
 * digits below 2^52 exactly, as vpmadd52 reads only their low 52 bits.
 * Bounds: a column is at most 22 terms below 2^52 (2^56.5); a digit before the carries
 * below 2^56.5 + 2^57.5 + 2^58.5 (the 4 C_0 only at digit 9); digit 10 = C_21 = 0 for
 * factors whose digit 10 is below 2^26, plus the carry of digit 9 (below 2^7).
 * Sums and differences: digitwise, then p's multiple folded at bit 521 (digit 10's bits from
 * bit 1 up added to digit 0: 2^521 = 1) and the same carries. a - b adds 2^10 p in digits
 * that exceed every normalized b's (D below). */
#ifndef TABAI_EC_P521_R52_H
#define TABAI_EC_P521_R52_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "../../internal.h"
#include "r52_field.h"

#define P521_R52_M ((UINT64_C(1) << 52) - 1)

/* the one in the product's form: 2^51 (digit 0) */
static const uint64_t P521_R52_ONE[12] = {UINT64_C(1) << 51};

/* 2^27 p = 2^548 - 2^27 in digits above every normalized subtrahend's (digits 0..9 below
 * 2^52, digit 10 below 2^28 - 2): 2^53 - 2^27, nine times 2^53 - 2, then 2^28 - 2 (the
 * telescoping sum of (2^53 - 2) 2^(52 j), j = 1..9, is 2^521 - 2^53) */
static const uint64_t P521_R52_D[12] = {
    (UINT64_C(1) << 53) - (1 << 27), (UINT64_C(1) << 53) - 2, (UINT64_C(1) << 53) - 2,
    (UINT64_C(1) << 53) - 2,         (UINT64_C(1) << 53) - 2, (UINT64_C(1) << 53) - 2,
    (UINT64_C(1) << 53) - 2,         (UINT64_C(1) << 53) - 2, (UINT64_C(1) << 53) - 2,
    (UINT64_C(1) << 53) - 2,         (1 << 28) - 2,           0};

typedef struct {
    __m256i v[3];
} p521_r52_v;

TABAI_INLINE p521_r52_v p521_r52_load(const uint64_t *a) {
    p521_r52_v r = {{_mm256_loadu_si256((const __m256i *)a),
                     _mm256_loadu_si256((const __m256i *)(a + 4)),
                     _mm256_loadu_si256((const __m256i *)(a + 8))}};
    return r;
}

TABAI_INLINE void p521_r52_store(uint64_t *r, p521_r52_v a) {
    _mm256_storeu_si256((__m256i *)r, a.v[0]);
    _mm256_storeu_si256((__m256i *)(r + 4), a.v[1]);
    _mm256_storeu_si256((__m256i *)(r + 8), a.v[2]);
}

/* The carry round: each digit's bits from 52 up added one digit higher; with wrap, digit
 * 10's bits from bit 1 up (weight 2^521 = 1) added to digit 0, else digit 10 keeps them.
 * Digits below 2^60 in (digit 10 below 2^30 with wrap); out, digits 0..9 below 2^52 + 2^29
 * (at most one carry each). */
TABAI_INLINE p521_r52_v p521_r52_round(p521_r52_v a, int wrap) {
    const __m256i m = _mm256_set1_epi64x((long long)P521_R52_M), z = _mm256_setzero_si256();
    const __m256i m2 =
        _mm256_set_epi64x(0, wrap ? 1 : -1, (long long)P521_R52_M, (long long)P521_R52_M);
    const __m256i c0 = _mm256_srli_epi64(a.v[0], 52), c1 = _mm256_srli_epi64(a.v[1], 52);
    const __m256i c2 = wrap ? _mm256_srlv_epi64(a.v[2], _mm256_set_epi64x(64, 1, 52, 52))
                            : _mm256_srli_epi64(a.v[2], 52);
    const __m256i w = wrap ? _mm256_permutex_epi64(c2, 0x80) : z; /* lane 3: digit 10's */
    p521_r52_v r = {{_mm256_add_epi64(_mm256_and_si256(a.v[0], m), _mm256_alignr_epi64(c0, w, 3)),
                     _mm256_add_epi64(_mm256_and_si256(a.v[1], m), _mm256_alignr_epi64(c1, c0, 3)),
                     _mm256_add_epi64(_mm256_and_si256(a.v[2], m2),
                                      _mm256_maskz_alignr_epi64(0x7, c2, c1, 3))}};
    return r;
}

/* The carry lookahead, for digits 0..9 below 2^53 (at most one carry each): g = the digits
 * above 2^52 - 1 (a carry out), e = those equal to it (a carry passed on); the carries in
 * are ((g << 1) + e) ^ e (an integer addition propagates them), added, and digits 0..9
 * masked; digit 10 takes digit 9's carry. Out: normalized. */
TABAI_INLINE p521_r52_v p521_r52_lookahead(p521_r52_v a) {
    const __m256i m = _mm256_set1_epi64x((long long)P521_R52_M), one = _mm256_set1_epi64x(1);
    const __m256i m3 = _mm256_set_epi64x(0, -1, (long long)P521_R52_M, (long long)P521_R52_M);
    __m256i d0 = a.v[0], d1 = a.v[1], d2 = a.v[2];
    const unsigned g = _mm256_cmpgt_epu64_mask(d0, m) | (_mm256_cmpgt_epu64_mask(d1, m) << 4) |
                       (_mm256_mask_cmpgt_epu64_mask(3, d2, m) << 8);
    const unsigned e = _mm256_cmpeq_epu64_mask(d0, m) | (_mm256_cmpeq_epu64_mask(d1, m) << 4) |
                       (_mm256_mask_cmpeq_epu64_mask(3, d2, m) << 8);
    const unsigned ci = ((g << 1) + e) ^ e;
    d0 = _mm256_and_si256(_mm256_mask_add_epi64(d0, (__mmask8)ci, d0, one), m);
    d1 = _mm256_and_si256(_mm256_mask_add_epi64(d1, (__mmask8)(ci >> 4), d1, one), m);
    d2 = _mm256_and_si256(_mm256_mask_add_epi64(d2, (__mmask8)(ci >> 8), d2, one), m3);
    p521_r52_v r = {{d0, d1, d2}};
    return r;
}

/* digitwise x + k y (k = 1, 2) and x + k (D - y): the sums before their carries */
TABAI_INLINE p521_r52_v p521_r52_vadd(p521_r52_v x, p521_r52_v y) {
    p521_r52_v r = {{_mm256_add_epi64(x.v[0], y.v[0]), _mm256_add_epi64(x.v[1], y.v[1]),
                     _mm256_add_epi64(x.v[2], y.v[2])}};
    return r;
}
TABAI_INLINE p521_r52_v p521_r52_vdsub(p521_r52_v x, const uint64_t *y, int k) {
    const p521_r52_v d = p521_r52_load(P521_R52_D), b = p521_r52_load(y);
    __m256i t0 = _mm256_sub_epi64(d.v[0], b.v[0]), t1 = _mm256_sub_epi64(d.v[1], b.v[1]),
            t2 = _mm256_sub_epi64(d.v[2], b.v[2]);
    if (k == 2)
        t0 = _mm256_add_epi64(t0, t0), t1 = _mm256_add_epi64(t1, t1), t2 = _mm256_add_epi64(t2, t2);
    p521_r52_v r = {
        {_mm256_add_epi64(x.v[0], t0), _mm256_add_epi64(x.v[1], t1), _mm256_add_epi64(x.v[2], t2)}};
    return r;
}

/* the columns C_0..C_23 (c_k: columns 4 k .. 4 k + 3) of a product to a b 2^-572 mod p
 * before its carries: columns 11..21 as digits 0..10, 2 x columns 1..10 as digits 0..9,
 * 4 C_0 at digit 9 */
TABAI_INLINE p521_r52_v p521_r52_fold(__m256i c0, __m256i c1, __m256i c2, __m256i c3, __m256i c4,
                                      __m256i c5) {
    const __m256i z = _mm256_setzero_si256();
    const __m256i h0 = _mm256_alignr_epi64(c3, c2, 3), h1 = _mm256_alignr_epi64(c4, c3, 3),
                  h2 = _mm256_alignr_epi64(c5, c4, 3);
    const __m256i l0 = _mm256_alignr_epi64(c1, c0, 1), l1 = _mm256_alignr_epi64(c2, c1, 1),
                  l2 = _mm256_maskz_alignr_epi64(0x3, c2, c2, 1);
    const __m256i c00 = _mm256_slli_epi64(_mm256_maskz_permutexvar_epi64(0x2, z, c0), 1);
    p521_r52_v t = {
        {_mm256_add_epi64(h0, _mm256_add_epi64(l0, l0)),
         _mm256_add_epi64(h1, _mm256_add_epi64(l1, l1)),
         _mm256_maskz_add_epi64(0x7, h2, _mm256_slli_epi64(_mm256_add_epi64(l2, c00), 1))}};
    return t;
}

/* a b 2^-572 mod p before its carries (digits below 2^58.2, digit 10 zero), for a and b
 * normalized (digit 10 below 2^26) */
TABAI_INLINE p521_r52_v p521_r52_mul_raw(const uint64_t *a, const uint64_t *b) {
    const __m256i z = _mm256_setzero_si256();
    const __m256i a0 = _mm256_loadu_si256((const __m256i *)a),
                  a1 = _mm256_loadu_si256((const __m256i *)(a + 4)),
                  a2 = _mm256_loadu_si256((const __m256i *)(a + 8));
    __m256i e[7] = {z, z, z, z, z, z, z}, o[7] = {z, z, z, z, z, z, z}; /* even, odd i */
    __m256i A[4];
/* a shifted up S digits (S = 1..3), in four vectors */
#define P521_R52_SHIFT(S)                                                                          \
    A[0] = _mm256_alignr_epi64(a0, z, 4 - (S)), A[1] = _mm256_alignr_epi64(a1, a0, 4 - (S)),       \
    A[2] = _mm256_alignr_epi64(a2, a1, 4 - (S)), A[3] = _mm256_alignr_epi64(z, a2, 4 - (S))
/* b_i's low halves at column block q (i = s + 4 q) and its high halves at block q1
 * (i + 1 = s + 4 q1), both by the current shift s, whose A has n vectors */
#define P521_R52_LO(acc, i, q, n)                                                                  \
    EC_R52_BLOCK(_mm256_madd52lo_epu64, acc, A, n, q, _mm256_set1_epi64x((long long)b[i]), 6)
#define P521_R52_HI(acc, i, q, n)                                                                  \
    EC_R52_BLOCK(_mm256_madd52hi_epu64, acc, A, n, q, _mm256_set1_epi64x((long long)b[i]), 6)
    A[0] = a0, A[1] = a1, A[2] = a2, A[3] = z; /* s = 0 */
    P521_R52_LO(e, 0, 0, 3);
    P521_R52_LO(e, 4, 1, 3);
    P521_R52_LO(e, 8, 2, 3);
    P521_R52_HI(o, 3, 1, 3);
    P521_R52_HI(o, 7, 2, 3);
    P521_R52_SHIFT(1);
    P521_R52_LO(o, 1, 0, 3);
    P521_R52_LO(o, 5, 1, 3);
    P521_R52_LO(o, 9, 2, 3);
    P521_R52_HI(e, 0, 0, 3);
    P521_R52_HI(e, 4, 1, 3);
    P521_R52_HI(e, 8, 2, 3);
    P521_R52_SHIFT(2);
    P521_R52_LO(e, 2, 0, 4);
    P521_R52_LO(e, 6, 1, 4);
    P521_R52_LO(e, 10, 2, 4);
    P521_R52_HI(o, 1, 0, 4);
    P521_R52_HI(o, 5, 1, 4);
    P521_R52_HI(o, 9, 2, 4);
    P521_R52_SHIFT(3);
    P521_R52_LO(o, 3, 0, 4);
    P521_R52_LO(o, 7, 1, 4);
    P521_R52_HI(e, 2, 0, 4);
    P521_R52_HI(e, 6, 1, 4);
    P521_R52_HI(e, 10, 2, 4);
#undef P521_R52_SHIFT
#undef P521_R52_LO
#undef P521_R52_HI
    const __m256i c[6] = {_mm256_add_epi64(e[0], o[0]), _mm256_add_epi64(e[1], o[1]),
                          _mm256_add_epi64(e[2], o[2]), _mm256_add_epi64(e[3], o[3]),
                          _mm256_add_epi64(e[4], o[4]), _mm256_add_epi64(e[5], o[5])};
    return p521_r52_fold(c[0], c[1], c[2], c[3], c[4], c[5]);
}

/* a^2 2^-572 mod p before its carries, as p521_r52_mul_raw(a, a) but with the products
 * a_i a_j, i < j, once (masked vpmadd52 on the lanes of j > i; whole vectors of j <= i
 * skipped) and doubled, and the squares a_i^2 interleaved into their columns 2 i, 2 i + 1:
 * 46 vpmadd52 where the product takes 77 */
TABAI_INLINE p521_r52_v p521_r52_sqr_raw(const uint64_t *a) {
    const __m256i z = _mm256_setzero_si256();
    const __m256i a0 = _mm256_loadu_si256((const __m256i *)a),
                  a1 = _mm256_loadu_si256((const __m256i *)(a + 4)),
                  a2 = _mm256_loadu_si256((const __m256i *)(a + 8));
    __m256i e[7] = {z, z, z, z, z, z, z}, o[7] = {z, z, z, z, z, z, z};
    __m256i A[4];
#define P521_R52_SHIFT(S)                                                                          \
    A[0] = _mm256_alignr_epi64(a0, z, 4 - (S)), A[1] = _mm256_alignr_epi64(a1, a0, 4 - (S)),       \
    A[2] = _mm256_alignr_epi64(a2, a1, 4 - (S)), A[3] = _mm256_alignr_epi64(z, a2, 4 - (S))
/* the lanes t of A[m] (block q + m) with 4 (m - q) + t > k: those of j > i */
#define P521_R52_SQMASK(d, k)                                                                      \
    ((4 * (d) > (k)) | (4 * (d) + 1 > (k)) << 1 | (4 * (d) + 2 > (k)) << 2 |                       \
     (4 * (d) + 3 > (k)) << 3)
#define P521_R52_SQ1(fn, mfn, acc, m, n, q, b, k)                                                  \
    do {                                                                                           \
        const int mk_ = P521_R52_SQMASK((m) - (q), k);                                             \
        if ((m) < (n) && (q) + (m) < 6 && mk_ == 15) acc[(q) + (m)] = fn(acc[(q) + (m)], A[m], b); \
        else if ((m) < (n) && (q) + (m) < 6 && mk_)                                                \
            acc[(q) + (m)] = mfn(acc[(q) + (m)], (__mmask8)mk_, A[m], b);                          \
    } while (0)
#define P521_R52_SQBLOCK(fn, mfn, acc, n, q, b, k)                                                 \
    do {                                                                                           \
        const __m256i b_ = (b);                                                                    \
        P521_R52_SQ1(fn, mfn, acc, 0, n, q, b_, k);                                                \
        P521_R52_SQ1(fn, mfn, acc, 1, n, q, b_, k);                                                \
        P521_R52_SQ1(fn, mfn, acc, 2, n, q, b_, k);                                                \
        P521_R52_SQ1(fn, mfn, acc, 3, n, q, b_, k);                                                \
    } while (0)
/* a_i's low halves (i = s + 4 q, k = 2 s) and high halves (i + 1 = s + 4 q1, k = 2 s - 1) */
#define P521_R52_LO(acc, i, q, n, s)                                                               \
    P521_R52_SQBLOCK(_mm256_madd52lo_epu64, _mm256_mask_madd52lo_epu64, acc, n, q,                 \
                     _mm256_set1_epi64x((long long)a[i]), 2 * (s))
#define P521_R52_HI(acc, i, q, n, s)                                                               \
    P521_R52_SQBLOCK(_mm256_madd52hi_epu64, _mm256_mask_madd52hi_epu64, acc, n, q,                 \
                     _mm256_set1_epi64x((long long)a[i]), 2 * (s)-1)
    A[0] = a0, A[1] = a1, A[2] = a2, A[3] = z; /* s = 0 */
    P521_R52_LO(e, 0, 0, 3, 0);
    P521_R52_LO(e, 4, 1, 3, 0);
    P521_R52_LO(e, 8, 2, 3, 0);
    P521_R52_HI(o, 3, 1, 3, 0);
    P521_R52_HI(o, 7, 2, 3, 0);
    P521_R52_SHIFT(1);
    P521_R52_LO(o, 1, 0, 3, 1);
    P521_R52_LO(o, 5, 1, 3, 1);
    P521_R52_LO(o, 9, 2, 3, 1);
    P521_R52_HI(e, 0, 0, 3, 1);
    P521_R52_HI(e, 4, 1, 3, 1);
    P521_R52_HI(e, 8, 2, 3, 1);
    P521_R52_SHIFT(2);
    P521_R52_LO(e, 2, 0, 4, 2);
    P521_R52_LO(e, 6, 1, 4, 2);
    P521_R52_LO(e, 10, 2, 4, 2);
    P521_R52_HI(o, 1, 0, 4, 2);
    P521_R52_HI(o, 5, 1, 4, 2);
    P521_R52_HI(o, 9, 2, 4, 2);
    P521_R52_SHIFT(3);
    P521_R52_LO(o, 3, 0, 4, 3);
    P521_R52_LO(o, 7, 1, 4, 3);
    P521_R52_HI(e, 2, 0, 4, 3);
    P521_R52_HI(e, 6, 1, 4, 3);
    P521_R52_HI(e, 10, 2, 4, 3);
#undef P521_R52_SHIFT
#undef P521_R52_SQMASK
#undef P521_R52_SQ1
#undef P521_R52_SQBLOCK
#undef P521_R52_LO
#undef P521_R52_HI
    /* the squares: lo(a_i^2) at column 2 i, hi(a_i^2) at 2 i + 1 */
#define P521_R52_DIAG(v, av)                                                                       \
    const __m256i lo##v = _mm256_madd52lo_epu64(z, av, av),                                        \
                  hi##v = _mm256_madd52hi_epu64(z, av, av);                                        \
    const __m256i u##v = _mm256_unpacklo_epi64(lo##v, hi##v),                                      \
                  w##v = _mm256_unpackhi_epi64(lo##v, hi##v);                                      \
    const __m256i dl##v = _mm256_permute2x128_si256(u##v, w##v, 0x20),                             \
                  dh##v = _mm256_permute2x128_si256(u##v, w##v, 0x31)
    P521_R52_DIAG(0, a0);
    P521_R52_DIAG(1, a1);
    P521_R52_DIAG(2, a2);
#undef P521_R52_DIAG
#define P521_R52_COL(k, d) _mm256_add_epi64(_mm256_slli_epi64(_mm256_add_epi64(e[k], o[k]), 1), d)
    const __m256i c[6] = {P521_R52_COL(0, dl0), P521_R52_COL(1, dh0), P521_R52_COL(2, dl1),
                          P521_R52_COL(3, dh1), P521_R52_COL(4, dl2), P521_R52_COL(5, dh2)};
#undef P521_R52_COL
    return p521_r52_fold(c[0], c[1], c[2], c[3], c[4], c[5]);
}

/* r = a b 2^-572 mod p (normalized in and out, digit 10 below 2^26 in) */
TABAI_INLINE void p521_r52_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    p521_r52_store(r, p521_r52_lookahead(p521_r52_round(p521_r52_mul_raw(a, b), 0)));
}

/* r = a^2 2^-572 mod p */
TABAI_INLINE void p521_r52_sqr(uint64_t *r, const uint64_t *a) {
    p521_r52_store(r, p521_r52_lookahead(p521_r52_round(p521_r52_sqr_raw(a), 0)));
}

/* r = a b 2^-572 - c mod p: the product before its carries, plus D - c, one normalization */
TABAI_INLINE void p521_r52_mul_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                   const uint64_t *c) {
    const p521_r52_v t = p521_r52_vdsub(p521_r52_mul_raw(a, b), c, 1);
    p521_r52_store(r, p521_r52_lookahead(p521_r52_round(t, 1)));
}

/* r = a^2 2^-572 - 2 b mod p, the same way */
TABAI_INLINE void p521_r52_sqr_sub2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    const p521_r52_v t = p521_r52_vdsub(p521_r52_sqr_raw(a), b, 2);
    p521_r52_store(r, p521_r52_lookahead(p521_r52_round(t, 1)));
}

/* r = a + b mod p: digits 0..9 of the sum below 2^53, so the lookahead alone; digit 10 the
 * sum of the two and a carry (not folded: the point formulas add a few times in a row
 * between products and differences, far from the products' 2^26 and the differences'
 * 2^28 - 2; their outputs' digit 10 is below 2^8) */
TABAI_INLINE void p521_r52_add(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    p521_r52_store(r, p521_r52_lookahead(p521_r52_vadd(p521_r52_load(a), p521_r52_load(b))));
}

/* r = 3 a mod p: one carry round (no fold) and the lookahead */
TABAI_INLINE void p521_r52_triple(uint64_t *r, const uint64_t *a) {
    const p521_r52_v x = p521_r52_load(a);
    p521_r52_store(r, p521_r52_lookahead(p521_r52_round(p521_r52_vadd(p521_r52_vadd(x, x), x), 0)));
}

/* r = a - b mod p: a + 2^27 p - b, its carry round folding digit 10, the lookahead */
TABAI_INLINE void p521_r52_sub(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    p521_r52_store(r,
                   p521_r52_lookahead(p521_r52_round(p521_r52_vdsub(p521_r52_load(a), b, 1), 1)));
}

/* r = 2 (a - b) mod p, the same way */
TABAI_INLINE void p521_r52_sub2x(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    const p521_r52_v x = p521_r52_load(a);
    p521_r52_store(
        r, p521_r52_lookahead(p521_r52_round(p521_r52_vdsub(p521_r52_vadd(x, x), b, 2), 1)));
}

TABAI_INLINE void p521_r52_half(uint64_t *r, const uint64_t *a) {
    const __m256i z = _mm256_setzero_si256(), one = _mm256_set1_epi64x(1);
    p521_r52_v x = p521_r52_load(a);
    const __m256i b0 = _mm256_and_si256(x.v[0], one), b1 = _mm256_and_si256(x.v[1], one),
                  b2 = _mm256_and_si256(x.v[2], one);
    /* digit j takes digit j + 1's low bit at bit 51 (digit 10: none) */
    const __m256i n0 = _mm256_slli_epi64(_mm256_alignr_epi64(b1, b0, 1), 51),
                  n1 = _mm256_slli_epi64(_mm256_alignr_epi64(b2, b1, 1), 51),
                  n2 = _mm256_slli_epi64(_mm256_maskz_alignr_epi64(0x3, z, b2, 1), 51);
    __m256i r2 = _mm256_or_si256(_mm256_srli_epi64(x.v[2], 1), n2);
    r2 = _mm256_mask_add_epi64(r2, 4, r2, _mm256_permutex_epi64(b0, 0)); /* digit 10 += a_0 mod 2 */
    p521_r52_v t = {{_mm256_or_si256(_mm256_srli_epi64(x.v[0], 1), n0),
                     _mm256_or_si256(_mm256_srli_epi64(x.v[1], 1), n1), r2}};
    p521_r52_store(r, t);
}

/* w[9] = the canonical a mod p (a normalized), in 64-bit words */
TABAI_INLINE void p521_r52_to_words_raw(uint64_t *w, const uint64_t *a) {
    uint64_t t[10] = {0};
    for (int i = 0; i < 11; i++) { /* digit i at bit 52 i; the digits' bits do not overlap */
        const unsigned bit = 52u * (unsigned)i, wi = bit / 64, sh = bit % 64;
        t[wi] |= a[i] << sh;
        if (sh > 12) t[wi + 1] |= a[i] >> (64 - sh);
    }
    /* fold at bit 521 (value below 2^528): t = (t mod 2^521) + (t >> 521) */
    uint64_t cy = t[8] >> 9;
    t[8] &= 0x1ff;
    for (int i = 0; i < 9; i++) {
        const uint64_t s = t[i] + cy;
        cy = s < cy;
        t[i] = s;
    }
    /* now below 2^521 + 2^7: p subtracted when t + 1 reaches 2^521 */
    uint64_t u[9];
    cy = 1;
    for (int i = 0; i < 9; i++) {
        const uint64_t s = t[i] + cy;
        cy = s < cy;
        u[i] = s;
    }
    const uint64_t ge = 0 - (u[8] >> 9); /* t >= p */
    u[8] &= 0x1ff;
    for (int i = 0; i < 9; i++) w[i] = (u[i] & ge) | (t[i] & ~ge);
}

/* bits [off, off + 52) of w[10] (w[9] zero) */
TABAI_INLINE uint64_t p521_r52_bits(const uint64_t *w, unsigned off) {
    const unsigned wi = off / 64, sh = off % 64;
    uint64_t v = w[wi] >> sh;
    if (sh > 12) v |= w[wi + 1] << (64 - sh);
    return v & P521_R52_M;
}

/* r = a in the product's form, a 2^51 mod p, for a[9] < p in 64-bit words (r may alias a):
 * a rotation of the 521 bits by 51 (2^521 = 1), cut into digits: digit 0 is a's bits
 * 470..520 and bit 0 above them, digit i = 1..9 its bits 52 i - 51 .., digit 10 its bit 469 */
TABAI_INLINE void p521_r52_from_words(uint64_t *r, const uint64_t *a) {
    uint64_t w[10];
    memcpy(w, a, 9 * sizeof *w);
    w[9] = 0;
    uint64_t d[12];
    d[0] = (w[7] >> 22 | w[8] << 42) & ((UINT64_C(1) << 51) - 1); /* bits 470..520 */
    d[0] |= (w[0] & 1) << 51;
    for (unsigned i = 1; i < 10; i++) d[i] = p521_r52_bits(w, 52 * i - 51);
    d[10] = (w[7] >> 21) & 1; /* bit 469 */
    d[11] = 0;
    memcpy(r, d, sizeof d);
}

/* r[9] = a back in 64-bit words below p (r may alias a): a mod p, rotated back by 51 bits
 * (a 2^-51 = a 2^470 mod p) */
TABAI_INLINE void p521_r52_to_words(uint64_t *r, const uint64_t *a) {
    uint64_t t[9], u[9];
    p521_r52_to_words_raw(t, a); /* below p: a 521-bit string, not all ones */
    /* u = t >> 51 | (t mod 2^51) << 470 */
    for (int i = 0; i < 9; i++) {
        const unsigned lo = 51 + 64u * (unsigned)i; /* u's word i from t's bits lo .. lo + 63 */
        const unsigned wi = lo / 64, sh = lo % 64;
        uint64_t v = wi < 9 ? t[wi] >> sh : 0;
        if (wi + 1 < 9 && sh) v |= t[wi + 1] << (64 - sh);
        u[i] = v;
    }
    /* t's bits 51 .. 520 fill u's bits 0 .. 469; its bits 0 .. 50 go to 470 .. 520 */
    u[7] = (u[7] & ((UINT64_C(1) << 22) - 1)) | (t[0] << 22);
    u[8] = (t[0] >> 42) & ((UINT64_C(1) << 9) - 1);
    memcpy(r, u, sizeof u);
}

/* 1 if a = 0 mod p (constant time) */
TABAI_INLINE int p521_r52_is_zero(const uint64_t *a) {
    uint64_t w[9], acc = 0;
    p521_r52_to_words_raw(w, a);
    for (int i = 0; i < 9; i++) acc |= w[i];
    return (int)((1 & ((acc | (0 - acc)) >> 63)) ^ 1);
}

#endif
