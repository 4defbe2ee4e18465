/* The conversions between 64-bit limbs and digits (the bounds are src/digits.c). Compiled
 * with the generic flags. */
#include "delayed.h"

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
