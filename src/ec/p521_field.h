/* P-521's field GF(2^521 - 1) in nine limbs of radix 2^58, unsaturated (the representation
 * of OpenSSL's ecp_nistp521.c, after D. J. Bernstein's "Curve25519: new Diffie-Hellman speed
 * records", 2006): a value is sum l_i 2^(58 i), the limbs kept loosely reduced, each below
 * 2^58 + 2^10 and the top one below 2^57 + 2^4 (its canonical width is 57 bits:
 * 8 x 58 + 57 = 521). Since
 * 2^522 = 2 mod p, a product's partial products a_i b_j with i + j >= 9 fold back into column
 * i + j - 9 doubled, so a product is 81 64 x 64-bit multiplications summed in nine 128-bit
 * columns (a square: 45) and one carry pass: no carry chain between the multiplications
 * (the saturated 9-limb product has one through every row). Sums and differences add limbs
 * and pass the carries one step in parallel. Constant time: no branch or index depends on
 * the values. Portable C (the compiler's 128-bit products).
 *
 * Bounds: a product's or a square's factors may have limbs up to 2^60 (a lazy sum,
 * p521_r58_add_lazy, of loosely reduced values), so a partial product is below 2^120 and a
 * column, nine of them with the folded ones doubled, below 2^124.2; its carry out of the top
 * limb (bit 521), below 2^67.3, folds into limbs 0 and 1 in 128 bits. Loosely reduced
 * factors give columns below 2^120.2. Included by p521.c, bmi2/p521.c (whose
 * product and square are bmi2/p521_mul.h's) and special.c. */
#ifndef TABAI_EC_P521_FIELD_H
#define TABAI_EC_P521_FIELD_H

#include "../internal.h"

#define P521_M58 ((UINT64_C(1) << 58) - 1)
#define P521_M57 ((UINT64_C(1) << 57) - 1)

/* p in 64-bit words (the instances' EC_P) */
static const uint64_t P521_P[9] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, 0x1ff};

/* l[9] (radix 2^58) = a[9] (64-bit words), a < 2^521 (l may alias a) */
TABAI_INLINE void p521_r58_from_words(uint64_t *l, const uint64_t *a_in) {
    uint64_t a[9];
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) a[i] = a_in[i];
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) {
        const int w = 58 * i / 64, s = 58 * i % 64;
        uint64_t v = a[w] >> s;
        if (s > 6 && w + 1 < 9) v |= a[w + 1] << (64 - s);
        l[i] = v & P521_M58;
    }
}

/* r[9] = (l + h) mod p in [0, p), 64-bit words, for limbs l[0..7] < 2^58, l[8] < 2^57 and
 * h < 2^64: the limbs' bits packed, h added, bit 521 folded once more, p subtracted when
 * the value is p or above. */
TABAI_INLINE void p521_r58_pack(uint64_t *r, const uint64_t *l, uint64_t h) {
    uint64_t s[9], u[9], cy, bw = 0;
    _Pragma("GCC unroll 9") for (int w = 0; w < 9; w++) {
        uint64_t v = 0;
        _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) {
            const int lo = 58 * i, hi = lo + (i == 8 ? 57 : 58), sh = lo - 64 * w;
            if (hi <= 64 * w || lo >= 64 * w + 64) continue;
            v |= sh >= 0 ? l[i] << sh : l[i] >> -sh;
        }
        s[w] = v;
    }
    cy = tabai_adc(&s[0], s[0], h, 0);
    _Pragma("GCC unroll 9") for (int w = 1; w < 9; w++) cy = tabai_adc(&s[w], s[w], 0, cy);
    cy = s[8] >> 9; /* s < 2^522: fold bit 521, s <= 2^521 */
    s[8] &= 0x1ff;
    _Pragma("GCC unroll 9") for (int w = 0; w < 9; w++) cy = tabai_adc(&s[w], s[w], 0, cy);
    _Pragma("GCC unroll 9") for (int w = 0; w < 9; w++) bw =
        tabai_sbb(&u[w], s[w], w < 8 ? ~UINT64_C(0) : 0x1ff, bw);
    const uint64_t keep = tabai_mask(bw); /* s < p */
    _Pragma("GCC unroll 9") for (int w = 0; w < 9; w++) r[w] = (s[w] & keep) | (u[w] & ~keep);
}

