/* secp256k1's point code at the generic tier: curve_impl.h over secp256k1_field.h's
 * portable C (a = 0, GLV). */
#include "secp256k1_field.h"

#define EC_N 4
#define EC_AZERO 1
#define EC_GLV 1
#define EC_P K256_P
#define EC_FN(name) k256_generic_##name
#define FE_MUL(r, a, b) k256_mont_mul(r, a, b)
#define FE_SQR(r, a) k256_mont_sqr(r, a)
#define EC_IMPL_NAME tabai_ec_impl_secp256k1_generic
#include "curve_impl.h"
