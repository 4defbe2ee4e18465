/* The seeds' delayed-carry kernels in the benchmark, and the records of the reproduction
 * report (`--reproduce`): each seed's experiment measured on this machine, with the fastest
 * tabai kernel for that size. This file only measures and writes records; the report's
 * tables, ratios and verdicts are computed by python/tabai/_reproduce.py from them.
 *
 * Timing: the harness's loop (bench_time): implementations of one experiment alternate
 * A B C A B C ...; each sample is a batch of calls timed with lfence;rdtsc; the median of the
 * samples is reported (minimum kept too). TSC ticks are not core cycles.
 *
 * The digit-form kernels (`mul_digits`, conversion excluded, as seed 000 measured) and the
 * limb-form ones (`mul`, conversion included) are separate records. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/delayed/delayed.h"
#include "../src/dispatch/registry.h"
#include "../src/mb/mb.h"
#include "harness.h"
#include "moduli.h"
#include "tabai.h"

/* kernel labels come from the kernel registry (src/dispatch/registry.def), never spelled here */
#define KL(X) tabai_kernel_name(TABAI_KERNEL_##X)
static const char *mb4_label(void) {
    for (const tabai_kernel_rec *r = tabai_registry; r->label; r++)
        if (r->op == TABAI_KOP_MUL_MB4) return r->label;
    return "?";
}

/* Records of the reproduction go to a sink (the harness has no call that takes figures
 * measured elsewhere; bench_measure keeps them). */
struct dl_impl;
typedef struct delayed_sink {
    void *ctx;
    void (*record)(void *ctx, const char *experiment, const char *op, unsigned bits,
                   const char *modulus, const struct dl_impl *m);
} delayed_sink;

/* ---- timing ------------------------------------------------------------------------- */

typedef struct dl_impl {
    const char *impl;   /* "tabai", "gmp", "seed" */
    const char *kernel; /* label */
    const char *symbol; /* internal function without tabai_, or NULL */
    void (*run)(const struct dl_impl *, long iters);
    /* operands */
    uint64_t *r, *a, *b;
    double *fr, *fa, *fb;
    uint16_t *hr, *ha, *hb;
    size_t n, nd;
    unsigned bits;
    const tabai_mont *mont;
    const tabai_ohta *ohta;
    tabai_kernel k;
    const tabai_mb_kernel *mbk; /* seed 001: a multi-buffer kernel and its lane constants */
    const tabai_mb_mont *mbc;
    size_t useful; /* seed 002: the operand's own digit count (nd without the padding) */
    /* results */
    double ns, tsc, ns_min;
    long reps;
} dl_impl;

static double dl_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void dl_run(void *arg, size_t iters) {
    const dl_impl *m = arg;
    m->run(m, (long)iters);
}

/* Alternating medians of `count` implementations within about `seconds` in all: the
 * harness's timing loop (bench_time), its figures kept in the dl_impl for the report. */
static void dl_measure(dl_impl *im, size_t count, double seconds) {
    bench_impl bi[16] = {{0}};
    bench_timing tm[16];
    for (size_t i = 0; i < count; i++)
        bi[i] = (bench_impl){.impl = im[i].impl, .kernel = im[i].kernel, .symbol = im[i].symbol,
                             .run = dl_run, .arg = &im[i]};
    bench_time(bi, count, seconds, tm);
    for (size_t i = 0; i < count; i++) {
        im[i].ns = tm[i].ns;
        im[i].tsc = tm[i].tsc;
        im[i].ns_min = tm[i].ns_min;
        im[i].reps = (long)(tm[i].rounds * tm[i].batch);
    }
}

/* ---- the operations ----------------------------------------------------------------- */

#define LOOP(body)                                                                        \
    for (long it_ = 0; it_ < iters; it_++) {                                              \
        body;                                                                             \
        __asm__ volatile("" ::: "memory");                                               \
    }

static void run_mul_with(const dl_impl *m, long iters) { LOOP((void)!tabai_mul_with(m->k, m->r, m->a, m->b, m->n)) }
static void run_mb_mul(const dl_impl *m, long iters) {
    LOOP(m->mbk->mont_mul(m->r, m->r, m->b, m->mbc->p, m->mbc->k0, m->mbc->d))
}
static void run_mul_n(const dl_impl *m, long iters) { LOOP(tabai_mul_n(m->r, m->a, m->b, m->n)) }
static void run_gmp_mul(const dl_impl *m, long iters) {
    LOOP(mpn_mul_n((mp_limb_t *)m->r, (const mp_limb_t *)m->a, (const mp_limb_t *)m->b, (mp_size_t)m->n))
}
static void run_c16_digits(const dl_impl *m, long iters) { LOOP(tabai_mul_c16_generic(m->hr, m->ha, m->hb, m->nd)) }
static void run_rd_sse2(const dl_impl *m, long iters) { LOOP(tabai_mul_rd_sse2(m->r, m->a, m->b, m->nd, m->bits)) }
static void run_rd_avx2(const dl_impl *m, long iters) { LOOP(tabai_mul_rd_avx2(m->r, m->a, m->b, m->nd, m->bits)) }
static void run_f64_gen(const dl_impl *m, long iters) { LOOP(tabai_mul_f64_generic(m->fr, m->fa, m->fb, m->nd, m->bits)) }
static void run_f64_avx2(const dl_impl *m, long iters) { LOOP(tabai_mul_f64_avx2(m->fr, m->fa, m->fb, m->nd, m->bits)) }
static void run_f64fma(const dl_impl *m, long iters) { LOOP(tabai_mul_f64fma_avx2(m->fr, m->fa, m->fb, m->nd, m->bits)) }
static void run_f64fma_vec(const dl_impl *m, long iters) {
    LOOP(tabai_mul_f64fma_vec_avx2(m->fr, m->fa, m->fb, m->nd, m->bits))
}
static void run_f64_carry_int(const dl_impl *m, long iters) { LOOP(tabai_f64_carry_pass(m->fr, m->fa, 2 * m->nd, m->bits)) }
static void run_f64_carry_float(const dl_impl *m, long iters) {
    LOOP(tabai_f64_carry_pass_float(m->fr, m->fa, 2 * m->nd, m->bits))
}
static void run_mont(const dl_impl *m, long iters) { LOOP((void)!tabai_mont_mul(m->mont, m->r, m->a, m->b)) }
static void run_ohta(const dl_impl *m, long iters) { LOOP((void)!tabai_ohta_mul_with(m->k, m->ohta, m->r, m->a, m->b)) }
static void run_mont_rd(const dl_impl *m, long iters) {
    LOOP(tabai_mont_mul_n_rd_generic(m->r, m->a, m->b, m->ohta->p, m->n, m->bits))
}

