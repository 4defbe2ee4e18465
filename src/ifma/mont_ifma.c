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
 *     t  = t / 2^52, the carry of t_0 added to the new t_0
 * The carry of t_0 + lo52(q p_0) is (t_0 >> 52) + (t_0 mod 2^52 != 0), so lo52(q p_0) is
 * never computed (4 d^2 madds per product). Rows are done two per pass over t (register
 * blocking: each t digit loaded and stored once per two rows, eight madds per load/store;
 * b_j and p_j loaded once per pass); the two digits the next pass starts from are handed
 * over in registers. mont_sqr: the off-diagonal products once, the reduction rows two per
 * pass, each column doubled and given its square term on its first read (3 d^2 + d madds).
 * Details, measured figures and the bounds: README.md.
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

#include "../cpu/mbtypes.h"
#include "../internal.h"

#define IFMA_M52 0xFFFFFFFFFFFFFULL
#define IFMA_MAXD 79  /* TABAI_MB_MAX_BITS / 52 rounded up */
#define IFMA_SMALLD 11 /* the fully unrolled bodies serve d <= IFMA_SMALLD */
#define IFMA_CAT_(x, y) x##y
#define IFMA_CAT(x, y) IFMA_CAT_(x, y)
#define FN(x) IFMA_CAT(x, IFMA_SFX)
#define TABAI_IFMA_TEMPLATE 1

/* Each vector width is instantiated twice: rolled loops for any d (IFMA_TMAX = 79) and fully
 * unrolled loops for the small constant d of the dispatch below (IFMA_TMAX = 11: the
 * accumulators then live in registers). */
/* ---- zmm, 8 lanes ---- */
#define TABAI_VEC_BITS 512
#include "../vec.h"
#define IFMA_SFX _zmm_r
#define IFMA_TMAX IFMA_MAXD
#define IFMA_REGS 0
#define IFMA_UNROLL TABAI_UNROLL_BY(2)
#include "mont_ifma.c"
#undef IFMA_SFX
#undef IFMA_TMAX
#undef IFMA_REGS
#undef IFMA_UNROLL
#define IFMA_SFX _zmm_u
#define IFMA_TMAX IFMA_SMALLD
#define IFMA_REGS 1
#define IFMA_UNROLL TABAI_UNROLL_BY(16)
#include "mont_ifma.c"
#undef IFMA_SFX
#undef IFMA_TMAX
#undef IFMA_REGS
#undef IFMA_UNROLL

/* ---- ymm, 4 lanes ---- */
#undef TABAI_VEC_BITS
#define TABAI_VEC_BITS 256
#include "../vec.h"
#define IFMA_SFX _ymm_r
#define IFMA_TMAX IFMA_MAXD
#define IFMA_REGS 0
#define IFMA_UNROLL TABAI_UNROLL_BY(2)
#include "mont_ifma.c"
#undef IFMA_SFX
#undef IFMA_TMAX
#undef IFMA_REGS
#undef IFMA_UNROLL
#define IFMA_SFX _ymm_u
#define IFMA_TMAX IFMA_SMALLD
#define IFMA_REGS 1
#define IFMA_UNROLL TABAI_UNROLL_BY(16)
#include "mont_ifma.c"

/* The documented preconditions, checked in TABAI_VERIFY builds (src/cpu/mbtypes.h). */
#define IFMA_VERIFY(r, a, b, p, k0, d, L) TABAI_MB_VERIFY(r, a, b, p, k0, d, L, 52)

/* The entry points. d is public: the switch picks a fully unrolled body for the small sizes
 * (256, 384, 512 bits ...), a rolled body with constant d for the common large ones, the
 * rolled body with the runtime d for the rest. */
