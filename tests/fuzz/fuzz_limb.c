/* libFuzzer target: the raw limb functions and the byte conversions against GMP.
 * Input: tier, n (1..128, or one of 16 sizes up to 1000 above the moduli's limit), m (limb
 * counts), a[n], b[n], c[m], a limb s, a condition byte, a byte
 * length offset (fuzz.h describes the classes).
 * Checks add_n, sub_n, mul_n, sqr_n, mul (n x m and m x n), mul_1, addmul_1, cmp_n,
 * cnd_select_n, cnd_sub_n with every aliasing their doc comments allow, and
 * tabai_to_bytes / tabai_from_bytes (round trip, TABAI_ERR_SIZE with the output untouched).
 * Every buffer is an exact-size heap block, so ASan sees any access outside it. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define LIMBS(k) ((uint64_t *)malloc((k) * sizeof(uint64_t)))

/* r[n] + hi * 2^(64n) == z */
static int eq_hi(const uint64_t *r, size_t n, uint64_t hi, const mpz_t z) {
    mpz_t t, h;
    mpz_inits(t, h, NULL);
    fz_to_mpz(t, r, n);
    mpz_set_ui(h, hi);
    mpz_mul_2exp(h, h, 64 * n);
    mpz_add(t, t, h);
    int eq = mpz_cmp(t, z) == 0;
    mpz_clears(t, h, NULL);
    return eq;
}

static int sgn(int x) { return (x > 0) - (x < 0); }

