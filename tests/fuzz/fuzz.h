/* Shared input decoder and GMP helpers of the libFuzzer targets (tests/fuzz/README.md).
 *
 * An input is read front to back as a stream of bytes; once it runs out, further bytes come
 * from a xorshift generator seeded by a hash of the whole input, so a short input still
 * describes operands of up to TABAI_MAX_LIMBS limbs and every input is deterministic.
 *
 * Layout every target starts with:
 *   byte 0   tier: byte % TABAI_TIER_COUNT, applied with tabai_cpu_set_tier and checked
 *            (the tier in use must be min(tier, native));
 *   byte 1   limb count n = 1 + byte % TABAI_MAX_LIMBS (fz_size);
 * then target-specific fields, each operand introduced by a class byte (fz_limbs,
 * fz_residue, fz_modulus) so that the structured worst cases (all-ones limbs, 2^k +- c,
 * p-1, digits at the 52- and 29-bit boundaries, ...) are one byte away for the fuzzer.
 *
 * Any disagreement with GMP or with a documented status prints what, the tier, n and every
 * operand in hex, then calls abort(), which libFuzzer reports as a crash with the input. */
#ifndef TABAI_FUZZ_H
#define TABAI_FUZZ_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#include "tabai.h"

#define FZ_MAX TABAI_MAX_LIMBS

typedef struct fz_in {
    const uint8_t *d;
    size_t len, pos;
    uint64_t rng; /* xorshift state for the bytes past the end */
} fz_in;

/* Starts decoding: applies and checks the tier (byte 0). */
void fz_begin(fz_in *in, const uint8_t *data, size_t size);
uint8_t fz_byte(fz_in *in);
uint64_t fz_u64(fz_in *in);
/* 1 + byte % max */
size_t fz_size(fz_in *in, size_t max);

/* Operand classes of fz_limbs (the class byte mod FZ_CLASS_COUNT). */
enum {
    FZ_RAW,      /* 8n bytes, little-endian limbs */
    FZ_RAW2,     /* (weights raw inputs higher) */
    FZ_ONES,     /* every limb 2^64-1 */
    FZ_ZERO,
    FZ_SMALL,    /* one byte */
    FZ_EDGE,     /* each limb one of 0, 1, 2^63-1, 2^63, 2^64-2, 2^64-1 */
    FZ_POW2_PLUS,  /* 2^k + c mod 2^(64n), k < 64n, c < 256 */
    FZ_POW2_MINUS, /* 2^k - c mod 2^(64n) */
    FZ_DIGITS,   /* radix-2^b digits (b in 52, 29, 51, 53, 22, 24, 26, 32) each 0, 1,
                  * 2^(b-1) or 2^b - 1 */
    FZ_RUNS,     /* alternating runs of 0 and 1 bits */
    FZ_TOP,      /* raw with the top limb 1 or 2^64-1 */
    FZ_CLASS_COUNT
};
/* a[n] of the class given by the next byte. */
void fz_limbs(fz_in *in, uint64_t *a, size_t n);

/* Moduli: fz_modulus writes p[n]; parity FZ_ANY keeps the class's own parity, FZ_ODD sets bit
 * 0. The classes add 2^(64n) - c, 2^(64(n-1)) + c, 2^k +- c with k in the top limb, and
 * (rarely) leading zero limbs, which the contexts strip. */
enum { FZ_ANY = 0, FZ_ODD = 1 };
void fz_modulus(fz_in *in, uint64_t *p, size_t n, int parity);

/* Residues: a[n] of a class relative to p[n] (p >= 1): 0, 1, p-1, p-2, p-c, floor(p/2), R mod p,
 * a fz_limbs value mod p, or, for the error paths, a value >= p (p + c, 2^(64n)-1, raw
 * unreduced). Returns 1 if a < p. */
int fz_residue(fz_in *in, uint64_t *a, const uint64_t *p, size_t n);

/* ---- GMP ---- */
void fz_to_mpz(mpz_t z, const uint64_t *a, size_t n);
/* 1 if a[n] == z (z >= 0) */
int fz_eq_mpz(const uint64_t *a, size_t n, const mpz_t z);
/* a[n] = z mod 2^(64n) */
void fz_from_mpz(uint64_t *a, size_t n, const mpz_t z);
/* number of limbs without leading zero limbs */
size_t fz_norm(const uint64_t *a, size_t n);

/* ---- checks ---- */
/* Set what fz_fail prints with every failure: up to 6 named values. */
void fz_note_n(size_t n);
void fz_note(int slot, const char *name, const uint64_t *a, size_t n);
void fz_clear_notes(void);
_Noreturn void fz_fail(const char *file, int line, const char *what);
#define FZ_CHECK(cond, what)                                                                  \
    do {                                                                                      \
        if (!(cond)) fz_fail(__FILE__, __LINE__, (what));                                     \
    } while (0)

/* Output buffers: fz_arm fills r[n] with a sentinel, fz_untouched checks it. */
void fz_arm(uint64_t *r, size_t n);
int fz_untouched(const uint64_t *r, size_t n);

/* The name of a status code ("TABAI_ERR_RANGE"). */
const char *fz_status_name(tabai_status s);
/* FZ_STATUS(got, want, what): fails with both names if they differ. */
#define FZ_STATUS(got, want, what)                                                            \
    do {                                                                                      \
        tabai_status g_ = (got), w_ = (want);                                                 \
        if (g_ != w_) fz_fail_status(__FILE__, __LINE__, (what), g_, w_);                     \
    } while (0)
_Noreturn void fz_fail_status(const char *file, int line, const char *what, tabai_status got,
                              tabai_status want);

#endif
