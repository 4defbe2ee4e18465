/* The delayed-carry layer over src/simd/ and src/fp64/ (as src/mb/ sits over src/ifma/ and
 * src/avx512/): conversions between limbs and digits, the whole-number products on limbs
 * (conversion, digit kernel, conversion back), the carry-save Ohta, the explicit-kernel
 * entry (with.c). Internal; nothing here is exported. Digit forms and bounds: src/digits.h. */
#ifndef TABAI_DELAYED_DELAYED_H
#define TABAI_DELAYED_DELAYED_H

#include "../cpu/ktypes.h"
#include "../fp64/fp64.h"
#include "../simd/simd.h"

/* ---- conversions between 64-bit limbs and digits (separate, measured apart) ----------- */

/* d[nd] = the b-bit digits of a[n] (digits past the end of a are 0). Requires nd*b >= 64n
 * or a < 2^(nd*b). Time: constant (positions are public). */
void tabai_rd_from_limbs(uint64_t *d, size_t nd, const uint64_t *a, size_t n, unsigned b);
/* r[n] = the low 64n bits of sum d[i] 2^(b i). Requires every d[i] < 2^b. */
void tabai_rd_to_limbs(uint64_t *r, size_t n, const uint64_t *d, size_t nd, unsigned b);
void tabai_f64_from_limbs(double *d, size_t nd, const uint64_t *a, size_t n, unsigned b);
/* Requires every d[i] an integer in [0, 2^b). */
void tabai_f64_to_limbs(uint64_t *r, size_t n, const double *d, size_t nd, unsigned b);

/* ---- whole numbers on limbs (mul_n.c: tabai_mul_n_simd29_sse2 ...) and the carry-save,
 * register-blocked Ohta (seed 003, ohta_cs.c: tabai_ohta_mul_cs2_generic ...): these
 * explicit kernels are declared in src/cpu/ktypes.h, where the kernel registry names them
 * without including this layer ------------------------------------------------------------ */

/* Digit size of the carry-save Ohta for an n-limb context (largest column of its three
 * products within tabai_rd_fits). */
unsigned tabai_ohta_cs_bits(const tabai_ohta *ctx);

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
