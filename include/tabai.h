/* tabai (多倍): multi-precision integer and modular arithmetic at public-key sizes.
 *
 * Conventions (the legend of docs/ARCHITECTURE.md):
 *   - A number is an array of uint64_t limbs, least significant limb first.
 *   - Arguments: context first, then outputs, then inputs, the limb count last:
 *     (ctx, r, a, b) and (r, a, b, n). r result, a b operands, p modulus,
 *     n limb count, pinv = -p^-1 mod 2^64, rr = R^2 mod p, cy / bw carry / borrow.
 *   - Everything is constant time (no secret-dependent branch, memory address or
 *     variable-latency instruction) unless its name ends in `_vartime`. Limb counts,
 *     exponent bit lengths and moduli of the contexts are public.
 *   - Functions that take a context return a tabai_status and write nothing to their
 *     output on error. Raw limb functions follow GMP's mpn conventions (no status).
 *   - Sizes: 1 <= n <= TABAI_MAX_LIMBS (64 to 8192 bits) for everything with a modulus.
 */
#ifndef TABAI_H
#define TABAI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define TABAI_API
#else
#define TABAI_API __attribute__((visibility("default")))
#endif

/** On a function whose tabai_status the caller must look at, the library's own sources
 *  included: an internal call either passes the error on or says why it cannot happen with
 *  `(void)!` (GCC does not accept a plain (void) cast for it). */
#if defined(__GNUC__) || defined(__clang__)
#define TABAI_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#else
#define TABAI_WARN_UNUSED_RESULT
#endif

/** On a function that does not check its pointers (the raw limb functions): the listed
 *  arguments (1-based) must not be NULL, and the compiler may warn when one is. Never on a
 *  function that checks for NULL (TABAI_ERR_NULL): the compiler could drop that check. */
#if defined(__GNUC__) || defined(__clang__)
#define TABAI_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#define TABAI_NONNULL(...)
#endif

#define TABAI_VERSION_MAJOR 0
#define TABAI_VERSION_MINOR 1
#define TABAI_VERSION_PATCH 0

/** The largest limb count of a modulus: 128 limbs = 8192 bits. */
#define TABAI_MAX_LIMBS 128

/** Status codes. TABAI_OK is 0; every error is negative. */
typedef enum tabai_status {
    TABAI_OK = 0,
    TABAI_ERR_NULL = -1,     /**< a required pointer is NULL */
    TABAI_ERR_SIZE = -2,     /**< a limb count or byte length is 0 or above TABAI_MAX_LIMBS */
    TABAI_ERR_MODULUS = -3,  /**< modulus not allowed: Montgomery needs odd p >= 3, Ohta p >= 2 */
    TABAI_ERR_RANGE = -4,    /**< an operand that must be reduced is >= p */
    TABAI_ERR_NOINV = -5,    /**< the inverse does not exist (operand is 0 mod p or not coprime) */
    TABAI_ERR_TIER = -6,     /**< the kernel or tier asked for is not available on this CPU */
    TABAI_ERR_KERNEL = -7,   /**< the kernel asked for does not support this size */
    TABAI_ERR_ALLOC = -8,    /**< a convenience function could not allocate its scratch */
    TABAI_ERR_SCRATCH = -9,  /**< a scratch buffer is shorter than its size query asks */
    TABAI_ERR_FAULT = -10,   /**< a result failed its own check (fault detected); nothing written */
    /* -20 .. -29: RSA, Diffie-Hellman and DSA key and parameter checks */
    TABAI_ERR_RSA_SIZE = -20, /**< RSA modulus outside 1024..8192 bits */
    TABAI_ERR_RSA_E = -21,    /**< RSA public exponent even or < 3 */
    TABAI_ERR_RSA_PQ = -22,   /**< p or q even or < 3, p == q, or p*q != n */
    TABAI_ERR_RSA_DP = -23,   /**< dP >= p-1 or e*dP != 1 mod (p-1) */
    TABAI_ERR_RSA_DQ = -24,   /**< dQ >= q-1 or e*dQ != 1 mod (q-1) */
    TABAI_ERR_RSA_QINV = -25, /**< qInv >= p or q*qInv != 1 mod p */
    TABAI_ERR_RSA_D = -26,    /**< d >= n, or d != dP mod (p-1), or d != dQ mod (q-1) */
    /* -30 .. -39: elliptic curves (tabai_ec.h) */
    TABAI_ERR_CURVE = -30,     /**< unknown curve */
    TABAI_ERR_POINT = -31,     /**< a point is badly encoded, not on the curve, or at infinity
                                    where a public key is needed; an X25519 result of zero */
    TABAI_ERR_SCALAR = -32,    /**< a private scalar is 0 or >= the group order */
    TABAI_ERR_SIGNATURE = -33, /**< a signature is malformed (r or s 0 or >= n) or does not verify */
    TABAI_ERR_RANDOM = -34     /**< the operating system's random generator failed */
} tabai_status;

/** A short English text for a status code (static storage, never NULL). */
TABAI_API const char *tabai_status_str(tabai_status s);

/** Version string "major.minor.patch". */
TABAI_API const char *tabai_version(void);

/** Sets len bytes at p to zero in a way the compiler cannot remove (a store through a
 *  volatile pointer followed by a compiler barrier), for secret memory that is about to be
 *  freed or go out of scope. p may be NULL when len is 0. Time: constant in the contents. */
TABAI_API void tabai_wipe(void *p, size_t len);

