/* The batch API: tabai_modmul_batch, tabai_powmod_batch (1 to 3 threads)
 * against GMP, through every multi-buffer kernel the CPU has, through the scalar loop
 * (kernel NULL) and through the public functions at the tier in use (TABAI_CPU): counts that
 * are and are not multiples of the lane count, each operation its own modulus (mixed sizes
 * in one batch), worst-case operands, aliased outputs, every error path (nothing written).
 * RSA has its own test (test_rsa.c). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/moduli.h"
#include "mb/mb.h"
#include "testutil.h"

#define MAXC 19

typedef struct batch {
    size_t count, n;
    uint64_t *r[MAXC], *a[MAXC], *b[MAXC], *m[MAXC], *e[MAXC];
} batch;

static void batch_make(batch *bt, size_t count, size_t n, int mixed) {
    bt->count = count;
    bt->n = n;
    for (size_t i = 0; i < count; i++) {
        bt->r[i] = calloc(n, 8);
        bt->a[i] = calloc(n, 8);
        bt->b[i] = calloc(n, 8);
        bt->m[i] = calloc(n, 8);
        bt->e[i] = calloc(n, 8);
        /* mixed: moduli of 1..n limbs in one batch */
        size_t mn = mixed ? 1 + tu_below(n) : n;
        tu_modulus(bt->m[i], mn, (int)tu_below(TU_MOD_COUNT), TU_ODD);
        tu_operand(bt->a[i], bt->m[i], mn, (int)tu_below(TU_OP_COUNT));
        tu_operand(bt->b[i], bt->m[i], mn, (int)tu_below(TU_OP_COUNT));
        tu_fill_any(bt->e[i], n);
    }
}

static void batch_free(batch *bt) {
    for (size_t i = 0; i < bt->count; i++) {
        free(bt->r[i]);
        free(bt->a[i]);
        free(bt->b[i]);
        free(bt->m[i]);
        free(bt->e[i]);
    }
}

static const char *kname(const tabai_mb_kernel *k) { return k ? k->name : "scalar"; }

static void check_modmul(const tabai_mb_kernel *k, size_t count, size_t n, int mixed) {
    batch bt;
    batch_make(&bt, count, n, mixed);
    int alias = (int)tu_below(3); /* 0: none, 1: r = a, 2: r = b */
    uint64_t *const *out = alias == 1 ? bt.a : alias == 2 ? bt.b : bt.r;
    mpz_t a, b, m, x;
    mpz_inits(a, b, m, x, NULL);
    mpz_t want[MAXC];
    for (size_t i = 0; i < count; i++) {
        mpz_init(want[i]);
        tu_to_mpz(a, bt.a[i], n);
        tu_to_mpz(b, bt.b[i], n);
        tu_to_mpz(m, bt.m[i], n);
        mpz_mul(want[i], a, b);
        mpz_mod(want[i], want[i], m);
    }
    tabai_status s = tabai_modmul_batch_with(k, count, out, (const uint64_t *const *)bt.a,
                                             (const uint64_t *const *)bt.b,
                                             (const uint64_t *const *)bt.m, n);
    TU_CHECK(s == TABAI_OK, "modmul_batch status", n, TU_NOV);
    for (size_t i = 0; i < count; i++) {
        TU_CHECK(tu_eq_mpz(out[i], n, want[i]), kname(k), n, TU_V("m", bt.m[i], n));
        mpz_clear(want[i]);
    }
    mpz_clears(a, b, m, x, NULL);
    batch_free(&bt);
}

static void check_powmod(const tabai_mb_kernel *k, size_t count, size_t n, size_t ebits,
                         int mixed) {
    batch bt;
    batch_make(&bt, count, n, mixed);
    int alias = (int)tu_below(2);
    uint64_t *const *out = alias ? bt.b : bt.r;
    mpz_t b, e, m, want[MAXC];
    mpz_inits(b, e, m, NULL);
    for (size_t i = 0; i < count; i++) {
        mpz_init(want[i]);
        tu_to_mpz(b, bt.b[i], n);
        tu_to_mpz(e, bt.e[i], n);
        mpz_fdiv_r_2exp(e, e, ebits);
        tu_to_mpz(m, bt.m[i], n);
        mpz_powm(want[i], b, e, m);
    }
    tabai_status s = tabai_powmod_batch_with(k, count, out, (const uint64_t *const *)bt.b,
                                             (const uint64_t *const *)bt.e, ebits,
                                             (const uint64_t *const *)bt.m, n,
                                             1 + (unsigned)tu_below(3));
    TU_CHECK(s == TABAI_OK, "powmod_batch status", n, TU_NOV);
    for (size_t i = 0; i < count; i++) {
        TU_CHECK(tu_eq_mpz(out[i], n, want[i]), kname(k), n, TU_V("m", bt.m[i], n));
        mpz_clear(want[i]);
    }
    mpz_clears(b, e, m, NULL);
    batch_free(&bt);
}

