/* P-521's point code, both tiers: curve_impl.h with direct calls of special.c's Mersenne
 * products (plain residues: the "Montgomery form" of the template is the identity here, R = 1)
 * and the additions inlined. */
#include "ec.h"

static const uint64_t P521_P[9] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, 0x1ff};

#define EC_N 9
#define EC_AZERO 0
#define EC_GLV 0
#define EC_P P521_P
#define EC_FN(name) p521_generic_##name
#define FE_MUL(r, a, b) tabai_ec_p521_mul_generic(r, a, b, P521_P, 1, 9)
#define FE_SQR(r, a) tabai_ec_p521_sqr_generic(r, a, P521_P, 1, 9)
#define EC_IMPL_NAME tabai_ec_impl_p521_generic
#include "curve_impl.h"
#undef EC_FN
#undef FE_MUL
#undef FE_SQR
#undef EC_IMPL_NAME

#define EC_FN(name) p521_bmi2_##name
#define FE_MUL(r, a, b) tabai_ec_p521_mul_bmi2(r, a, b, P521_P, 1, 9)
#define FE_SQR(r, a) tabai_ec_p521_sqr_bmi2(r, a, P521_P, 1, 9)
#define EC_IMPL_NAME tabai_ec_impl_p521_bmi2
#include "curve_impl.h"
