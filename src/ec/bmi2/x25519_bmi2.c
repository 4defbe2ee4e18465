/* X25519 (RFC 7748) at tier bmi2: GF(2^255 - 19) in four 64-bit limbs with mulx/adcx/adox.
 *
 * Representation: an element is four uint64_t limbs, least significant first, holding any
 * value in [0, 2^256) congruent to it ("lazily reduced": 2^256 = 38 and 2^255 = 19 mod p
 * are folded back, p is never subtracted until the end). Every operation takes inputs in
 * [0, 2^256) and returns an output in [0, 2^256); products and squares are even below
 * 2^255 + 19 * 79. Only fe4_to_bytes reduces fully into [0, p).
 *
 * Product: the 4 x 4 schoolbook rows of mulx with the low halves on the adox (OF) chain and
 * the high halves on the adcx (CF) chain; square: the six off-diagonal products, doubled on
 * one chain while the diagonal is added on the other. Reduction of a 512-bit h 2^256 + l:
 * l + 38 h (four mulx, two chains) leaves a fifth word w <= 39, then 2 w + bit 255 is added
 * as a multiple of 19. A single product is one long chain of dependent additions, which the
 * out-of-order window cannot overlap with the next independent product; FE4_MUL2 therefore
 * interleaves the rows of two independent products of the ladder step (x-only ladders have
 * two such pairs per step: D A with C B, x1 (DA - CB)^2 with E (AA + a24 E)).
 *
 * The ladder is RFC 7748 section 5 (x-only Montgomery ladder; its masked swap of the state is
 * replaced by a masked select of the doubling's input, see the ladder's comment),
 * the inversion Bernstein-Yang safegcd (tabai_fe25519_invert_safegcd_n4, src/ec/x25519.c),
 * measured faster here than z^(p-2) by the usual chain of 254 squarings and 11 products
 * (one serial chain of products, which this file held before). Technique: the
 * 4 x 64-bit representation with reduction by 38 as in Oliveira, Lopez, Hisil, Dominguez-
 * Perez, Rodriguez-Henriquez, "How to (pre-)compute a ladder" (SAC 2017); mulx/adcx/adox as
 * in Intel's "New instructions supporting large integer arithmetic on Intel architecture
 * processors" (2012).
 *
 * Constant time: straight-line code, no secret-dependent branch or address; mulx, adcx,
 * adox, imul have data-independent latency on the CPUs that have them. Inline assembly,
 * x86-64 only; built with -mbmi2 -madx (src/CMakeLists.txt) and called only at tier bmi2 and
 * above (src/ec/x25519.c). */
#include <stddef.h>
#include <string.h>

#include "../../internal.h"
#include "../x25519.h"

/* Operand lists: the four limbs of an element as separate memory operands (no pointer
 * register needed for elements on the stack; the compiler sees exactly what is read and
 * written). Limb j of element x is %[x<j>]. */