#define IFMA_DISPATCH(fn, w, ...)                                                            \
    switch (d) {                                                                              \
    case 2: fn##_##w##_u(__VA_ARGS__, 2); break;                                              \
    case 3: fn##_##w##_u(__VA_ARGS__, 3); break;                                              \
    case 4: fn##_##w##_u(__VA_ARGS__, 4); break;                                              \
    case 5: fn##_##w##_u(__VA_ARGS__, 5); break;                                              \
    case 6: fn##_##w##_u(__VA_ARGS__, 6); break;                                              \
    case 7: fn##_##w##_u(__VA_ARGS__, 7); break;                                              \
    case 8: fn##_##w##_u(__VA_ARGS__, 8); break;                                              \
    case 10: fn##_##w##_u(__VA_ARGS__, 10); break;                                            \
    case 11: fn##_##w##_u(__VA_ARGS__, 11); break;                                            \
    case 20: fn##_##w##_r(__VA_ARGS__, 20); break;                                            \
    case 30: fn##_##w##_r(__VA_ARGS__, 30); break;                                            \
    case 40: fn##_##w##_r(__VA_ARGS__, 40); break;                                            \
    case 60: fn##_##w##_r(__VA_ARGS__, 60); break;                                            \
    case 79: fn##_##w##_r(__VA_ARGS__, 79); break;                                            \
    default: fn##_##w##_r(__VA_ARGS__, d); break;                                             \
    }

void tabai_mont_mul_r52n_mb8_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *p, const uint64_t *k0, size_t d) {
    IFMA_VERIFY(r, a, b, p, k0, d, 8);
    IFMA_DISPATCH(mont_mul, zmm, r, a, b, p, k0)
}

void tabai_mont_sqr_r52n_mb8_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                  const uint64_t *k0, size_t d) {
    IFMA_VERIFY(r, a, a, p, k0, d, 8);
    IFMA_DISPATCH(mont_sqr, zmm, r, a, p, k0)
}

void tabai_mont_mul_r52n_mb4_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *p, const uint64_t *k0, size_t d) {
    IFMA_VERIFY(r, a, b, p, k0, d, 4);
    IFMA_DISPATCH(mont_mul, ymm, r, a, b, p, k0)
}

void tabai_mont_sqr_r52n_mb4_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                  const uint64_t *k0, size_t d) {
    IFMA_VERIFY(r, a, a, p, k0, d, 4);
    IFMA_DISPATCH(mont_sqr, ymm, r, a, p, k0)
}

#else /* TABAI_IFMA_TEMPLATE: the body, once per vector width and unrolling */

/* The carry out of u + lo52(q*p_0), where q = lo52(u)*k0 makes q*p_0 = -u mod 2^52: the sum
 * is u rounded up to a multiple of 2^52, so the carry is (u >> 52) + (u mod 2^52 != 0),
 * known without waiting for q (and lo52(q*p_0) itself is never computed). */
TABAI_INLINE VT FN(qcarry)(VT u, VT m52) {
    return V_ADD(V_SRL(u, 52), V_SRL(V_ADD(V_AND(u, m52), m52), 52));
}

/* Zero, hidden from the optimiser: a loop storing a known zero becomes memset / rep stosq,
 * whose narrow stores the vector loads that follow cannot forward from (a stall of about
 * 15 cycles per digit, measured). */
TABAI_INLINE VT FN(opaque_zero)(void) {
    VT z = V_ZERO();
    __asm__("" : "+v"(z));
    return z;
}

/* One row, any d >= 1 (relative digits): t = (t + ai*b + q*p) / 2^52. Digits 0 and 1 come
 * from h (registers) when h is given, else from t. */
TABAI_INLINE void FN(row1)(VT *t, VT ai, const uint64_t *b, const uint64_t *p, VT k0, VT m52,
                           size_t d, const VT *h) {
    const VT z = V_ZERO();
    VT bm = V_LD(b), pm = V_LD(p); /* b_{j-1}, p_{j-1} */
    VT u = V_ADD(h ? h[0] : t[0], V_ML(z, ai, bm));
    VT q = V_ML(z, u, k0);
    VT c = FN(qcarry)(u, m52);
    IFMA_UNROLL
    for (size_t j = 1; j < d; j++) {
        VT bj = V_LD(b + j * VL), pj = V_LD(p + j * VL);
        VT x = V_MH(V_ML(h && j == 1 ? h[1] : t[j], ai, bj), ai, bm);
        VT y = V_MH(j == 1 ? c : z, q, pm);
        t[j - 1] = V_ADD(V_ML(x, q, pj), y);
        bm = bj;
        pm = pj;
    }
    t[d - 1] = V_ADD(V_MH(d == 1 ? c : z, ai, bm), V_MH(z, q, pm));
}

