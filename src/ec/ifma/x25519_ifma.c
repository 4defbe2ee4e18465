/* X25519 (RFC 7748) at tier ifma: the Montgomery ladder as three 4-way products per step,
 * GF(2^255 - 19) in radix 2^51 with AVX-512 IFMA on ymm (vpmadd52luq / vpmadd52huq).
 *
 * Representation: a vector element is five __m256i digits d_0..d_4 (value sum d_k 2^(51 k)),
 * each holding the same digit of four independent field elements in its four 64-bit lanes.
 * IFMA multiplies the low 52 bits of its operands, so every digit at a product's input is
 * below 2^52; a "carried" vector has digits < 2^51 + 2^15 (one parallel carry round), which
 * leaves room for nothing: every addition or subtraction is followed by a carry round.
 *
 * Product (operand scanning): a b = sum_i a_i B_i with B_i = 2^(51 i) b mod p, the five
 * rotations of b, each five digits < 2^52 (19 b_m = L_m + 2^51 H_m split at bit 51 for the
 * wrapped digits, fe_rotations). The 25 low and 25 high halves of a_i (B_i)_j (= lo + 2^52 hi,
 * so hi lands one digit up with weight 2 in radix 2^51) sum to t_j = LO_j + 2 HI_(j-1), with
 * only the top column folded: t_0 = LO_0 + 38 HI_4 (2^255 = 19 mod p). Each t_j < 2^58 for
 * carried inputs. A carry round (c_k = t_k >> 51 added to digit k+1, 19 c_4 to digit 0 by one
 * vpmadd52luq) follows, or is left to the sums after the product (one round for both, the
 * sums taking 2^8 p for a subtrahend below 2^58). x1's rotations are computed once.
 *
 * Ladder step (lanes 0..3; the state is (x2, z2, x3, z3), RFC 7748's names):
 *   W  = (x2 + z2, x2 - z2, x3 + z3, x3 - z3) = (A, B, C, D)     pair swap, add, sub
 *   P1 = W[0 1 2 3] * W[0 1 1 0] = (AA, BB, CB, DA)             4-way product 1
 *   L  = (AA, E = AA - BB, DA + CB, CB - DA)
 *   R  = (BB, AA + 121665 E, DA + CB, CB - DA)                  one IFMA pair per digit
 *   P2 = L * R = (x2', z2', x3', (DA - CB)^2)                    4-way product 2
 *   V  = P2 * (1, 1, 1, x1) = (x2', z2', x3', z3')               4-way product 3
 * RFC 7748's conditional swap is folded into the first product's operand permutations: the
 * bit s = k_t xor k_(t+1) selects the index vectors ((0 1 2 3), (0 1 1 0)) or ((2 3 0 1),
 * (2 3 3 2)) by a mask blend, so the state is never swapped; after the last step, k_0
 * selects the lanes of (x2, z2) the same way. x2 / z2 is the bmi2 tier's
 * (tabai_x25519_affine_n4_bmi2: safegcd, one product, the final reduction): the ifma tier
 * implies BMI2 and ADX.
 *
 * Layout of the step after Hisil, Egrioglu, Kocak, "Fast 4-way vectorized ladder for the
 * complete set of Montgomery curves" (2020) and Nath, Sarkar, "Efficient 4-way
 * vectorizations of the Montgomery ladder" (IEEE Trans. Computers, 2021); radix 2^51 with
 * IFMA's 52-bit halves as in curve25519-dalek's IFMA backend (de Valence, 2018).
 *
 * Constant time: straight-line vector code, the scalar bit only selects permutation indices
 * and lanes through mask blends; no secret-dependent branch or address. Compiled with
 * -mavx512f -mavx512vl -mavx512ifma (this file only); called only at tier ifma
 * (src/ec/x25519.c). */
#include <immintrin.h>
#include <stddef.h>
#include <string.h>

#include "../../internal.h"
#include "../x25519.h"

#define MASK51 ((UINT64_C(1) << 51) - 1)

typedef __m256i v4;

TABAI_INLINE v4 bc(uint64_t x) { return _mm256_set1_epi64x((long long)x); }

/* One parallel carry round: digits < 2^64 in, < 2^51 + 19 * 2^13 out (< 2^51 + 2^15 for
 * inputs below 2^61). */
