/* Multi-buffer Montgomery multiplication in radix 2^32 with AVX-512F/VL vpmuludq: the
 * 32-bit baseline of seed 001, against which the IFMA kernels (src/ifma) are measured.
 * One independent multiplication per 64-bit lane, 8 lanes in a zmm (mb8) or 4 in a ymm
 * (mb4); digits < 2^32 stored in 64-bit lanes (layout of src/mb/mb.h). Compiled with
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
 * and the carry c from the previous column enters last. The true sum of the low halves is
 * recovered exactly once per column: U = c + sum lo(x) = S - (H << 32) + c (mod 2^64), exact
 * because c + sum lo(x) < 2^64 (bound below). The column value is U + H * B, its digit
 * U mod B, and the carry to the next column c' = (U >> 32) + H. This saves the vpandq per
 * product of the split lo/hi accumulation: 4 vector instructions per product (vpmuludq,
 * vpsrlq, 2 vpaddq) instead of 5, so 8 per digit pair (a_i b_j and q_i p_j).
 *
 * Two columns per pass: a_i and q_i are loaded once for the products of columns m and m + 1
 * (b and p digits are memory operands of vpmuludq), one asm statement per row (row2, see
 * there). Per digit pair: 8 vector ALU instructions, 1.5 loads, and the loop's scalar
 * overhead; the 4 vector ALU pipes of Zen 4 (vpmuludq and vpsrlq each on two of them, zmm
 * taking two slots) bound it at 2 cycles per digit pair per ymm, 4 per zmm: 0.5 cycles per
 * digit pair per lane for both widths. The squaring does each off-diagonal product once
 * into doubled accumulators (mont_sqr_body): 1.5 d^2 + d/2 products instead of 2 d^2.
 *
 * Bound: column m has n_m <= 2d products (a_i b_j and q_i p_j, i + j = m, i, j < d; in the
 * squaring a doubled off-diagonal product counts as two), each lo <= B - 1 and hi <= B - 2.
 * If c <= 2d * B then U <= c + 2d(B - 1) < 4d * B, and c' = (U >> 32) + H
 * < 4d + 2d(B - 2) <= 2d * B. By induction every carry is <= 2d * B
 * <= 2^40 and every U < 4d * B <= 2^41 for d <= 128: far below 2^64, so U is exact.
 *
 * End: T = (a b + q p) / R < 2p (a, b < p); its d digits come out of the columns
 * normalised, with the carry out of the last column c_top in {0, 1}. T - p is computed by
 * a borrow chain alongside (digit m - d as soon as it is known), and r = T or T - p chosen
 * per lane by a mask from vpcmpuq (T - p iff c_top >= borrow), then a masked vpandq: no
 * branch. Loops run over the public d only; no address depends on the operands.
 *
 * Aliasing: column m reads a_i, b_j for i, j > m - d only and writes digit m - d of r, so
 * r may be a and/or b. */
#ifndef TABAI_AVX512_TEMPLATE

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../cpu/mbtypes.h"
#include "../internal.h"

#define M32 0xFFFFFFFFULL

#define TABAI_AVX512_TEMPLATE 1
#define TABAI_VEC_BITS 512
#include "../vec.h"
#define SFX(x) x##_zmm
#define UNROLL
#include "mont_avx512.c"
#undef SFX
#undef UNROLL
#define SFX(x) x##_zmm_u
#define UNROLL _Pragma("GCC unroll 32")
#include "mont_avx512.c"
#undef SFX
#undef UNROLL
#undef TABAI_VEC_BITS
#define TABAI_VEC_BITS 256
#include "../vec.h"
#define SFX(x) x##_ymm
#define UNROLL
#include "mont_avx512.c"
#undef SFX
#undef UNROLL
#define SFX(x) x##_ymm_u
#define UNROLL _Pragma("GCC unroll 32")
#include "mont_avx512.c"
#undef SFX
#undef UNROLL

/* d is public: 256 and 384 bits (d = 8, 12) get a body with every loop unrolled (the _u
 * instances; 6-9% faster there), the other sizes the rolled body. */
#define BY_D(body, w, ...)                                                                     \
    do {                                                                                       \
        if (d == 8) body##_##w##_u(__VA_ARGS__, 8);                                            \
        else if (d == 12) body##_##w##_u(__VA_ARGS__, 12);                                     \
        else body##_##w(__VA_ARGS__, d);                                                       \
    } while (0)

