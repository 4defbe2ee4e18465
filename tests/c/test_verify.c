/* The TABAI_VERIFY checks can fire: each case calls a kernel or context function with one
 * documented precondition violated, in a child process (fork), and expects the child to die
 * by SIGABRT with "tabai VERIFY failed" and the file of the check on stderr. A control case
 * with valid inputs must return normally, so a harness that always "dies" fails too.
 * Registered only in builds with -DTABAI_VERIFY=ON (`make verify`); in any other build every
 * case would return normally, and the test says so and fails. Calls the internal kernels
 * directly: the public functions range-check their operands before any kernel runs. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/limb/limb.h"
#include "../../src/mod/mod.h"
#include "../../src/delayed/delayed.h"
#include "testutil.h"

#define N 4
#define NBIG 20 /* above the fixed sizes: Karatsuba product and block REDC */

static uint64_t p[NBIG], pinv, a[NBIG], b[NBIG], r[2 * NBIG + 1], t[2 * NBIG + 1];
static tabai_mont mctx;
static tabai_ohta octx;

static uint64_t neg_inv(uint64_t p0) {
    uint64_t x = p0;
    for (int i = 0; i < 6; i++) x *= 2 - p0 * x;
    return 0 - x;
}

/* the cases: each a call with one precondition broken (or none, for the controls) */
static void c_valid_mont_mul(void) { tabai_mont_mul_n4_generic(r, a, b, p, pinv, N); }
static void c_valid_mul_n(void) { tabai_mul_n(r, a, b, N); }
static void c_mont_mul_a_eq_p(void) { tabai_mont_mul_n4_generic(r, p, b, p, pinv, N); }
static void c_mont_sqr_bad_pinv(void) { tabai_mont_sqr_n4_generic(r, a, p, pinv + 2, N); }
static void c_mont_mul_big_b_ge_p(void) {
    uint64_t bb[NBIG];
    memcpy(bb, p, sizeof bb);
    bb[0] += 1; /* p + 1 */
    tabai_mont_mul_n_generic(r, a, bb, p, pinv, NBIG);
}
static void c_mont_even_modulus(void) {
    uint64_t pe[N];
    memcpy(pe, p, sizeof pe);
    pe[0] ^= 1;
    tabai_mont_mul_n4_generic(r, a, b, pe, pinv, N);
}
static void c_mod_add_b_ge_p(void) {
    uint64_t bb[N] = {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0};
    tabai_mod_add_n_generic(r, a, bb, p, N);
}
static void c_mod_sub_partial_alias(void) { tabai_mod_sub_n4_generic(a + 1, a, b, p, N); }
static void c_mul_n_overlap(void) { tabai_mul_n(a + 1, a, b, N); /* r overlaps a */ }
static void c_sqr_n_overlap(void) { tabai_sqr_n_generic(t + 1, t, N); }
static void c_redc_t_ge_pR(void) {
    for (size_t i = 0; i < 2 * NBIG; i++) t[i] = ~(uint64_t)0;
    t[2 * NBIG] = 0;
    tabai_redc_blocks(r, t, p, pinv, NBIG);
}
static void c_ohta_a_ge_p(void) { tabai_ohta_mul_unchecked(&octx, r, octx.p, b); }
static void c_rd_digit_too_big(void) {
    uint64_t x[8] = {1, 2, 3, (uint64_t)1 << 29, 5, 6, 7, 8}, y[8] = {1}, z[16];
    tabai_mul_rd_generic(z, x, y, 8, 29);
}
static void c_mont_ctx_rr_not_reduced(void) {
    tabai_mont bad = mctx;
    memcpy(bad.rr, bad.p, sizeof bad.rr);
    (void)!tabai_mont_mul(&bad, r, a, b);
}
static void c_ohta_k_too_small(void) { /* d underestimated: f = H - d p far above 3p */
    tabai_ohta bad = octx;
    uint64_t x[N];
    for (size_t i = 0; i < N; i++) bad.k[i] = 0;
    memcpy(x, octx.p, sizeof x);
    x[0] -= 1; /* p - 1 */
    tabai_ohta_mul_unchecked(&bad, r, x, x);
}
static void c_ohta_ctx_corrupt(void) {
    tabai_ohta bad = octx;
    bad.k[bad.n] = 0;
    (void)!tabai_ohta_mul(&bad, r, a, b);
}

