/* Counting instances of the curves' inlined point code, for tabai-ec-time's bounds: the
 * library's own generic-tier instance files (src/ec/p256.c, ...) compiled once more with
 * their field products and squares, and curve_impl.h's variable-time field inversions,
 * counted, and their instances renamed; so the counts are those of the scalar
 * multiplications the library runs (not of point.c's reference code). secp256k1 gets the
 * width-7 k G instance too (EC_IMPL7_AVX2_NAME), as the tiers from avx2 run,
 * P-521 its bmi2 instance (src/ec/bmi2/p521.c), whose doubling differs, and P-256 and P-384
 * their bmi2 instances (src/ec/bmi2/p256.c, p384.c), whose k P differs. */
#include "ec_count.h"

#include "ec/field.h"
#include "ec/p256_field.h"
#include "ec/p521_field.h"
#include "ec/secp256k1_field.h"
#include "limb/limb.h"

unsigned long tabai_ec_count_mul, tabai_ec_count_sqr, tabai_ec_count_inv;

static void count_inv_vartime(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a) {
    tabai_ec_count_inv++;
    tabai_ec_fe_inv_vartime(x, r, a);
}
#define tabai_ec_fe_inv_vartime count_inv_vartime

/* the field operations the instance files call, counted (a macro of a function's own name
 * is not expanded again inside itself) */
#define COUNT_MUL(e) (tabai_ec_count_mul++, e)
#define COUNT_SQR(e) (tabai_ec_count_sqr++, e)
#define p256_mont_mul(r, a, b) COUNT_MUL(p256_mont_mul(r, a, b))
#define p256_mont_sqr(r, a) COUNT_SQR(p256_mont_sqr(r, a))
#define k256_mont_mul(r, a, b) COUNT_MUL(k256_mont_mul(r, a, b))
#define k256_mont_sqr(r, a) COUNT_SQR(k256_mont_sqr(r, a))
#define tabai_mont_mul_n6_generic(r, a, b, p, pinv, n)                                             \
    COUNT_MUL(tabai_mont_mul_n6_generic(r, a, b, p, pinv, n))
#define tabai_mont_sqr_n6_generic(r, a, p, pinv, n)                                                \
    COUNT_SQR(tabai_mont_sqr_n6_generic(r, a, p, pinv, n))
#define p521_r58_mul(r, a, b) COUNT_MUL(p521_r58_mul(r, a, b))
#define p521_r58_sqr(r, a) COUNT_SQR(p521_r58_sqr(r, a))

#define tabai_ec_impl_p256_generic tabai_ec_count_p256
#include "ec/p256.c"

#define tabai_ec_impl_secp256k1_generic tabai_ec_count_secp256k1
#define EC_IMPL7_AVX2_NAME tabai_ec_count_secp256k1_7
#include "ec/secp256k1.c"

#define tabai_ec_impl_p384_generic tabai_ec_count_p384
#include "ec/p384.c"

#define tabai_ec_impl_p521 tabai_ec_count_p521
#include "ec/p521.c"

/* P-521's bmi2 instance (its own doubling) with the portable product and square, counted */
#include "ec/bmi2/p521_mul.h"
#define p521_r58_mul_bmi2(r, a, b) p521_r58_mul(r, a, b)
#define p521_r58_sqr_bmi2(r, a) p521_r58_sqr(r, a)
#define tabai_ec_impl_p521_bmi2 tabai_ec_count_p521_bmi2
#define tabai_ec_impl_p521_bmi2_avx2 tabai_ec_count_p521_bmi2_avx2
#include "ec/bmi2/p521.c"

/* P-256's bmi2 instance (k P by doubling-additions, EC_MUL_DA), its products and squares
 * counted: its own inline assembly, run only where the tier has BMI2 */
#include "ec/bmi2/p256_mul.h"
#define p256_mont_mul_bmi2(r, a, b) COUNT_MUL(p256_mont_mul_bmi2(r, a, b))
#define p256_mont_sqr_bmi2(r, a) COUNT_SQR(p256_mont_sqr_bmi2(r, a))
#define p256_mont_mul_sub_bmi2(r, a, b, c) COUNT_MUL(p256_mont_mul_sub_bmi2(r, a, b, c))
#define p256_mont_sqr_sub2_bmi2(r, a, b) COUNT_SQR(p256_mont_sqr_sub2_bmi2(r, a, b))
#define tabai_ec_impl_p256_bmi2 tabai_ec_count_p256_bmi2
#define tabai_ec_impl_p256_avx512 tabai_ec_count_p256_bmi2_7
#define tabai_ec_impl_p256_avx2 tabai_ec_count_p256_bmi2_7avx2
#include "ec/bmi2/p256.c"

/* P-384's bmi2 instance (k P by doubling-additions too), the same way (its p renamed beside
 * the generic file's) */
#define P384_P P384_P_BMI2
#include "ec/bmi2/p384_mul.h"
#define p384_mont_mul_bmi2(r, a, b) COUNT_MUL(p384_mont_mul_bmi2(r, a, b))
#define p384_mont_sqr_bmi2(r, a) COUNT_SQR(p384_mont_sqr_bmi2(r, a))
#define tabai_ec_impl_p384_bmi2 tabai_ec_count_p384_bmi2
#define tabai_ec_impl_p384_avx2 tabai_ec_count_p384_bmi2_7avx2
#include "ec/bmi2/p384.c"

const tabai_ec_impl *tabai_ec_count_impl(tabai_curve c, int tier) {
    const int w7 = tier >= TABAI_TIER_AVX2;
    switch (c) {
    case TABAI_CURVE_P256:
        return w7                        ? &tabai_ec_count_p256_bmi2_7avx2
               : tier >= TABAI_TIER_BMI2 ? &tabai_ec_count_p256_bmi2
                                         : &tabai_ec_count_p256;
    case TABAI_CURVE_SECP256K1: return w7 ? &tabai_ec_count_secp256k1_7 : &tabai_ec_count_secp256k1;
    case TABAI_CURVE_P384:
        return w7                        ? &tabai_ec_count_p384_bmi2_7avx2
               : tier >= TABAI_TIER_BMI2 ? &tabai_ec_count_p384_bmi2
                                         : &tabai_ec_count_p384;
    case TABAI_CURVE_P521:
        return w7                        ? &tabai_ec_count_p521_bmi2_avx2
               : tier >= TABAI_TIER_BMI2 ? &tabai_ec_count_p521_bmi2
                                         : &tabai_ec_count_p521;
    default: return NULL;
    }
}
