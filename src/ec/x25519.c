/* X25519 (RFC 7748): the Montgomery ladder on Curve25519 over GF(2^255 - 19).
 *
 * Three ladders, chosen by the tier in use: at ifma a 4-way ladder in radix 2^51 with AVX-512
 * IFMA (src/ec/ifma/x25519_ifma.c); at bmi2 up to avx512 four 64-bit limbs with
 * mulx/adcx/adox (src/ec/bmi2/x25519_bmi2.c); at generic the portable C below. The first two
 * have their own flags.
 *
 * Field elements in radix 2^51: five uint64_t limbs, value = sum v[i] 2^(51 i), products
 * in unsigned __int128. Reduction folds 2^255 = 19 (mod p). Limb bounds (the invariants the
 * functions below keep): a "carried" element has every limb < 2^51 + 2^13; fe_add of two
 * carried elements is < 2^53, fe_sub (a + 4p - b) < 2^54; fe_mul and fe_sqr take limbs
 * < 2^54 (each of the 5 column sums < 5 * 19 * 2^108 < 2^115) and return carried limbs. Only
 * fe_to_bytes reduces fully into [0, p).
 *
 * Constant time: the ladder runs all 255 steps whatever the scalar, the swaps are masked,
 * the inversion is a fixed chain of squarings and products (Fermat, z^(p-2)), and nothing
 * branches on or indexes by the scalar or an intermediate. The only branch on a secret-
 * derived value is the documented all-zero check of the result (RFC 7748, section 6.1),
 * which is public by design.
 *
 * Source: RFC 7748 sections 5 (the ladder, clamping, a24 = 121665) and 6.1; the radix-2^51
 * representation follows Bernstein, "Curve25519: new Diffie-Hellman speed records" (PKC
 * 2006) and its 64-bit successors. */
#include <errno.h>
#include <sys/random.h>

#include "../internal.h"
#include "../mod/mod.h"
#include "tabai_ec.h"
#include "x25519.h"

#define MASK51 ((UINT64_C(1) << 51) - 1)

typedef struct fe {
    uint64_t v[5];
} fe;