/* ---- helpers ------------------------------------------------------------------------ */

static uint64_t dl_rng = 0x243f6a8885a308d3ULL;
static uint64_t dl_rand(void) {
    dl_rng ^= dl_rng << 13;
    dl_rng ^= dl_rng >> 7;
    dl_rng ^= dl_rng << 17;
    return dl_rng;
}

static const char *dl_experiment = ""; /* the record's "experiment": the report section */

static void dl_emit(const delayed_sink *sink, const char *op, unsigned bits, const char *modulus,
                    const dl_impl *m) {
    if (sink && sink->record) sink->record(sink->ctx, dl_experiment, op, bits, modulus, m);
}

static int avx2_ok(void) { return tabai_kernel_available(TABAI_KERNEL_SIMD29_AVX2) == TABAI_OK; }

/* core clock estimate: a chain of dependent adds (1 cycle each); many short chains, the
 * fastest kept, so that one of them runs without being preempted on a busy machine */
static double dl_core_ghz(void) {
    double best = 0;
    for (int r = 0; r < 200; r++) {
        uint64_t n = 2000000;
        double t0 = dl_now_ns();
        __asm__ volatile("1: add $1, %%rax\n add $1, %%rax\n add $1, %%rax\n add $1, %%rax\n"
                         " sub $4, %0\n jnz 1b"
                         : "+r"(n)::"rax", "cc");
        double g = 2000000.0 / (dl_now_ns() - t0);
        if (g > best) best = g;
    }
    return best;
}

/* the mul kernels of tabai_mul_with, in report order */
static const tabai_kernel dl_mul_kernels[] = {TABAI_KERNEL_C16,          TABAI_KERNEL_SIMD29_SSE2,
                                              TABAI_KERNEL_SIMD29_AVX2,  TABAI_KERNEL_FP64,
                                              TABAI_KERNEL_FP64_VEC,     TABAI_KERNEL_FP64_FMA,
                                              TABAI_KERNEL_FP64_FMA_VEC};

/* ---- the reproduction's experiments: records only (python/tabai/_reproduce.py renders
 * the report from them, in the order they are emitted here) ---------------------------- */

static const bench_modulus *dl_find_modulus(const char *name) {
    for (size_t i = 0; i < sizeof bench_moduli / sizeof bench_moduli[0]; i++)
        if (strcmp(bench_moduli[i].name, name) == 0) return &bench_moduli[i];
    return NULL;
}

/* seed 000: 1024 x 1024 bits, 16-bit standard C vs 29-bit SIMD */
static void repro_seed000(const delayed_sink *sink, double sec) {
    dl_experiment = "seed000";
    const size_t n = 16, nd = 36, nd16 = 64;
    const unsigned b = 29;
    static uint64_t a[16], bb[16], r[32], ad[40], bd[40], rd[80];
    static uint16_t a16[64], b16[64], r16[128];
    for (size_t i = 0; i < n; i++) {
        a[i] = dl_rand();
        bb[i] = dl_rand();
    }
    memcpy(a16, a, sizeof a16);
    memcpy(b16, bb, sizeof b16);
    tabai_rd_from_limbs(ad, nd, a, n, b);
    tabai_rd_from_limbs(bd, nd, bb, n, b);
    int avx2 = avx2_ok();
    dl_impl im[12];
    size_t c = 0;
    im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(C16), .symbol = "mul_c16_generic",
                        .run = run_c16_digits, .hr = r16, .ha = a16, .hb = b16, .nd = nd16};
    im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(SIMD29_SSE2), .symbol = "mul_rd_sse2",
                        .run = run_rd_sse2, .r = rd, .a = ad, .b = bd, .nd = nd, .bits = b};
    if (avx2)
        im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(SIMD29_AVX2), .symbol = "mul_rd_avx2",
                            .run = run_rd_avx2, .r = rd, .a = ad, .b = bd, .nd = nd, .bits = b};
    size_t ndig = c;
    im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(C16), .symbol = "mul_n_c16_generic",
                        .run = run_mul_with, .r = r, .a = a, .b = bb, .n = n, .k = TABAI_KERNEL_C16};
    im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(SIMD29_SSE2), .symbol = "mul_n_simd29_sse2",
                        .run = run_mul_with, .r = r, .a = a, .b = bb, .n = n,
                        .k = TABAI_KERNEL_SIMD29_SSE2};
    if (avx2)
        im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(SIMD29_AVX2), .symbol = "mul_n_simd29_avx2",
                            .run = run_mul_with, .r = r, .a = a, .b = bb, .n = n,
                            .k = TABAI_KERNEL_SIMD29_AVX2};
    im[c++] = (dl_impl){.impl = "tabai", .kernel = tabai_cpu_name(), .symbol = "mul_n (dispatched)",
                        .run = run_mul_n, .r = r, .a = a, .b = bb, .n = n};
    im[c++] = (dl_impl){.impl = "gmp", .kernel = "mpn_mul_n", .symbol = NULL, .run = run_gmp_mul,
                        .r = r, .a = a, .b = bb, .n = n};
    dl_measure(im, c, sec);
    for (size_t i = 0; i < c; i++) dl_emit(sink, i < ndig ? "mul_digits" : "mul", 1024, NULL, &im[i]);
}

