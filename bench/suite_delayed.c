/* The seeds' delayed-carry kernels in the benchmark (issue 5), and the reproduction report
 * (`--reproduce`): each seed's experiment beside tabai's measurement of the same thing on this
 * machine, with the fastest tabai kernel for that size.
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

#include "../src/mb/mb.h"
#include "../src/simd/delayed.h"
#include "harness.h"
#include "moduli.h"
#include "tabai.h"

/* Records of the reproduction go to a sink (the harness has no call that takes figures
 * measured elsewhere; bench_measure keeps them). */
typedef struct delayed_sink {
    void *ctx;
    void (*record)(void *ctx, const char *op, unsigned bits, const char *modulus,
                   const char *impl, const char *kernel, const char *symbol, double ns,
                   double tsc, long reps);
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

static void run_mul_with(const dl_impl *m, long iters) { LOOP(tabai_mul_with(m->k, m->r, m->a, m->b, m->n)) }
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
static void run_mont(const dl_impl *m, long iters) { LOOP(tabai_mont_mul(m->mont, m->r, m->a, m->b)) }
static void run_ohta(const dl_impl *m, long iters) { LOOP(tabai_ohta_mul_with(m->k, m->ohta, m->r, m->a, m->b)) }
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

static void dl_emit(const delayed_sink *sink, const char *op, unsigned bits, const char *modulus,
                    const dl_impl *m) {
    if (sink && sink->record)
        sink->record(sink->ctx, op, bits, modulus, m->impl, m->kernel, m->symbol, m->ns, m->tsc,
                     m->reps);
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

/* ---- the reproduction report ---------------------------------------------------------- */

static void md_row(FILE *md, const dl_impl *m, double base_ns, const char *note) {
    fprintf(md, "| %s | %s | %.0f | %.0f | %.0f | %.2fx | %s |\n", m->kernel,
            m->symbol ? m->symbol : "-", m->ns, m->tsc, m->ns_min, base_ns / m->ns, note ? note : "");
}

static const bench_modulus *dl_find_modulus(const char *name) {
    for (size_t i = 0; i < sizeof bench_moduli / sizeof bench_moduli[0]; i++)
        if (strcmp(bench_moduli[i].name, name) == 0) return &bench_moduli[i];
    return NULL;
}

/* seed 000: 1024 x 1024 bits, 16-bit standard C vs 29-bit SIMD */
static void repro_seed000(FILE *md, const delayed_sink *sink, double sec) {
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
    im[c++] = (dl_impl){.impl = "tabai", .kernel = "c16", .symbol = "mul_c16_generic",
                        .run = run_c16_digits, .hr = r16, .ha = a16, .hb = b16, .nd = nd16};
    im[c++] = (dl_impl){.impl = "tabai", .kernel = "simd29_sse2", .symbol = "mul_rd_sse2",
                        .run = run_rd_sse2, .r = rd, .a = ad, .b = bd, .nd = nd, .bits = b};
    if (avx2)
        im[c++] = (dl_impl){.impl = "tabai", .kernel = "simd29_avx2", .symbol = "mul_rd_avx2",
                            .run = run_rd_avx2, .r = rd, .a = ad, .b = bd, .nd = nd, .bits = b};
    size_t ndig = c;
    im[c++] = (dl_impl){.impl = "tabai", .kernel = "c16", .symbol = "mul_n_c16_generic",
                        .run = run_mul_with, .r = r, .a = a, .b = bb, .n = n, .k = TABAI_KERNEL_C16};
    im[c++] = (dl_impl){.impl = "tabai", .kernel = "simd29_sse2", .symbol = "mul_n_simd29_sse2",
                        .run = run_mul_with, .r = r, .a = a, .b = bb, .n = n,
                        .k = TABAI_KERNEL_SIMD29_SSE2};
    if (avx2)
        im[c++] = (dl_impl){.impl = "tabai", .kernel = "simd29_avx2", .symbol = "mul_n_simd29_avx2",
                            .run = run_mul_with, .r = r, .a = a, .b = bb, .n = n,
                            .k = TABAI_KERNEL_SIMD29_AVX2};
    im[c++] = (dl_impl){.impl = "tabai", .kernel = tabai_cpu_name(), .symbol = "mul_n (dispatched)",
                        .run = run_mul_n, .r = r, .a = a, .b = bb, .n = n};
    im[c++] = (dl_impl){.impl = "gmp", .kernel = "mpn_mul_n", .symbol = NULL, .run = run_gmp_mul,
                        .r = r, .a = a, .b = bb, .n = n};
    dl_measure(im, c, sec);
    double base = im[0].ns;
    fprintf(md, "\n## Seed 000: 1024 x 1024-bit product, 16-bit standard C vs 29-bit SIMD\n\n");
    fprintf(md, "Seed (Pentium 4, 1.2 GHz): standard C 16x16 **30.0 us**, SSE2 asm 29-bit digits "
                "**2.80 us**: **10.7x**. Targets here: SSE2 >= 8x, best width >= 15x.\n\n");
    fprintf(md, "| kernel | symbol | median ns | TSC ticks | min ns | vs c16 | |\n|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < c; i++) {
        const char *note = i < ndig ? "digits in, digits out (as the seed measured)"
                                    : "limbs in, limbs out (conversion included)";
        if (i >= ndig && im[i].k == TABAI_KERNEL_AUTO && strcmp(im[i].impl, "tabai") == 0)
            note = "fastest tabai path (64-bit limbs, tier in use)";
        if (strcmp(im[i].impl, "gmp") == 0) note = "GMP";
        md_row(md, &im[i], base, note);
        dl_emit(sink, i < ndig ? "mul_digits" : "mul", 1024, NULL, &im[i]);
    }
    double best = im[1].ns;
    const char *bk = im[1].kernel;
    for (size_t i = 1; i < ndig; i++)
        if (im[i].ns < best) {
            best = im[i].ns;
            bk = im[i].kernel;
        }
    fprintf(md, "\nFastest tabai kernel at 1024 bits: **%s** `%s` (%.0f ns, %.1fx c16; the best "
                "delayed-carry kernel with conversion: %.0f ns).\n",
            im[c - 2].kernel, im[c - 2].symbol, im[c - 2].ns, base / im[c - 2].ns,
            im[c - 3].ns < im[c - 4].ns ? im[c - 3].ns : im[c - 4].ns);
    fprintf(md, "\nSSE2 vs c16: **%.1fx** (target >= 8x: %s). Best width (%s) vs c16: **%.1fx** "
                "(target >= 15x: %s). Conversion included: SSE2 %.1fx.\n",
            base / im[1].ns, base / im[1].ns >= 8 ? "met" : "missed", bk, base / best,
            base / best >= 15 ? "met" : "missed", im[ndig].ns / im[ndig + 1].ns);
}

/* seed 002: 640 and 2000-bit products with float64 digits, fraction of FP peak */
static void repro_seed002(FILE *md, const delayed_sink *sink, double sec, double ghz) {
    static const unsigned sizes[2] = {640, 2000};
    static const double seed_us[2] = {36, 222};
    int avx2 = avx2_ok();
    const double peak = 8.0 * ghz; /* GFLOPS: two 128-bit FMA pipes x 2 doubles x 2 flops */
    fprintf(md, "\n## Seed 002: float64-digit products at 640 and 2000 bits\n\n");
    fprintf(md, "Seed (HP 9000/755, 198 MFLOPS peak, 20-bit digits, 4x4 blocking): 640 bits **36 us**, "
                "2000 bits **222 us** (about 50%% of peak counted as 2 flops per digit product).\n"
                "Here the peak is 8 flops/cycle x %.2f GHz = %.1f GFLOPS per core (two 128-bit FMA "
                "pipes); flops counted as the seed did: 2 per useful digit product (2 nd^2).\n\n",
            ghz, peak);
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
        char kl[8][48];
        snprintf(kl[0], 48, "fp64 (b=20, nd=%zu)", nd20);
        im[c++] = (dl_impl){.impl = "tabai", .kernel = "fp64", .symbol = "mul_f64_generic",
                            .run = run_f64_gen, .fr = fr, .fa = fa, .fb = fb, .nd = nd20, .bits = b20};
        im[c++] = (dl_impl){.impl = "tabai", .kernel = "fp64", .symbol = "mul_f64_generic",
                            .run = run_f64_gen, .fr = gr, .fa = ga, .fb = gb, .nd = ndt, .bits = bt};
        if (avx2) {
            im[c++] = (dl_impl){.impl = "tabai", .kernel = "fp64_vec", .symbol = "mul_f64_avx2",
                                .run = run_f64_avx2, .fr = fr, .fa = fa, .fb = fb, .nd = nd20, .bits = b20};
            im[c++] = (dl_impl){.impl = "tabai", .kernel = "fp64_vec", .symbol = "mul_f64_avx2",
                                .run = run_f64_avx2, .fr = gr, .fa = ga, .fb = gb, .nd = ndt, .bits = bt};
            im[c++] = (dl_impl){.impl = "tabai", .kernel = "fp64_fma", .symbol = "mul_f64fma_avx2",
                                .run = run_f64fma, .fr = hr, .fa = ha, .fb = hb, .nd = ndf, .bits = bf};
            im[c++] = (dl_impl){.impl = "tabai", .kernel = "fp64_fma_vec", .symbol = "mul_f64fma_vec_avx2",
                                .run = run_f64fma_vec, .fr = hr, .fa = ha, .fb = hb, .nd = ndf, .bits = bf};
        }
        size_t ndig = c;
        im[c++] = (dl_impl){.impl = "tabai", .kernel = "fp64", .symbol = "mul_n_fp64_generic",
                            .run = run_mul_with, .r = r, .a = a, .b = b, .n = n, .k = TABAI_KERNEL_FP64};
        if (avx2)
            im[c++] = (dl_impl){.impl = "tabai", .kernel = "fp64_fma_vec", .symbol = "mul_n_fp64fma_vec_avx2",
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
        fprintf(md, "\n### %u bits (seed: %.0f us)\n\n", bits, seed_us[s]);
        fprintf(md, "| kernel | symbol | digits | median ns | TSC ticks | vs seed | useful GFLOPS | of peak |\n"
                    "|---|---|---|---|---|---|---|---|\n");
        double best = 1e300;
        const char *bestk = "";
        for (size_t i = 0; i < c; i++) {
            char dig[48] = "limbs (conversion included)", gfs[32] = "-", pks[32] = "-", vs[32] = "-";
            if (i < ndig) {
                /* useful products: the operand's own digit count, not the padding */
                size_t useful = tabai_digits_for(bits, im[i].bits);
                double gf = 2.0 * (double)useful * (double)useful / im[i].ns;
                snprintf(dig, sizeof dig, "%zu x %u bits", useful, im[i].bits);
                snprintf(gfs, sizeof gfs, "%.2f", gf);
                snprintf(pks, sizeof pks, "%.1f%%", 100.0 * gf / peak);
            } else if (i >= ncarry) {
                snprintf(dig, sizeof dig, "%zu columns", 2 * im[i].nd);
            }
            if (i < ncarry) snprintf(vs, sizeof vs, "%.0fx", seed_us[s] * 1000.0 / im[i].ns);
            fprintf(md, "| %s | %s | %s | %.0f | %.0f | %s | %s | %s |\n", im[i].kernel,
                    im[i].symbol ? im[i].symbol : "-", dig, im[i].ns, im[i].tsc, vs, gfs, pks);
            if (i < ncarry && strcmp(im[i].impl, "tabai") == 0 && im[i].ns < best) {
                best = im[i].ns;
                bestk = im[i].kernel;
            }
            if (i < ncarry) dl_emit(sink, i < ndig ? "mul_digits" : "mul", bits, NULL, &im[i]);
        }
        fprintf(md, "\nFastest tabai kernel: **%s** (%.0f ns). Carry pass alone over %zu columns: int64 "
                    "%.0f ns, the seed's floating-point chain %.0f ns.\n",
                bestk, best, 2 * ndt, im[ncarry].ns, im[ncarry + 1].ns);
    }
}

/* where each technique stands: mul at 256..8192 bits, every delayed-carry kernel (limbs in
 * and out) and the batched one per product, beside the tier's kernel and GMP */
static void run_mb4(const dl_impl *m, long iters) {
    uint64_t *rr[4] = {m->r, m->r + 2 * m->n, m->r + 4 * m->n, m->r + 6 * m->n};
    const uint64_t *aa[4] = {m->a, m->a, m->b, m->b}, *bb[4] = {m->b, m->a, m->a, m->b};
    LOOP(tabai_mul_n_fp64fma_mb4_avx2(rr, aa, bb, m->n))
}

static void repro_scan(FILE *md, const delayed_sink *sink, double sec) {
    static const unsigned sizes[] = {256, 512, 1024, 2048, 4096, 8192};
    int avx2 = avx2_ok();
    fprintf(md, "\n## Where each delayed-carry kernel stands: n x n products, 256 to 8192 bits\n\n");
    fprintf(md, "Median ns per product, limbs in and out (conversions included), all alternating "
                "in one run. `tier` is tabai's dispatched `tabai_mul_n` (%s, 64-bit limbs, "
                "schoolbook), `fp64_fma_mb4` is four independent products per call divided by "
                "four. The last column is the best delayed-carry time over the tier's: above 1 "
                "it misses by that factor.\n\n",
            tabai_cpu_name());
    fprintf(md, "| bits |");
    for (size_t k = 0; k < sizeof dl_mul_kernels / sizeof dl_mul_kernels[0]; k++)
        if (tabai_kernel_available(dl_mul_kernels[k]) == TABAI_OK)
            fprintf(md, " %s |", tabai_kernel_name(dl_mul_kernels[k]));
    fprintf(md, "%s tier | GMP | best delayed / tier |\n|---|", avx2 ? " fp64_fma_mb4 |" : "");
    for (size_t k = 0; k < sizeof dl_mul_kernels / sizeof dl_mul_kernels[0] + 3 + (size_t)avx2; k++)
        if (k >= sizeof dl_mul_kernels / sizeof dl_mul_kernels[0] ||
            tabai_kernel_available(dl_mul_kernels[k]) == TABAI_OK)
            fprintf(md, "---|");
    fprintf(md, "\n");
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
            im[c++] = (dl_impl){.impl = "tabai", .kernel = "fp64_fma_mb4", .symbol = "mul_n_fp64fma_mb4_avx2",
                                .run = run_mb4, .r = r, .a = a, .b = b, .n = n};
        size_t nt = c;
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
        double best = 1e300;
        fprintf(md, "| %u |", sizes[si]);
        for (size_t i = 0; i < c; i++) {
            fprintf(md, " %.0f |", im[i].ns);
            if (i < nt && im[i].ns < best) best = im[i].ns;
            dl_emit(sink, i == nmb && avx2 ? "mul_mb4_per_product" : "mul", sizes[si], NULL, &im[i]);
        }
        fprintf(md, " %.2f |\n", best / im[nt].ns);
    }
}

/* seed 003: Ohta (carry save, blocked) vs Montgomery at 220 bits and the larger sizes */
static void repro_seed003(FILE *md, const delayed_sink *sink, double sec) {
    static const struct {
        unsigned bits;
        const char *name;
    } cases[] = {{220, NULL},         {256, "p256_p"},   {384, "p384_p"},
                 {521, "p521_p"},     {1024, "rsa2048_p"}, {2048, "modp2048"}};
    fprintf(md, "\n## Seed 003: Ohta modular multiplication (carry save, register blocking) vs "
                "Montgomery\n\n");
    fprintf(md, "Seed (Pentium 4, 1.8 GHz, gcc 3.2 -O1, 220 bits): carry-save Ohta with 14-bit "
                "digits and 3x3 blocks **1.74 us**, Montgomery on 16-bit digits **1.79 us** (Ohta 3%% "
                "faster; 3x3 beat 2x2 and 4x4).\n\n");
    fprintf(md, "`mont (tier)` is tabai's Montgomery on 64-bit limbs (the dispatched kernel), "
                "`ohta (tier)` tabai's Ohta on 64-bit limbs, `carry_save_kxk` the seed's "
                "technique on b-bit digits in 64-bit words, and `mont digit-serial` the seed's "
                "baseline: word-serial Montgomery on the same b-bit digits, carry on every step. "
                "All include conversion of the operands (and, for carry save, of p and K) to "
                "digits.\n\n");
    fprintf(md, "| bits | modulus | digit b | mont (tier) | ohta (tier) | carry_save_2x2 | "
                "carry_save_3x3 | carry_save_4x4 | mont digit-serial | best carry-save vs "
                "mont digit-serial | vs mont (tier) |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
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
            {.impl = "tabai", .kernel = "carry_save_2x2", .symbol = "ohta_mul_cs2_generic", .run = run_ohta,
             .r = r, .a = a, .b = b, .n = n, .ohta = &ohta, .k = TABAI_KERNEL_CARRY_SAVE_2X2},
            {.impl = "tabai", .kernel = "carry_save_3x3", .symbol = "ohta_mul_cs3_generic", .run = run_ohta,
             .r = r, .a = a, .b = b, .n = n, .ohta = &ohta, .k = TABAI_KERNEL_CARRY_SAVE_3X3},
            {.impl = "tabai", .kernel = "carry_save_4x4", .symbol = "ohta_mul_cs4_generic", .run = run_ohta,
             .r = r, .a = a, .b = b, .n = n, .ohta = &ohta, .k = TABAI_KERNEL_CARRY_SAVE_4X4},
            {.impl = "tabai", .kernel = "digit_serial", .symbol = "mont_mul_n_rd_generic", .run = run_mont_rd,
             .r = r, .a = a, .b = b, .n = n, .ohta = &ohta, .bits = bd}};
        dl_measure(im, 6, sec);
        double bcs = im[2].ns;
        for (int k = 3; k < 5; k++)
            if (im[k].ns < bcs) bcs = im[k].ns;
        fprintf(md, "| %u | %s | %u | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2fx | %.2fx |\n",
                (unsigned)ohta.bits, mname, bd, im[0].ns, im[1].ns, im[2].ns, im[3].ns, im[4].ns,
                im[5].ns, im[5].ns / bcs, im[0].ns / bcs);
        dl_emit(sink, "mont_mul", (unsigned)ohta.bits, mname, &im[0]);
        dl_emit(sink, "ohta_mul", (unsigned)ohta.bits, mname, &im[1]);
        for (int k = 2; k < 5; k++) dl_emit(sink, "ohta_mul", (unsigned)ohta.bits, mname, &im[k]);
        dl_emit(sink, "mont_mul", (unsigned)ohta.bits, mname, &im[5]);
    }
    fprintf(md, "\nTimes in median ns per modular multiplication. The two last columns are "
                "ratios of times (> 1: carry save is faster).\n");
}

