/* The public raw limb functions: each dispatches to the slot of the tier in use (above
 * TABAI_MAX_LIMBS limbs, to the heap-scratch Karatsuba of kara.c over those slots). */
#include "../limb/limb.h"
#include "tables.h"

uint64_t tabai_add_n(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    if (n == 0) return 0;
    TABAI_VERIFY_CHECK(tabai_verify_same_or_disjoint(r, n, a, n) &&
                       tabai_verify_same_or_disjoint(r, n, b, n));
    return tabai_kernels_active()->add_n(r, a, b, n);
}

uint64_t tabai_sub_n(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    if (n == 0) return 0;
    TABAI_VERIFY_CHECK(tabai_verify_same_or_disjoint(r, n, a, n) &&
                       tabai_verify_same_or_disjoint(r, n, b, n));
    return tabai_kernels_active()->sub_n(r, a, b, n);
}

void tabai_mul_n(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    if (n == 0) return;
    /* every tier's kernel: r must not overlap a or b */
    TABAI_VERIFY_CHECK(tabai_verify_disjoint(r, 16 * n, a, 8 * n) &&
                       tabai_verify_disjoint(r, 16 * n, b, 8 * n));
    const tabai_kernels *k = tabai_kernels_active();
    if (n > TABAI_MAX_LIMBS) tabai_mul_n_big(k, r, a, b, n); /* n is public */
    else k->mul[tabai_slot(n)](r, a, b, n);
}

void tabai_sqr_n(uint64_t *r, const uint64_t *a, size_t n) {
    if (n == 0) return;
    TABAI_VERIFY_CHECK(tabai_verify_disjoint(r, 16 * n, a, 8 * n));
    const tabai_kernels *k = tabai_kernels_active();
    if (n > TABAI_MAX_LIMBS) tabai_sqr_n_big(k, r, a, n);
    else k->sqr[tabai_slot(n)](r, a, n);
}

void tabai_mul(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *b, size_t bn) {
    if (an == 0 || bn == 0) return;
    TABAI_VERIFY_CHECK(tabai_verify_disjoint(r, 8 * (an + bn), a, 8 * an) &&
                       tabai_verify_disjoint(r, 8 * (an + bn), b, 8 * bn));
    const tabai_kernels *k = tabai_kernels_active();
    if (an == bn) {
        if (an > TABAI_MAX_LIMBS) tabai_mul_n_big(k, r, a, b, an);
        else k->mul[tabai_slot(an)](r, a, b, an);
        return;
    }
    r[an] = k->mul_1(r, a, an, b[0]);
    for (size_t j = 1; j < bn; j++) r[an + j] = k->addmul_1(r + j, a, an, b[j]);
}

uint64_t tabai_mul_1(uint64_t *r, const uint64_t *a, size_t n, uint64_t b) {
    if (n == 0) return 0;
    TABAI_VERIFY_CHECK(tabai_verify_same_or_disjoint(r, n, a, n));
    return tabai_kernels_active()->mul_1(r, a, n, b);
}

uint64_t tabai_addmul_1(uint64_t *r, const uint64_t *a, size_t n, uint64_t b) {
    if (n == 0) return 0;
    TABAI_VERIFY_CHECK(tabai_verify_same_or_disjoint(r, n, a, n));
    return tabai_kernels_active()->addmul_1(r, a, n, b);
}

int tabai_cmp_n(const uint64_t *a, const uint64_t *b, size_t n) {
    /* gt / lt flags from the most significant differing limb, by masks */
    uint64_t gt = 0, lt = 0;
    for (size_t i = n; i-- > 0;) {
        uint64_t d, bw1 = tabai_sbb(&d, b[i], a[i], 0); /* a > b */
        uint64_t bw2 = tabai_sbb(&d, a[i], b[i], 0);    /* a < b */
        uint64_t undecided = 1 ^ (gt | lt);
        gt |= bw1 & undecided;
        lt |= bw2 & undecided;
    }
    return (int)gt - (int)lt;
}

void tabai_cnd_select_n(uint64_t *r, uint64_t cond, const uint64_t *a, const uint64_t *b, size_t n) {
    tabai_cmov_n(r, tabai_nonzero(cond), a, b, n);
}

uint64_t tabai_cnd_sub_n(uint64_t *r, uint64_t cond, const uint64_t *a, const uint64_t *b, size_t n) {
    uint64_t m = tabai_mask(tabai_nonzero(cond)), bw = 0;
    for (size_t i = 0; i < n; i++) bw = tabai_sbb(&r[i], a[i], b[i] & m, bw);
    return bw;
}
