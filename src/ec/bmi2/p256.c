/* P-256's point code at the bmi2 tier (built with -mbmi2 -madx): curve_impl.h over the
 * mulx/adcx/adox product of p256_mul.h. */
#include "p256_mul.h"

#define EC_N 4
#define EC_AZERO 0
#define EC_GLV 0
#define EC_MUL_DA 1 /* k P by doubling-additions (curve_impl.h): faster here, level at generic */
#define EC_P P256_P
#define EC_FN(name) p256_bmi2_##name
#define FE_MUL(r, a, b) p256_mont_mul_bmi2(r, a, b)
#define FE_SQR(r, a) p256_mont_sqr_bmi2(r, a)
#define FE_ADD(r, a, b) fe4_add_bmi2(r, a, b, P256_P)
#define FE_SUB(r, a, b) p256_sub_bmi2(r, a, b)
#define FE_TRIPLE(r, a) p256_triple_bmi2(r, a)
#define FE_SQR_SUB2(r, a, b) p256_mont_sqr_sub2_bmi2(r, a, b)
#define FE_MUL_SUB(r, a, b, c) p256_mont_mul_sub_bmi2(r, a, b, c)
#define EC_IMPL_NAME tabai_ec_impl_p256_bmi2
/* the same with k G by the width-7 table and the AVX-512F scan (tiers avx512, ifma) */
#define EC_IMPL7_NAME tabai_ec_impl_p256_avx512
#define EC_IMPL7_AVX2_NAME tabai_ec_impl_p256_avx2 /* the AVX2 scan (tier avx2) */
#include "../curve_impl.h"
