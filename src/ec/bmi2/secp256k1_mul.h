/* secp256k1 Montgomery product with mulx/adcx/adox (inline assembly; built only in this
 * folder, with -mbmi2 -madx): word-serial rows interleaved with secp256k1_field.h's reduction
 * steps (m = t_i (-p^-1), t + m p = t - m c + m 2^256 with c = 2^256 - p < 2^33); after four
 * steps the value is below 2p and t - p = t + c - 2^256 is taken when t + c carries out.
 * Results bit-identical to k256_mont_mul. */
#ifndef TABAI_EC_SECP256K1_MUL_BMI2_H
#define TABAI_EC_SECP256K1_MUL_BMI2_H

#include "../secp256k1_field.h"
#include "fe4_bmi2.h"

/* one reduction step: m = A0 (-p^-1); acc += m p (A0 becomes 0 and is dropped), carry into Z */
#define K256_RED(A0, A1, A2, A3, A4, Z)                                                       \
    "movq %[" A0 "], %%rdx\n\t"                                                               \
    "imulq %[pinv], %%rdx\n\t"                                                                \
    "mulxq %[c], %[t0], %[t1]\n\t"                                                            \
    "subq %[t1], %[" A1 "]\n\t"                                                               \
    "sbbq $0, %[" A2 "]\n\t"                                                                  \
    "sbbq $0, %[" A3 "]\n\t"                                                                  \
    "sbbq $0, %%rdx\n\t"                                                                      \
    "addq %%rdx, %[" A4 "]\n\t"                                                               \
    "adcq $0, %[" Z "]\n\t"

/* r = a b R^-1 mod p for a, b < p; r may alias a and b. */
TABAI_INLINE void k256_mont_mul_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t c0, c1, c2, c3, c4, c5, t0, t1, t2;
    __asm__("movq 0(%[b]), %%rdx\n\t"
            FE4_ROW0
            "xorl %k[c5], %k[c5]\n\t"
            K256_RED("c0", "c1", "c2", "c3", "c4", "c5")
            "movq 8(%[b]), %%rdx\n\t"
            FE4_ROW("c1", "c2", "c3", "c4", "c5", "c0")
            K256_RED("c1", "c2", "c3", "c4", "c5", "c0")
            "movq 16(%[b]), %%rdx\n\t"
            FE4_ROW("c2", "c3", "c4", "c5", "c0", "c1")
            K256_RED("c2", "c3", "c4", "c5", "c0", "c1")
            "movq 24(%[b]), %%rdx\n\t"
            FE4_ROW("c3", "c4", "c5", "c0", "c1", "c2")
            K256_RED("c3", "c4", "c5", "c0", "c1", "c2")
            /* value (c4, c5, c0, c1, c2) < 2p: add c; a carry into c2 means value >= p */
            "movq %[c4], %[t0]\n\t"
            "movq %[c5], %[t1]\n\t"
            "movq %[c0], %[t2]\n\t"
            "movq %[c1], %%rdx\n\t"
            "addq %[c], %[t0]\n\t"
            "adcq $0, %[t1]\n\t"
            "adcq $0, %[t2]\n\t"
            "adcq $0, %%rdx\n\t"
            "adcq $0, %[c2]\n\t"
            "cmovnzq %[t0], %[c4]\n\t"
            "cmovnzq %[t1], %[c5]\n\t"
            "cmovnzq %[t2], %[c0]\n\t"
            "cmovnzq %%rdx, %[c1]\n\t"
            : [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2), [c3] "=&r"(c3), [c4] "=&r"(c4),
              [c5] "=&r"(c5), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2)
            : [a] "r"(a), [b] "r"(b), [pinv] "m"(K256_PINV), [c] "m"(K256_C),
              "m"(*(const uint64_t(*)[4])a), "m"(*(const uint64_t(*)[4])b)
            : "rdx", "cc");
    r[0] = c4, r[1] = c5, r[2] = c0, r[3] = c1;
}

/* No separate squaring here: the square's four reduction steps run back to back, each an
 * imul then a mulx on the critical path, and measured slower than this product with a = b
 * (47.8 against 44.1 TSC ticks), where the steps overlap the rows. */

/* one reduction step of a 4-limb window (W0..W3) < 2^256 in place: m = W0 (-p^-1), and
 * (W + m p) / 2^64 = (W - m c) / 2^64 + m 2^192 (below 2^256), its low limb cancelled
 * exactly, into (W1, W2, W3, W0); scratch %[a0] %[a1] */
#define K256_RED4(W0, W1, W2, W3)                                                                  \
    "movq %[" W0 "], %%rdx\n\t"                                                                    \
    "imulq %[pinv], %%rdx\n\t"                                                                     \
    "mulxq %[c], %[a0], %[a1]\n\t"                                                                 \
    "subq %[a1], %[" W1 "]\n\t"                                                                    \
    "sbbq $0, %[" W2 "]\n\t"                                                                       \
    "sbbq $0, %[" W3 "]\n\t"                                                                       \
    "sbbq $0, %%rdx\n\t"                                                                           \
    "movq %%rdx, %[" W0 "]\n\t"

/* r = a^2 R^-1 mod p for a < p: the square of fe4_bmi2.h (FE4_SQR_WIDE, a's limbs in
 * registers), its low half reduced in place by four K256_RED4 steps, the high half added
 * (the sum is below 2p) and p subtracted when the sum plus c carries out (cmov). r may alias
 * a. Bit-identical to k256_mont_mul_bmi2(r, a, a), with 10 mulx for its 16. */
TABAI_INLINE void k256_mont_sqr_bmi2(uint64_t *r, const uint64_t *a) {
    uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], t0, t1, t2, t3, t4, t5, t6, t7;
    /* clang-format off */
    __asm__(FE4_SQR_WIDE
            K256_RED4("t0", "t1", "t2", "t3")
            K256_RED4("t1", "t2", "t3", "t0")
            K256_RED4("t2", "t3", "t0", "t1")
            K256_RED4("t3", "t0", "t1", "t2")
            FE4_ADD_HIGH("t0", "t1", "t2", "t3", "a1")
            "movq %[t0], %[t4]\n\t"
            "movq %[t1], %[t5]\n\t"
            "movq %[t2], %[t6]\n\t"
            "movq %[t3], %[t7]\n\t"
            "addq %[c], %[t4]\n\t"
            "adcq $0, %[t5]\n\t"
            "adcq $0, %[t6]\n\t"
            "adcq $0, %[t7]\n\t"
            "adcq $0, %[a1]\n\t"
            "cmovnzq %[t4], %[t0]\n\t"
            "cmovnzq %[t5], %[t1]\n\t"
            "cmovnzq %[t6], %[t2]\n\t"
            "cmovnzq %[t7], %[t3]\n\t"
            : FE4_SQR_OUTPUTS
            : [pinv] "m"(K256_PINV), [c] "m"(K256_C)
            : "rdx", "cc");
    /* clang-format on */
    r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
}

#endif