/* seed 004: mulPre n = 3..8 vs GMP */
static void repro_seed004(FILE *md, const delayed_sink *sink, double sec) {
    static const double seed_gmp[9] = {0, 0, 0, 0, 12.93, 0, 23.43, 0, 38.42};
    static const double seed_asm[9] = {0, 0, 0, 0, 6.19, 0, 12.31, 0, 21.97};
    fprintf(md, "\n## Seed 004: mulPre (n x n -> 2n limbs), n = 3..8, vs GMP\n\n");
    fprintf(md, "Seed (Xeon Platinum 8280): N=4 GMP 12.93 ns / asm 6.19; N=6 23.43 / 12.31; "
                "N=8 38.42 / 21.97. Here: the dispatched `tabai_mul_n` of the tier in use (%s) and "
                "`mpn_mul_n`, alternating.\n\n",
            tabai_cpu_name());
    fprintf(md, "| n | tabai ns | GMP ns | GMP / tabai | seed GMP / asm |\n|---|---|---|---|---|\n");
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
        char sd[32] = "-";
        if (seed_gmp[n] > 0) snprintf(sd, sizeof sd, "%.2fx", seed_gmp[n] / seed_asm[n]);
        fprintf(md, "| %zu | %.2f | %.2f | %.2fx | %s |\n", n, im[0].ns, im[1].ns, im[1].ns / im[0].ns, sd);
        dl_emit(sink, "mul", 64 * (unsigned)n, NULL, &im[0]);
        dl_emit(sink, "mul", 64 * (unsigned)n, NULL, &im[1]);
    }
}

