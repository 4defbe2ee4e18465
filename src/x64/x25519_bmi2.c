/* X25519 (RFC 7748) at tier bmi2: GF(2^255 - 19) in four 64-bit limbs with mulx/adcx/adox.
 *
 * Representation: an element is four uint64_t limbs, least significant first, holding any
 * value in [0, 2^256) congruent to it ("lazily reduced": 2^256 = 38 mod p is folded back,
 * p is never subtracted until the end). Every function below takes inputs in [0, 2^256) and
 * returns an output in [0, 2^256); only fe4_to_bytes reduces fully into [0, p).
 *
 * Product: the 4 x 4 schoolbook rows of mulx with the low halves on the adox (OF) chain and the
 * high halves on the adcx (CF) chain, 512 bits in eight registers; square: the six off-
 * diagonal products, doubled on one chain while the diagonal is added on the other. Reduction
 * of a 512-bit h*2^256 + l: l + 38 h (four mulx, two chains) leaves a fifth word w <= 39;
 * then + 38 w, and a last carry is folded as + 38 (it cannot carry again: after a carry the
 * low word is below 38 * 39).
 *
 * The ladder is RFC 7748 section 5 (x-only Montgomery ladder, constant-time masked swaps),
 * the inversion z^(p-2) the usual chain of 254 squarings and 11 products. Technique: the
 * 4 x 64-bit representation with reduction by 38 is that of Oliveira, Lopez, Hisil, Dominguez-
 * Perez, Rodriguez-Henriquez, "How to (pre-)compute a ladder" (SAC 2017), and Intel's
 * "New instructions supporting large integer arithmetic" (mulx/adcx/adox, 2012).
 *
 * Constant time: straight-line code, no secret-dependent branch or address; mulx, adcx,
 * adox, imul have data-independent latency on the CPUs that have them. */
#include <string.h>

#include "../internal.h"
#include "x25519.h"

/* The body of the reduction: in r0..r7 the 512-bit value, out: [%[r]] = 4 limbs < 2^256.
 * Uses rdx, t0, t1 and operand Z (a dead pointer register, zeroed here). */
#define FE4_REDUCE(Z)                                                                             \
    "xorl %k[" Z "], %k[" Z "]\n\t"                                                                    \
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
    "adox %[" Z "], %[r4]\n\t"                                                                     \
    "adcx %[" Z "], %[r4]\n\t"                                                                     \
    "imulq $38, %[r4], %[r4]\n\t"                                                              \
    "addq %[r4], %[r0]\n\t"                                                                    \
    "adcq %[" Z "], %[r1]\n\t"                                                                     \
    "adcq %[" Z "], %[r2]\n\t"                                                                     \
    "adcq %[" Z "], %[r3]\n\t"                                                                     \
    "sbbq %[t0], %[t0]\n\t"                                                                    \
    "andq $38, %[t0]\n\t"                                                                      \
    "addq %[t0], %[r0]\n\t"                                                                    \
    "movq %[r0], 0(%[r])\n\t"                                                                  \
    "movq %[r1], 8(%[r])\n\t"                                                                  \
    "movq %[r2], 16(%[r])\n\t"                                                                 \
    "movq %[r3], 24(%[r])\n\t"

