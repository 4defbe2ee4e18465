# Constant-time tests, valgrind method (tests/ctime/README.md), included from
# tests/c/CMakeLists.txt. Labels "ctime;nosan" (`make ctime` runs them; `make asan` skips them).
#   ctime.generic  test_ctime --tier generic under memcheck: secrets undefined, any secret-
#   ctime.bmi2     dependent branch or address fails (--error-exitcode); results vs GMP
#   ctime.leaky    the deliberately leaky functions: must end with exactly valgrind's code
# The program links tabai_ctime, the library's own sources built once more with
# -DTABAI_CTIME_DECLASSIFY (the documented public bits are marked defined inside the library).
# Skipped (77) without valgrind or valgrind/memcheck.h; not built at all in sanitizer or VERIFY builds.
set(TABAI_CTIME_TESTS ctime.generic ctime.bmi2 ctime.leaky)
set(TABAI_CTIME_EXIT 42)

if(TABAI_SANITIZE OR TABAI_VERIFY)
  # valgrind cannot run ASan/UBSan binaries; a VERIFY build's assertions may branch on
  # secrets, and `make verify` leaves these tests out, so the library is not built again
  return()
endif()

find_program(VALGRIND_EXECUTABLE valgrind)
find_path(VALGRIND_INCLUDE_DIR valgrind/memcheck.h)
if(NOT VALGRIND_EXECUTABLE OR NOT VALGRIND_INCLUDE_DIR)
  foreach(t IN LISTS TABAI_CTIME_TESTS)
    add_test(NAME ${t} COMMAND sh -c "echo 'valgrind or valgrind/memcheck.h not found'; exit 77")
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 LABELS "ctime;nosan")
  endforeach()
  return()
endif()

# The library's sources (whatever src/CMakeLists.txt lists), with their per-file ISA flags.
get_target_property(_ctime_srcs tabai_objects SOURCES)
get_target_property(_ctime_srcdir tabai_objects SOURCE_DIR)
set(_ctime_files "")
foreach(s IN LISTS _ctime_srcs)
  if(NOT IS_ABSOLUTE "${s}")
    set(s "${_ctime_srcdir}/${s}")
  endif()
  list(APPEND _ctime_files "${s}")
  get_source_file_property(_opts "${s}" DIRECTORY "${_ctime_srcdir}" COMPILE_OPTIONS)
  if(_opts)
    set_source_files_properties("${s}" PROPERTIES COMPILE_OPTIONS "${_opts}")
  endif()
endforeach()
add_library(tabai_ctime STATIC ${_ctime_files})
target_include_directories(tabai_ctime PUBLIC ${PROJECT_SOURCE_DIR}/include
  PRIVATE ${VALGRIND_INCLUDE_DIR})
target_link_libraries(tabai_ctime PUBLIC PkgConfig::NETTLE Threads::Threads)
# the release code: without TABAI_VERIFY, whose assertions may branch on secrets
target_compile_definitions(tabai_ctime PRIVATE TABAI_CTIME_DECLASSIFY=1
  $<FILTER:$<TARGET_PROPERTY:tabai_objects,COMPILE_DEFINITIONS>,EXCLUDE,^TABAI_VERIFY>)
# -g only adds line numbers to memcheck's reports; the code is the library's own. DWARF 4:
# the valgrind of Debian 12 (3.19) gives up on clang 14's DWARF 5.
target_compile_options(tabai_ctime PRIVATE $<TARGET_PROPERTY:tabai_objects,COMPILE_OPTIONS>
  -gdwarf-4)

add_executable(test_ctime ${CMAKE_CURRENT_LIST_DIR}/ctime.c ${CMAKE_CURRENT_SOURCE_DIR}/testutil.c)
target_link_libraries(test_ctime PRIVATE tabai_ctime ${GMP_LIBRARY} Threads::Threads)
target_include_directories(test_ctime PRIVATE ${GMP_INCLUDE_DIR} ${VALGRIND_INCLUDE_DIR}
  ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(test_ctime PRIVATE -gdwarf-4)

set(_ctime_vg ${VALGRIND_EXECUTABLE} --tool=memcheck --error-exitcode=${TABAI_CTIME_EXIT}
  --leak-check=no -q)
foreach(tier generic bmi2)
  add_test(NAME ctime.${tier} COMMAND ${_ctime_vg} $<TARGET_FILE:test_ctime> --tier ${tier})
  set_tests_properties(ctime.${tier} PROPERTIES ENVIRONMENT "TABAI_CPU=${tier}"
    SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "ctime;nosan")
endforeach()
add_test(NAME ctime.leaky COMMAND ${CMAKE_COMMAND} "-DCMD=${_ctime_vg};$<TARGET_FILE:test_ctime>;--leaky"
  -DEXPECT=${TABAI_CTIME_EXIT} -P ${CMAKE_CURRENT_LIST_DIR}/leaky.cmake)
set_tests_properties(ctime.leaky PROPERTIES TIMEOUT 120 LABELS "ctime;nosan")