#define FE4_M(n, x) [n##0] "m"((x)[0]), [n##1] "m"((x)[1]), [n##2] "m"((x)[2]), [n##3] "m"((x)[3])
#define FE4_W(x) [w0] "=m"((x)[0]), [w1] "=m"((x)[1]), [w2] "=m"((x)[2]), [w3] "=m"((x)[3])
#define FE4_REGS                                                                               \
    [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),            \
        [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [t0] "=&r"(t0), [t1] "=&r"(t1),        \
        [z] "=&r"(z)

/* The reduction of the 512-bit r7..r0 to four limbs, stored to %[w0..3]: l + 38 h (two
 * chains) leaves a fifth word w <= 39; then bit 255 and w (2^255 = 19 mod p) are folded as
 * + 19 (2 w + bit 255), which cannot carry out of bit 255 (the value is then below
 * 2^255 + 19 * 79). Uses rdx, t0, t1; z = 0 on entry. */
#define FE4_REDUCE                                                                             \
    "xorl %k[z], %k[z]\n\t"                                                                    \
    "movl $38, %%edx\n\t"                                                                      \
    "mulx %[r4], %[t0], %[t1]\n\t"                                                             \
    "adcx %[t0], %[r0]\n\t"                                                                    \
    "adox %[t1], %[r1]\n\t"                                                                    \
    "mulx %[r5], %[t0], %[t1]\n\t"                                                             \
    "adcx %[t0], %[r1]\n\t"                                                                    \
    "adox %[t1], %[r2]\n\t"                                                                    \
    "mulx %[r6], %[t0], %[t1]\n\t"                                                             \
    "adcx %[t0], %[r2]\n\t"                                                                    \
    "adox %[t1], %[r3]\n\t"                                                                    \
    "mulx %[r7], %[t0], %[r4]\n\t"                                                             \
    "adcx %[t0], %[r3]\n\t"                                                                    \
    "adox %[z], %[r4]\n\t"                                                                     \
    "adcx %[z], %[r4]\n\t"                                                                     \
    "btrq $63, %[r3]\n\t"                                                                      \
    "adcq %[r4], %[r4]\n\t"                                                                    \
    "imulq $19, %[r4], %[r4]\n\t"                                                              \
    "addq %[r4], %[r0]\n\t"                                                                    \
    "adcq %[z], %[r1]\n\t"                                                                     \
    "adcq %[z], %[r2]\n\t"                                                                     \
    "adcq %[z], %[r3]\n\t"                                                                     \
    "movq %[r0], %[w0]\n\t"                                                                    \
    "movq %[r1], %[w1]\n\t"                                                                    \
    "movq %[r2], %[w2]\n\t"                                                                    \
    "movq %[r3], %[w3]\n\t"

/* clang-format off */
/* Row i >= 1 of the product: r[i..i+4] += a_i * b, low halves on OF, high halves on CF.
 * Not fe4_bmi2.h's FE4_ROW (a row added into a live Montgomery accumulator, carry into a
 * sixth limb): here the top limb r[i+4] is written fresh and a_i is loaded into rdx. */
#define FE4_PROD_ROW(ai, ri, ri1, ri2, ri3, ri4)                                               \
    "xorl %k[z], %k[z]\n\t"                                                                    \
    "movq %[" ai "], %%rdx\n\t"                                                                \
    "mulx %[b0], %[t0], %[t1]\n\t"                                                             \
    "adox %[t0], %[" ri "]\n\t"                                                                \
    "adcx %[t1], %[" ri1 "]\n\t"                                                               \
    "mulx %[b1], %[t0], %[t1]\n\t"                                                             \
    "adox %[t0], %[" ri1 "]\n\t"                                                               \
    "adcx %[t1], %[" ri2 "]\n\t"                                                               \
    "mulx %[b2], %[t0], %[t1]\n\t"                                                             \
    "adox %[t0], %[" ri2 "]\n\t"                                                               \
    "adcx %[t1], %[" ri3 "]\n\t"                                                               \
    "mulx %[b3], %[t0], %[" ri4 "]\n\t"                                                        \
    "adox %[t0], %[" ri3 "]\n\t"                                                               \
    "adcx %[z], %[" ri4 "]\n\t"                                                                \
    "adox %[z], %[" ri4 "]\n\t"

/* r = a * b mod p, lazily reduced (all in [0, 2^256)). r may alias a and/or b (every load
 * comes before the first store). */
TABAI_INLINE void fe4_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t r0, r1, r2, r3, r4, r5, r6, r7, t0, t1, z;
    __asm__("movq %[a0], %%rdx\n\t"
            "mulx %[b0], %[r0], %[r1]\n\t"
            "mulx %[b1], %[t0], %[r2]\n\t"
            "addq %[t0], %[r1]\n\t"
            "mulx %[b2], %[t0], %[r3]\n\t"
            "adcq %[t0], %[r2]\n\t"
            "mulx %[b3], %[t0], %[r4]\n\t"
            "adcq %[t0], %[r3]\n\t"
            "adcq $0, %[r4]\n\t"
            FE4_PROD_ROW("a1", "r1", "r2", "r3", "r4", "r5")
            FE4_PROD_ROW("a2", "r2", "r3", "r4", "r5", "r6")
            FE4_PROD_ROW("a3", "r3", "r4", "r5", "r6", "r7")
            FE4_REDUCE
            : FE4_REGS, FE4_W(r)
            : FE4_M(a, a), FE4_M(b, b)
            : "rdx", "cc");
}
/* clang-format on */

/* The ladder's state: every element at a constant offset from one base register, so that
 * the two-product block below addresses all six of its elements with one register. */
typedef struct ladder_state {
    uint64_t x1[4], x2[4], z2[4], x3[4], z3[4], a[4], aa[4], b[4], bb[4], e[4], c[4], d[4],
        da[4], cb[4];
} ladder_state;

