/* The digit-size bounds of src/digits.h (docs/bounds/delayed.md), on the ground floor with
 * their header: the kernels of src/simd/ and src/fp64/ check them, the layer above chooses
 * digit sizes with them; and the transposes between limbs and radix-2^w lane digits, which
 * the multi-buffer layer (src/mb/) and the single-number IFMA exponentiation (src/mod/) both
 * use. Compiled with the generic flags. */
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

/* ---- transposes: limbs <-> radix-2^w digits of L lanes ------------------------------ */

void tabai_mb_to_digits(uint64_t *x, unsigned L, unsigned w, size_t d, const uint64_t *const a[],
                        size_t n) {
    const uint64_t mask = ((uint64_t)1 << w) - 1;
    for (unsigned l = 0; l < L; l++) {
        const uint64_t *al = a[l];
        tabai_u128 acc = 0; /* bit buffer: bits not yet written as digits */
        unsigned have = 0;
        size_t k = 0;
        for (size_t i = 0; i < d; i++) {
            if (have < w) { /* public: depends on i only */
                uint64_t limb = (al && k < n) ? al[k] : 0;
                k++;
                acc |= (tabai_u128)limb << have;
                have += 64;
            }
            x[i * L + l] = (uint64_t)acc & mask;
            acc >>= w;
            have -= w;
        }
    }
}

void tabai_mb_from_digits(uint64_t *const r[], size_t n, const uint64_t *x, unsigned L, unsigned w,
                          size_t d) {
    for (unsigned l = 0; l < L; l++) {
        uint64_t *rl = r[l];
        if (!rl) continue;
        tabai_u128 acc = 0;
        unsigned have = 0;
        size_t k = 0;
        for (size_t i = 0; i < d && k < n; i++) {
            acc |= (tabai_u128)x[i * L + l] << have;
            have += w;
            if (have >= 64) {
                rl[k++] = (uint64_t)acc;
                acc >>= 64;
                have -= 64;
            }
        }
        for (; k < n; k++) { /* the rest of the bit buffer, then zeros */
            rl[k] = (uint64_t)acc;
            acc >>= 64;
        }
    }
}
