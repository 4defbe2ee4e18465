/* Portable C Montgomery kernels, tier "generic": product-scanning (FIPS) product and squaring,
 * modular add and sub; runtime n and fixed-size instances n = 1..16.
 * Source: Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
 * algorithms", IEEE Micro 16(3), 1996 (CIOS and SOS). */
#include "limb.h"


void tabai_mod_add_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             size_t n) {
    tabai_mod_add_inline(r, a, b, p, n);
}

void tabai_mod_sub_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             size_t n) {
    tabai_mod_sub_inline(r, a, b, p, n);
}

#define X(N)                                                                                  \
    void tabai_mont_mul_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,     \
                                       const uint64_t *p, uint64_t pinv, size_t n) {          \
        (void)n;                                                                              \
        tabai_mont_mul_inline(r, a, b, p, pinv, N);                                           \
    }                                                                                         \
    void tabai_mont_sqr_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *p,     \
                                       uint64_t pinv, size_t n) {                             \
        (void)n;                                                                              \
        tabai_mont_sqr_inline(r, a, p, pinv, N);                                              \
    }                                                                                         \
    void tabai_mod_add_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,      \
                                      const uint64_t *p, size_t n) {                          \
        (void)n;                                                                              \
        tabai_mod_add_inline(r, a, b, p, N);                                                  \
    }                                                                                         \
    void tabai_mod_sub_n##N##_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,      \
                                      const uint64_t *p, size_t n) {                          \
        (void)n;                                                                              \
        tabai_mod_sub_inline(r, a, b, p, N);                                                  \
    }
TABAI_FOR_FIXED(X)
#undef X

typedef uint64_t (*redc_block_fn)(uint64_t *t, uint64_t *q, const uint64_t *p, uint64_t pinv);
#define X(N)                                                                                  \
    static uint64_t redc_block_n##N(uint64_t *t, uint64_t *q, const uint64_t *p, uint64_t pinv) { \
        return tabai_redc_block_inline(t, q, p, pinv, N);                                     \
    }
TABAI_FOR_FIXED(X)
#undef X
#define X(N) redc_block_n##N,
static const redc_block_fn redc_block_fixed[TABAI_FIXED_MAX + 1] = {NULL, TABAI_FOR_FIXED(X)};
#undef X
/* the two wide blocks: the whole of a 24- or 32-limb modulus in one pass */
static uint64_t redc_block_n24(uint64_t *t, uint64_t *q, const uint64_t *p, uint64_t pinv) {
    return tabai_redc_block_inline(t, q, p, pinv, 24);
}
static uint64_t redc_block_n32(uint64_t *t, uint64_t *q, const uint64_t *p, uint64_t pinv) {
    return tabai_redc_block_inline(t, q, p, pinv, 32);
}

/* widths with a fused instance: 1..16, 24, 32 */
TABAI_INLINE uint64_t redc_block(size_t w, uint64_t *t, uint64_t *q, const uint64_t *p,
                                 uint64_t pinv) {
    if (w == 24) return redc_block_n24(t, q, p, pinv);
    if (w == 32) return redc_block_n32(t, q, p, pinv);
    return redc_block_fixed[w](t, q, p, pinv);
}

/* Block width for n limbs (public): one block up to 16 limbs and at 24 and 32; halves of
 * 48 and 64 (so that the rest of p is one Karatsuba product); else halves up to 32 limbs
 * and 16 above. */
TABAI_INLINE size_t redc_width(size_t n) {
    if (n <= TABAI_FIXED_MAX || n == 24 || n == 32) return n;
    if (n == 48 || n == 64) return n / 2;
    return n <= 2 * TABAI_FIXED_MAX ? (n + 1) / 2 : TABAI_FIXED_MAX;
}

#define REDC_UNROLL TABAI_UNROLL_BY(130)

/* The block reduction of tabai_redc_blocks, inlined into its constant-n instances.
 * Invariant: after block j the running value V = T + (q's so far) * p is t[0..2n] plus
 * d * 2^(64(j+w+n+1)), V < 2pR < 2^(64(2n+1)); the deferred carry d enters the next
 * block's row, which spans that position, so no carry is ever rippled to the top. */