/* seed 002: 640 and 2000-bit products with float64 digits, fraction of FP peak */
static void repro_seed002(const delayed_sink *sink, double sec) {
    dl_experiment = "seed002";
    static const unsigned sizes[2] = {640, 2000};
    int avx2 = avx2_ok();
    for (int s = 0; s < 2; s++) {
        unsigned bits = sizes[s];
        size_t n = (bits + 63) / 64;
        static double fa[TABAI_RD_MAX_DIGITS], fb[TABAI_RD_MAX_DIGITS], fr[2 * TABAI_RD_MAX_DIGITS];
        static double ga[TABAI_RD_MAX_DIGITS], gb[TABAI_RD_MAX_DIGITS], gr[2 * TABAI_RD_MAX_DIGITS];
        static double ha[TABAI_RD_MAX_DIGITS], hb[TABAI_RD_MAX_DIGITS], hr[2 * TABAI_RD_MAX_DIGITS];
        static double col[2 * TABAI_RD_MAX_DIGITS];
        static uint64_t a[TABAI_MAX_LIMBS], b[TABAI_MAX_LIMBS], r[2 * TABAI_MAX_LIMBS];
        for (size_t i = 0; i < n; i++) {
            a[i] = dl_rand();
            b[i] = dl_rand();
        }
        if (bits % 64) {
            a[n - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
            b[n - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
        }
        /* the seed's digits: 20 bits; tabai's choice from the bound; the FMA split's */
        const unsigned b20 = 20, bt = tabai_f64_bits_for(n), bf = tabai_f64fma_bits_for(n);
        const size_t nd20 = (tabai_digits_for(bits, b20) + 3) & ~(size_t)3;
        const size_t ndt = (tabai_digits_for(bits, bt) + 3) & ~(size_t)3;
        const size_t ndf = tabai_digits_for(bits, bf);
        tabai_f64_from_limbs(fa, nd20, a, n, b20);
        tabai_f64_from_limbs(fb, nd20, b, n, b20);
        tabai_f64_from_limbs(ga, ndt, a, n, bt);
        tabai_f64_from_limbs(gb, ndt, b, n, bt);
        tabai_f64_from_limbs(ha, ndf, a, n, bf);
        tabai_f64_from_limbs(hb, ndf, b, n, bf);
        for (size_t k = 0; k < 2 * ndt; k++) col[k] = (double)(dl_rand() >> 16); /* columns < 2^48 */
        dl_impl im[16];
        size_t c = 0;
        im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(FP64), .symbol = "mul_f64_generic",
                            .run = run_f64_gen, .fr = fr, .fa = fa, .fb = fb, .nd = nd20, .bits = b20};
        im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(FP64), .symbol = "mul_f64_generic",
                            .run = run_f64_gen, .fr = gr, .fa = ga, .fb = gb, .nd = ndt, .bits = bt};
        if (avx2) {
            im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(FP64_VEC), .symbol = "mul_f64_avx2",
                                .run = run_f64_avx2, .fr = fr, .fa = fa, .fb = fb, .nd = nd20, .bits = b20};
            im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(FP64_VEC), .symbol = "mul_f64_avx2",
                                .run = run_f64_avx2, .fr = gr, .fa = ga, .fb = gb, .nd = ndt, .bits = bt};
            im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(FP64_FMA), .symbol = "mul_f64fma_avx2",
                                .run = run_f64fma, .fr = hr, .fa = ha, .fb = hb, .nd = ndf, .bits = bf};
            im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(FP64_FMA_VEC), .symbol = "mul_f64fma_vec_avx2",
                                .run = run_f64fma_vec, .fr = hr, .fa = ha, .fb = hb, .nd = ndf, .bits = bf};
        }
        size_t ndig = c;
        im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(FP64), .symbol = "mul_n_fp64_generic",
                            .run = run_mul_with, .r = r, .a = a, .b = b, .n = n, .k = TABAI_KERNEL_FP64};
        if (avx2)
            im[c++] = (dl_impl){.impl = "tabai", .kernel = KL(FP64_FMA_VEC), .symbol = "mul_n_fp64fma_vec_avx2",
                                .run = run_mul_with, .r = r, .a = a, .b = b, .n = n,
                                .k = TABAI_KERNEL_FP64_FMA_VEC};
        im[c++] = (dl_impl){.impl = "tabai", .kernel = tabai_cpu_name(), .symbol = "mul_n (dispatched)",
                            .run = run_mul_n, .r = r, .a = a, .b = b, .n = n};
        im[c++] = (dl_impl){.impl = "gmp", .kernel = "mpn_mul_n", .run = run_gmp_mul, .r = r, .a = a,
                            .b = b, .n = n};
        size_t ncarry = c;
        im[c++] = (dl_impl){.impl = "tabai", .kernel = "carry pass, int64", .symbol = "f64_carry_pass",
                            .run = run_f64_carry_int, .fr = gr, .fa = col, .nd = ndt, .bits = bt};
        im[c++] = (dl_impl){.impl = "tabai", .kernel = "carry pass, seed's float", .symbol = "f64_carry_pass_float",
                            .run = run_f64_carry_float, .fr = gr, .fa = col, .nd = ndt, .bits = bt};
        dl_measure(im, c, sec);
        for (size_t i = 0; i < c; i++) {
            /* useful products: the operand's own digit count, not the padding */
            if (i < ndig) im[i].useful = tabai_digits_for(bits, im[i].bits);
            dl_emit(sink, i < ndig ? "mul_digits" : i < ncarry ? "mul" : "carry_pass", bits, NULL, &im[i]);
        }
    }
}

/* where each technique stands: mul at 256..8192 bits, every delayed-carry kernel (limbs in
 * and out) and the batched one per product, beside the tier's kernel and GMP */
