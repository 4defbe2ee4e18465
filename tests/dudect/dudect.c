/* Constant-time test, timing method: dudect (Reparaz, Balasch, Verbauwhede, "Dude, is my
 * code constant time?", DATE 2017). For each target, the cycle counts of one call on two
 * input classes are collected, the classes interleaved at random:
 *   class 0  fixed: all-ones operands (p - 1 for a modulus whose limbs are all ones but the
 *            lowest, so p - 1 is all ones but one limb), exponent 0xff..ff, condition 0;
 *   class 1  uniformly random operands, exponent, condition.
 * Welch's t-test compares the two distributions: on all samples, on the samples below each
 * of 100 percentile thresholds of the first batch (dudect's cropping, which removes the
 * long tail of interrupts and preemption), and the second-order test (centred squares). The
 * largest |t| among the tests with enough samples is reported; |t| > 10 fails the target
 * (dudect's threshold for "definitely not constant time"). Inputs of both classes live at
 * the same addresses (one slot per sample, the class only changes the contents), so a table
 * or buffer address never differs between the classes.
 *
 *   test_dudect [--tier T] [--seconds S] [--target SUBSTRING] [--fixed ones|zero|random]
 *               [--leaky] [--list]
 *
 * Tiers: every tier from generic to the native one, each with its own contexts (made after
 * tabai_cpu_set_tier); a tier above native is reported as absent (TABAI_CPU would cap it at
 * native, whose kernels are measured under their own name). TABAI_CPU=T or --tier T runs one.
 * --fixed zero / random: class 0 is zero operands and exponent (inv_prime: 1), or one random
 * value drawn once, instead of the all-ones ones (the condition of cnd_select stays 0).
 * Time: --seconds S or TABAI_DUDECT_SECONDS=S per tier, shared among the targets
 * by weight (default 6). Seed: printed; TABAI_TEST_SEED=0x... replays the inputs.
 * --leaky measures deliberately leaky functions compiled only into this program (an
 * early-exit comparison on a secret, a branch on a secret bit doing extra work) and exits 0
 * only if every one of them shows |t| > 10: the method is known to detect a leak.
 * Exit: 0 all targets pass, 1 a target failed, 2 usage. */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "../../bench/moduli.h"
#include "tabai.h"
#include "tabai_ec.h"

#define MAXN 32            /* largest limb count measured */
#define NPCT 100           /* cropping thresholds, as dudect */
#define NTESTS (NPCT + 2)  /* all samples, 100 crops, second order */
#define T_FAIL 10.0        /* |t| above this: not constant time */
#define ENOUGH 1000        /* samples a test needs before its t counts */
#define DROP 4             /* first samples of each batch (warm-up), not used */

/* ---- random numbers: xoshiro256**, seeded by splitmix64 ---- */
static uint64_t rs[4];
static uint64_t seed;
static uint64_t rnd(void) {
    uint64_t r = rs[1] * 5, t = rs[1] << 17;
    r = ((r << 7) | (r >> 57)) * 9;
    rs[2] ^= rs[0];
    rs[3] ^= rs[1];
    rs[1] ^= rs[2];
    rs[0] ^= rs[3];
    rs[2] ^= t;
    rs[3] = (rs[3] << 45) | (rs[3] >> 19);
    return r;
}
static void rnd_seed(uint64_t s) {
    for (int i = 0; i < 4; i++) {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        rs[i] = z ^ (z >> 31);
    }
}

/* ---- Welch's t-test, online (Welford) ---- */
typedef struct ttest {
    double n[2], mean[2], m2[2];
} ttest;
static void t_push(ttest *t, double x, int cls) {
    t->n[cls] += 1;
    double d = x - t->mean[cls];
    t->mean[cls] += d / t->n[cls];
    t->m2[cls] += d * (x - t->mean[cls]);
}
static double t_value(const ttest *t) {
    if (t->n[0] < 2 || t->n[1] < 2) return 0;
    double v0 = t->m2[0] / (t->n[0] - 1), v1 = t->m2[1] / (t->n[1] - 1);
    double den = sqrt(v0 / t->n[0] + v1 / t->n[1]);
    return den > 0 ? (t->mean[0] - t->mean[1]) / den : 0;
}

