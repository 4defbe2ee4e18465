/* The X25519 field GF(2^255 - 19) against GMP, at the tier in use (TABAI_CPU).
 *
 *   test_fe25519
 *
 * - every tier: the radix-2^51 twins (tabai_fe25519_{mul,sqr}_r51_generic, src/ec/x25519.c)
 *   on any 256-bit input: the result must be exactly a b mod p (resp. a^2 mod p) in [0, p);
 *   and the inversion of the bmi2 and ifma ladders (tabai_fe25519_invert_safegcd_n4) on
 *   a mod p: exactly a^-1 mod p (0 for 0);
 * - tier bmi2 and above: the 4 x 64-bit operations (src/ec/bmi2/x25519_bmi2.c): mul, sqr,
 *   add/sub, b + 121665 a and the final reduction, on lazily reduced inputs
 *   anywhere in [0, 2^256); each result must be congruent to the exact value mod p, and the
 *   products and squares below 2^255 + 19 * 79 (the bound the reduction promises);
 * - tier ifma: the 4-way radix-2^51 product (src/ec/ifma/x25519_ifma.c) on the lanes
 *   (a b, b a, a a, b b): each congruent to the exact value and below 2^255 + 2^220 (five
 *   carried digits, each < 2^51 + 2^15);
 * - inputs: the edge values 0, 1, 2, 19, 38, p - 1, p, p + 1, 2^255 - 20 .. 2^255 - 1, 2^255,
 *   2^255 + 18, 2^256 - 39, 2^256 - 38, 2^256 - 1, every pair of them; then uniform and the
 *   limb classes of testutil (runs, edge limbs, all ones, ...), TABAI_TEST_ITERS scaling. */
#include <stdio.h>
#include <string.h>

#include "ec/x25519.h"
#include "testutil.h"

static mpz_t P, M, T;

/* z = a[4] */
static void to_z(mpz_t z, const uint64_t a[4]) { tu_to_mpz(z, a, 4); }

/* 1 if r[4] == (z mod p) exactly */
static int eq_reduced(const uint64_t r[4], const mpz_t z) {
    mpz_mod(T, z, P);
    return tu_eq_mpz(r, 4, T);
}

/* 1 if r[4] = z (mod p) */
static int congruent(const uint64_t r[4], const mpz_t z) {
    to_z(T, r);
    mpz_sub(T, T, z);
    return mpz_divisible_p(T, P);
}

/* 1 if r[4] < 2^255 + 2^220 (the ifma product's carried digits) */
static int below_r51(const uint64_t r[4]) {
    to_z(T, r);
    mpz_set_ui(M, 1);
    mpz_mul_2exp(M, M, 220);
    mpz_setbit(M, 255);
    return mpz_cmp(T, M) < 0;
}

/* 1 if r[4] < 2^255 + 19 * 79 */
static int below_bound(const uint64_t r[4]) {
    to_z(T, r);
    mpz_set_ui(M, 1);
    mpz_mul_2exp(M, M, 255);
    mpz_add_ui(M, M, 19 * 79);
    return mpz_cmp(T, M) < 0;
}

static void check_pair(const uint64_t a[4], const uint64_t b[4], int n4, int x4) {
    uint64_t r[4], s[4];
    uint8_t bytes[32];
    mpz_t za, zb, w;
    mpz_inits(za, zb, w, NULL);
    to_z(za, a), to_z(zb, b);

    mpz_mul(w, za, zb);
    tabai_fe25519_mul_r51_generic(r, a, b);
    TU_CHECK(eq_reduced(r, w), "mul_r51_generic = a b mod p", 4, TU_V("a", a, 4), TU_V("b", b, 4),
             TU_V("r", r, 4));
    mpz_mul(w, za, za);
    tabai_fe25519_sqr_r51_generic(r, a);
    TU_CHECK(eq_reduced(r, w), "sqr_r51_generic = a^2 mod p", 4, TU_V("a", a, 4),
             TU_V("r", r, 4));

    if (n4) {
        mpz_mul(w, za, zb);
        tabai_fe25519_mul_n4_bmi2(r, a, b);
        TU_CHECK(congruent(r, w) && below_bound(r), "mul_n4_bmi2 = a b mod p, < 2^255 + 1501",
                 4, TU_V("a", a, 4), TU_V("b", b, 4), TU_V("r", r, 4));
        mpz_mul(w, za, za);
        tabai_fe25519_sqr_n4_bmi2(r, a);
        TU_CHECK(congruent(r, w) && below_bound(r), "sqr_n4_bmi2 = a^2 mod p, < 2^255 + 1501",
                 4, TU_V("a", a, 4), TU_V("r", r, 4));
        tabai_fe25519_addsub_n4_bmi2(r, s, a, b);
        mpz_add(w, za, zb);
        TU_CHECK(congruent(r, w), "addsub_n4_bmi2: a + b mod p", 4, TU_V("a", a, 4),
                 TU_V("b", b, 4), TU_V("s", r, 4));
        mpz_sub(w, za, zb);
        TU_CHECK(congruent(s, w), "addsub_n4_bmi2: a - b mod p", 4, TU_V("a", a, 4),
                 TU_V("b", b, 4), TU_V("d", s, 4));
        tabai_fe25519_mul_a24_add_n4_bmi2(r, a, b);
        mpz_mul_ui(w, za, 121665);
        mpz_add(w, w, zb);
        TU_CHECK(congruent(r, w), "mul_a24_add_n4_bmi2 = b + 121665 a mod p", 4,
                 TU_V("a", a, 4), TU_V("b", b, 4), TU_V("r", r, 4));
        tabai_fe25519_to_bytes_n4_bmi2(bytes, a);
        memcpy(r, bytes, 32); /* x86-64: little-endian limbs */
        TU_CHECK(eq_reduced(r, za), "to_bytes_n4_bmi2 = a mod p in [0, p)", 4, TU_V("a", a, 4),
                 TU_V("r", r, 4));
    }
    if (x4) {
        uint64_t xa[4][4], xb[4][4], xr[4][4];
        memcpy(xa[0], a, 32), memcpy(xb[0], b, 32);
        memcpy(xa[1], b, 32), memcpy(xb[1], a, 32);
        memcpy(xa[2], a, 32), memcpy(xb[2], a, 32);
        memcpy(xa[3], b, 32), memcpy(xb[3], b, 32);
        tabai_fe25519_mul_r51n5_mb4_ifma(xr, xa, xb);
        for (int l = 0; l < 4; l++) {
            mpz_t zx, zy;
            mpz_inits(zx, zy, NULL);
            to_z(zx, xa[l]), to_z(zy, xb[l]);
            mpz_mul(w, zx, zy);
            TU_CHECK(congruent(xr[l], w) && below_r51(xr[l]),
                     "mul_r51n5_mb4_ifma = a b mod p, < 2^255 + 2^220", 4, TU_V("a", xa[l], 4),
                     TU_V("b", xb[l], 4), TU_V("r", xr[l], 4));
            mpz_clears(zx, zy, NULL);
        }
    }
    mpz_clears(za, zb, w, NULL);
}