/* The documented preconditions, checked in TABAI_VERIFY builds (src/cpu/mbtypes.h). */
#define VERIFY(r, a, b, p, k0, d, L) TABAI_MB_VERIFY(r, a, b, p, k0, d, L, 32)

void tabai_mont_mul_r32n_mb8_avx512(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *p, const uint64_t *k0, size_t d) {
    VERIFY(r, a, b, p, k0, d, 8);
    BY_D(mont_mul_body, zmm, r, a, b, p, k0);
}

void tabai_mont_sqr_r32n_mb8_avx512(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                    const uint64_t *k0, size_t d) {
    VERIFY(r, a, a, p, k0, d, 8);
    BY_D(mont_sqr_body, zmm, r, a, p, k0);
}

void tabai_mont_mul_r32n_mb4_avx512(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *p, const uint64_t *k0, size_t d) {
    VERIFY(r, a, b, p, k0, d, 4);
    BY_D(mont_mul_body, ymm, r, a, b, p, k0);
}

void tabai_mont_sqr_r32n_mb4_avx512(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                    const uint64_t *k0, size_t d) {
    VERIFY(r, a, a, p, k0, d, 4);
    BY_D(mont_sqr_body, ymm, r, a, p, k0);
}

#else /* TABAI_AVX512_TEMPLATE: the kernel for one vector width (VT, VL lanes) */

/* s += x, h += x >> 32: one digit product into a column (the low halves are recovered from
 * s and h once per column, see the header) */
#define ACC(s, h, x)                                                                           \
    do {                                                                                       \
        VT x_ = (x);                                                                           \
        (s) = V_ADD((s), x_);                                                                  \
        (h) = V_ADD((h), V_SRL(x_, 32));                                                       \
    } while (0)

/* The accumulators of two adjacent columns m, m + 1 (header: s and h of each). */
typedef struct {
    VT s0, h0, s1, h1;
} SFX(col2);

/* One row of two columns: x = the digit at mx, y0, y1 the digits at my0, my1;
 * column m += x y0, column m + 1 += x y1. One load, two vpmuludq with memory operands,
 * two shifts, four adds. An asm statement with the accumulators in registers: written with
 * intrinsics, gcc 12 rotated the y digits through registers into the next row and copied the
 * accumulators every row (five moves per sixteen vector instructions, which made the ymm
 * kernel dispatch-bound). The text serves ymm and zmm (the operand's type picks the
 * register name). */
TABAI_INLINE void SFX(row2)(SFX(col2) *c, const void *mx, const uint64_t *my0,
                            const uint64_t *my1) {
    VT x, t0, t1;
    __asm__("vmovdqu64 %[mx], %[x]\n\t"
            "vpmuludq %[my0], %[x], %[t0]\n\t"
            "vpmuludq %[my1], %[x], %[t1]\n\t"
            "vpaddq %[t0], %[S0], %[S0]\n\t"
            "vpsrlq $32, %[t0], %[t0]\n\t"
            "vpaddq %[t1], %[S1], %[S1]\n\t"
            "vpsrlq $32, %[t1], %[t1]\n\t"
            "vpaddq %[t0], %[H0], %[H0]\n\t"
            "vpaddq %[t1], %[H1], %[H1]"
            : [S0] "+v"(c->s0), [H0] "+v"(c->h0), [S1] "+v"(c->s1), [H1] "+v"(c->h1),
              [x] "=&v"(x), [t0] "=&v"(t0), [t1] "=&v"(t1)
            : [mx] "m"(*(const VT *)mx), [my0] "m"(*(const VT *)my0),
              [my1] "m"(*(const VT *)my1));
}

/* Columns m and m + 1 over the rows i = lo..hi-1, which both columns have:
 * u += x_i y_{m-i} | x_i y_{m+1-i}, and v += q_i p_{m-i} | q_i p_{m+1-i}. Each x_i, q_i is
 * loaded once for two products; the y and p digits are memory operands (six loads per
 * sixteen vector instructions: the load ports have room). u and v may be the same.
 * Requires m + 2 - d <= lo, hi <= m + 1. */
