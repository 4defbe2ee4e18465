/* One number across the digits of a vector, radix 2^52, AVX-512 IFMA: the single-operation
 * layout (kernels in mont1_ifma.c, contexts and exponentiation in r52.c). Layout, algorithm,
 * bounds and measurements: src/ifma/README.md.
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

/* The constants of one modulus. */
typedef struct tabai_r52 {
    size_t dd;       /* digits, a multiple of vl */
    unsigned vl;     /* 4 (ymm kernels) or 8 (zmm) */
    size_t n;        /* limbs of p */
    uint64_t k0;     /* -p^-1 mod 2^52 */
    _Alignas(64) uint64_t pbuf[TABAI_R52_BUF]; /* p, padded: digits at pbuf + PAD */
    _Alignas(64) uint64_t rrbuf[TABAI_R52_BUF]; /* R^2 mod p, padded */
    _Alignas(64) uint64_t onebuf[TABAI_R52_BUF]; /* R mod p, padded */
} tabai_r52;

static inline const uint64_t *tabai_r52_p(const tabai_r52 *c) { return c->pbuf + TABAI_R52_PAD; }

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

/* 1 if the CPU has the features and the tier in use is ifma. */
int tabai_r52_usable(void);
/* The measured choice (one table, r52.c): 1 if the single-number layout is the faster
 * constant-time exponentiation for a bits-bit modulus and an ebits-bit exponent at tier
 * ifma, 0 to keep the scalar path; *vl the vector width to use. */
int tabai_r52_choose(size_t bits, size_t ebits, unsigned *vl);
/* Constants for the modulus of mc (odd, 1024 <= bits <= 8192) at width vl and at least
 * min_dd digits. Constant time in p (its length public). Returns 0, or -1 if too long. */
int tabai_r52_init(tabai_r52 *c, const tabai_mont *mc, unsigned vl, size_t min_dd);
size_t tabai_r52_digits(size_t bits, size_t n, unsigned vl);

/* Workspace limbs of the exponentiation of ns (1 or 2) streams of moduli of at most n limbs
 * and an ebits-bit exponent (either width). Generic code: no AVX-512 instruction. */
size_t tabai_r52_scratch_limbs(size_t n, size_t ebits, int ns);
/* r = b^e mod p for the context mc (b < p, mc->n limbs; e: ceil(ebits / 64) limbs, NULL iff
 * ebits == 0), fixed window, table read by masked scans: constant time in b, e and p (ebits
 * and the length of p public). ws: tabai_r52_scratch_limbs(mc->n, ebits, 1) limbs, any
 * alignment, wiped on return (no allocation). Returns TABAI_ERR_SIZE or TABAI_OK; r may be b. */
tabai_status tabai_powmod_r52(const tabai_mont *mc, uint64_t *r, const uint64_t *b,
                              const uint64_t *e, size_t ebits, unsigned vl, uint64_t *ws);
/* r = b^e mod p for a public exponent 1 <= e < 2^64 (the RSA public operation and its use
 * as the fault check of the private one): left to right by bits, in the context c that
 * tabai_r52_init made for mc (any width). b < p, mc->n limbs; r may be b. Constant time in
 * b and p; variable time in e (public). No allocation (about 6 KB of stack). */
void tabai_powmod_r52_e64_vartime(const tabai_r52 *c, const tabai_mont *mc, uint64_t *r,
                                  const uint64_t *b, uint64_t e);
/* r1 = b1^e1 mod p1 and r2 = b2^e2 mod p2 together (the two halves of an RSA CRT private
 * operation): moduli of the same limb count (the contexts m1, m2), exponents of ebits bits
 * each, interleaved in one instruction stream. Same contract as tabai_powmod_r52 for each;
 * the workspace is allocated here (TABAI_ERR_ALLOC). */
tabai_status tabai_powmod2_r52(const tabai_mont *m1, const tabai_mont *m2, uint64_t *r1,
                               uint64_t *r2, const uint64_t *b1, const uint64_t *b2,
                               const uint64_t *e1, const uint64_t *e2, size_t ebits);

#endif