/* Seed 001: Montgomery products of 8 (zmm) or 4 (ymm) independent operations, IFMA radix
 * 2^52 against the 32-bit AVX-512F baseline, TSC ticks per single product (a call / lanes). */
static void repro_seed001(FILE *md, const delayed_sink *sink, double sec) {
    const char *names[4] = {"ifma_zmm", "ifma_ymm", "avx512f32_zmm", "avx512f32_ymm"};
    const tabai_mb_kernel *ks[4];
    for (int i = 0; i < 4; i++) ks[i] = tabai_mb_kernel_find(names[i]);
    fprintf(md, "\n## Seed 001: AVX-512 IFMA (radix 2^52) vs the 32-bit AVX-512F baseline\n\n");
    fprintf(md, "Seed (Intel, ymm): throughput mostly >= 80%% of the instruction-count bound; the IFMA "
                "version 2-3x the 32-bit one at 100-200 bits, converging to **2.84x** at RSA sizes "
                "((28/24)/(13/12) x (52/32)^2). Here: `tabai_mont_mul_r52n_mb8/mb4_ifma` and "
                "`tabai_mont_mul_r32n_mb8/mb4_avx512` (src/ifma, src/avx512), every lane its own "
                "operation, chained x = x*y, TSC ticks per single product.\n\n");
    for (int i = 0; i < 4; i++)
        if (!ks[i] || !tabai_mb_kernel_usable(ks[i])) {
            fprintf(md, "Not measurable on this CPU (%s needs AVX-512F/VL%s).\n", names[i],
                    i < 2 ? " and IFMA" : "");
            return;
        }
    fprintf(md, "| bits | IFMA zmm | IFMA ymm | 32-bit zmm | 32-bit ymm | IFMA / 32-bit, zmm | "
                "ymm | seed |\n|---|---|---|---|---|---|---|---|\n");
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
            im[i] = (dl_impl){.impl = "tabai", .kernel = names[i], .symbol = ks[i]->mul_sym,
                              .run = run_mb_mul, .r = x[i], .b = y[i], .n = n, .bits = bits,
                              .mbk = ks[i], .mbc = &ctx[i]};
        }
        dl_measure(im, 4, sec);
        double t[4];
        for (int i = 0; i < 4; i++) {
            t[i] = im[i].tsc / ks[i]->lanes;
            dl_impl per = im[i]; /* the record: per single product */
            per.ns /= ks[i]->lanes, per.tsc /= ks[i]->lanes, per.ns_min /= ks[i]->lanes;
            dl_emit(sink, "mont_mul_mb", bits, NULL, &per);
        }
        fprintf(md, "| %u | %.1f | %.1f | %.1f | %.1f | %.2fx | %.2fx | %s |\n", bits, t[0], t[1],
                t[2], t[3], t[2] / t[0], t[3] / t[1], bits >= 1024 ? "2.84x" : "2-3x");
    }
    fprintf(md, "\nThe share of the instruction-count bound, per size, is in `tabai bench --ops "
                "mont_mul_mb` (records `impl: \"bound\"`) and src/ifma/README.md.\n");
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

