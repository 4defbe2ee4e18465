/* RSA (src/rsa): key checks (every status of -20..-26, nothing written), the private
 * operation by CRT with blinding and its check against GMP through every multi-buffer kernel
 * the CPU has, the scalar loop and the public functions, on 1 to 3 threads, single and batch,
 * mixed key sizes (including a modulus of an odd limb count), aliasing; the fault check
 * (a test hook corrupts one CRT half: TABAI_ERR_FAULT, nothing written), the blinding (two
 * operations on one input use different factors; a fresh r every 32 operations gives the
 * same results), the wipe (every block the library frees during a private operation or a
 * key setup is zero; the key after tabai_rsa_key_clear is zero), the public operation; and
 * tabai_jacobi_vartime (the DH subgroup check) against GMP's mpz_jacobi. */
#include <malloc.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsa/rsa.h"
#include "testutil.h"

/* ---- the wipe check: malloc/calloc/free of the whole program wrapped (-Wl,--wrap) ---- */
void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void __real_free(void *);
#define TRACK 4096
static struct { void *p; size_t len; } blocks[TRACK];
static int watching;           /* check frees while set */
static size_t dirty_frees, checked_frees;

static void track(void *p, size_t len) {
    if (!p) return;
    for (size_t i = 0; i < TRACK; i++)
        if (!blocks[i].p) {
            blocks[i].p = p, blocks[i].len = len;
            return;
        }
}
void *__wrap_malloc(size_t len) {
    void *p = __real_malloc(len);
    track(p, len);
    return p;
}
void *__wrap_calloc(size_t n, size_t len) {
    void *p = __real_calloc(n, len);
    track(p, n * len);
    return p;
}
void __wrap_free(void *p) {
    if (!p) return;
    for (size_t i = 0; i < TRACK; i++)
        if (blocks[i].p == p) {
            if (watching) {
                const unsigned char *b = p;
                size_t nz = 0;
                for (size_t j = 0; j < blocks[i].len; j++) nz |= b[j];
                checked_frees++;
                if (nz && getenv("RSA_DEBUG")) fprintf(stderr, "dirty block of %zu bytes\n", blocks[i].len);
                if (nz) dirty_frees++;
            }
            blocks[i].p = NULL;
            break;
        }
    __real_free(p);
}

/* ---- keys made with GMP ---- */
typedef struct rsa {
    size_t nl;
    mpz_t n, d, e, p, q, dp, dq, qi;
    uint64_t N[TABAI_MAX_LIMBS], D[TABAI_MAX_LIMBS], P[TABAI_MAX_LIMBS], Q[TABAI_MAX_LIMBS],
        DP[TABAI_MAX_LIMBS], DQ[TABAI_MAX_LIMBS], QI[TABAI_MAX_LIMBS];
    tabai_rsa_key key;
} rsa;

static void prime_bits(mpz_t p, size_t bits) {
    uint64_t l[64] = {0};
    do {
        for (size_t i = 0; i < (bits + 63) / 64; i++) l[i] = tu_rand();
        tu_to_mpz(p, l, (bits + 63) / 64);
        mpz_fdiv_r_2exp(p, p, bits);
        mpz_setbit(p, bits - 1);
        mpz_setbit(p, bits - 2);
        mpz_nextprime(p, p);
    } while (mpz_sizeinbase(p, 2) != bits);
}

/* n, d and the CRT values of k from its primes k->p, k->q and k->e (d = e^-1 mod phi);
 * 0 if e is not invertible */
static int rsa_derive(rsa *k) {
    mpz_t phi, t;
    mpz_inits(phi, t, NULL);
    mpz_sub_ui(phi, k->p, 1);
    mpz_sub_ui(t, k->q, 1);
    mpz_mul(phi, phi, t);
    int ok = mpz_cmp(k->p, k->q) && mpz_invert(k->d, k->e, phi);
    mpz_clears(phi, t, NULL);
    return ok;
}

static void rsa_finish(rsa *k, unsigned long e);