static inline uint64_t load64_le(const uint8_t *b) {
    uint64_t x;
    memcpy(&x, b, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

static inline void store64_le(uint8_t *b, uint64_t x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    memcpy(b, &x, 8);
}

/* r = the 255 low bits of s[32] (little-endian; the top bit is ignored, RFC 7748 5). */
static void fe_from_bytes(fe *r, const uint8_t s[32]) {
    uint64_t w0 = load64_le(s), w1 = load64_le(s + 8), w2 = load64_le(s + 16),
             w3 = load64_le(s + 24);
    r->v[0] = w0 & MASK51;
    r->v[1] = ((w0 >> 51) | (w1 << 13)) & MASK51;
    r->v[2] = ((w1 >> 38) | (w2 << 26)) & MASK51;
    r->v[3] = ((w2 >> 25) | (w3 << 39)) & MASK51;
    r->v[4] = (w3 >> 12) & MASK51;
}

/* s[32] = a mod p, fully reduced, little-endian. a: limbs < 2^54. */
static void fe_to_bytes(uint8_t s[32], const fe *a) {
    uint64_t t[5];
    for (int i = 0; i < 5; i++) t[i] = a->v[i];
    /* carry twice: limbs < 2^51, value < 2^255 + small, so at most one p to take off */
    for (int pass = 0; pass < 2; pass++) {
        uint64_t c;
        c = t[0] >> 51, t[0] &= MASK51, t[1] += c;
        c = t[1] >> 51, t[1] &= MASK51, t[2] += c;
        c = t[2] >> 51, t[2] &= MASK51, t[3] += c;
        c = t[3] >> 51, t[3] &= MASK51, t[4] += c;
        c = t[4] >> 51, t[4] &= MASK51, t[0] += 19 * c;
    }
    /* t < 2p now (t[0] < 2^51 + 19 * 2, the other limbs < 2^51). q = 1 iff t >= p, that is
     * t + 19 >= 2^255: the carry chain of t + 19 (exact for limbs below 2^63). */
    uint64_t q = (t[0] + 19) >> 51;
    q = (t[1] + q) >> 51;
    q = (t[2] + q) >> 51;
    q = (t[3] + q) >> 51;
    q = (t[4] + q) >> 51;
    /* t - q p = t + 19 q - q 2^255 */
    t[0] += 19 * q;
    uint64_t c;
    c = t[0] >> 51, t[0] &= MASK51, t[1] += c;
    c = t[1] >> 51, t[1] &= MASK51, t[2] += c;
    c = t[2] >> 51, t[2] &= MASK51, t[3] += c;
    c = t[3] >> 51, t[3] &= MASK51, t[4] += c;
    t[4] &= MASK51;
    store64_le(s, t[0] | (t[1] << 51));
    store64_le(s + 8, (t[1] >> 13) | (t[2] << 38));
    store64_le(s + 16, (t[2] >> 26) | (t[3] << 25));
    store64_le(s + 24, (t[3] >> 39) | (t[4] << 12));
}

/* r = a + b (no carry). */
static inline void fe_add(fe *r, const fe *a, const fe *b) {
    for (int i = 0; i < 5; i++) r->v[i] = a->v[i] + b->v[i];
}

/* r = a + 4p - b (no carry): b carried (limbs < 2^51 + 2^13 < 4p's limbs). */
static inline void fe_sub(fe *r, const fe *a, const fe *b) {
    /* 4p in radix 2^51: 4 (2^51 - 19), then 4 (2^51 - 1) */
    r->v[0] = a->v[0] + (UINT64_C(0x1FFFFFFFFFFFB4)) - b->v[0];
    r->v[1] = a->v[1] + (UINT64_C(0x1FFFFFFFFFFFFC)) - b->v[1];
    r->v[2] = a->v[2] + (UINT64_C(0x1FFFFFFFFFFFFC)) - b->v[2];
    r->v[3] = a->v[3] + (UINT64_C(0x1FFFFFFFFFFFFC)) - b->v[3];
    r->v[4] = a->v[4] + (UINT64_C(0x1FFFFFFFFFFFFC)) - b->v[4];
}

/* r = carry of the five 128-bit column sums t (each < 2^115). */
static inline void fe_carry_wide(fe *r, tabai_u128 t0, tabai_u128 t1, tabai_u128 t2,
                                 tabai_u128 t3, tabai_u128 t4) {
    uint64_t r0, r1, r2, r3, r4, c;
    t1 += (uint64_t)(t0 >> 51);
    r0 = (uint64_t)t0 & MASK51;
    t2 += (uint64_t)(t1 >> 51);
    r1 = (uint64_t)t1 & MASK51;
    t3 += (uint64_t)(t2 >> 51);
    r2 = (uint64_t)t2 & MASK51;
    t4 += (uint64_t)(t3 >> 51);
    r3 = (uint64_t)t3 & MASK51;
    c = (uint64_t)(t4 >> 51);
    r4 = (uint64_t)t4 & MASK51;
    /* c < 2^64 / 19 as t4 < 2^115 */
    r0 += c * 19;
    r1 += r0 >> 51;
    r0 &= MASK51;
    r->v[0] = r0, r->v[1] = r1, r->v[2] = r2, r->v[3] = r3, r->v[4] = r4;
}

/* r = a * b mod p (carried). Limbs of a, b < 2^54. */
static void fe_mul(fe *r, const fe *a, const fe *b) {
    const uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3], a4 = a->v[4];
    const uint64_t b0 = b->v[0], b1 = b->v[1], b2 = b->v[2], b3 = b->v[3], b4 = b->v[4];
    const uint64_t b1_19 = 19 * b1, b2_19 = 19 * b2, b3_19 = 19 * b3, b4_19 = 19 * b4;
    tabai_u128 t0 = (tabai_u128)a0 * b0 + (tabai_u128)a1 * b4_19 + (tabai_u128)a2 * b3_19 +
                    (tabai_u128)a3 * b2_19 + (tabai_u128)a4 * b1_19;
    tabai_u128 t1 = (tabai_u128)a0 * b1 + (tabai_u128)a1 * b0 + (tabai_u128)a2 * b4_19 +
                    (tabai_u128)a3 * b3_19 + (tabai_u128)a4 * b2_19;
    tabai_u128 t2 = (tabai_u128)a0 * b2 + (tabai_u128)a1 * b1 + (tabai_u128)a2 * b0 +
                    (tabai_u128)a3 * b4_19 + (tabai_u128)a4 * b3_19;
    tabai_u128 t3 = (tabai_u128)a0 * b3 + (tabai_u128)a1 * b2 + (tabai_u128)a2 * b1 +
                    (tabai_u128)a3 * b0 + (tabai_u128)a4 * b4_19;
    tabai_u128 t4 = (tabai_u128)a0 * b4 + (tabai_u128)a1 * b3 + (tabai_u128)a2 * b2 +
                    (tabai_u128)a3 * b1 + (tabai_u128)a4 * b0;
    fe_carry_wide(r, t0, t1, t2, t3, t4);
}

/* r = a^2 mod p (carried). Limbs of a < 2^54. */
static void fe_sqr(fe *r, const fe *a) {
    const uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3], a4 = a->v[4];
    const uint64_t d0 = 2 * a0, d1 = 2 * a1, d2 = 2 * a2;
    const uint64_t a3_19 = 19 * a3, a4_19 = 19 * a4;
    tabai_u128 t0 = (tabai_u128)a0 * a0 + (tabai_u128)d1 * a4_19 + (tabai_u128)d2 * a3_19;
    tabai_u128 t1 = (tabai_u128)d0 * a1 + (tabai_u128)d2 * a4_19 + (tabai_u128)a3 * a3_19;
    tabai_u128 t2 = (tabai_u128)d0 * a2 + (tabai_u128)a1 * a1 + (tabai_u128)(2 * a3) * a4_19;
    tabai_u128 t3 = (tabai_u128)d0 * a3 + (tabai_u128)d1 * a2 + (tabai_u128)a4 * a4_19;
    tabai_u128 t4 = (tabai_u128)d0 * a4 + (tabai_u128)d1 * a3 + (tabai_u128)a2 * a2;
    fe_carry_wide(r, t0, t1, t2, t3, t4);
}

