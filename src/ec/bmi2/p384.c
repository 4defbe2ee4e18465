/* P-384's point code at the bmi2 tier (built with -mbmi2 -madx): curve_impl.h over the
 * Montgomery product and square of p384_mul.h (the reduction by p's shape) and its
 * additions; from tier avx2 on, the same with k G by 7-bit windows. */
#include "p384_mul.h"

#define EC_N 6
#define EC_AZERO 0
#define EC_GLV 0
#define EC_MADD_Z3_LATE 1 /* k G's Z3 = Z1 H late (curve_impl.h): faster here only */
#define EC_DBL_W 1 /* jdbl5_ct with Y held doubled (curve_impl.h): faster here, not at generic */
#define EC_MUL_DA 1 /* k P by doubling-additions (curve_impl.h), inlined: faster here */
#define EC_MUL_DA_INLINE 1
#define EC_P P384_P
#define EC_FN(name) p384_bmi2_##name
#define FE_MUL(r, a, b) p384_mont_mul_bmi2(r, a, b)
#define FE_SQR(r, a) p384_mont_sqr_bmi2(r, a)
#define FE_ADD(r, a, b) p384_add_bmi2(r, a, b)
#define FE_SUB(r, a, b) p384_sub_bmi2(r, a, b)
#define EC_IMPL_NAME tabai_ec_impl_p384_bmi2
/* the same with k G by the width-7 table and the AVX2 scan (tiers avx2 and above) */
#define EC_IMPL7_AVX2_NAME tabai_ec_impl_p384_avx2
#include "../curve_impl.h"
