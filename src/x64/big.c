/* Tier bmi2, any n (used above the fixed sizes 1..16): C drivers over the generated row
 * kernels tabai_mul_1_n_bmi2 / tabai_addmul_1_n_bmi2 (mulx, adox/adcx). Compiled for
 * baseline x86-64: the ISA-specific instructions are only in the assembly they call.
 * Montgomery: product (or square) of 2n limbs on the stack, then n REDC rows
 * (Montgomery 1985; SOS in Koc, Acar, Kaliski, IEEE Micro 16(3), 1996), final subtraction
 * by masks. Constant time: every loop bound and address depends on n only. */
#include "../limb/limb.h"
#include "x64.h"

/* r[2n] = a[n]*b[n]: rows of mulx (schoolbook). r must not overlap a or b. */
void tabai_mul_n_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
    r[n] = tabai_mul_1_n_bmi2(r, a, n, b[0]);
    for (size_t i = 1; i < n; i++) r[n + i] = tabai_addmul_1_n_bmi2(r + i, a, n, b[i]);
}

/* r[2n] = a[n]^2: off-diagonal triangle by rows, doubled, plus the diagonal. r must not
 * overlap a. */
void tabai_sqr_n_bmi2(uint64_t *r, const uint64_t *a, size_t n) {
    if (n == 1) {
        r[1] = tabai_mulw(&r[0], a[0], a[0]);
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
        c = c1 + c2; /* at most 1: see tabai_redc_inline */
    }
    tabai_mont_final_sub(r, t + n, c, p, n);
}

void tabai_mont_mul_n_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                           uint64_t pinv, size_t n) {
    uint64_t t[2 * TABAI_MAX_LIMBS];
    tabai_mul_n_bmi2(t, a, b, n);
    redc_rows(r, t, p, pinv, n);
}

void tabai_mont_sqr_n_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t pinv,
                           size_t n) {
    uint64_t t[2 * TABAI_MAX_LIMBS];
    tabai_sqr_n_bmi2(t, a, n);
    redc_rows(r, t, p, pinv, n);
}
