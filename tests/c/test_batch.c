/* The batch API (issue 4): tabai_modmul_batch, tabai_powmod_batch, tabai_rsa_private_batch
 * against GMP, through every multi-buffer kernel the CPU has, through the scalar loop
 * (kernel NULL) and through the public functions at the tier in use (TABAI_CPU): counts that
 * are and are not multiples of the lane count, each operation its own modulus (mixed sizes
 * in one batch), worst-case operands, aliased outputs, every error path (nothing written).
 * RSA: keys made with GMP (primes with the top bit set) and the shipped RSA-2048/3072/4096
 * test keys, every result checked against mpz_powm(c, d, N) and by the public operation
 * m^e mod N == c. */
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
                                             (const uint64_t *const *)bt.m, n);
    TU_CHECK(s == TABAI_OK, "powmod_batch status", n, TU_NOV);
    for (size_t i = 0; i < count; i++) {
        TU_CHECK(tu_eq_mpz(out[i], n, want[i]), kname(k), n, TU_V("m", bt.m[i], n));
        mpz_clear(want[i]);
    }
    mpz_clears(b, e, m, NULL);
    batch_free(&bt);
}

/* ---- RSA ---- */

typedef struct rsa {
    size_t h;
    mpz_t p, q, n, d, e;
    tabai_rsa_key key;
} rsa;

static void random_prime_top(mpz_t p, size_t bits) {
    do {
        uint64_t l[TABAI_MAX_LIMBS / 2];
        for (size_t i = 0; i < bits / 64; i++) l[i] = tu_rand();
        tu_to_mpz(p, l, bits / 64);
        mpz_setbit(p, bits - 1);
        mpz_setbit(p, bits - 2); /* p q has exactly 2 bits bits */
        mpz_nextprime(p, p);
    } while (mpz_sizeinbase(p, 2) != bits);
}

/* a key from k->p, k->q (h limbs each) and e = 65537; 0 if e is not invertible */
static int rsa_setup(rsa *k, size_t h) {
    k->h = h;
    mpz_t phi, t, dp, dq, qinv;
    mpz_inits(phi, t, dp, dq, qinv, NULL);
    mpz_set_ui(k->e, 65537);
    mpz_sub_ui(phi, k->p, 1);
    mpz_sub_ui(t, k->q, 1);
    mpz_mul(phi, phi, t);
    if (!mpz_cmp(k->p, k->q) || !mpz_invert(k->d, k->e, phi)) {
        mpz_clears(phi, t, dp, dq, qinv, NULL);
        return 0;
    }
    mpz_mul(k->n, k->p, k->q);
    mpz_sub_ui(t, k->p, 1);
    mpz_mod(dp, k->d, t);
    mpz_sub_ui(t, k->q, 1);
    mpz_mod(dq, k->d, t);
    mpz_invert(qinv, k->q, k->p);
    uint64_t P[64], Q[64], DP[64], DQ[64], QI[64];
    tu_from_mpz(P, h, k->p);
    tu_from_mpz(Q, h, k->q);
    tu_from_mpz(DP, h, dp);
    tu_from_mpz(DQ, h, dq);
    tu_from_mpz(QI, h, qinv);
    tabai_status s = tabai_rsa_key_init(&k->key, P, Q, DP, DQ, QI, h);
    TU_CHECK(s == TABAI_OK, "rsa_key_init", h, TU_NOV);
    /* the key init refuses a wrong qinv, dp >= p, an even or short prime */
    tabai_rsa_key junk;
    memset(&junk, 0x5a, sizeof junk);
    QI[0] ^= 2;
    TU_CHECK(tabai_rsa_key_init(&junk, P, Q, DP, DQ, QI, h) == TABAI_ERR_RANGE, "bad qinv", h, TU_NOV);
    QI[0] ^= 2;
    TU_CHECK(tabai_rsa_key_init(&junk, P, Q, P, DQ, QI, h) == TABAI_ERR_RANGE, "dp = p", h, TU_NOV);
    P[0] ^= 1;
    TU_CHECK(tabai_rsa_key_init(&junk, P, Q, DP, DQ, QI, h) == TABAI_ERR_MODULUS, "even p", h, TU_NOV);
    P[0] ^= 1;
    P[h - 1] >>= 1;
    TU_CHECK(tabai_rsa_key_init(&junk, P, Q, DP, DQ, QI, h) == TABAI_ERR_MODULUS, "short p", h, TU_NOV);
    TU_CHECK(tabai_rsa_key_init(&junk, P, Q, DP, DQ, QI, 0) == TABAI_ERR_SIZE, "h = 0", h, TU_NOV);
    TU_CHECK(tabai_rsa_key_init(NULL, P, Q, DP, DQ, QI, h) == TABAI_ERR_NULL, "NULL key", h, TU_NOV);
    mpz_clears(phi, t, dp, dq, qinv, NULL);
    return 1;
}

/* a key of two random primes of 64h bits each (top two bits set) */
static void rsa_make(rsa *k, size_t h) {
    mpz_inits(k->p, k->q, k->n, k->d, k->e, NULL);
    do {
        random_prime_top(k->p, 64 * h);
        random_prime_top(k->q, 64 * h);
    } while (!rsa_setup(k, h));
}

/* the shipped test keys' primes (data/keys, as embedded in bench/moduli.h) */
static void rsa_shipped(rsa *k, const uint64_t *p, const uint64_t *q, size_t h) {
    mpz_inits(k->p, k->q, k->n, k->d, k->e, NULL);
    tu_to_mpz(k->p, p, h);
    tu_to_mpz(k->q, q, h);
    if (mpz_cmp(k->p, k->q) < 0) mpz_swap(k->p, k->q); /* either order works; keep p > q */
    TU_CHECK(rsa_setup(k, h), "shipped key: e = 65537 invertible", h, TU_NOV);
}

