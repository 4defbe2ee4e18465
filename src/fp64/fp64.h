/* The float64-digit kernels of src/fp64/ (seed 002: digits in doubles, exact columns below
 * 2^53, one carry pass; the FMA split). Digits in and out, except the four-lane product that
 * converts itself; the conversions from and to limbs are the layer above (src/delayed/). */
#ifndef TABAI_FP64_FP64_H
#define TABAI_FP64_FP64_H

#include "../digits.h"

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

#endif
