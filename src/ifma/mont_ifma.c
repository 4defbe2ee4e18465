/* TEMPORARY placeholder (the portable reference), replaced by the helper that owns this file. */
#include "../mb/mb.h"
void tabai_mont_mul_r52n_mb8_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                        const uint64_t *k0, size_t d) {
    tabai_mont_mul_rwn_mbl_generic(r, a, b, p, k0, d, 8, 52);
}
void tabai_mont_sqr_r52n_mb8_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p, const uint64_t *k0,
                        size_t d) {
    tabai_mont_mul_rwn_mbl_generic(r, a, a, p, k0, d, 8, 52);
}
void tabai_mont_mul_r52n_mb4_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                        const uint64_t *k0, size_t d) {
    tabai_mont_mul_rwn_mbl_generic(r, a, b, p, k0, d, 4, 52);
}
void tabai_mont_sqr_r52n_mb4_ifma(uint64_t *r, const uint64_t *a, const uint64_t *p, const uint64_t *k0,
                        size_t d) {
    tabai_mont_mul_rwn_mbl_generic(r, a, a, p, k0, d, 4, 52);
}