/* a key with primes of pb and qb bits, e = 65537 or 3 */
static void rsa_make(rsa *k, size_t pb, size_t qb, unsigned long e) {
    mpz_inits(k->n, k->d, k->e, k->p, k->q, k->dp, k->dq, k->qi, NULL);
    mpz_set_ui(k->e, e);
    do {
        prime_bits(k->p, pb);
        prime_bits(k->q, qb);
    } while (!rsa_derive(k));
    rsa_finish(k, e);
}

/* a shipped key (data/keys, e = 65537) from the CRT primes that bench/moduli.h holds */
static void rsa_shipped(rsa *k, const char *name_p, const char *name_q) {
    mpz_inits(k->n, k->d, k->e, k->p, k->q, k->dp, k->dq, k->qi, NULL);
    mpz_set_ui(k->e, 65537);
    const tu_real_modulus *mp = NULL, *mq = NULL;
    for (size_t i = 0; i < tu_real_moduli_count; i++) {
        if (!strcmp(tu_real_moduli[i].name, name_p)) mp = &tu_real_moduli[i];
        if (!strcmp(tu_real_moduli[i].name, name_q)) mq = &tu_real_moduli[i];
    }
    if (!mp || !mq) {
        fprintf(stderr, "test_rsa: %s or %s missing from bench/moduli.h\n", name_p, name_q);
        exit(1);
    }
    tu_to_mpz(k->p, mp->limbs, mp->n);
    tu_to_mpz(k->q, mq->limbs, mq->n);
    TU_CHECK(rsa_derive(k), name_p, mp->n, TU_NOV);
    rsa_finish(k, 65537);
}

static void rsa_finish(rsa *k, unsigned long e) {
    mpz_t t;
    mpz_init(t);
    mpz_mul(k->n, k->p, k->q);
    mpz_sub_ui(t, k->p, 1), mpz_mod(k->dp, k->d, t);
    mpz_sub_ui(t, k->q, 1), mpz_mod(k->dq, k->d, t);
    mpz_invert(k->qi, k->q, k->p);
    k->nl = (mpz_sizeinbase(k->n, 2) + 63) / 64;
    const size_t h = k->nl;
    tu_from_mpz(k->N, k->nl, k->n), tu_from_mpz(k->D, k->nl, k->d);
    tu_from_mpz(k->P, h, k->p), tu_from_mpz(k->Q, h, k->q), tu_from_mpz(k->DP, h, k->dp);
    tu_from_mpz(k->DQ, h, k->dq), tu_from_mpz(k->QI, h, k->qi);
    tabai_status s = tabai_rsa_key_init(&k->key, k->N, e, k->D, k->P, k->Q, k->DP, k->DQ, k->QI,
                                        k->nl);
    TU_CHECK(s == TABAI_OK, "rsa_key_init", k->nl, TU_NOV);
    mpz_clear(t);
}

static tabai_status init_of(const rsa *k, uint64_t e, const uint64_t *N, const uint64_t *D,
                            const uint64_t *P, const uint64_t *Q, const uint64_t *DP,
                            const uint64_t *DQ, const uint64_t *QI, size_t nl) {
    static tabai_rsa_key junk, junk0;
    memset(&junk, 0x5a, sizeof junk);
    junk0 = junk;
    tabai_status s = tabai_rsa_key_init(&junk, N, e, D, P, Q, DP, DQ, QI, nl);
    TU_CHECK(s == TABAI_OK || !memcmp(&junk, &junk0, sizeof junk), "key written on error", nl,
             TU_NOV);
    (void)k;
    return s;
}

