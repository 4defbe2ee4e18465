/* The 4-limb pieces of this folder's products (inline assembly, -mbmi2 -madx): the rows of
 * secp256k1's product (an operand's limb in rdx, the other operand at %[a], scratch %[t0]
 * %[t1]), the additions, and the square and high-half addition P-256's reduction uses. */
#ifndef TABAI_EC_FE4_BMI2_H
#define TABAI_EC_FE4_BMI2_H

#include "../../internal.h"

/* acc[A0..A4] += a[4] * rdx into a sixth limb Z (zeroed here; xor also clears CF and OF) */
#define FE4_ROW(A0, A1, A2, A3, A4, Z)                                                       \
    "xorl %k[" Z "], %k[" Z "]\n\t"                                                           \
    "mulxq 0(%[a]), %[t0], %[t1]\n\t"                                                         \
    "adcxq %[t0], %[" A0 "]\n\t"                                                              \
    "adoxq %[t1], %[" A1 "]\n\t"                                                              \
    "mulxq 8(%[a]), %[t0], %[t1]\n\t"                                                         \
    "adcxq %[t0], %[" A1 "]\n\t"                                                              \
    "adoxq %[t1], %[" A2 "]\n\t"                                                              \
    "mulxq 16(%[a]), %[t0], %[t1]\n\t"                                                        \
    "adcxq %[t0], %[" A2 "]\n\t"                                                              \
    "adoxq %[t1], %[" A3 "]\n\t"                                                              \
    "mulxq 24(%[a]), %[t0], %[t1]\n\t"                                                        \
    "adcxq %[t0], %[" A3 "]\n\t"                                                              \
    "adoxq %[t1], %[" A4 "]\n\t"                                                              \
    "adcxq %[" Z "], %[" A4 "]\n\t"                                                           \
    "adoxq %[" Z "], %[" Z "]\n\t"                                                            \
    "adcq $0, %[" Z "]\n\t"

/* (c0..c4) = a[4] * rdx */
#define FE4_ROW0                                                                              \
    "mulxq 0(%[a]), %[c0], %[c1]\n\t"                                                          \
    "mulxq 8(%[a]), %[t0], %[c2]\n\t"                                                          \
    "addq %[t0], %[c1]\n\t"                                                                    \
    "mulxq 16(%[a]), %[t0], %[c3]\n\t"                                                         \
    "adcq %[t0], %[c2]\n\t"                                                                    \
    "mulxq 24(%[a]), %[t0], %[c4]\n\t"                                                         \
    "adcq %[t0], %[c3]\n\t"                                                                    \
    "adcq $0, %[c4]\n\t"

/* r = a + b mod p for a, b < p (4 limbs): the sum into five limbs, p subtracted, the sum kept
 * on a borrow (cmov). r may alias a and b. */
