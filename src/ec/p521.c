/* P-521's point code at the generic tier: curve_impl.h over the field of p521_field.h, radix
 * 2^58 with the Mersenne fold inside the product's columns, portable C (the bmi2 tier's
 * instance, bmi2/p521.c, takes the mulx product and square of bmi2/p521_mul.h). The points
 * and elements of the context (plain residues in 64-bit words, "Montgomery form" with
 * R = 1) are converted at the instance's entry and exit. */
#include "ec.h"
#include "p521_field.h"

#define EC_N 9
#define EC_AZERO 0
#define EC_GLV 0
#define EC_P P521_P
#define EC_FN(name) p521_##name
#define FE_MUL(r, a, b) p521_r58_mul(r, a, b)
#define FE_SQR(r, a) p521_r58_sqr(r, a)
#define FE_ADD(r, a, b) p521_r58_add(r, a, b)
#define FE_SUB(r, a, b) p521_r58_sub(r, a, b)
#define FE_ADD_LAZY(r, a, b) p521_r58_add_lazy(r, a, b)
#define FE_SUB_LAZY(r, a, b) p521_r58_sub_lazy(r, a, b)
#define FE_HALF(r, a) p521_r58_half(r, a)
#define EC_DBL_Z_SQR 1 /* its square is about two thirds of its product (not so at bmi2) */
#define FE_IN(r, a) p521_r58_from_words(r, a)
#define FE_OUT(r, a) p521_r58_to_words(r, a)
#define FE_IS_ZERO(a) p521_r58_is_zero(a)
#define EC_IMPL_NAME tabai_ec_impl_p521
#include "curve_impl.h"