static const uint64_t fe4_zero = 0;

/* limb J (a byte offset as a string: "0", "8", "16", "24") of the element at offset
 * operand X from the base %[st] */
#define FE4_L(X, J) J "+%c[" X "](%[st])"

/* Two independent products in one block, their rows interleaved so that the out-of-order
 * window sees two carry chains at once (a single product is one long chain of dependent
 * additions). Each product keeps only five accumulators in registers: the limb a row
 * completes is stored at once (r_j lives in accumulator j mod 5), and the reduction reads
 * the four low limbs back. A, B: the factors' offset operands; W: the output's; X: the
 * accumulators' name prefix. */
#define FE4_M2_ROW0(A, B, X, W)                                                                \
    "movq " FE4_L(A, "0") ", %%rdx\n\t"                                                        \
    "mulx " FE4_L(B, "0") ", %[" X "0], %[" X "1]\n\t"                                         \
    "mulx " FE4_L(B, "8") ", %[t0], %[" X "2]\n\t"                                             \
    "addq %[t0], %[" X "1]\n\t"                                                                \
    "mulx " FE4_L(B, "16") ", %[t0], %[" X "3]\n\t"                                            \
    "adcq %[t0], %[" X "2]\n\t"                                                                \
    "mulx " FE4_L(B, "24") ", %[t0], %[" X "4]\n\t"                                            \
    "adcq %[t0], %[" X "3]\n\t"                                                                \
    "adcq $0, %[" X "4]\n\t"                                                                   \
    "movq %[" X "0], " FE4_L(W, "0") "\n\t"

/* row i >= 1 (I: its byte offset 8 i): r[i..i+4] += a_i * b with r_i .. r_i+4 in
 * accumulators R0 .. R4 (indices mod 5), then r_i stored */
#define FE4_M2_ROW(A, I, B, X, R0, R1, R2, R3, R4, W)                                          \
    "xorl %k[t0], %k[t0]\n\t"                                                                  \
    "movq " FE4_L(A, I) ", %%rdx\n\t"                                                          \
    "mulx " FE4_L(B, "0") ", %[t0], %[t1]\n\t"                                                 \
    "adox %[t0], %[" X R0 "]\n\t"                                                              \
    "adcx %[t1], %[" X R1 "]\n\t"                                                              \
    "mulx " FE4_L(B, "8") ", %[t0], %[t1]\n\t"                                                 \
    "adox %[t0], %[" X R1 "]\n\t"                                                              \
    "adcx %[t1], %[" X R2 "]\n\t"                                                              \
    "mulx " FE4_L(B, "16") ", %[t0], %[t1]\n\t"                                                \
    "adox %[t0], %[" X R2 "]\n\t"                                                              \
    "adcx %[t1], %[" X R3 "]\n\t"                                                              \
    "mulx " FE4_L(B, "24") ", %[t0], %[" X R4 "]\n\t"                                          \
    "adox %[t0], %[" X R3 "]\n\t"                                                              \
    "adcx %[zero], %[" X R4 "]\n\t"                                                            \
    "adox %[zero], %[" X R4 "]\n\t"                                                            \
    "movq %[" X R0 "], " FE4_L(W, I) "\n\t"

/* FE4_REDUCE with the low limbs in memory (read back from W) and the high ones in X4, X0,
 * X1, X2 (X3 is free) */
