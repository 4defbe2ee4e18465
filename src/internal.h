/* Limb helpers shared by every layer: add-with-carry, wide multiply, constant-time masks,
 * value barrier, and the TABAI_VERIFY assertions. Nothing here is exported. */
#ifndef TABAI_INTERNAL_H
#define TABAI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "tabai.h"

typedef unsigned __int128 tabai_u128;

#define TABAI_INLINE static inline __attribute__((always_inline))

/* TABAI_UNROLL_BY(n): the pragma "GCC unroll n" of the kernels' fixed-size loops (gcc and
 * clang read it). Empty in the builds that look for faults, not speed (TABAI_ROLLED: the
 * sanitizer and VERIFY builds, src/CMakeLists.txt), where fully unrolled instances took
 * minutes to compile instrumented; the loops compute the same either way. */
#define TABAI_PRAGMA_(x) _Pragma(#x)
#if defined(TABAI_ROLLED)
#define TABAI_UNROLL_BY(n)
#else
#define TABAI_UNROLL_BY(n) TABAI_PRAGMA_(GCC unroll n)
#endif

/* Value barrier: hides x from the optimiser so that mask arithmetic is not turned back
 * into a branch (the technique of BearSSL / libsecp256k1). */
TABAI_INLINE uint64_t tabai_vb(uint64_t x) {
    __asm__("" : "+r"(x));
    return x;
}

/* All ones if bit is 1, zero if 0 (bit must be 0 or 1). */
TABAI_INLINE uint64_t tabai_mask(uint64_t bit) { return (uint64_t)0 - tabai_vb(bit); }
/* 1 if x != 0 else 0, without a branch. */
TABAI_INLINE uint64_t tabai_nonzero(uint64_t x) { return (x | (0 - x)) >> 63; }
/* 1 if x == y else 0. */
TABAI_INLINE uint64_t tabai_eq(uint64_t x, uint64_t y) { return 1 ^ tabai_nonzero(x ^ y); }

/* r = a + b + cy (cy 0 or 1), returns carry. On x86-64 the adc/sbb intrinsics: once a
 * chain of these is unrolled, the compiler keeps the carry in the flag (a cycle a limb). */
TABAI_INLINE uint64_t tabai_adc(uint64_t *r, uint64_t a, uint64_t b, uint64_t cy) {
#if defined(__x86_64__)
    unsigned long long s;
    uint64_t c = _addcarry_u64((unsigned char)cy, a, b, &s);
    *r = s;
    return c;
#else
    tabai_u128 t = (tabai_u128)a + b + cy;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64);
#endif
}
/* r = a - b - bw (bw 0 or 1), returns borrow. */
TABAI_INLINE uint64_t tabai_sbb(uint64_t *r, uint64_t a, uint64_t b, uint64_t bw) {
#if defined(__x86_64__)
    unsigned long long d;
    uint64_t c = _subborrow_u64((unsigned char)bw, a, b, &d);
    *r = d;
    return c;
#else
    tabai_u128 t = (tabai_u128)a - b - bw;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64) & 1;
#endif
}
/* (hi, lo) = a * b. */
TABAI_INLINE uint64_t tabai_mulw(uint64_t *lo, uint64_t a, uint64_t b) {
    tabai_u128 t = (tabai_u128)a * b;
    *lo = (uint64_t)t;
    return (uint64_t)(t >> 64);
}

/* Constant-time select into r: r = cond ? a : b (cond 0 or 1). */
TABAI_INLINE void tabai_cmov_n(uint64_t *r, uint64_t cond, const uint64_t *a, const uint64_t *b,
                               size_t n) {
    uint64_t m = tabai_mask(cond);
    for (size_t i = 0; i < n; i++) r[i] = (a[i] & m) | (b[i] & ~m);
}

/* 1 if a[n] < b[n] (constant time), by the borrow of a - b. */
TABAI_INLINE uint64_t tabai_lt_n(const uint64_t *a, const uint64_t *b, size_t n) {
    uint64_t bw = 0, t;
    for (size_t i = 0; i < n; i++) bw = tabai_sbb(&t, a[i], b[i], bw);
    return bw;
}

/* Declassification: x is computed from secrets but revealed on purpose (it decides a
 * documented error status), so branching on it is allowed. Every call site says what is
 * made public and why; tests/ctime/README.md lists them. An identity function, except in
 * the tests/ctime build (-DTABAI_CTIME_DECLASSIFY), where it marks x defined for valgrind
 * memcheck so that the secrets x came from stay checked everywhere else. */