static int delayed_reproduce(FILE *md, const delayed_sink *sink, double seconds) {
    double ghz = dl_core_ghz();
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(md, "# tabai reproduction report\n\n");
    fprintf(md, "Run %s on %s (tier in use: %s; core clock %.2f GHz: the fastest of many "
                "chains of dependent adds, i.e. the boost clock, so fractions of peak below are "
                "conservative; TSC %.3f GHz, TSC ticks are not core cycles). GMP %s. Median of "
                "alternating samples, about %.1f s per experiment; 1-minute load average at the "
                "start %.2f.\n",
            date, tabai_cpu_brand(), tabai_cpu_name(), ghz, bench_tsc_hz() * 1e-9, gmp_version,
            seconds, dl_loadavg());
    if (!(tabai_cpu_features() & TABAI_CPU_AVX512IFMA))
        fprintf(md, "\nThis CPU has no AVX-512 IFMA: the IFMA experiment of seed 001 cannot run "
                    "here.\n");
    repro_seed000(md, sink, seconds);
    repro_seed002(md, sink, seconds, ghz);
    repro_seed003(md, sink, seconds);
    repro_seed004(md, sink, seconds);
    repro_scan(md, sink, seconds);
    repro_seed001(md, sink, seconds);
    return 0;
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
 *   reproduce  the reproduction report: a Markdown file (TABAI_REPRODUCE_MD, default
 *              reproduction.md) and its records as JSON beside it (same record format, file
 *              name with .json); timed by the harness's loop through bench_time, which
 *              hands the figures back for the report. Runs only when named explicitly (not
 *              part of the default run). */
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
    case 0: for (size_t i = 0; i < it; i++) tabai_mul_with(x->k, x->r, x->a, x->b, x->n); break;
    case 1: for (size_t i = 0; i < it; i++) tabai_mul_rd_sse2(x->r, x->a, x->b, x->nd, x->bits); break;
    case 2: for (size_t i = 0; i < it; i++) tabai_mul_rd_avx2(x->r, x->a, x->b, x->nd, x->bits); break;
    case 3: for (size_t i = 0; i < it; i++) tabai_mul_f64_generic(x->fr, x->fa, x->fb, x->nd, x->bits); break;
    case 4: for (size_t i = 0; i < it; i++) tabai_mul_f64_avx2(x->fr, x->fa, x->fb, x->nd, x->bits); break;
    case 5: for (size_t i = 0; i < it; i++) tabai_mul_f64fma_avx2(x->fr, x->fa, x->fb, x->nd, x->bits); break;
    case 6: for (size_t i = 0; i < it; i++) tabai_mul_f64fma_vec_avx2(x->fr, x->fa, x->fb, x->nd, x->bits); break;
    case 7: for (size_t i = 0; i < it; i++) tabai_mul_c16_generic(x->hr, x->ha, x->hb, x->nd); break;
    case 9: for (size_t i = 0; i < it; i++) tabai_mul_n_fp64fma_mb4_avx2(x->mr, x->ma, x->mb, x->n); break;
    default: for (size_t i = 0; i < it; i++) tabai_ohta_mul_with(x->k, x->ohta, x->r, x->a, x->b); break;
    }
}

