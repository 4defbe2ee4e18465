/* P-256 Montgomery product and square with mulx/adcx/adox, and the bmi2 instance's fused
 * operations at the end (inline assembly; built only in this folder, with -mbmi2 -madx):
 * the plain product or square into eight limbs, then the
 * reduction steps of p256_field.h on its low half (-p^-1 = 1 mod 2^64, so the multiplier m
 * is the low limb, and m p needs no mulx: p's limbs are 2^64 - 1, 2^32 - 1, 0 and
 * 2^64 - 2^32 + 1), the high half added (the sum is below 2p) and p subtracted under the
 * borrow (cmov). Results bit-identical to p256_mont_mul. Constant time: straight-line code. */
#ifndef TABAI_EC_P256_MUL_BMI2_H
#define TABAI_EC_P256_MUL_BMI2_H

#include "../p256_field.h"
#include "fe4_bmi2.h"

/* one reduction step of the low half in a 4-limb window, with 32 in %[a0]: m = W0 and, as
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1, (W + m p) / 2^64 = (W1, W2, W3) + m 2^32
 * + 2^128 m (2^64 - 2^32 + 1) (< 2^256 for W < 2^256). With m 2^32 = s + 2^64 v (s = m << 32,
 * v = m >> 32), the last product is 2^64 (m - v - b) + (m - s mod 2^64), b the borrow of
 * m - s: two subtractions where a mulx by p's top limb put four cycles on the chain. The
 * result in (W1, W2, W3, W0); scratch %[a1] %[a2] %[a3]. */
#define P256_RED4(W0, W1, W2, W3)                                                                  \
    "shlxq %[a0], %[" W0 "], %[a1]\n\t"                                                            \
    "shrxq %[a0], %[" W0 "], %[a2]\n\t"                                                            \
    "movq %[" W0 "], %[a3]\n\t"                                                                    \
    "subq %[a1], %[a3]\n\t"                                                                        \
    "sbbq %[a2], %[" W0 "]\n\t"                                                                    \
    "addq %[a1], %[" W1 "]\n\t"                                                                    \
    "adcq %[a2], %[" W2 "]\n\t"                                                                    \
    "adcq %[a3], %[" W3 "]\n\t"                                                                    \
    "adcq $0, %[" W0 "]\n\t"

/* The common tail: the low half (t0..t3) reduced in place by four steps (shifts by
 * shlx/shrx, no mulx), the high half (t4..t7) added, p subtracted under the borrow (p's
 * limbs as immediates and rdx: no memory operand). Result in t0..t3; a0..a3 and t4..t7 are
 * scratch. p's top limb goes into rdx for the final subtraction before the steps in the
 * product and after them in the square, each the faster place in a chain of its own (Zen 4,
 * alternating runs). */
#define P256_P3_RDX "movabsq $0xffffffff00000001, %%rdx\n\t"
/* clang-format off */
#define P256_REDUCE_WIDE(RDX_EARLY, RDX_LATE)                                                      \
    "movl $32, %k[a0]\n\t"                                                                         \
    RDX_EARLY                                                                                      \
    P256_RED4("t0", "t1", "t2", "t3")                                                              \
    P256_RED4("t1", "t2", "t3", "t0")                                                              \
    P256_RED4("t2", "t3", "t0", "t1")                                                              \
    P256_RED4("t3", "t0", "t1", "t2")                                                              \
    FE4_ADD_HIGH("t0", "t1", "t2", "t3", "a1")                                                     \
    "movl $0xffffffff, %k[a0]\n\t" /* p's limb 1 */                                                \
    RDX_LATE                                                                                       \
    "movq %[t0], %[t4]\n\t"                                                                        \
    "movq %[t1], %[t5]\n\t"                                                                        \
    "movq %[t2], %[t6]\n\t"                                                                        \
    "movq %[t3], %[t7]\n\t"                                                                        \
    "subq $-1, %[t4]\n\t"                                                                          \
    "sbbq %[a0], %[t5]\n\t"                                                                        \
    "sbbq $0, %[t6]\n\t"                                                                           \
    "sbbq %%rdx, %[t7]\n\t"                                                                        \
    "sbbq $0, %[a1]\n\t"                                                                           \
    "cmovncq %[t4], %[t0]\n\t"                                                                     \
    "cmovncq %[t5], %[t1]\n\t"                                                                     \
    "cmovncq %[t6], %[t2]\n\t"                                                                     \
    "cmovncq %[t7], %[t3]\n\t"
/* clang-format on */

/* acc (A0..A4) += a[4] * rdx for a at %[a0], A4 zeroed here (xor also clears CF and OF);
 * scratch %[a1] %[a2] */
