/* secp256k1's point code at the bmi2 tier (built with -mbmi2 -madx): curve_impl.h over the
 * mulx/adcx/adox product of secp256k1_mul.h (a = 0, GLV). */
#include "secp256k1_mul.h"

#define EC_N 4
#define EC_AZERO 1
#define EC_GLV 1
#define EC_P K256_P
#define EC_FN(name) k256_bmi2_##name
#define FE_MUL(r, a, b) k256_mont_mul_bmi2(r, a, b)
#define FE_SQR(r, a) k256_mont_sqr_bmi2(r, a)
#define FE_ADD(r, a, b) fe4_add_bmi2(r, a, b, K256_P)
#define FE_SUB(r, a, b) fe4_sub_bmi2(r, a, b, K256_P)
#define EC_IMPL_NAME tabai_ec_impl_secp256k1_bmi2
/* the same with k G by the width-7 table and the AVX-512F scan (tiers avx512, ifma) */
#define EC_IMPL7_NAME tabai_ec_impl_secp256k1_avx512
#define EC_IMPL7_AVX2_NAME tabai_ec_impl_secp256k1_avx2 /* the AVX2 scan (tier avx2) */
#include "../curve_impl.h"
