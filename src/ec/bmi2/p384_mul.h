/* P-384 Montgomery product and square with the reduction by p's shape (inline assembly;
 * built only in this folder, with -mbmi2 -madx). p = 2^384 - c, c = 2^128 + 2^96 - 2^32 + 1,
 * so -p^-1 = 2^32 + 1 mod 2^64: a step's multiplier is m = w0 + (w0 << 32) and
 * m p = m 2^384 - m c, where m c is three limbs above w0 formed by shifts and additions (no
 * mulx: the generated kernels spend 36 mulx on the reduction, here it is none), subtracted
 * from the window while m enters at its top. A step's chain to the next multiplier is five
 * single-cycle instructions. The product interleaves its rows with the steps (CIOS); the
 * square is the tier's plain square (src/x64, its triangle computed once) followed by the
 * six steps on its low half. Results below p, bit-identical to tabai_mont_mul_n6_bmi2 and
 * tabai_mont_sqr_n6_bmi2. Chosen by measurement (src/ec/README.md): about an eighth less
 * time per product and square than those kernels on Zen 3. The additions are here too.
 * Constant time: straight-line code, no secret-dependent branch or address. */
#ifndef TABAI_EC_P384_MUL_BMI2_H
#define TABAI_EC_P384_MUL_BMI2_H

#include <stdint.h>

#include "../../internal.h"
#include "../../x64/x64.h"

static const uint64_t P384_P[6] = {0x00000000ffffffffu, 0xffffffff00000000u, 0xfffffffffffffffeu,
                                   0xffffffffffffffffu, 0xffffffffffffffffu, 0xffffffffffffffffu};

/* m c for the step's multiplier m = w0 (2^32 + 1) mod 2^64, without a product: with
 * s = w0 2^32 mod 2^64 (= m 2^32 mod 2^64), v = m >> 32 and b0 the carry of w0 + s,
 * m c = w0 + 2^64 (s - v - b0) + 2^128 (m + v), the middle term's borrow taken from the last.
 * Leaves m in W0, (s - v - b0) in rdx, the two limbs above it in %[l2] and %[v] (0 or 1);
 * v by a rotation and a 32-bit move, which leave the flags alone. */
#define P384_MC(W0)                                                                                \
    "movq %[" W0 "], %%rdx\n\t"                                                                    \
    "shlq $32, %%rdx\n\t"                                                                          \
    "addq %%rdx, %[" W0 "]\n\t"                                                                    \
    "rorxq $32, %[" W0 "], %[v]\n\t"                                                               \
    "movl %k[v], %k[v]\n\t"                                                                        \
    "sbbq %[v], %%rdx\n\t"                                                                         \
    "movq %[" W0 "], %[l2]\n\t"                                                                    \
    "sbbq $0, %[l2]\n\t"                                                                           \
    "addq %[v], %[l2]\n\t"                                                                         \
    "sbbq %[v], %[v]\n\t"                                                                          \
    "negq %[v]\n\t"

/* one reduction step on the window (W0..W5) < 2^384: (W1, W2, W3, W4, W5, W0) =
 * (W + m p) / 2^64 = (W - m c) / 2^64 + m 2^320, still below 2^384 (below 2^320 + p). */
#define P384_RED(W0, W1, W2, W3, W4, W5)                                                           \
    P384_MC(W0)                                                                                    \
    "subq %%rdx, %[" W1 "]\n\t"                                                                    \
    "sbbq %[l2], %[" W2 "]\n\t"                                                                    \
    "sbbq %[v], %[" W3 "]\n\t"                                                                     \
    "sbbq $0, %[" W4 "]\n\t"                                                                       \
    "sbbq $0, %[" W5 "]\n\t"                                                                       \
    "sbbq $0, %[" W0 "]\n\t"

/* (W0..W5) += p & M for a mask M (0 or all ones): p's limbs formed from M (M mod 2^32,
 * M << 32, M & -2, M, M, M) in T0 T1 T2 */
#define P384_ADD_P_MASK(W0, W1, W2, W3, W4, W5, M, T0, T1, T2)                                     \
    "movl %k[" M "], %k[" T0 "]\n\t"                                                               \
    "movq %[" M "], %[" T1 "]\n\t"                                                                 \
    "shlq $32, %[" T1 "]\n\t"                                                                      \
    "movq %[" M "], %[" T2 "]\n\t"                                                                 \
    "andq $-2, %[" T2 "]\n\t"                                                                      \
    "addq %[" T0 "], %[" W0 "]\n\t"                                                                \
    "adcq %[" T1 "], %[" W1 "]\n\t"                                                                \
    "adcq %[" T2 "], %[" W2 "]\n\t"                                                                \
    "adcq %[" M "], %[" W3 "]\n\t"                                                                 \
    "adcq %[" M "], %[" W4 "]\n\t"                                                                 \
    "adcq %[" M "], %[" W5 "]\n\t"