/* every check of the key setup, each its own status */
static void check_key_errors(rsa *k) {
    const size_t nl = k->nl;
    uint64_t N[TABAI_MAX_LIMBS], D[TABAI_MAX_LIMBS], P[TABAI_MAX_LIMBS], Q[TABAI_MAX_LIMBS],
        DP[TABAI_MAX_LIMBS], DQ[TABAI_MAX_LIMBS], QI[TABAI_MAX_LIMBS];
#define RESET()                                                                               \
    memcpy(N, k->N, sizeof N), memcpy(D, k->D, sizeof D), memcpy(P, k->P, sizeof P),          \
        memcpy(Q, k->Q, sizeof Q), memcpy(DP, k->DP, sizeof DP), memcpy(DQ, k->DQ, sizeof DQ), \
        memcpy(QI, k->QI, sizeof QI)
#define EXPECT(st, what, ...)                                                                 \
    TU_CHECK(init_of(k, __VA_ARGS__) == (st), what, nl, TU_NOV)
    const uint64_t e = mpz_get_ui(k->e);
    RESET();
    EXPECT(TABAI_OK, "valid key", e, N, D, P, Q, DP, DQ, QI, nl);
    TU_CHECK(tabai_rsa_key_init(NULL, N, e, D, P, Q, DP, DQ, QI, nl) == TABAI_ERR_NULL, "NULL",
             nl, TU_NOV);
    EXPECT(TABAI_ERR_NULL, "NULL qinv", e, N, D, P, Q, DP, DQ, NULL, nl);
    EXPECT(TABAI_ERR_SIZE, "nl = 0", e, N, D, P, Q, DP, DQ, QI, 0);
    EXPECT(TABAI_ERR_SIZE, "nl > max", e, N, D, P, Q, DP, DQ, QI, TABAI_MAX_LIMBS + 1);
    EXPECT(TABAI_ERR_RSA_SIZE, "n of 512 bits", e, N, D, P, Q, DP, DQ, QI, 8);
    EXPECT(TABAI_ERR_RSA_E, "e even", e + 1, N, D, P, Q, DP, DQ, QI, nl);
    EXPECT(TABAI_ERR_RSA_E, "e = 1", 1, N, D, P, Q, DP, DQ, QI, nl);
    P[0] ^= 1;
    EXPECT(TABAI_ERR_RSA_PQ, "p even", e, N, D, P, Q, DP, DQ, QI, nl);
    RESET();
    EXPECT(TABAI_ERR_RSA_PQ, "p == q", e, N, D, P, P, DP, DQ, QI, nl);
    N[1] ^= 4;
    EXPECT(TABAI_ERR_RSA_PQ, "p q != n", e, N, D, P, Q, DP, DQ, QI, nl);
    RESET();
    DP[0] ^= 2;
    EXPECT(TABAI_ERR_RSA_DP, "e dP != 1", e, N, D, P, Q, DP, DQ, QI, nl);
    RESET();
    EXPECT(TABAI_ERR_RSA_DP, "dP = p", e, N, D, P, Q, P, DQ, QI, nl);
    DQ[1] ^= 1;
    EXPECT(TABAI_ERR_RSA_DQ, "e dQ != 1", e, N, D, P, Q, DP, DQ, QI, nl);
    RESET();
    QI[0] ^= 2;
    EXPECT(TABAI_ERR_RSA_QINV, "q qInv != 1", e, N, D, P, Q, DP, DQ, QI, nl);
    RESET();
    EXPECT(TABAI_ERR_RSA_QINV, "qInv = p", e, N, D, P, Q, DP, DQ, P, nl);
    D[0] ^= 2;
    EXPECT(TABAI_ERR_RSA_D, "d != dP mod p-1", e, N, D, P, Q, DP, DQ, QI, nl);
    RESET();
    EXPECT(TABAI_ERR_RSA_D, "d = n", e, N, N, P, Q, DP, DQ, QI, nl);
    memset(Q, 0, sizeof Q), Q[0] = 1;
    EXPECT(TABAI_ERR_RSA_PQ, "q = 1", e, N, D, P, Q, DP, DQ, QI, nl);
    RESET();
    DP[nl - 1] = 1; /* above p's length */
    EXPECT(TABAI_ERR_RSA_DP, "dP >= p", e, N, D, P, Q, DP, DQ, QI, nl);
#undef RESET
#undef EXPECT
}

static const char *kname(const tabai_mb_kernel *k) { return k ? k->name : "scalar"; }

#define MAXC 11