/* Digit j of two rows: t_j + lo(a0 b_j) + hi(a0 b_{j-1}) + lo(a1 b_{j-1}) + hi(a1 b_{j-2})
 * + the same with q0, q1 and p, in two chains of four. */
TABAI_INLINE VT FN(col2)(VT tj, VT a0, VT a1, VT q0, VT q1, VT bj, VT bm1, VT bm2, VT pj, VT pm1,
                         VT pm2) {
    const VT z = V_ZERO();
    VT x = V_ML(tj, a0, bj), y = V_ML(z, a1, bm1);
    x = V_MH(x, a0, bm1);
    y = V_MH(y, a1, bm2);
    x = V_ML(x, q0, pj);
    y = V_ML(y, q1, pm1);
    x = V_MH(x, q0, pm1);
    y = V_MH(y, q1, pm2);
    return V_ADD(x, y);
}

/* Two rows, d >= 3: t = (t + a0*b + q0*p + 2^52 (a1*b + q1*p)) / 2^104. The critical path
 * per row is q -> the two q-terms of the next digit -> its q (9 cycles); everything else is
 * throughput. The new digits 0 and 1 are also left in h, where the next pass reads them
 * (no store-to-load forwarding on the path from one pass's q to the next). */
TABAI_INLINE void FN(row2)(VT *t, VT a0, VT a1, const uint64_t *b, const uint64_t *p, VT k0,
                           VT m52, size_t d, const int first, VT *h) {
    const VT z = V_ZERO();
#define IFMA_T(j) (first ? z : (j) < 2 ? h[j] : t[j]) /* the first pass starts from t = 0 */
    VT b0 = V_LD(b), b1 = V_LD(b + VL), b2 = V_LD(b + 2 * VL);
    VT p0 = V_LD(p), p1 = V_LD(p + VL), p2 = V_LD(p + 2 * VL);
    /* digit 0: q0; digit 1: q1 */
    VT u0 = V_ADD(IFMA_T(0), V_ML(z, a0, b0));
    VT q0 = V_ML(z, u0, k0);
    VT s1 = V_ML(V_MH(V_ML(IFMA_T(1), a0, b1), a0, b0), a1, b0);
    s1 = V_ADD(s1, FN(qcarry)(u0, m52));
    VT u1 = V_ADD(V_ML(s1, q0, p1), V_MH(z, q0, p0));
    VT q1 = V_ML(z, u1, k0);
    /* digit 2 -> t[0], the q1-terms last and side by side */
    VT x = V_MH(V_ML(V_MH(V_ML(IFMA_T(2), a0, b2), a0, b1), q0, p2), q0, p1);
    VT y = V_MH(V_ML(FN(qcarry)(u1, m52), a1, b1), a1, b0);
    h[0] = t[0] = V_ADD(V_ML(x, q1, p1), V_MH(y, q1, p0));
    /* digits 3 .. d-1 -> t[j-2] */
    VT bm1 = b2, bm2 = b1, pm1 = p2, pm2 = p1; /* b_{j-1}, b_{j-2}, p_{j-1}, p_{j-2} */
    size_t j = 3;
    if (d >= 4) {
        VT b3 = V_LD(b + 3 * VL), p3 = V_LD(p + 3 * VL);
        h[1] = t[1] = FN(col2)(IFMA_T(3), a0, a1, q0, q1, b3, bm1, bm2, p3, pm1, pm2);
        bm2 = bm1;
        bm1 = b3;
        pm2 = pm1;
        pm1 = p3;
        j = 4;
    }
    IFMA_UNROLL
    for (; j < d; j++) {
        VT bj = V_LD(b + j * VL), pj = V_LD(p + j * VL);
        t[j - 2] = FN(col2)(IFMA_T(j), a0, a1, q0, q1, bj, bm1, bm2, pj, pm1, pm2);
        bm2 = bm1;
        bm1 = bj;
        pm2 = pm1;
        pm1 = pj;
    }
    /* digit d -> t[d-2], digit d+1 -> t[d-1] */
    x = V_MH(V_MH(V_ML(z, a1, bm1), a0, bm1), q0, pm1);
    y = V_MH(V_ML(V_MH(z, a1, bm2), q1, pm1), q1, pm2);
    t[d - 2] = V_ADD(x, y);
    if (d == 3) h[1] = t[1];
    t[d - 1] = V_ADD(V_MH(z, a1, bm1), V_MH(z, q1, pm1));
#undef IFMA_T
}