static void run_mb4(const dl_impl *m, long iters) {
    uint64_t *rr[4] = {m->r, m->r + 2 * m->n, m->r + 4 * m->n, m->r + 6 * m->n};
    const uint64_t *aa[4] = {m->a, m->a, m->b, m->b}, *bb[4] = {m->b, m->a, m->a, m->b};
    LOOP(tabai_mul_n_fp64fma_mb4_avx2(rr, aa, bb, m->n))
}

static void repro_scan(const delayed_sink *sink, double sec) {
    dl_experiment = "scan";
    static const unsigned sizes[] = {256, 512, 1024, 2048, 4096, 8192};
    int avx2 = avx2_ok();
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si] / 64;
        static uint64_t a[TABAI_MAX_LIMBS], b[TABAI_MAX_LIMBS], r[8 * TABAI_MAX_LIMBS];
        for (size_t i = 0; i < n; i++) {
            a[i] = dl_rand();
            b[i] = dl_rand();
        }
        dl_impl im[12];
        size_t c = 0;
        for (size_t k = 0; k < sizeof dl_mul_kernels / sizeof dl_mul_kernels[0]; k++) {
            if (tabai_kernel_available(dl_mul_kernels[k]) != TABAI_OK) continue;
            im[c++] = (dl_impl){.impl = "tabai", .kernel = tabai_kernel_name(dl_mul_kernels[k]),
                                .symbol = tabai_kernel_symbol(dl_mul_kernels[k]), .run = run_mul_with,
                                .r = r, .a = a, .b = b, .n = n, .k = dl_mul_kernels[k]};
        }
        size_t nmb = c;
        if (avx2)
            im[c++] = (dl_impl){.impl = "tabai", .kernel = mb4_label(), .symbol = "mul_n_fp64fma_mb4_avx2",
                                .run = run_mb4, .r = r, .a = a, .b = b, .n = n};
        im[c++] = (dl_impl){.impl = "tabai", .kernel = tabai_cpu_name(), .symbol = "mul_n (dispatched)",
                            .run = run_mul_n, .r = r, .a = a, .b = b, .n = n};
        im[c++] = (dl_impl){.impl = "gmp", .kernel = "mpn_mul_n", .run = run_gmp_mul, .r = r, .a = a,
                            .b = b, .n = n};
        dl_measure(im, c, sec);
        if (avx2) { /* per product */
            im[nmb].ns /= 4;
            im[nmb].tsc /= 4;
            im[nmb].ns_min /= 4;
        }
        for (size_t i = 0; i < c; i++)
            dl_emit(sink, i == nmb && avx2 ? "mul_mb4_per_product" : "mul", sizes[si], NULL, &im[i]);
    }
}

/* seed 003: Ohta (carry save, blocked) vs Montgomery at 220 bits and the larger sizes */
static void repro_seed003(const delayed_sink *sink, double sec) {
    dl_experiment = "seed003";
    static const struct {
        unsigned bits;
        const char *name;
    } cases[] = {{220, NULL},         {256, "p256_p"},   {384, "p384_p"},
                 {521, "p521_p"},     {1024, "rsa2048_p"}, {2048, "modp2048"}};
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        uint64_t p[TABAI_MAX_LIMBS] = {0};
        size_t n = (cases[ci].bits + 63) / 64;
        const char *mname = cases[ci].name;
        const bench_modulus *bm = mname ? dl_find_modulus(mname) : NULL;
        if (bm) {
            memcpy(p, bm->limbs, bm->n * 8);
            n = bm->n;
        } else { /* fixed-seed random odd modulus of exactly `bits` bits */
            uint64_t save = dl_rng;
            dl_rng = 0x3243f6a8885a308dULL + cases[ci].bits;
            for (size_t i = 0; i < n; i++) p[i] = dl_rand();
            dl_rng = save;
            if (cases[ci].bits % 64) p[n - 1] &= ((uint64_t)1 << (cases[ci].bits % 64)) - 1;
            p[n - 1] |= (uint64_t)1 << ((cases[ci].bits - 1) % 64);
            p[0] |= 1;
            mname = "random";
        }
        static tabai_mont mont;
        static tabai_ohta ohta;
        if (tabai_mont_init(&mont, p, n) != TABAI_OK || tabai_ohta_init(&ohta, p, n) != TABAI_OK) continue;
        static uint64_t a[TABAI_MAX_LIMBS], b[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
        for (size_t i = 0; i < n; i++) {
            a[i] = dl_rand();
            b[i] = dl_rand();
        }
        a[n - 1] = p[n - 1] >> 1;
        b[n - 1] = p[n - 1] >> 2;
        unsigned bd = tabai_ohta_cs_bits(&ohta);
        dl_impl im[6] = {
            {.impl = "tabai", .kernel = tabai_cpu_name(), .symbol = "mont_mul (dispatched)", .run = run_mont,
             .r = r, .a = a, .b = b, .n = n, .mont = &mont},
            {.impl = "tabai", .kernel = tabai_cpu_name(), .symbol = "ohta_mul (dispatched)", .run = run_ohta,
             .r = r, .a = a, .b = b, .n = n, .ohta = &ohta, .k = TABAI_KERNEL_AUTO},
            {.impl = "tabai", .kernel = KL(CARRY_SAVE_2X2), .symbol = "ohta_mul_cs2_generic", .run = run_ohta,
             .r = r, .a = a, .b = b, .n = n, .ohta = &ohta, .k = TABAI_KERNEL_CARRY_SAVE_2X2},
            {.impl = "tabai", .kernel = KL(CARRY_SAVE_3X3), .symbol = "ohta_mul_cs3_generic", .run = run_ohta,
             .r = r, .a = a, .b = b, .n = n, .ohta = &ohta, .k = TABAI_KERNEL_CARRY_SAVE_3X3},
            {.impl = "tabai", .kernel = KL(CARRY_SAVE_4X4), .symbol = "ohta_mul_cs4_generic", .run = run_ohta,
             .r = r, .a = a, .b = b, .n = n, .ohta = &ohta, .k = TABAI_KERNEL_CARRY_SAVE_4X4},
            {.impl = "tabai", .kernel = "digit_serial", .symbol = "mont_mul_n_rd_generic", .run = run_mont_rd,
             .r = r, .a = a, .b = b, .n = n, .ohta = &ohta, .bits = bd}};
        dl_measure(im, 6, sec);
        dl_emit(sink, "mont_mul", (unsigned)ohta.bits, mname, &im[0]);
        dl_emit(sink, "ohta_mul", (unsigned)ohta.bits, mname, &im[1]);
        for (int k = 2; k < 5; k++) dl_emit(sink, "ohta_mul", (unsigned)ohta.bits, mname, &im[k]);
        dl_emit(sink, "mont_mul", (unsigned)ohta.bits, mname, &im[5]);
    }
}

