/* P-384's point code at the generic tier: curve_impl.h with direct calls of the fixed-size
 * 6-limb Montgomery kernels of generic C and the additions inlined (the bmi2 tier's instance
 * is bmi2/p384.c). */
#include "../limb/limb.h"

static const uint64_t P384_P[6] = {0x00000000ffffffffu, 0xffffffff00000000u,
                                   0xfffffffffffffffeu, 0xffffffffffffffffu,
                                   0xffffffffffffffffu, 0xffffffffffffffffu};
#define P384_PINV 0x0000000100000001u

#define EC_N 6
#define EC_AZERO 0
#define EC_GLV 0
#define EC_P P384_P
#define EC_FN(name) p384_generic_##name
#define FE_MUL(r, a, b) tabai_mont_mul_n6_generic(r, a, b, P384_P, P384_PINV, 6)
#define FE_SQR(r, a) tabai_mont_sqr_n6_generic(r, a, P384_P, P384_PINV, 6)
#define EC_IMPL_NAME tabai_ec_impl_p384_generic
#include "curve_impl.h"
