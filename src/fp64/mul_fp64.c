/* float64-digit product (seed 002, Ohta & Maeno 1994): digits of b bits stored in doubles,
 * every product and column sum an integer below 2^53 and therefore exact, carries delayed to
 * one final pass, the loops blocked 4x4 over registers as in fast matrix multiplication.
 * Portable C with the generic flags (SSE2 scalar doubles on x86-64, no FMA).
 * Bounds: tabai_f64_fits, docs/bounds/delayed.md. */
#include "fp64.h"

/* The one carry pass. The seed propagates in floating point (x = c + carry, carry =
 * trunc(x * 2^-b), digit = x - carry * 2^b); on a current out-of-order core that chain
 * (add, multiply, two conversions: about 14 cycles per column) costs more than all the
 * products at public-key sizes, so the exact columns (integers <= 2^53) are converted to
 * int64 independently and the carries run in integer registers (2 cycles per column). */
void tabai_f64_carry_pass(double *r, const double *c, size_t ncol, unsigned bits) {
    const uint64_t mask = (((uint64_t)1) << bits) - 1;
    uint64_t cy = 0;
    for (size_t k = 0; k < ncol; k++) {
        TABAI_VERIFY_CHECK(tabai_f64_exact(c[k]) && c[k] >= 0); /* an exact column <= 2^53 */
        uint64_t x = (uint64_t)(int64_t)c[k] + cy;
        r[k] = (double)(int64_t)(x & mask);
        cy = x >> bits;
    }
}

/* The seed's floating-point carry pass, kept for the reproduction report (measured beside
 * the integer one). Same contract. */
void tabai_f64_carry_pass_float(double *r, const double *c, size_t ncol, unsigned bits) {
    const double inv = 1.0 / (double)((uint64_t)1 << bits), rad = (double)((uint64_t)1 << bits);
    double cy = 0.0;
    for (size_t k = 0; k < ncol; k++) {
        double x = c[k] + cy;
        double q = (double)(int64_t)(x * inv);
        r[k] = x - q * rad;
        cy = q;
    }
}

/* r[2nd] = a[nd] * b[nd]: 4x4 blocks; for a fixed block of four a-digits the seven columns
 * it touches roll through eight registers c0..c7 while j walks over b (each column loaded
 * and stored once per a-block, 16 multiply-adds per 4 loads of b). */
void tabai_mul_f64_generic(double *r, const double *a, const double *b, size_t nd, unsigned bits) {
    TABAI_VERIFY_CHECK(nd % 4 == 0 && nd >= 4 && nd <= TABAI_RD_MAX_DIGITS);
    TABAI_VERIFY_CHECK(tabai_f64_fits(nd, bits));
    TABAI_VERIFY_CHECK(tabai_f64_digits_ok(a, nd, bits) && tabai_f64_digits_ok(b, nd, bits));
    double c[2 * TABAI_RD_MAX_DIGITS];
    for (size_t k = 0; k < 2 * nd; k++) c[k] = 0.0;
    for (size_t i = 0; i < nd; i += 4) {
        const double a0 = a[i], a1 = a[i + 1], a2 = a[i + 2], a3 = a[i + 3];
        double c0 = c[i], c1 = c[i + 1], c2 = c[i + 2], c3 = c[i + 3];
        size_t j;
        for (j = 0; j < nd; j += 4) {
            double c4 = c[i + j + 4], c5 = c[i + j + 5], c6 = c[i + j + 6], c7 = c[i + j + 7];
            const double b0 = b[j], b1 = b[j + 1], b2 = b[j + 2], b3 = b[j + 3];
            c0 += a0 * b0;
            c1 += a1 * b0;
            c2 += a2 * b0;
            c3 += a3 * b0;
            c1 += a0 * b1;
            c2 += a1 * b1;
            c3 += a2 * b1;
            c4 += a3 * b1;
            c2 += a0 * b2;
            c3 += a1 * b2;
            c4 += a2 * b2;
            c5 += a3 * b2;
            c3 += a0 * b3;
            c4 += a1 * b3;
            c5 += a2 * b3;
            c6 += a3 * b3;
            c[i + j] = c0;
            c[i + j + 1] = c1;
            c[i + j + 2] = c2;
            c[i + j + 3] = c3;
            c0 = c4;
            c1 = c5;
            c2 = c6;
            c3 = c7;
        }
        c[i + j] = c0;
        c[i + j + 1] = c1;
        c[i + j + 2] = c2;
        c[i + j + 3] = c3;
    }
    tabai_f64_carry_pass(r, c, 2 * nd, bits);
}