/* count messages on keys drawn from keys[0..nkeys), checked against GMP */
static void check_private(const tabai_mb_kernel *k, rsa *keys, size_t nkeys, size_t count,
                          unsigned threads) {
    uint64_t *c[MAXC], *m[MAXC];
    tabai_rsa_key *kp[MAXC];
    rsa *kr[MAXC];
    mpz_t x, want[MAXC];
    mpz_init(x);
    for (size_t i = 0; i < count; i++) {
        rsa *ky = kr[i] = &keys[tu_below(nkeys)];
        const size_t nl = ky->nl;
        kp[i] = &ky->key;
        c[i] = calloc(nl, 8);
        m[i] = (i % 3 == 1) ? c[i] : calloc(nl, 8); /* some aliased */
        switch (tu_below(4)) {
        case 0: mpz_sub_ui(x, ky->n, 1 + tu_below(3)); break; /* N-1, N-2, N-3 */
        case 1: mpz_set_ui(x, tu_below(3)); break;            /* 0, 1, 2 */
        default: tu_fill(c[i], nl, TU_UNIFORM); tu_to_mpz(x, c[i], nl); mpz_mod(x, x, ky->n);
        }
        tu_from_mpz(c[i], nl, x);
        mpz_init(want[i]);
        mpz_powm(want[i], x, ky->d, ky->n);
    }
    tabai_status s = tabai_rsa_private_batch_with(k, count, m, (const uint64_t *const *)c, kp,
                                                  threads);
    TU_CHECK(s == TABAI_OK, kname(k), count, TU_NOV);
    for (size_t i = 0; i < count; i++) {
        TU_CHECK(tu_eq_mpz(m[i], kr[i]->nl, want[i]), kname(k), kr[i]->nl, TU_NOV);
        mpz_clear(want[i]);
        if (m[i] != c[i]) free(m[i]);
        free(c[i]);
    }
    mpz_clear(x);
}

/* ---- the fault check ---- */
static size_t fault_at, fault_calls;
static void corrupt(uint64_t *m1, size_t h) {
    if (fault_calls++ == fault_at) m1[tu_below(h)] ^= (uint64_t)1 << tu_below(64);
}

static void check_fault(rsa *k) {
    const size_t nl = k->nl;
    uint64_t c[MAXC][TABAI_MAX_LIMBS], m[MAXC][TABAI_MAX_LIMBS], m0[MAXC][TABAI_MAX_LIMBS];
    uint64_t *mp[MAXC];
    const uint64_t *cp[MAXC];
    tabai_rsa_key *kp[MAXC];
    mpz_t x;
    mpz_init(x);
    for (size_t i = 0; i < MAXC; i++) {
        tu_fill(c[i], nl, TU_UNIFORM);
        tu_to_mpz(x, c[i], nl);
        mpz_mod(x, x, k->n);
        tu_from_mpz(c[i], nl, x);
        memset(m[i], 0xa5, sizeof m[i]);
        mp[i] = m[i], cp[i] = c[i], kp[i] = &k->key;
    }
    memcpy(m0, m, sizeof m);
    tabai_rsa_fault_hook = corrupt;
    fault_at = 0, fault_calls = 0;
    TU_CHECK(tabai_rsa_private(&k->key, m[0], c[0]) == TABAI_ERR_FAULT, "fault: single", nl, TU_NOV);
    TU_CHECK(!memcmp(m, m0, sizeof m), "fault: single wrote", nl, TU_NOV);
    const tabai_mb_kernel *ks[2] = {NULL, tabai_mb_kernel_active()};
    for (int ki = 0; ki < 2; ki++)
        for (unsigned threads = 1; threads <= 2; threads++) {
            fault_at = tu_below(MAXC), fault_calls = 0;
            tabai_status s = tabai_rsa_private_batch_with(ks[ki], MAXC, mp, cp, kp, threads);
            TU_CHECK(s == TABAI_ERR_FAULT, "fault: batch", fault_at, TU_NOV);
            TU_CHECK(!memcmp(m, m0, sizeof m), "fault: batch wrote", nl, TU_NOV);
        }
    tabai_rsa_fault_hook = NULL;
    /* without the hook the same calls succeed */
    TU_CHECK(tabai_rsa_private_batch(MAXC, mp, cp, kp, 2) == TABAI_OK, "no fault", nl, TU_NOV);
    for (size_t i = 0; i < MAXC; i++) {
        mpz_t z;
        mpz_init(z);
        tu_to_mpz(x, c[i], nl);
        mpz_powm(z, x, k->d, k->n);
        TU_CHECK(tu_eq_mpz(m[i], nl, z), "after fault test", nl, TU_NOV);
        mpz_clear(z);
    }
    mpz_clear(x);
}