/* r = a * b mod p, lazily reduced (all in [0, 2^256)). r may alias a and/or b. */
static inline void fe4_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t r0, r1, r2, r3, r4, r5, r6, r7, t0, t1;
    const uint64_t *pa = a, *pb = b;
    __asm__ volatile(
        /* row 0: a0 * b */
        "movq 0(%[a]), %%rdx\n\t"
        "mulx 0(%[b]), %[r0], %[r1]\n\t"
        "mulx 8(%[b]), %[t0], %[r2]\n\t"
        "addq %[t0], %[r1]\n\t"
        "mulx 16(%[b]), %[t0], %[r3]\n\t"
        "adcq %[t0], %[r2]\n\t"
        "mulx 24(%[b]), %[t0], %[r4]\n\t"
        "adcq %[t0], %[r3]\n\t"
        "adcq $0, %[r4]\n\t"
        /* row 1: a1 * b, low halves on OF, high halves on CF */
        "xorl %k[t0], %k[t0]\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulx 0(%[b]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r1]\n\t"
        "adcx %[t1], %[r2]\n\t"
        "mulx 8(%[b]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r2]\n\t"
        "adcx %[t1], %[r3]\n\t"
        "mulx 16(%[b]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r3]\n\t"
        "adcx %[t1], %[r4]\n\t"
        "mulx 24(%[b]), %[t0], %[r5]\n\t"
        "adox %[t0], %[r4]\n\t"
        "movl $0, %k[t0]\n\t"
        "adcx %[t0], %[r5]\n\t"
        "adox %[t0], %[r5]\n\t"
        /* row 2 */
        "xorl %k[t0], %k[t0]\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulx 0(%[b]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r2]\n\t"
        "adcx %[t1], %[r3]\n\t"
        "mulx 8(%[b]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r3]\n\t"
        "adcx %[t1], %[r4]\n\t"
        "mulx 16(%[b]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r4]\n\t"
        "adcx %[t1], %[r5]\n\t"
        "mulx 24(%[b]), %[t0], %[r6]\n\t"
        "adox %[t0], %[r5]\n\t"
        "movl $0, %k[t0]\n\t"
        "adcx %[t0], %[r6]\n\t"
        "adox %[t0], %[r6]\n\t"
        /* row 3 */
        "xorl %k[t0], %k[t0]\n\t"
        "movq 24(%[a]), %%rdx\n\t"
        "mulx 0(%[b]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r3]\n\t"
        "adcx %[t1], %[r4]\n\t"
        "mulx 8(%[b]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r4]\n\t"
        "adcx %[t1], %[r5]\n\t"
        "mulx 16(%[b]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r5]\n\t"
        "adcx %[t1], %[r6]\n\t"
        "mulx 24(%[b]), %[t0], %[r7]\n\t"
        "adox %[t0], %[r6]\n\t"
        "movl $0, %k[t0]\n\t"
        "adcx %[t0], %[r7]\n\t"
        "adox %[t0], %[r7]\n\t"
        /* the pointers are dead: b is the zero register of the reduction */
        FE4_REDUCE("b")
        : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
          [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [t0] "=&r"(t0), [t1] "=&r"(t1),
          [a] "+&r"(pa), [b] "+&r"(pb)
        : [r] "r"(r)
        : "rdx", "cc", "memory");
}

/* r = a^2 mod p, lazily reduced (in and out in [0, 2^256)). r may alias a. */
static inline void fe4_sqr(uint64_t r[4], const uint64_t a[4]) {
    uint64_t r0, r1, r2, r3, r4, r5, r6, r7, t0, t1;
    const uint64_t *pa = a;
    __asm__ volatile(
        /* off-diagonal: a0 * (a1, a2, a3) on CF */
        "movq 0(%[a]), %%rdx\n\t"
        "xorl %k[r7], %k[r7]\n\t"
        "mulx 8(%[a]), %[r1], %[r2]\n\t"
        "mulx 16(%[a]), %[t0], %[r3]\n\t"
        "adcx %[t0], %[r2]\n\t"
        "mulx 24(%[a]), %[t0], %[r4]\n\t"
        "adcx %[t0], %[r3]\n\t"
        /* a1 * (a2, a3): low halves on OF, high halves continue the CF chain */
        "movq 8(%[a]), %%rdx\n\t"
        "mulx 16(%[a]), %[t0], %[t1]\n\t"
        "adox %[t0], %[r3]\n\t"
        "adcx %[t1], %[r4]\n\t"
        "mulx 24(%[a]), %[t0], %[r5]\n\t"
        "adox %[t0], %[r4]\n\t"
        /* a2 * a3 */
        "movq 16(%[a]), %%rdx\n\t"
        "mulx 24(%[a]), %[t0], %[r6]\n\t"
        "adcx %[t0], %[r5]\n\t"
        "adox %[r7], %[r5]\n\t"
        "adcx %[r7], %[r6]\n\t"
        "adox %[r7], %[r6]\n\t"
        /* double (CF) and add the diagonal a_i^2 (OF); r7 = 0 on entry, flags cleared */
        "xorl %k[r7], %k[r7]\n\t"
        "movq 0(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[r0], %[t1]\n\t"
        "adcx %[r1], %[r1]\n\t"
        "adox %[t1], %[r1]\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[t0], %[t1]\n\t"
        "adcx %[r2], %[r2]\n\t"
        "adox %[t0], %[r2]\n\t"
        "adcx %[r3], %[r3]\n\t"
        "adox %[t1], %[r3]\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[t0], %[t1]\n\t"
        "adcx %[r4], %[r4]\n\t"
        "adox %[t0], %[r4]\n\t"
        "adcx %[r5], %[r5]\n\t"
        "adox %[t1], %[r5]\n\t"
        "movq 24(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[t0], %[t1]\n\t"
        "adcx %[r6], %[r6]\n\t"
        "adox %[t0], %[r6]\n\t"
        "adcx %[r7], %[r7]\n\t"
        "adox %[t1], %[r7]\n\t"
        /* the pointer is dead: a is the zero register of the reduction */
        FE4_REDUCE("a")
        : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
          [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [t0] "=&r"(t0), [t1] "=&r"(t1),
          [a] "+&r"(pa)
        : [r] "r"(r)
        : "rdx", "cc", "memory");
}

/* r = a + b mod p, lazily reduced. r may alias a and/or b. */
static inline void fe4_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], t;
    __asm__("addq 0(%[b]), %[r0]\n\t"
            "adcq 8(%[b]), %[r1]\n\t"
            "adcq 16(%[b]), %[r2]\n\t"
            "adcq 24(%[b]), %[r3]\n\t"
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "addq %[t], %[r0]\n\t"
            "adcq $0, %[r1]\n\t"
            "adcq $0, %[r2]\n\t"
            "adcq $0, %[r3]\n\t"
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "addq %[t], %[r0]\n\t"
            : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [t] "=&r"(t)
            : [b] "r"(b), "m"(*(const uint64_t(*)[4])b)
            : "cc");
    r[0] = r0, r[1] = r1, r[2] = r2, r[3] = r3;
}