typedef struct vcase {
    const char *name;
    void (*fn)(void);
    const char *want; /* in the message of the check that must fire (its file or condition);
                       * NULL: must return normally */
} vcase;

static const vcase cases[] = {
    {"control: valid mont_mul_n4_generic", c_valid_mont_mul, NULL},
    {"control: valid tabai_mul_n", c_valid_mul_n, NULL},
    {"mont_mul_n4_generic with a = p", c_mont_mul_a_eq_p, "limb.h"},
    {"mont_sqr_n4_generic with a wrong pinv", c_mont_sqr_bad_pinv, "limb.h"},
    {"mont_mul_n_generic (n = 20) with b = p + 1", c_mont_mul_big_b_ge_p, "redc.c"},
    {"mont_mul_n4_generic with an even modulus", c_mont_even_modulus, "limb.h"},
    {"mod_add_n_generic with b >= p", c_mod_add_b_ge_p, "limb.h"},
    {"mod_sub_n4_generic with r = a + 1 (partial overlap)", c_mod_sub_partial_alias, "limb.h"},
    {"tabai_mul_n with r overlapping a", c_mul_n_overlap, "api.c"},
    {"sqr_n_generic with r overlapping a", c_sqr_n_overlap, "kara.c"},
    {"redc_blocks with t >= p R", c_redc_t_ge_pR, "redc.c"},
    {"ohta_mul_unchecked with a = p", c_ohta_a_ge_p, "ohta.c"},
    {"mul_rd_generic with a digit >= 2^bits", c_rd_digit_too_big, "mul_generic.c"},
    {"tabai_mont_mul on a context with rr = p", c_mont_ctx_rr_not_reduced, "mont.c"},
    {"tabai_ohta_mul on a context with K's top limb 0", c_ohta_ctx_corrupt, "ohta.c"},
    {"ohta_mul_unchecked with K too small (f >= 3p)", c_ohta_k_too_small, "lt_kp(f, p, n, 3)"},
};

/* runs c in a child; returns 1 if the outcome is the expected one */
static int run_case(const vcase *c) {
    int fds[2];
    if (pipe(fds) != 0) return 0;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        c->fn();
        _exit(0);
    }
    close(fds[1]);
    char err[2048];
    size_t len = 0;
    ssize_t k;
    while ((k = read(fds[0], err + len, sizeof err - 1 - len)) > 0) len += (size_t)k;
    err[len] = 0;
    close(fds[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    int aborted = WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
    int ok;
    if (!c->want) ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    else ok = aborted && strstr(err, "tabai VERIFY failed") && strstr(err, c->want);
    printf("  %-52s %s%s", c->name,
           c->want ? (aborted ? "aborted: " : "returned normally") : (ok ? "returned normally" : "died"),
           c->want && aborted ? err : "\n");
    if (c->want && aborted && (len == 0 || err[len - 1] != '\n')) printf("\n");
    return ok;
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    /* a modulus with random limbs and the top bit set, odd; operands below it */
    for (size_t i = 0; i < NBIG; i++) p[i] = tu_rand();
    p[0] |= 1;
    p[NBIG - 1] |= (uint64_t)1 << 63;
    p[N - 1] |= (uint64_t)1 << 63;
    pinv = neg_inv(p[0]);
    for (size_t i = 0; i < NBIG; i++) a[i] = b[i] = 0;
    for (size_t i = 0; i < N; i++) {
        a[i] = tu_rand();
        b[i] = tu_rand();
    }
    a[N - 1] >>= 1; /* < p[N-1] (top bit set) */
    b[N - 1] >>= 1;
    for (size_t i = N; i < NBIG - 1; i++) b[i] = tu_rand();
    TU_CHECK(tabai_mont_init(&mctx, p, N) == TABAI_OK, "mont_init", N, TU_NOV);
    TU_CHECK(tabai_ohta_init(&octx, p, N) == TABAI_OK, "ohta_init", N, TU_NOV);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        TU_CHECK(run_case(&cases[i]), cases[i].name, N, TU_NOV);
    return tu_finish();
}