TABAI_INLINE void fe4_add_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const uint64_t *p) {
    uint64_t r0, r1, r2, r3, t0, t1, t2, t3, c;
    __asm__("xorl %k[c], %k[c]\n\t"
            "movq 0(%[a]), %[r0]\n\t"
            "addq 0(%[b]), %[r0]\n\t"
            "movq 8(%[a]), %[r1]\n\t"
            "adcq 8(%[b]), %[r1]\n\t"
            "movq 16(%[a]), %[r2]\n\t"
            "adcq 16(%[b]), %[r2]\n\t"
            "movq 24(%[a]), %[r3]\n\t"
            "adcq 24(%[b]), %[r3]\n\t"
            "adcq $0, %[c]\n\t"
            "movq %[r0], %[t0]\n\t"
            "subq 0(%[p]), %[t0]\n\t"
            "movq %[r1], %[t1]\n\t"
            "sbbq 8(%[p]), %[t1]\n\t"
            "movq %[r2], %[t2]\n\t"
            "sbbq 16(%[p]), %[t2]\n\t"
            "movq %[r3], %[t3]\n\t"
            "sbbq 24(%[p]), %[t3]\n\t"
            "sbbq $0, %[c]\n\t"
            "cmovncq %[t0], %[r0]\n\t"
            "cmovncq %[t1], %[r1]\n\t"
            "cmovncq %[t2], %[r2]\n\t"
            "cmovncq %[t3], %[r3]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [t0] "=&r"(t0),
              [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [c] "=&r"(c)
            : [a] "r"(a), [b] "r"(b), [p] "r"(p), "m"(*(const uint64_t(*)[4])a),
              "m"(*(const uint64_t(*)[4])b), "m"(*(const uint64_t(*)[4])p)
            : "cc");
    r[0] = r0, r[1] = r1, r[2] = r2, r[3] = r3;
}

/* r = a - b mod p for a, b < p (4 limbs): the difference, p added under the borrow's mask.
 * r may alias a and b. */
TABAI_INLINE void fe4_sub_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const uint64_t *p) {
    uint64_t r0, r1, r2, r3, t0, t1, t2, t3, m;
    __asm__("movq 0(%[a]), %[r0]\n\t"
            "subq 0(%[b]), %[r0]\n\t"
            "movq 8(%[a]), %[r1]\n\t"
            "sbbq 8(%[b]), %[r1]\n\t"
            "movq 16(%[a]), %[r2]\n\t"
            "sbbq 16(%[b]), %[r2]\n\t"
            "movq 24(%[a]), %[r3]\n\t"
            "sbbq 24(%[b]), %[r3]\n\t"
            "sbbq %[m], %[m]\n\t"
            "movq 0(%[p]), %[t0]\n\t"
            "movq 8(%[p]), %[t1]\n\t"
            "movq 16(%[p]), %[t2]\n\t"
            "movq 24(%[p]), %[t3]\n\t"
            "andq %[m], %[t0]\n\t"
            "andq %[m], %[t1]\n\t"
            "andq %[m], %[t2]\n\t"
            "andq %[m], %[t3]\n\t"
            "addq %[t0], %[r0]\n\t"
            "adcq %[t1], %[r1]\n\t"
            "adcq %[t2], %[r2]\n\t"
            "adcq %[t3], %[r3]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [t0] "=&r"(t0),
              [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [m] "=&r"(m)
            : [a] "r"(a), [b] "r"(b), [p] "r"(p), "m"(*(const uint64_t(*)[4])a),
              "m"(*(const uint64_t(*)[4])b), "m"(*(const uint64_t(*)[4])p)
            : "cc");
    r[0] = r0, r[1] = r1, r[2] = r2, r[3] = r3;
}

/* (t0..t7) = a^2 for a's limbs in registers %[a0]..%[a3]: the triangle a_i a_j (i < j)
 * once, its rows on the CF and OF chains (adcx, adox; t0, t6 and t7 as scratch, t7 zero),
 * then one pass doubling it on the CF chain while the squares a_i^2 enter on the OF chain.
 * adcx/adox rather than add/adc beside mulx: on Zen 4 the plain ALU operations compete with
 * mulx and the ADX ones much less (src/ec/README.md; the square's chain 10.7 -> 9.6 ns).
 * a0..a3 are overwritten (a0 as scratch, a1..a3 each by its square's high half). Twelve
 * registers besides rdx: clang's allocator gave up on thirteen in some callers. */
#define FE4_SQR_WIDE                                                                               \
    "xorl %k[t7], %k[t7]\n\t"                                                                      \
    "movq %[a0], %%rdx\n\t"                                                                        \
    "mulxq %[a1], %[t1], %[t2]\n\t"                                                                \
    "mulxq %[a2], %[t0], %[t3]\n\t"                                                                \
    "adcxq %[t0], %[t2]\n\t"                                                                       \
    "mulxq %[a3], %[t0], %[t4]\n\t"                                                                \
    "adcxq %[t0], %[t3]\n\t"                                                                       \
    "movq %[a1], %%rdx\n\t"                                                                        \
    "mulxq %[a2], %[t0], %[t6]\n\t"                                                                \
    "adoxq %[t0], %[t3]\n\t"                                                                       \
    "adcxq %[t6], %[t4]\n\t"                                                                       \
    "mulxq %[a3], %[t0], %[t5]\n\t"                                                                \
    "adoxq %[t0], %[t4]\n\t"                                                                       \
    "adcxq %[t7], %[t5]\n\t"                                                                       \
    "movq %[a2], %%rdx\n\t"                                                                        \
    "mulxq %[a3], %[t0], %[t6]\n\t"                                                                \
    "adoxq %[t0], %[t5]\n\t"                                                                       \
    "adcxq %[t7], %[t6]\n\t"                                                                       \
    "adoxq %[t7], %[t6]\n\t"                                                                       \
    "xorl %k[t7], %k[t7]\n\t"                                                                      \
    "movq %[a0], %%rdx\n\t"                                                                        \
    "mulxq %%rdx, %[t0], %[a0]\n\t"                                                                \
    "adcxq %[t1], %[t1]\n\t"                                                                       \
    "adoxq %[a0], %[t1]\n\t"                                                                       \
    "movq %[a1], %%rdx\n\t"                                                                        \
    "mulxq %%rdx, %[a0], %[a1]\n\t"                                                                \
    "adcxq %[t2], %[t2]\n\t"                                                                       \
    "adoxq %[a0], %[t2]\n\t"                                                                       \
    "adcxq %[t3], %[t3]\n\t"                                                                       \
    "adoxq %[a1], %[t3]\n\t"                                                                       \
    "movq %[a2], %%rdx\n\t"                                                                        \
    "mulxq %%rdx, %[a0], %[a2]\n\t"                                                                \
    "adcxq %[t4], %[t4]\n\t"                                                                       \
    "adoxq %[a0], %[t4]\n\t"                                                                       \
    "adcxq %[t5], %[t5]\n\t"                                                                       \
    "adoxq %[a2], %[t5]\n\t"                                                                       \
    "movq %[a3], %%rdx\n\t"                                                                        \
    "mulxq %%rdx, %[a0], %[a3]\n\t"                                                                \
    "adcxq %[t6], %[t6]\n\t"                                                                       \
    "adoxq %[a0], %[t6]\n\t"                                                                       \
    "adcxq %[t7], %[t7]\n\t"                                                                       \
    "adoxq %[a3], %[t7]\n\t"

/* (W0..W3) += (t4..t7), the carry into register X (the reduced low half plus the high half) */
#define FE4_ADD_HIGH(W0, W1, W2, W3, X)                                                            \
    "xorl %k[" X "], %k[" X "]\n\t"                                                                \
    "adcxq %[t4], %[" W0 "]\n\t"                                                                   \
    "adcxq %[t5], %[" W1 "]\n\t"                                                                   \
    "adcxq %[t6], %[" W2 "]\n\t"                                                                   \
    "adcxq %[t7], %[" W3 "]\n\t"                                                                   \
    "adcxq %[" X "], %[" X "]\n\t"

#define FE4_SQR_OUTPUTS                                                                            \
    [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),                \
        [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7), [a0] "+r"(a0), [a1] "+r"(a1),              \
        [a2] "+r"(a2), [a3] "+r"(a3)

#endif