#define FE4_M2_REDUCE(X, W)                                                                    \
    "xorl %k[t0], %k[t0]\n\t"                                                                  \
    "movl $38, %%edx\n\t"                                                                      \
    "mulx %[" X "4], %[t0], %[t1]\n\t"                                                         \
    "movq " FE4_L(W, "0") ", %[" X "4]\n\t"                                                    \
    "adcx %[t0], %[" X "4]\n\t"                                                                \
    "movq " FE4_L(W, "8") ", %[" X "3]\n\t"                                                    \
    "adox %[t1], %[" X "3]\n\t"                                                                \
    "mulx %[" X "0], %[t0], %[t1]\n\t"                                                         \
    "adcx %[t0], %[" X "3]\n\t"                                                                \
    "movq " FE4_L(W, "16") ", %[" X "0]\n\t"                                                   \
    "adox %[t1], %[" X "0]\n\t"                                                                \
    "mulx %[" X "1], %[t0], %[t1]\n\t"                                                         \
    "adcx %[t0], %[" X "0]\n\t"                                                                \
    "movq " FE4_L(W, "24") ", %[" X "1]\n\t"                                                   \
    "adox %[t1], %[" X "1]\n\t"                                                                \
    "mulx %[" X "2], %[t0], %[" X "2]\n\t"                                                     \
    "adcx %[t0], %[" X "1]\n\t"                                                                \
    "adox %[zero], %[" X "2]\n\t"                                                              \
    "adcx %[zero], %[" X "2]\n\t"                                                              \
    "btrq $63, %[" X "1]\n\t"                                                                  \
    "adcq %[" X "2], %[" X "2]\n\t"                                                            \
    "imulq $19, %[" X "2], %[" X "2]\n\t"                                                      \
    "addq %[" X "2], %[" X "4]\n\t"                                                            \
    "adcq $0, %[" X "3]\n\t"                                                                   \
    "adcq $0, %[" X "0]\n\t"                                                                   \
    "adcq $0, %[" X "1]\n\t"                                                                   \
    "movq %[" X "4], " FE4_L(W, "0") "\n\t"                                                    \
    "movq %[" X "3], " FE4_L(W, "8") "\n\t"                                                    \
    "movq %[" X "0], " FE4_L(W, "16") "\n\t"                                                   \
    "movq %[" X "1], " FE4_L(W, "24") "\n\t"

/* st->R = st->A * st->B, st->S = st->C * st->D mod p (field names of ladder_state), lazily
 * reduced, as fe4_mul. R and S must differ from A, B, C, D (limbs are stored before the last
 * loads). */
#define FE4_MUL2(st, R, S, A, B, C, D)                                                         \
    do {                                                                                       \
        uint64_t x0, x1, x2, x3, x4, y0, y1, y2, y3, y4, t0, t1;                               \
        __asm__ volatile(FE4_M2_ROW0("a", "b", "x", "w")                                       \
                FE4_M2_ROW0("c", "d", "y", "v")                                                \
                FE4_M2_ROW("a", "8", "b", "x", "1", "2", "3", "4", "0", "w")                   \
                FE4_M2_ROW("c", "8", "d", "y", "1", "2", "3", "4", "0", "v")                   \
                FE4_M2_ROW("a", "16", "b", "x", "2", "3", "4", "0", "1", "w")                  \
                FE4_M2_ROW("c", "16", "d", "y", "2", "3", "4", "0", "1", "v")                  \
                FE4_M2_ROW("a", "24", "b", "x", "3", "4", "0", "1", "2", "w")                  \
                FE4_M2_ROW("c", "24", "d", "y", "3", "4", "0", "1", "2", "v")                  \
                FE4_M2_REDUCE("x", "w")                                                        \
                FE4_M2_REDUCE("y", "v")                                                        \
                : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3),              \
                  [x4] "=&r"(x4), [y0] "=&r"(y0), [y1] "=&r"(y1), [y2] "=&r"(y2),              \
                  [y3] "=&r"(y3), [y4] "=&r"(y4), [t0] "=&r"(t0), [t1] "=&r"(t1)               \
                : [st] "r"(st), [w] "i"(offsetof(ladder_state, R)),                            \
                  [v] "i"(offsetof(ladder_state, S)), [a] "i"(offsetof(ladder_state, A)),      \
                  [b] "i"(offsetof(ladder_state, B)), [c] "i"(offsetof(ladder_state, C)),      \
                  [d] "i"(offsetof(ladder_state, D)), [zero] "m"(fe4_zero)                     \
                : "rdx", "cc", "memory");                                                      \
    } while (0)