/* seed 004: mulPre n = 3..8 vs GMP */
static void repro_seed004(const delayed_sink *sink, double sec) {
    dl_experiment = "seed004";
    for (size_t n = 3; n <= 8; n++) {
        static uint64_t a[8], b[8], r[16];
        for (size_t i = 0; i < n; i++) {
            a[i] = dl_rand();
            b[i] = dl_rand();
        }
        dl_impl im[2] = {{.impl = "tabai", .kernel = tabai_cpu_name(), .symbol = "mul_n (dispatched)",
                          .run = run_mul_n, .r = r, .a = a, .b = b, .n = n},
                         {.impl = "gmp", .kernel = "mpn_mul_n", .run = run_gmp_mul, .r = r, .a = a,
                          .b = b, .n = n}};
        dl_measure(im, 2, sec);
        dl_emit(sink, "mul", 64 * (unsigned)n, NULL, &im[0]);
        dl_emit(sink, "mul", 64 * (unsigned)n, NULL, &im[1]);
    }
}

/* Seed 001: Montgomery products of 8 (zmm) or 4 (ymm) independent operations, IFMA radix
 * 2^52 against the 32-bit AVX-512F baseline, TSC ticks per single product (a call / lanes). */
static void repro_seed001(const delayed_sink *sink, double sec) {
    dl_experiment = "seed001";
    const tabai_mb_kernel *ks[4]; /* the registry's multi-buffer families */
    for (int i = 0; i < 4; i++) ks[i] = tabai_mb_kernels[i].name ? &tabai_mb_kernels[i] : NULL;
    for (int i = 0; i < 4; i++)
        if (!ks[i] || !tabai_mb_kernel_usable(ks[i])) return; /* meta "mb_unusable" says which */
    static const unsigned sizes[] = {128, 256, 384, 1024, 2048, 4096};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        const unsigned bits = sizes[si];
        const size_t n = (bits + 63) / 64;
        uint64_t p[64] = {0}, a[64] = {0}, b[64] = {0};
        for (size_t i = 0; i < n; i++) p[i] = dl_rand(), a[i] = dl_rand(), b[i] = dl_rand();
        p[0] |= 1;
        p[n - 1] |= (uint64_t)1 << 63;
        a[n - 1] >>= 1, b[n - 1] >>= 1; /* < p */
        static tabai_mb_mont ctx[4];
        static uint64_t x[4][TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES];
        static uint64_t y[4][TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES];
        dl_impl im[4];
        memset(im, 0, sizeof im);
        for (int i = 0; i < 4; i++) {
            const uint64_t *lp[8], *la[8], *lb[8];
            for (int l = 0; l < 8; l++) lp[l] = p, la[l] = a, lb[l] = b;
            if (tabai_mb_mont_init(&ctx[i], ks[i], lp, n) != TABAI_OK) bench_fail("seed 001: init");
            tabai_mb_to_digits(x[i], ks[i]->lanes, ks[i]->w, ctx[i].d, la, n);
            tabai_mb_to_digits(y[i], ks[i]->lanes, ks[i]->w, ctx[i].d, lb, n);
            im[i] = (dl_impl){.impl = "tabai", .kernel = ks[i]->name, .symbol = ks[i]->mul_sym,
                              .run = run_mb_mul, .r = x[i], .b = y[i], .n = n, .bits = bits,
                              .mbk = ks[i], .mbc = &ctx[i]};
        }
        dl_measure(im, 4, sec);
        for (int i = 0; i < 4; i++) {
            dl_impl per = im[i]; /* the record: per single product */
            per.ns /= ks[i]->lanes, per.tsc /= ks[i]->lanes, per.ns_min /= ks[i]->lanes;
            dl_emit(sink, "mont_mul_mb", bits, NULL, &per);
        }
    }
}

static double dl_loadavg(void) {
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = -1;
        fclose(f);
    }
    return l;
}

/* the first multi-buffer kernel of seed 001 this CPU cannot run, or NULL */
static const char *dl_mb_unusable(void) {
    for (const tabai_mb_kernel *k = tabai_mb_kernels; k->name; k++)
        if (!tabai_mb_kernel_usable(k)) return k->name;
    return NULL;
}

static void delayed_reproduce(const delayed_sink *sink, double seconds) {
    repro_seed000(sink, seconds);
    repro_seed002(sink, seconds);
    repro_seed003(sink, seconds);
    repro_seed004(sink, seconds);
    repro_scan(sink, seconds);
    repro_seed001(sink, seconds);
}

