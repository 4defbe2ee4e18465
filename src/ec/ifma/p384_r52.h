/* P-384's field in eight digits of radix 2^52 on AVX-512 IFMA (ymm, two vectors: digits
 * 0-3, 4-7; built only in this folder, with -mavx512f -mavx512vl -mavx512ifma). An element
 * is eight words x[8], sum x_i 2^(52 i), plain (not Montgomery); "normalized": digits 0..6
 * below 2^52, digit 7 below 2^51 (from a product, a difference or a halving below 2^21, a sum
 * adding its inputs' and a carry), congruent to the element. Every operation takes and gives
 * normalized elements; r may alias the inputs. Constant time: no branch or address depends on
 * values.
 *
 * Product: the columns C_0..C_15 of a b by vpmadd52luq / vpmadd52huq on a copy of a shifted
 * by s = 0..3 digits (as p521_r52.h), then Solinas' reduction by p = 2^384 - c,
 * c = 2^128 + 2^96 - 2^32 + 1, in radix 2^52: 2^416 = 2^32 c = 2^160 + 2^128 - 2^64 + 2^32
 * mod p, so a column x at digit 8 + j comes back as x 2^32 at digit j, x 2^12 taken away at
 * j + 1, x 2^24 at j + 2 and x 2^4 at j + 3, each shift cut into two digits ((x << k) mod
 * 2^52 and x >> (52 - k), arithmetic: exact for any signed 64-bit x); twice (columns 8..15,
 * then the digits 8..11 that gives), 2^36 p added in digits above every negative sum
 * (P384_R52_D2), then the carries: a round whose digit 7 keeps its low 20 bits and sends
 * the rest (weight 2^384) back as a multiple of c by vpmadd52 (c's digits), and a lookahead
 * on digits 0..6 as in p521_r52.h. Bounds: a column below 2^56; every digit before the
 * carries below 2^57 and, with D2, not negative; the top before c's multiple below 2^38.
 * Sums: the lookahead alone (digits below 2^53); differences: a + 2^14 p - b in digits
 * above every subtrahend's (P384_R52_D, digit 7 about 2^34), then the same carries. */
#ifndef TABAI_EC_P384_R52_H
#define TABAI_EC_P384_R52_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "../../internal.h"
#include "r52_field.h"

#define P384_R52_M ((UINT64_C(1) << 52) - 1)

/* constants in digits (tools: the script of src/ec/README.md's "P-384 at tier ifma") */
static const uint64_t P384_R52_ONE[8] = {1};
static const uint64_t P384_R52_C[8] = {0xfffff00000001u, 0xfffffffffffu, 0x1000000u}; /* c */
static const uint64_t P384_R52_P[8] = {0xffffffffu,      0xff00000000000u, 0xffffffeffffffu,
                                       0xfffffffffffffu, 0xfffffffffffffu, 0xfffffffffffffu,
                                       0xfffffffffffffu, 0xfffffu};
/* 2^-384 mod p: FE_IN's factor (the context's x 2^384 to x) */
static const uint64_t P384_R52_RINV[8] = {
    0xfffe100000006u, 0xebffffffd8fffu, 0xffffffdffffffu, 0xfffafffffffbfu,
    0x2fffffffcffffu, 0xc0000000u,      0x140000001400u,  0};
/* 2^14 p with digits 0..6 in [2^52, 2^53) and digit 7 about 2^34 (a - b + D >= 0) */
static const uint64_t P384_R52_D[8] = {0x103fffffffc000u, 0x1fffffffffffffu, 0x1fffbfffffffbeu,
                                       0x1ffffffffffffeu, 0x1ffffffffffffeu, 0x1ffffffffffffeu,
                                       0x1ffffffffffffeu, 0x3fffffffeu};
/* 2^36 p with digits 0..6 in [2^54, 2^54 + 2^52) and digit 7 about 2^56 (the folds' sums) */
static const uint64_t P384_R52_D2[8] = {0x4ffff000000000u, 0x4000000000fffbu, 0x4fffffeffffffcu,
                                        0x4ffffffffffefbu, 0x4ffffffffffffbu, 0x4ffffffffffffbu,
                                        0x4ffffffffffffbu, 0xfffffffffffffbu};