/* ---- errors: documented status, nothing written ---- */
static void check_errors(void) {
    const size_t n = 4;
    uint64_t m[4] = {0xffffffffffffffc5ull, ~0ull, ~0ull, 0x7fffffffffffffffull};
    uint64_t a[4] = {5}, e[4] = {3}, r[4] = {0x1111, 0x2222, 0x3333, 0x4444}, r0[4];
    memcpy(r0, r, sizeof r);
    uint64_t *rp[1] = {r};
    const uint64_t *ap[1] = {a}, *mp[1] = {m}, *ep[1] = {e}, *np[1] = {NULL};
    uint64_t even[4] = {2, 0, 0, 1}, big[4] = {0, 0, 0, ~0ull};
    const uint64_t *evp[1] = {even}, *bigp[1] = {big};
    TU_CHECK(tabai_modmul_batch(1, rp, ap, ap, mp, 0) == TABAI_ERR_SIZE, "n = 0", n, TU_NOV);
    TU_CHECK(tabai_modmul_batch(1, rp, ap, ap, mp, TABAI_MAX_LIMBS + 1) == TABAI_ERR_SIZE, "n", n, TU_NOV);
    TU_CHECK(tabai_modmul_batch(1, NULL, ap, ap, mp, n) == TABAI_ERR_NULL, "r NULL", n, TU_NOV);
    TU_CHECK(tabai_modmul_batch(1, rp, np, ap, mp, n) == TABAI_ERR_NULL, "a[0] NULL", n, TU_NOV);
    TU_CHECK(tabai_modmul_batch(1, rp, ap, ap, evp, n) == TABAI_ERR_MODULUS, "even m", n, TU_NOV);
    TU_CHECK(tabai_modmul_batch(1, rp, bigp, ap, mp, n) == TABAI_ERR_RANGE, "a >= m", n, TU_NOV);
    TU_CHECK(tabai_modmul_batch(0, NULL, NULL, NULL, NULL, n) == TABAI_OK, "count 0", n, TU_NOV);
    TU_CHECK(tabai_powmod_batch(1, rp, ap, NULL, 64, mp, n, 1) == TABAI_ERR_NULL, "e NULL", n, TU_NOV);
    TU_CHECK(tabai_powmod_batch(1, rp, ap, ep, 64 * TABAI_MAX_LIMBS * 2 + 1, mp, n, 1) ==
                 TABAI_ERR_SIZE, "ebits", n, TU_NOV);
    TU_CHECK(tabai_powmod_batch(1, rp, bigp, ep, 64, mp, n, 1) == TABAI_ERR_RANGE, "b >= m", n, TU_NOV);
    TU_CHECK(tabai_powmod_batch(1, rp, ap, ep, 64, evp, n, 1) == TABAI_ERR_MODULUS, "even m", n, TU_NOV);
    TU_CHECK(tu_eq_n(r, r0, n), "nothing written on error", n, TU_NOV);
    /* ebits == 0 with e NULL: 1 mod m */
    TU_CHECK(tabai_powmod_batch(1, rp, ap, NULL, 0, mp, n, 1) == TABAI_OK && r[0] == 1 && !r[1],
             "ebits 0", n, TU_NOV);
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    check_errors();
    const tabai_mb_kernel *ks[8];
    size_t nk = 0;
    ks[nk++] = NULL; /* the scalar loop */
    for (const tabai_mb_kernel *k = tabai_mb_kernels; k->name; k++)
        if (tabai_mb_kernel_usable(k)) ks[nk++] = k;
    printf("kernels:");
    for (size_t i = 0; i < nk; i++) printf(" %s", kname(ks[i]));
    printf(" (public functions: %s)\n", kname(tabai_mb_kernel_active()));
    static const size_t sizes[] = {1, 2, 3, 4, 5, 6, 8, 9, 16, 17, 24, 32, 33, 48, 64, 65, 128};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        for (size_t ki = 0; ki <= nk; ki++) {
            const tabai_mb_kernel *k = ki < nk ? ks[ki] : tabai_mb_kernel_active();
            size_t it = tu_iters(n <= 16 ? 4 : 1);
            for (size_t i = 0; i < it; i++) {
                size_t count = 1 + tu_below(MAXC);
                check_modmul(k, count, n, (int)tu_below(2));
                if (n <= 32 || i == 0) {
                    size_t ebits = n <= 8 ? 1 + tu_below(64 * n) : 64 * (n > 16 ? 1 : n);
                    check_powmod(k, 1 + tu_below(n <= 16 ? MAXC : 9), n, ebits, (int)tu_below(2));
                }
            }
        }
    }
    return tu_finish();
}