#if defined(TABAI_CTIME_DECLASSIFY) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
TABAI_INLINE uint64_t tabai_declassify(uint64_t x) {
    (void)VALGRIND_MAKE_MEM_DEFINED(&x, sizeof x);
    return x;
}
#elif defined(TABAI_CTIME_DECLASSIFY)
#error "TABAI_CTIME_DECLASSIFY needs valgrind/memcheck.h"
#else
TABAI_INLINE uint64_t tabai_declassify(uint64_t x) { return x; }
#endif
/* 1 if a[n] < p[n], made public: a range check whose failure is TABAI_ERR_RANGE. */
TABAI_INLINE uint64_t tabai_reduced_public(const uint64_t *a, const uint64_t *p, size_t n) {
    return tabai_declassify(tabai_lt_n(a, p, n));
}

/* Number of significant limbs (variable time: for public values only). */
TABAI_INLINE size_t tabai_normalized_len_vartime(const uint64_t *a, size_t n) {
    while (n > 0 && a[n - 1] == 0) n--;
    return n;
}

/* Bit length of a[n] (variable time: public values only). */
TABAI_INLINE size_t tabai_bitlen_vartime(const uint64_t *a, size_t n) {
    n = tabai_normalized_len_vartime(a, n);
    if (n == 0) return 0;
    return 64 * (n - 1) + (size_t)(64 - __builtin_clzll(a[n - 1]));
}

/* Frees a heap block that held secrets (or may have): tabai_wipe, then free. p may be NULL. */
void tabai_wipe_free(void *p, size_t len);

/* TABAI_VERIFY: documented preconditions asserted inside kernels and contexts (the CMake
 * option TABAI_VERIFY, `make verify`). A failed check prints the condition with file:line and
 * aborts. Without TABAI_VERIFY the macro is ((void)0): the condition is neither compiled nor
 * evaluated, so the release code is unchanged. With it, a check may branch on secret data:
 * a VERIFY build is for testing only, never for production. The tabai_verify_* helpers below
 * are only called inside checks. */
#ifdef TABAI_VERIFY
#include <stdio.h>
#include <stdlib.h>
#define TABAI_VERIFY_CHECK(cond)                                                              \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "tabai VERIFY failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            abort();                                                                      \
        }                                                                                 \
    } while (0)
#else
#define TABAI_VERIFY_CHECK(cond) ((void)0)
#endif

/* 1 if the byte ranges [x, x + xb) and [y, y + yb) do not overlap. */
TABAI_INLINE int tabai_verify_disjoint(const void *x, size_t xb, const void *y, size_t yb) {
    uintptr_t u = (uintptr_t)x, v = (uintptr_t)y;
    return u + xb <= v || v + yb <= u;
}
/* 1 if r[rn] and a[an] are the same array (r == a, the aliasing the kernels allow) or do not
 * overlap: a partial overlap is never allowed. */
TABAI_INLINE int tabai_verify_same_or_disjoint(const uint64_t *r, size_t rn, const uint64_t *a,
                                               size_t an) {
    return r == a || tabai_verify_disjoint(r, 8 * rn, a, 8 * an);
}
/* 1 if a[n] == b[n]. */
TABAI_INLINE int tabai_verify_eq_n(const uint64_t *a, const uint64_t *b, size_t n) {
    return memcmp(a, b, 8 * n) == 0;
}
/* 1 if f[n+1] < k*p[n] (k small): the lazy ranges (Montgomery < 2p, Ohta < 3p). */
TABAI_INLINE int tabai_verify_lt_kp(const uint64_t *f, const uint64_t *p, size_t n, uint64_t k) {
    uint64_t kp[TABAI_MAX_LIMBS + 1], cy = 0;
    for (size_t i = 0; i < n; i++) {
        tabai_u128 t = (tabai_u128)p[i] * k + cy;
        kp[i] = (uint64_t)t;
        cy = (uint64_t)(t >> 64);
    }
    kp[n] = cy;
    return (int)tabai_lt_n(f, kp, n + 1);
}
/* 1 if p[n] is a valid Montgomery modulus with its pinv: 1 <= n <= TABAI_MAX_LIMBS, p odd,
 * pinv * p[0] == -1 mod 2^64. */
TABAI_INLINE int tabai_verify_mont_modulus(const uint64_t *p, uint64_t pinv, size_t n) {
    return n >= 1 && n <= TABAI_MAX_LIMBS && (p[0] & 1) && p[0] * pinv == ~(uint64_t)0;
}

#endif