/* r = a^(2^k) (k >= 1). */
static void fe_sqr_k(fe *r, const fe *a, int k) {
    fe_sqr(r, a);
    for (int i = 1; i < k; i++) fe_sqr(r, r);
}

/* r = a * 121665 (carried). Limbs of a < 2^54. */
static void fe_mul_a24(fe *r, const fe *a) {
    const uint64_t k = 121665;
    fe_carry_wide(r, (tabai_u128)a->v[0] * k, (tabai_u128)a->v[1] * k, (tabai_u128)a->v[2] * k,
                  (tabai_u128)a->v[3] * k, (tabai_u128)a->v[4] * k);
}

/* Swaps a and b if bit = 1, by masks (bit is 0 or 1; secret). */
static inline void fe_cswap(fe *a, fe *b, uint64_t bit) {
    uint64_t m = tabai_mask(bit);
    for (int i = 0; i < 5; i++) {
        uint64_t t = m & (a->v[i] ^ b->v[i]);
        a->v[i] ^= t;
        b->v[i] ^= t;
    }
}

/* r = a^(p-2) = a^-1 (0 for a = 0): p - 2 = 2^255 - 21, the usual chain of 254 squarings
 * and 11 products. */
static void fe_invert(fe *r, const fe *a) {
    fe t0, t1, t2, t3;
    fe_sqr(&t0, a);              /* 2 */
    fe_sqr_k(&t1, &t0, 2);       /* 8 */
    fe_mul(&t1, a, &t1);         /* 9 */
    fe_mul(&t0, &t0, &t1);       /* 11 */
    fe_sqr(&t2, &t0);            /* 22 */
    fe_mul(&t1, &t1, &t2);       /* 31 = 2^5 - 1 */
    fe_sqr_k(&t2, &t1, 5);
    fe_mul(&t1, &t2, &t1);       /* 2^10 - 1 */
    fe_sqr_k(&t2, &t1, 10);
    fe_mul(&t2, &t2, &t1);       /* 2^20 - 1 */
    fe_sqr_k(&t3, &t2, 20);
    fe_mul(&t2, &t3, &t2);       /* 2^40 - 1 */
    fe_sqr_k(&t2, &t2, 10);
    fe_mul(&t1, &t2, &t1);       /* 2^50 - 1 */
    fe_sqr_k(&t2, &t1, 50);
    fe_mul(&t2, &t2, &t1);       /* 2^100 - 1 */
    fe_sqr_k(&t3, &t2, 100);
    fe_mul(&t2, &t3, &t2);       /* 2^200 - 1 */
    fe_sqr_k(&t2, &t2, 50);
    fe_mul(&t1, &t2, &t1);       /* 2^250 - 1 */
    fe_sqr_k(&t1, &t1, 5);       /* 2^255 - 32 */
    fe_mul(r, &t1, &t0);         /* 2^255 - 21 */
    tabai_wipe(&t0, sizeof t0);
    tabai_wipe(&t1, sizeof t1);
    tabai_wipe(&t2, sizeof t2);
    tabai_wipe(&t3, sizeof t3);
}