typedef struct {
    __m256i v[2];
} p384_r52_v;

TABAI_INLINE p384_r52_v p384_r52_load(const uint64_t *a) {
    p384_r52_v r = {
        {_mm256_loadu_si256((const __m256i *)a), _mm256_loadu_si256((const __m256i *)(a + 4))}};
    return r;
}

TABAI_INLINE void p384_r52_store(uint64_t *r, p384_r52_v a) {
    _mm256_storeu_si256((__m256i *)r, a.v[0]);
    _mm256_storeu_si256((__m256i *)(r + 4), a.v[1]);
}

TABAI_INLINE p384_r52_v p384_r52_vadd(p384_r52_v x, p384_r52_v y) {
    p384_r52_v r = {{_mm256_add_epi64(x.v[0], y.v[0]), _mm256_add_epi64(x.v[1], y.v[1])}};
    return r;
}

/* x + k (d - y) digitwise (k = 1, 2), d a constant */
TABAI_INLINE p384_r52_v p384_r52_vdsub(p384_r52_v x, const uint64_t *dc, const uint64_t *y, int k) {
    const p384_r52_v d = p384_r52_load(dc), b = p384_r52_load(y);
    __m256i t0 = _mm256_sub_epi64(d.v[0], b.v[0]), t1 = _mm256_sub_epi64(d.v[1], b.v[1]);
    if (k == 2) t0 = _mm256_add_epi64(t0, t0), t1 = _mm256_add_epi64(t1, t1);
    p384_r52_v r = {{_mm256_add_epi64(x.v[0], t0), _mm256_add_epi64(x.v[1], t1)}};
    return r;
}

/* The carry round, digits below 2^60 and not negative: with fold, digit 7's bits from 20 up
 * (top, weight 2^384, below 2^40) come back first as top c (vpmadd52 on c's three digits:
 * digits 0..3 grow by below 2^52 + 2^40), then digits 0..6's bits from 52 up go one digit
 * higher; without, digit 7 keeps its bits (a lazy result, a product's factor only). Out:
 * digits 0..6 below 2^52 + 2^8 (one carry each at most), digit 7 below 2^21 with fold. */
TABAI_INLINE p384_r52_v p384_r52_round(p384_r52_v a, int fold) {
    const __m256i m = _mm256_set1_epi64x((long long)P384_R52_M), z = _mm256_setzero_si256();
    __m256i x0 = a.v[0], x1 = a.v[1];
    if (fold) {
        const __m256i top = _mm256_permutex_epi64(_mm256_srli_epi64(a.v[1], 20), 0xff);
        const p384_r52_v cc = p384_r52_load(P384_R52_C);
        const __m256i lo = _mm256_madd52lo_epu64(z, top, cc.v[0]); /* c's digits 0..2 */
        const __m256i hi = _mm256_madd52hi_epu64(z, top, cc.v[0]); /* one digit up */
        x0 = _mm256_add_epi64(x0, _mm256_add_epi64(lo, _mm256_alignr_epi64(hi, z, 3)));
        x1 = _mm256_and_si256(x1, _mm256_set_epi64x((1 << 20) - 1, -1, -1, -1)); /* low 20 bits */
    }
    const __m256i c0 = _mm256_srli_epi64(x0, 52), c1 = _mm256_srli_epi64(x1, 52);
    const __m256i m1 =
        _mm256_set_epi64x(-1, (long long)P384_R52_M, (long long)P384_R52_M, (long long)P384_R52_M);
    p384_r52_v r = {{_mm256_add_epi64(_mm256_and_si256(x0, m), _mm256_alignr_epi64(c0, z, 3)),
                     _mm256_add_epi64(_mm256_and_si256(x1, m1), _mm256_alignr_epi64(c1, c0, 3))}};
    return r;
}

/* The carry lookahead, digits 0..6 below 2^53: g = those above 2^52 - 1, e = those equal to
 * it; the carries in ((g << 1) + e) ^ e, added, digits 0..6 masked; digit 7 takes digit 6's
 * carry. Out: normalized. */