TABAI_INLINE void SFX(cols2)(SFX(col2) *u, const uint64_t *x, const uint64_t *y, SFX(col2) *v,
                             const VT *q, const uint64_t *p, size_t m, size_t lo, size_t hi) {
    UNROLL
    for (size_t i = lo; i < hi; i++) {
        SFX(row2)(u, x + i * VL, y + (m - i) * VL, y + (m + 1 - i) * VL);
        SFX(row2)(v, q + i, p + (m - i) * VL, p + (m + 1 - i) * VL);
    }
}

/* As cols2 with the q p products only. */
TABAI_INLINE void SFX(cols2_qp)(SFX(col2) *v, const VT *q, const uint64_t *p, size_t m,
                                size_t lo, size_t hi) {
    UNROLL
    for (size_t i = lo; i < hi; i++) SFX(row2)(v, q + i, p + (m - i) * VL, p + (m + 1 - i) * VL);
}

/* One column m over the rows i = lo..hi-1: a_i b_{m-i} + q_i p_{m-i}. */
TABAI_INLINE void SFX(col1)(VT *s0, VT *h0, const uint64_t *a, const uint64_t *b,
                            const uint64_t *p, const VT *q, size_t m, size_t lo, size_t hi) {
    VT S0 = *s0, H0 = *h0, S1 = V_ZERO(), H1 = V_ZERO();
    const uint64_t *pa = a + lo * VL, *pb = b + (m - lo) * VL, *pp = p + (m - lo) * VL;
    UNROLL
    for (size_t i = lo; i < hi; i++, pa += VL, pb -= VL, pp -= VL) {
        ACC(S0, H0, V_MUL(V_LD(pa), V_LD(pb)));
        ACC(S1, H1, V_MUL(q[i], V_LD(pp)));
    }
    *s0 = V_ADD(S0, S1), *h0 = V_ADD(H0, H1);
}

/* Column m < d complete but for its carry in c and q_m p_0 (s, h as in the header, over the
 * products only): q[m] = q_m, returns the carry into column m + 1. The carry enters last,
 * so that only this short chain is serial from column to column (c -> u -> q_m -> q_m p_0
 * -> next c: about 10 cycles of latency); the products of the next columns do not wait for
 * it. The carry of the column with y = q_m p_0 in it is (u + y) >> 32 (as u + lo(y) = 0 mod
 * 2^32) = (u >> 32) + (((u mod 2^32) + y) >> 32), whose inner sum is < 2^64: no split of y. */
TABAI_INLINE VT SFX(col_reduce)(VT s, VT h, VT c, VT *q, size_t m, VT kk, VT p0, VT m32) {
    VT u = V_ADD(V_SUB(s, V_SLL(h, 32)), c); /* c + sum of the low halves, exact */
    VT qm = V_MUL(u, kk);                    /* q_m = (u * k0) mod 2^32 in its low half */
    q[m] = qm;
    VT y = V_MUL(qm, p0);
    return V_ADD(V_ADD(V_SRL(u, 32), h), V_SRL(V_ADD(V_AND(u, m32), y), 32));
}

/* Column m >= d complete but for its carry in c: its low digit is digit m - d of T, stored
 * in r; digit m - d of T - p, not yet reduced mod 2^32, goes to q[m - d] (q_{m-d} is no
 * longer read), its borrow to *bw. Returns the carry into column m + 1. */
TABAI_INLINE VT SFX(col_out)(VT s, VT h, VT c, uint64_t *r, const uint64_t *p, VT *q, VT *bw,
                             size_t k, VT m32) {
    VT u = V_ADD(V_SUB(s, V_SLL(h, 32)), c);
    VT t = V_AND(u, m32);
    V_ST(r + k * VL, t);
    VT v = V_SUB(V_SUB(t, V_LD(p + k * VL)), *bw); /* T - p, borrow chain */
    *bw = V_SRL(v, 63);
    q[k] = v;
    return V_ADD(V_SRL(u, 32), h);
}

/* For odd d, the columns d - 1 and d, which have no partner, one at a time (the squaring
 * takes them with b = a); *m: d - 1 before, d + 1 after. */
TABAI_INLINE void SFX(odd_cols)(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                const uint64_t *p, VT *q, VT *c, VT *bw, size_t *m, size_t d,
                                VT kk, VT p0, VT m32) {
    VT s0 = V_ZERO(), h0 = V_ZERO();
    SFX(col1)(&s0, &h0, a, b, p, q, d - 1, 0, d - 1);
    ACC(s0, h0, V_MUL(V_LD(a + (d - 1) * VL), V_LD(b)));
    *c = SFX(col_reduce)(s0, h0, *c, q, d - 1, kk, p0, m32);
    s0 = V_ZERO(), h0 = V_ZERO();
    SFX(col1)(&s0, &h0, a, b, p, q, d, 1, d);
    *c = SFX(col_out)(s0, h0, *c, r, p, q, bw, 0, m32);
    *m = d + 1;
}

