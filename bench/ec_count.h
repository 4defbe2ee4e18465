/* Counting instances of the curves' inlined point code (bench/ec_count.c), for
 * tabai-ec-time's bounds. */
#ifndef TABAI_BENCH_EC_COUNT_H
#define TABAI_BENCH_EC_COUNT_H

#include "ec/ec.h"

/* field products, squares and variable-time field inversions since the last reset (the
 * caller sets them to 0) of every call through a counting instance */
extern unsigned long tabai_ec_count_mul, tabai_ec_count_sqr, tabai_ec_count_inv;

/* curve c's counting instance, for a context's impl (its fp bound by tabai_ec_ctx_init):
 * the same formulas and scalar multiplications as the library's own instances, over the
 * portable field code, for the tier (tabai_tier): from avx2, k G by the width-7 table (read
 * by the AVX2 scan, so only on a CPU with AVX2), else by the 5-bit one; P-521's doubling as
 * its bmi2 instance has it from bmi2. NULL for an unknown curve. */
const tabai_ec_impl *tabai_ec_count_impl(tabai_curve c, int tier);

#endif