TABAI_INLINE p384_r52_v p384_r52_lookahead(p384_r52_v a) {
    const __m256i m = _mm256_set1_epi64x((long long)P384_R52_M), one = _mm256_set1_epi64x(1);
    const __m256i m1 =
        _mm256_set_epi64x(-1, (long long)P384_R52_M, (long long)P384_R52_M, (long long)P384_R52_M);
    __m256i d0 = a.v[0], d1 = a.v[1];
    const unsigned g =
        _mm256_cmpgt_epu64_mask(d0, m) | (_mm256_mask_cmpgt_epu64_mask(7, d1, m) << 4);
    const unsigned e =
        _mm256_cmpeq_epu64_mask(d0, m) | (_mm256_mask_cmpeq_epu64_mask(7, d1, m) << 4);
    const unsigned ci = ((g << 1) + e) ^ e;
    d0 = _mm256_and_si256(_mm256_mask_add_epi64(d0, (__mmask8)ci, d0, one), m);
    d1 = _mm256_and_si256(_mm256_mask_add_epi64(d1, (__mmask8)(ci >> 4), d1, one), m1);
    p384_r52_v r = {{d0, d1}};
    return r;
}

/* the fold terms of x (columns or digits at 8 + j, signed): by the digit offset 0..4 of
 * 2^416 = 2^160 + 2^128 - 2^64 + 2^32 mod p, each shift cut in two */
#define P384_R52_TERMS(x, o0, o1, o2, o3, o4)                                                      \
    const __m256i o0 = _mm256_and_si256(_mm256_slli_epi64(x, 32), m);                              \
    const __m256i o1 =                                                                             \
        _mm256_sub_epi64(_mm256_srai_epi64(x, 20), _mm256_and_si256(_mm256_slli_epi64(x, 12), m)); \
    const __m256i o2 =                                                                             \
        _mm256_sub_epi64(_mm256_and_si256(_mm256_slli_epi64(x, 24), m), _mm256_srai_epi64(x, 40)); \
    const __m256i o3 =                                                                             \
        _mm256_add_epi64(_mm256_srai_epi64(x, 28), _mm256_and_si256(_mm256_slli_epi64(x, 4), m));  \
    const __m256i o4 = _mm256_srai_epi64(x, 48)

/* The columns (c0..c3: columns 4 k .. 4 k + 3) of a product reduced to digits 0..7 below
 * 2^57, not negative, before the carries: two folds and D2 */
TABAI_INLINE p384_r52_v p384_r52_reduce(__m256i c0, __m256i c1, __m256i c2, __m256i c3) {
    const __m256i m = _mm256_set1_epi64x((long long)P384_R52_M), z = _mm256_setzero_si256();
    /* fold 1: columns 8..11 (c2) and 12..15 (c3) into digits 0..11 */
    P384_R52_TERMS(c2, a0, a1, a2, a3, a4);
    P384_R52_TERMS(c3, b0, b1, b2, b3, b4);
    /* offset k: (a, b) moved up k digits into three vectors */
    const __m256i s0 = _mm256_add_epi64(
        _mm256_add_epi64(_mm256_add_epi64(c0, a0), _mm256_alignr_epi64(a1, z, 3)),
        _mm256_add_epi64(_mm256_alignr_epi64(a2, z, 2), _mm256_alignr_epi64(a3, z, 1)));
    const __m256i s1 = _mm256_add_epi64(
        _mm256_add_epi64(_mm256_add_epi64(c1, b0), _mm256_alignr_epi64(b1, a1, 3)),
        _mm256_add_epi64(
            _mm256_add_epi64(_mm256_alignr_epi64(b2, a2, 2), _mm256_alignr_epi64(b3, a3, 1)), a4));
    const __m256i s2 = _mm256_add_epi64(
        _mm256_add_epi64(_mm256_alignr_epi64(z, b1, 3), _mm256_alignr_epi64(z, b2, 2)),
        _mm256_add_epi64(_mm256_alignr_epi64(z, b3, 1), b4));
    /* fold 2: digits 8..11 (s2) into digits 0..7 */
    P384_R52_TERMS(s2, e0, e1, e2, e3, e4);
    const p384_r52_v d2 = p384_r52_load(P384_R52_D2);
    const __m256i t0 =
        _mm256_add_epi64(_mm256_add_epi64(_mm256_add_epi64(s0, e0), _mm256_alignr_epi64(e1, z, 3)),
                         _mm256_add_epi64(_mm256_add_epi64(_mm256_alignr_epi64(e2, z, 2),
                                                           _mm256_alignr_epi64(e3, z, 1)),
                                          d2.v[0]));
    const __m256i t1 =
        _mm256_add_epi64(_mm256_add_epi64(_mm256_add_epi64(s1, e4), _mm256_alignr_epi64(z, e1, 3)),
                         _mm256_add_epi64(_mm256_add_epi64(_mm256_alignr_epi64(z, e2, 2),
                                                           _mm256_alignr_epi64(z, e3, 1)),
                                          d2.v[1]));
    p384_r52_v t = {{t0, t1}};
    return t;
}
#undef P384_R52_TERMS