/* out = the ladder on the clamped scalar k (RFC 7748 section 5), without the zero check. */
static void x25519_ladder_generic(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]) {
    fe x1, x2, z2, x3, z3, a, aa, b, bb, e, c, d, da, cb;
    fe_from_bytes(&x1, u);
    memset(&x2, 0, sizeof x2);
    x2.v[0] = 1;
    memset(&z2, 0, sizeof z2);
    x3 = x1;
    memset(&z3, 0, sizeof z3);
    z3.v[0] = 1;
    uint64_t swap = 0;
    for (int t = 254; t >= 0; t--) {
        uint64_t kt = (uint64_t)(k[t >> 3] >> (t & 7)) & 1;
        swap ^= kt;
        fe_cswap(&x2, &x3, swap);
        fe_cswap(&z2, &z3, swap);
        swap = kt;
        fe_add(&a, &x2, &z2);
        fe_sqr(&aa, &a);
        fe_sub(&b, &x2, &z2);
        fe_sqr(&bb, &b);
        fe_sub(&e, &aa, &bb);
        fe_add(&c, &x3, &z3);
        fe_sub(&d, &x3, &z3);
        fe_mul(&da, &d, &a);
        fe_mul(&cb, &c, &b);
        fe_add(&x3, &da, &cb);
        fe_sqr(&x3, &x3);
        fe_sub(&z3, &da, &cb);
        fe_sqr(&z3, &z3);
        fe_mul(&z3, &x1, &z3);
        fe_mul(&x2, &aa, &bb);
        fe_mul_a24(&z2, &e);
        fe_add(&z2, &aa, &z2);
        fe_mul(&z2, &e, &z2);
    }
    fe_cswap(&x2, &x3, swap);
    fe_cswap(&z2, &z3, swap);
    fe_invert(&z2, &z2);
    fe_mul(&x2, &x2, &z2);
    fe_to_bytes(out, &x2);
    fe *secrets[] = {&x2, &z2, &x3, &z3, &a, &aa, &b, &bb, &e, &c, &d, &da, &cb};
    for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
        tabai_wipe(secrets[i], sizeof(fe));
}

/* out = X25519(k, u) without the zero check (RFC 7748 section 5): clamps k, then the ladder
 * of the tier in use (ifma: the 4-way IFMA ladder; bmi2 up to avx512: 4 x 64-bit limbs with
 * mulx/adcx/adox; generic: radix 2^51 above). */