/* r = a^2 mod p, lazily reduced (in and out in [0, 2^256)). r may alias a. */
TABAI_INLINE void fe4_sqr(uint64_t r[4], const uint64_t a[4]) {
    uint64_t r0, r1, r2, r3, r4, r5, r6, r7, t0, t1, z;
    __asm__(/* off-diagonal: a0 * (a1, a2, a3) on CF */
            "movq %[a0], %%rdx\n\t"
            "xorl %k[r7], %k[r7]\n\t"
            "mulx %[a1], %[r1], %[r2]\n\t"
            "mulx %[a2], %[t0], %[r3]\n\t"
            "adcx %[t0], %[r2]\n\t"
            "mulx %[a3], %[t0], %[r4]\n\t"
            "adcx %[t0], %[r3]\n\t"
            /* a1 * (a2, a3): low halves on OF, high halves continue the CF chain */
            "movq %[a1], %%rdx\n\t"
            "mulx %[a2], %[t0], %[t1]\n\t"
            "adox %[t0], %[r3]\n\t"
            "adcx %[t1], %[r4]\n\t"
            "mulx %[a3], %[t0], %[r5]\n\t"
            "adox %[t0], %[r4]\n\t"
            /* a2 * a3 */
            "movq %[a2], %%rdx\n\t"
            "mulx %[a3], %[t0], %[r6]\n\t"
            "adcx %[t0], %[r5]\n\t"
            "adox %[r7], %[r5]\n\t"
            "adcx %[r7], %[r6]\n\t"
            "adox %[r7], %[r6]\n\t"
            /* double (CF) and add the diagonal a_i^2 (OF); r7 = 0, flags cleared */
            "xorl %k[r7], %k[r7]\n\t"
            "movq %[a0], %%rdx\n\t"
            "mulx %%rdx, %[r0], %[t1]\n\t"
            "adcx %[r1], %[r1]\n\t"
            "adox %[t1], %[r1]\n\t"
            "movq %[a1], %%rdx\n\t"
            "mulx %%rdx, %[t0], %[t1]\n\t"
            "adcx %[r2], %[r2]\n\t"
            "adox %[t0], %[r2]\n\t"
            "adcx %[r3], %[r3]\n\t"
            "adox %[t1], %[r3]\n\t"
            "movq %[a2], %%rdx\n\t"
            "mulx %%rdx, %[t0], %[t1]\n\t"
            "adcx %[r4], %[r4]\n\t"
            "adox %[t0], %[r4]\n\t"
            "adcx %[r5], %[r5]\n\t"
            "adox %[t1], %[r5]\n\t"
            "movq %[a3], %%rdx\n\t"
            "mulx %%rdx, %[t0], %[t1]\n\t"
            "adcx %[r6], %[r6]\n\t"
            "adox %[t0], %[r6]\n\t"
            "adcx %[r7], %[r7]\n\t"
            "adox %[t1], %[r7]\n\t"
            FE4_REDUCE
            : FE4_REGS, FE4_W(r)
            : FE4_M(a, a)
            : "rdx", "cc");
}

/* s = a + b, d = a - b mod p, lazily reduced: a carry (a + b - 2^256) adds 38, a second carry
 * 38 more; a borrow (a - b + 2^256) takes off 38, a second borrow 38 more (neither can
 * happen a third time). s, d may alias a and/or b. */
TABAI_INLINE void fe4_addsub(uint64_t s[4], uint64_t d[4], const uint64_t a[4],
                             const uint64_t b[4]) {
    uint64_t s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3], d0 = s0, d1 = s1, d2 = s2, d3 = s3;
    uint64_t t, u;
    __asm__("xorl %k[u], %k[u]\n\t"
            "addq %[b0], %[s0]\n\t"
            "adcq %[b1], %[s1]\n\t"
            "adcq %[b2], %[s2]\n\t"
            "adcq %[b3], %[s3]\n\t"
            "movl $38, %k[t]\n\t"
            "cmovncl %k[u], %k[t]\n\t"
            "addq %[t], %[s0]\n\t"
            "adcq %[u], %[s1]\n\t"
            "adcq %[u], %[s2]\n\t"
            "adcq %[u], %[s3]\n\t"
            "movl $38, %k[t]\n\t"
            "cmovncl %k[u], %k[t]\n\t"
            "addq %[t], %[s0]\n\t"
            "subq %[b0], %[d0]\n\t"
            "sbbq %[b1], %[d1]\n\t"
            "sbbq %[b2], %[d2]\n\t"
            "sbbq %[b3], %[d3]\n\t"
            "movl $38, %k[t]\n\t"
            "cmovncl %k[u], %k[t]\n\t"
            "subq %[t], %[d0]\n\t"
            "sbbq %[u], %[d1]\n\t"
            "sbbq %[u], %[d2]\n\t"
            "sbbq %[u], %[d3]\n\t"
            "movl $38, %k[t]\n\t"
            "cmovncl %k[u], %k[t]\n\t"
            "subq %[t], %[d0]\n\t"
            : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [d0] "+&r"(d0),
              [d1] "+&r"(d1), [d2] "+&r"(d2), [d3] "+&r"(d3), [t] "=&r"(t), [u] "=&r"(u)
            : FE4_M(b, b)
            : "cc");
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
    d[0] = d0, d[1] = d1, d[2] = d2, d[3] = d3;
}