/* r = T mod p for T = t (d digits, unnormalised, T < 2p). Two independent carry chains from
 * the unnormalised digits: T itself (x = t_j + c, c = x >> 52) and T - p in two's complement
 * (e = t_j - p_j + c', c' = e >> 52 arithmetic, ending in -1 exactly when T < p); the mask
 * from vpcmpq (c' < 0) picks T or T - p per lane by a blend. With the digits in registers
 * (unrolled bodies) one pass; otherwise a first pass runs the T - p chain alone for the mask
 * (no stores) and the second runs both and stores r: d stores (a zmm store takes 2 cycles
 * on Zen 4). */
TABAI_INLINE void FN(final)(uint64_t *r, const VT *t, const uint64_t *p, VT m52, size_t d) {
    VT c = V_ZERO(), cs = V_ZERO();
#if IFMA_REGS
    VT n[IFMA_TMAX], s[IFMA_TMAX];
    IFMA_UNROLL
    for (size_t j = 0; j < d; j++) {
        VT x = V_ADD(t[j], c), e = V_ADD(V_SUB(t[j], V_LD(p + j * VL)), cs);
        c = V_SRL(x, 52);
        cs = V_SRA(e, 52);
        n[j] = V_AND(x, m52);
        s[j] = V_AND(e, m52);
    }
    const __mmask8 keep = V_LTZ_MASK(cs); /* T < p */
    IFMA_UNROLL
    for (size_t j = 0; j < d; j++) V_ST(r + j * VL, V_BLEND(keep, s[j], n[j]));
#else
    IFMA_UNROLL
    for (size_t j = 0; j < d; j++) cs = V_SRA(V_ADD(V_SUB(t[j], V_LD(p + j * VL)), cs), 52);
    const __mmask8 keep = V_LTZ_MASK(cs); /* T < p */
    cs = V_ZERO();
    IFMA_UNROLL
    for (size_t j = 0; j < d; j++) {
        VT x = V_ADD(t[j], c), e = V_ADD(V_SUB(t[j], V_LD(p + j * VL)), cs);
        c = V_SRL(x, 52);
        cs = V_SRA(e, 52);
        V_ST(r + j * VL, V_BLEND(keep, V_AND(e, m52), V_AND(x, m52)));
    }
#endif
}

/* r = a*b*2^(-52 d) mod p per lane (contract of tabai_mb_mont_mul_fn). */
TABAI_INLINE void FN(mont_mul)(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const uint64_t *p, const uint64_t *k0p, size_t d) {
    VT t[IFMA_TMAX], h[2];
    const VT m52 = V_SET1(IFMA_M52), k0 = V_LD(k0p);
    size_t i = 0;
    if (d >= 3) { /* the first pass reads no t: no zeroing */
        FN(row2)(t, V_LD(a), V_LD(a + VL), b, p, k0, m52, d, 1, h);
        IFMA_UNROLL
        for (i = 2; i + 1 < d; i += 2)
            FN(row2)(t, V_LD(a + i * VL), V_LD(a + (i + 1) * VL), b, p, k0, m52, d, 0, h);
        if (i < d) FN(row1)(t, V_LD(a + i * VL), b, p, k0, m52, d, h);
    } else {
        const VT z = FN(opaque_zero)();
        for (size_t j = 0; j < d; j++) t[j] = z;
        IFMA_UNROLL
        for (; i < d; i++) FN(row1)(t, V_LD(a + i * VL), b, p, k0, m52, d, NULL);
    }
    /* r may alias a or b: both are read no more */
    FN(final)(r, t, p, m52, d);
}