/* r = T or T - p (in q[], see col_out) per lane: c = c_top in {0, 1}; T >= R > p if set,
 * else T < p iff the chain borrowed, so T - p is taken iff c_top >= borrow. A mask and one
 * merge-masked vpandq (which also reduces the T - p digits mod 2^32): no branch. */
TABAI_INLINE void SFX(final)(uint64_t *r, const VT *q, VT c, VT bw, size_t d, VT m32) {
    __mmask8 sub = V_GEU_MASK(c, bw);
    UNROLL
    for (size_t i = 0; i < d; i++) V_ST(r + i * VL, V_MASK_AND(V_LD(r + i * VL), sub, q[i], m32));
}

/* r = a*b*R^-1 mod p, R = 2^(32 d), in every lane; contract of tabai_mb_mont_mul_fn. */
TABAI_INLINE void SFX(mont_mul_body)(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                     const uint64_t *p, const uint64_t *k0, size_t d) {
    VT q[TABAI_MB_MAX_DIGITS]; /* q_i (low 32 bits valid); from column d on, digit m - d of
                                  T - p replaces q_{m-d}, which is no longer read */
    const VT m32 = V_SET1(M32), kk = V_LD(k0), p0 = V_LD(p), p1 = d > 1 ? V_LD(p + VL) : p0;
    const VT b0 = V_LD(b), b1 = d > 1 ? V_LD(b + VL) : b0;
    VT c = V_ZERO(), bw = V_ZERO();
    size_t m = 0;
    /* columns m < d, two at a time: rows 0..m-1 shared, then a_m b_0 | a_m b_1, a_{m+1} b_0,
     * q_m p_1 once q_m is known */
    UNROLL
    for (; m + 1 < d; m += 2) {
        SFX(col2) u = {V_ZERO(), V_ZERO(), V_ZERO(), V_ZERO()};
        SFX(cols2)(&u, a, b, &u, q, p, m, 0, m);
        VT am = V_LD(a + m * VL);
        ACC(u.s0, u.h0, V_MUL(am, b0));
        ACC(u.s1, u.h1, V_MUL(am, b1));
        ACC(u.s1, u.h1, V_MUL(V_LD(a + (m + 1) * VL), b0));
        c = SFX(col_reduce)(u.s0, u.h0, c, q, m, kk, p0, m32);
        ACC(u.s1, u.h1, V_MUL(q[m], p1));
        c = SFX(col_reduce)(u.s1, u.h1, c, q, m + 1, kk, p0, m32);
    }
    if (d & 1) SFX(odd_cols)(r, a, b, p, q, &c, &bw, &m, d, kk, p0, m32);
    /* columns m >= d, two at a time: rows m-d+2..d-1 shared, row m-d+1 for column m only */
    UNROLL
    for (; m < 2 * d; m += 2) {
        const size_t k = m - d;
        SFX(col2) u = {V_ZERO(), V_ZERO(), V_ZERO(), V_ZERO()};
        SFX(cols2)(&u, a, b, &u, q, p, m, k + 2, d);
        ACC(u.s0, u.h0, V_MUL(V_LD(a + (k + 1) * VL), V_LD(b + (d - 1) * VL)));
        ACC(u.s0, u.h0, V_MUL(q[k + 1], V_LD(p + (d - 1) * VL)));
        c = SFX(col_out)(u.s0, u.h0, c, r, p, q, &bw, k, m32);
        c = SFX(col_out)(u.s1, u.h1, c, r, p, q, &bw, k + 1, m32);
    }
    SFX(final)(r, q, c, bw, d, m32);
}