/* r = b + 121665 a mod p (RFC 7748's a24 = 121665), lazily reduced. r may alias a, b. */
TABAI_INLINE void fe4_mul_a24_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t r0, r1, r2, r3, r4, t;
    __asm__("movl $121665, %%edx\n\t"
            "mulx %[a0], %[r0], %[r1]\n\t"
            "mulx %[a1], %[t], %[r2]\n\t"
            "addq %[t], %[r1]\n\t"
            "mulx %[a2], %[t], %[r3]\n\t"
            "adcq %[t], %[r2]\n\t"
            "mulx %[a3], %[t], %[r4]\n\t"
            "adcq %[t], %[r3]\n\t"
            "adcq $0, %[r4]\n\t"
            "addq %[b0], %[r0]\n\t"
            "adcq %[b1], %[r1]\n\t"
            "adcq %[b2], %[r2]\n\t"
            "adcq %[b3], %[r3]\n\t"
            "adcq $0, %[r4]\n\t"
            "imulq $38, %[r4], %[r4]\n\t"
            "xorl %k[t], %k[t]\n\t"
            "addq %[r4], %[r0]\n\t"
            "adcq %[t], %[r1]\n\t"
            "adcq %[t], %[r2]\n\t"
            "adcq %[t], %[r3]\n\t"
            "movl $38, %k[r4]\n\t"
            "cmovncl %k[t], %k[r4]\n\t"
            "addq %[r4], %[r0]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [t] "=&r"(t)
            : FE4_M(a, a), FE4_M(b, b)
            : "rdx", "cc");
    r[0] = r0, r[1] = r1, r[2] = r2, r[3] = r3;
}

static inline uint64_t ld64(const uint8_t *b) {
    uint64_t x;
    memcpy(&x, b, 8); /* x86-64: little-endian */
    return x;
}

/* s[32] = a mod p in [0, p), little-endian. a in [0, 2^256). */
static void fe4_to_bytes(uint8_t s[32], const uint64_t a[4]) {
    uint64_t t[4];
    /* fold bit 255 (2^255 = 19): t < 2^255 + 19 < 2p */
    uint64_t c = 19 * (a[3] >> 63);
    tabai_u128 acc = (tabai_u128)a[0] + c;
    t[0] = (uint64_t)acc;
    acc = (tabai_u128)a[1] + (uint64_t)(acc >> 64);
    t[1] = (uint64_t)acc;
    acc = (tabai_u128)a[2] + (uint64_t)(acc >> 64);
    t[2] = (uint64_t)acc;
    t[3] = (a[3] & INT64_MAX) + (uint64_t)(acc >> 64);
    /* t >= p iff t + 19 >= 2^255; then t - p = t + 19 - 2^255 */
    acc = (tabai_u128)t[0] + 19;
    acc = (tabai_u128)t[1] + (uint64_t)(acc >> 64);
    acc = (tabai_u128)t[2] + (uint64_t)(acc >> 64);
    uint64_t q = (t[3] + (uint64_t)(acc >> 64)) >> 63;
    acc = (tabai_u128)t[0] + 19 * q;
    t[0] = (uint64_t)acc;
    acc = (tabai_u128)t[1] + (uint64_t)(acc >> 64);
    t[1] = (uint64_t)acc;
    acc = (tabai_u128)t[2] + (uint64_t)(acc >> 64);
    t[2] = (uint64_t)acc;
    t[3] = (t[3] + (uint64_t)(acc >> 64)) & INT64_MAX;
    memcpy(s, t, 32);
    tabai_wipe(t, sizeof t);
}

/* a = b if m is all ones, a kept if m = 0 (m secret). */
static inline void fe4_csel(uint64_t a[4], const uint64_t b[4], uint64_t m) {
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) a[i] ^= m & (a[i] ^ b[i]);
}

/* The ladder without swapping its state: (x2 : z2) and (x3 : z3) hold the last step's double
 * and sum, and the bit `swap` (RFC 7748's) says which of them is R0. The differential
 * addition is symmetric in R0 and R1 (swapping them exchanges D A and C B, whose sum and
 * squared difference stay), so it runs on the state as it is; only the doubling's input,
 * R0 after the RFC's swap, is chosen: (A, B) or (C, D) by a masked select of eight words,
 * where the swap moved sixteen. The last select picks R0 for the output. */
