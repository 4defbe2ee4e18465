/* The tier bmi2 kernels (src/x64) in the benchmark. The core suite already times
 * mul and sqr per tier beside GMP for every selected limb count, and the Montgomery kernels on
 * the embedded moduli; this suite adds what the x64 report needs beside them:
 *
 *   x64      for every selected limb count n:
 *            - impl "bound" (kernel "mulx") records for op "mul" (n^2 mulx), "sqr"
 *              (n(n+1)/2), "mont_mul" (2n^2 + n) and "mont_sqr" (n(n+1)/2 + n^2 + n): that
 *              many independent mulx in a throughput loop, the floor a kernel with that many
 *              limb products cannot beat on this core;
 *            - "mont_mul" / "mont_sqr" on a fixed-seed random odd modulus of exactly 64n bits
 *              (top bit set; modulus name "full_<bits>"), tabai kernel "bmi2" beside
 *              "generic" (the kernels' time does not depend on the modulus value), so the
 *              fused kernels have a per-n table for n = 1..16 too.
 *   x64_mix  prints the instruction mix of every generated kernel (counts read from the
 *            generated code: src/x64/x64_mix.h), no records.
 * The ratios (to GMP, to generic, to the bound) are read from one run:
 * `tabai bench --ops mul,sqr,x64`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/dispatch/tables.h"
#include "../src/x64/x64_mix.h"
#include "harness.h"

typedef struct x64_arg {
    const tabai_kernels *k;
    size_t n, slot;
    uint64_t *r, *a, *b, *p;
    uint64_t pinv;
    uint64_t mulx; /* bound: mulx per operation */
} x64_arg;

static void run_mont_mul(void *v, size_t it) {
    x64_arg *x = v;
    tabai_mont_mul_fn f = x->k->mont_mul[x->slot];
    for (size_t i = 0; i < it; i++) f(x->r, x->r, x->b, x->p, x->pinv, x->n);
}
static void run_mont_sqr(void *v, size_t it) {
    x64_arg *x = v;
    tabai_mont_sqr_fn f = x->k->mont_sqr[x->slot];
    for (size_t i = 0; i < it; i++) f(x->r, x->r, x->p, x->pinv, x->n);
}
/* it * x->mulx independent mulx, 32 per loop trip (at most 31 extra per sample), each of a group
 * of four writing its own pair of registers. With 8 per trip the loop's own overhead kept Zen 4
 * below its one mulx per cycle, and the bound sat above the real floor. */
#define BOUND_MULX4                                                                     \
    "mulx %%rdx, %%r8, %%r9\n\t"                                                       \
    "mulx %%rdx, %%r10, %%r11\n\t"                                                     \
    "mulx %%rdx, %%rax, %%rsi\n\t"                                                     \
    "mulx %%rdx, %%rdi, %%rcx\n\t"
#define BOUND_MULX32 BOUND_MULX4 BOUND_MULX4 BOUND_MULX4 BOUND_MULX4 BOUND_MULX4 BOUND_MULX4 \
    BOUND_MULX4 BOUND_MULX4
static void run_bound(void *v, size_t it) {
    x64_arg *x = v;
    uint64_t trips = (it * x->mulx + 31) / 32;
    if (!trips) return;
    __asm__ volatile("mov %1, %%rdx\n"
                     "1:\n\t" BOUND_MULX32 "dec %0\n\t"
                     "jnz 1b\n"
                     : "+r"(trips)
                     : "r"(x->pinv | 1)
                     : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "cc");
}

static uint64_t neg_inv64(uint64_t p0) {
    uint64_t y = p0;
    for (int i = 0; i < 6; i++) y *= 2 - p0 * y;
    return (uint64_t)0 - y;
}

static void print_mix(void) {
    printf("instruction mix of the generated bmi2 kernels (src/x64/x64_mix.h; body only):\n");
    printf("%-26s %6s %6s %6s %6s %6s %7s %6s %6s %6s %6s %7s\n", "symbol", "mulx", "adcx",
           "adox", "adc", "add", "sbb/sub", "mov", "cmov", "other", "spill", "total");
    for (size_t i = 0; i < sizeof tabai_x64_mix_table / sizeof tabai_x64_mix_table[0]; i++) {
        const tabai_x64_mix *m = &tabai_x64_mix_table[i];
        printf("%-26s %6u %6u %6u %6u %6u %7u %6u %6u %6u %6u %7u\n", m->symbol, m->mulx, m->adcx,
               m->adox, m->adc, m->add, m->sbb_sub, m->mov, m->cmov, m->other, m->spill, m->total);
    }
}