TABAI_INLINE void fe_carry(v4 t[5]) {
    const v4 m = bc(MASK51);
    v4 c0 = _mm256_srli_epi64(t[0], 51), c1 = _mm256_srli_epi64(t[1], 51);
    v4 c2 = _mm256_srli_epi64(t[2], 51), c3 = _mm256_srli_epi64(t[3], 51);
    v4 c4 = _mm256_srli_epi64(t[4], 51);
    t[0] = _mm256_madd52lo_epu64(_mm256_and_si256(t[0], m), c4, bc(19));
    t[1] = _mm256_add_epi64(_mm256_and_si256(t[1], m), c0);
    t[2] = _mm256_add_epi64(_mm256_and_si256(t[2], m), c1);
    t[3] = _mm256_add_epi64(_mm256_and_si256(t[3], m), c2);
    t[4] = _mm256_add_epi64(_mm256_and_si256(t[4], m), c3);
}

/* 19 x (x < 2^59) */
TABAI_INLINE v4 mul19(v4 x) {
    v4 x3 = _mm256_add_epi64(_mm256_add_epi64(x, x), x);
    return _mm256_add_epi64(_mm256_slli_epi64(x, 4), x3);
}

/* B[i] = 2^(51 i) b mod p for i = 0..4, each five digits < 2^51 + 2^15 + 64 (b's digits
 * < 2^52, b_0 < 2^51 + 2^15 + 64): with 19 b_m = L_m + 2^51 H_m (L_m < 2^51, H_m < 2^6),
 * digit m + i of 2^(51 i) b is b_m below 5, and for m + i >= 5 L_m goes to digit m + i - 5
 * and H_m to digit m + i - 4. */
typedef struct fe_rot {
    v4 b[5], l[5], q[5], n; /* b_m; L_m (m = 1..4); Q_m = L_m + H_(m-1) (m = 2..4); b_0 + H_4 */
} fe_rot;

TABAI_INLINE void fe_rotations(fe_rot *r, const v4 b[5]) {
    const v4 m = bc(MASK51);
    v4 h[5];
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) r->b[i] = b[i];
#pragma GCC unroll 4
    for (int i = 1; i < 5; i++) {
        v4 s = mul19(b[i]);
        r->l[i] = _mm256_and_si256(s, m);
        h[i] = _mm256_srli_epi64(s, 51);
    }
#pragma GCC unroll 3
    for (int i = 2; i < 5; i++) r->q[i] = _mm256_add_epi64(r->l[i], h[i - 1]);
    r->n = _mm256_add_epi64(b[0], h[4]);
}

/* digit j of B[i] (see fe_rotations) */
TABAI_INLINE v4 rot_digit(const fe_rot *r, int i, int j) {
    if (j > i) return r->b[j - i];
    if (j == i) return r->n;
    return j == 0 ? r->l[5 - i] : r->q[j - i + 5];
}

/* r = a * b mod p lane by lane, b given as its rotations (fe_rotations); digits of a < 2^52,
 * r not carried: digits < 2^58 for a's digits < 2^51 + 2^15 (LO_j < 5 * 2^52, HI_j < 5 * 2^50.01). Operand scanning: LO_j = sum_i lo(a_i B[i]_j), HI_j = sum_i hi(a_i B[i]_j), then
 * t_j = LO_j + 2 HI_(j-1) and t_0 = LO_0 + 38 HI_4 (2^255 = 19), each < 195 * 2^52. */
TABAI_INLINE void fe_mul_rot(v4 r[5], const v4 a[5], const fe_rot *b) {
    v4 lo[5], hi[5];
    const v4 z = _mm256_setzero_si256();
#pragma GCC unroll 5
    for (int j = 0; j < 5; j++) {
        lo[j] = _mm256_madd52lo_epu64(z, a[0], b->b[j]);
        hi[j] = _mm256_madd52hi_epu64(z, a[0], b->b[j]);
    }
#pragma GCC unroll 4
    for (int i = 1; i < 5; i++) {
#pragma GCC unroll 5
        for (int j = 0; j < 5; j++) {
            v4 y = rot_digit(b, i, j);
            lo[j] = _mm256_madd52lo_epu64(lo[j], a[i], y);
            hi[j] = _mm256_madd52hi_epu64(hi[j], a[i], y);
        }
    }
    v4 t[5];
    v4 h4 = mul19(hi[4]);
    t[0] = _mm256_add_epi64(lo[0], _mm256_add_epi64(h4, h4));
#pragma GCC unroll 4
    for (int j = 1; j < 5; j++)
        t[j] = _mm256_add_epi64(lo[j], _mm256_add_epi64(hi[j - 1], hi[j - 1]));
#pragma GCC unroll 5
    for (int k = 0; k < 5; k++) r[k] = t[k];
}