/* ---- the harness suite (bench/harness.h) -------------------------------------------------
 * Ops (selected with --ops):
 *   delayed    records for op "mul" (kernels c16, simd29_sse2, simd29_avx2, fp64, fp64_vec,
 *              fp64_fma, fp64_fma_vec; limbs in and out, conversion included), op "mul_mb4"
 *              (fp64_fma_mb4: four independent products per call; time per call) and op
 *              "mul_digits" (the same kernels on digits, conversion excluded, as seed 000
 *              measured) for every selected limb count, and op "ohta_mul" (carry_save_2x2,
 *              3x3, 4x4) for every selected modulus. Every kernel's result is checked against
 *              GMP first.
 *   reproduce  the records of the reproduction report as JSON: the path TABAI_REPRODUCE_MD
 *              (default reproduction.md) names the report, the records go beside it with
 *              .json (the benchmark's record format plus "experiment", "ns_min",
 *              "digit_bits", "digits", "useful_digits"; meta adds the date, core clock, load
 *              and which kernels run here); `tabai bench --reproduce` renders the Markdown
 *              from them. Timed by the harness's loop through bench_time, which hands the
 *              figures back. Runs only when named explicitly (not part of the default run). */
typedef struct dh_arg {
    tabai_kernel k;
    int form; /* 0 limbs, 1 rd digits sse2, 2 rd avx2, 3 f64 gen, 4 f64 avx2, 5 fma, 6 fma vec, 7 c16 */
    size_t n, nd;
    unsigned bits;
    uint64_t *r, *a, *b;
    double *fr, *fa, *fb;
    uint16_t *hr, *ha, *hb;
    const tabai_ohta *ohta;
    uint64_t *mr[4];
    const uint64_t *ma[4], *mb[4];
} dh_arg;

static void dh_run(void *v, size_t it) {
    dh_arg *x = v;
    switch (x->form) {
    case 0: for (size_t i = 0; i < it; i++) (void)!tabai_mul_with(x->k, x->r, x->a, x->b, x->n); break;
    case 1: for (size_t i = 0; i < it; i++) tabai_mul_rd_sse2(x->r, x->a, x->b, x->nd, x->bits); break;
    case 2: for (size_t i = 0; i < it; i++) tabai_mul_rd_avx2(x->r, x->a, x->b, x->nd, x->bits); break;
    case 3: for (size_t i = 0; i < it; i++) tabai_mul_f64_generic(x->fr, x->fa, x->fb, x->nd, x->bits); break;
    case 4: for (size_t i = 0; i < it; i++) tabai_mul_f64_avx2(x->fr, x->fa, x->fb, x->nd, x->bits); break;
    case 5: for (size_t i = 0; i < it; i++) tabai_mul_f64fma_avx2(x->fr, x->fa, x->fb, x->nd, x->bits); break;
    case 6: for (size_t i = 0; i < it; i++) tabai_mul_f64fma_vec_avx2(x->fr, x->fa, x->fb, x->nd, x->bits); break;
    case 7: for (size_t i = 0; i < it; i++) tabai_mul_c16_generic(x->hr, x->ha, x->hb, x->nd); break;
    case 9: for (size_t i = 0; i < it; i++) tabai_mul_n_fp64fma_mb4_avx2(x->mr, x->ma, x->mb, x->n); break;
    default: for (size_t i = 0; i < it; i++) (void)!tabai_ohta_mul_with(x->k, x->ohta, x->r, x->a, x->b); break;
    }
}

/* JSON lines of the reproduction's records, written as {"meta":..., "records": [...]} */
typedef struct dh_json {
    FILE *f;
    int first;
} dh_json;

static void dh_json_record(void *ctx, const char *experiment, const char *op, unsigned bits,
                           const char *modulus, const dl_impl *m) {
    dh_json *j = ctx;
    char e[5][256];
    fprintf(j->f, "%s\n  {\"op\": %s, \"bits\": %u, \"modulus\": %s, \"impl\": %s, \"kernel\": %s, "
                  "\"symbol\": %s, \"ns\": %.17g, \"tsc\": %.17g, \"reps\": %ld, \"ns_min\": %.17g, "
                  "\"experiment\": %s, \"digit_bits\": %u, \"digits\": %zu, \"useful_digits\": %zu}",
            j->first ? "" : ",", bench_json_str(e[0], sizeof e[0], op), bits,
            modulus ? bench_json_str(e[1], sizeof e[1], modulus) : "null",
            bench_json_str(e[2], sizeof e[2], m->impl), bench_json_str(e[3], sizeof e[3], m->kernel),
            m->symbol ? bench_json_str(e[1], sizeof e[1], m->symbol) : "null", m->ns, m->tsc, m->reps,
            m->ns_min, bench_json_str(e[4], sizeof e[4], experiment), m->bits, m->nd, m->useful);
    j->first = 0;
}

static void dh_reproduce(bench_ctx *c) {
    const char *md_path = getenv("TABAI_REPRODUCE_MD");
    if (!md_path || !*md_path) md_path = "reproduction.md";
    char json_path[1024];
    snprintf(json_path, sizeof json_path, "%s", md_path);
    char *dot = strrchr(json_path, '.');
    if (dot && !strchr(dot, '/')) *dot = 0;
    strncat(json_path, ".json", sizeof json_path - strlen(json_path) - 1);
    FILE *jf = fopen(json_path, "w");
    if (!jf) bench_fail("reproduce: cannot write %s", json_path);
    char esc[256];
    const double seconds = c->seconds < 0.3 ? 0.3 : c->seconds;
    const double ghz = dl_core_ghz();
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    const char *unusable = dl_mb_unusable();
    fprintf(jf, "{\"meta\": {\"what\": \"tabai reproduction report\", \"cpu\": %s, \"tier\": \"%s\", "
                "\"gmp_version\": \"%s\", \"tsc_hz\": %.0f, \"note\": \"TSC ticks are not core "
                "cycles\", \"stat\": \"median of samples, implementations alternating\", "
                "\"date\": \"%s\", \"core_ghz\": %.17g, \"tsc_hz_exact\": %.17g, \"seconds\": %.17g, "
                "\"loadavg\": %.17g, \"ifma\": %s, \"mb_unusable\": %s%s%s},\n "
                "\"records\": [",
            bench_json_str(esc, sizeof esc, tabai_cpu_brand()), tabai_cpu_name(), gmp_version,
            bench_tsc_hz(), date, ghz, bench_tsc_hz(), seconds, dl_loadavg(),
            (tabai_cpu_features() & TABAI_CPU_AVX512IFMA) ? "true" : "false",
            unusable ? "\"" : "", unusable ? unusable : "null", unusable ? "\"" : "");
    dh_json j = {jf, 1};
    delayed_sink sink = {&j, dh_json_record};
    delayed_reproduce(&sink, seconds);
    fprintf(jf, "\n ]}\n");
    fclose(jf);
    fprintf(stderr, "reproduce: wrote %s (the report %s is rendered from it by `tabai bench "
                    "--reproduce`, or `tabai report --reproduce %s`)\n",
            json_path, md_path, json_path);
}

