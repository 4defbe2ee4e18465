/* libFuzzer target: the RSA private operation (tabai_rsa_private_batch) against GMP.
 * Input: tier, a key choice, a message count (1..9: one partial group, a full group of 8 and
 * one more), then per message a residue class relative to N.
 * Keys: either built from two primes derived from the input (64 to 512 bits each, top bits
 * set, e = 65537), or one of the shipped RSA-2048/3072/4096 test keys (data/keys, embedded in
 * bench/moduli.h) with fuzzed messages. Every result m must satisfy m < N and m^e = c mod N
 * (the public operation inverts the private one), and for the derived keys m = c^d mod N
 * (mpz_powm); a message >= N must give TABAI_ERR_RANGE with nothing written. */
#include <stdlib.h>
#include <string.h>

#include "../../bench/moduli.h"
#include "fuzz.h"

#define MAXH (TABAI_MAX_LIMBS / 2)
#define MAXM 9

/* The one place that turns primes into a key of today's API: dp, dq, qinv from p, q and e
 * (GMP), then tabai_rsa_key_init. Returns 0 (input skipped) if e is not invertible or the
 * library refuses the key; fills N and d. */
static int make_key(tabai_rsa_key *key, mpz_t N, mpz_t d, const mpz_t p, const mpz_t q,
                    unsigned long e, size_t h) {
    mpz_t t, phi, x;
    mpz_inits(t, phi, x, NULL);
    uint64_t Nl[2 * MAXH], Dl[2 * MAXH], P[2 * MAXH], Q[2 * MAXH], DP[2 * MAXH], DQ[2 * MAXH],
        QI[2 * MAXH];
    const size_t nl = 2 * h; /* every parameter as an nl-limb number */
    int ok = mpz_cmp(p, q) != 0;
    mpz_sub_ui(phi, p, 1), mpz_sub_ui(t, q, 1), mpz_mul(phi, phi, t);
    mpz_set_ui(t, e);
    ok = ok && mpz_invert(d, t, phi);
    if (ok) {
        mpz_mul(N, p, q);
        fz_from_mpz(Nl, nl, N), fz_from_mpz(Dl, nl, d);
        fz_from_mpz(P, nl, p), fz_from_mpz(Q, nl, q);
        mpz_sub_ui(t, p, 1), mpz_mod(x, d, t), fz_from_mpz(DP, nl, x);
        mpz_sub_ui(t, q, 1), mpz_mod(x, d, t), fz_from_mpz(DQ, nl, x);
        mpz_invert(x, q, p), fz_from_mpz(QI, nl, x);
        FZ_STATUS(tabai_rsa_key_init(key, Nl, e, Dl, P, Q, DP, DQ, QI, nl), TABAI_OK,
                  "tabai_rsa_key_init");
    }
    mpz_clears(t, phi, x, NULL);
    return ok;
}

/* a prime of exactly 64h bits with the top two bits set, from the input */
static void derived_prime(fz_in *in, mpz_t p, size_t h) {
    uint64_t l[MAXH];
    fz_limbs(in, l, h);
    l[h - 1] |= (uint64_t)3 << 62;
    fz_to_mpz(p, l, h);
    mpz_nextprime(p, p);
    if (mpz_sizeinbase(p, 2) != 64 * h) { /* ran past 2^(64h): the largest prime below */
        mpz_set_ui(p, 1), mpz_mul_2exp(p, p, 64 * h), mpz_sub_ui(p, p, 1);
        while (!mpz_probab_prime_p(p, 25)) mpz_sub_ui(p, p, 2);
    }
}

static struct shipped {
    const uint64_t *p, *q;
    size_t h;
    int ready;
    tabai_rsa_key key;
    mpz_t N, d;
} shipped[3] = {{bench_modulus_rsa2048_p, bench_modulus_rsa2048_q, 16, 0, {0}, {{0}}, {{0}}},
                {bench_modulus_rsa3072_p, bench_modulus_rsa3072_q, 24, 0, {0}, {{0}}, {{0}}},
                {bench_modulus_rsa4096_p, bench_modulus_rsa4096_q, 32, 0, {0}, {{0}}, {{0}}}};

static mpz_t P, Q, N, D, C, M, Z;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int init;
    static tabai_rsa_key dkey;
    if (!init) mpz_inits(P, Q, N, D, C, M, Z, NULL), init = 1;
    fz_in in;
    fz_begin(&in, data, size);
    fz_clear_notes();
    uint8_t choice = fz_byte(&in);
    tabai_rsa_key *key;
    mpz_srcptr n_, d_;
    int derived = choice % 4 != 3;
    if (derived) { /* primes from the input: 1..8 limbs each */
        size_t h = 8 + choice / 4 % 3; /* N of 1024, 1152 or 1280 bits (the smallest taken) */
        derived_prime(&in, P, h);
        derived_prime(&in, Q, h);
        if (!make_key(&dkey, N, D, P, Q, 65537, h)) return 0;
        key = &dkey, n_ = N, d_ = D;
    } else {
        struct shipped *s = &shipped[choice / 4 % 3];
        if (!s->ready) {
            mpz_inits(s->N, s->d, NULL);
            fz_to_mpz(P, s->p, s->h), fz_to_mpz(Q, s->q, s->h);
            FZ_CHECK(make_key(&s->key, s->N, s->d, P, Q, 65537, s->h), "shipped key");
            s->ready = 1;
        }
        key = &s->key, n_ = s->N, d_ = s->d;
    }
    const size_t n = key->pub.n, count = 1 + fz_byte(&in) % MAXM;
    static uint64_t c[MAXM][TABAI_MAX_LIMBS], m[MAXM][TABAI_MAX_LIMBS], nl[TABAI_MAX_LIMBS];
    uint64_t *mp[MAXM];
    const uint64_t *cp[MAXM];
    tabai_rsa_key *kp[MAXM];
    fz_from_mpz(nl, n, n_);
    int all_ok = 1;
    for (size_t i = 0; i < count; i++) {
        all_ok &= fz_residue(&in, c[i], nl, n);
        fz_arm(m[i], n);
        mp[i] = (i % 4 == 3) ? c[i] : m[i]; /* some in place */
        cp[i] = c[i], kp[i] = key;
    }
    fz_note_n(n);
    fz_note(0, "N", nl, n), fz_note(1, "c0", c[0], n);
    static uint64_t c0[MAXM][TABAI_MAX_LIMBS];
    memcpy(c0, c, sizeof c);
    tabai_status st = tabai_rsa_private_batch(count, mp, cp, kp, 1);
    if (!all_ok) {
        FZ_STATUS(st, TABAI_ERR_RANGE, "tabai_rsa_private_batch on c >= N");
        for (size_t i = 0; i < count; i++)
            FZ_CHECK(mp[i] == c[i] ? !memcmp(c[i], c0[i], n * 8) : fz_untouched(m[i], n),
                     "tabai_rsa_private_batch wrote on error");
        return 0;
    }
    FZ_STATUS(st, TABAI_OK, "tabai_rsa_private_batch");
    for (size_t i = 0; i < count; i++) {
        fz_to_mpz(M, mp[i], n), fz_to_mpz(C, c0[i], n);
        fz_note(2, "m", mp[i], n);
        FZ_CHECK(mpz_cmp(M, n_) < 0, "m >= N");
        mpz_powm_ui(Z, M, 65537, n_);
        FZ_CHECK(mpz_cmp(Z, C) == 0, "m^e mod N != c");
        if (derived) {
            mpz_powm(Z, C, d_, n_);
            FZ_CHECK(mpz_cmp(Z, M) == 0, "m != c^d mod N");
        }
    }
    return 0;
}
