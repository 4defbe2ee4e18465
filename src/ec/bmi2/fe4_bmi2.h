/* The product row shared by the 4-limb Montgomery products of this folder (inline assembly,
 * -mbmi2 -madx): an operand's limb in rdx, the other operand at %[a], scratch %[t0] %[t1]. */
#ifndef TABAI_EC_FE4_BMI2_H
#define TABAI_EC_FE4_BMI2_H

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

#endif
