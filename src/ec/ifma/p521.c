/* P-521's point code at tier ifma (built with -mavx512f -mavx512vl -mavx512ifma): the
 * instance of curve_impl.h over the radix-2^52 field of p521_r52.h (eleven digits in three
 * ymm vectors, Montgomery form with R = 2^572), its points converted at the instance's entry
 * and exit, the tables' entries as they are read; k P's table read by the AVX2 scan. */
#include "../ec.h"
/* gcc 12 sees jadd's z2z2 read uninitialized on its q_affine path, which never reads it
 * (the vector loads of this field make it look) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "../p521_field.h"
#include "p521_r52.h"

#define EC_N 9
#define EC_FE_N 12
#define EC_ONE(x) ((void)(x), P521_R52_ONE)
#define EC_AZERO 0
#define EC_GLV 0
#define EC_DBL_W 1      /* jdbl5_ct with Y held doubled (curve_impl.h) */
#define EC_MADD_FUSED 1 /* the mixed addition by the fused operations (curve_impl.h) */
#define EC_P P521_P
#define EC_FN(name) p521_ifma_##name
#define FE_MUL(r, a, b) p521_r52_mul(r, a, b)
#define FE_SQR(r, a) p521_r52_sqr(r, a)
#define FE_ADD(r, a, b) p521_r52_add(r, a, b)
#define FE_SUB(r, a, b) p521_r52_sub(r, a, b)
#define FE_HALF(r, a) p521_r52_half(r, a)
#define FE_MUL_SUB(r, a, b, c) p521_r52_mul_sub(r, a, b, c)
#define FE_SQR_SUB2(r, a, b) p521_r52_sqr_sub2(r, a, b)
#define FE_TRIPLE(r, a) p521_r52_triple(r, a)
#define FE_SUB2X(r, a, b) p521_r52_sub2x(r, a, b)
#define FE_IN(r, a) p521_r52_from_words(r, a)
#define FE_OUT(r, a) p521_r52_to_words(r, a)
#define FE_IS_ZERO(a) p521_r52_is_zero(a)
#define EC_IMPL_NAME tabai_ec_impl_p521_ifma_masked /* k P read by masks (unused) */
#define EC_IMPL_AVX2_NAME tabai_ec_impl_p521_ifma   /* k P read by the AVX2 scan */
#include "../curve_impl.h"

/* the field as calls (ec.h), for the tests and the bench */
EC_R52_CALLS(p521)