/* ---- squaring: the square with half the products, then the reduction (absolute digits) ----
 * Column c of s is written first by the off-diagonal pass that reaches it first (no zeroing:
 * in pass i, the columns i + j with j >= d are new, all of them in the first pass), and
 * doubled, with its square term added, by the reduction pass that reaches it first (all
 * columns of the first pass, the columns i + d and i + d + 1 of the others). Columns 0 and
 * 2d - 1 have no off-diagonal term and are never read before that. */

/* column i + j of the off-diagonal sum before pass i adds to it */
#define IFMA_OFF(j) (first || (j) >= d ? V_ZERO() : s[i + (j)])

/* Off-diagonal terms of rows i and i+1 (i + 3 <= d) into column i + j: lo(a_i a_j),
 * hi(a_i a_{j-1}), lo(a_{i+1} a_{j-1}), hi(a_{i+1} a_{j-2}), as far as the pairs have a
 * smaller first index (j = i+1 .. i+3 and d, d+1 have fewer terms). */
TABAI_INLINE void FN(sq_rows2)(VT *s, const uint64_t *a, size_t i, size_t d, const int first) {
    const VT a0 = V_LD(a + i * VL), a1 = V_LD(a + (i + 1) * VL), a2 = V_LD(a + (i + 2) * VL);
    s[2 * i + 1] = V_ML(IFMA_OFF(i + 1), a0, a1);
    s[2 * i + 2] = V_MH(V_ML(IFMA_OFF(i + 2), a0, a2), a0, a1);
    VT am1 = a2; /* a_{j-1} */
    if (i + 3 < d) {
        VT a3 = V_LD(a + (i + 3) * VL), am2 = a2;
        s[2 * i + 3] = V_ML(V_MH(V_ML(IFMA_OFF(i + 3), a0, a3), a0, a2), a1, a2);
        am1 = a3;
        IFMA_UNROLL
        for (size_t j = i + 4; j < d; j++) { /* the columns with all four terms */
            VT aj = V_LD(a + j * VL);
            VT x = first ? V_ZERO() : s[i + j];
            s[i + j] = V_MH(V_ML(V_MH(V_ML(x, a0, aj), a0, am1), a1, am1), a1, am2);
            am2 = am1;
            am1 = aj;
        }
        s[i + d] = V_MH(V_ML(V_MH(V_ZERO(), a0, am1), a1, am1), a1, am2);
    } else { /* i + 3 == d: column i + 3 is column i + d */
        s[i + d] = V_ML(V_MH(V_ZERO(), a0, a2), a1, a2);
    }
    s[i + d + 1] = V_MH(V_ZERO(), a1, am1);
}

/* Off-diagonal terms of row i alone (i + 2 == d): lo(a_i a_{d-1}), hi(a_i a_{d-1}). */
TABAI_INLINE void FN(sq_row1)(VT *s, const uint64_t *a, size_t i, size_t d, const int first) {
    const VT a0 = V_LD(a + i * VL), a1 = V_LD(a + (d - 1) * VL);
    s[i + d - 1] = V_ML(IFMA_OFF(d - 1), a0, a1);
    s[i + d] = V_MH(V_ZERO(), a0, a1);
}
#undef IFMA_OFF

/* Column c of the square on the reduction's first visit: 2 (off-diagonal sum) + the square
 * term, lo(a_{c/2}^2) for even c, hi(a_{(c-1)/2}^2) for odd c. */
