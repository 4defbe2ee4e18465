/* Tier bmi2, any n (used above the fixed sizes 1..16): C drivers over the generated row
 * kernels tabai_mul_1_n_bmi2 / tabai_addmul_1_n_bmi2 (mulx, adox/adcx). Compiled for
 * baseline x86-64: the ISA-specific instructions are only in the assembly they call.
 * Montgomery: product (or square) of 2n limbs on the stack, then REDC (rows, or blocks of 8
 * rows with a register-window pass when 8 divides n)
 * (Montgomery 1985; SOS in Koc, Acar, Kaliski, IEEE Micro 16(3), 1996), final subtraction
 * by masks. Constant time: every loop bound and address depends on n only. */
#include "../limb/kara.h"
#include "x64.h"

static const tabai_sqr_n_fn sqr_fixed[17] = {
    NULL,                 tabai_sqr_n1_bmi2,  tabai_sqr_n2_bmi2,  tabai_sqr_n3_bmi2,
    tabai_sqr_n4_bmi2,    tabai_sqr_n5_bmi2,  tabai_sqr_n6_bmi2,  tabai_sqr_n7_bmi2,
    tabai_sqr_n8_bmi2,    tabai_sqr_n9_bmi2,  tabai_sqr_n10_bmi2, tabai_sqr_n11_bmi2,
    tabai_sqr_n12_bmi2,   tabai_sqr_n13_bmi2, tabai_sqr_n14_bmi2, tabai_sqr_n15_bmi2,
    tabai_sqr_n16_bmi2};
static const tabai_mul_n_fn mul_fixed[17] = {
    NULL,                 tabai_mul_n1_bmi2,  tabai_mul_n2_bmi2,  tabai_mul_n3_bmi2,
    tabai_mul_n4_bmi2,    tabai_mul_n5_bmi2,  tabai_mul_n6_bmi2,  tabai_mul_n7_bmi2,
    tabai_mul_n8_bmi2,    tabai_mul_n9_bmi2,  tabai_mul_n10_bmi2, tabai_mul_n11_bmi2,
    tabai_mul_n12_bmi2,   tabai_mul_n13_bmi2, tabai_mul_n14_bmi2, tabai_mul_n15_bmi2,
    tabai_mul_n16_bmi2};

#define MUL_ROWS(N) tabai_mul_rows_n##N##_bmi2,
static const tabai_mul_n_fn mul_rows[14] = {TABAI_X64_FOR_REDC(MUL_ROWS)};
#undef MUL_ROWS

/* r[2n] = a[n]*b[n], n <= TABAI_MAX_LIMBS: for even n >= 48 one Karatsuba step (kara.h) on
 * three n/2 products of this function; for 8 | n >= 24 the generated rows; else columns of 8
 * limbs of a in a register window over all rows of b (tabai_addmul_8xn_bmi2), the n % 8
 * remaining limbs by mulx rows. r must not overlap a or b. */
void tabai_mul_n_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    if (n <= 16) {
        mul_fixed[n](r, a, b, n);
        return;
    }
    if (n == 32) {
        tabai_mul_n32_bmi2(r, a, b, n);
        return;
    }
    if (n >= 48 && !(n & 1)) {
        kara_mul_step(r, a, b, n, tabai_mul_n_bmi2, tabai_mul_n_bmi2);
        return;
    }
    if (n >= 24 && !(n & 7)) {
        mul_rows[n / 8 - 3](r, a, b, n);
        return;
    }
    size_t n8 = n & ~(size_t)7;
    for (size_t i = 0; i < n8 + n; i++) r[i] = 0;
    for (size_t c = 0; c < n8; c += 8) (void)tabai_addmul_8xn_bmi2(r + c, a + c, b, n);
    for (size_t k = n8; k < n; k++) r[k + n] = tabai_addmul_1_n_bmi2(r + k, b, n, a[k]);
}

/* r[2n] = a[n]^2, n <= TABAI_MAX_LIMBS: for even n two half squares and one half product
 * (fewer instructions here than a Karatsuba squaring step: callgrind, 0.8x at 48 limbs); for
 * odd n the off-diagonal triangle by rows, doubled, plus the diagonal. r must not overlap a. */