/* r = a - b mod p, lazily reduced: a borrow (a - b + 2^256) takes off 38, a second borrow
 * another 38. r may alias a and/or b. */
static inline void fe4_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], t;
    __asm__("subq 0(%[b]), %[r0]\n\t"
            "sbbq 8(%[b]), %[r1]\n\t"
            "sbbq 16(%[b]), %[r2]\n\t"
            "sbbq 24(%[b]), %[r3]\n\t"
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "subq %[t], %[r0]\n\t"
            "sbbq $0, %[r1]\n\t"
            "sbbq $0, %[r2]\n\t"
            "sbbq $0, %[r3]\n\t"
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "subq %[t], %[r0]\n\t"
            : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [t] "=&r"(t)
            : [b] "r"(b), "m"(*(const uint64_t(*)[4])b)
            : "cc");
    r[0] = r0, r[1] = r1, r[2] = r2, r[3] = r3;
}

/* r = a * 121665 mod p (RFC 7748's a24), lazily reduced. r may alias a. */
static inline void fe4_mul_a24(uint64_t r[4], const uint64_t a[4]) {
    uint64_t r0, r1, r2, r3, r4, t;
    __asm__("movl $121665, %%edx\n\t"
            "mulx 0(%[a]), %[r0], %[r1]\n\t"
            "mulx 8(%[a]), %[t], %[r2]\n\t"
            "addq %[t], %[r1]\n\t"
            "mulx 16(%[a]), %[t], %[r3]\n\t"
            "adcq %[t], %[r2]\n\t"
            "mulx 24(%[a]), %[t], %[r4]\n\t"
            "adcq %[t], %[r3]\n\t"
            "adcq $0, %[r4]\n\t"
            "imulq $38, %[r4], %[r4]\n\t"
            "addq %[r4], %[r0]\n\t"
            "adcq $0, %[r1]\n\t"
            "adcq $0, %[r2]\n\t"
            "adcq $0, %[r3]\n\t"
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "addq %[t], %[r0]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [t] "=&r"(t)
            : [a] "r"(a), "m"(*(const uint64_t(*)[4])a)
            : "rdx", "cc");
    r[0] = r0, r[1] = r1, r[2] = r2, r[3] = r3;
}

/* r = a^(2^k), k >= 1. */
static void fe4_sqr_k(uint64_t r[4], const uint64_t a[4], int k) {
    fe4_sqr(r, a);
    for (int i = 1; i < k; i++) fe4_sqr(r, r);
}

/* r = a^(p-2) = a^-1 (0 for a = 0): p - 2 = 2^255 - 21 by 254 squarings and 11 products
 * (the chain of Bernstein's curve25519 reference code). */
