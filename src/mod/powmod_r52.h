/* The single-number radix-2^52 exponentiation at tier ifma, the layer over the kernels of
 * src/ifma/r52.h (layout and bounds there): contexts from the scalar Montgomery context, the
 * measured choice of layout and width per size, the constant-time fixed-window
 * exponentiation of one number or of two (the two halves of an RSA CRT operation). Defined in
 * powmod_r52.c (generic flags); used by powmod.c and by the batch engine of src/mb/.
 * Algorithm and measurements: src/ifma/README.md. */
#ifndef TABAI_MOD_POWMOD_R52_H
#define TABAI_MOD_POWMOD_R52_H

#include "../ifma/r52.h"
#include "../internal.h"

/* The constants of one modulus. */
typedef struct tabai_r52 {
    size_t dd;                                   /* digits, a multiple of vl */
    unsigned vl;                                 /* 4 (ymm kernels) or 8 (zmm) */
    size_t n;                                    /* limbs of p */
    uint64_t k0;                                 /* -p^-1 mod 2^52 */
    _Alignas(64) uint64_t pbuf[TABAI_R52_BUF];   /* p, padded: digits at pbuf + PAD */
    _Alignas(64) uint64_t rrbuf[TABAI_R52_BUF];  /* R^2 mod p, padded */
    _Alignas(64) uint64_t onebuf[TABAI_R52_BUF]; /* R mod p, padded */
} tabai_r52;

static inline const uint64_t *tabai_r52_p(const tabai_r52 *c) { return c->pbuf + TABAI_R52_PAD; }

/* 1 if the CPU has the features and the tier in use is ifma. */
int tabai_r52_usable(void);
/* The measured choice (one table, powmod_r52.c): 1 if the single-number layout is the faster
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