/* r[9] = l mod p in [0, p), 64-bit words, for loosely reduced limbs l (r may alias l) */
TABAI_INLINE void p521_r58_to_words(uint64_t *r, const uint64_t *l) {
    uint64_t t[9];
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) t[i] = l[i];
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) t[i + 1] += t[i] >> 58, t[i] &= P521_M58;
    const uint64_t h = t[8] >> 57;
    t[8] &= P521_M57;
    p521_r58_pack(r, t, h);
}

/* 1 if l = 0 mod p, 0 otherwise (constant time), for limbs below 2^62: one carry pass gives
 * canonical limbs t (t < 2^521) and the carry h < 2^5 out of bit 521, l = t + h mod p with
 * t + h < 2p, so l = 0 mod p exactly when t + h is 0 or p, that is t = 0 and h = 0, or t's
 * limbs those of p with t_0 + h in place of its low one (t_0 + h = 2^58 - 1; a sum above
 * it cannot meet p, whose low 58 bits are all ones). No packing into words. */
TABAI_INLINE uint64_t p521_r58_is_zero(const uint64_t *l) {
    uint64_t t[9], z, q;
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) t[i] = l[i];
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) t[i + 1] += t[i] >> 58, t[i] &= P521_M58;
    const uint64_t h = t[8] >> 57;
    t[8] &= P521_M57;
    z = h, q = (t[0] + h) ^ P521_M58;
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) z |= t[i];
    _Pragma("GCC unroll 7") for (int i = 1; i < 8; i++) q |= t[i] ^ P521_M58;
    q |= t[8] ^ P521_M57;
    return (1 ^ tabai_nonzero(z)) | (1 ^ tabai_nonzero(q));
}

/* limbs below 2^62 in, below 2^58 + 2^5 out: every carry passed one limb up at once (the
 * top one's, at bit 521, into limb 0) */
TABAI_INLINE void p521_r58_carry(uint64_t *l) {
    uint64_t c[9];
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) c[i] = l[i] >> (i < 8 ? 58 : 57);
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) l[i] =
        (l[i] & (i < 8 ? P521_M58 : P521_M57)) + c[(i + 8) % 9];
}

/* the column sums c[9] (each below 2^124.2) -> loosely reduced limbs r[9]: one carry pass,
 * the carry out of bit 521 (below 2^67.3) added to limb 0 in 128 bits and that sum's carry
 * into limb 1 (limbs 0 and 2..7 < 2^58, limb 8 < 2^57, limb 1 below 2^58 + 2^10). A serial
 * chain; cutting each column into three 58-bit pieces added in parallel
 * shortened a dependent chain of products by a fifth but took more instructions, and the
 * point formulas, whose products overlap, ran slower with it. */
TABAI_INLINE void p521_r58_columns(uint64_t *r, tabai_u128 *c) {
    _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) c[k + 1] += c[k] >> 58,
        r[k] = (uint64_t)c[k] & P521_M58;
    r[8] = (uint64_t)c[8] & P521_M57;
    const tabai_u128 t = (tabai_u128)r[0] + (c[8] >> 57);
    r[0] = (uint64_t)t & P521_M58;
    r[1] += (uint64_t)(t >> 58);
}

/* The product and the square: inlined into the point formulas by gcc (the measured build);
 * called by clang, which, inlining them, held the formulas' limbs and column sums in
 * registers and spilled them far more than gcc (P-521 far slower; called, near its own
 * bound). */
#if defined(__clang__)
#define P521_PRODUCT static __attribute__((noinline, unused)) void
#else
#define P521_PRODUCT TABAI_INLINE void
#endif

