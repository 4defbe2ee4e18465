/* Field and scalar helpers of src/ec: one call of the tier's kernel each. */
#ifndef TABAI_EC_FIELD_H
#define TABAI_EC_FIELD_H

#include "ec.h"

TABAI_INLINE void fe_mul(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a,
                         const uint64_t *b) {
    m->mul(r, a, b, m->m, m->minv, m->n);
}
TABAI_INLINE void fe_sqr(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a) {
    m->sqr(r, a, m->m, m->minv, m->n);
}
TABAI_INLINE void fe_add(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a,
                         const uint64_t *b) {
    m->add(r, a, b, m->m, m->n);
}
TABAI_INLINE void fe_sub(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a,
                         const uint64_t *b) {
    m->sub(r, a, b, m->m, m->n);
}
/* 1 if a[n] == 0, constant time. */
TABAI_INLINE uint64_t fe_is_zero(const uint64_t *a, size_t n) {
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++) t |= a[i];
    return 1 ^ tabai_nonzero(t);
}
/* 1 if a[n] == b[n], constant time. */
TABAI_INLINE uint64_t fe_eq(const uint64_t *a, const uint64_t *b, size_t n) {
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++) t |= a[i] ^ b[i];
    return 1 ^ tabai_nonzero(t);
}

/* r = a^e (Montgomery form) for a public exponent e of ebits bits; constant time in a. */
void tabai_ec_pow(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a, const uint64_t *e,
                  size_t ebits);

/* Inversions in Montgomery form: r = a^-1 R (a R in, so r R^-1 = (a R R^-1)^-1); a = 0 gives
 * 0; r may alias a. The _ct ones are constant time in a; the _vartime ones are for public
 * values only (the s of a signature being verified). */
void tabai_ec_fe_inv_ct(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a);
void tabai_ec_scalar_inv_ct(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a);
void tabai_ec_scalar_inv_vartime(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a);

#endif
