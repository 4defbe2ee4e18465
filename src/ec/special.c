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

/* r[n] = s[n] - p[n] if s >= p else s (s < 2p), by the borrow and a mask. */
TABAI_INLINE void sub_p_once(uint64_t *r, const uint64_t *s, const uint64_t *p, size_t n) {
    uint64_t t[9], bw = 0;
    for (size_t i = 0; i < n; i++) bw = tabai_sbb(&t[i], s[i], p[i], bw);
    tabai_cmov_n(r, bw, s, t, n);
}

static const uint64_t P521[9] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, 0x1ff};

/* r = t mod p for t[18] < 2^1042. */
static void p521_reduce(uint64_t *r, const uint64_t *t) {
    uint64_t s[9], cy = 0;
    /* hi = t >> 521: limb i is t[8+i] >> 9 | t[9+i] << 55 */
    for (size_t i = 0; i < 9; i++) {
        uint64_t hi = (t[8 + i] >> 9) | (i + 9 < 18 ? t[9 + i] << 55 : 0);
        uint64_t lo = i < 8 ? t[i] : t[8] & 0x1ff;
        cy = tabai_adc(&s[i], lo, hi, cy);
    }
    /* s < 2^522: fold bit 521 once more (s = (s mod 2^521) + (s >> 521) < 2^521 + 1) */
    uint64_t top = s[8] >> 9;
    s[8] &= 0x1ff;
    cy = top;
    for (size_t i = 0; i < 9; i++) cy = tabai_adc(&s[i], s[i], 0, cy);
    sub_p_once(r, s, P521, 9);
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
