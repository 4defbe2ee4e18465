/* Multi-buffer kernel types, the ground floor beside ktypes.h: the function types, bounds and
 * prototypes of the multi-buffer Montgomery kernels (src/ifma, src/avx512, the portable
 * reference in src/mb). Includes only the public header (and, in TABAI_VERIFY builds,
 * src/internal.h), so that the kernel folders include it without pulling in the layer above
 * them; the layout and the algorithm are described in src/mb/mb.h. */
#ifndef TABAI_CPU_MBTYPES_H
#define TABAI_CPU_MBTYPES_H

#include <stddef.h>
#include <stdint.h>

#include "tabai.h"

#define TABAI_MB_MAX_LANES 8
#define TABAI_MB_MAX_BITS 4096                       /* moduli of 64..4096 bits */
#define TABAI_MB_MAX_DIGITS (TABAI_MB_MAX_BITS / 32) /* digits at w = 32 (79 at w = 52) */

/* r = a*b*R^-1 mod p in every lane, R = 2^(w d).
 *   Shapes:   r, a, b, p: d * L digits (layout above); k0: L words, k0[l] = -p_l^-1 mod 2^w.
 *   Requires: digits of a, b, p normalised (< 2^w); a_l < p_l, b_l < p_l; p_l odd;
 *             1 <= d <= the kernel's max_digits.
 *   Ensures:  r normalised, r_l < p_l.
 *   Aliasing: r may equal a and/or b (whole arrays), no partial overlap.
 *   Constant time. */
typedef void (*tabai_mb_mont_mul_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                     const uint64_t *p, const uint64_t *k0, size_t d);
/* r = a^2*R^-1 mod p per lane; as tabai_mb_mont_mul_fn with b = a. */
typedef void (*tabai_mb_mont_sqr_fn)(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                     const uint64_t *k0, size_t d);

/* ent = tab[idx_l] in every lane l (the constant-time table read of the exponentiation):
 * tab holds `entries` vectors of d digits x L lanes; every entry is read in full and each
 * lane keeps its own by masks. idx: L words, each < entries (secret). */
typedef void (*tabai_mb_scan_fn)(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d,
                                 unsigned L, const uint64_t *idx);

#ifdef TABAI_VERIFY
#include "../internal.h"
/* TABAI_VERIFY builds only (these checks branch on values): the preconditions of every kernel
 * above, for L lanes of radix 2^w: 1 <= d <= ceil(TABAI_MB_MAX_BITS / w), digits of a, b, p
 * below 2^w, p_l odd with p_l k0_l = -1 mod 2^w, a_l < p_l and b_l < p_l (no borrow out of
 * the lane's chain x - p; digits < 2^52 make the wrapped difference's top bit the borrow), r
 * the same array as a and b or disjoint from them. The kernels call it through
 * TABAI_MB_VERIFY; without TABAI_VERIFY it compiles to nothing. */
static inline int tabai_mb_verify_below(const uint64_t *x, const uint64_t *p, size_t d,
                                        unsigned L) {
    int ok = 1;
    for (unsigned l = 0; l < L; l++) {
        uint64_t bw = 0;
        for (size_t i = 0; i < d; i++) bw = (x[i * L + l] - p[i * L + l] - bw) >> 63;
        ok &= (int)bw;
    }
    return ok;
}
static inline void tabai_mb_verify_args(const uint64_t *r, const uint64_t *a, const uint64_t *b,
                                        const uint64_t *p, const uint64_t *k0, size_t d, unsigned L,
                                        unsigned w) {
    const uint64_t mask = ((uint64_t)1 << w) - 1;
    TABAI_VERIFY_CHECK(d >= 1 && d <= (TABAI_MB_MAX_BITS + w - 1) / w);
    for (size_t i = 0; i < d * L; i++) TABAI_VERIFY_CHECK(((a[i] | b[i] | p[i]) & ~mask) == 0);
    for (unsigned l = 0; l < L; l++)
        TABAI_VERIFY_CHECK((p[l] & 1) && ((p[l] * k0[l]) & mask) == mask);
    TABAI_VERIFY_CHECK(tabai_mb_verify_below(a, p, d, L) && tabai_mb_verify_below(b, p, d, L));
    TABAI_VERIFY_CHECK(tabai_verify_same_or_disjoint(r, d * L, a, d * L) &&
                       tabai_verify_same_or_disjoint(r, d * L, b, d * L));
}
#define TABAI_MB_VERIFY(r, a, b, p, k0, d, L, w) tabai_mb_verify_args(r, a, b, p, k0, d, L, w)
#else
#define TABAI_MB_VERIFY(r, a, b, p, k0, d, L, w) ((void)0)
#endif

/* ---- kernels (one folder per ISA, own compile flags) ---- */
/* src/ifma: radix 2^52, vpmadd52luq/huq; mb8 = zmm (8 lanes), mb4 = ymm (4 lanes). */
void tabai_mont_mul_r52n_mb8_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *p, const uint64_t *k0, size_t d);
void tabai_mont_sqr_r52n_mb8_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                  const uint64_t *k0, size_t d);
void tabai_mont_mul_r52n_mb4_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *p, const uint64_t *k0, size_t d);
void tabai_mont_sqr_r52n_mb4_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                  const uint64_t *k0, size_t d);
/* src/avx512: radix 2^32, vpmuludq (AVX-512F/VL), the seed's baseline; mb8 = zmm, mb4 = ymm. */
void tabai_mont_mul_r32n_mb8_avx512(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *p, const uint64_t *k0, size_t d);
void tabai_mont_sqr_r32n_mb8_avx512(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                    const uint64_t *k0, size_t d);
void tabai_mont_mul_r32n_mb4_avx512(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *p, const uint64_t *k0, size_t d);
void tabai_mont_sqr_r32n_mb4_avx512(uint64_t *r, const uint64_t *a, const uint64_t *p,
                                    const uint64_t *k0, size_t d);
/* src/avx512: the table scan of every multi-buffer kernel (AVX-512F/VL merge masking). */
void tabai_mb_scan_avx512(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d, unsigned L,
                          const uint64_t *idx);
/* src/avx2: the same contract for L = 4 lanes with AVX2 (compare and blend); the curves' k G
 * on the width-7 table at tier avx2. */
void tabai_mb_scan_avx2(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d, unsigned L,
                        const uint64_t *idx);
/* src/mb: the same algorithm in portable C, any L and w in {32, 52}: the reference the vector
 * kernels are tested against digit for digit, and the "scalar52" kernel of the bench. */
void tabai_mont_mul_rwn_mbl_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *p, const uint64_t *k0, size_t d, unsigned L,
                                    unsigned w);

#endif
