/* Digit-size bounds, conversions between 64-bit limbs and digits, the portable reference
 * of the reduced-radix product, and seed 000's Example 1 (16-bit digits, carry on every
 * step). Compiled with the generic flags. Bounds: docs/bounds/delayed.md. */
#include "delayed.h"

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

/* ---- conversions ----------------------------------------------------------------------- */

/* digit j of a[n] in radix 2^b (positions are public: the branches depend on j, b, n) */
static inline uint64_t digit_at(const uint64_t *a, size_t n, size_t j, unsigned b) {
    size_t pos = j * b, li = pos >> 6;
    unsigned off = (unsigned)(pos & 63);
    uint64_t x = li < n ? a[li] >> off : 0;
    if (off + b > 64 && li + 1 < n) x |= a[li + 1] << (64 - off);
    return x & ((((uint64_t)1) << b) - 1);
}

/* Streaming extraction: `cur` holds the next `have` unread bits. The branch depends on the
 * digit position only (public). */
void tabai_rd_from_limbs(uint64_t *d, size_t nd, const uint64_t *a, size_t n, unsigned b) {
    const uint64_t mask = (((uint64_t)1) << b) - 1;
    uint64_t cur = n ? a[0] : 0;
    unsigned have = 64;
    size_t li = 1;
    for (size_t j = 0; j < nd; j++) {
        if (have >= b) {
            d[j] = cur & mask;
            cur = b < 64 ? cur >> b : 0;
            have -= b;
        } else {
            uint64_t next = li < n ? a[li] : 0;
            li++;
            d[j] = (cur | (next << have)) & mask; /* have < b <= 63: shift in range */
            cur = next >> (b - have);
            have = 64 - (b - have);
        }
    }
}

void tabai_f64_from_limbs(double *d, size_t nd, const uint64_t *a, size_t n, unsigned b) {
    for (size_t j = 0; j < nd; j++) d[j] = (double)(int64_t)digit_at(a, n, j, b); /* < 2^53: exact, no branch */
}

/* Packs digits (< 2^b, b <= 63) into limbs with 64-bit shifts: acc holds `have` < 64 bits.
 * The branch depends on the digit position only (public). */
#define PACK_DIGITS(GET)                                                                    \
    uint64_t acc = 0;                                                                       \
    unsigned have = 0;                                                                      \
    size_t li = 0;                                                                          \
    for (size_t j = 0; j < nd && li < n; j++) {                                             \
        uint64_t x = GET(j);                                                                \
        acc |= x << have;                                                                   \
        if (have + b >= 64) {                                                               \
            r[li++] = acc;                                                                  \
            acc = have ? x >> (64 - have) : 0;                                              \
            have = have + b - 64;                                                           \
        } else {                                                                            \
            have += b;                                                                      \
        }                                                                                   \
    }                                                                                       \
    while (li < n) {                                                                        \
        r[li++] = acc;                                                                      \
        acc = 0;                                                                            \
    }

void tabai_rd_to_limbs(uint64_t *r, size_t n, const uint64_t *d, size_t nd, unsigned b) {
#define GET_RD(j) d[j]
    PACK_DIGITS(GET_RD)
#undef GET_RD
}

void tabai_f64_to_limbs(uint64_t *r, size_t n, const double *d, size_t nd, unsigned b) {
#define GET_F64(j) ((uint64_t)(int64_t)d[j]) /* via int64: no branch on the value */
    PACK_DIGITS(GET_F64)
#undef GET_F64
}

/* ---- reduced-radix reference product --------------------------------------------------- */

/* r[2nd] = a[nd] * b[nd], plain column sums then one carry pass (the reference the SIMD
 * kernels are tested against besides GMP). */
void tabai_mul_rd_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t nd,
                          unsigned bits) {
    TABAI_VERIFY_CHECK(nd >= 1 && nd <= TABAI_RD_MAX_DIGITS && tabai_rd_fits(nd, bits));
    TABAI_VERIFY_CHECK(tabai_rd_digits_ok(a, nd, bits) && tabai_rd_digits_ok(b, nd, bits));
    TABAI_VERIFY_CHECK(tabai_verify_disjoint(r, 16 * nd, a, 8 * nd) &&
                       tabai_verify_disjoint(r, 16 * nd, b, 8 * nd));
    uint64_t col[2 * TABAI_RD_MAX_DIGITS];
    for (size_t k = 0; k < 2 * nd; k++) col[k] = 0;
    for (size_t i = 0; i < nd; i++)
        for (size_t j = 0; j < nd; j++) col[i + j] += a[i] * b[j];
    const uint64_t mask = (((uint64_t)1) << bits) - 1;
    uint64_t cy = 0;
    for (size_t k = 0; k < 2 * nd; k++) {
        uint64_t x = col[k] + cy;
        TABAI_VERIFY_CHECK(x >= cy); /* column + carry below 2^64 (tabai_rd_fits) */
        r[k] = x & mask;
        cy = x >> bits;
    }
    TABAI_VERIFY_CHECK(cy == 0); /* the product fits its 2nd digits */
}

/* ---- seed 000, Example 1: 16-bit digits, carry on every step --------------------------- */

/* noinline: the baseline is measured as the seed's separate routine over 16-bit arrays */
__attribute__((noinline)) void tabai_mul_c16_generic(uint16_t *t, const uint16_t *a,
                                                     const uint16_t *b, size_t nd) {
    for (size_t k = 0; k < 2 * nd; k++) t[k] = 0;
    for (size_t i = 0; i < nd; i++) {
        uint32_t carry = 0;
        for (size_t j = 0; j < nd; j++) {
            uint32_t result = (uint32_t)a[i] * b[j] + t[i + j] + carry;
            t[i + j] = (uint16_t)result;
            carry = result >> 16;
        }
        t[i + nd] = (uint16_t)carry;
    }
}

/* gcc cannot see that the loop below fills the 4n digits the call reads */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
void tabai_mul_n_c16_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    uint16_t a16[4 * TABAI_MAX_LIMBS], b16[4 * TABAI_MAX_LIMBS], t16[8 * TABAI_MAX_LIMBS];
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS);
    for (size_t i = 0; i < n; i++)
        for (unsigned q = 0; q < 4; q++) {
            a16[4 * i + q] = (uint16_t)(a[i] >> (16 * q));
            b16[4 * i + q] = (uint16_t)(b[i] >> (16 * q));
        }
    tabai_mul_c16_generic(t16, a16, b16, 4 * n);
    for (size_t i = 0; i < 2 * n; i++)
        r[i] = (uint64_t)t16[4 * i] | (uint64_t)t16[4 * i + 1] << 16 |
               (uint64_t)t16[4 * i + 2] << 32 | (uint64_t)t16[4 * i + 3] << 48;
}
#pragma GCC diagnostic pop