/* JSON lines of the reproduction's records, written as {"meta":..., "records": [...]} */
typedef struct dh_json {
    FILE *f;
    int first;
} dh_json;

static void dh_json_record(void *ctx, const char *op, unsigned bits, const char *modulus,
                           const char *impl, const char *kernel, const char *symbol, double ns,
                           double tsc, long reps) {
    dh_json *j = ctx;
    char e[4][256];
    fprintf(j->f, "%s\n  {\"op\": %s, \"bits\": %u, \"modulus\": %s, \"impl\": %s, \"kernel\": %s, "
                  "\"symbol\": %s, \"ns\": %.3f, \"tsc\": %.1f, \"reps\": %ld}",
            j->first ? "" : ",", bench_json_str(e[0], sizeof e[0], op), bits,
            modulus ? bench_json_str(e[1], sizeof e[1], modulus) : "null",
            bench_json_str(e[2], sizeof e[2], impl), bench_json_str(e[3], sizeof e[3], kernel),
            symbol ? bench_json_str(e[1], sizeof e[1], symbol) : "null", ns, tsc, reps);
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
    FILE *md = fopen(md_path, "w"), *jf = fopen(json_path, "w");
    if (!md || !jf) bench_fail("reproduce: cannot write %s / %s", md_path, json_path);
    char esc[256];
    fprintf(jf, "{\"meta\": {\"what\": \"tabai reproduction report\", \"cpu\": %s, \"tier\": \"%s\", "
                "\"gmp_version\": \"%s\", \"tsc_hz\": %.0f, \"note\": \"TSC ticks are not core "
                "cycles\", \"stat\": \"median of samples, implementations alternating\"},\n "
                "\"records\": [",
            bench_json_str(esc, sizeof esc, tabai_cpu_brand()), tabai_cpu_name(), gmp_version,
            bench_tsc_hz());
    dh_json j = {jf, 1};
    delayed_sink sink = {&j, dh_json_record};
    delayed_reproduce(md, &sink, c->seconds < 0.3 ? 0.3 : c->seconds);
    fprintf(jf, "\n ]}\n");
    fclose(md);
    fclose(jf);
    fprintf(stderr, "reproduce: wrote %s and %s\n", md_path, json_path);
}

