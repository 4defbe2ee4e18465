/* P-384's point code, both tiers: curve_impl.h with direct calls of the tier's fixed-size
 * 6-limb Montgomery kernels (generic C, generated bmi2 assembly) and the additions inlined;
 * from tier avx2 on, bmi2's with k G by 7-bit windows. */
#include "../limb/limb.h"
#include "../x64/x64.h"

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
#undef EC_FN
#undef FE_MUL
#undef FE_SQR
#undef EC_IMPL_NAME

#define EC_FN(name) p384_bmi2_##name
#define FE_MUL(r, a, b) tabai_mont_mul_n6_bmi2(r, a, b, P384_P, P384_PINV, 6)
#define FE_SQR(r, a) tabai_mont_sqr_n6_bmi2(r, a, P384_P, P384_PINV, 6)
#define EC_IMPL_NAME tabai_ec_impl_p384_bmi2
/* the same with k G by the width-7 table and the AVX2 scan (tiers avx2 and above) */
#define EC_IMPL7_AVX2_NAME tabai_ec_impl_p384_avx2
#include "curve_impl.h"
