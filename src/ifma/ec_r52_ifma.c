/* The eight-lane curve kernels (ec_r52.h) in zmm with AVX-512 IFMA (vpmadd52luq /
 * vpmadd52huq): the body ec_r52_body.h over src/vec.h at 512 bits, for 5 and 8 digits.
 * Compiled with -mavx512f -mavx512vl -mavx512ifma (this file only); reached only when the
 * CPU has the three features and the tier in use is ifma (src/ec/mb.c). */
#include <immintrin.h>

#include "../internal.h"
#include "ec_r52.h"

#define TABAI_VEC_BITS 512
#include "../vec.h"
#define VM __mmask8

#define EC_CAT_(x, y) x##y
#define EC_CAT(x, y) EC_CAT_(x, y)

#define ECD 5
#define FN(x) EC_CAT(x, _d5)
#include "ec_r52_body.h"
#undef ECD
#undef FN
#define ECD 8
#define FN(x) EC_CAT(x, _d8)
#include "ec_r52_body.h"

EC_R52_KERNEL(tabai_ec_r52_mb8_ifma, "ifma_zmm");