/* r = a b mod p, loosely reduced, for limbs of a and b below 2^60 (r may alias a and b) */
P521_PRODUCT p521_r58_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t b2[9];
    tabai_u128 c[9];
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) b2[i] = b[i] << 1;
    _Pragma("GCC unroll 9") for (int k = 0; k < 9; k++) {
        tabai_u128 acc = 0;
        _Pragma("GCC unroll 9") for (int i = 0; i <= k; i++) acc += (tabai_u128)a[i] * b[k - i];
        _Pragma("GCC unroll 9") for (int i = k + 1; i < 9; i++) acc +=
            (tabai_u128)a[i] * b2[k + 9 - i];
        c[k] = acc;
    }
    p521_r58_columns(r, c);
}

/* r = a^2 mod p, loosely reduced, for limbs of a below 2^60 (r may alias a): each cross
 * product once, doubled (x4 when it folds) */
P521_PRODUCT p521_r58_sqr(uint64_t *r, const uint64_t *a) {
    uint64_t a2[9], a4[9];
    tabai_u128 c[9];
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) a2[i] = a[i] << 1, a4[i] = a[i] << 2;
    _Pragma("GCC unroll 9") for (int k = 0; k < 9; k++) {
        tabai_u128 acc = 0;
        _Pragma("GCC unroll 9") for (int i = 0; 2 * i < k; i++) acc += (tabai_u128)a2[i] * a[k - i];
        if (k % 2 == 0) acc += (tabai_u128)a[k / 2] * a[k / 2];
        _Pragma("GCC unroll 9") for (int i = k + 1; 2 * i < k + 9; i++) acc +=
            (tabai_u128)a4[i] * a[k + 9 - i];
        if (k % 2 == 1) acc += (tabai_u128)a2[(k + 9) / 2] * a[(k + 9) / 2];
        c[k] = acc;
    }
    p521_r58_columns(r, c);
}

/* r = a + b mod p, loosely reduced (r may alias) */
TABAI_INLINE void p521_r58_add(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) r[i] = a[i] + b[i];
    p521_r58_carry(r);
}

/* r = a + b mod p without the carry pass (r may alias), for a sum of at most three loosely
 * reduced values in all (limbs below 3 (2^58 + 2^10) < 2^59.6, the top one below 2^58.6):
 * valid only as a factor of p521_r58_mul or p521_r58_sqr, or, a sum of two, as the
 * subtrahend of p521_r58_sub */
TABAI_INLINE void p521_r58_add_lazy(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) r[i] = a[i] + b[i];
}

/* r = a - b mod p, loosely reduced (r may alias), for limbs of a below 2^60: 4 p added
 * first, its limbs (2^60 - 4, ..., 2^59 - 4) above those of a loosely reduced b or a lazy sum
 * of two (below 2^59 + 2^11, the top one below 2^58 + 2^5), so no limb goes negative */
TABAI_INLINE void p521_r58_sub(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) r[i] =
        a[i] + ((i < 8 ? UINT64_C(1) << 60 : UINT64_C(1) << 59) - 4) - b[i];
    p521_r58_carry(r);
}

/* r = a - b mod p without the carry pass (r may alias), for loosely reduced a and b: 2 p
 * added first (limbs 2^59 - 2, ..., 2^58 - 2, above b's), limbs below 2^59.6; valid only as a
 * factor of p521_r58_mul or p521_r58_sqr (with the other factor below 2^60) */
TABAI_INLINE void p521_r58_sub_lazy(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) r[i] =
        a[i] + ((i < 8 ? UINT64_C(1) << 59 : UINT64_C(1) << 58) - 2) - b[i];
}

/* r = a / 2 mod p, loosely reduced (r may alias): each limb shifted right by one, the bit
 * shifted out of limb i + 1 entering limb i at bit 57 and limb 0's at bit 520 (2^-1 = 2^520
 * mod p); limbs below 2^58 + 2^10 give limbs below 2^58 + 2^9 */
TABAI_INLINE void p521_r58_half(uint64_t *r, const uint64_t *a) {
    uint64_t b0 = a[0] & 1;
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) r[i] = (a[i] >> 1) + ((a[i + 1] & 1) << 57);
    r[8] = (a[8] >> 1) + (b0 << 56);
}

#endif