/* a b mod p before its carries (digits 0..7 below 2^57, not negative), a and b normalized */
TABAI_INLINE p384_r52_v p384_r52_mul_raw(const uint64_t *a, const uint64_t *b) {
    const __m256i z = _mm256_setzero_si256();
    const __m256i a0 = _mm256_loadu_si256((const __m256i *)a),
                  a1 = _mm256_loadu_si256((const __m256i *)(a + 4));
    __m256i e[6] = {z, z, z, z, z, z}, o[6] = {z, z, z, z, z, z}; /* even, odd i */
    __m256i A[4]; /* A[3] is zero: two vectors of a, shifted, fill three */
/* a shifted up S digits (S = 1..3), in three vectors */
#define P384_R52_SHIFT(S)                                                                          \
    A[0] = _mm256_alignr_epi64(a0, z, 4 - (S)), A[1] = _mm256_alignr_epi64(a1, a0, 4 - (S)),       \
    A[2] = _mm256_alignr_epi64(z, a1, 4 - (S))
/* b_i's low halves at block q (i = s + 4 q), its high halves at block q1 (i + 1 = s + 4 q1) */
#define P384_R52_LO(acc, i, q, n)                                                                  \
    EC_R52_BLOCK(_mm256_madd52lo_epu64, acc, A, n, q, _mm256_set1_epi64x((long long)b[i]), 4)
#define P384_R52_HI(acc, i, q, n)                                                                  \
    EC_R52_BLOCK(_mm256_madd52hi_epu64, acc, A, n, q, _mm256_set1_epi64x((long long)b[i]), 4)
    A[0] = a0, A[1] = a1, A[2] = A[3] = z; /* s = 0 */
    P384_R52_LO(e, 0, 0, 2);
    P384_R52_LO(e, 4, 1, 2);
    P384_R52_HI(o, 3, 1, 2);
    P384_R52_HI(o, 7, 2, 2);
    P384_R52_SHIFT(1);
    P384_R52_LO(o, 1, 0, 3);
    P384_R52_LO(o, 5, 1, 3);
    P384_R52_HI(e, 0, 0, 3);
    P384_R52_HI(e, 4, 1, 3);
    P384_R52_SHIFT(2);
    P384_R52_LO(e, 2, 0, 3);
    P384_R52_LO(e, 6, 1, 3);
    P384_R52_HI(o, 1, 0, 3);
    P384_R52_HI(o, 5, 1, 3);
    P384_R52_SHIFT(3);
    P384_R52_LO(o, 3, 0, 3);
    P384_R52_LO(o, 7, 1, 3);
    P384_R52_HI(e, 2, 0, 3);
    P384_R52_HI(e, 6, 1, 3);
#undef P384_R52_SHIFT
#undef P384_R52_LO
#undef P384_R52_HI
    return p384_r52_reduce(_mm256_add_epi64(e[0], o[0]), _mm256_add_epi64(e[1], o[1]),
                           _mm256_add_epi64(e[2], o[2]), _mm256_add_epi64(e[3], o[3]));
}

/* r = a b mod p */
TABAI_INLINE void p384_r52_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    p384_r52_store(r, p384_r52_lookahead(p384_r52_round(p384_r52_mul_raw(a, b), 1)));
}

/* r = a^2 mod p */
TABAI_INLINE void p384_r52_sqr(uint64_t *r, const uint64_t *a) { p384_r52_mul(r, a, a); }

