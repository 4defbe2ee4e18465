/* tabai-ec-inv-time: the curves' inversions (src/ec/inv.c: safegcd) against Fermat's
 * a^(p-2) (tabai_ec_pow, what they replaced) in one run, alternating rounds, nanoseconds per
 * inversion (median and minimum of the rounds), for p and q of each curve; then the times
 * of ECDSA signing and verification and of ECDH through the public API.
 *   tabai-ec-inv-time [rounds, default 31]          timing
 *   tabai-ec-inv-time --count fermat|ct|vartime N [i]   N inversions of each modulus (or of
 *       modulus i only: 2 c + (0 for p, 1 for q), c = P-256, P-384, P-521, secp256k1), for
 *       valgrind --tool=callgrind --toggle-collect=<function> instruction counts (valgrind's
 *       CPUID hides BMI2 and ADX, which it executes: this mode declares them, so that
 *       TABAI_CPU=bmi2 takes effect; not for a CPU without them)
 *   tabai-ec-inv-time --proto sign|verify|ecdh c N   N calls on curve c (index as above),
 *       for the same instruction counts (--toggle-collect=tabai_ecdsa_sign_digest, ...)
 * TABAI_CPU caps the tier as everywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ec/ec.h"
#include "ec/field.h"
#include "tabai_ec.h"

#define NIN 64 /* distinct inputs, cycled */

static const tabai_curve CURVES[] = {TABAI_CURVE_P256, TABAI_CURVE_P384, TABAI_CURVE_P521,
                                     TABAI_CURVE_SECP256K1};
enum { FERMAT, CT, VARTIME, NKIND };
static const char *KIND[] = {"fermat", "safegcd_ct", "safegcd_vartime"};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

typedef struct {
    tabai_ec_ctx x;
    int q; /* 0: mod p, 1: mod q */
    uint64_t in[NIN][TABAI_EC_LIMBS];
} job;

static void job_init(job *j, tabai_curve c, int q) {
    tabai_ec_ctx_init(&j->x, tabai_ec_curve_get(c));
    j->q = q;
    const tabai_ec_mod *m = q ? &j->x.fq : &j->x.fp;
    for (int i = 0; i < NIN; i++) {
        uint64_t t[TABAI_EC_LIMBS] = {0};
        size_t bits = tabai_bitlen_vartime(m->m, m->n) - 1; /* t < 2^bits < m */
        for (size_t k = 0; k < m->n; k++) t[k] = rnd();
        for (size_t k = bits; k < 64 * m->n; k++) t[k / 64] &= ~((uint64_t)1 << (k % 64));
        fe_mul(m, j->in[i], t, m->rr); /* into the form */
    }
}

static void run(job *j, int kind, size_t reps) {
    const tabai_ec_curve *c = j->x.c;
    const tabai_ec_mod *m = j->q ? &j->x.fq : &j->x.fp;
    uint64_t r[TABAI_EC_LIMBS];
    for (size_t i = 0; i < reps; i++) {
        const uint64_t *a = j->in[i % NIN];
        if (kind == FERMAT)
            tabai_ec_pow(m, r, a, j->q ? c->q_minus2 : c->p_minus2, j->q ? c->qbits : c->pbits);
        else if (kind == VARTIME) tabai_ec_scalar_inv_vartime(&j->x, r, a);
        else if (j->q) tabai_ec_scalar_inv_ct(&j->x, r, a);
        else tabai_ec_fe_inv_ct(&j->x, r, a);
        __asm__ volatile("" : : "r"(r) : "memory");
    }
}

static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    tabai_curve c;
    size_t L;
    uint8_t sk[66], pk[133], peer[133], dg[32], sig[132], out[66];
} pjob;

static tabai_status sign_once(pjob *p) {
    return tabai_ecdsa_sign_digest(p->c, p->sig, p->sk, p->dg, 32, TABAI_HASH_SHA256, NULL, 0, 0);
}

/* reps calls of op; the statuses are not looked at: the keys and the signature are checked
 * before (main), and a test per call would be counted with the call */
static double time_proto(pjob *p, int op, size_t reps) {
    double t0 = now();
    for (size_t i = 0; i < reps; i++) {
        if (op == 0) (void)!sign_once(p);
        else if (op == 1)
            (void)!tabai_ecdsa_verify_digest_vartime(p->c, p->pk, 1 + 2 * p->L, p->dg, 32, p->sig,
                                                     0);
        else (void)!tabai_ecdh(p->c, p->out, p->sk, p->peer, 1 + 2 * p->L);
    }
    return (now() - t0) / (double)reps * 1e6;
}