#define P256_ROW(A0, A1, A2, A3, A4)                                                               \
    "xorl %k[" A4 "], %k[" A4 "]\n\t"                                                              \
    "mulxq 0(%[a0]), %[a1], %[a2]\n\t"                                                             \
    "adcxq %[a1], %[" A0 "]\n\t"                                                                   \
    "adoxq %[a2], %[" A1 "]\n\t"                                                                   \
    "mulxq 8(%[a0]), %[a1], %[a2]\n\t"                                                             \
    "adcxq %[a1], %[" A1 "]\n\t"                                                                   \
    "adoxq %[a2], %[" A2 "]\n\t"                                                                   \
    "mulxq 16(%[a0]), %[a1], %[a2]\n\t"                                                            \
    "adcxq %[a1], %[" A2 "]\n\t"                                                                   \
    "adoxq %[a2], %[" A3 "]\n\t"                                                                   \
    "mulxq 24(%[a0]), %[a1], %[a2]\n\t"                                                            \
    "adcxq %[a1], %[" A3 "]\n\t"                                                                   \
    "adoxq %[a2], %[" A4 "]\n\t"                                                                   \
    "adcq $0, %[" A4 "]\n\t"

/* w = a b R^-1 mod p (w in registers) for a, b < p: the plain product by rows (b's limbs in
 * rdx, a's from memory through %[a0], b's address in %[a3]), then P256_REDUCE_WIDE. Twelve
 * registers besides rdx: the inputs are read through the two pointer registers under
 * a "memory" clobber, as "m" operands would each take one more register for their address
 * (too many with a frame pointer). Chosen over rows interleaved with the steps (CIOS), which
 * chained each step's carry into the next row: on Zen 4 a chain of dependent products took
 * 14.5 ns a product that way and 13.6 ns this way (`tabai-ec-time`'s fmul, alternating, both
 * with the steps' mulx; 12.3 ns with the steps of P256_RED4, where CIOS with the same steps
 * stayed behind in a throwaway harness). */
TABAI_INLINE void p256_mont_mul_w(uint64_t w[4], const uint64_t *a, const uint64_t *b) {
    uint64_t a0 = (uint64_t)(uintptr_t)a, a3 = (uint64_t)(uintptr_t)b, a1, a2;
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7;
    /* clang-format off */
    __asm__("movq 0(%[a3]), %%rdx\n\t"
            "xorl %k[t5], %k[t5]\n\t"
            "mulxq 0(%[a0]), %[t0], %[t1]\n\t"
            "mulxq 8(%[a0]), %[a1], %[t2]\n\t"
            "adcxq %[a1], %[t1]\n\t"
            "mulxq 16(%[a0]), %[a1], %[t3]\n\t"
            "adcxq %[a1], %[t2]\n\t"
            "mulxq 24(%[a0]), %[a1], %[t4]\n\t"
            "adcxq %[a1], %[t3]\n\t"
            "adcxq %[t5], %[t4]\n\t"
            "movq 8(%[a3]), %%rdx\n\t"
            P256_ROW("t1", "t2", "t3", "t4", "t5")
            "movq 16(%[a3]), %%rdx\n\t"
            P256_ROW("t2", "t3", "t4", "t5", "t6")
            "movq 24(%[a3]), %%rdx\n\t"
            P256_ROW("t3", "t4", "t5", "t6", "t7")
            P256_REDUCE_WIDE(P256_P3_RDX, "")
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7), [a0] "+r"(a0), [a1] "=&r"(a1),
              [a2] "=&r"(a2), [a3] "+r"(a3)
            :
            : "rdx", "cc", "memory");
    /* clang-format on */
    w[0] = t0, w[1] = t1, w[2] = t2, w[3] = t3;
}

/* w = a^2 R^-1 mod p (w in registers) for a < p: the square (FE4_SQR_WIDE, a's limbs in
 * registers), then P256_REDUCE_WIDE. Twelve registers besides rdx, so it builds with a frame
 * pointer and with clang too. */
TABAI_INLINE void p256_mont_sqr_w(uint64_t w[4], const uint64_t *a) {
    uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], t0, t1, t2, t3, t4, t5, t6, t7;
    /* clang-format off */
    __asm__(FE4_SQR_WIDE
            P256_REDUCE_WIDE("", P256_P3_RDX)
            : FE4_SQR_OUTPUTS
            :
            : "rdx", "cc");
    /* clang-format on */
    w[0] = t0, w[1] = t1, w[2] = t2, w[3] = t3;
}

/* w = w - b mod p for w, b < p (w in registers, b in memory): the difference, then p added
 * under the borrow's mask M with p's limbs formed from it (M, M >> 32, 0, (M << 32) - M) */