/* r = a * b mod p lane by lane; digits of a, b < 2^52 and b_0 < 2^51 + 2^15 + 64, r
 * carried. r may alias a, b. */
TABAI_INLINE void fe_mul(v4 r[5], const v4 a[5], const v4 b[5]) {
    fe_rot br;
    fe_rotations(&br, b);
    fe_mul_rot(r, a, &br);
    fe_carry(r);
}

/* 2^8 p in radix 2^51 (digits 2^59 - 19 * 2^8, 2^59 - 2^8, ...): a - b + 2^8 p has digits in
 * (0, 2^60) for a's and b's digits < 2^58 (an uncarried product) */
#define P4_0 ((UINT64_C(1) << 59) - 19 * 256)
#define P4_K ((UINT64_C(1) << 59) - 256)

/* d = the five 51-bit digits of w[4] (d_4 keeps bits 204..255: < 2^52) */
TABAI_INLINE void fe_from_n4(uint64_t d[5], const uint64_t w[4]) {
    d[0] = w[0] & MASK51;
    d[1] = ((w[0] >> 51) | (w[1] << 13)) & MASK51;
    d[2] = ((w[1] >> 38) | (w[2] << 26)) & MASK51;
    d[3] = ((w[2] >> 25) | (w[3] << 39)) & MASK51;
    d[4] = w[3] >> 12;
}

/* r[4] = sum d_k 2^(51 k) for d_k < 2^52 with d_4 < 2^51 + 2^15 (then the sum is < 2^256) */
static void fe_to_n4(uint64_t r[4], const uint64_t d[5]) {
    tabai_u128 acc = (tabai_u128)d[0] + ((tabai_u128)d[1] << 51);
    r[0] = (uint64_t)acc;
    acc = (acc >> 64) + ((tabai_u128)d[2] << 38);
    r[1] = (uint64_t)acc;
    acc = (acc >> 64) + ((tabai_u128)d[3] << 25) + ((tabai_u128)d[4] << 76);
    r[2] = (uint64_t)acc;
    r[3] = (uint64_t)(acc >> 64);
}