static void check_rsa(const tabai_mb_kernel *k, rsa *keys, size_t nkeys, size_t count) {
    uint64_t *c[MAXC], *m[MAXC];
    const tabai_rsa_key *kp[MAXC];
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    for (size_t i = 0; i < count; i++) {
        rsa *ky = &keys[tu_below(nkeys)];
        size_t n = ky->key.n;
        kp[i] = &ky->key;
        c[i] = calloc(n, 8);
        m[i] = (i % 3 == 1) ? c[i] : calloc(n, 8); /* some aliased */
        switch (tu_below(4)) {
        case 0: mpz_sub_ui(x, ky->n, 1 + tu_below(3)); break; /* N-1, N-2, N-3 */
        case 1: mpz_set_ui(x, tu_below(3)); break;            /* 0, 1, 2 */
        default: tu_fill(c[i], n, TU_UNIFORM); tu_to_mpz(x, c[i], n); mpz_mod(x, x, ky->n);
        }
        tu_from_mpz(c[i], n, x);
    }
    mpz_t want[MAXC], cz[MAXC];
    for (size_t i = 0; i < count; i++) {
        rsa *ky = (rsa *)((char *)kp[i] - offsetof(rsa, key));
        mpz_inits(want[i], cz[i], NULL);
        tu_to_mpz(x, c[i], kp[i]->n);
        mpz_set(cz[i], x); /* c[i] may be overwritten (m[i] == c[i]) */
        mpz_powm(want[i], x, ky->d, ky->n);
    }
    tabai_status s = tabai_rsa_private_batch_with(k, count, m, (const uint64_t *const *)c, kp);
    TU_CHECK(s == TABAI_OK, "rsa_private_batch", count, TU_NOV);
    for (size_t i = 0; i < count; i++) {
        rsa *ky = (rsa *)((char *)kp[i] - offsetof(rsa, key));
        size_t n = kp[i]->n;
        TU_CHECK(tu_eq_mpz(m[i], n, want[i]), kname(k), n, TU_NOV);
        tu_to_mpz(y, m[i], n); /* the public operation gives c back */
        mpz_powm(y, y, ky->e, ky->n);
        TU_CHECK(!mpz_cmp(y, cz[i]), "m^e mod N == c", n, TU_NOV);
        mpz_clears(want[i], cz[i], NULL);
        if (m[i] != c[i]) free(m[i]);
        free(c[i]);
    }
    mpz_clears(x, y, NULL);
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
    TU_CHECK(tabai_powmod_batch(1, rp, ap, NULL, 64, mp, n) == TABAI_ERR_NULL, "e NULL", n, TU_NOV);
    TU_CHECK(tabai_powmod_batch(1, rp, ap, ep, 64 * TABAI_MAX_LIMBS * 2 + 1, mp, n) ==
                 TABAI_ERR_SIZE, "ebits", n, TU_NOV);
    TU_CHECK(tabai_powmod_batch(1, rp, bigp, ep, 64, mp, n) == TABAI_ERR_RANGE, "b >= m", n, TU_NOV);
    TU_CHECK(tabai_powmod_batch(1, rp, ap, ep, 64, evp, n) == TABAI_ERR_MODULUS, "even m", n, TU_NOV);
    TU_CHECK(tu_eq_n(r, r0, n), "nothing written on error", n, TU_NOV);
    /* ebits == 0 with e NULL: 1 mod m */
    TU_CHECK(tabai_powmod_batch(1, rp, ap, NULL, 0, mp, n) == TABAI_OK && r[0] == 1 && !r[1],
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
    static const size_t hs[] = {1, 2, 4, 8, 16};
    enum { NRAND = 5, NKEYS = 8 };
    rsa keys[NKEYS];
    for (size_t i = 0; i < NRAND; i++) rsa_make(&keys[i], hs[i]);
    /* the shipped RSA-2048, -3072 and -4096 keys */
    rsa_shipped(&keys[5], bench_modulus_rsa2048_p, bench_modulus_rsa2048_q, 16);
    rsa_shipped(&keys[6], bench_modulus_rsa3072_p, bench_modulus_rsa3072_q, 24);
    rsa_shipped(&keys[7], bench_modulus_rsa4096_p, bench_modulus_rsa4096_q, 32);
    for (size_t ki = 0; ki <= nk; ki++) {
        const tabai_mb_kernel *k = ki < nk ? ks[ki] : tabai_mb_kernel_active();
        for (size_t i = 0; i < NKEYS; i++) /* one size; the big shipped keys in small batches */
            check_rsa(k, &keys[i], 1, 1 + tu_below(i < NRAND ? MAXC : 2));
        check_rsa(k, keys, NRAND + 1, 1 + tu_below(MAXC)); /* mixed sizes in one batch */
    }
    /* RSA error paths */
    uint64_t big[32];
    memset(big, 0xff, sizeof big);
    uint64_t *mo[1] = {big};
    const uint64_t *co[1] = {big};
    const tabai_rsa_key *kk[1] = {&keys[4].key};
    TU_CHECK(tabai_rsa_private_batch(1, mo, co, kk) == TABAI_ERR_RANGE, "c >= N", 32, TU_NOV);
    TU_CHECK(big[0] == ~0ull, "nothing written", 32, TU_NOV);
    TU_CHECK(tabai_rsa_private_batch(1, mo, co, NULL) == TABAI_ERR_NULL, "key NULL", 32, TU_NOV);
    for (size_t i = 0; i < NKEYS; i++)
        mpz_clears(keys[i].p, keys[i].q, keys[i].n, keys[i].d, keys[i].e, NULL);
    return tu_finish();
}