TABAI_INLINE void p256_sub_w(uint64_t w[4], const uint64_t *b) {
    uint64_t t0 = w[0], t1 = w[1], t2 = w[2], t3 = w[3], m, u1, u3;
    __asm__("subq %[b0], %[t0]\n\t"
            "sbbq %[b1], %[t1]\n\t"
            "sbbq %[b2], %[t2]\n\t"
            "sbbq %[b3], %[t3]\n\t"
            "sbbq %[m], %[m]\n\t"
            "movq %[m], %[u1]\n\t"
            "shrq $32, %[u1]\n\t"
            "movq %[m], %[u3]\n\t"
            "shlq $32, %[u3]\n\t"
            "subq %[m], %[u3]\n\t"
            "addq %[m], %[t0]\n\t"
            "adcq %[u1], %[t1]\n\t"
            "adcq $0, %[t2]\n\t"
            "adcq %[u3], %[t3]\n\t"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [m] "=&r"(m),
              [u1] "=&r"(u1), [u3] "=&r"(u3)
            : [b0] "m"(b[0]), [b1] "m"(b[1]), [b2] "m"(b[2]), [b3] "m"(b[3])
            : "cc");
    w[0] = t0, w[1] = t1, w[2] = t2, w[3] = t3;
}

/* w = w + b mod p for w, b < p (w in registers, b in memory): the sum and its carry, p
 * subtracted from copies (p's limbs as immediates and two registers), the sum kept on the
 * borrow (cmov) */
TABAI_INLINE void p256_add_w(uint64_t w[4], const uint64_t *b) {
    uint64_t t0 = w[0], t1 = w[1], t2 = w[2], t3 = w[3], s0, s1, s2, s3, c;
    __asm__("xorl %k[c], %k[c]\n\t"
            "addq %[b0], %[t0]\n\t"
            "adcq %[b1], %[t1]\n\t"
            "adcq %[b2], %[t2]\n\t"
            "adcq %[b3], %[t3]\n\t"
            "adcq $0, %[c]\n\t"
            "movq %[t0], %[s0]\n\t"
            "movq %[t1], %[s1]\n\t"
            "movq %[t2], %[s2]\n\t"
            "movq %[t3], %[s3]\n\t"
            "subq $-1, %[s0]\n\t"
            "sbbq %[p1], %[s1]\n\t"
            "sbbq $0, %[s2]\n\t"
            "sbbq %[p3], %[s3]\n\t"
            "sbbq $0, %[c]\n\t"
            "cmovncq %[s0], %[t0]\n\t"
            "cmovncq %[s1], %[t1]\n\t"
            "cmovncq %[s2], %[t2]\n\t"
            "cmovncq %[s3], %[t3]\n\t"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [s0] "=&r"(s0),
              [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [c] "=&r"(c)
            : [b0] "m"(b[0]), [b1] "m"(b[1]), [b2] "m"(b[2]), [b3] "m"(b[3]), [p1] "r"(P256_P[1]),
              [p3] "r"(P256_P[3])
            : "cc");
    w[0] = t0, w[1] = t1, w[2] = t2, w[3] = t3;
}

/* The field operations of the bmi2 instance (curve_impl.h's FE_MUL, FE_SQR, FE_SUB and the
 * fused FE_MUL_SUB, FE_SQR_SUB2, FE_TRIPLE): a fused one keeps the product, square or sum in
 * registers for the next step, one store and reload of four limbs less (and P-256's limbs as
 * immediates or formed from the borrow's mask, no load of p), which made the doubling about
 * 4% faster (src/ec/README.md). Inputs below p, results below p; r may alias any input. */
TABAI_INLINE void p256_store(uint64_t *r, const uint64_t w[4]) {
    r[0] = w[0], r[1] = w[1], r[2] = w[2], r[3] = w[3];
}
TABAI_INLINE void p256_mont_mul_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t w[4];
    p256_mont_mul_w(w, a, b);
    p256_store(r, w);
}
TABAI_INLINE void p256_mont_sqr_bmi2(uint64_t *r, const uint64_t *a) {
    uint64_t w[4];
    p256_mont_sqr_w(w, a);
    p256_store(r, w);
}
/* r = a b R^-1 - c mod p */
TABAI_INLINE void p256_mont_mul_sub_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                         const uint64_t *c) {
    uint64_t w[4];
    p256_mont_mul_w(w, a, b);
    p256_sub_w(w, c);
    p256_store(r, w);
}
/* r = a^2 R^-1 - 2 b mod p */
TABAI_INLINE void p256_mont_sqr_sub2_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t w[4];
    p256_mont_sqr_w(w, a);
    p256_sub_w(w, b);
    p256_sub_w(w, b);
    p256_store(r, w);
}
/* r = a - b mod p */
TABAI_INLINE void p256_sub_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t w[4] = {a[0], a[1], a[2], a[3]};
    p256_sub_w(w, b);
    p256_store(r, w);
}
/* r = 3 a mod p */
TABAI_INLINE void p256_triple_bmi2(uint64_t *r, const uint64_t *a) {
    uint64_t w[4] = {a[0], a[1], a[2], a[3]};
    p256_add_w(w, a);
    p256_add_w(w, a);
    p256_store(r, w);
}

#endif
