/* Field products for P-521 on plain residues, with the kernel signatures of the bound modulus
 * (tabai_ec_ctx.fp.mul and .sqr): the operands taken into radix 2^58, multiplied there
 * (p521_field.h: 81 products in 128-bit columns and one carry pass, the Mersenne fold
 * 2^522 = 2 mod p inside the columns) and brought back to words below p. Chosen by
 * measurement: the saturated form (the tier's 9-limb product kernel, then the fold
 * t = hi + lo mod 2^521 - 1) took about a fifth longer for a product and a half longer for a
 * square, with the curve's code kept in radix 2^58 throughout (p521.c) the gap is larger
 * (src/ec/README.md). The same fold after the product lost to the Montgomery kernels for
 * secp256k1 (Crandall's fold of p = 2^256 - 2^32 - 977) and P-256, and was dropped for both.
 * Constant time: no branch or index depends on the operands. */
#include "ec.h"
#include "p521_field.h"

void tabai_ec_p521_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                       uint64_t pinv, size_t n) {
    (void)p, (void)pinv, (void)n;
    uint64_t x[9], y[9];
    p521_r58_from_words(x, a);
    p521_r58_from_words(y, b);
    p521_r58_mul(x, x, y);
    p521_r58_to_words(r, x);
}

void tabai_ec_p521_sqr(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv, size_t n) {
    (void)p, (void)pinv, (void)n;
    uint64_t x[9];
    p521_r58_from_words(x, a);
    p521_r58_sqr(x, x);
    p521_r58_to_words(r, x);
}