static void check_invert(const uint64_t a[4]) {
    uint64_t r[4], x[4];
    mpz_t za, w;
    mpz_inits(za, w, NULL);
    to_z(za, a);
    mpz_mod(za, za, P);
    tu_from_mpz(x, 4, za);
    tabai_fe25519_invert_safegcd_n4(r, x);
    if (mpz_sgn(za) == 0) {
        mpz_set_ui(w, 0);
    } else {
        mpz_invert(w, za, P);
    }
    TU_CHECK(eq_reduced(r, w), "invert_safegcd_n4 = a^-1 mod p in [0, p) (0 for 0)", 4,
             TU_V("a", x, 4), TU_V("r", r, 4));
    mpz_clears(za, w, NULL);
}

/* a = z (z in [0, 2^256)) */
static void from_z(uint64_t a[4], const mpz_t z) { tu_from_mpz(a, 4, z); }

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    mpz_inits(P, M, T, NULL);
    mpz_set_ui(P, 1);
    mpz_mul_2exp(P, P, 255);
    mpz_sub_ui(P, P, 19);
    int n4 = tabai_cpu_tier() >= TABAI_TIER_BMI2;
    int x4 = tabai_cpu_tier() >= TABAI_TIER_IFMA;

    /* the edge values */
    enum { NE = 40 };
    uint64_t edge[NE][4];
    int ne = 0;
    mpz_t z, two255, two256;
    mpz_inits(z, two255, two256, NULL);
    mpz_set_ui(two255, 1), mpz_mul_2exp(two255, two255, 255);
    mpz_set_ui(two256, 1), mpz_mul_2exp(two256, two256, 256);
    static const unsigned long small[] = {0, 1, 2, 19, 38};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        mpz_set_ui(z, small[i]), from_z(edge[ne++], z);
    mpz_sub_ui(z, P, 1), from_z(edge[ne++], z); /* p - 1 */
    from_z(edge[ne++], P);
    mpz_add_ui(z, P, 1), from_z(edge[ne++], z); /* p + 1 */
    for (int d = 1; d <= 20; d += 3) /* 2^255 - 20 .. 2^255 - 1 */
        mpz_sub_ui(z, two255, (unsigned long)d), from_z(edge[ne++], z);
    mpz_sub_ui(z, two255, 20), from_z(edge[ne++], z);
    from_z(edge[ne++], two255);
    mpz_add_ui(z, two255, 18), from_z(edge[ne++], z); /* 2^255 + 18 */
    static const unsigned long top[] = {39, 38, 37, 20, 19, 1};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) /* 2^256 - c */
        mpz_sub_ui(z, two256, top[i]), from_z(edge[ne++], z);
    mpz_mul_ui(z, P, 2), from_z(edge[ne++], z);                        /* 2p */
    mpz_mul_ui(z, P, 2), mpz_sub_ui(z, z, 1), from_z(edge[ne++], z);   /* 2p - 1 */
    if (ne > NE) return 1;
    for (int i = 0; i < ne; i++) {
        for (int j = 0; j < ne; j++) check_pair(edge[i], edge[j], n4, x4);
        check_invert(edge[i]);
    }

    /* random inputs of every limb class */
    size_t iters = tu_iters(20000);
    for (size_t it = 0; it < iters; it++) {
        uint64_t a[4], b[4];
        tu_fill(a, 4, (int)(it % TU_CLASS_COUNT));
        tu_fill_any(b, 4);
        if (it & 1) memcpy(b, edge[tu_below((uint64_t)ne)], sizeof b);
        check_pair(a, b, n4, x4);
        if (it % 64 == 0) check_invert(a);
    }
    printf("test_fe25519: %d edge values (every pair), %zu random pairs; 4 x 64-bit path %s, "
           "4-way ifma product %s\n",
           ne, iters, n4 ? "tested" : "not at this tier", x4 ? "tested" : "not at this tier");
    mpz_clears(z, two255, two256, P, M, T, NULL);
    return tu_finish();
}