/* r = a b - c mod p: the product before its carries plus D - c, one normalization */
TABAI_INLINE void p384_r52_mul_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                   const uint64_t *c) {
    const p384_r52_v t = p384_r52_vdsub(p384_r52_mul_raw(a, b), P384_R52_D, c, 1);
    p384_r52_store(r, p384_r52_lookahead(p384_r52_round(t, 1)));
}

/* r = a^2 - 2 b mod p, the same way */
TABAI_INLINE void p384_r52_sqr_sub2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    const p384_r52_v t = p384_r52_vdsub(p384_r52_mul_raw(a, a), P384_R52_D, b, 2);
    p384_r52_store(r, p384_r52_lookahead(p384_r52_round(t, 1)));
}

/* r = a + b mod p: digits 0..6 of the sum below 2^53, the lookahead alone; digit 7 the sum
 * of the two and a carry (the formulas add a few times in a row between products and
 * differences, far from 2^51) */
TABAI_INLINE void p384_r52_add(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    p384_r52_store(r, p384_r52_lookahead(p384_r52_vadd(p384_r52_load(a), p384_r52_load(b))));
}

/* r = 3 a mod p, digit 7 not folded (3 alpha: a product's factor only) */
TABAI_INLINE void p384_r52_triple(uint64_t *r, const uint64_t *a) {
    const p384_r52_v x = p384_r52_load(a);
    p384_r52_store(r, p384_r52_lookahead(p384_r52_round(p384_r52_vadd(p384_r52_vadd(x, x), x), 0)));
}

/* r = a - b mod p: a + D - b (b's digit 7 below 2^33) */
TABAI_INLINE void p384_r52_sub(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    p384_r52_store(r, p384_r52_lookahead(
                          p384_r52_round(p384_r52_vdsub(p384_r52_load(a), P384_R52_D, b, 1), 1)));
}

/* the same with digit 7 not folded (below 2^36): for a product's factor only (FE_SUB_LAZY) */
TABAI_INLINE void p384_r52_sub_lazy(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    p384_r52_store(r, p384_r52_lookahead(
                          p384_r52_round(p384_r52_vdsub(p384_r52_load(a), P384_R52_D, b, 1), 0)));
}

/* r = 2 (a - b) mod p, digit 7 not folded (2 (fb - X3): a product's factor only) */
TABAI_INLINE void p384_r52_sub2x(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    const p384_r52_v x = p384_r52_load(a);
    p384_r52_store(r, p384_r52_lookahead(p384_r52_round(
                          p384_r52_vdsub(p384_r52_vadd(x, x), P384_R52_D, b, 2), 0)));
}

/* r = a / 2 mod p: a + p under a's low bit, its carries, then every digit shifted down a
 * bit with the next digit's low bit at bit 51 */
TABAI_INLINE void p384_r52_half(uint64_t *r, const uint64_t *a) {
    const __m256i z = _mm256_setzero_si256(), one = _mm256_set1_epi64x(1);
    p384_r52_v x = p384_r52_load(a);
    const __m256i odd =
        _mm256_sub_epi64(z, _mm256_and_si256(_mm256_permutex_epi64(x.v[0], 0), one));
    const p384_r52_v pp = p384_r52_load(P384_R52_P);
    x.v[0] = _mm256_add_epi64(x.v[0], _mm256_and_si256(pp.v[0], odd));
    x.v[1] = _mm256_add_epi64(x.v[1], _mm256_and_si256(pp.v[1], odd));
    x = p384_r52_lookahead(x);
    const __m256i b0 = _mm256_and_si256(x.v[0], one), b1 = _mm256_and_si256(x.v[1], one);
    const __m256i n0 = _mm256_slli_epi64(_mm256_alignr_epi64(b1, b0, 1), 51),
                  n1 = _mm256_slli_epi64(_mm256_maskz_alignr_epi64(0x7, z, b1, 1), 51);
    p384_r52_v t = {{_mm256_or_si256(_mm256_srli_epi64(x.v[0], 1), n0),
                     _mm256_or_si256(_mm256_srli_epi64(x.v[1], 1), n1)}};
    p384_r52_store(r, t);
}

