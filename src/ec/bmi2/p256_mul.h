/* P-256 Montgomery product with mulx/adcx/adox (inline assembly; built only in this folder,
 * with -mbmi2 -madx): word-serial rows interleaved with the reduction steps of p256_field.h
 * (-p^-1 = 1 mod 2^64, so the multiplier m is the low limb and m p costs one mulx by p's top
 * limb and two shifts); after four steps the value is below 2p and p is subtracted under
 * the borrow (cmov). Results bit-identical to p256_mont_mul. */
#ifndef TABAI_EC_P256_MUL_BMI2_H
#define TABAI_EC_P256_MUL_BMI2_H

#include "../p256_field.h"
#include "fe4_bmi2.h"

/* one reduction step: m = A0; acc += m p (A0 becomes 0 and is dropped), carry into Z */
#define P256_RED(A0, A1, A2, A3, A4, Z)                                                       \
    "movq %[" A0 "], %%rdx\n\t"                                                               \
    "mulxq %[p3], %[t0], %[t1]\n\t"                                                           \
    "movq %[" A0 "], %[t2]\n\t"                                                               \
    "shlq $32, %[t2]\n\t"                                                                     \
    "shrq $32, %[" A0 "]\n\t"                                                                 \
    "addq %[t2], %[" A1 "]\n\t"                                                               \
    "adcq %[" A0 "], %[" A2 "]\n\t"                                                           \
    "adcq %[t0], %[" A3 "]\n\t"                                                               \
    "adcq %[t1], %[" A4 "]\n\t"                                                               \
    "adcq $0, %[" Z "]\n\t"

/* r = a b R^-1 mod p for a, b < p; r may alias a and b. */
TABAI_INLINE void p256_mont_mul_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t c0, c1, c2, c3, c4, c5, t0, t1, t2;
    __asm__("movq 0(%[b]), %%rdx\n\t"
            FE4_ROW0
            "xorl %k[c5], %k[c5]\n\t"
            P256_RED("c0", "c1", "c2", "c3", "c4", "c5")
            "movq 8(%[b]), %%rdx\n\t"
            FE4_ROW("c1", "c2", "c3", "c4", "c5", "c0")
            P256_RED("c1", "c2", "c3", "c4", "c5", "c0")
            "movq 16(%[b]), %%rdx\n\t"
            FE4_ROW("c2", "c3", "c4", "c5", "c0", "c1")
            P256_RED("c2", "c3", "c4", "c5", "c0", "c1")
            "movq 24(%[b]), %%rdx\n\t"
            FE4_ROW("c3", "c4", "c5", "c0", "c1", "c2")
            P256_RED("c3", "c4", "c5", "c0", "c1", "c2")
            /* value (c4, c5, c0, c1, c2) < 2p: subtract p, keep the value on a borrow */
            "movq %[c4], %[t0]\n\t"
            "movq %[c5], %[t1]\n\t"
            "movq %[c0], %[t2]\n\t"
            "movq %[c1], %%rdx\n\t"
            "subq $-1, %[t0]\n\t"
            "sbbq %[p1], %[t1]\n\t"
            "sbbq $0, %[t2]\n\t"
            "sbbq %[p3], %%rdx\n\t"
            "sbbq $0, %[c2]\n\t"
            "cmovncq %[t0], %[c4]\n\t"
            "cmovncq %[t1], %[c5]\n\t"
            "cmovncq %[t2], %[c0]\n\t"
            "cmovncq %%rdx, %[c1]\n\t"
            : [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2), [c3] "=&r"(c3), [c4] "=&r"(c4),
              [c5] "=&r"(c5), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2)
            : [a] "r"(a), [b] "r"(b), [p1] "m"(P256_P[1]), [p3] "m"(P256_P[3]),
              "m"(*(const uint64_t(*)[4])a), "m"(*(const uint64_t(*)[4])b)
            : "rdx", "cc");
    r[0] = c4, r[1] = c5, r[2] = c0, r[3] = c1;
}

/* one reduction step of the low half in a 4-limb window, with p's top limb in rdx and 32 in
 * %[a0]: m = W0; (W1, W2, W3, W0) = (W + m p) / 2^64 (< 2^256 for W < 2^256); scratch
 * %[a1] %[a2] %[a3] */
#define P256_RED4(W0, W1, W2, W3)                                                                  \
    "shlxq %[a0], %[" W0 "], %[a1]\n\t"                                                            \
    "shrxq %[a0], %[" W0 "], %[a2]\n\t"                                                            \
    "mulxq %[" W0 "], %[a3], %[" W0 "]\n\t"                                                        \
    "addq %[a1], %[" W1 "]\n\t"                                                                    \
    "adcq %[a2], %[" W2 "]\n\t"                                                                    \
    "adcq %[a3], %[" W3 "]\n\t"                                                                    \
    "adcq $0, %[" W0 "]\n\t"

/* r = a^2 R^-1 mod p for a < p: the square (FE4_SQR_WIDE, a's limbs in registers), the low
 * half reduced in place by four steps with p's top limb kept in rdx (no move into rdx per
 * step, shifts by shlx/shrx), the high half added (the sum is below 2p), p subtracted under
 * the borrow (p's limbs as immediates: no memory operand). r may alias a. Twelve registers
 * besides rdx, so it builds with a frame pointer and with clang too. */
TABAI_INLINE void p256_mont_sqr_bmi2(uint64_t *r, const uint64_t *a) {
    uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], t0, t1, t2, t3, t4, t5, t6, t7;
    /* clang-format off */
    __asm__(FE4_SQR_WIDE
            "movl $32, %k[a0]\n\t"
            "movabsq $0xffffffff00000001, %%rdx\n\t"
            P256_RED4("t0", "t1", "t2", "t3")
            P256_RED4("t1", "t2", "t3", "t0")
            P256_RED4("t2", "t3", "t0", "t1")
            P256_RED4("t3", "t0", "t1", "t2")
            FE4_ADD_HIGH("t0", "t1", "t2", "t3", "a1")
            "movl $0xffffffff, %k[a0]\n\t" /* p's limb 1 */
            "movq %[t0], %[t4]\n\t"
            "movq %[t1], %[t5]\n\t"
            "movq %[t2], %[t6]\n\t"
            "movq %[t3], %[t7]\n\t"
            "subq $-1, %[t4]\n\t"
            "sbbq %[a0], %[t5]\n\t"
            "sbbq $0, %[t6]\n\t"
            "sbbq %%rdx, %[t7]\n\t"
            "sbbq $0, %[a1]\n\t"
            "cmovncq %[t4], %[t0]\n\t"
            "cmovncq %[t5], %[t1]\n\t"
            "cmovncq %[t6], %[t2]\n\t"
            "cmovncq %[t7], %[t3]\n\t"
            : FE4_SQR_OUTPUTS
            :
            : "rdx", "cc");
    /* clang-format on */
    r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
}

#endif