/* ---- blinding ---- */
static uint64_t seen[40][TABAI_MAX_LIMBS];
static size_t seen_count;
static void record(const uint64_t *a, size_t n) {
    if (seen_count < 40) memcpy(seen[seen_count], a, n * 8);
    seen_count++;
}

static void check_blinding(rsa *k) {
    const size_t nl = k->nl;
    uint64_t c[TABAI_MAX_LIMBS], m[TABAI_MAX_LIMBS];
    mpz_t x, z;
    mpz_inits(x, z, NULL);
    tu_fill(c, nl, TU_UNIFORM);
    tu_to_mpz(x, c, nl);
    mpz_mod(x, x, k->n);
    tu_from_mpz(c, nl, x);
    mpz_powm(z, x, k->d, k->n);
    memset(seen, 0, sizeof seen);
    seen_count = 0;
    tabai_rsa_blind_hook = record;
    /* 40 operations on the same input: past the refresh after 32 */
    for (int i = 0; i < 40; i++) {
        TU_CHECK(tabai_rsa_private(&k->key, m, c) == TABAI_OK && tu_eq_mpz(m, nl, z),
                 "blinded private", nl, TU_NOV);
    }
    tabai_rsa_blind_hook = NULL;
    TU_CHECK(seen_count == 40, "blind hook calls", seen_count, TU_NOV);
    for (size_t i = 0; i < 40; i++)
        for (size_t j = 0; j < i; j++)
            TU_CHECK(memcmp(seen[i], seen[j], nl * 8) != 0, "two operations, one blinding factor",
                     i, TU_NOV);
    /* two keys made from the same numbers draw independent r */
    tabai_rsa_key *k2 = malloc(sizeof *k2);
    TU_CHECK(tabai_rsa_key_init(k2, k->N, mpz_get_ui(k->e), k->D, k->P, k->Q, k->DP, k->DQ, k->QI,
                                nl) == TABAI_OK, "second key", nl, TU_NOV);
    TU_CHECK(memcmp(k2->blind, k->key.blind, nl * 8) != 0, "independent r", nl, TU_NOV);
    tabai_rsa_key_clear(k2);
    free(k2);
    mpz_clears(x, z, NULL);
}

/* ---- wipe ---- */
static void check_wipe(rsa *k) {
    const size_t nl = k->nl;
    uint64_t c[4][TABAI_MAX_LIMBS], m[4][TABAI_MAX_LIMBS];
    uint64_t *mp[4] = {m[0], m[1], m[2], m[3]};
    const uint64_t *cp[4] = {c[0], c[1], c[2], c[3]};
    tabai_rsa_key *kp[4] = {&k->key, &k->key, &k->key, &k->key};
    for (int i = 0; i < 4; i++) memcpy(c[i], k->D, nl * 8), c[i][nl - 1] = 0; /* < n */
    tabai_rsa_key *k2 = malloc(sizeof *k2);
    dirty_frees = checked_frees = 0;
    watching = 1;
    tabai_status s0 = tabai_rsa_private(&k->key, m[0], c[0]);
    tabai_status s1 = tabai_rsa_private_batch(4, mp, cp, kp, 2);
    const tabai_mb_kernel *ks[2] = {NULL, tabai_mb_kernel_active()};
    tabai_status s2 = tabai_rsa_private_batch_with(ks[0], 4, mp, cp, kp, 1);
    tabai_status s3 = tabai_rsa_private_batch_with(ks[1], 4, mp, cp, kp, 1);
    tabai_status s4 = tabai_rsa_key_init(k2, k->N, mpz_get_ui(k->e), k->D, k->P, k->Q, k->DP,
                                         k->DQ, k->QI, nl);
    for (int i = 0; i < 33; i++) (void)!tabai_rsa_private(k2, m[0], c[0]); /* through a refresh */
    watching = 0;
    TU_CHECK(s0 == TABAI_OK && s1 == TABAI_OK && s2 == TABAI_OK && s3 == TABAI_OK &&
             s4 == TABAI_OK, "wipe: operations", nl, TU_NOV);
    TU_CHECK(checked_frees > 0, "wipe: the library freed nothing?", nl, TU_NOV);
    TU_CHECK(dirty_frees == 0, "wipe: a freed block held data", dirty_frees, TU_NOV);
    tabai_rsa_key_clear(k2);
    const unsigned char *b = (const unsigned char *)k2;
    size_t nz = 0;
    for (size_t i = 0; i < sizeof *k2; i++) nz |= b[i];
    TU_CHECK(nz == 0, "wipe: key after clear", nl, TU_NOV);
    free(k2);
}