static void x25519_ladder(uint8_t out[32], const uint8_t k_in[32], const uint8_t u[32]) {
    uint8_t k[32];
    memcpy(k, k_in, 32);
    k[0] &= 248;
    k[31] &= 127;
    k[31] |= 64;
    tabai_tier tier = tabai_cpu_tier();
    if (tier >= TABAI_TIER_IFMA) {
        tabai_x25519_ladder_r51n5_ifma(out, k, u);
    } else if (tier >= TABAI_TIER_BMI2) {
        tabai_x25519_ladder_n4_bmi2(out, k, u);
    } else {
        x25519_ladder_generic(out, k, u);
    }
    tabai_wipe(k, sizeof k);
}

void tabai_fe25519_invert_safegcd_n4(uint64_t r[4], const uint64_t a[4]) {
    static const uint64_t p[4] = {UINT64_C(0xffffffffffffffed), UINT64_MAX, UINT64_MAX,
                                  UINT64_C(0x7fffffffffffffff)};
    /* -p^-1 mod 2^64 */
    tabai_modinv_safegcd(r, a, p, UINT64_C(0x86bca1af286bca1b), 255, 4);
}

/* ---- the field operations for the differential tests (tests/c/test_fe25519.c) ---- */
/* r = a + 19 [a >= 2^255] in radix 2^51 from four 64-bit limbs (bit 255 folded). */
static void fe_from_n4(fe *r, const uint64_t a[4]) {
    uint8_t s[32];
    for (int i = 0; i < 4; i++) store64_le(s + 8 * i, a[i]);
    fe_from_bytes(r, s);
    r->v[0] += 19 * (a[3] >> 63); /* limb 0 < 2^51 + 19: carried */
}

static void fe_to_n4(uint64_t r[4], const fe *a) {
    uint8_t s[32];
    fe_to_bytes(s, a);
    for (int i = 0; i < 4; i++) r[i] = load64_le(s + 8 * i);
}

void tabai_fe25519_mul_r51_generic(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    fe x, y;
    fe_from_n4(&x, a);
    fe_from_n4(&y, b);
    fe_mul(&x, &x, &y);
    fe_to_n4(r, &x);
}

void tabai_fe25519_sqr_r51_generic(uint64_t r[4], const uint64_t a[4]) {
    fe x;
    fe_from_n4(&x, a);
    fe_sqr(&x, &x);
    fe_to_n4(r, &x);
}

tabai_status tabai_x25519(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]) {
    if (!out || !k || !u) return TABAI_ERR_NULL;
    uint8_t r[32];
    x25519_ladder(r, k, u);
    uint64_t acc = 0;
    for (int i = 0; i < 32; i++) acc |= r[i];
    /* the all-zero output (a small-order u) is an error, revealed by design (RFC 7748 6.1) */
    if (tabai_declassify(tabai_nonzero(acc)) == 0) {
        tabai_wipe(r, sizeof r);
        return TABAI_ERR_POINT;
    }
    memcpy(out, r, 32);
    tabai_wipe(r, sizeof r);
    return TABAI_OK;
}

tabai_status tabai_x25519_base(uint8_t out[32], const uint8_t k[32]) {
    if (!out || !k) return TABAI_ERR_NULL;
    static const uint8_t nine[32] = {9};
    x25519_ladder(out, k, nine); /* never zero: 9 generates the prime-order subgroup */
    return TABAI_OK;
}

/* buf[len] from getrandom (retried on EINTR and short reads). */
static tabai_status fill_random(uint8_t *buf, size_t len) {
    size_t got = 0;
    while (got < len) {
        ssize_t r = getrandom(buf + got, len - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            return TABAI_ERR_RANDOM;
        }
        got += (size_t)r;
    }
    return TABAI_OK;
}

tabai_status tabai_x25519_keypair(uint8_t sk[32], uint8_t pk[32]) {
    if (!sk || !pk) return TABAI_ERR_NULL;
    uint8_t k[32];
    tabai_status s = fill_random(k, sizeof k);
    if (s != TABAI_OK) {
        tabai_wipe(k, sizeof k);
        return s;
    }
    (void)!tabai_x25519_base(pk, k); /* cannot fail: pk and k are not NULL */
    memcpy(sk, k, 32);
    tabai_wipe(k, sizeof k);
    return TABAI_OK;
}