void tabai_x25519_ladder_r51n5_ifma(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]) {
    uint64_t x1[5], w[4];
    memcpy(w, u, 32);  /* x86-64: little-endian */
    w[3] &= INT64_MAX; /* RFC 7748 5: the top bit of u is ignored */
    fe_from_n4(x1, w);
    v4 V[5], X1M[5], P4[5];
    /* V = (x2, z2, x3, z3) = (1, 0, u, 1); X1M = (1, 1, 1, x1) */
    V[0] = _mm256_setr_epi64x(1, 0, (long long)x1[0], 1);
    X1M[0] = _mm256_setr_epi64x(1, 1, 1, (long long)x1[0]);
    P4[0] = bc(P4_0);
#pragma GCC unroll 5
    for (int i = 1; i < 5; i++) {
        V[i] = _mm256_setr_epi64x(0, 0, (long long)x1[i], 0);
        X1M[i] = _mm256_setr_epi64x(0, 0, 0, (long long)x1[i]);
        P4[i] = bc(P4_K);
    }
    const v4 id = _mm256_setr_epi64x(0, 1, 2, 3), idr = _mm256_setr_epi64x(0, 1, 1, 0);
    const v4 sw = _mm256_setr_epi64x(2, 3, 0, 1), swr = _mm256_setr_epi64x(2, 3, 3, 2);
    const v4 a24 = _mm256_setr_epi64x(0, 121665, 0, 0);
    fe_rot x1r;
    fe_rotations(&x1r, X1M);
    uint64_t prev = 0;
    for (int t = 254; t >= 0; t--) {
        uint64_t kt = (uint64_t)(k[t >> 3] >> (t & 7)) & 1;
        __mmask8 ms = (__mmask8)(tabai_mask(kt ^ prev) & 0xF);
        prev = kt;
        v4 il = _mm256_mask_blend_epi64(ms, id, sw), ir = _mm256_mask_blend_epi64(ms, idr, swr);
        v4 W[5], L[5], R[5];
#pragma GCC unroll 5
        for (int i = 0; i < 5; i++) {
            v4 vs = _mm256_shuffle_epi32(V[i], 0x4e);
            v4 n = _mm256_sub_epi64(P4[i], V[i]);
            W[i] = _mm256_add_epi64(vs, _mm256_mask_blend_epi64(0xA, V[i], n));
        }
        fe_carry(W); /* (A, B, C, D) */
#pragma GCC unroll 5
        for (int i = 0; i < 5; i++) {
            L[i] = _mm256_permutexvar_epi64(il, W[i]);
            R[i] = _mm256_permutexvar_epi64(ir, W[i]);
        }
        fe_rot rr;
        fe_rotations(&rr, R);
        fe_mul_rot(L, L, &rr); /* (AA, BB, CB, DA), not carried */
        v4 Ps[5];
#pragma GCC unroll 5
        for (int i = 0; i < 5; i++) {
            Ps[i] = _mm256_shuffle_epi32(L[i], 0x4e); /* (BB, AA, DA, CB) */
            v4 d = _mm256_add_epi64(Ps[i], _mm256_sub_epi64(P4[i], L[i]));
            v4 s = _mm256_add_epi64(Ps[i], L[i]);
            L[i] = _mm256_mask_blend_epi64(0x4, _mm256_mask_blend_epi64(0x1, d, L[i]), s);
        }
        fe_carry(L); /* (AA, E, DA + CB, CB - DA) */
        v4 H[5];
#pragma GCC unroll 5
        for (int i = 0; i < 5; i++) {
            R[i] = _mm256_madd52lo_epu64(_mm256_mask_blend_epi64(0xC, Ps[i], L[i]), L[i], a24);
            H[i] = _mm256_madd52hi_epu64(_mm256_setzero_si256(), L[i], a24);
        }
#pragma GCC unroll 5
        for (int i = 1; i < 5; i++)
            R[i] = _mm256_add_epi64(R[i], _mm256_add_epi64(H[i - 1], H[i - 1]));
        R[0] = _mm256_madd52lo_epu64(R[0], H[4], bc(38));
        fe_carry(R);            /* (BB, AA + 121665 E, DA + CB, CB - DA) */
        fe_mul(L, L, R);        /* (x2', z2', x3', (DA - CB)^2) */
        fe_mul_rot(V, L, &x1r); /* (x2', z2', x3', z3'), not carried */
    }
    fe_carry(V);
    struct {
        uint64_t d[5][4], xd[5], zd[5], x2[4], z2[4];
    } f;
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) _mm256_storeu_si256((v4 *)f.d[i], V[i]);
    uint64_t m = tabai_mask(prev);
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        f.xd[i] = f.d[i][0] ^ (m & (f.d[i][0] ^ f.d[i][2]));
        f.zd[i] = f.d[i][1] ^ (m & (f.d[i][1] ^ f.d[i][3]));
    }
    fe_to_n4(f.x2, f.xd);
    fe_to_n4(f.z2, f.zd);
    tabai_x25519_affine_n4_bmi2(out, f.x2, f.z2);
    tabai_wipe(&f, sizeof f);
    tabai_wipe(V, sizeof V);
}

/* ---- the field product for the differential tests (tests/c/test_fe25519.c) ---- */
void tabai_fe25519_mul_r51n5_mb4_ifma(uint64_t r[4][4], const uint64_t a[4][4],
                                      const uint64_t b[4][4]) {
    uint64_t da[5][4], db[5][4], dr[5][4];
#pragma GCC unroll 4
    for (int l = 0; l < 4; l++) {
        uint64_t xs[5], ys[5];
        fe_from_n4(xs, a[l]);
        fe_from_n4(ys, b[l]);
#pragma GCC unroll 5
        for (int i = 0; i < 5; i++) da[i][l] = xs[i], db[i][l] = ys[i];
    }
    v4 A[5], B[5];
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        A[i] = _mm256_loadu_si256((const v4 *)da[i]);
        B[i] = _mm256_loadu_si256((const v4 *)db[i]);
    }
    fe_mul(A, A, B);
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) _mm256_storeu_si256((v4 *)dr[i], A[i]);
#pragma GCC unroll 4
    for (int l = 0; l < 4; l++) {
        uint64_t ds[5];
#pragma GCC unroll 5
        for (int i = 0; i < 5; i++) ds[i] = dr[i][l];
        fe_to_n4(r[l], ds);
    }
}
