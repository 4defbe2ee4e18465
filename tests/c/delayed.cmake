# The seeds' delayed-carry kernels, included from tests/c/CMakeLists.txt:
#   delayed.<tier>    every kernel vs GMP for n = 1..128, worst-case digits at the column
#                     bound, carry-save Ohta on bound-pushing moduli, error paths; at the
#                     tiers whose kernels differ: generic, bmi2 (the limb products the AUTO
#                     kernel and carry-save Ohta use) and avx2 (below it the AVX2/FMA kernels
#                     must refuse with TABAI_ERR_TIER and the others still run; avx512 and
#                     ifma add none); a tier the CPU lacks exits 77 (skipped)
#   delayed_ct        valgrind memcheck with the operands marked undefined: no branch or
#                     address may depend on them (valgrind hides ADX, so the tier is generic:
#                     the AVX2/FMA kernels are called directly when AVX2 and FMA are reported)
add_executable(test_delayed ${CMAKE_CURRENT_LIST_DIR}/test_delayed.c)
target_link_libraries(test_delayed PRIVATE tabai_static ${GMP_LIBRARY})
target_include_directories(test_delayed PRIVATE ${GMP_INCLUDE_DIR})
foreach(tier generic bmi2 avx2)
  add_test(NAME delayed.${tier} COMMAND test_delayed)
  set_tests_properties(delayed.${tier} PROPERTIES ENVIRONMENT "TABAI_CPU=${tier}" TIMEOUT 600
    LABELS "c;tier" SKIP_RETURN_CODE 77)
endforeach()

find_program(VALGRIND_EXECUTABLE valgrind)
find_path(VALGRIND_INCLUDE_DIR valgrind/memcheck.h)
if(VALGRIND_EXECUTABLE AND VALGRIND_INCLUDE_DIR)
  add_executable(test_delayed_ct ${CMAKE_CURRENT_LIST_DIR}/test_delayed_ct.c)
  target_link_libraries(test_delayed_ct PRIVATE tabai_static ${GMP_LIBRARY})
  target_include_directories(test_delayed_ct PRIVATE ${GMP_INCLUDE_DIR} ${VALGRIND_INCLUDE_DIR})
  add_test(NAME delayed_ct COMMAND ${VALGRIND_EXECUTABLE} --tool=memcheck --error-exitcode=9
    --leak-check=no -q $<TARGET_FILE:test_delayed_ct>)
  set_tests_properties(delayed_ct PROPERTIES TIMEOUT 600 LABELS "c")
endif()
