/* Digit-size bounds of the delayed-carry kernels (src/simd/, src/fp64/) and of the layer
 * above them (src/delayed/), on the ground floor so that both kernel folders include it
 * without including each other or a layer above; and the transposes between 64-bit limbs
 * and radix-2^w digit vectors, shared by the multi-buffer layer (src/mb/) and the
 * single-number IFMA exponentiation (src/mod/). Bounds: docs/bounds/delayed.md; the
 * functions are defined in src/digits.c.
 *
 * Digit forms (all least significant digit first):
 *   - "rd" (reduced-radix integer digits): uint64_t words, each digit < 2^bits, bits <= 32,
 *     so that pmuludq / vpmuludq (32x32 -> 64) multiply two digits exactly.
 *   - "f64" (float64 digits): doubles holding integers < 2^bits.
 *   - "c16": the 16-bit digits of seed 000's Example 1 (uint16_t).
 * The digit size is chosen per size from the bounds below and asserted with
 * TABAI_VERIFY_CHECK in the kernels. */
#ifndef TABAI_DIGITS_H
#define TABAI_DIGITS_H

#include "internal.h"

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

/* ---- transposes: limbs <-> radix-2^w digits of L lanes ---------------------------------- */

/* The layout of src/mb/mb.h (digit i of lane l at x[i * L + l]); L = 1 is one number's
 * digits, the single-number IFMA layout of src/ifma/r52.h. Measured kernels of their own
 * (op "mb_to_digits" / "mb_from_digits").
 * to:   x[d * L] = lanes a[0..L-1] (n limbs each, 64-bit, least significant first) in radix
 *       2^w; a[l] == NULL gives a zero lane. Requires 64 n <= w d (values fit), else the
 *       high limbs must be zero (not checked here).
 * from: r[l][0..n-1] = lane l of x (digits normalised); r[l] == NULL skips lane l. Requires
 *       w d <= 64 n or the lane values < 2^(64 n).
 * Constant time; no aliasing between x and the limb arrays. */
void tabai_mb_to_digits(uint64_t *x, unsigned L, unsigned w, size_t d, const uint64_t *const a[],
                        size_t n);
void tabai_mb_from_digits(uint64_t *const r[], size_t n, const uint64_t *x, unsigned L, unsigned w,
                          size_t d);

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

#endif
