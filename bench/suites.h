/* The benchmark suites, one line each: BENCH_SUITE(name) runs bench_suite_name(bench_ctx *),
 * defined in bench/suite_name.c (picked up by bench/CMakeLists.txt). Order = report order. */
BENCH_SUITE(core)
BENCH_SUITE(x64)
BENCH_SUITE(delayed)
BENCH_SUITE(mb)
BENCH_SUITE(pk)
BENCH_SUITE(ec)
BENCH_SUITE(r52)
BENCH_SUITE(ec_mb)