/* (W0..W5) with top limb X, the value below 2p, reduced below p: p subtracted, X becoming the
 * borrow's mask, and p added back under it. Scratch T0 T1 T2 (the product's final step,
 * short of registers). */
#define P384_SUB_P(W0, W1, W2, W3, W4, W5, X, T0, T1, T2)                                          \
    "subq %[p0], %[" W0 "]\n\t"                                                                    \
    "sbbq %[p1], %[" W1 "]\n\t"                                                                    \
    "sbbq $-2, %[" W2 "]\n\t"                                                                      \
    "sbbq $-1, %[" W3 "]\n\t"                                                                      \
    "sbbq $-1, %[" W4 "]\n\t"                                                                      \
    "sbbq $-1, %[" W5 "]\n\t"                                                                      \
    "sbbq $0, %[" X "]\n\t" P384_ADD_P_MASK(W0, W1, W2, W3, W4, W5, X, T0, T1, T2)

/* The same with the copies (S0..S5) = W - p and the value kept on the borrow (cmov): a
 * shorter chain, six scratch registers. */
#define P384_SUB_P_CMOV(W0, W1, W2, W3, W4, W5, X, S0, S1, S2, S3, S4, S5)                         \
    "movq %[" W0 "], %[" S0 "]\n\t"                                                                \
    "movq %[" W1 "], %[" S1 "]\n\t"                                                                \
    "movq %[" W2 "], %[" S2 "]\n\t"                                                                \
    "movq %[" W3 "], %[" S3 "]\n\t"                                                                \
    "movq %[" W4 "], %[" S4 "]\n\t"                                                                \
    "movq %[" W5 "], %[" S5 "]\n\t"                                                                \
    "subq %[p0], %[" S0 "]\n\t"                                                                    \
    "sbbq %[p1], %[" S1 "]\n\t"                                                                    \
    "sbbq $-2, %[" S2 "]\n\t"                                                                      \
    "sbbq $-1, %[" S3 "]\n\t"                                                                      \
    "sbbq $-1, %[" S4 "]\n\t"                                                                      \
    "sbbq $-1, %[" S5 "]\n\t"                                                                      \
    "sbbq $0, %[" X "]\n\t"                                                                        \
    "cmovncq %[" S0 "], %[" W0 "]\n\t"                                                             \
    "cmovncq %[" S1 "], %[" W1 "]\n\t"                                                             \
    "cmovncq %[" S2 "], %[" W2 "]\n\t"                                                             \
    "cmovncq %[" S3 "], %[" W3 "]\n\t"                                                             \
    "cmovncq %[" S4 "], %[" W4 "]\n\t"                                                             \
    "cmovncq %[" S5 "], %[" W5 "]\n\t"

/* (w0..w5) = (w0..w5) OP (h0..h5), OP0 for the low limb and OP (with the carry) above */
#define P384_CHAIN(OP0, OP)                                                                        \
    OP0 " %[h0], %[w0]\n\t" OP " %[h1], %[w1]\n\t" OP " %[h2], %[w2]\n\t" OP                       \
        " %[h3], %[w3]\n\t" OP " %[h4], %[w4]\n\t" OP " %[h5], %[w5]\n\t"

/* r = a + b mod p for a + b < 2p (6 limbs; a, b < p, or REDC's two halves): the sum into
 * six registers and a carry, p subtracted from copies (b's registers reused), the sum kept on
 * the borrow (P384_SUB_P_CMOV). r may alias a and b. Thirteen registers. */
TABAI_INLINE void p384_add_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t w0 = a[0], w1 = a[1], w2 = a[2], w3 = a[3], w4 = a[4], w5 = a[5];
    uint64_t h0 = b[0], h1 = b[1], h2 = b[2], h3 = b[3], h4 = b[4], h5 = b[5], c;
    __asm__("xorl %k[c], %k[c]\n\t" P384_CHAIN("addq", "adcq") "adcq $0, %[c]\n\t" P384_SUB_P_CMOV(
                "w0", "w1", "w2", "w3", "w4", "w5", "c", "h0", "h1", "h2", "h3", "h4", "h5")
            : [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3), [w4] "+r"(w4),
              [w5] "+r"(w5), [h0] "+r"(h0), [h1] "+r"(h1), [h2] "+r"(h2), [h3] "+r"(h3),
              [h4] "+r"(h4), [h5] "+r"(h5), [c] "=&r"(c)
            : [p0] "m"(P384_P[0]), [p1] "m"(P384_P[1])
            : "cc");
    r[0] = w0, r[1] = w1, r[2] = w2, r[3] = w3, r[4] = w4, r[5] = w5;
}

