# Tier bmi2 (src/x64) tests, included from tests/c/CMakeLists.txt:
#   x64           every generated kernel vs GMP and the portable C path, ABI trampoline,
#                 guard pages, aliasing (skips with 77 without BMI2+ADX)
#   x64_fresh     regenerates src/x64 into a temporary folder and diffs (the generator is the
#                 single place a kernel is written)
#   x64_valgrind  the same binary under valgrind memcheck, tier forced to bmi2 and asserted
add_executable(test_x64 ${CMAKE_CURRENT_LIST_DIR}/test_x64.c ${CMAKE_CURRENT_LIST_DIR}/x64_abi.S)
target_link_libraries(test_x64 PRIVATE tabai_static ${GMP_LIBRARY})
target_include_directories(test_x64 PRIVATE ${GMP_INCLUDE_DIR})
add_test(NAME x64 COMMAND test_x64)
add_test(NAME x64.bmi2 COMMAND test_x64)  # asserts that TABAI_CPU=bmi2 selects tier bmi2
add_test(NAME x64.generic COMMAND test_x64)  # and that generic keeps the portable kernels
set_tests_properties(x64 x64.bmi2 x64.generic PROPERTIES SKIP_RETURN_CODE 77 LABELS "c")
set_tests_properties(x64.bmi2 PROPERTIES ENVIRONMENT "TABAI_CPU=bmi2")
set_tests_properties(x64.generic PROPERTIES ENVIRONMENT "TABAI_CPU=generic")

find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME x64_fresh COMMAND ${CMAKE_COMMAND} -DPYTHON=${Python3_EXECUTABLE}
    -DSRC=${PROJECT_SOURCE_DIR} -DTMP=${CMAKE_CURRENT_BINARY_DIR}/x64_fresh
    -P ${CMAKE_CURRENT_LIST_DIR}/x64_fresh.cmake)
endif()

find_program(VALGRIND_EXECUTABLE valgrind)
if(VALGRIND_EXECUTABLE)
  add_test(NAME x64_valgrind COMMAND ${VALGRIND_EXECUTABLE} --tool=memcheck --error-exitcode=9
    --leak-check=no -q $<TARGET_FILE:test_x64>)
  set_tests_properties(x64_valgrind PROPERTIES SKIP_RETURN_CODE 77
    ENVIRONMENT "TABAI_CPU=bmi2;TABAI_TEST_ITERS=0.05")
endif()