void tabai_sqr_n_bmi2(uint64_t *r, const uint64_t *a, size_t n) {
    if (n <= 16) {
        sqr_fixed[n](r, a, n);
        return;
    }
    if (n == 32) {
        tabai_sqr_n32_bmi2(r, a, n);
        return;
    }
    if (!(n & 1)) { /* a = aL + aH*2^(64h): aL^2, aH^2, then 2*aL*aH added at limb h */
        size_t h = n / 2;
        uint64_t t[TABAI_MAX_LIMBS];
        tabai_sqr_n_bmi2(r, a, h);
        tabai_sqr_n_bmi2(r + n, a + h, h);
        tabai_mul_n_bmi2(t, a, a + h, h);
        uint64_t top = 0, cy = 0;
        for (size_t k = 0; k < n; k++) {
            uint64_t d = (t[k] << 1) | top;
            top = t[k] >> 63;
            cy = tabai_adc(&r[h + k], r[h + k], d, cy);
        }
        for (size_t k = h + n; k < 2 * n; k++) {
            cy = tabai_adc(&r[k], r[k], top, cy);
            top = 0;
        }
        return;
    }
    r[0] = 0;
    r[n] = tabai_mul_1_n_bmi2(r + 1, a + 1, n - 1, a[0]);
    for (size_t i = 1; i < n - 1; i++)
        r[n + i] = tabai_addmul_1_n_bmi2(r + 2 * i + 1, a + i + 1, n - 1 - i, a[i]);
    r[2 * n - 1] = 0;
    uint64_t top = 0, cy = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t lo, hi = tabai_mulw(&lo, a[i], a[i]);
        uint64_t x0 = r[2 * i], x1 = r[2 * i + 1];
        uint64_t d0 = (x0 << 1) | top, d1 = (x1 << 1) | (x0 >> 63);
        top = x1 >> 63;
        cy = tabai_adc(&r[2 * i], d0, lo, cy);
        cy = tabai_adc(&r[2 * i + 1], d1, hi, cy);
    }
}

/* r[n] = t[2n] * 2^(-64n) mod p for t < p * 2^(64n); t is destroyed. */
static void redc_rows(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv, size_t n) {
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t hi = tabai_addmul_1_n_bmi2(t + i, p, n, t[i] * pinv);
        uint64_t c1 = tabai_adc(&t[i + n], t[i + n], hi, 0);
        uint64_t c2 = tabai_adc(&t[i + n], t[i + n], c, 0);
        c = c1 + c2; /* at most 1: the running value stays below 2pR */
    }
    tabai_mont_final_sub(r, t + n, c, p, n);
}

/* As redc_rows for n a multiple of 8 (n >= 16), in blocks of 8 rows: the 8 multipliers
 * m_i of a block from rows over p[0..7], then m[8] x p[8..n-1] in one register-window
 * pass (tabai_addmul_8xn_bmi2), then the block's high limbs and carries propagated to the
 * top (t[2n] is the carry slot). */
static void redc_blocks(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv, size_t n) {
    t[2 * n] = 0;
    for (size_t b = 0; b < n; b += 8) {
        uint64_t mb[8], hb[8];
        for (size_t i = 0; i < 8; i++) {
            mb[i] = t[b + i] * pinv;
            hb[i] = tabai_addmul_1_n_bmi2(t + b + i, p, 8, mb[i]);
        }
        uint64_t c2 = tabai_addmul_8xn_bmi2(t + b + 8, mb, p + 8, n - 8);
        uint64_t cy = 0;
        for (size_t i = 0; i < 8; i++) cy = tabai_adc(&t[b + 8 + i], t[b + 8 + i], hb[i], cy);
        for (size_t k = b + 16; k <= 2 * n; k++)
            cy = tabai_adc(&t[k], t[k], k == b + n + 8 ? c2 : 0, cy); /* k is public */
    }
    tabai_mont_final_sub(r, t + n, t[2 * n], p, n);
}

#define REDC_FIXED(N) tabai_redc_n##N##_bmi2,
static const tabai_redc_fn redc_fixed[14] = {TABAI_X64_FOR_REDC(REDC_FIXED)};
#undef REDC_FIXED

static void redc(uint64_t *r, uint64_t *t, const uint64_t *p, uint64_t pinv, size_t n) {
    if (n >= 24 && !(n & 7)) redc_fixed[n / 8 - 3](r, t, p, pinv);
    else if (n >= 16 && !(n & 7)) redc_blocks(r, t, p, pinv, n);
    else redc_rows(r, t, p, pinv, n);
}

/* (On Zen 1, whose mulx issues every other cycle, the generic tier's Karatsuba and block
 * REDC beat these rows at 64 limbs and were used there; on Zen 4, with one mulx a cycle, the
 * rows are faster at every size: `tabai bench --ops mont_mul --bits 4096` times the two
 * paths side by side as kernels bmi2 and generic.) */
void tabai_mont_mul_n_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                           uint64_t pinv, size_t n) {
    uint64_t t[2 * TABAI_MAX_LIMBS + 1];
    tabai_mul_n_bmi2(t, a, b, n);
    redc(r, t, p, pinv, n);
}

void tabai_mont_sqr_n_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv,
                           size_t n) {
    uint64_t t[2 * TABAI_MAX_LIMBS + 1];
    tabai_sqr_n_bmi2(t, a, n);
    redc(r, t, p, pinv, n);
}