/* r = a - b mod p for a, b < p (6 limbs): the difference, then p added under the borrow's
 * mask (P384_ADD_P_MASK). r may alias a and b. */
TABAI_INLINE void p384_sub_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t w0 = a[0], w1 = a[1], w2 = a[2], w3 = a[3], w4 = a[4], w5 = a[5];
    uint64_t h0 = b[0], h1 = b[1], h2 = b[2], h3 = b[3], h4 = b[4], h5 = b[5], m;
    __asm__(P384_CHAIN("subq", "sbbq") "sbbq %[m], %[m]\n\t" P384_ADD_P_MASK(
                "w0", "w1", "w2", "w3", "w4", "w5", "m", "h0", "h1", "h2")
            : [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3), [w4] "+r"(w4),
              [w5] "+r"(w5), [h0] "+r"(h0), [h1] "+r"(h1), [h2] "+r"(h2), [m] "=&r"(m)
            : [h3] "r"(h3), [h4] "r"(h4), [h5] "r"(h5)
            : "cc");
    r[0] = w0, r[1] = w1, r[2] = w2, r[3] = w3, r[4] = w4, r[5] = w5;
}

/* r = t R^-1 mod p (R = 2^384) for a 12-limb t < p R: the low half reduced in place by six
 * steps, then the high half added by p384_add_bmi2 (the sum (t + M p) / R is below 2p).
 * r may alias t's low half. */
TABAI_INLINE void p384_redc_bmi2(uint64_t *r, const uint64_t *t) {
    uint64_t w0 = t[0], w1 = t[1], w2 = t[2], w3 = t[3], w4 = t[4], w5 = t[5], v, l2;
    /* clang-format off */
    __asm__(P384_RED("w0", "w1", "w2", "w3", "w4", "w5")
            P384_RED("w1", "w2", "w3", "w4", "w5", "w0")
            P384_RED("w2", "w3", "w4", "w5", "w0", "w1")
            P384_RED("w3", "w4", "w5", "w0", "w1", "w2")
            P384_RED("w4", "w5", "w0", "w1", "w2", "w3")
            P384_RED("w5", "w0", "w1", "w2", "w3", "w4")
            : [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3), [w4] "+r"(w4),
              [w5] "+r"(w5), [v] "=&r"(v), [l2] "=&r"(l2)
            :
            : "rdx", "cc");
    /* clang-format on */
    /* (w0..w5) + t[6..11] is below 2p */
    uint64_t w[6] = {w0, w1, w2, w3, w4, w5};
    p384_add_bmi2(r, w, t + 6);
}

/* Row i >= 1: (A0..A5, T, X) += a[6] * rdx, low halves on CF (adcx), high halves on OF
 * (adox); X (zero on entry, flags clear) takes the carries out of T (the window stays below
 * 2p + p 2^64 < 2^449). Scratch %[v] %[l2]. */
#define P384_ROW(A0, A1, A2, A3, A4, A5, T, X)                                                     \
    "mulxq 0(%[a]), %[v], %[l2]\n\t"                                                               \
    "adcxq %[v], %[" A0 "]\n\t"                                                                    \
    "adoxq %[l2], %[" A1 "]\n\t"                                                                   \
    "mulxq 8(%[a]), %[v], %[l2]\n\t"                                                               \
    "adcxq %[v], %[" A1 "]\n\t"                                                                    \
    "adoxq %[l2], %[" A2 "]\n\t"                                                                   \
    "mulxq 16(%[a]), %[v], %[l2]\n\t"                                                              \
    "adcxq %[v], %[" A2 "]\n\t"                                                                    \
    "adoxq %[l2], %[" A3 "]\n\t"                                                                   \
    "mulxq 24(%[a]), %[v], %[l2]\n\t"                                                              \
    "adcxq %[v], %[" A3 "]\n\t"                                                                    \
    "adoxq %[l2], %[" A4 "]\n\t"                                                                   \
    "mulxq 32(%[a]), %[v], %[l2]\n\t"                                                              \
    "adcxq %[v], %[" A4 "]\n\t"                                                                    \
    "adoxq %[l2], %[" A5 "]\n\t"                                                                   \
    "mulxq 40(%[a]), %[v], %[l2]\n\t"                                                              \
    "adcxq %[v], %[" A5 "]\n\t"                                                                    \
    "adoxq %[l2], %[" T "]\n\t"                                                                    \
    "adcxq %[" X "], %[" T "]\n\t"                                                                 \
    "adoxq %[" X "], %[" X "]\n\t"                                                                 \
    "adcq $0, %[" X "]\n\t"

