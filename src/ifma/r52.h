/* One number across the digits of a vector, radix 2^52, AVX-512 IFMA: the single-operation
 * layout and its kernels (mont1_ifma.c); the contexts, the measured choice and the
 * exponentiation are the layer above, src/mod/powmod_r52.h. Layout, algorithm, bounds and
 * measurements: src/ifma/README.md.
 *
 * A value is DD digits < 2^52 (least significant first), DD a multiple of the vector width
 * VL (4 for ymm, 8 for zmm), stored with TABAI_R52_PAD zero words on either side: the kernels
 * read x[-PAD .. DD + PAD) and write r[0 .. DD) only, so the pads of every buffer are zeroed
 * once and stay zero. R = 2^(52 DD) with 4 p < R: "almost Montgomery" products, inputs and
 * outputs < 2p, one final reduction at the end of an exponentiation. */
#ifndef TABAI_IFMA_R52_H
#define TABAI_IFMA_R52_H

#include "../internal.h"

#define TABAI_R52_PAD 8
#define TABAI_R52_MAXD 160 /* 8192 + 2 bits in zmm digits */
#define TABAI_R52_BUF (TABAI_R52_MAXD + 2 * TABAI_R52_PAD)

/* The kernels (mont1_ifma.c; -mavx512f -mavx512vl -mavx512ifma). r, a, b: padded digit
 * pointers of dd digits, a, b < 2p, r < 2p, r = a b R^-1 mod p (not fully reduced). r may be
 * a and/or b. vl = 4 runs ymm, vl = 8 zmm. Constant time (dd, vl public). */
void tabai_mont_mul_r52n_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                              const uint64_t *p, uint64_t k0, size_t dd, unsigned vl);
void tabai_mont_sqr_r52n_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t k0,
                              size_t dd, unsigned vl);
/* Two independent products of the same digit count dd, moduli p1, p2: one instruction
 * stream, the two reduction chains interleaved. */
void tabai_mont_mul2_r52n_ifma(uint64_t *r1, uint64_t *r2, const uint64_t *a1,
                               const uint64_t *a2, const uint64_t *b1, const uint64_t *b2,
                               const uint64_t *p1, const uint64_t *p2, uint64_t k01,
                               uint64_t k02, size_t dd, unsigned vl);
void tabai_mont_sqr2_r52n_ifma(uint64_t *r1, uint64_t *r2, const uint64_t *a1,
                               const uint64_t *a2, const uint64_t *p1, const uint64_t *p2,
                               uint64_t k01, uint64_t k02, size_t dd, unsigned vl);
/* ent[0 .. dd) = tab[idx * stride ...]: every entry read, kept by masks. */
void tabai_r52_scan_ifma(uint64_t *ent, const uint64_t *tab, size_t entries, size_t stride,
                         size_t dd, uint64_t idx);

#endif
