/* Threads calling into a fresh library at once: the first tabai_cpu_tier, tabai_cpu_set_tier,
 * tabai_cpu_brand, context init, tabai_mont_mul and tabai_powmod from several threads, none of
 * them called before the threads start. Built and run under ThreadSanitizer by `make tsan`
 * (any data race fails the run), and in the ordinary builds as a plain check:
 *   - every thread sees the same brand string and the same features;
 *   - a tabai_cpu_set_tier(generic) that runs while the other threads make their first
 *     tabai_cpu_tier calls is never overwritten: the tier in use afterwards is generic;
 *   - products and exponentiations agree with GMP in every thread, whatever tier each used.
 * Each of 12 rounds runs in a child forked before any library call (a fresh library).
 * Not registered per tier: the point is a fresh process. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmp.h>

#include "tabai.h"

#define THREADS 6
#define N 16

static uint64_t P[N], A[N], B[N], E[N];
static pthread_barrier_t start;

typedef struct result {
    const char *brand;
    unsigned features;
    uint64_t mul[N], pow[N];
    tabai_status st_init, st_mul, st_pow;
} result;
static result res[THREADS];

static void *worker(void *arg) {
    result *r = arg;
    size_t id = (size_t)(r - res);
    pthread_barrier_wait(&start);
    r->brand = tabai_cpu_brand(); /* every thread's first call: all race for the first fill */
    if (id == 0) (void)!tabai_cpu_set_tier(TABAI_TIER_GENERIC);
    (void)tabai_cpu_tier();
    r->features = tabai_cpu_features();
    tabai_mont ctx;
    r->st_init = tabai_mont_init(&ctx, P, N);
    uint64_t am[N], bm[N], t[N];
    (void)!tabai_mont_to(&ctx, am, A);
    (void)!tabai_mont_to(&ctx, bm, B);
    r->st_mul = tabai_mont_mul(&ctx, t, am, bm);
    (void)!tabai_mont_from(&ctx, r->mul, t);
    r->st_pow = tabai_powmod(r->pow, A, E, 64 * N, P, N);
    return NULL;
}

static void fill(uint64_t *x, uint64_t seed) {
    for (size_t i = 0; i < N; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        x[i] = seed ^ (seed >> 29);
    }
}

/* one fresh library: the threads, then the checks; 0 if all is well */
static int scenario(void) {
    fill(P, 1), fill(A, 2), fill(B, 3), fill(E, 4);
    P[0] |= 1, P[N - 1] |= (uint64_t)1 << 63;
    A[N - 1] >>= 1, B[N - 1] >>= 1; /* < P */
    pthread_t th[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++) pthread_create(&th[i], NULL, worker, &res[i]);
    for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&start);

    mpz_t p, a, b, e, w;
    mpz_inits(p, a, b, e, w, NULL);
    mpz_import(p, N, -1, 8, 0, 0, P), mpz_import(a, N, -1, 8, 0, 0, A);
    mpz_import(b, N, -1, 8, 0, 0, B), mpz_import(e, N, -1, 8, 0, 0, E);
    uint64_t want_mul[N] = {0}, want_pow[N] = {0};
    mpz_mul(w, a, b), mpz_mod(w, w, p), mpz_export(want_mul, NULL, -1, 8, 0, 0, w);
    mpz_powm(w, a, e, p), mpz_export(want_pow, NULL, -1, 8, 0, 0, w);
    int fail = 0;
    for (int i = 0; i < THREADS; i++) {
        result *r = &res[i];
        if (!r->brand || strcmp(r->brand, res[0].brand) != 0 || r->features != res[0].features) {
            printf("thread %d: brand or features differ\n", i);
            fail = 1;
        }
        if (r->st_init || r->st_mul || r->st_pow || memcmp(r->mul, want_mul, sizeof want_mul) ||
            memcmp(r->pow, want_pow, sizeof want_pow)) {
            printf("thread %d: wrong product or power (status %d %d %d)\n", i, r->st_init,
                   r->st_mul, r->st_pow);
            fail = 1;
        }
    }
    if (tabai_cpu_tier() != TABAI_TIER_GENERIC) {
        printf("tabai_cpu_set_tier(generic) was overwritten by a concurrent first tabai_cpu_tier "
               "(tier in use: %s)\n", tabai_cpu_name());
        fail = 1;
    }
    mpz_clears(p, a, b, e, w, NULL);
    return fail;
}

/* The first calls race only once per process: each round forks a child that has never called
 * the library (this process never calls it either) and runs the scenario there. */
#define ROUNDS 12
int main(void) {
    int bad = 0;
    for (int round = 0; round < ROUNDS; round++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) _exit(scenario());
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            printf("round %d: the child failed (status 0x%x)\n", round, st);
            bad++;
        }
    }
    printf("%s: %d rounds of %d threads on a fresh library\n", bad ? "FAIL" : "ok", ROUNDS,
           THREADS);
    return bad != 0;
}
