# The seeds' delayed-carry kernels (issue 5), included from tests/c/CMakeLists.txt:
#   delayed           every kernel vs GMP for n = 1..128, worst-case digits at the column
#                     bound, carry-save Ohta on bound-pushing moduli, error paths (native tier)
#   delayed_generic   the same with TABAI_CPU=generic: the AVX2/FMA kernels must refuse with
#                     TABAI_ERR_TIER, the others still run
#   delayed_ct        valgrind memcheck with the operands marked undefined: no branch or
#                     address may depend on them (tier forced to avx2, asserted)
add_executable(test_delayed ${CMAKE_CURRENT_LIST_DIR}/test_delayed.c)
target_link_libraries(test_delayed PRIVATE tabai_static ${GMP_LIBRARY})
target_include_directories(test_delayed PRIVATE ${GMP_INCLUDE_DIR})
add_test(NAME delayed COMMAND test_delayed)
add_test(NAME delayed_generic COMMAND test_delayed)
set_tests_properties(delayed_generic PROPERTIES ENVIRONMENT "TABAI_CPU=generic")

find_program(VALGRIND_EXECUTABLE valgrind)
find_path(VALGRIND_INCLUDE_DIR valgrind/memcheck.h)
if(VALGRIND_EXECUTABLE AND VALGRIND_INCLUDE_DIR)
  add_executable(test_delayed_ct ${CMAKE_CURRENT_LIST_DIR}/test_delayed_ct.c)
  target_link_libraries(test_delayed_ct PRIVATE tabai_static ${GMP_LIBRARY})
  target_include_directories(test_delayed_ct PRIVATE ${GMP_INCLUDE_DIR} ${VALGRIND_INCLUDE_DIR})
  add_test(NAME delayed_ct COMMAND ${VALGRIND_EXECUTABLE} --tool=memcheck --error-exitcode=9
    --leak-check=no -q $<TARGET_FILE:test_delayed_ct>)
endif()