TABAI_INLINE void redc_blocks(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv,
                              size_t n) {
    uint64_t q[32], pad[32], prod[64];
    uint64_t row[TABAI_MAX_LIMBS + 64];
    uint64_t d = 0;
    size_t bw = redc_width(n);
    REDC_UNROLL for (size_t j = 0; j < n; j += bw) {
        size_t w = n - j < bw ? n - j : bw, rest = n - w;
        /* q zeroes t[j..j+w); t[j+w..j+2w) += the upper half of q * p[0..w); c0 at j+2w */
        uint64_t c0 = redc_block(w, t + j, q, p, pinv);
        /* row = q * p[w..n) (n limbs), by w x w blocks, the last one zero-padded */
        REDC_UNROLL for (size_t i = 0; i <= n; i++) row[i] = 0;
        REDC_UNROLL for (size_t c = 0; c < rest; c += w) {
            const uint64_t *src = p + w + c;
            if (rest - c < w) {
                REDC_UNROLL for (size_t i = 0; i < w; i++) pad[i] = i < rest - c ? src[i] : 0;
                src = pad;
            }
            tabai_mul_n_generic(prod, q, src, w); /* fixed Comba, or Karatsuba for 24, 32 */
            uint64_t cy = 0;
            REDC_UNROLL for (size_t i = 0; i < w; i++)
                cy = tabai_adc(&row[c + i], row[c + i], prod[i], cy);
            REDC_UNROLL for (size_t i = w; i < 2 * w; i++)
                cy = tabai_adc(&row[c + i], prod[i], 0, cy);
        }
        /* t[j+w .. j+w+n] += row + c0 * 2^(64w) + d * 2^(64(n+1-w)); the sum of the last
         * three is below 2^(64n+1), so the inner chain ends without a carry */
        uint64_t cy = 0; /* separate passes: each carry chain stays in the flag */
        REDC_UNROLL for (size_t i = w; i <= n; i++)
            cy = tabai_adc(&row[i], row[i], (i == w ? c0 : 0) + (i == n + 1 - w ? d : 0), cy);
        cy = 0;
        REDC_UNROLL for (size_t i = 0; i <= n; i++)
            cy = tabai_adc(&t[j + w + i], t[j + w + i], row[i], cy);
        d = cy;
    }
    tabai_mont_final_sub(r, t + n, t[2 * n], p, n);
}

#define REDC_FIXED(N)                                                                         \
    static void redc_n##N(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv) {       \
        redc_blocks(r, t, p, pinv, N);                                                        \
    }
REDC_FIXED(24)
REDC_FIXED(32)
REDC_FIXED(48)
REDC_FIXED(64)
#undef REDC_FIXED

void tabai_redc_blocks(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv, size_t n) {
    TABAI_VERIFY_CHECK(tabai_verify_mont_modulus(p, pinv, n) && t[2 * n] == 0 &&
                       tabai_lt_n(t + n, p, n)); /* t < p R */
    switch (n) { /* n is public */
    case 24: redc_n24(r, t, p, pinv); break;
    case 32: redc_n32(r, t, p, pinv); break;
    case 48: redc_n48(r, t, p, pinv); break;
    case 64: redc_n64(r, t, p, pinv); break;
    default: redc_blocks(r, t, p, pinv, n);
    }
}

/* Any n: the Karatsuba product (or square) and the block reduction, both onto the
 * fixed-size instances (the slots 1..16 have the fused product-scanning kernels). */
void tabai_mont_mul_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                              uint64_t pinv, size_t n) {
    TABAI_VERIFY_CHECK(tabai_verify_mont_modulus(p, pinv, n) && tabai_lt_n(a, p, n) &&
                       tabai_lt_n(b, p, n));
    uint64_t t[2 * TABAI_MAX_LIMBS + 1];
    tabai_mul_n_generic(t, a, b, n);
    t[2 * n] = 0;
    tabai_redc_blocks(r, t, p, pinv, n);
}

void tabai_mont_sqr_n_generic(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv,
                              size_t n) {
    TABAI_VERIFY_CHECK(tabai_verify_mont_modulus(p, pinv, n) && tabai_lt_n(a, p, n));
    uint64_t t[2 * TABAI_MAX_LIMBS + 1];
    tabai_sqr_n_generic(t, a, n);
    t[2 * n] = 0;
    tabai_redc_blocks(r, t, p, pinv, n);
}