/* ------------------------------------------------------------------------------------
 * CPU features and dispatch tiers.
 * Tiers, lowest first: generic (portable C), bmi2 (BMI2 + ADX: mulx/adcx/adox),
 * avx2, avx512 (AVX-512F/VL/BW), ifma (AVX-512 IFMA52). The environment variable
 * TABAI_CPU (generic, bmi2, avx2, avx512, ifma, native) caps the tier, read once on
 * first use; never above what the CPU has. An unknown value prints a message to stderr
 * and uses native.
 * ------------------------------------------------------------------------------------ */
typedef enum tabai_tier {
    TABAI_TIER_GENERIC = 0,
    TABAI_TIER_BMI2 = 1,
    TABAI_TIER_AVX2 = 2,
    TABAI_TIER_AVX512 = 3,
    TABAI_TIER_IFMA = 4
} tabai_tier;
#define TABAI_TIER_COUNT 5

/** CPU feature bits, as returned by tabai_cpu_features(). */
#define TABAI_CPU_BMI2 (1u << 0)
#define TABAI_CPU_ADX (1u << 1)
#define TABAI_CPU_AVX2 (1u << 2)
#define TABAI_CPU_AVX512F (1u << 3)
#define TABAI_CPU_AVX512VL (1u << 4)
#define TABAI_CPU_AVX512BW (1u << 5)
#define TABAI_CPU_AVX512IFMA (1u << 6)
#define TABAI_CPU_FMA (1u << 7)
#define TABAI_CPU_SSE2 (1u << 8)

/** Features the CPU has and the OS has enabled (cpuid + XGETBV), computed once. */
TABAI_API unsigned tabai_cpu_features(void);
/** The highest tier the CPU supports. */
TABAI_API tabai_tier tabai_cpu_native_tier(void);
/** The tier in use: the native tier capped by TABAI_CPU. */
TABAI_API tabai_tier tabai_cpu_tier(void);
/** Name of the tier in use ("generic", "bmi2", ...). */
TABAI_API const char *tabai_cpu_name(void);
/** Name of a tier, or NULL if t is out of range. */
TABAI_API const char *tabai_tier_name(tabai_tier t);
/** Parse a tier name (also "native"); returns -1 for an unknown name. */
TABAI_API int tabai_tier_parse(const char *name);
/** CPU brand string (static storage). */
TABAI_API const char *tabai_cpu_brand(void);
/** Cap the tier for the calling process from now on (like TABAI_CPU; never above native).
 *  Contexts created before keep the kernels they copied.
 *  Errors: TABAI_ERR_TIER if t is not a valid tier. Not thread safe against concurrent
 *  context creation. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_cpu_set_tier(tabai_tier t);

/* ------------------------------------------------------------------------------------
 * Raw limb arithmetic (GMP mpn style). Any n >= 1; n = 0 writes nothing and returns 0.
 * Pointers must be valid for the stated number of limbs, and never NULL (even for n = 0):
 * these functions do not check them (TABAI_NONNULL). Constant time.
 * Above TABAI_MAX_LIMBS, tabai_mul_n, tabai_sqr_n and tabai_mul (an == bn) take their
 * Karatsuba scratch (about 56n bytes) from the heap and wipe it before freeing; if that
 * allocation fails they compute the same product by schoolbook rows without scratch
 * (slower, never an error).
 * ------------------------------------------------------------------------------------ */

/** r[n] = a[n] + b[n]; returns the carry out (0 or 1).
 *  Aliasing: r may equal a and/or b. */
