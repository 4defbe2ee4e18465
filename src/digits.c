/* The digit-size bounds of src/digits.h (docs/bounds/delayed.md), on the ground floor with
 * their header: the kernels of src/simd/ and src/fp64/ check them, the layer above chooses
 * digit sizes with them. Compiled with the generic flags. */
#include "digits.h"

/* ---- bounds ---------------------------------------------------------------------------- */

int tabai_rd_fits(size_t m, unsigned b) {
    if (b < 1 || b > 32 || m == 0 || m > ((size_t)1 << 32)) return 0;
    tabai_u128 t = (tabai_u128)m * ((((tabai_u128)1 << b) - 1) << b);
    return t < ((tabai_u128)1 << 64);
}

size_t tabai_rd_max_terms(unsigned b) {
    if (b < 1 || b > 32) return 0;
    tabai_u128 unit = (((tabai_u128)1 << b) - 1) << b;
    tabai_u128 m = (((tabai_u128)1 << 64) - 1) / unit;
    return m > ((tabai_u128)1 << 32) ? (size_t)1 << 32 : (size_t)m;
}

unsigned tabai_rd_bits_for(size_t n) {
    for (unsigned b = 32; b >= 1; b--)
        if (tabai_rd_fits(tabai_digits_for(64 * n, b), b)) return b;
    return 0;
}

int tabai_f64_fits(size_t m, unsigned b) {
    if (b < 1 || b > 26 || m == 0 || m > ((size_t)1 << 32)) return 0;
    tabai_u128 t = (tabai_u128)m * ((((tabai_u128)1 << b) - 1) << b);
    return t <= ((tabai_u128)1 << 53);
}

size_t tabai_f64_max_terms(unsigned b) {
    if (b < 1 || b > 26) return 0;
    tabai_u128 unit = (((tabai_u128)1 << b) - 1) << b;
    return (size_t)(((tabai_u128)1 << 53) / unit);
}

unsigned tabai_f64_bits_for(size_t n) {
    for (unsigned b = 26; b >= 1; b--)
        if (tabai_f64_fits(tabai_f64_digits_for(n, b), b)) return b;
    return 0;
}

int tabai_f64fma_fits(size_t m, unsigned b) {
    if (b < 2 || b > 51 || m == 0 || m > ((size_t)1 << 32)) return 0;
    tabai_u128 lo = (tabai_u128)m << (b - 1);
    tabai_u128 hi = (tabai_u128)m * (((tabai_u128)1 << b) - 1);
    tabai_u128 lim = (tabai_u128)1 << 53;
    return lo <= lim && hi <= lim;
}

size_t tabai_f64fma_max_terms(unsigned b) {
    if (b < 2 || b > 51) return 0;
    size_t lo = (size_t)1 << (53 - (b - 1));
    size_t hi = (size_t)(((uint64_t)1 << 53) / ((((uint64_t)1) << b) - 1));
    return lo < hi ? lo : hi;
}

unsigned tabai_f64fma_bits_for(size_t n) {
    for (unsigned b = 51; b >= 2; b--)
        if (tabai_f64fma_fits(tabai_f64_digits_for(n, b), b)) return b;
    return 0;
}