static void fe4_invert(uint64_t r[4], const uint64_t a[4]) {
    uint64_t t0[4], t1[4], t2[4], t3[4];
    fe4_sqr(t0, a);          /* 2 */
    fe4_sqr_k(t1, t0, 2);    /* 8 */
    fe4_mul(t1, a, t1);      /* 9 */
    fe4_mul(t0, t0, t1);     /* 11 */
    fe4_sqr(t2, t0);         /* 22 */
    fe4_mul(t1, t1, t2);     /* 31 = 2^5 - 1 */
    fe4_sqr_k(t2, t1, 5);
    fe4_mul(t1, t2, t1);     /* 2^10 - 1 */
    fe4_sqr_k(t2, t1, 10);
    fe4_mul(t2, t2, t1);     /* 2^20 - 1 */
    fe4_sqr_k(t3, t2, 20);
    fe4_mul(t2, t3, t2);     /* 2^40 - 1 */
    fe4_sqr_k(t2, t2, 10);
    fe4_mul(t1, t2, t1);     /* 2^50 - 1 */
    fe4_sqr_k(t2, t1, 50);
    fe4_mul(t2, t2, t1);     /* 2^100 - 1 */
    fe4_sqr_k(t3, t2, 100);
    fe4_mul(t2, t3, t2);     /* 2^200 - 1 */
    fe4_sqr_k(t2, t2, 50);
    fe4_mul(t1, t2, t1);     /* 2^250 - 1 */
    fe4_sqr_k(t1, t1, 5);    /* 2^255 - 32 */
    fe4_mul(r, t1, t0);      /* 2^255 - 21 */
    tabai_wipe(t0, sizeof t0);
    tabai_wipe(t1, sizeof t1);
    tabai_wipe(t2, sizeof t2);
    tabai_wipe(t3, sizeof t3);
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

/* Swaps a and b if m is all ones, keeps them if m = 0 (m secret). */
static inline void fe4_cswap(uint64_t a[4], uint64_t b[4], uint64_t m) {
    for (int i = 0; i < 4; i++) {
        uint64_t t = m & (a[i] ^ b[i]);
        a[i] ^= t;
        b[i] ^= t;
    }
}

void tabai_x25519_ladder_n4_bmi2(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]) {
    uint64_t x1[4], x2[4] = {1, 0, 0, 0}, z2[4] = {0}, x3[4], z3[4] = {1, 0, 0, 0};
    uint64_t a[4], aa[4], b[4], bb[4], e[4], c[4], d[4], da[4], cb[4];
    for (int i = 0; i < 4; i++) x1[i] = ld64(u + 8 * i);
    x1[3] &= INT64_MAX; /* RFC 7748 5: the top bit of u is ignored */
    memcpy(x3, x1, sizeof x3);
    uint64_t swap = 0;
    for (int t = 254; t >= 0; t--) {
        uint64_t kt = (uint64_t)(k[t >> 3] >> (t & 7)) & 1;
        swap ^= kt;
        uint64_t m = tabai_mask(swap);
        fe4_cswap(x2, x3, m);
        fe4_cswap(z2, z3, m);
        swap = kt;
        fe4_add(a, x2, z2);
        fe4_sub(b, x2, z2);
        fe4_add(c, x3, z3);
        fe4_sub(d, x3, z3);
        fe4_sqr(aa, a);
        fe4_sqr(bb, b);
        fe4_mul(da, d, a);
        fe4_mul(cb, c, b);
        fe4_sub(e, aa, bb);
        fe4_add(x3, da, cb);
        fe4_sub(z3, da, cb);
        fe4_sqr(x3, x3);
        fe4_sqr(z3, z3);
        fe4_mul(z3, x1, z3);
        fe4_mul(x2, aa, bb);
        fe4_mul_a24(z2, e);
        fe4_add(z2, aa, z2);
        fe4_mul(z2, e, z2);
    }
    uint64_t m = tabai_mask(swap);
    fe4_cswap(x2, x3, m);
    fe4_cswap(z2, z3, m);
    fe4_invert(z2, z2);
    fe4_mul(x2, x2, z2);
    fe4_to_bytes(out, x2);
    uint64_t *secrets[] = {x2, z2, x3, z3, a, aa, b, bb, e, c, d, da, cb};
    for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
        tabai_wipe(secrets[i], 4 * sizeof(uint64_t));
}

/* ---- the field operations for the differential tests (tests/c/test_fe25519.c) ---- */
void tabai_fe25519_mul_n4_bmi2(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    fe4_mul(r, a, b);
}
void tabai_fe25519_sqr_n4_bmi2(uint64_t r[4], const uint64_t a[4]) { fe4_sqr(r, a); }
void tabai_fe25519_add_n4_bmi2(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    fe4_add(r, a, b);
}
void tabai_fe25519_sub_n4_bmi2(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    fe4_sub(r, a, b);
}
void tabai_fe25519_mul_a24_n4_bmi2(uint64_t r[4], const uint64_t a[4]) { fe4_mul_a24(r, a); }
void tabai_fe25519_invert_n4_bmi2(uint64_t r[4], const uint64_t a[4]) { fe4_invert(r, a); }
void tabai_fe25519_to_bytes_n4_bmi2(uint8_t s[32], const uint64_t a[4]) { fe4_to_bytes(s, a); }