void bench_suite_x64(bench_ctx *c) {
    bench_kernel(c, "bmi2");
    bench_kernel(c, "generic");
    bench_kernel(c, "mulx");
    if (bench_op(c, "x64_mix") && c->mode == BENCH_RUN) print_mix();
    if (!bench_op(c, "x64")) return;
    const tabai_kernels *kb = tabai_kernels_for_tier(TABAI_TIER_BMI2);
    const tabai_kernels *kg = tabai_kernels_for_tier(TABAI_TIER_GENERIC);
    if (!kb || !bench_tier_wanted(c, TABAI_TIER_BMI2)) return;
    static const char *const ops[4] = {"mul", "sqr", "mont_mul", "mont_sqr"};
    for (size_t li = 0; li < c->limb_count; li++) {
        size_t n = c->limbs[li];
        if (n < 1 || n > TABAI_MAX_LIMBS) continue;
        for (int op = 0; op < 4; op++) {
            static char names[TABAI_MAX_LIMBS + 1][24];
            snprintf(names[n], sizeof names[n], "full_%zu", 64 * n);
            bench_case cs = {ops[op], (unsigned)(64 * n), op >= 2 ? names[n] : NULL, n};
            if (!bench_begin(c, &cs)) continue;
            size_t s = tabai_slot(n);
            uint64_t *buf = bench_alloc(8 * (16 * n + 16));
            uint64_t *a = buf, *b = a + n, *p = b + n, *r0 = p + n, *r1 = r0 + 2 * n,
                     *r2 = r1 + 2 * n;
            bench_rand_limbs(c, p, n);
            p[0] |= 1;
            p[n - 1] |= 1ULL << 63;
            bench_rand_below(c, a, p, n);
            bench_rand_below(c, b, p, n);
            uint64_t pinv = neg_inv64(p[0]);
            x64_arg xb = {kb, n, s, r0, a, b, p, pinv, 0};
            x64_arg xg = {kg, n, s, r1, a, b, p, pinv, 0};
            x64_arg xo = {NULL, n, s, r2, a, b, p, pinv, 0};
            bench_impl im[4];
            size_t cnt = 0;
            switch (op) {
            case 0: xo.mulx = (uint64_t)n * n; break;
            case 1: xo.mulx = (uint64_t)n * (n + 1) / 2; break;
            case 2:
                kb->mont_mul[s](r0, a, b, p, pinv, n), kg->mont_mul[s](r1, a, b, p, pinv, n);
                bench_check_limbs(&cs, kb->mont_mul_sym[s], r0, r1, n);
                im[cnt++] = (bench_impl){"tabai", "bmi2", kb->mont_mul_sym[s], run_mont_mul, NULL, &xb, 1};
                im[cnt++] = (bench_impl){"tabai", "generic", kg->mont_mul_sym[s], run_mont_mul, NULL, &xg, 1};
                xo.mulx = 2 * (uint64_t)n * n + n;
                break;
            default:
                kb->mont_sqr[s](r0, a, p, pinv, n), kg->mont_sqr[s](r1, a, p, pinv, n);
                bench_check_limbs(&cs, kb->mont_sqr_sym[s], r0, r1, n);
                im[cnt++] = (bench_impl){"tabai", "bmi2", kb->mont_sqr_sym[s], run_mont_sqr, NULL, &xb, 1};
                im[cnt++] = (bench_impl){"tabai", "generic", kg->mont_sqr_sym[s], run_mont_sqr, NULL, &xg, 1};
                xo.mulx = (uint64_t)n * (n + 1) / 2 + (uint64_t)n * n + n;
                break;
            }
            /* the timed Montgomery loops feed r back in: start from a reduced value */
            if (op >= 2) memcpy(r0, a, 8 * n), memcpy(r1, a, 8 * n);
            im[cnt++] = (bench_impl){"bound", "mulx", NULL, run_bound, NULL, &xo, 1};
            bench_measure(c, &cs, im, cnt);
            free(buf);
        }
    }
}