/* ---- timer: serialised rdtsc / rdtscp (TSC ticks, not core cycles) ---- */
static inline uint64_t tick_start(void) {
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}
static inline uint64_t tick_stop(void) {
    unsigned aux;
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- targets ---- */
typedef struct target target;
struct target {
    const char *name;
    size_t n;           /* limbs of the operands / modulus */
    double weight;      /* share of the time budget */
    size_t slot;        /* limbs of one sample's input */
    int (*setup)(target *t); /* 0 = ready; non-zero = not available on this tier */
    void (*prepare)(target *t, uint64_t *in, int cls);
    void (*run)(target *t, uint64_t *in);
    size_t ebits;
    tabai_kernel kernel;
    int leaky;
    /* state made by setup */
    tabai_mont mont;
    tabai_ohta ohta;
    tabai_rsa_key *rsa;
    uint64_t p[MAXN];
    uint64_t *scratch;
    uint64_t out[2 * MAXN];
};

static volatile uint64_t sink; /* keeps results alive */

/* p = 2^(64n) - 189: every limb all ones but the lowest (odd, so Montgomery works) */
static void modulus_ones(uint64_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = ~(uint64_t)0;
    p[0] -= 188;
}
/* uniform x < p (rejection; p's top limb is all ones, so almost never repeated) */
static void residue(uint64_t *x, const uint64_t *p, size_t n) {
    for (;;) {
        for (size_t i = 0; i < n; i++) x[i] = rnd();
        if (tabai_cmp_n(x, p, n) < 0) return;
    }
}
/* The fixed class (--fixed): ones (the default: p - 1, all-ones limbs and exponents), zero, or
 * random (one value drawn once, the same in every class-0 sample). */
enum { FIXED_ONES, FIXED_ZERO, FIXED_RANDOM };
static int fixed_kind = FIXED_ONES;
static const char *const fixed_names[] = {"ones", "zero", "random"};
/* limb i of the fixed random value (a hash of i: the same in every sample) */
static uint64_t fixed_limb(size_t i) {
    uint64_t z = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull ^ seed;
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
    return z ^ (z >> 29);
}
/* x[n] = the fixed limbs (unreduced: for mul_with and exponents) */
static void fixed_limbs(uint64_t *x, size_t n) {
    for (size_t i = 0; i < n; i++)
        x[i] = fixed_kind == FIXED_ONES ? ~(uint64_t)0 : fixed_kind == FIXED_ZERO ? 0 : fixed_limb(i);
}
/* x[n] = the fixed residue: p - 1, 0, or the fixed random limbs with the top limb halved
 * (below p, whose top limb is all ones) */
static void residue_max(uint64_t *x, const uint64_t *p, size_t n) {
    uint64_t one[MAXN] = {1};
    if (fixed_kind == FIXED_ONES) tabai_sub_n(x, p, one, n);
    else fixed_limbs(x, n);
    if (fixed_kind == FIXED_RANDOM) x[n - 1] >>= 1;
}

static int setup_mont(target *t) {
    modulus_ones(t->p, t->n);
    return tabai_mont_init(&t->mont, t->p, t->n) != TABAI_OK;
}
static int setup_ohta(target *t) {
    modulus_ones(t->p, t->n);
    t->p[0] -= 1; /* even: Ohta takes any p >= 2 */
    return tabai_ohta_init(&t->ohta, t->p, t->n) != TABAI_OK;
}
/* two operands < p: class 0 both p - 1, class 1 uniform */
static void prep_ab(target *t, uint64_t *in, int cls) {
    if (cls == 0) {
        residue_max(in, t->p, t->n);
        residue_max(in + t->n, t->p, t->n);
    } else {
        residue(in, t->p, t->n);
        residue(in + t->n, t->p, t->n);
    }
}
static void run_mont_mul(target *t, uint64_t *in) {
    (void)!tabai_mont_mul(&t->mont, t->out, in, in + t->n);
    sink = t->out[0];
}
static void run_mont_sqr(target *t, uint64_t *in) {
    (void)!tabai_mont_sqr(&t->mont, t->out, in);
    sink = t->out[0];
}
static void run_ohta_mul(target *t, uint64_t *in) {
    (void)!tabai_ohta_mul(&t->ohta, t->out, in, in + t->n);
    sink = t->out[0];
}
static int setup_ohta_with(target *t) {
    if (setup_ohta(t)) return 1;
    uint64_t a[MAXN] = {1};
    return tabai_ohta_mul_with(t->kernel, &t->ohta, t->out, a, a) != TABAI_OK;
}
static void run_ohta_with(target *t, uint64_t *in) {
    (void)!tabai_ohta_mul_with(t->kernel, &t->ohta, t->out, in, in + t->n);
    sink = t->out[0];
}

/* mul_with: class 0 all-ones operands, class 1 uniform */
static void prep_limbs(target *t, uint64_t *in, int cls) {
    if (cls == 0) fixed_limbs(in, 2 * t->n);
    else
        for (size_t i = 0; i < 2 * t->n; i++) in[i] = rnd();
}
static int setup_mul_with(target *t) {
    uint64_t a[MAXN] = {1};
    return tabai_kernel_available(t->kernel) != TABAI_OK ||
           tabai_mul_with(t->kernel, t->out, a, a, t->n) != TABAI_OK;
}
static void run_mul_with(target *t, uint64_t *in) {
    (void)!tabai_mul_with(t->kernel, t->out, in, in + t->n, t->n);
    sink = t->out[0];
}

/* cnd_select: the secret is the condition (class 0: 0, class 1: a random bit); the two
 * operands are uniform in both classes */
static int setup_none(target *t) {
    (void)t;
    return 0;
}
static void prep_select(target *t, uint64_t *in, int cls) {
    in[0] = cls == 0 ? 0 : rnd() & 1;
    for (size_t i = 1; i < 1 + 2 * t->n; i++) in[i] = rnd();
}
static void run_select(target *t, uint64_t *in) {
    tabai_cnd_select_n(t->out, in[0], in + 1, in + 1 + t->n, t->n);
    sink = t->out[0];
}

/* powmod: base < p and an ebits-bit exponent; class 0 base p - 1, exponent all ones */
static int setup_powmod(target *t) {
    if (setup_mont(t)) return 1;
    t->scratch = malloc(tabai_powmod_scratch_limbs(t->n, t->ebits) * sizeof(uint64_t));
    return t->scratch == NULL;
}
static void prep_powmod(target *t, uint64_t *in, int cls) {
    size_t ne = (t->ebits + 63) / 64;
    if (cls == 0) residue_max(in, t->p, t->n);
    else residue(in, t->p, t->n);
    if (cls == 0) fixed_limbs(in + t->n, ne);
    else
        for (size_t i = 0; i < ne; i++) in[t->n + i] = rnd();
    if (t->ebits % 64) in[t->n + ne - 1] &= ((uint64_t)1 << (t->ebits % 64)) - 1;
}
static void run_mont_powmod(target *t, uint64_t *in) {
    (void)!tabai_mont_powmod(&t->mont, t->out, in, in + t->n, t->ebits, t->scratch,
                      tabai_powmod_scratch_limbs(t->n, t->ebits));
    sink = t->out[0];
}
/* the convenience function on an even modulus (Ohta products; the odd case is the
 * Montgomery powmod above), b any n-limb value */
static int setup_powmod_any(target *t) {
    modulus_ones(t->p, t->n);
    t->p[0] -= 1;
    return 0;
}
static void run_powmod_any(target *t, uint64_t *in) {
    (void)!tabai_powmod(t->out, in, in + t->n, t->ebits, t->p, t->n);
    sink = t->out[0];
}
/* the batch API: 8 operations on n-limb operands, all lanes the same modulus
 * (the lane moduli are public); class 0: every operand p - 1 and every exponent the fixed
 * limbs, class 1: uniform. Input: a[8][n], b[8][n], e[8][ne]. At tier ifma one group of 8
 * IFMA lanes, below it the scalar loop. */
#define BATCH 8
static int setup_batch(target *t) {
    modulus_ones(t->p, t->n);
    return 0;
}
static void prep_batch(target *t, uint64_t *in, int cls) {
    const size_t n = t->n, ne = t->ebits ? (t->ebits + 63) / 64 : 0;
    for (size_t i = 0; i < 2 * BATCH; i++) {
        if (cls == 0) residue_max(in + i * n, t->p, n);
        else residue(in + i * n, t->p, n);
    }
    uint64_t *e = in + 2 * BATCH * n;
    for (size_t i = 0; i < BATCH; i++) {
        if (cls == 0) fixed_limbs(e + i * ne, ne);
        else
            for (size_t j = 0; j < ne; j++) e[i * ne + j] = rnd();
        if (t->ebits % 64) e[i * ne + ne - 1] &= ((uint64_t)1 << (t->ebits % 64)) - 1;
    }
}
static void run_batch_count(target *t, uint64_t *in, size_t count) {
    static uint64_t out[BATCH][MAXN];
    const size_t n = t->n, ne = (t->ebits + 63) / 64;
    uint64_t *r[BATCH];
    const uint64_t *a[BATCH], *b[BATCH], *e[BATCH], *m[BATCH];
    for (size_t i = 0; i < count; i++) {
        r[i] = out[i];
        a[i] = in + i * n;
        b[i] = in + (BATCH + i) * n;
        e[i] = in + 2 * BATCH * n + i * ne;
        m[i] = t->p;
    }
    if (t->ebits) (void)!tabai_powmod_batch(count, r, b, e, t->ebits, m, n, 1);
    else (void)!tabai_modmul_batch(count, r, a, b, m, n);
    sink = out[count - 1][0];
}
static void run_batch(target *t, uint64_t *in) { run_batch_count(t, in, BATCH); }
/* 4 operations: at tier ifma one group of the 4-lane (ymm) IFMA kernel */
static void run_batch4(target *t, uint64_t *in) { run_batch_count(t, in, 4); }

/* RSA-2048 private operation (the shipped test key, e = 65537; the CRT exponents and qinv
 * computed here with tabai_inv_vartime), one message: at tier ifma the two half-size
 * exponentiations run in the 4-lane IFMA kernel, as every single-message RSA call. Class 0:
 * c = N - 1, class 1: uniform c < N. */
static int setup_rsa(target *t) {
    const size_t h = 16, nl = 32;
    static tabai_rsa_key key;
    uint64_t p[32] = {0}, q[32] = {0}, pm1[16], qm1[16], e[32] = {65537}, one[16] = {1},
             dp[32] = {0}, dq[32] = {0}, qp[16], qinv[32] = {0}, N[32], phi[32], d[32];
    int swap = tabai_cmp_n(bench_modulus_rsa2048_p, bench_modulus_rsa2048_q, h) < 0;
    memcpy(p, swap ? bench_modulus_rsa2048_q : bench_modulus_rsa2048_p, 16 * sizeof p[0]);
    memcpy(q, swap ? bench_modulus_rsa2048_p : bench_modulus_rsa2048_q, 16 * sizeof q[0]);
    tabai_sub_n(pm1, p, one, h), tabai_sub_n(qm1, q, one, h);
    tabai_cnd_sub_n(qp, tabai_cmp_n(q, p, h) >= 0, q, p, h); /* q mod p (q < 2p) */
    tabai_mul_n(N, p, q, h);
    tabai_mul_n(phi, pm1, qm1, h);
    if (tabai_inv_vartime(dp, e, pm1, h) || tabai_inv_vartime(dq, e, qm1, h) ||
        tabai_inv_vartime(qinv, qp, p, h) || tabai_inv_vartime(d, e, phi, nl) ||
        tabai_rsa_key_init(&key, N, 65537, d, p, q, dp, dq, qinv, nl))
        return 1;
    t->rsa = &key;
    memcpy(t->p, N, sizeof N[0] * t->n);
    return 0;
}
static void run_rsa(target *t, uint64_t *in) {
    uint64_t *m[1] = {t->out};
    const uint64_t *c[1] = {in};
    tabai_rsa_key *k[1] = {t->rsa};
    (void)!tabai_rsa_private_batch(1, m, c, k, 1);
    sink = t->out[0];
}
static void prep_rsa(target *t, uint64_t *in, int cls) {
    if (cls == 0) {
        uint64_t one[MAXN] = {1};
        tabai_sub_n(in, t->p, one, t->n); /* N - 1 */
    } else {
        do
            for (size_t i = 0; i < t->n; i++) in[i] = rnd();
        while (tabai_cmp_n(in, t->p, t->n) >= 0);
    }
}
/* inv_prime over the P-256 prime: class 0 a = p - 1, class 1 uniform non-zero */
static int setup_p256(target *t) {
    static const uint64_t p256[4] = {0xffffffffffffffffull, 0x00000000ffffffffull, 0,
                                     0xffffffff00000001ull};
    memcpy(t->p, p256, sizeof p256);
    return tabai_mont_init(&t->mont, t->p, 4) != TABAI_OK;
}
static void prep_inv(target *t, uint64_t *in, int cls) {
    if (cls == 0) {
        residue_max(in, t->p, t->n);
        if (fixed_kind == FIXED_ZERO) in[0] = 1; /* 0 has no inverse: 1 instead */
        return;
    }
    do residue(in, t->p, t->n);
    while ((in[0] | in[1] | in[2] | in[3]) == 0);
}
static void run_inv(target *t, uint64_t *in) {
    (void)!tabai_mont_inv_prime(&t->mont, t->out, in);
    sink = t->out[0];
}

/* ---- deliberately leaky functions (only in this program) ---- */
/* 1 if x[n] == y[n], returning at the first differing byte: the time tells how many
 * leading bytes of the secret match */
/* The curves' secret paths on a 32-byte private scalar (big-endian for P-256 and secp256k1,
 * X25519's little-endian string): class 0 the fixed scalar (n - 2 or the fixed random
 * limbs, kept below n), class 1 uniform below n. k G (tabai_ec_public_key: the comb, the
 * width-7 one with the AVX-512F scan at tier ifma), k P (tabai_ecdh on a fixed peer key) and
 * X25519 on the base point. */
static uint8_t ec_peer[65];
static const uint8_t N_P256[32] = {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
                                   0xff, 0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17,
                                   0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};
static int setup_ec(target *t) {
    uint8_t sk[32];
    (void)t;
    return tabai_ec_keypair(TABAI_CURVE_P256, sk, ec_peer) != TABAI_OK;
}
static void prep_ec(target *t, uint64_t *in, int cls) {
    uint8_t *k = (uint8_t *)in;
    (void)t;
    do {
        if (cls == 0 && fixed_kind == FIXED_ONES) {
            memcpy(k, N_P256, 32), k[31] -= 1; /* n - 2 */
        } else if (cls == 0 && fixed_kind == FIXED_ZERO) {
            memset(k, 0, 31), k[31] = 1; /* 1 */
        } else if (cls == 0) {
            uint64_t f[4];
            fixed_limbs(f, 4);
            memcpy(k, f, 32);
            k[0] &= 0x7f; /* below n */
        } else {
            for (int i = 0; i < 4; i++) in[i] = rnd();
        }
    } while (memcmp(k, N_P256, 32) >= 0); /* class 1 only: n < 2^256 by about 2^224 */
}
static void run_ec_mul_base(target *t, uint64_t *in) {
    uint8_t pk[65];
    (void)t;
    (void)!tabai_ec_public_key(TABAI_CURVE_P256, pk, sizeof pk, (const uint8_t *)in);
    sink = pk[1];
}
static void run_ecdh(target *t, uint64_t *in) {
    uint8_t sec[32];
    (void)t;
    (void)!tabai_ecdh(TABAI_CURVE_P256, sec, (const uint8_t *)in, ec_peer, sizeof ec_peer);
    sink = sec[0];
}
/* P-384 and P-521 (tabai_ecdh, k P: radix 2^52 on IFMA at tier ifma): an L-byte scalar
 * with its top byte cleared (below 2^(8 L - 8), so below n): class 0 all ones below it
 * (--fixed zero: 1; random: fixed limbs), class 1 uniform */
static uint8_t ec_peer384[97], ec_peer521[133];
static int setup_ec384(target *t) {
    uint8_t sk[48];
    (void)t;
    return tabai_ec_keypair(TABAI_CURVE_P384, sk, ec_peer384) != TABAI_OK;
}
static int setup_ec521(target *t) {
    uint8_t sk[66];
    (void)t;
    return tabai_ec_keypair(TABAI_CURVE_P521, sk, ec_peer521) != TABAI_OK;
}
static void prep_ec_big(uint64_t *in, int cls, size_t L) {
    uint8_t *k = (uint8_t *)in;
    if (cls == 0 && fixed_kind == FIXED_ONES) {
        memset(k, 0xff, L);
    } else if (cls == 0 && fixed_kind == FIXED_ZERO) {
        memset(k, 0, L), k[L - 1] = 1;
    } else if (cls == 0) {
        uint64_t f[9];
        fixed_limbs(f, 9);
        memcpy(k, f, L);
    } else {
        for (size_t i = 0; i < (L + 7) / 8; i++) in[i] = rnd();
    }
    k[0] = 0; /* below 2^(8 L - 8) */
}
static void prep_ec384(target *t, uint64_t *in, int cls) {
    (void)t;
    prep_ec_big(in, cls, 48);
}
static void prep_ec521(target *t, uint64_t *in, int cls) {
    (void)t;
    prep_ec_big(in, cls, 66);
}
static void run_ecdh384(target *t, uint64_t *in) {
    uint8_t sec[48];
    (void)t;
    (void)!tabai_ecdh(TABAI_CURVE_P384, sec, (const uint8_t *)in, ec_peer384, sizeof ec_peer384);
    sink = sec[0];
}
static void run_ecdh521(target *t, uint64_t *in) {
    uint8_t sec[66];
    (void)t;
    (void)!tabai_ecdh(TABAI_CURVE_P521, sec, (const uint8_t *)in, ec_peer521, sizeof ec_peer521);
    sink = sec[0];
}
static void run_x25519(target *t, uint64_t *in) {
    uint8_t out[32];
    (void)t;
    (void)!tabai_x25519_base(out, (const uint8_t *)in);
    sink = out[0];
}

__attribute__((noinline)) static int leaky_memcmp(const uint8_t *x, const uint8_t *y, size_t len) {
    for (size_t i = 0; i < len; i++)
        if (x[i] != y[i]) return 0;
    return 1;
}
static const uint8_t leak_ref[256] = {0};
static void prep_leaky_cmp(target *t, uint64_t *in, int cls) {
    for (size_t i = 0; i < t->n; i++) in[i] = cls == 0 ? 0 : rnd(); /* 0 matches leak_ref */
}
static void run_leaky_cmp(target *t, uint64_t *in) {
    sink = (uint64_t)leaky_memcmp((const uint8_t *)in, leak_ref, 8 * t->n);
}
/* a Montgomery product followed by a branch on the secret's low bit that does one more
 * product: twice the work when the bit is set */
static void run_leaky_branch(target *t, uint64_t *in) {
    (void)!tabai_mont_mul(&t->mont, t->out, in, in + t->n);
    if (in[t->n] & 1) (void)!tabai_mont_mul(&t->mont, t->out, t->out, in);
    sink = t->out[0];
}
static void prep_leaky_branch(target *t, uint64_t *in, int cls) {
    prep_ab(t, in, cls);
    if (cls == 0) in[t->n] &= ~(uint64_t)1; /* fixed: p - 1 with the low bit cleared */
}

/* name, limbs, weight, input limbs per sample, setup, prepare, run, exponent bits, kernel, leaky */
#define TGT(nm, n_, w, sl, su, pr, ru, eb, k, lk)                                              \
    {.name = nm, .n = n_, .weight = w, .slot = sl, .setup = su, .prepare = pr, .run = ru,     \
     .ebits = eb, .kernel = k, .leaky = lk}
#define MUL_WITH(lbl, k) TGT("mul_with_" lbl "_n16", 16, 1, 32, setup_mul_with, prep_limbs, run_mul_with, 0, k, 0)
#define OHTA_WITH(lbl, k) TGT("ohta_mul_with_" lbl "_n16", 16, 1, 32, setup_ohta_with, prep_ab, run_ohta_with, 0, k, 0)

static target targets[] = {
    TGT("mont_mul_n4", 4, 1, 8, setup_mont, prep_ab, run_mont_mul, 0, 0, 0),
    TGT("mont_mul_n32", 32, 1, 64, setup_mont, prep_ab, run_mont_mul, 0, 0, 0),
    TGT("mont_sqr_n4", 4, 1, 8, setup_mont, prep_ab, run_mont_sqr, 0, 0, 0),
    TGT("mont_sqr_n32", 32, 1, 64, setup_mont, prep_ab, run_mont_sqr, 0, 0, 0),
    TGT("ohta_mul_n4", 4, 1, 8, setup_ohta, prep_ab, run_ohta_mul, 0, 0, 0),
    TGT("ohta_mul_n32", 32, 1, 64, setup_ohta, prep_ab, run_ohta_mul, 0, 0, 0),
    TGT("mont_powmod_256", 4, 2, 8, setup_powmod, prep_powmod, run_mont_powmod, 256, 0, 0),
    TGT("mont_powmod_2048", 32, 6, 64, setup_powmod, prep_powmod, run_mont_powmod, 2048, 0, 0),
    TGT("powmod_even_1024", 16, 3, 32, setup_powmod_any, prep_powmod, run_powmod_any, 1024, 0, 0),
    TGT("mont_inv_prime_p256", 4, 2, 8, setup_p256, prep_inv, run_inv, 0, 0, 0),
    TGT("modmul_batch8_n16", 16, 1, 2 * 16 * BATCH, setup_batch, prep_batch, run_batch, 0, 0, 0),
    TGT("powmod_batch8_256", 4, 2, 3 * 4 * BATCH, setup_batch, prep_batch, run_batch, 256, 0, 0),
    TGT("powmod_batch4_256", 4, 2, 3 * 4 * BATCH, setup_batch, prep_batch, run_batch4, 256, 0, 0),
    TGT("rsa_private_2048", 32, 4, 32, setup_rsa, prep_rsa, run_rsa, 0, 0, 0),
    TGT("cnd_select_n32", 32, 1, 65, setup_none, prep_select, run_select, 0, 0, 0),
    TGT("ec_mul_base_p256", 4, 2, 4, setup_ec, prep_ec, run_ec_mul_base, 0, 0, 0),
    TGT("ecdh_p256", 4, 3, 4, setup_ec, prep_ec, run_ecdh, 0, 0, 0),
    TGT("ecdh_p384", 6, 2, 6, setup_ec384, prep_ec384, run_ecdh384, 0, 0, 0),
    TGT("ecdh_p521", 9, 2, 9, setup_ec521, prep_ec521, run_ecdh521, 0, 0, 0),
    TGT("x25519_base", 4, 2, 4, setup_ec, prep_ec, run_x25519, 0, 0, 0),
    OHTA_WITH("carry_save_2x2", TABAI_KERNEL_CARRY_SAVE_2X2),
    OHTA_WITH("carry_save_3x3", TABAI_KERNEL_CARRY_SAVE_3X3),
    OHTA_WITH("carry_save_4x4", TABAI_KERNEL_CARRY_SAVE_4X4),
    MUL_WITH("c16", TABAI_KERNEL_C16),
    MUL_WITH("simd29_sse2", TABAI_KERNEL_SIMD29_SSE2),
    MUL_WITH("simd29_avx2", TABAI_KERNEL_SIMD29_AVX2),
    MUL_WITH("fp64", TABAI_KERNEL_FP64),
    MUL_WITH("fp64_vec", TABAI_KERNEL_FP64_VEC),
    MUL_WITH("fp64_fma", TABAI_KERNEL_FP64_FMA),
    MUL_WITH("fp64_fma_vec", TABAI_KERNEL_FP64_FMA_VEC),
    /* leaky: only with --leaky */
    TGT("leaky_memcmp_256", 32, 1, 32, setup_none, prep_leaky_cmp, run_leaky_cmp, 0, 0, 1),
    TGT("leaky_branch_mont_mul_n4", 4, 1, 8, setup_mont, prep_leaky_branch, run_leaky_branch, 0, 0,
        1),
};
#define NTARGETS (sizeof targets / sizeof targets[0])

/* ---- one target: batches of prepared inputs, measured, folded into the t-tests ---- */
typedef struct result {
    double t;       /* largest |t| with enough samples (signed) */
    int which;      /* the test it came from: 0 all, 1..100 crop, 101 second order */
    double samples; /* samples in the all-samples test */
    double diff;    /* mean(class 0) - mean(class 1) in that test, TSC ticks */
    double mean;    /* mean of all samples of that test */
} result;

static int cmp_u64(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static result measure(target *t, double seconds) {
    /* the cost of one call, to size the batches at about 20 ms (one sample's input: slot
     * limbs, up to 2 BATCH MAXN for the batches) */
    uint64_t *in0 = malloc(t->slot * sizeof(uint64_t));
    if (!in0) {
        fprintf(stderr, "dudect: out of memory\n");
        exit(2);
    }
    t->prepare(t, in0, 1);
    uint64_t best = ~(uint64_t)0;
    for (int i = 0; i < 20; i++) {
        uint64_t a = tick_start();
        t->run(t, in0);
        uint64_t b = tick_stop();
        if (b - a < best) best = b - a;
    }
    free(in0);
    size_t batch = (size_t)(5e7 / (double)(best + 100));
    if (batch < 24) batch = 24;
    if (batch > 20000) batch = 20000;
    uint64_t *in = malloc(batch * t->slot * sizeof(uint64_t));
    uint64_t *ticks = malloc(batch * sizeof(uint64_t)), *sorted = malloc(batch * sizeof(uint64_t));
    unsigned char *cls = malloc(batch);
    ttest tests[NTESTS];
    double pct[NPCT];
    memset(tests, 0, sizeof tests);
    int have_pct = 0;
    double t_end = now_s() + seconds;
    do {
        for (size_t i = 0; i < batch; i++) {
            cls[i] = (unsigned char)(rnd() & 1);
            t->prepare(t, in + i * t->slot, cls[i]);
        }
        for (size_t i = 0; i < batch; i++) {
            uint64_t a = tick_start();
            t->run(t, in + i * t->slot);
            uint64_t b = tick_stop();
            ticks[i] = b - a;
        }
        if (!have_pct) { /* the first batch only sets the cropping thresholds (dudect) */
            memcpy(sorted, ticks, batch * sizeof(uint64_t));
            qsort(sorted, batch, sizeof(uint64_t), cmp_u64);
            for (int k = 0; k < NPCT; k++) {
                double q = 1 - pow(0.5, 10.0 * (k + 1) / NPCT);
                pct[k] = (double)sorted[(size_t)(q * (double)(batch - 1))];
            }
            have_pct = 1;
            continue;
        }
        for (size_t i = DROP; i < batch; i++) {
            double x = (double)ticks[i];
            int c = cls[i];
            t_push(&tests[0], x, c);
            for (int k = 0; k < NPCT; k++)
                if (x < pct[k]) t_push(&tests[1 + k], x, c);
            if (tests[0].n[0] + tests[0].n[1] > ENOUGH) { /* second order: centred square */
                double y = x - tests[0].mean[c];
                t_push(&tests[NTESTS - 1], y * y, c);
            }
        }
    } while (now_s() < t_end);
    result r = {0, 0, tests[0].n[0] + tests[0].n[1], 0, 0};
    for (int k = 0; k < NTESTS; k++) {
        double nk = tests[k].n[0] + tests[k].n[1];
        /* a slow target may never reach ENOUGH: then its all-samples test counts */
        if (nk < ENOUGH && !(k == 0 && nk >= 40)) continue;
        double v = t_value(&tests[k]);
        if (fabs(v) > fabs(r.t)) {
            r.t = v;
            r.which = k;
            r.diff = tests[k].mean[0] - tests[k].mean[1];
            r.mean = (tests[k].mean[0] * tests[k].n[0] + tests[k].mean[1] * tests[k].n[1]) / nk;
        }
    }
    free(in);
    free(ticks);
    free(sorted);
    free(cls);
    return r;
}

static const char *test_name(int which, char *buf, size_t len) {
    if (which == 0) return "all";
    if (which == NTESTS - 1) return "2nd order";
    snprintf(buf, len, "crop %d", which - 1);
    return buf;
}

/* runs the (leaky or not) targets matching filter on the tier in use; returns failures
 * (for --leaky: the leaky targets that were NOT detected) */
static int run_tier(double seconds, const char *filter, int leaky) {
    double wsum = 0;
    int ready[NTARGETS];
    for (size_t i = 0; i < NTARGETS; i++) {
        target *t = &targets[i];
        ready[i] = 0;
        if (t->leaky != leaky || (filter && !strstr(t->name, filter))) continue;
        free(t->scratch);
        t->scratch = NULL;
        if (t->setup(t)) {
            printf("  %-34s not available on tier %s\n", t->name, tabai_cpu_name());
            continue;
        }
        ready[i] = 1;
        wsum += t->weight;
    }
    int bad = 0;
    for (size_t i = 0; i < NTARGETS; i++) {
        if (!ready[i]) continue;
        target *t = &targets[i];
        result r = measure(t, seconds * t->weight / wsum);
        int leak = fabs(r.t) > T_FAIL;
        char buf[32];
        if (leak && !leaky) { /* confirmed on fresh samples: a leak shows again, a preempted
                                 moment of the shared machine does not */
            printf("  %-34s t = %8.2f  (%s): measured again\n", t->name, r.t,
                   test_name(r.which, buf, sizeof buf));
            r = measure(t, seconds * t->weight / wsum);
            leak = fabs(r.t) > T_FAIL;
        }
        char md[64] = "mean, diff: of squares";
        if (r.which != NTESTS - 1) snprintf(md, sizeof md, "mean %9.0f  diff %+7.2f", r.mean, r.diff);
        printf("  %-34s t = %8.2f  (%-9s) samples %9.0f  %-28s  %s\n", t->name, r.t,
               test_name(r.which, buf, sizeof buf), r.samples, md,
               leaky ? (leak ? "leak detected (expected)" : "LEAK NOT DETECTED")
                     : (leak ? "FAIL: |t| > 10" : "ok"));
        fflush(stdout);
        bad += leaky ? !leak : leak;
    }
    return bad;
}

static void usage(void) {
    fprintf(stderr, "usage: test_dudect [--tier T] [--seconds S] [--target SUBSTRING] "
                    "[--fixed ones|zero|random] [--leaky] [--list]\n");
}

int main(int argc, char **argv) {
    const char *tier_arg = getenv("TABAI_CPU"), *filter = NULL;
    const char *sec_env = getenv("TABAI_DUDECT_SECONDS");
    double seconds = sec_env ? atof(sec_env) : 6.0;
    int leaky = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--tier") && i + 1 < argc) tier_arg = argv[++i];
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--target") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--leaky")) leaky = 1;
        else if (!strcmp(argv[i], "--fixed") && i + 1 < argc) {
            const char *v = argv[++i];
            fixed_kind = !strcmp(v, "zero") ? FIXED_ZERO : !strcmp(v, "random") ? FIXED_RANDOM : FIXED_ONES;
            if (fixed_kind == FIXED_ONES && strcmp(v, "ones")) {
                usage();
                return 2;
            }
        }
        else if (!strcmp(argv[i], "--list")) {
            for (size_t k = 0; k < NTARGETS; k++)
                printf("%s%s\n", targets[k].name, targets[k].leaky ? " (leaky)" : "");
            return 0;
        } else {
            usage();
            return 2;
        }
    }
    if (!(seconds > 0)) seconds = 6.0;
    const char *seed_env = getenv("TABAI_TEST_SEED");
    seed = seed_env ? strtoull(seed_env, NULL, 0) : ((uint64_t)time(NULL) << 20) ^ (uint64_t)clock();
    rnd_seed(seed);

    /* one core, so that the two classes share caches and frequency as far as possible */
    cpu_set_t set;
    int cpu = sched_getcpu();
    CPU_ZERO(&set);
    CPU_SET(cpu >= 0 ? cpu : 0, &set);
    int pinned = sched_setaffinity(0, sizeof set, &set) == 0;

    tabai_tier native = tabai_cpu_native_tier();
    int lo = 0, hi = TABAI_TIER_COUNT - 1;
    if (tier_arg && strcmp(tier_arg, "native") != 0) {
        int t = tabai_tier_parse(tier_arg);
        if (t < 0) {
            fprintf(stderr, "test_dudect: unknown tier '%s'\n", tier_arg);
            return 2;
        }
        lo = hi = t;
    } else if (tier_arg) {
        lo = hi = (int)native;
    }
    if (leaky) lo = hi = (int)native;
    printf("dudect: seed 0x%016llx (TABAI_TEST_SEED replays), %.1f s per tier, fixed class %s, "
           "CPU %s, native tier %s, %s; TSC ticks, |t| > %.0f fails\n",
           (unsigned long long)seed, seconds, fixed_names[fixed_kind], tabai_cpu_brand(),
           tabai_tier_name(native), pinned ? "pinned to one core" : "not pinned", T_FAIL);
    int bad = 0, ran = 0;
    for (int tier = lo; tier <= hi; tier++) {
        if (tier > (int)native) {
            printf("tier %s: skipped: tier %s not available (native %s)\n",
                   tabai_tier_name((tabai_tier)tier), tabai_tier_name((tabai_tier)tier),
                   tabai_tier_name(native));
            continue;
        }
        ran++;
        (void)!tabai_cpu_set_tier((tabai_tier)tier);
        printf("tier %s%s:\n", tabai_cpu_name(), leaky ? " (deliberately leaky functions)" : "");
        fflush(stdout);
        bad += run_tier(seconds, filter, leaky);
    }
    if (leaky) {
        printf(bad ? "dudect --leaky: a leak was NOT detected\n"
                   : "dudect --leaky: every deliberate leak detected (|t| > 10)\n");
    } else {
        if (bad) printf("dudect: %d target(s) with |t| > 10\n", bad);
        else printf("dudect: all targets |t| <= 10\n");
    }
    if (!ran) return 77; /* ctest's SKIP_RETURN_CODE: nothing was measured */
    return bad ? 1 : 0;
}