/* w[6] = the canonical a mod p (a normalized, below 2^403), in 64-bit words */
TABAI_INLINE void p384_r52_to_words_raw(uint64_t *w, const uint64_t *a) {
    uint64_t t[8] = {0};
    for (int i = 0; i < 8; i++) { /* digit i at bit 52 i; bits do not overlap (digit 7 < 2^51) */
        const unsigned bit = 52u * (unsigned)i, wi = bit / 64, sh = bit % 64;
        t[wi] |= a[i] << sh;
        if (sh > 12) t[wi + 1] |= a[i] >> (64 - sh);
    }
    /* t below 2^415: fold at bit 384 twice, t = (t mod 2^384) + (t >> 384) c, c = 2^128 +
     * 2^96 - 2^32 + 1 (words 0xffffffff00000001, 0xffffffff, 1), then subtract p under the
     * borrow's mask */
    for (int round = 0; round < 2; round++) {
        const uint64_t h = t[6] | 0; /* t >> 384 is t[6] (and t[7] = 0 after the first) */
        const uint64_t hh = t[7];
        t[6] = t[7] = 0;
        tabai_u128 acc = (tabai_u128)h * 0xffffffff00000001u + t[0];
        t[0] = (uint64_t)acc, acc >>= 64;
        acc += (tabai_u128)h * 0xffffffffu + (tabai_u128)hh * 0xffffffff00000001u + t[1];
        t[1] = (uint64_t)acc, acc >>= 64;
        acc += (tabai_u128)h + (tabai_u128)hh * 0xffffffffu + t[2];
        t[2] = (uint64_t)acc, acc >>= 64;
        acc += (tabai_u128)hh + t[3];
        t[3] = (uint64_t)acc, acc >>= 64;
        for (int i = 4; i < 7; i++) {
            acc += t[i];
            t[i] = (uint64_t)acc, acc >>= 64;
        }
    }
    /* t below 2^384 + 2^130 < 2p: one conditional subtraction (t[6] the carry bit) */
    static const uint64_t P[6] = {0x00000000ffffffffu, 0xffffffff00000000u, 0xfffffffffffffffeu,
                                  ~UINT64_C(0),        ~UINT64_C(0),        ~UINT64_C(0)};
    uint64_t u[6], bw = 0;
    for (int i = 0; i < 6; i++) {
        const tabai_u128 d = (tabai_u128)t[i] - P[i] - bw;
        u[i] = (uint64_t)d;
        bw = (uint64_t)(d >> 64) & 1;
    }
    const uint64_t keep = 0 - (uint64_t)(bw > t[6]); /* t < p: borrow out and no carry bit */
    for (int i = 0; i < 6; i++) w[i] = (t[i] & keep) | (u[i] & ~keep);
}

/* r = a 2^-384 mod p (normalized) for a[6] in 64-bit words (the context's Montgomery form,
 * x 2^384); r may alias a */
TABAI_INLINE void p384_r52_from_words(uint64_t *r, const uint64_t *a) {
    uint64_t w[7] = {0}, d[8];
    memcpy(w, a, 6 * sizeof *w);
    for (unsigned i = 0; i < 8; i++) {
        const unsigned bit = 52 * i, wi = bit / 64, sh = bit % 64;
        uint64_t v = w[wi] >> sh;
        if (sh > 12) v |= w[wi + 1] << (64 - sh);
        d[i] = v & P384_R52_M;
    }
    p384_r52_mul(r, d, P384_R52_RINV);
}

/* r[6] = a 2^384 mod p below p (the context's form); r may alias a */
TABAI_INLINE void p384_r52_to_words(uint64_t *r, const uint64_t *a) {
    uint64_t t[8];
    p384_r52_mul(t, a, P384_R52_C); /* 2^384 = c mod p */
    p384_r52_to_words_raw(r, t);
}

/* 1 if a = 0 mod p (constant time) */
TABAI_INLINE int p384_r52_is_zero(const uint64_t *a) {
    uint64_t w[6], acc = 0;
    p384_r52_to_words_raw(w, a);
    for (int i = 0; i < 6; i++) acc |= w[i];
    return (int)((1 & ((acc | (0 - acc)) >> 63)) ^ 1);
}

#endif