/* one reduction step of the product: (A0..A5, T, X) += m p = m 2^384 - m c, whose low limb
 * cancels A0; the window moves up one limb to (A1..A5, T, X), below 2p + 1, and A0 is
 * returned zero with CF and OF clear (the next row's top). Scratch %[v] %[l2]. */
#define P384_RED_ROW(A0, A1, A2, A3, A4, A5, T, X)                                                 \
    P384_MC(A0)                                                                                    \
    "subq %%rdx, %[" A1 "]\n\t"                                                                    \
    "sbbq %[l2], %[" A2 "]\n\t"                                                                    \
    "sbbq %[v], %[" A3 "]\n\t"                                                                     \
    "sbbq $0, %[" A4 "]\n\t"                                                                       \
    "sbbq $0, %[" A5 "]\n\t"                                                                       \
    "sbbq $0, %[" A0 "]\n\t"                                                                       \
    "addq %[" A0 "], %[" T "]\n\t"                                                                 \
    "adcq $0, %[" X "]\n\t"                                                                        \
    "xorl %k[" A0 "], %k[" A0 "]\n\t"

/* rdx = b[I] through the pointer kept in memory (no register held for b) */
#define P384_LOAD_B(I)                                                                             \
    "movq %[b], %%rdx\n\t"                                                                         \
    "movq " I "(%%rdx), %%rdx\n\t"

/* row I (its byte offset) of the product and its reduction step */
#define P384_ROW_STEP(I, A0, A1, A2, A3, A4, A5, T, X)                                             \
    P384_LOAD_B(I) P384_ROW(A0, A1, A2, A3, A4, A5, T, X) P384_RED_ROW(A0, A1, A2, A3, A4, A5, T, X)

/* r = a b R^-1 mod p for a, b < p (6 limbs): word-serial rows interleaved with the reduction
 * steps (CIOS, Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
 * algorithms", 1996), so that each step's short chain overlaps the next row's products;
 * after six steps the value is below 2p and p is subtracted under the borrow. r may alias a
 * and b. Eleven registers besides rdx, so it builds with a frame pointer and sanitizers too. */
TABAI_INLINE void p384_mont_mul_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t w0, w1, w2, w3, w4, w5, w6, w7, v, l2, d;
    /* clang-format off */
    __asm__("movq %[b], %%rdx\n\t"
            "movq 0(%%rdx), %%rdx\n\t"
            "xorl %k[w7], %k[w7]\n\t"
            "mulxq 0(%[a]), %[w0], %[w1]\n\t"
            "mulxq 8(%[a]), %[v], %[w2]\n\t"
            "adcxq %[v], %[w1]\n\t"
            "mulxq 16(%[a]), %[v], %[w3]\n\t"
            "adcxq %[v], %[w2]\n\t"
            "mulxq 24(%[a]), %[v], %[w4]\n\t"
            "adcxq %[v], %[w3]\n\t"
            "mulxq 32(%[a]), %[v], %[w5]\n\t"
            "adcxq %[v], %[w4]\n\t"
            "mulxq 40(%[a]), %[v], %[w6]\n\t"
            "adcxq %[v], %[w5]\n\t"
            "adcxq %[w7], %[w6]\n\t"
            P384_RED_ROW("w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7")
            P384_ROW_STEP("8", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w0")
            P384_ROW_STEP("16", "w2", "w3", "w4", "w5", "w6", "w7", "w0", "w1")
            P384_ROW_STEP("24", "w3", "w4", "w5", "w6", "w7", "w0", "w1", "w2")
            P384_ROW_STEP("32", "w4", "w5", "w6", "w7", "w0", "w1", "w2", "w3")
            P384_ROW_STEP("40", "w5", "w6", "w7", "w0", "w1", "w2", "w3", "w4")
            /* value (w6, w7, w0, w1, w2, w3; w4 <= 1) < 2p, reduced below p */
            P384_SUB_P("w6", "w7", "w0", "w1", "w2", "w3", "w4", "v", "l2", "d")
            : [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [w4] "=&r"(w4),
              [w5] "=&r"(w5), [w6] "=&r"(w6), [w7] "=&r"(w7), [v] "=&r"(v), [l2] "=&r"(l2),
              [d] "=&d"(d)
            : [a] "r"(a), [b] "m"(b), [p0] "m"(P384_P[0]), [p1] "m"(P384_P[1])
            : "cc", "memory");
    /* clang-format on */
    r[0] = w6, r[1] = w7, r[2] = w0, r[3] = w1, r[4] = w2, r[5] = w3;
}

/* r = a^2 R^-1 mod p for a < p (6 limbs); r may alias a. */
TABAI_INLINE void p384_mont_sqr_bmi2(uint64_t *r, const uint64_t *a) {
    uint64_t t[12];
    tabai_sqr_n6_bmi2(t, a, 6);
    p384_redc_bmi2(r, t);
}

#endif