TABAI_API TABAI_NONNULL(1, 2, 3) uint64_t
    tabai_add_n(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
/** r[n] = a[n] - b[n] mod 2^(64n); returns the borrow out (0 or 1).
 *  Aliasing: r may equal a and/or b. */
TABAI_API TABAI_NONNULL(1, 2, 3) uint64_t
    tabai_sub_n(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
/** r[2n] = a[n] * b[n] ("mulPre"). Aliasing: r must not overlap a or b; a may equal b. */
TABAI_API TABAI_NONNULL(1, 2, 3) void tabai_mul_n(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                                  size_t n);
/** r[2n] = a[n]^2, off-diagonal products once, doubled, plus the diagonal.
 *  Aliasing: r must not overlap a. */
TABAI_API TABAI_NONNULL(1, 2) void tabai_sqr_n(uint64_t *r, const uint64_t *a, size_t n);
/** r[an+bn] = a[an] * b[bn], any an, bn >= 1. Aliasing: r must not overlap a or b. */
TABAI_API TABAI_NONNULL(1, 2, 4) void tabai_mul(uint64_t *r, const uint64_t *a, size_t an,
                                                const uint64_t *b, size_t bn);
/** r[n] = a[n] * b; returns the high limb. Aliasing: r may equal a. */
TABAI_API TABAI_NONNULL(1, 2) uint64_t
    tabai_mul_1(uint64_t *r, const uint64_t *a, size_t n, uint64_t b);
/** r[n] += a[n] * b; returns the high limb. Aliasing: r must not overlap a unless r == a. */
TABAI_API TABAI_NONNULL(1, 2) uint64_t
    tabai_addmul_1(uint64_t *r, const uint64_t *a, size_t n, uint64_t b);
/** Compares a[n] and b[n]: returns -1, 0 or 1. Constant time (the result is public). */
TABAI_API TABAI_NONNULL(1, 2) int tabai_cmp_n(const uint64_t *a, const uint64_t *b, size_t n);
/** r[n] = cond ? a[n] : b[n], cond in {0, 1} (any non-zero counts as 1), by masks.
 *  Aliasing: r may equal a and/or b. */
TABAI_API TABAI_NONNULL(1, 3, 4) void tabai_cnd_select_n(uint64_t *r, uint64_t cond,
                                                         const uint64_t *a, const uint64_t *b,
                                                         size_t n);
/** If cond != 0: r[n] = a[n] - b[n], else r[n] = a[n]; returns the borrow (0 if !cond).
 *  By masks, no branch. Aliasing: r may equal a and/or b. */
TABAI_API TABAI_NONNULL(1, 3, 4) uint64_t
    tabai_cnd_sub_n(uint64_t *r, uint64_t cond, const uint64_t *a, const uint64_t *b, size_t n);

/** Big-endian bytes to limbs: r[n] = the last 8n bytes of be[len] (zero-extended).
 *  Errors: TABAI_ERR_NULL; TABAI_ERR_SIZE if len > 8n after leading zero bytes, or if 8n
 *  overflows a size_t (nothing written). Time: constant; only whether the value fits is revealed (by the status). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_from_bytes(uint64_t *r, size_t n, const uint8_t *be, size_t len);
/** Limbs to big-endian bytes: be[len] = a[n], len >= 8n or the value fits in len bytes.
 *  Errors: TABAI_ERR_NULL; TABAI_ERR_SIZE if the value does not fit, or if 8n overflows a
 *  size_t (nothing written).
 *  Time: constant; only whether the value fits is revealed (by the status). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_to_bytes(uint8_t *be, size_t len, const uint64_t *a, size_t n);

/* ------------------------------------------------------------------------------------
 * Kernel function types (used in the contexts: the hot path is one direct call).
 * ------------------------------------------------------------------------------------ */
/** r[n] = a*b*R^-1 mod p with R = 2^(64n); a, b < p in, r < p out. */
typedef void (*tabai_mont_mul_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *p, uint64_t pinv, size_t n);
/** r[n] = a*a*R^-1 mod p. */
typedef void (*tabai_mont_sqr_fn)(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv,
                                  size_t n);
/** r[n] = a +- b mod p; a, b < p in, r < p out. */
typedef void (*tabai_mod_addsub_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *p, size_t n);

/* ------------------------------------------------------------------------------------
 * Montgomery arithmetic, R = 2^(64n) (Montgomery 1985; the variants of Koc, Acar, Kaliski
 * 1996: product scanning with the reduction interleaved (FIPS) in the portable C, fused
 * CIOS or product then REDC in the BMI2/ADX assembly).
 * ------------------------------------------------------------------------------------ */
typedef struct tabai_mont {
    size_t n;                      /**< limbs of p (top limb non-zero) */
    uint64_t pinv;                 /**< -p^-1 mod 2^64 */
    uint64_t p[TABAI_MAX_LIMBS];   /**< the modulus */
    uint64_t rr[TABAI_MAX_LIMBS];  /**< R^2 mod p */
    uint64_t one[TABAI_MAX_LIMBS]; /**< R mod p (1 in Montgomery form) */
    size_t bits;                   /**< bit length of p */
    tabai_mont_mul_fn mul;         /**< kernel chosen at init for this n and tier */
    tabai_mont_sqr_fn sqr;
    tabai_mod_addsub_fn add;
    tabai_mod_addsub_fn sub;
    tabai_tier tier;               /**< tier the kernels were taken from */
} tabai_mont;

/** Montgomery context for an odd modulus p[n] (limbs; leading zero limbs are stripped,
 *  so ctx->n may be smaller than n). Precomputes pinv and R^2 mod p.
 *  Errors: TABAI_ERR_NULL; TABAI_ERR_SIZE (n == 0 or n > TABAI_MAX_LIMBS after stripping);
 *  TABAI_ERR_MODULUS (p even, 0 or 1). Time: variable in p (a modulus is public). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_init(tabai_mont *ctx, const uint64_t *p, size_t n);
/** As tabai_mont_init, modulus as big-endian bytes. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_init_bytes(tabai_mont *ctx, const uint8_t *be, size_t len);
/** r = a*b*R^-1 mod p: Montgomery product (tier generic: product scanning with the
 *  reduction interleaved per column, FIPS; tier bmi2: fused CIOS for n <= 9, else the
 *  product then REDC), final subtraction by masks.
 *  Shapes:   r, a, b: ctx->n limbs.  Requires: a < p, b < p.  Ensures: r < p.
 *  Aliasing: r may equal a and/or b.
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_RANGE; r is not written on error.
 *  Source:   Koc, Acar, Kaliski, IEEE Micro 16(3), 1996. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_mul(const tabai_mont *ctx, uint64_t *r, const uint64_t *a,
                                      const uint64_t *b);
/** r = a^2*R^-1 mod p. Same shapes, aliasing and errors as tabai_mont_mul. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_sqr(const tabai_mont *ctx, uint64_t *r, const uint64_t *a);
/** r = a*R mod p (into Montgomery form). Requires a < p. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_to(const tabai_mont *ctx, uint64_t *r, const uint64_t *a);
/** r = a*R^-1 mod p (out of Montgomery form). Requires a < p. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_from(const tabai_mont *ctx, uint64_t *r, const uint64_t *a);
/** r = a + b mod p. Requires a, b < p. Aliasing: any. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_add(const tabai_mont *ctx, uint64_t *r, const uint64_t *a,
                                      const uint64_t *b);
/** r = a - b mod p. Requires a, b < p. Aliasing: any. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_sub(const tabai_mont *ctx, uint64_t *r, const uint64_t *a,
                                      const uint64_t *b);
/** r = -a mod p. Requires a < p. Aliasing: any. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_neg(const tabai_mont *ctx, uint64_t *r, const uint64_t *a);

/* ------------------------------------------------------------------------------------
 * Ohta modular multiplication (Algorithm 3): a Barrett-like reduction with
 * K = floor(R^2 / p), R = 2^(64n); d from a truncated product H*K (error <= 1, plus <= 1
 * from truncating K), f = H - d*p < 3p, two subtractions by masks. Any p >= 2, even ones
 * included. Bounds: docs/bounds/ohta.md.
 * ------------------------------------------------------------------------------------ */
typedef struct tabai_ohta {
    size_t n;                          /**< limbs of p (top limb non-zero) */
    uint64_t p[TABAI_MAX_LIMBS];       /**< the modulus */
    uint64_t k[TABAI_MAX_LIMBS + 1];   /**< K = floor(R^2 / p), n+1 limbs */
    size_t bits;                       /**< bit length of p */
    /** limb product r[2n] = a[n]*b[n] and square chosen at init for this n and tier */
    void (*mul)(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
    void (*sqr)(uint64_t *r, const uint64_t *a, size_t n);
    tabai_tier tier;                   /**< tier the kernels were taken from */
} tabai_ohta;

/** Ohta context for p[n] >= 2 (leading zero limbs stripped). Copies the limb product
 *  kernels of the tier in use: later tier changes do not affect it.
 *  Errors: TABAI_ERR_NULL, TABAI_ERR_SIZE, TABAI_ERR_MODULUS (p < 2). Time: variable in p. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_init(tabai_ohta *ctx, const uint64_t *p, size_t n);
/** As tabai_ohta_init, modulus as big-endian bytes. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_init_bytes(tabai_ohta *ctx, const uint8_t *be, size_t len);
/** r = a*b mod p by Ohta's method (Algorithm 3).
 *  Shapes: r, a, b: ctx->n limbs. Requires: a, b < p. Ensures: r < p.
 *  Aliasing: r may equal a and/or b. Time: constant.
 *  Errors: TABAI_ERR_NULL, TABAI_ERR_RANGE; r is not written on error.
 *  Source: Zheng, Ohta, Araki; Barrett, CRYPTO '86. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_mul(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                      const uint64_t *b);
/** r = a^2 mod p. As tabai_ohta_mul. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_sqr(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a);
/** r = a + b mod p: limb addition, then p subtracted under a mask when the sum is >= p.
 *  Shapes:   r, a, b: ctx->n limbs (uint64_t), least significant first.
 *  Requires: a < p, b < p.   Ensures: r < p.
 *  Aliasing: r may equal a and/or b.
 *  Time:     constant (no secret-dependent branch, address or variable-latency instruction).
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_RANGE (a or b >= p); r is not written on error.
 *  Source:   HAC Algorithm 14.7 (multiple-precision addition), masked correction. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_add(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                      const uint64_t *b);
/** r = a - b mod p: limb subtraction, then p added under a mask when it borrowed.
 *  Shapes:   r, a, b: ctx->n limbs (uint64_t), least significant first.
 *  Requires: a < p, b < p.   Ensures: r < p.
 *  Aliasing: r may equal a and/or b.
 *  Time:     constant (no secret-dependent branch, address or variable-latency instruction).
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_RANGE (a or b >= p); r is not written on error.
 *  Source:   HAC Algorithm 14.9 (multiple-precision subtraction), masked correction. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_sub(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                      const uint64_t *b);
/** r = -a mod p (0 for a = 0), as tabai_ohta_sub with a zero minuend.
 *  Shapes:   r, a: ctx->n limbs (uint64_t), least significant first.
 *  Requires: a < p.   Ensures: r < p.
 *  Aliasing: r may equal a.
 *  Time:     constant (no secret-dependent branch, address or variable-latency instruction).
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_RANGE (a >= p); r is not written on error.
 *  Source:   HAC Algorithm 14.9 (multiple-precision subtraction), masked correction. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_neg(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a);
/** r = x mod p for a double-length x[2n] < p * 2^(64n) (any x with x < p*R).
 *  Errors: TABAI_ERR_NULL, TABAI_ERR_RANGE (x >= p*R). Time: constant. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_reduce(const tabai_ohta *ctx, uint64_t *r, const uint64_t *x);

/* ------------------------------------------------------------------------------------
 * Modular exponentiation and inversion.
 * The exponent e is given as limbs with its bit length ebits (public); all ebits bits
 * are processed. Scratch: a caller's buffer of scratch_limbs limbs, at least
 * tabai_powmod_scratch_limbs(ctx->n, ebits), any alignment; it holds powers of b on return
 * (wipe it with tabai_wipe if b is secret).
 * ------------------------------------------------------------------------------------ */
/** Scratch limbs needed by the powmod functions for an n-limb modulus and ebits exponent. */
TABAI_API size_t tabai_powmod_scratch_limbs(size_t n, size_t ebits);
/** Window size (bits) the constant-time powmod uses for an ebits-bit exponent. */
TABAI_API unsigned tabai_powmod_window(size_t ebits);

/** r = b^e mod p: fixed-window exponentiation, Montgomery products; the table is read by
 *  scanning every entry with masks. b and r in normal form (not Montgomery).
 *  Shapes: r, b: ctx->n limbs; e: ceil(ebits/64) limbs; scratch: scratch_limbs limbs.
 *  Requires b < p.
 *  Aliasing: r may equal b; scratch must not overlap r, b or e. ebits == 0 gives 1 mod p.
 *  Time: constant in b and e for a given ebits.
 *  Errors: TABAI_ERR_NULL, TABAI_ERR_SIZE (ebits > 64*TABAI_MAX_LIMBS*2),
 *  TABAI_ERR_SCRATCH (scratch_limbs < tabai_powmod_scratch_limbs(ctx->n, ebits)),
 *  TABAI_ERR_RANGE; nothing is written on error (neither r nor scratch).
 *  Source: HAC 14.82 (left-to-right k-ary); masked table scan as in OpenSSL/BearSSL. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_powmod(const tabai_mont *ctx, uint64_t *r, const uint64_t *b,
                                         const uint64_t *e, size_t ebits, uint64_t *scratch,
                                         size_t scratch_limbs);
/** r = b^e mod p, sliding window, for public exponents only: time depends on e.
 *  As tabai_mont_powmod otherwise. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_powmod_vartime(const tabai_mont *ctx, uint64_t *r,
                                                 const uint64_t *b, const uint64_t *e,
                                                 size_t ebits, uint64_t *scratch,
                                                 size_t scratch_limbs);
/** r = b^e mod p with Ohta products (any p >= 2). As tabai_mont_powmod. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_powmod(const tabai_ohta *ctx, uint64_t *r, const uint64_t *b,
                                         const uint64_t *e, size_t ebits, uint64_t *scratch,
                                         size_t scratch_limbs);
/** r = b^e mod p with Ohta products, sliding window, variable time in e. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_powmod_vartime(const tabai_ohta *ctx, uint64_t *r,
                                                 const uint64_t *b, const uint64_t *e,
                                                 size_t ebits, uint64_t *scratch,
                                                 size_t scratch_limbs);
/** Convenience: r[n] = b[n]^e mod m[n] for any m >= 1 (odd: Montgomery; even: Ohta),
 *  b any n-limb value (reduced first). Allocates its scratch and contexts on the heap and
 *  wipes them (tabai_wipe) before freeing.
 *  Errors: TABAI_ERR_NULL, TABAI_ERR_SIZE, TABAI_ERR_MODULUS (m == 0), TABAI_ERR_ALLOC
 *  (r untouched).
 *  Constant time in
 *  b and e for a given ebits (m public). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_powmod(uint64_t *r, const uint64_t *b, const uint64_t *e, size_t ebits,
                                    const uint64_t *m, size_t n);
/** As tabai_powmod, sliding window, variable time in e. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_powmod_vartime(uint64_t *r, const uint64_t *b, const uint64_t *e,
                                            size_t ebits, const uint64_t *m, size_t n);
/** r = a^-1 mod p for a prime p, by Fermat: a^(p-2), constant time.
 *  Requires a < p. Errors: TABAI_ERR_NULL, TABAI_ERR_RANGE, TABAI_ERR_NOINV (a == 0).
 *  Whether a == 0 is revealed (by the error); nothing else about a.
 *  The result is only an inverse if p is prime (not checked). Allocates scratch. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_inv_prime(const tabai_mont *ctx, uint64_t *r, const uint64_t *a);
/** r = a^-1 mod m for any m >= 2. Odd m (and the odd part of an even one): Bernstein and
 *  Yang's safegcd ("Fast constant-time gcd computation and modular inversion", 2019) in its
 *  variable-time form, with the binary extended Euclidean algorithm behind it; the power of
 *  two by Newton's iteration; the two joined by CRT.
 *  Variable time in a and m. Shapes: r, a, m: n limbs. Requires a < m. r is not written on
 *  error.
 *  Errors: TABAI_ERR_NULL, TABAI_ERR_SIZE, TABAI_ERR_MODULUS (m < 2), TABAI_ERR_RANGE,
 *  TABAI_ERR_NOINV (gcd(a, m) != 1). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_inv_vartime(uint64_t *r, const uint64_t *a, const uint64_t *m,
                                         size_t n);

/** *r = the Jacobi symbol (a/m) in {-1, 0, 1} for an odd m >= 3: batches of 62 divsteps that
 *  keep both numbers non-negative, on the low 64 bits, each batch's matrix then applied to
 *  the whole numbers (Bernstein-Yang's safegcd layout; the symbol follows quadratic
 *  reciprocity and the second supplement), about 3 halvings a bit; the binary algorithm when
 *  a and m share a large factor. For a prime m it is the Legendre symbol: 1 exactly when a is a
 *  non-zero square mod m, so for a safe prime p = 2q + 1 and 0 < y < p, (y/p) == 1 if and only
 *  if y^q == 1 mod p (the subgroup check of Diffie-Hellman) at a fraction of the cost.
 *  Shapes:   a, m: n limbs. Requires a < m.
 *  Time:     variable in a and m (public values only).
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_SIZE, TABAI_ERR_MODULUS (m even or < 3),
 *            TABAI_ERR_RANGE (a >= m); *r not written on error.
 *  Source:   Bernstein, Yang, "Fast constant-time gcd computation and modular inversion",
 *            TCHES 2019 (batches); Cohen, A Course in Computational Algebraic Number Theory,
 *            Algorithm 1.4.10 (the symbol's rules, and the binary fallback). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_jacobi_vartime(int *r, const uint64_t *a, const uint64_t *m, size_t n);

/* ------------------------------------------------------------------------------------
 * Batches: many independent operations in one call, each with its own
 * modulus. At tier ifma, groups of 8 run side by side in the AVX-512 IFMA kernels (radix
 * 2^52, one operation per zmm lane: Bos, Montgomery, Shumow, Zaverucha, SAC 2013,
 * Algorithm 2); a last partial group is padded. Below that tier, and for moduli above
 * 4096 bits, a loop over the scalar path gives the same results.
 * Arguments are arrays of pointers: element i of each is operation i; count may be 0.
 * Nothing is written on error (all arguments are checked first).
 * ------------------------------------------------------------------------------------ */
/** r[i] = a[i]*b[i] mod m[i] for i < count, normal form (not Montgomery).
 *  Shapes:   r[i], a[i], b[i], m[i]: n limbs each (moduli may be shorter than n limbs).
 *  Requires: m[i] odd >= 3; a[i] < m[i], b[i] < m[i].
 *  Aliasing: r[i] may equal a[i] and/or b[i]; distinct i must not overlap.
 *  Time:     constant in a and b; the moduli are public (their setup is variable time).
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_SIZE (n == 0 or n > TABAI_MAX_LIMBS),
 *            TABAI_ERR_MODULUS, TABAI_ERR_RANGE, TABAI_ERR_ALLOC. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_modmul_batch(size_t count, uint64_t *const r[],
                                          const uint64_t *const a[], const uint64_t *const b[],
                                          const uint64_t *const m[], size_t n);
/** r[i] = b[i]^e[i] mod m[i] for i < count: constant-time fixed-window exponentiation
 *  (each lane reads its table entry by scanning every entry with masks).
 *  Shapes:   r[i], b[i], m[i]: n limbs; e[i]: ceil(ebits/64) limbs (all ebits bits used;
 *            e may be NULL when ebits == 0).
 *  Requires: m[i] odd >= 3; b[i] < m[i].
 *  Aliasing: r[i] may equal b[i]; distinct i must not overlap.
 *  Time:     constant in b and e for a given ebits; the moduli are public.
 *  Threads:  the groups of 8 are split across `threads` POSIX threads (0: one per online
 *            core; 1: the calling thread only); the results do not depend on it.
 *  Errors:   as tabai_modmul_batch, and TABAI_ERR_SIZE for ebits > 64*TABAI_MAX_LIMBS*2. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_powmod_batch(size_t count, uint64_t *const r[],
                                          const uint64_t *const b[], const uint64_t *const e[],
                                          size_t ebits, const uint64_t *const m[], size_t n,
                                          unsigned threads);

/* ------------------------------------------------------------------------------------
 * RSA (RFC 8017): the raw operations RSAEP/RSAVP1 (public) and RSADP/RSASP1 (private, by
 * CRT). Padding schemes (PKCS #1 v1.5, PSS, OAEP) are left to the caller (the Python
 * package has them). Numbers are limbs, least significant first, like the rest of the
 * library, nl limbs each (the primes and CRT values zero above their own length).
 * ------------------------------------------------------------------------------------ */
/** Words of tabai_rsa_public_key's opaque radix-2^52 context. */
#define TABAI_RSA_R52_WORDS 544

/** An RSA public key: the modulus and a public exponent below 2^64. */
typedef struct tabai_rsa_public_key {
    size_t n;       /**< limbs of the modulus N (top limb non-zero) */
    uint64_t e;     /**< the public exponent: odd, >= 3 */
    tabai_mont mn;  /**< the Montgomery context of N */
    /** internal: N's constants in radix 2^52 for the exponentiation by e where the CPU has
     *  AVX-512 IFMA (all zero elsewhere); plain words, so the key may be copied with memcpy */
    uint64_t r52[TABAI_RSA_R52_WORDS];
} tabai_rsa_public_key;

/** An RSA private key in CRT form with its public half and a blinding pair. Holds secrets:
 *  clear it with tabai_rsa_key_clear. May be copied with memcpy, but two copies then share
 *  the blinding sequence; tabai_rsa_key_init both to have independent ones. */
typedef struct tabai_rsa_key {
    tabai_rsa_public_key pub;                  /**< n, e and N's context */
    tabai_mont mp, mq;                         /**< Montgomery contexts of p and q */
    uint64_t dp[TABAI_MAX_LIMBS];              /**< d mod (p-1), zero above p's limbs */
    uint64_t dq[TABAI_MAX_LIMBS];              /**< d mod (q-1), zero above q's limbs */
    uint64_t qinv_m[TABAI_MAX_LIMBS];          /**< q^-1 mod p, Montgomery form of mp */
    uint64_t blind[TABAI_MAX_LIMBS];           /**< A = r^e mod N, Montgomery form of mn */
    uint64_t unblind[TABAI_MAX_LIMBS];         /**< r^-1 mod N, Montgomery form of mn */
    uint64_t uses;                             /**< operations since r was drawn */
    int lock;                                  /**< guards blind, unblind and uses */
} tabai_rsa_key;

/** Fill pub from an RSA public key: n[nl] (limbs) and the exponent e.
 *  Errors:   TABAI_ERR_NULL; TABAI_ERR_SIZE (nl == 0 or nl > TABAI_MAX_LIMBS);
 *            TABAI_ERR_RSA_SIZE (n outside 1024..8192 bits); TABAI_ERR_MODULUS (n even);
 *            TABAI_ERR_RSA_E (e even or < 3). pub is not written on error.
 *  Time:     variable (public values). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_rsa_public_key_init(tabai_rsa_public_key *pub, const uint64_t *n,
                                                 uint64_t e, size_t nl);

/** Fill key from the parameters of an RSA private key (RFC 8017 section 3.2, second form):
 *  public exponent e and, as nl-limb numbers (least significant limb first, zero above
 *  their own length): modulus n (top limb non-zero), private exponent d, primes p and q (of
 *  any sizes, also unbalanced), dP = d mod (p-1), dQ = d mod (q-1), qInv = q^-1 mod p; and
 *  draws the first blinding value r from getrandom.
 *  Checks, each with its own status, in this order: TABAI_ERR_NULL; TABAI_ERR_SIZE (nl == 0
 *  or > TABAI_MAX_LIMBS); TABAI_ERR_RSA_SIZE (n below 1024 bits or n[nl-1] == 0);
 *  TABAI_ERR_RSA_E (e even or < 3); TABAI_ERR_RSA_PQ (p or q even or < 3, p == q,
 *  p*q != n); TABAI_ERR_RSA_DP (dP >= p-1, e*dP != 1 mod p-1); TABAI_ERR_RSA_DQ (the same
 *  for q); TABAI_ERR_RSA_QINV (qInv >= p, q*qInv != 1 mod p); TABAI_ERR_RSA_D (d >= n,
 *  d != dP mod p-1, d != dQ mod q-1); TABAI_ERR_RANDOM; TABAI_ERR_ALLOC. key is not
 *  written on error. d is only checked, not kept.
 *  Time:     variable in p, q and d (long divisions for the checks, the Montgomery setups),
 *            once per key as OpenSSL's key setup; the operations are constant time.
 *  Source:   RFC 8017 sections 3.2 and 5.1.2; the checks of OpenSSL's RSA_check_key. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_rsa_key_init(tabai_rsa_key *key, const uint64_t *n, uint64_t e,
                                          const uint64_t *d, const uint64_t *p,
                                          const uint64_t *q, const uint64_t *dp,
                                          const uint64_t *dq, const uint64_t *qinv, size_t nl);

/** Wipes the whole key (tabai_wipe): every byte of *key is zero afterwards. key may be NULL. */
TABAI_API void tabai_rsa_key_clear(tabai_rsa_key *key);

/** m = c^d mod N, the RSA private operation (RSADP / RSASP1 of RFC 8017) with the defences
 *  of OpenSSL and BoringSSL:
 *   - base blinding: c' = c*A, m' = c'^d, m = m'*A^-1 mod N with A = r^e for a random r
 *     (getrandom); the pair (A, r^-1) is updated by squaring both after every operation
 *     (OpenSSL's BN_BLINDING) and r is drawn afresh every 32 operations (its inverse by a
 *     blinded variable-time inversion: r*t inverted, times t);
 *   - CRT (Garner): m1 = c'^dP mod p, m2 = c'^dQ mod q, h = qInv (m1 - m2) mod p, m' = m2 + h q;
 *   - the result checked with the public exponent: m^e == c mod N, else TABAI_ERR_FAULT and
 *     nothing written (a faulty half-exponentiation would otherwise reveal p; Boneh,
 *     DeMillo, Lipton, EUROCRYPT '97);
 *   - every secret intermediate wiped (tabai_wipe) before it is freed or goes out of scope.
 *  Shapes:   m, c: key->pub.n limbs.  Requires: c < N.
 *  Aliasing: m may equal c.
 *  Threads:  safe to call concurrently on one key (the blinding pair is taken under a lock
 *            in the key); the key is written (blinding pair), so it is not const.
 *  Time:     constant in c, m and the key's secrets (the sizes and e show).
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_RANGE (c >= N), TABAI_ERR_FAULT, TABAI_ERR_RANDOM,
 *            TABAI_ERR_ALLOC; m is not written on error.
 *  Source:   RFC 8017 5.1.2 and 5.2.1; Kocher, CRYPTO '96 (blinding); Garner 1959. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_rsa_private(tabai_rsa_key *key, uint64_t *m, const uint64_t *c);

/** m[i] = c[i]^d mod N_i for i < count: tabai_rsa_private for many messages (keys may
 *  differ, also in size, and may repeat). The 2*count half-size exponentiations run in
 *  groups of 8 at tier ifma, split across `threads` POSIX threads (0: one per online core;
 *  1: the calling thread only); the results do not depend on it.
 *  Shapes:   m[i], c[i]: key[i]->pub.n limbs.  Requires: c[i] < N_i.
 *  Aliasing: m[i] may equal c[i]; distinct i must not overlap.
 *  Errors:   as tabai_rsa_private; TABAI_ERR_FAULT if any item fails its check. Nothing is
 *            written on error (no m[i] at all). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_rsa_private_batch(size_t count, uint64_t *const m[],
                                               const uint64_t *const c[],
                                               tabai_rsa_key *const key[], unsigned threads);

/** s = m^e mod N, the RSA public operation (RSAEP / RSAVP1 of RFC 8017), sliding window:
 *  variable time in e (public), constant time in m.
 *  Shapes:   s, m: pub->n limbs. Requires m < N. Aliasing: s may equal m.
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_RANGE (m >= N), TABAI_ERR_ALLOC; s not written. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_rsa_public_vartime(const tabai_rsa_public_key *pub, uint64_t *s,
                                                const uint64_t *m);

/** s[i] = m[i]^e_i mod N_i for i < count (tabai_rsa_public_vartime for many; keys may
 *  differ), split across `threads` threads (0: every online core).
 *  Errors:   as tabai_rsa_public_vartime; nothing written on error. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_rsa_public_batch_vartime(size_t count, uint64_t *const s[],
                                                      const uint64_t *const m[],
                                                      const tabai_rsa_public_key *const pub[],
                                                      unsigned threads);

/* ------------------------------------------------------------------------------------
 * Double exponentiation for public exponents (DSA verification: g^u1 * y^u2 mod p).
 * ------------------------------------------------------------------------------------ */
/** Scratch limbs needed by the powmod2 functions for an n-limb modulus and exponents of
 *  e1bits and e2bits bits. */
TABAI_API size_t tabai_powmod2_scratch_limbs(size_t n, size_t e1bits, size_t e2bits);

/** r = a1^e1 * a2^e2 mod p: Straus's simultaneous exponentiation with interleaved sliding
 *  windows (one shared chain of max(e1bits, e2bits) squarings, each exponent with its own
 *  table of odd powers), Montgomery products. a1, a2 and r in normal form.
 *  Shapes:   r, a1, a2: ctx->n limbs; e1: ceil(e1bits/64) limbs, e2: ceil(e2bits/64) limbs;
 *            scratch: scratch_limbs limbs, any alignment.
 *  Requires: a1 < p, a2 < p.   Ensures: r < p.
 *  Aliasing: r may equal a1 and/or a2; scratch must not overlap the others. An exponent of
 *            0 bits (its pointer may then be NULL) counts as 1; both give 1 mod p.
 *  Time:     variable in e1 and e2 (public exponents only); the bases are only multiplied.
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_SIZE (an exponent above 64*TABAI_MAX_LIMBS*2 bits),
 *            TABAI_ERR_SCRATCH (scratch_limbs < tabai_powmod2_scratch_limbs(ctx->n, e1bits,
 *            e2bits)), TABAI_ERR_RANGE (a1 or a2 >= p); nothing is written on error.
 *  Source:   Straus, AMM 71, 1964 (interleaving); Moller, SAC 2001, section 3.2; HAC 14.85. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_mont_powmod2_vartime(
    const tabai_mont *ctx, uint64_t *r, const uint64_t *a1, const uint64_t *e1, size_t e1bits,
    const uint64_t *a2, const uint64_t *e2, size_t e2bits, uint64_t *scratch, size_t scratch_limbs);
/** r = a1^e1 * a2^e2 mod p with Ohta products (any p >= 2). As tabai_mont_powmod2_vartime. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ohta_powmod2_vartime(
    const tabai_ohta *ctx, uint64_t *r, const uint64_t *a1, const uint64_t *e1, size_t e1bits,
    const uint64_t *a2, const uint64_t *e2, size_t e2bits, uint64_t *scratch, size_t scratch_limbs);
/** Convenience: r[n] = a1^e1 * a2^e2 mod m[n] for any m >= 1 (odd: Montgomery; even: Ohta),
 *  a1, a2 any n-limb values (reduced first). Allocates its scratch and contexts on the heap
 *  and wipes them before freeing. Variable time in e1 and e2 only.
 *  Errors: TABAI_ERR_NULL, TABAI_ERR_SIZE, TABAI_ERR_MODULUS (m == 0), TABAI_ERR_ALLOC
 *  (r untouched). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_powmod2_vartime(
    uint64_t *r, const uint64_t *a1, const uint64_t *e1, size_t e1bits, const uint64_t *a2,
    const uint64_t *e2, size_t e2bits, const uint64_t *m, size_t n);

/* ------------------------------------------------------------------------------------
 * Fixed-base exponentiation (DSA signing: g^k mod p with g fixed per key).
 * ------------------------------------------------------------------------------------ */
/** Largest `rows` of the fixed-base comb (a table of 2^rows entries). */
#define TABAI_POWMOD_BASE_MAX_ROWS 6
/** Limbs of the table of the fixed-base comb for an n-limb modulus and `rows` rows
 *  (2^rows * n), 0 for rows outside 1..TABAI_POWMOD_BASE_MAX_ROWS. */
TABAI_API size_t tabai_powmod_base_table_limbs(size_t n, unsigned rows);
/** Rows the fixed-base comb works best with for ebits-bit exponents (measured). */
TABAI_API unsigned tabai_powmod_base_rows(size_t ebits);
/** The table of tabai_mont_powmod_base for the base g and exponents of ebits bits: entry j
 *  = the product of g^(2^(i*d)) over the bits i of j, d = ceil(ebits/rows), Montgomery form.
 *  Costs about (rows-1)*d squarings and 2^rows - rows - 1 products, once per base.
 *  Shapes:   table: table_limbs limbs; g: ctx->n limbs. Requires g < p.
 *  Time:     constant in g.
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_SIZE (rows outside 1..TABAI_POWMOD_BASE_MAX_ROWS,
 *            ebits 0 or above 64*TABAI_MAX_LIMBS*2, table_limbs too short),
 *            TABAI_ERR_RANGE (g >= p); the table is not written on error. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status
tabai_mont_powmod_base_table(const tabai_mont *ctx, uint64_t *table, size_t table_limbs,
                             const uint64_t *g, size_t ebits, unsigned rows);
/** r = g^e mod p for the g of the table: comb method, ceil(ebits/rows) squarings and
 *  products, each table entry read by a masked scan of all 2^rows entries.
 *  Shapes:   r: ctx->n limbs; e: ceil(ebits/64) limbs, e < 2^ebits; table as made by
 *            tabai_mont_powmod_base_table with the same ctx, ebits and rows.
 *  Aliasing: r must not overlap the table.
 *  Time:     constant in e (and in the table's contents) for given ebits and rows.
 *  Errors:   TABAI_ERR_NULL, TABAI_ERR_SIZE (as tabai_mont_powmod_base_table); r is not
 *            written on error.
 *  Source:   Lim, Lee, "More flexible exponentiation with precomputation", CRYPTO '94;
 *            HAC 14.117; masked table scan as tabai_mont_powmod. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status
tabai_mont_powmod_base(const tabai_mont *ctx, uint64_t *r, const uint64_t *e, size_t ebits,
                       const uint64_t *table, size_t table_limbs, unsigned rows);

#ifdef __cplusplus
}
#endif

/* the explicit-kernel API, kept reachable from tabai.h for existing code */
#include "tabai_kernels.h"

#endif /* TABAI_H */
