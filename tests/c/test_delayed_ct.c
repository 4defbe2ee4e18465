/* Constant-time check of the delayed-carry kernels (secp256k1's method): run under valgrind
 * memcheck with the operands marked undefined; any branch or memory address that depends on
 * them is reported and fails the test (--error-exitcode). Results are checked against GMP
 * after marking them defined again. The AVX2/FMA kernels are called directly when the
 * (valgrind-reported) CPU has AVX2 and FMA, since valgrind hides ADX and so caps the tier. */
#include <gmp.h>
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "../../src/delayed/delayed.h"
#include "tabai.h"

typedef void (*mul_fn)(uint64_t *, const uint64_t *, const uint64_t *, size_t);

static int failures;

int main(void) {
    unsigned f = tabai_cpu_features();
    int avx2 = (f & TABAI_CPU_AVX2) && (f & TABAI_CPU_FMA);
    struct {
        const char *name;
        mul_fn fn;
        int on;
    } ks[] = {{"c16", tabai_mul_n_c16_generic, 1},
              {"simd29_sse2", tabai_mul_n_simd29_sse2, 1},
              {"simd29_avx2", tabai_mul_n_simd29_avx2, avx2},
              {"fp64", tabai_mul_n_fp64_generic, 1},
              {"fp64_vec", tabai_mul_n_fp64_avx2, avx2},
              {"fp64_fma", tabai_mul_n_fp64fma_avx2, avx2},
              {"fp64_fma_vec", tabai_mul_n_fp64fma_vec_avx2, avx2}};
    static const size_t sizes[] = {1, 3, 4, 10, 16, 33, 64, 128};
    uint64_t a[TABAI_MAX_LIMBS], b[TABAI_MAX_LIMBS], r[2 * TABAI_MAX_LIMBS], want[2 * TABAI_MAX_LIMBS];
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (size_t i = 0; i < n; i++) {
            a[i] = x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            b[i] = x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        }
        mpn_mul_n((mp_limb_t *)want, (const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
        for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
            if (!ks[k].on) continue;
            VALGRIND_MAKE_MEM_UNDEFINED(a, n * 8);
            VALGRIND_MAKE_MEM_UNDEFINED(b, n * 8);
            ks[k].fn(r, a, b, n);
            VALGRIND_MAKE_MEM_DEFINED(a, n * 8);
            VALGRIND_MAKE_MEM_DEFINED(b, n * 8);
            VALGRIND_MAKE_MEM_DEFINED(r, 2 * n * 8);
            if (memcmp(r, want, 2 * n * 8)) {
                printf("FAIL %s n=%zu\n", ks[k].name, n);
                failures++;
            }
        }
    }
    /* carry-save Ohta and the digit-serial Montgomery: the modulus is public, a and b secret */
    static const unsigned bitsz[] = {220, 256, 521, 1024};
    for (size_t si = 0; si < 4; si++) {
        size_t n = (bitsz[si] + 63) / 64;
        uint64_t p[TABAI_MAX_LIMBS] = {0};
        for (size_t i = 0; i < n; i++) p[i] = x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        if (bitsz[si] % 64) p[n - 1] &= ((uint64_t)1 << (bitsz[si] % 64)) - 1;
        p[n - 1] |= (uint64_t)1 << ((bitsz[si] - 1) % 64);
        p[0] |= 1;
        tabai_ohta ctx;
        (void)!tabai_ohta_init(&ctx, p, n);
        for (size_t i = 0; i < n; i++) {
            a[i] = p[i] >> 1;
            b[i] = (p[i] >> 2) ^ 0x5555;
        }
        b[n - 1] = p[n - 1] >> 2;
        uint64_t r2[TABAI_MAX_LIMBS];
        (void)!tabai_ohta_mul_with(TABAI_KERNEL_AUTO, &ctx, r2, a, b); /* reference (checks ranges) */
        void (*cs[3])(const tabai_ohta *, uint64_t *, const uint64_t *, const uint64_t *) = {
            tabai_ohta_mul_cs2_generic, tabai_ohta_mul_cs3_generic, tabai_ohta_mul_cs4_generic};
        for (int k = 0; k < 4; k++) {
            VALGRIND_MAKE_MEM_UNDEFINED(a, n * 8);
            VALGRIND_MAKE_MEM_UNDEFINED(b, n * 8);
            if (k < 3) cs[k](&ctx, r, a, b);
            else tabai_mont_mul_n_rd_generic(r, a, b, ctx.p, n, tabai_ohta_cs_bits(&ctx));
            VALGRIND_MAKE_MEM_DEFINED(a, n * 8);
            VALGRIND_MAKE_MEM_DEFINED(b, n * 8);
            VALGRIND_MAKE_MEM_DEFINED(r, n * 8);
            if (k < 3 && memcmp(r, r2, n * 8)) {
                printf("FAIL carry_save k=%d bits=%u\n", k + 2, bitsz[si]);
                failures++;
            }
        }
    }
    printf("test_delayed_ct: %s (avx2 kernels %s)\n", failures ? "FAILED" : "ok",
           avx2 ? "checked" : "not available");
    return failures ? 1 : 0;
}