TABAI_INLINE VT FN(sq_col)(const VT *s, const uint64_t *a, size_t c, size_t d) {
    const VT ak = V_LD(a + (c / 2) * VL);
    const VT x = (c == 0 || c == 2 * d - 1) ? V_ZERO() : V_ADD(s[c], s[c]);
    return (c & 1) ? V_MH(x, ak, ak) : V_ML(x, ak, ak);
}

/* column i + j as the reduction pass i reads it */
#define IFMA_COL(j) (first || (j) >= d ? FN(sq_col)(s, a, i + (j), d) : s[i + (j)])

/* Reduction rows i, i+1 (d >= 2): s += (q0 + 2^52 q1) p 2^(52 i), the carries of digits i and
 * i + 1 passed up. */
TABAI_INLINE VT FN(rcol2)(VT x, VT q0, VT q1, VT pj, VT pm1, VT pm2) {
    return V_MH(V_ML(V_MH(V_ML(x, q0, pj), q0, pm1), q1, pm1), q1, pm2);
}

/* Reduction rows i, i+1 (d >= 2): s += (q0 + 2^52 q1) p 2^(52 i), the carries of digits i and
 * i + 1 passed up. Digits i and i + 1 come from h (but in the first pass), digits i + 2 and
 * i + 3 are left there for the next pass. */
TABAI_INLINE void FN(red2)(VT *s, const uint64_t *a, size_t i, const uint64_t *p, VT k0,
                           VT m52, size_t d, const int first, VT *h) {
    const VT z = V_ZERO();
    VT p0 = V_LD(p), p1 = V_LD(p + VL);
    VT u0 = first ? IFMA_COL(0) : h[0];
    VT q0 = V_ML(z, u0, k0);
    VT u1 = V_ADD(V_ML(V_ADD(first ? IFMA_COL(1) : h[1], FN(qcarry)(u0, m52)), q0, p1),
                  V_MH(z, q0, p0));
    VT q1 = V_ML(z, u1, k0);
    VT c = FN(qcarry)(u1, m52);
    VT pm1 = p1, pm2 = p0;
    size_t j = 2;
    if (d >= 3) { /* digit 2: the carry and the q1-terms side by side */
        VT p2 = V_LD(p + 2 * VL);
        VT x = V_MH(V_ML(IFMA_COL(2), q0, p2), q0, p1);
        h[0] = s[i + 2] = V_ADD(V_ML(x, q1, p1), V_MH(c, q1, p0));
        pm2 = p1;
        pm1 = p2;
        c = z;
        j = 3;
    }
    if (d >= 4) {
        VT p3 = V_LD(p + 3 * VL);
        h[1] = s[i + 3] = FN(rcol2)(IFMA_COL(3), q0, q1, p3, pm1, pm2);
        pm2 = pm1;
        pm1 = p3;
        j = 4;
    }
    IFMA_UNROLL
    for (; j < d; j++) {
        VT pj = V_LD(p + j * VL);
        VT x = first ? FN(sq_col)(s, a, i + j, d) : s[i + j];
        s[i + j] = FN(rcol2)(x, q0, q1, pj, pm1, pm2);
        pm2 = pm1;
        pm1 = pj;
    }
    VT x = V_MH(V_ADD(FN(sq_col)(s, a, i + d, d), c), q0, pm1);
    VT y = V_MH(V_ML(z, q1, pm1), q1, pm2);
    s[i + d] = V_ADD(x, y);
    if (d == 3) h[1] = s[i + d];
    s[i + d + 1] = V_MH(FN(sq_col)(s, a, i + d + 1, d), q1, pm1);
}

/* Digit j of four reduction rows: x + lo(q0 p_j) + hi(q0 p_{j-1}) + ... + hi(q3 p_{j-4}), in
 * two chains of four. */
