/* The delayed-carry suite (issue 5) and the reproduction report (`--reproduce`). Records go
 * to a sink callback so that the suite stays independent of the harness's record type. */
#ifndef TABAI_BENCH_SUITE_DELAYED_H
#define TABAI_BENCH_SUITE_DELAYED_H

#include <stdint.h>
#include <stdio.h>

typedef struct delayed_sink {
    void *ctx;
    /* one record: op, bits, modulus (or NULL), impl, kernel, symbol (or NULL), median ns,
     * median TSC ticks, repetitions */
    void (*record)(void *ctx, const char *op, unsigned bits, const char *modulus,
                   const char *impl, const char *kernel, const char *symbol, double ns,
                   double tsc, long reps);
} delayed_sink;

/* op `mul`, kernels c16, simd29_*, fp64* at ceil(bits/64) limbs */
void delayed_bench_mul(const delayed_sink *sink, unsigned bits, double seconds);
/* op `ohta_mul`, kernels carry_save_2x2/3x3/4x4 on modulus p[n] */
void delayed_bench_ohta(const delayed_sink *sink, const char *modname, const uint64_t *p, size_t n,
                        double seconds);
/* the kernels for `--list` */
void delayed_list(FILE *out);
/* The reproduction experiments: a Markdown report to md, records to sink. */
int delayed_reproduce(FILE *md, const delayed_sink *sink, double seconds);

#endif
