# Constant-time test, timing method (dudect; tests/dudect/README.md), included from
# tests/c/CMakeLists.txt. Labels "dudect;nosan".
#   dudect.<tier>  test_dudect for one tier (TABAI_CPU=<tier>): Welch's t on the cycle counts
#                  of fixed vs random inputs, |t| > 10 fails; a tier above the CPU's exits 77
#                  ("skipped: tier X not available", ctest's skip status). Registered at the
#                  tiers whose measured code differs: generic and bmi2 (the scalar kernels),
#                  avx2 (the explicit AVX2/FMA kernels of tabai_mul_with, which the lower
#                  tiers cannot run) and ifma (the multi-buffer kernels of the batch and RSA
#                  API; avx512 adds nothing the public API reaches). Seconds per tier: TABAI_DUDECT_SECONDS from the environment
#                  of ctest, default 6 (about 20 s for the three tiers an AVX2 CPU runs).
#   dudect.leaky   the deliberately leaky functions: must show |t| > 10
# Not built in sanitizer or VERIFY builds: their timings say nothing about the release code.
if(TABAI_SANITIZE OR TABAI_VERIFY)
  return()
endif()

add_executable(test_dudect ${CMAKE_CURRENT_LIST_DIR}/dudect.c)
target_link_libraries(test_dudect PRIVATE tabai_static m)
foreach(tier generic bmi2 avx2 ifma)
  add_test(NAME dudect.${tier} COMMAND test_dudect --tier ${tier})
  # RUN_SERIAL: another test on the other core (valgrind, a build) adds bursts of noise that a
  # few thousand samples of a slow target cannot average out (a 2nd-order |t| of 12 was seen on
  # the batch target under `ctest -j2`; alone it stays below 3)
  set_tests_properties(dudect.${tier} PROPERTIES
    ENVIRONMENT "TABAI_CPU=${tier}"
    TIMEOUT 600 LABELS "dudect;nosan" RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
endforeach()
add_test(NAME dudect.leaky COMMAND test_dudect --leaky --seconds 1)
set_tests_properties(dudect.leaky PROPERTIES TIMEOUT 120 LABELS "dudect;nosan")