void bench_suite_delayed(bench_ctx *c) {
    for (int k = 1; k < TABAI_KERNEL_COUNT; k++) bench_kernel(c, tabai_kernel_name((tabai_kernel)k));
    bench_kernel(c, mb4_label());
    /* reproduce: only when named (--ops reproduce / --reproduce), never in the default run */
    if (bench_op(c, "reproduce") && c->mode == BENCH_RUN)
        for (size_t i = 0; i < c->want_op_count; i++)
            if (!strcmp(c->want_ops[i], "reproduce")) dh_reproduce(c);
    if (!bench_op(c, "delayed")) return;
    int avx2 = avx2_ok();
    for (size_t li = 0; li < c->limb_count; li++) {
        size_t n = c->limbs[li];
        if (n < 1 || n > TABAI_MAX_LIMBS) continue;
        /* op mul: limbs in and out */
        bench_case cs = {"mul", (unsigned)(64 * n), NULL, n};
        if (bench_begin(c, &cs)) {
            uint64_t *buf = bench_alloc(8 * (8 * n + 8));
            uint64_t *a = buf, *b = a + n, *want = b + n, *r = want + 2 * n;
            bench_rand_limbs(c, a, n);
            bench_rand_limbs(c, b, n);
            mpn_mul_n((mp_limb_t *)want, (const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
            dh_arg args[8];
            bench_impl im[8];
            size_t cnt = 0;
            for (size_t k = 0; k < sizeof dl_mul_kernels / sizeof dl_mul_kernels[0]; k++) {
                tabai_kernel kk = dl_mul_kernels[k];
                if (tabai_kernel_available(kk) != TABAI_OK) continue;
                memset(r, 0, 16 * n);
                (void)!tabai_mul_with(kk, r, a, b, n);
                bench_check_limbs(&cs, tabai_kernel_name(kk), r, want, 2 * n);
                args[cnt] = (dh_arg){.k = kk, .form = 0, .n = n, .r = r, .a = a, .b = b};
                im[cnt] = (bench_impl){"tabai", tabai_kernel_name(kk), tabai_kernel_symbol(kk),
                                       dh_run, NULL, &args[cnt], 1};
                cnt++;
            }
            bench_measure(c, &cs, im, cnt);
            free(buf);
        }
        /* op mul_mb4: four independent n x n products per call (lanes = products); the
         * record is the time per call, i.e. per four products */
        bench_case cm = {"mul_mb4", (unsigned)(64 * n), NULL, n};
        if (avx2 && bench_begin(c, &cm)) {
            uint64_t *mbuf = bench_alloc(8 * (24 * n));
            uint64_t *want = mbuf + 16 * n, *a = want + 4 * n, *b = a + 2 * n;
            bench_rand_limbs(c, a, 2 * n); /* a: a0 a1, b: b0 b1 (lanes 2, 3 repeat 0, 1) */
            bench_rand_limbs(c, b, 2 * n);
            dh_arg x = {.form = 9, .n = n};
            for (int l = 0; l < 4; l++) {
                x.mr[l] = mbuf + 4 * n * (size_t)l;
                x.ma[l] = a + n * (size_t)(l & 1);
                x.mb[l] = b + n * (size_t)(l & 1);
            }
            tabai_mul_n_fp64fma_mb4_avx2(x.mr, x.ma, x.mb, n);
            for (int l = 0; l < 4; l++) {
                mpn_mul_n((mp_limb_t *)want, (const mp_limb_t *)x.ma[l], (const mp_limb_t *)x.mb[l], (mp_size_t)n);
                bench_check_limbs(&cm, mb4_label(), x.mr[l], want, 2 * n);
            }
            bench_impl im = {"tabai", mb4_label(), "mul_n_fp64fma_mb4_avx2", dh_run, NULL, &x, 1};
            bench_measure(c, &cm, &im, 1);
            free(mbuf);
        }
        /* op mul_digits: the digit kernels, conversion excluded */
        bench_case cd = {"mul_digits", (unsigned)(64 * n), NULL, n};
        if (bench_begin(c, &cd)) {
            const unsigned brd = tabai_rd_bits_for(n), bf = tabai_f64_bits_for(n),
                           bm = tabai_f64fma_bits_for(n);
            const size_t ndr = tabai_digits_for(64 * n, brd), ndf = tabai_f64_digits_for(n, bf),
                         ndm = tabai_f64_digits_for(n, bm);
            uint64_t *a = bench_alloc(8 * n), *b = bench_alloc(8 * n), *want = bench_alloc(16 * n),
                     *got = bench_alloc(16 * n);
            uint64_t *ad = bench_alloc(8 * ndr), *bd = bench_alloc(8 * ndr), *rd = bench_alloc(16 * ndr);
            double *fa = bench_alloc(8 * ndf), *fb = bench_alloc(8 * ndf), *fr = bench_alloc(16 * ndf);
            double *ma = bench_alloc(8 * ndm), *mb = bench_alloc(8 * ndm), *mr = bench_alloc(16 * ndm);
            uint16_t *ha = bench_alloc(8 * n), *hb = bench_alloc(8 * n), *hr = bench_alloc(16 * n);
            bench_rand_limbs(c, a, n);
            bench_rand_limbs(c, b, n);
            mpn_mul_n((mp_limb_t *)want, (const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
            tabai_rd_from_limbs(ad, ndr, a, n, brd);
            tabai_rd_from_limbs(bd, ndr, b, n, brd);
            tabai_f64_from_limbs(fa, ndf, a, n, bf);
            tabai_f64_from_limbs(fb, ndf, b, n, bf);
            tabai_f64_from_limbs(ma, ndm, a, n, bm);
            tabai_f64_from_limbs(mb, ndm, b, n, bm);
            for (size_t i = 0; i < n; i++)
                for (unsigned q = 0; q < 4; q++) {
                    ha[4 * i + q] = (uint16_t)(a[i] >> (16 * q));
                    hb[4 * i + q] = (uint16_t)(b[i] >> (16 * q));
                }
            static const struct {
                tabai_kernel kernel;
                const char *symbol;
                int form, avx2;
            } dk[] = {{TABAI_KERNEL_C16, "mul_c16_generic", 7, 0},
                      {TABAI_KERNEL_SIMD29_SSE2, "mul_rd_sse2", 1, 0},
                      {TABAI_KERNEL_SIMD29_AVX2, "mul_rd_avx2", 2, 1},
                      {TABAI_KERNEL_FP64, "mul_f64_generic", 3, 0},
                      {TABAI_KERNEL_FP64_VEC, "mul_f64_avx2", 4, 1},
                      {TABAI_KERNEL_FP64_FMA, "mul_f64fma_avx2", 5, 1},
                      {TABAI_KERNEL_FP64_FMA_VEC, "mul_f64fma_vec_avx2", 6, 1}};
            dh_arg args[8];
            bench_impl im[8];
            size_t cnt = 0;
            for (size_t k = 0; k < sizeof dk / sizeof dk[0]; k++) {
                if (dk[k].avx2 && !avx2) continue;
                dh_arg x = {.form = dk[k].form, .n = n};
                switch (dk[k].form) {
                case 7: x.nd = 4 * n; x.hr = hr; x.ha = ha; x.hb = hb; break;
                case 1: case 2: x.nd = ndr; x.bits = brd; x.r = rd; x.a = ad; x.b = bd; break;
                case 3: case 4: x.nd = ndf; x.bits = bf; x.fr = fr; x.fa = fa; x.fb = fb; break;
                default: x.nd = ndm; x.bits = bm; x.fr = mr; x.fa = ma; x.fb = mb; break;
                }
                dh_run(&x, 1); /* check the result once, converted back outside the timing */
                switch (dk[k].form) {
                case 7:
                    for (size_t i = 0; i < 2 * n; i++)
                        got[i] = (uint64_t)hr[4 * i] | (uint64_t)hr[4 * i + 1] << 16 |
                                 (uint64_t)hr[4 * i + 2] << 32 | (uint64_t)hr[4 * i + 3] << 48;
                    break;
                case 1: case 2: tabai_rd_to_limbs(got, 2 * n, rd, 2 * ndr, brd); break;
                case 3: case 4: tabai_f64_to_limbs(got, 2 * n, fr, 2 * ndf, bf); break;
                default: tabai_f64_to_limbs(got, 2 * n, mr, 2 * ndm, bm); break;
                }
                bench_check_limbs(&cd, tabai_kernel_name(dk[k].kernel), got, want, 2 * n);
                args[cnt] = x;
                const char *label = tabai_kernel_name(dk[k].kernel);
                im[cnt] = (bench_impl){"tabai", label, dk[k].symbol, dh_run, NULL, &args[cnt], 1};
                cnt++;
            }
            bench_measure(c, &cd, im, cnt);
            free(a); free(b); free(want); free(got); free(ad); free(bd); free(rd);
            free(fa); free(fb); free(fr); free(ma); free(mb); free(mr); free(ha); free(hb); free(hr);
        }
    }
    /* op ohta_mul: the carry-save kernels on every selected modulus */
    for (size_t q = 0; q < c->mod_count; q++) {
        const bench_mod *m = &c->mods[q];
        bench_case cs = {"ohta_mul", m->bits, m->name, m->n};
        if (!bench_begin(c, &cs)) continue;
        tabai_ohta *ctx = bench_alloc(sizeof *ctx);
        if (tabai_ohta_init(ctx, m->p, m->n) != TABAI_OK) bench_fail("ohta_init %s", m->name);
        uint64_t *a = bench_alloc(8 * m->n), *b = bench_alloc(8 * m->n), *want = bench_alloc(8 * m->n),
                 *r = bench_alloc(8 * m->n);
        bench_rand_below(c, a, m->p, m->n);
        bench_rand_below(c, b, m->p, m->n);
        (void)!tabai_ohta_mul(ctx, want, a, b);
        static const tabai_kernel ks[3] = {TABAI_KERNEL_CARRY_SAVE_2X2, TABAI_KERNEL_CARRY_SAVE_3X3,
                                           TABAI_KERNEL_CARRY_SAVE_4X4};
        dh_arg args[3];
        bench_impl im[3];
        for (int k = 0; k < 3; k++) {
            (void)!tabai_ohta_mul_with(ks[k], ctx, r, a, b);
            bench_check_limbs(&cs, tabai_kernel_name(ks[k]), r, want, m->n);
            args[k] = (dh_arg){.k = ks[k], .form = 8, .r = r, .a = a, .b = b, .ohta = ctx};
            im[k] = (bench_impl){"tabai", tabai_kernel_name(ks[k]), tabai_kernel_symbol(ks[k]), dh_run,
                                 NULL, &args[k], 1};
        }
        bench_measure(c, &cs, im, 3);
        free(ctx); free(a); free(b); free(want); free(r);
    }
}
