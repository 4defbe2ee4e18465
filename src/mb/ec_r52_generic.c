/* The eight-lane curve kernels (src/ifma/ec_r52.h) in portable C: the same body
 * (src/ifma/ec_r52_body.h) over a C model of the vector macros of src/vec.h, eight 64-bit
 * lanes in an array, vpmadd52luq / vpmadd52huq as their definition (acc + the low / high
 * 52 bits of the 104-bit product of the operands' low 52 bits), lane masks as the bits of
 * an unsigned. The reference that the IFMA instantiation is compared with lane for lane, and
 * the eight-lane path any tier can run (tests, valgrind's constant-time check). Generic
 * flags; every lane select is mask arithmetic behind a value barrier, no branch. */
#include "../internal.h"
#include "../ifma/ec_r52.h"

typedef struct ec_v8 {
    uint64_t v[8];
} ec_v8;

#define VT ec_v8
#define VL 8
#define VM unsigned

#define EC_LANES_OP(name, expr)                                                              \
    static inline ec_v8 name(ec_v8 x, ec_v8 y) {                                             \
        ec_v8 r;                                                                             \
        for (int l = 0; l < 8; l++) r.v[l] = (expr);                                         \
        return r;                                                                            \
    }
EC_LANES_OP(ec_v_add, x.v[l] + y.v[l])
EC_LANES_OP(ec_v_sub, x.v[l] - y.v[l])
EC_LANES_OP(ec_v_and, x.v[l] & y.v[l])

static inline ec_v8 ec_v_set1(uint64_t c) {
    ec_v8 r;
    for (int l = 0; l < 8; l++) r.v[l] = c;
    return r;
}
static inline ec_v8 ec_v_ld(const uint64_t *p) {
    ec_v8 r;
    memcpy(r.v, p, sizeof r.v);
    return r;
}
static inline void ec_v_st(uint64_t *p, ec_v8 x) { memcpy(p, x.v, sizeof x.v); }
static inline ec_v8 ec_v_srl(ec_v8 x, int n) {
    for (int l = 0; l < 8; l++) x.v[l] >>= n;
    return x;
}
static inline ec_v8 ec_v_sra(ec_v8 x, int n) {
    for (int l = 0; l < 8; l++) x.v[l] = (uint64_t)((int64_t)x.v[l] >> n);
    return x;
}
/* acc + lo52 (hi = 0) or hi52 (hi = 1) of lo52(x) * lo52(y), per lane */
static inline ec_v8 ec_v_madd52(ec_v8 acc, ec_v8 x, ec_v8 y, int hi) {
    const uint64_t m = 0xFFFFFFFFFFFFFULL;
    for (int l = 0; l < 8; l++) {
        tabai_u128 p = (tabai_u128)(x.v[l] & m) * (y.v[l] & m);
        acc.v[l] += (uint64_t)(p >> (hi ? 52 : 0)) & m;
    }
    return acc;
}
static inline unsigned ec_v_ltz(ec_v8 x) {
    unsigned k = 0;
    for (int l = 0; l < 8; l++) k |= (unsigned)(x.v[l] >> 63) << l;
    return k;
}
static inline unsigned ec_v_eq(ec_v8 x, ec_v8 y) {
    unsigned k = 0;
    for (int l = 0; l < 8; l++) k |= (unsigned)tabai_eq(x.v[l], y.v[l]) << l;
    return k;
}
/* m ? y : x per lane */
static inline ec_v8 ec_v_blend(unsigned m, ec_v8 x, ec_v8 y) {
    for (int l = 0; l < 8; l++) {
        uint64_t k = tabai_mask((uint64_t)(m >> l) & 1);
        x.v[l] = (x.v[l] & ~k) | (y.v[l] & k);
    }
    return x;
}

#define V_LD(p) ec_v_ld((const uint64_t *)(p))
#define V_ST(p, x) ec_v_st((uint64_t *)(p), (x))
#define V_ZERO() ec_v_set1(0)
#define V_SET1(c) ec_v_set1((uint64_t)(c))
#define V_ADD(x, y) ec_v_add((x), (y))
#define V_SUB(x, y) ec_v_sub((x), (y))
#define V_SRL(x, n) ec_v_srl((x), (n))
#define V_SRA(x, n) ec_v_sra((x), (n))
#define V_AND(x, y) ec_v_and((x), (y))
#define V_ML(acc, x, y) ec_v_madd52((acc), (x), (y), 0)
#define V_MH(acc, x, y) ec_v_madd52((acc), (x), (y), 1)
#define V_LTZ_MASK(x) ec_v_ltz(x)
#define V_EQ_MASK(x, y) ec_v_eq((x), (y))
#define V_BLEND(m, x, y) ec_v_blend((m), (x), (y))
#define V_MASK_MOV(x, m, y) ec_v_blend((m), (x), (y))
#define V_MASKZ_MOV(m, y) ec_v_blend((m), ec_v_set1(0), (y))

#define EC_CAT_(x, y) x##y
#define EC_CAT(x, y) EC_CAT_(x, y)

#define ECD 5
#define FN(x) EC_CAT(x, _d5)
#include "../ifma/ec_r52_body.h"
#undef ECD
#undef FN
#define ECD 8
#define FN(x) EC_CAT(x, _d8)
#include "../ifma/ec_r52_body.h"

EC_R52_KERNEL(tabai_ec_r52_mb8_generic, "generic8");