TABAI_INLINE VT FN(rcol4)(VT x, VT q0, VT q1, VT q2, VT q3, VT pj, VT pm1, VT pm2, VT pm3,
                          VT pm4) {
    VT y = V_ML(V_ZERO(), q2, pm2);
    x = V_ML(x, q0, pj);
    y = V_MH(y, q2, pm3);
    x = V_MH(x, q0, pm1);
    y = V_ML(y, q3, pm3);
    x = V_ML(x, q1, pm1);
    y = V_MH(y, q3, pm4);
    x = V_MH(x, q1, pm2);
    return V_ADD(x, y);
}

/* Reduction rows i .. i+3 (d >= 6): as red2 with four rows a pass, eight madds a digit for
 * each load and store of it. The heads: q0, then digit 1 with the q0-terms, q1, digit 2, q2,
 * digit 3, q3 (each q waits for one madd pair and an add after the previous). Digits i + 4
 * and i + 5 are left in h. */
TABAI_INLINE void FN(red4)(VT *s, const uint64_t *a, size_t i, const uint64_t *p, VT k0,
                           VT m52, size_t d, const int first, VT *h) {
    const VT z = V_ZERO();
    VT p0 = V_LD(p), p1 = V_LD(p + VL), p2 = V_LD(p + 2 * VL), p3 = V_LD(p + 3 * VL);
    VT u0 = first ? IFMA_COL(0) : h[0];
    VT q0 = V_ML(z, u0, k0);
    VT u1 = V_ADD(V_ML(V_ADD(first ? IFMA_COL(1) : h[1], FN(qcarry)(u0, m52)), q0, p1),
                  V_MH(z, q0, p0));
    VT q1 = V_ML(z, u1, k0);
    VT x2 = V_MH(V_ML(IFMA_COL(2), q0, p2), q0, p1);
    VT x3 = V_MH(V_ML(IFMA_COL(3), q0, p3), q0, p2);
    VT u2 = V_ADD(V_ML(V_ADD(x2, FN(qcarry)(u1, m52)), q1, p1), V_MH(z, q1, p0));
    x3 = V_MH(V_ML(x3, q1, p2), q1, p1);
    VT q2 = V_ML(z, u2, k0);
    VT u3 = V_ADD(V_ML(V_ADD(x3, FN(qcarry)(u2, m52)), q2, p1), V_MH(z, q2, p0));
    VT q3 = V_ML(z, u3, k0);
    /* digit 4 -> h[0]: the q3-terms last and side by side */
    VT p4 = V_LD(p + 4 * VL), p5 = V_LD(p + 5 * VL);
    VT x4 = V_MH(V_ML(V_MH(V_ML(V_MH(V_ML(IFMA_COL(4), q0, p4), q0, p3), q1, p3), q1, p2), q2, p2),
                 q2, p1);
    h[0] = s[i + 4] = V_ADD(V_ML(V_ADD(x4, FN(qcarry)(u3, m52)), q3, p1), V_MH(z, q3, p0));
    h[1] = s[i + 5] = FN(rcol4)(IFMA_COL(5), q0, q1, q2, q3, p5, p4, p3, p2, p1);
    VT pm1 = p5, pm2 = p4, pm3 = p3, pm4 = p2; /* p_{j-1} .. p_{j-4} */
    IFMA_UNROLL
    for (size_t j = 6; j < d; j++) {
        VT pj = V_LD(p + j * VL);
        VT x = first ? FN(sq_col)(s, a, i + j, d) : s[i + j];
        s[i + j] = FN(rcol4)(x, q0, q1, q2, q3, pj, pm1, pm2, pm3, pm4);
        pm4 = pm3;
        pm3 = pm2;
        pm2 = pm1;
        pm1 = pj;
    }
    /* digits d .. d+3: the terms whose p index is below d */
    VT x = V_MH(V_ML(V_MH(FN(sq_col)(s, a, i + d, d), q0, pm1), q1, pm1), q1, pm2);
    VT y = V_MH(V_ML(V_MH(V_ML(z, q2, pm2), q2, pm3), q3, pm3), q3, pm4);
    s[i + d] = V_ADD(x, y);
    x = V_MH(V_ML(V_MH(FN(sq_col)(s, a, i + d + 1, d), q1, pm1), q2, pm1), q2, pm2);
    s[i + d + 1] = V_MH(V_ML(x, q3, pm2), q3, pm3);
    s[i + d + 2] = V_MH(V_ML(V_MH(FN(sq_col)(s, a, i + d + 2, d), q2, pm1), q3, pm1), q3, pm2);
    s[i + d + 3] = V_MH(FN(sq_col)(s, a, i + d + 3, d), q3, pm1);
}

