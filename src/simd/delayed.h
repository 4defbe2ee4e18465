/* The seeds' delayed-carry kernels (issue 5): reduced-radix digits, columns accumulated
 * without carries, one carry pass at the end. Internal interface of src/simd/, src/fp64/ and
 * src/mod/ohta_cs.c. Nothing here is exported.
 *
 * Digit forms (all least significant digit first):
 *   - "rd" (reduced-radix integer digits): uint64_t words, each digit < 2^bits, bits <= 32,
 *     so that pmuludq / vpmuludq (32x32 -> 64) multiply two digits exactly.
 *   - "f64" (float64 digits): doubles holding integers < 2^bits.
 *   - "c16": the 16-bit digits of seed 000's Example 1 (uint16_t).
 * The digit size is chosen per size from the bounds below (docs/bounds/delayed.md) and
 * asserted with TABAI_VERIFY_CHECK in the kernels.
 */
#ifndef TABAI_SIMD_DELAYED_H
#define TABAI_SIMD_DELAYED_H

#include "../internal.h"

/* Largest digit count the stack buffers of the kernels take: 8192 bits in 27-bit digits
 * is 304; in 22-bit float64 digits 373. */
#define TABAI_RD_MAX_DIGITS 512

/* ---- bounds (docs/bounds/delayed.md) -------------------------------------------------- */

/* 1 if m column terms of two b-bit digits, plus the incoming carry of the final pass, fit
 * below 2^64:  m * (2^b - 1) * 2^b < 2^64.  (A column holds m products <= (2^b-1)^2; the
 * carry into a column is <= M / (2^b - 1) for M the largest column, so column + carry <=
 * m (2^b - 1) 2^b.) */
int tabai_rd_fits(size_t m, unsigned b);
/* Largest m with tabai_rd_fits(m, b) (b in 1..32). */
size_t tabai_rd_max_terms(unsigned b);
/* Digit size for an n-limb product in the SIMD kernels: the largest b <= 32 such that
 * nd = ceil(64n / b) digits satisfy tabai_rd_fits(nd, b); 0 if none (never for n <= 128). */
unsigned tabai_rd_bits_for(size_t n);
/* ceil(bits_total / b). */
static inline size_t tabai_digits_for(size_t bits_total, unsigned b) { return (bits_total + b - 1) / b; }

/* float64: column + carry <= m (2^b - 1) 2^b <= 2^53 keeps every sum an exactly
 * representable integer. */
int tabai_f64_fits(size_t m, unsigned b);
size_t tabai_f64_max_terms(unsigned b);
/* Digit size of the plain float64 kernels for n limbs (nd rounded up to a multiple of 4). */
unsigned tabai_f64_bits_for(size_t n);
/* FMA split (hi = a*b rounded to a multiple of 2^b with a magic constant, lo = fma(a, b,
 * -hi)): b <= 51, and the lo sums (|lo| <= 2^(b-1)) and hi sums (hi / 2^b <= 2^b - 1) of a
 * column stay exact:  m * 2^(b-1) <= 2^53  and  m * (2^b - 1) <= 2^53. */
int tabai_f64fma_fits(size_t m, unsigned b);
size_t tabai_f64fma_max_terms(unsigned b);
unsigned tabai_f64fma_bits_for(size_t n);
/* Digit count of the float64 kernels: ceil(64n / b) rounded up to a multiple of 4 (the 4x4
 * register blocks). */
static inline size_t tabai_f64_digits_for(size_t n, unsigned b) {
    return (tabai_digits_for(64 * n, b) + 3) & ~(size_t)3;
}

/* TABAI_VERIFY (only inside checks): the digit bounds the kernels require and promise.
 * 1 if every d[i] < 2^b. */
static inline int tabai_rd_digits_ok(const uint64_t *d, size_t nd, unsigned b) {
    for (size_t i = 0; i < nd; i++)
        if (d[i] >> b) return 0;
    return 1;
}
/* 1 if every d[i] is an integer in [0, 2^b). */
static inline int tabai_f64_digits_ok(const double *d, size_t nd, unsigned b) {
    const double lim = (double)((uint64_t)1 << b);
    for (size_t i = 0; i < nd; i++)
        if (!(d[i] >= 0 && d[i] < lim && d[i] == (double)(int64_t)d[i])) return 0;
    return 1;
}
/* 1 if x is an integer with |x| <= 2^53 (an exact float64 column). */
static inline int tabai_f64_exact(double x) {
    return x >= -9007199254740992.0 && x <= 9007199254740992.0 && x == (double)(int64_t)x;
}

/* ---- conversions between 64-bit limbs and digits (separate, measured apart) ----------- */

/* d[nd] = the b-bit digits of a[n] (digits past the end of a are 0). Requires nd*b >= 64n
 * or a < 2^(nd*b). Time: constant (positions are public). */
