/* P-256's point code at the generic tier: curve_impl.h over p256_field.h's portable C. */
#include "p256_field.h"

#define EC_N 4
#define EC_AZERO 0
#define EC_GLV 0
#define EC_P P256_P
#define EC_FN(name) p256_generic_##name
#define FE_MUL(r, a, b) p256_mont_mul(r, a, b)
#define FE_SQR(r, a) p256_mont_sqr(r, a)
#define EC_IMPL_NAME tabai_ec_impl_p256_generic
#include "curve_impl.h"