/* ---- public operation ---- */
static void check_public(rsa *k) {
    const size_t nl = k->nl;
    tabai_rsa_public_key pub;
    TU_CHECK(tabai_rsa_public_key_init(&pub, k->N, mpz_get_ui(k->e), nl) == TABAI_OK, "pub init",
             nl, TU_NOV);
    uint64_t m[3][TABAI_MAX_LIMBS], s[3][TABAI_MAX_LIMBS];
    uint64_t *sp[3] = {s[0], s[1], m[2]};
    const uint64_t *mp[3] = {m[0], m[1], m[2]};
    const tabai_rsa_public_key *pp[3] = {&pub, &k->key.pub, &pub};
    mpz_t x, z;
    mpz_inits(x, z, NULL);
    for (int i = 0; i < 3; i++) {
        memcpy(m[i], k->D, nl * 8);
        m[i][0] ^= (uint64_t)i;
    }
    uint64_t m2[TABAI_MAX_LIMBS];
    memcpy(m2, m[2], sizeof m2);
    TU_CHECK(tabai_rsa_public_batch_vartime(3, sp, mp, pp, 2) == TABAI_OK, "public batch", nl,
             TU_NOV);
    for (int i = 0; i < 3; i++) {
        tu_to_mpz(x, i == 2 ? m2 : m[i], nl);
        mpz_powm(z, x, k->e, k->n);
        TU_CHECK(tu_eq_mpz(sp[i], nl, z), "public", nl, TU_NOV);
    }
    TU_CHECK(tabai_rsa_public_vartime(&pub, s[0], k->N) == TABAI_ERR_RANGE, "public m = n", nl,
             TU_NOV);
    uint64_t even[TABAI_MAX_LIMBS];
    memcpy(even, k->N, sizeof even);
    even[0] ^= 1;
    TU_CHECK(tabai_rsa_public_key_init(&pub, even, 65537, nl) == TABAI_ERR_MODULUS, "even n", nl,
             TU_NOV);
    TU_CHECK(tabai_rsa_public_key_init(&pub, k->N, 4, nl) == TABAI_ERR_RSA_E, "e = 4", nl, TU_NOV);
    TU_CHECK(tabai_rsa_public_key_init(&pub, k->N, 65537, 8) == TABAI_ERR_RSA_SIZE, "512 bits", nl,
             TU_NOV);
    mpz_clears(x, z, NULL);
}