void tabai_rd_from_limbs(uint64_t *d, size_t nd, const uint64_t *a, size_t n, unsigned b);
/* r[n] = the low 64n bits of sum d[i] 2^(b i). Requires every d[i] < 2^b. */
void tabai_rd_to_limbs(uint64_t *r, size_t n, const uint64_t *d, size_t nd, unsigned b);
void tabai_f64_from_limbs(double *d, size_t nd, const uint64_t *a, size_t n, unsigned b);
/* Requires every d[i] an integer in [0, 2^b). */
void tabai_f64_to_limbs(uint64_t *r, size_t n, const double *d, size_t nd, unsigned b);

/* ---- reduced-radix integer digits (seed 000) ------------------------------------------- */

/* r[2nd] = a[nd] * b[nd] in b-bit digits, columns accumulated with (v)pmuludq/(v)paddq,
 * one carry pass; out digits < 2^bits. Requires digits < 2^bits, tabai_rd_fits(nd, bits),
 * 1 <= nd <= TABAI_RD_MAX_DIGITS. r must not overlap a or b. */
void tabai_mul_rd_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                          unsigned bits);
void tabai_mul_rd_sse2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                       unsigned bits);
void tabai_mul_rd_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                       unsigned bits);
/* r[2n] = a[n] * b[n]: conversion to digits, the kernel above, conversion back. */
void tabai_mul_n_simd29_sse2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_simd29_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* Seed 000 Example 1: t[2nd] = a[nd] * b[nd] in 16-bit digits, carry propagated on every
 * step (the baseline the seed measured against). t must not overlap a or b. */
void tabai_mul_c16_generic(uint16_t *t, const uint16_t *a, const uint16_t *b, size_t nd);
void tabai_mul_n_c16_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* ---- float64 digits (seed 002) ---------------------------------------------------------- */

/* r[ncol] = digits of the exact integer columns c[ncol] (each <= 2^53, integer valued):
 * one carry pass in int64 after exact conversion. _float: the seed's version (carry =
 * trunc(x * 2^-b) in floating point, one serial chain), kept for the report. */
void tabai_f64_carry_pass(double *r, const double *c, size_t ncol, unsigned bits);
void tabai_f64_carry_pass_float(double *r, const double *c, size_t ncol, unsigned bits);
/* r[2nd] = a[nd] * b[nd] in float64 digits of `bits` bits, 4x4 register blocking, delayed
 * carry, one carry pass (tabai_f64_carry_pass). Requires nd % 4 == 0,
 * tabai_f64_fits(nd, bits), digits integers in [0, 2^bits). Out digits in [0, 2^bits). */
void tabai_mul_f64_generic(double *r, const double *a, const double *b, size_t nd, unsigned bits);
/* The same, AVX2 + FMA vectors of 4 doubles (column blocks). */
void tabai_mul_f64_avx2(double *r, const double *a, const double *b, size_t nd, unsigned bits);
/* FMA-split products: digits up to 51 bits (tabai_f64fma_fits(nd, bits)), scalar and AVX2. */
void tabai_mul_f64fma_avx2(double *r, const double *a, const double *b, size_t nd, unsigned bits);
void tabai_mul_f64fma_vec_avx2(double *r, const double *a, const double *b, size_t nd,
                               unsigned bits);
/* Four independent products, one per lane (src/fp64/mul_fp64_mb4_avx2.c):
 * r[l][2n] = a[l][n] * b[l][n], l = 0..3, FMA split with column sums below 2^50. */
int tabai_f64mb4_fits(size_t m, unsigned b);
unsigned tabai_f64mb4_bits_for(size_t n);
void tabai_mul_n_fp64fma_mb4_avx2(uint64_t *const r[4], const uint64_t *const a[4],
                                  const uint64_t *const b[4], size_t n);
void tabai_mul_n_fp64_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_fp64_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_fp64fma_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void tabai_mul_n_fp64fma_vec_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* ---- carry-save, register-blocked Ohta (seed 003), src/mod/ohta_cs.c -------------------- */

/* Digit size of the carry-save Ohta for an n-limb context (largest column of its three
 * products within tabai_rd_fits). */
unsigned tabai_ohta_cs_bits(const tabai_ohta *ctx);
/* r = a*b mod p, a, b < p; blocking k = 2, 3, 4. Constant time. */
void tabai_ohta_mul_cs2_generic(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b);
void tabai_ohta_mul_cs3_generic(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b);
void tabai_ohta_mul_cs4_generic(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b);

/* The seed's baseline for the comparison: word-serial Montgomery (CIOS) on the same b-bit
 * digits, carry on every step. z[nd] = x y 2^(-b nd) mod p (odd p < 2^(b nd); x, y < p);
 * pinv = -p^-1 mod 2^b (tabai_rd_pinv). The _n_ wrapper converts a, b, p[n] (odd) and r[n]
 * with nd = ceil(bits(p) / bits). Constant time. Used by the benchmark and tests only. */
void tabai_mont_mul_rd_generic(uint64_t *z, const uint64_t *x, const uint64_t *y,
                               const uint64_t *p, uint64_t pinv, size_t nd, unsigned b);
uint64_t tabai_rd_pinv(uint64_t p0, unsigned b);
void tabai_mont_mul_n_rd_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                 const uint64_t *p, size_t n, unsigned bits);

#endif