void tabai_x25519_ladder_n4_bmi2(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]) {
    ladder_state S, *st = &S;
    memset(st, 0, sizeof *st);
    for (int i = 0; i < 4; i++) st->x1[i] = ld64(u + 8 * i);
    st->x1[3] &= INT64_MAX; /* RFC 7748 5: the top bit of u is ignored */
    st->x2[0] = 1;
    memcpy(st->x3, st->x1, sizeof st->x3);
    st->z3[0] = 1;
    uint64_t swap = 0;
    for (int t = 254; t >= 0; t--) {
        uint64_t kt = (uint64_t)(k[t >> 3] >> (t & 7)) & 1;
        uint64_t m = tabai_mask(swap ^ kt);
        swap = kt;
        /* RFC 7748's step, ordered so that neighbours are independent (the out-of-order
         * window then overlaps them), two of the products in one block twice */
        fe4_addsub(st->c, st->d, st->x3, st->z3);
        fe4_addsub(st->a, st->b, st->x2, st->z2);
        FE4_MUL2(st, da, cb, d, a, c, b);
        fe4_csel(st->a, st->c, m); /* the doubling's input: (A, B) or (C, D) */
        fe4_csel(st->b, st->d, m);
        fe4_sqr(st->aa, st->a);
        fe4_sqr(st->bb, st->b);
        fe4_addsub(st->x3, st->z3, st->da, st->cb);
        fe4_sqr(st->d, st->z3);                   /* d is dead */
        fe4_addsub(st->c, st->e, st->aa, st->bb); /* e = aa - bb (c is dead) */
        fe4_mul_a24_add(st->a, st->e, st->aa);    /* a is dead */
        fe4_mul(st->x2, st->aa, st->bb);
        fe4_sqr(st->x3, st->x3);
        FE4_MUL2(st, z3, z2, x1, d, e, a);
    }
    uint64_t m = tabai_mask(swap);
    fe4_csel(st->x2, st->x3, m);
    fe4_csel(st->z2, st->z3, m);
    tabai_x25519_affine_n4_bmi2(out, st->x2, st->z2);
    tabai_wipe(st, sizeof *st);
}

void tabai_x25519_affine_n4_bmi2(uint8_t out[32], const uint64_t x2[4], const uint64_t z2[4]) {
    struct {
        uint64_t x[4], z[4];
        uint8_t zb[32];
    } f;
    memcpy(f.x, x2, sizeof f.x);
    fe4_to_bytes(f.zb, z2);         /* safegcd takes z2 < p */
    memcpy(f.z, f.zb, sizeof f.zb); /* x86-64: little-endian limbs */
    tabai_fe25519_invert_safegcd_n4(f.z, f.z);
    fe4_mul(f.x, f.x, f.z);
    fe4_to_bytes(out, f.x);
    tabai_wipe(&f, sizeof f);
}

/* ---- the field operations for the differential tests (tests/c/test_fe25519.c) ----
 * (through copies on the stack: the operations address stack elements without pointer
 * registers, and with three pointer arguments their register demand would exceed the set) */
void tabai_fe25519_mul_n4_bmi2(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t x[4], y[4];
    memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    fe4_mul(x, x, y);
    memcpy(r, x, sizeof x);
}
void tabai_fe25519_sqr_n4_bmi2(uint64_t r[4], const uint64_t a[4]) {
    uint64_t x[4];
    memcpy(x, a, sizeof x);
    fe4_sqr(x, x);
    memcpy(r, x, sizeof x);
}
void tabai_fe25519_addsub_n4_bmi2(uint64_t s[4], uint64_t d[4], const uint64_t a[4],
                                  const uint64_t b[4]) {
    uint64_t x[4], y[4];
    memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    fe4_addsub(x, y, x, y);
    memcpy(s, x, sizeof x);
    memcpy(d, y, sizeof y);
}
void tabai_fe25519_mul_a24_add_n4_bmi2(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t x[4], y[4];
    memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    fe4_mul_a24_add(x, x, y);
    memcpy(r, x, sizeof x);
}
void tabai_fe25519_to_bytes_n4_bmi2(uint8_t s[32], const uint64_t a[4]) { fe4_to_bytes(s, a); }