int main(int argc, char **argv) {
    static job jobs[8];
    if (argc > 1 && strcmp(argv[1], "--count") == 0)
        tabai_cpu_force_native_for_testing(tabai_cpu_features() | TABAI_CPU_BMI2 | TABAI_CPU_ADX);
    for (int i = 0; i < 8; i++) job_init(&jobs[i], CURVES[i / 2], i % 2);
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "--count") == 0) {
        int only = argc == 5 ? atoi(argv[4]) : -1;
        int kind = strcmp(argv[2], "fermat") == 0 ? FERMAT : strcmp(argv[2], "ct") == 0 ? CT
                                                                                        : VARTIME;
        size_t reps = (size_t)atol(argv[3]);
        for (int i = 0; i < 8; i++)
            if ((kind != VARTIME || jobs[i].q) && (only < 0 || only == i)) run(&jobs[i], kind, reps);
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "--proto") == 0) {
        int op = strcmp(argv[2], "sign") == 0 ? 0 : strcmp(argv[2], "verify") == 0 ? 1 : 2;
        tabai_cpu_force_native_for_testing(tabai_cpu_features() | TABAI_CPU_BMI2 | TABAI_CPU_ADX);
        pjob p = {.c = CURVES[atoi(argv[3]) & 3]};
        p.L = tabai_ec_field_bytes(p.c);
        uint8_t sk2[66];
        if (tabai_ec_keypair(p.c, p.sk, p.pk) || tabai_ec_keypair(p.c, sk2, p.peer)) return 1;
        if (sign_once(&p) != TABAI_OK) return 1; /* a signature to verify */
        time_proto(&p, op, (size_t)atol(argv[4]));
        return 0;
    }
    int rounds = argc > 1 ? atoi(argv[1]) : 31;
    if (rounds < 1 || rounds > 1001) rounds = 31;
    printf("tier %s; ns per inversion, median (min) of %d alternating rounds\n",
           tabai_cpu_name(), rounds);
    printf("| curve | mod | fermat | safegcd ct | safegcd vartime | fermat / ct | fermat / vartime |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < 8; i++) {
        job *j = &jobs[i];
        double t[NKIND][1001], med[NKIND], mn[NKIND];
        int nk = j->q ? NKIND : CT + 1;
        size_t reps = j->x.c->n > 6 ? 100 : 300;
        for (int k = 0; k < nk; k++) run(j, k, reps); /* warm-up */
        for (int rd = 0; rd < rounds; rd++)
            for (int k = 0; k < nk; k++) {
                double t0 = now();
                run(j, k, reps);
                t[k][rd] = (now() - t0) / (double)reps * 1e9;
            }
        for (int k = 0; k < nk; k++) {
            qsort(t[k], (size_t)rounds, sizeof(double), cmpd);
            med[k] = t[k][rounds / 2], mn[k] = t[k][0];
        }
        printf("| %s | %s | %.0f (%.0f) | %.0f (%.0f) | ", j->x.c->name, j->q ? "q" : "p",
               med[FERMAT], mn[FERMAT], med[CT], mn[CT]);
        if (j->q)
            printf("%.0f (%.0f) | %.2f | %.2f |\n", med[VARTIME], mn[VARTIME],
                   med[FERMAT] / med[CT], med[FERMAT] / med[VARTIME]);
        else printf("- | %.2f | - |\n", med[FERMAT] / med[CT]);
    }
    (void)KIND;
    printf("\nprotocols, µs per call, median (min) of %d rounds\n", rounds);
    printf("| curve | ecdsa_sign | ecdsa_verify | ecdh |\n|---|---|---|---|\n");
    for (int ci = 0; ci < 4; ci++) {
        pjob p = {.c = CURVES[ci], .L = tabai_ec_field_bytes(CURVES[ci])};
        uint8_t sk2[66];
        if (tabai_ec_keypair(p.c, p.sk, p.pk) || tabai_ec_keypair(p.c, sk2, p.peer)) return 1;
        for (int i = 0; i < 32; i++) p.dg[i] = (uint8_t)rnd();
        double t[3][1001];
        size_t reps = p.L > 48 ? 10 : 30;
        for (int op = 0; op < 3; op++) time_proto(&p, op, 2);
        for (int rd = 0; rd < rounds; rd++)
            for (int op = 0; op < 3; op++) t[op][rd] = time_proto(&p, op, reps);
        printf("| %s |", tabai_curve_name(p.c));
        for (int op = 0; op < 3; op++) {
            qsort(t[op], (size_t)rounds, sizeof(double), cmpd);
            printf(" %.1f (%.1f) |", t[op][rounds / 2], t[op][0]);
        }
        printf("\n");
    }
    return 0;
}