void bench_suite_delayed(bench_ctx *c) {
    for (int k = 1; k < TABAI_KERNEL_COUNT; k++) bench_kernel(c, tabai_kernel_name((tabai_kernel)k));
    bench_kernel(c, "fp64_fma_mb4");
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
                tabai_mul_with(kk, r, a, b, n);
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
                bench_check_limbs(&cm, "fp64_fma_mb4", x.mr[l], want, 2 * n);
            }
            bench_impl im = {"tabai", "fp64_fma_mb4", "mul_n_fp64fma_mb4_avx2", dh_run, NULL, &x, 1};
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
                const char *kernel, *symbol;
                int form, avx2;
            } dk[] = {{"c16", "mul_c16_generic", 7, 0},         {"simd29_sse2", "mul_rd_sse2", 1, 0},
                      {"simd29_avx2", "mul_rd_avx2", 2, 1},     {"fp64", "mul_f64_generic", 3, 0},
                      {"fp64_vec", "mul_f64_avx2", 4, 1},       {"fp64_fma", "mul_f64fma_avx2", 5, 1},
                      {"fp64_fma_vec", "mul_f64fma_vec_avx2", 6, 1}};
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
                bench_check_limbs(&cd, dk[k].kernel, got, want, 2 * n);
                args[cnt] = x;
                im[cnt] = (bench_impl){"tabai", dk[k].kernel, dk[k].symbol, dh_run, NULL, &args[cnt], 1};
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
        tabai_ohta_mul(ctx, want, a, b);
        static const tabai_kernel ks[3] = {TABAI_KERNEL_CARRY_SAVE_2X2, TABAI_KERNEL_CARRY_SAVE_3X3,
                                           TABAI_KERNEL_CARRY_SAVE_4X4};
        dh_arg args[3];
        bench_impl im[3];
        for (int k = 0; k < 3; k++) {
            tabai_ohta_mul_with(ks[k], ctx, r, a, b);
            bench_check_limbs(&cs, tabai_kernel_name(ks[k]), r, want, m->n);
            args[k] = (dh_arg){.k = ks[k], .form = 8, .r = r, .a = a, .b = b, .ohta = ctx};
            im[k] = (bench_impl){"tabai", tabai_kernel_name(ks[k]), tabai_kernel_symbol(ks[k]), dh_run,
                                 NULL, &args[k], 1};
        }
        bench_measure(c, &cs, im, 3);
        free(ctx); free(a); free(b); free(want); free(r);
    }
}