/* ---- the Jacobi symbol ---- */
static void check_jacobi(void) {
    mpz_t a, m;
    mpz_inits(a, m, NULL);
    static const size_t ns[] = {1, 2, 3, 5, 8, 16, 32, 33, 64, 128};
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++) {
        const size_t n = ns[ni];
        for (size_t it = 0; it < tu_iters(20); it++) {
            uint64_t M[TABAI_MAX_LIMBS], A[TABAI_MAX_LIMBS];
            tu_modulus(M, n, (int)tu_below(TU_MOD_COUNT), TU_ODD);
            if (n == 1 && M[0] < 3) M[0] = 3;
            tu_operand(A, M, n, (int)tu_below(TU_OP_COUNT));
            if (it % 4 == 0) { /* a square times something: also 0 and shared factors */
                tu_to_mpz(a, A, n), tu_to_mpz(m, M, n);
                mpz_mul(a, a, a), mpz_mod(a, a, m), tu_from_mpz(A, n, a);
            }
            tu_to_mpz(a, A, n), tu_to_mpz(m, M, n);
            int r = 7;
            TU_CHECK(tabai_jacobi_vartime(&r, A, M, n) == TABAI_OK && r == mpz_jacobi(a, m),
                     "jacobi", n, TU_V("a", A, n), TU_V("m", M, n));
        }
    }
    /* every a < m for small m, in one and in two limbs (the top limb zero) */
    for (uint64_t mm = 3; mm < 600; mm += 2)
        for (uint64_t aa = 0; aa < mm; aa++) {
            uint64_t M1[2] = {mm, 0}, A1[2] = {aa, 0};
            mpz_set_ui(a, aa), mpz_set_ui(m, mm);
            int r1 = 7, r2 = 7;
            TU_CHECK(tabai_jacobi_vartime(&r1, A1, M1, 1) == TABAI_OK &&
                         tabai_jacobi_vartime(&r2, A1, M1, 2) == TABAI_OK &&
                         r1 == mpz_jacobi(a, m) && r2 == r1,
                     "jacobi small", 1, TU_V("a", A1, 1), TU_V("m", M1, 1));
        }
    /* a shared factor g of 1 to 62 limbs (the divsteps give up, the binary algorithm
     * answers 0) and a = m - small, a = 1, a = 2 */
    for (size_t it = 0; it < tu_iters(40); it++) {
        const size_t n = 2 + tu_below(TABAI_MAX_LIMBS - 1), gl = 1 + tu_below(n / 2);
        uint64_t G[TABAI_MAX_LIMBS] = {0}, K[TABAI_MAX_LIMBS] = {0}, M[TABAI_MAX_LIMBS] = {0},
                 A[TABAI_MAX_LIMBS] = {0};
        mpz_t g, k;
        mpz_inits(g, k, NULL);
        tu_fill(G, gl, 0), G[0] |= 1, tu_to_mpz(g, G, gl);
        tu_fill(K, n - gl, 0), K[0] |= 1, tu_to_mpz(k, K, n - gl);
        mpz_mul(m, g, k);
        tu_fill(K, n - gl, 0), tu_to_mpz(k, K, n - gl);
        mpz_mul(a, g, k), mpz_mod(a, a, m);
        if (it % 3 == 1) mpz_sub_ui(a, m, 1 + tu_below(5));
        if (it % 3 == 2) mpz_set_ui(a, 1 + (it & 1));
        tu_from_mpz(M, n, m), tu_from_mpz(A, n, a);
        int r = 7;
        TU_CHECK(tabai_jacobi_vartime(&r, A, M, n) == TABAI_OK && r == mpz_jacobi(a, m),
                 "jacobi shared factor", n, TU_V("a", A, n), TU_V("m", M, n));
        mpz_clears(g, k, NULL);
    }
    uint64_t M[2] = {15, 0}, A[2] = {6, 0}, E[2] = {4, 0};
    int r = 7;
    TU_CHECK(tabai_jacobi_vartime(&r, A, M, 2) == TABAI_OK && r == 0, "(6/15) = 0", 2, TU_NOV);
    TU_CHECK(tabai_jacobi_vartime(&r, A, E, 2) == TABAI_ERR_MODULUS, "even m", 2, TU_NOV);
    TU_CHECK(tabai_jacobi_vartime(&r, M, M, 2) == TABAI_ERR_RANGE && r == 0, "a = m", 2, TU_NOV);
    mpz_clears(a, m, NULL);
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    /* primes of 512, 768, 1024 bits (n of 1024, 1536, 2048 bits), 992 bits (n of 31 limbs),
     * e = 3 at 1024 bits, and unbalanced primes (1364 and 684 bits; 684 and 1364) */
    static const size_t pbits[] = {512, 768, 1024, 992, 512, 1364, 684};
    static const size_t qbits[] = {512, 768, 1024, 992, 512, 684, 1364};
    enum { NK = 7 };
    static rsa keys[NK];
    for (size_t i = 0; i < NK; i++) rsa_make(&keys[i], pbits[i], qbits[i], i == 4 ? 3 : 65537);
    for (size_t i = 0; i < NK; i++) check_key_errors(&keys[i]);
    check_jacobi();
    const tabai_mb_kernel *ks[8];
    size_t nk = 0;
    ks[nk++] = NULL;
    for (const tabai_mb_kernel *k = tabai_mb_kernels; k->name; k++)
        if (tabai_mb_kernel_usable(k)) ks[nk++] = k;
    ks[nk++] = tabai_mb_kernel_active();
    for (size_t ki = 0; ki < nk; ki++)
        for (size_t it = 0; it < tu_iters(1); it++) {
            for (size_t i = 0; i < NK; i++)
                check_private(ks[ki], &keys[i], 1, 1 + tu_below(MAXC), 1 + (unsigned)tu_below(3));
            check_private(ks[ki], keys, NK, 1 + tu_below(MAXC), 1 + (unsigned)tu_below(3));
        }
    /* the shipped RSA-2048, -3072 and -4096 keys (data/keys): every kernel, a few messages
     * each, single and batch */
    static rsa shipped[3];
    rsa_shipped(&shipped[0], "rsa2048_p", "rsa2048_q");
    rsa_shipped(&shipped[1], "rsa3072_p", "rsa3072_q");
    rsa_shipped(&shipped[2], "rsa4096_p", "rsa4096_q");
    for (size_t i = 0; i < 3; i++) {
        TU_CHECK(mpz_sizeinbase(shipped[i].n, 2) == 2048 + 1024 * i, "shipped key size",
                 shipped[i].nl, TU_NOV);
        for (size_t ki = 0; ki < nk; ki++) {
            check_private(ks[ki], &shipped[i], 1, 1, 1);
            check_private(ks[ki], &shipped[i], 1, 2 + tu_below(3), 1 + (unsigned)tu_below(2));
        }
        check_public(&shipped[i]);
    }
    check_fault(&shipped[2]);
    /* the public single operation on each key */
    for (size_t i = 0; i < NK; i++) {
        uint64_t c[TABAI_MAX_LIMBS] = {5}, m[TABAI_MAX_LIMBS];
        mpz_t x, z;
        mpz_inits(x, z, NULL);
        mpz_set_ui(x, 5);
        mpz_powm(z, x, keys[i].d, keys[i].n);
        TU_CHECK(tabai_rsa_private(&keys[i].key, m, c) == TABAI_OK &&
                     tu_eq_mpz(m, keys[i].nl, z), "tabai_rsa_private", keys[i].nl, TU_NOV);
        mpz_clears(x, z, NULL);
    }
    check_fault(&keys[0]);
    check_fault(&keys[3]);
    check_blinding(&keys[1]);
    check_wipe(&keys[2]);
    for (size_t i = 0; i < NK; i++) check_public(&keys[i]);
    /* errors of the operations: c >= N, NULLs; nothing written */
    uint64_t big[TABAI_MAX_LIMBS], out[TABAI_MAX_LIMBS];
    memset(big, 0xff, sizeof big);
    memset(out, 0x33, sizeof out);
    TU_CHECK(tabai_rsa_private(&keys[0].key, out, big) == TABAI_ERR_RANGE && out[0] == 0x3333333333333333ull,
             "c >= N", 0, TU_NOV);
    TU_CHECK(tabai_rsa_private(NULL, out, big) == TABAI_ERR_NULL, "key NULL", 0, TU_NOV);
    tabai_rsa_key *kk[1] = {&keys[0].key};
    uint64_t *mo[1] = {out};
    const uint64_t *co[1] = {NULL};
    TU_CHECK(tabai_rsa_private_batch(1, mo, co, kk, 1) == TABAI_ERR_NULL, "c NULL", 0, TU_NOV);
    TU_CHECK(tabai_rsa_private_batch(0, NULL, NULL, NULL, 1) == TABAI_OK, "count 0", 0, TU_NOV);
    for (size_t i = 0; i < NK; i++) {
        tabai_rsa_key_clear(&keys[i].key);
        mpz_clears(keys[i].n, keys[i].d, keys[i].e, keys[i].p, keys[i].q, keys[i].dp, keys[i].dq,
                   keys[i].qi, NULL);
    }
    return tu_finish();
}