/* r = a^2*R^-1 mod p in every lane; contract of tabai_mb_mont_sqr_fn. As mont_mul_body with
 * b = a, but each off-diagonal product a_i a_j (i < j) once, into accumulators u that are
 * doubled (2 s, 2 h mod 2^64: the low-half sum 2 s - (2 h << 32) is still exact, it is the
 * doubled true sum, within the bound of the header since each doubled pair stands for the
 * two products a_i a_j, a_j a_i), the squares a_i^2 and the q p products into v:
 * d^2/2 + d/2 + d^2 products instead of 2 d^2. The pairs of columns (m, m + 1) always start
 * at an even m (d odd: the columns d - 1 and d alone, as products), so column m has the
 * square a_{m/2}^2 and column m + 1 none; column m has the pairs i < m/2, column m + 1 the
 * pairs i <= m/2. */
TABAI_INLINE void SFX(mont_sqr_body)(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                     const uint64_t *k0, size_t d) {
    VT q[TABAI_MB_MAX_DIGITS]; /* as in mont_mul_body */
    const VT m32 = V_SET1(M32), kk = V_LD(k0), p0 = V_LD(p), p1 = d > 1 ? V_LD(p + VL) : p0;
    VT c = V_ZERO(), bw = V_ZERO();
    size_t m = 0;
    /* columns m < d: pair rows 0..e-1 (e = m/2) shared, then a_e a_{e+1} for column m + 1;
     * q p rows 0..m-1 shared, q_m p_1 once q_m is known */
    UNROLL
    for (; m + 1 < d; m += 2) {
        const size_t e = m / 2;
        SFX(col2) u = {V_ZERO(), V_ZERO(), V_ZERO(), V_ZERO()}, v = u;
        SFX(cols2)(&u, a, a, &v, q, p, m, 0, e);
        SFX(cols2_qp)(&v, q, p, m, e, m);
        VT ae = V_LD(a + e * VL);
        ACC(u.s1, u.h1, V_MUL(ae, V_LD(a + (e + 1) * VL)));
        ACC(v.s0, v.h0, V_MUL(ae, ae));
        VT s0 = V_ADD(V_ADD(u.s0, u.s0), v.s0), h0 = V_ADD(V_ADD(u.h0, u.h0), v.h0);
        c = SFX(col_reduce)(s0, h0, c, q, m, kk, p0, m32);
        ACC(v.s1, v.h1, V_MUL(q[m], p1));
        VT s1 = V_ADD(V_ADD(u.s1, u.s1), v.s1), h1 = V_ADD(V_ADD(u.h1, u.h1), v.h1);
        c = SFX(col_reduce)(s1, h1, c, q, m + 1, kk, p0, m32);
    }
    if (d & 1) SFX(odd_cols)(r, a, a, p, q, &c, &bw, &m, d, kk, p0, m32);
    /* columns m >= d (m even, k = m - d): pair rows k+2..e-1 shared (e = m/2), row k+1 for
     * column m if k + 1 < e, row e for column m + 1 if e >= k + 2; q p rows k+2..d-1
     * shared, row k+1 for column m */
    UNROLL
    for (; m < 2 * d; m += 2) {
        const size_t k = m - d, e = m / 2, f = e > k + 2 ? e : k + 2;
        SFX(col2) u = {V_ZERO(), V_ZERO(), V_ZERO(), V_ZERO()}, v = u;
        SFX(cols2)(&u, a, a, &v, q, p, m, k + 2, f);
        SFX(cols2_qp)(&v, q, p, m, f, d);
        VT ae = V_LD(a + e * VL);
        if (k + 1 < e) ACC(u.s0, u.h0, V_MUL(V_LD(a + (k + 1) * VL), V_LD(a + (d - 1) * VL)));
        if (e >= k + 2) ACC(u.s1, u.h1, V_MUL(ae, V_LD(a + (e + 1) * VL)));
        ACC(v.s0, v.h0, V_MUL(ae, ae));
        ACC(v.s0, v.h0, V_MUL(q[k + 1], V_LD(p + (d - 1) * VL)));
        VT s0 = V_ADD(V_ADD(u.s0, u.s0), v.s0), h0 = V_ADD(V_ADD(u.h0, u.h0), v.h0);
        VT s1 = V_ADD(V_ADD(u.s1, u.s1), v.s1), h1 = V_ADD(V_ADD(u.h1, u.h1), v.h1);
        c = SFX(col_out)(s0, h0, c, r, p, q, &bw, k, m32);
        c = SFX(col_out)(s1, h1, c, r, p, q, &bw, k + 1, m32);
    }
    SFX(final)(r, q, c, bw, d, m32);
}

#endif /* TABAI_AVX512_TEMPLATE */