/* Reduction row i alone (i == d - 1); digits i and i + 1 from h but in the first pass. */
TABAI_INLINE void FN(red1)(VT *s, const uint64_t *a, size_t i, const uint64_t *p, VT k0,
                           VT m52, size_t d, const int first, const VT *h) {
    const VT z = V_ZERO();
    VT u = first ? IFMA_COL(0) : h[0];
    VT q = V_ML(z, u, k0);
    VT c = FN(qcarry)(u, m52);
    VT pm = V_LD(p);
    IFMA_UNROLL
    for (size_t j = 1; j < d; j++) {
        VT pj = V_LD(p + j * VL);
        VT x = j == 1 && !first ? h[1] : IFMA_COL(j);
        s[i + j] = V_MH(V_ML(j == 1 ? V_ADD(x, c) : x, q, pj), q, pm);
        pm = pj;
    }
    VT x = FN(sq_col)(s, a, i + d, d);
    s[i + d] = V_MH(d == 1 ? V_ADD(x, c) : x, q, pm);
}
#undef IFMA_COL

/* r = a^2*2^(-52 d) mod p per lane (contract of tabai_mb_mont_sqr_fn): the off-diagonal
 * products a_i a_j (i < j) once, doubled, the squares a_i^2 added (d^2 + d madds), then d
 * reduction rows (2 d^2 madds): 3 d^2 + d in all against 4 d^2 for mont_mul. Bound: a column
 * gets at most d off-diagonal terms (2 d doubled), 2 square terms and 2 d reduction terms
 * < 2^52, plus carries < 2^9: (4 d + 2) 2^52 + 2^16 < 2^61 for d <= 79. */
TABAI_INLINE void FN(mont_sqr)(uint64_t *r, const uint64_t *a, const uint64_t *p,
                               const uint64_t *k0p, size_t d) {
    VT s[2 * IFMA_TMAX + 2], h[2];
    const VT m52 = V_SET1(IFMA_M52), k0 = V_LD(k0p);
    size_t i = 0;
    if (d >= 3) {
        FN(sq_rows2)(s, a, 0, d, 1);
        IFMA_UNROLL
        for (i = 2; i + 3 <= d; i += 2) FN(sq_rows2)(s, a, i, d, 0);
    }
    if (i + 2 == d) FN(sq_row1)(s, a, i, d, d == 2);
    i = 0;
    if (d >= 12) { /* four rows a pass, then the last 0 .. 3 (below 12 digits two are faster) */
        FN(red4)(s, a, 0, p, k0, m52, d, 1, h);
        IFMA_UNROLL
        for (i = 4; i + 4 <= d; i += 4) FN(red4)(s, a, i, p, k0, m52, d, 0, h);
        if (i + 1 < d) {
            FN(red2)(s, a, i, p, k0, m52, d, 0, h);
            i += 2;
        }
        if (i < d) FN(red1)(s, a, i, p, k0, m52, d, 0, h);
    } else if (d >= 2) {
        FN(red2)(s, a, 0, p, k0, m52, d, 1, h);
        IFMA_UNROLL
        for (i = 2; i + 1 < d; i += 2) FN(red2)(s, a, i, p, k0, m52, d, 0, h);
        if (i < d) FN(red1)(s, a, i, p, k0, m52, d, 0, h);
    } else {
        FN(red1)(s, a, 0, p, k0, m52, d, 1, NULL);
    }
    FN(final)(r, s + d, p, m52, d);
}

#endif
