# The multi-buffer Montgomery kernels (issue 4), included from tests/c/CMakeLists.txt:
#   mb.<tier>   every kernel of src/mb/kernels.c usable at the tier (the others are skipped
#               and named) and the portable reference, vs GMP per lane, for every digit count
#               d = 1 .. ceil(4096 / w): mul, sqr, aliasing, digit-for-digit agreement with
#               the reference; tabai_mb_powmod vs mpz_powm at 64 .. 4096 bits
add_executable(test_mb ${CMAKE_CURRENT_LIST_DIR}/test_mb.c)
target_link_libraries(test_mb PRIVATE tabai_testutil)
target_include_directories(test_mb PRIVATE ${PROJECT_SOURCE_DIR}/src)
if(NOT TABAI_TEST_TIERS)
  set(TABAI_TEST_TIERS generic bmi2 avx2 avx512 ifma)
endif()
foreach(tier IN LISTS TABAI_TEST_TIERS)
  add_test(NAME mb.${tier} COMMAND test_mb)
  set_tests_properties(mb.${tier} PROPERTIES ENVIRONMENT "TABAI_CPU=${tier}" TIMEOUT 600
    LABELS "c;tier")
endforeach()
