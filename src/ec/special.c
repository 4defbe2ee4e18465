/* Field products for P-521 on plain residues: the tier's fixed-size 9-limb product kernel,
 * then the reduction by p = 2^521 - 1 (a Mersenne prime: t = hi 2^521 + lo = hi + lo mod p)
 * instead of Montgomery's 81 extra multiplications. Constant time: no branch or index
 * depends on the operands. Chosen over Montgomery by measurement (src/ec/README.md: 7%
 * fewer ticks at bmi2, 33% at generic). The same construction lost to the bmi2 Montgomery
 * kernel for secp256k1 (Crandall's fold of p = 2^256 - 2^32 - 977: 83 ticks against 50) and
 * for P-256 (a Montgomery reduction by p's shape after the product kernel, two
 * multiplications a step: 90 against 49), and was dropped for both. */
#include "../limb/limb.h"
#include "../x64/x64.h"
#include "ec.h"

static const uint64_t P521[9] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, 0x1ff};

/* r = t mod p for t[18] < 2^1042. Every loop unrolled, so that the carries stay in the flag
 * (rolled, each limb's carry went through setb and back: 140 of the product's 225 ticks). */
static void p521_reduce(uint64_t *r, const uint64_t *t) {
    uint64_t s[9], u[9], h[9], cy = 0, bw = 0;
    /* s = (t mod 2^521) + (t >> 521) < 2^522; limb i of t >> 521 is t[8+i] >> 9 | t[9+i] << 55
     * (all shifted first: a shift between two adc would clobber the carry flag) */
    _Pragma("GCC unroll 9")
    for (size_t i = 0; i < 9; i++) h[i] = (t[8 + i] >> 9) | (i + 9 < 18 ? t[9 + i] << 55 : 0);
    __asm__("" : "+m"(h)); /* keeps the shifts apart from the chain */
    _Pragma("GCC unroll 9")
    for (size_t i = 0; i < 9; i++) cy = tabai_adc(&s[i], i < 8 ? t[i] : t[8] & 0x1ff, h[i], cy);
    /* fold bit 521 once more: s = (s mod 2^521) + (s >> 521) <= 2^521 */
    cy = s[8] >> 9;
    s[8] &= 0x1ff;
    _Pragma("GCC unroll 9")
    for (size_t i = 0; i < 9; i++) cy = tabai_adc(&s[i], s[i], 0, cy);
    /* s - p when s >= p (the borrow of s - p is clear), else s */
    _Pragma("GCC unroll 9")
    for (size_t i = 0; i < 9; i++) bw = tabai_sbb(&u[i], s[i], P521[i], bw);
    const uint64_t m = tabai_mask(bw);
    _Pragma("GCC unroll 9")
    for (size_t i = 0; i < 9; i++) r[i] = (s[i] & m) | (u[i] & ~m);
}

#define SPECIAL(name, N, reduce, tier)                                                         \
    void tabai_ec_##name##_mul_##tier(uint64_t *r, const uint64_t *a, const uint64_t *b,      \
                                      const uint64_t *p, uint64_t pinv, size_t n) {           \
        (void)p, (void)pinv, (void)n;                                                          \
        uint64_t t[2 * N];                                                                     \
        tabai_mul_n##N##_##tier(t, a, b, N);                                                   \
        reduce(r, t);                                                                          \
    }                                                                                          \
    void tabai_ec_##name##_sqr_##tier(uint64_t *r, const uint64_t *a, const uint64_t *p,      \
                                      uint64_t pinv, size_t n) {                              \
        (void)p, (void)pinv, (void)n;                                                          \
        uint64_t t[2 * N];                                                                     \
        tabai_sqr_n##N##_##tier(t, a, N);                                                      \
        reduce(r, t);                                                                          \
    }
SPECIAL(p521, 9, p521_reduce, generic)
SPECIAL(p521, 9, p521_reduce, bmi2)