static void check_bytes(fz_in *in, const uint64_t *a, size_t n, const mpz_t A) {
    /* to_bytes: len from 0 to 8n+8; fits iff the value has at most len bytes */
    size_t len = fz_byte(in) % (8 * n + 9);
    size_t need = mpz_sgn(A) ? (mpz_sizeinbase(A, 2) + 7) / 8 : 0;
    uint8_t *be = malloc(len + 1), *want = calloc(len + 1, 1);
    memset(be, 0xa5, len + 1);
    tabai_status st = tabai_to_bytes(be, len, a, n);
    if (need > len) {
        FZ_STATUS(st, TABAI_ERR_SIZE, "tabai_to_bytes (value longer than len)");
        for (size_t i = 0; i < len; i++) FZ_CHECK(be[i] == 0xa5, "tabai_to_bytes wrote on error");
    } else {
        FZ_STATUS(st, TABAI_OK, "tabai_to_bytes");
        size_t cnt = 0;
        if (need) mpz_export(want + (len - need), &cnt, 1, 1, 1, 0, A);
        FZ_CHECK(memcmp(be, want, len) == 0, "tabai_to_bytes != mpz_export");
        FZ_CHECK(be[len] == 0xa5, "tabai_to_bytes wrote past len");
        /* from_bytes into k limbs: error iff the significant bytes exceed 8k */
        size_t k = fz_size(in, FZ_MAX);
        uint64_t *r = LIMBS(k);
        fz_arm(r, k);
        st = tabai_from_bytes(r, k, be, len);
        if (need > 8 * k) {
            FZ_STATUS(st, TABAI_ERR_SIZE, "tabai_from_bytes (value longer than 8k bytes)");
            FZ_CHECK(fz_untouched(r, k), "tabai_from_bytes wrote on error");
        } else {
            FZ_STATUS(st, TABAI_OK, "tabai_from_bytes");
            fz_note(3, "from_bytes", r, k);
            FZ_CHECK(fz_eq_mpz(r, k, A), "tabai_from_bytes(tabai_to_bytes(a)) != a");
        }
        fz_note(3, NULL, NULL, 0);
        free(r);
    }
    free(be);
    free(want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint64_t conds[8] = {0, 1, 2, 0x8000000000000000u, ~(uint64_t)0, 0, 1, 0x100};
    fz_in in;
    fz_begin(&in, data, size);
    /* n: a size byte below 224 gives 1 + byte % 128 as everywhere, 224.. a limb count above
     * the moduli's limit (the raw products take any n) */
    static const size_t BIG_SIZES[16] = {129, 130, 131, 160, 192, 200, 255, 256,
                                         257, 300, 384, 511, 512, 513, 777, 1000};
    uint8_t nb = fz_byte(&in);
    size_t n = nb >= 224 ? BIG_SIZES[(nb - 224) % 16] : 1 + nb % FZ_MAX, m = fz_size(&in, FZ_MAX);
    uint64_t *a = LIMBS(n), *b = LIMBS(n), *c = LIMBS(m), s;
    fz_limbs(&in, a, n);
    fz_limbs(&in, b, n);
    fz_limbs(&in, c, m);
    fz_limbs(&in, &s, 1);
    uint64_t cond = conds[fz_byte(&in) % 8];
    fz_note_n(n);
    fz_note(0, "a", a, n);
    fz_note(1, "b", b, n);
    fz_note(2, "c", c, m);
    fz_note(4, "s", &s, 1);

    mpz_t A, B, C, Z;
    mpz_inits(A, B, C, Z, NULL);
    fz_to_mpz(A, a, n);
    fz_to_mpz(B, b, n);
    fz_to_mpz(C, c, m);
    uint64_t *r = LIMBS(2 * n), *t = LIMBS(n), *rm = LIMBS(n + m), hi;
    fz_note(5, "r", r, n);

    /* add_n, and r aliasing a, b, both */
    mpz_add(Z, A, B);
    hi = tabai_add_n(r, a, b, n);
    FZ_CHECK(eq_hi(r, n, hi, Z), "tabai_add_n != a + b");
    memcpy(t, a, n * 8);
    FZ_CHECK(tabai_add_n(t, t, b, n) == hi && !memcmp(t, r, n * 8), "tabai_add_n, r == a");
    memcpy(t, b, n * 8);
    FZ_CHECK(tabai_add_n(t, a, t, n) == hi && !memcmp(t, r, n * 8), "tabai_add_n, r == b");
    memcpy(t, a, n * 8);
    mpz_add(Z, A, A);
    hi = tabai_add_n(t, t, t, n);
    FZ_CHECK(eq_hi(t, n, hi, Z), "tabai_add_n, r == a == b");

    /* sub_n: r - bw 2^(64n) == a - b */
    mpz_sub(Z, A, B);
    hi = tabai_sub_n(r, a, b, n);
    mpz_fdiv_r_2exp(Z, Z, 64 * n);
    FZ_CHECK(fz_eq_mpz(r, n, Z) && hi == (mpz_cmp(A, B) < 0), "tabai_sub_n != a - b");
    memcpy(t, a, n * 8);
    FZ_CHECK(tabai_sub_n(t, t, b, n) == hi && !memcmp(t, r, n * 8), "tabai_sub_n, r == a");
    memcpy(t, b, n * 8);
    FZ_CHECK(tabai_sub_n(t, a, t, n) == hi && !memcmp(t, r, n * 8), "tabai_sub_n, r == b");

    /* mul_n, a == b, sqr_n */
    fz_note(5, "r", r, 2 * n);
    mpz_mul(Z, A, B);
    tabai_mul_n(r, a, b, n);
    FZ_CHECK(fz_eq_mpz(r, 2 * n, Z), "tabai_mul_n != a * b");
    mpz_mul(Z, A, A);
    tabai_mul_n(r, a, a, n);
    FZ_CHECK(fz_eq_mpz(r, 2 * n, Z), "tabai_mul_n(a, a) != a^2");
    memset(r, 0x3c, 2 * n * 8);
    tabai_sqr_n(r, a, n);
    FZ_CHECK(fz_eq_mpz(r, 2 * n, Z), "tabai_sqr_n != a^2");

    /* mul, both orders */
    fz_note(5, "r", rm, n + m);
    mpz_mul(Z, A, C);
    tabai_mul(rm, a, n, c, m);
    FZ_CHECK(fz_eq_mpz(rm, n + m, Z), "tabai_mul(a[n], c[m]) != a * c");
    memset(rm, 0xc3, (n + m) * 8);
    tabai_mul(rm, c, m, a, n);
    FZ_CHECK(fz_eq_mpz(rm, n + m, Z), "tabai_mul(c[m], a[n]) != a * c");

    /* mul_1 and r == a */
    fz_note(5, "r", r, n);
    mpz_mul_ui(Z, A, s);
    hi = tabai_mul_1(r, a, n, s);
    FZ_CHECK(eq_hi(r, n, hi, Z), "tabai_mul_1 != a * s");
    memcpy(t, a, n * 8);
    FZ_CHECK(tabai_mul_1(t, t, n, s) == hi && !memcmp(t, r, n * 8), "tabai_mul_1, r == a");

    /* addmul_1: r = b + a s, and r == a: a (s + 1) */
    mpz_add(Z, Z, B);
    memcpy(r, b, n * 8);
    hi = tabai_addmul_1(r, a, n, s);
    FZ_CHECK(eq_hi(r, n, hi, Z), "tabai_addmul_1 != b + a * s");
    mpz_mul_ui(Z, A, s);
    mpz_add(Z, Z, A);
    memcpy(t, a, n * 8);
    hi = tabai_addmul_1(t, t, n, s);
    FZ_CHECK(eq_hi(t, n, hi, Z), "tabai_addmul_1, r == a != a * (s + 1)");

    /* cmp_n */
    FZ_CHECK(tabai_cmp_n(a, b, n) == sgn(mpz_cmp(A, B)), "tabai_cmp_n(a, b)");
    FZ_CHECK(tabai_cmp_n(b, a, n) == sgn(mpz_cmp(B, A)), "tabai_cmp_n(b, a)");
    FZ_CHECK(tabai_cmp_n(a, a, n) == 0, "tabai_cmp_n(a, a)");

    /* cnd_select_n, any non-zero cond counts as 1; r == a, r == b */
    const uint64_t *sel = cond ? a : b;
    tabai_cnd_select_n(r, cond, a, b, n);
    FZ_CHECK(!memcmp(r, sel, n * 8), "tabai_cnd_select_n");
    memcpy(t, a, n * 8);
    tabai_cnd_select_n(t, cond, t, b, n);
    FZ_CHECK(!memcmp(t, sel, n * 8), "tabai_cnd_select_n, r == a");
    memcpy(t, b, n * 8);
    tabai_cnd_select_n(t, cond, a, t, n);
    FZ_CHECK(!memcmp(t, sel, n * 8), "tabai_cnd_select_n, r == b");

    /* cnd_sub_n: cond ? a - b : a, borrow 0 if !cond; r == a */
    if (cond) {
        mpz_sub(Z, A, B);
        mpz_fdiv_r_2exp(Z, Z, 64 * n);
    } else {
        mpz_set(Z, A);
    }
    uint64_t want_bw = cond ? (uint64_t)(mpz_cmp(A, B) < 0) : 0;
    hi = tabai_cnd_sub_n(r, cond, a, b, n);
    FZ_CHECK(fz_eq_mpz(r, n, Z) && hi == want_bw, "tabai_cnd_sub_n");
    memcpy(t, a, n * 8);
    FZ_CHECK(tabai_cnd_sub_n(t, cond, t, b, n) == want_bw && fz_eq_mpz(t, n, Z),
             "tabai_cnd_sub_n, r == a");
    memcpy(t, b, n * 8);
    FZ_CHECK(tabai_cnd_sub_n(t, cond, a, t, n) == want_bw && fz_eq_mpz(t, n, Z),
             "tabai_cnd_sub_n, r == b");

    fz_note(5, NULL, NULL, 0);
    check_bytes(&in, a, n, A);

    mpz_clears(A, B, C, Z, NULL);
    free(a);
    free(b);
    free(c);
    free(r);
    free(t);
    free(rm);
    return 0;
}
