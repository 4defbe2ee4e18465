# Constant-time tests, valgrind method (tests/ctime/README.md), included from
# tests/c/CMakeLists.txt. Labels "ctime;nosan" (`make ctime` runs them; `make asan` skips them).
#   ctime.generic  test_ctime --tier generic under memcheck: secrets undefined, any secret-
#   ctime.bmi2     dependent branch or address fails (--error-exitcode); results vs GMP
#   ctime.avx2     (avx2: the curves' k G and k P with the AVX2 table scans; skipped, 77,
#                  where the CPU, as valgrind reports it, has no AVX2)
#   ctime.leaky    the deliberately leaky functions: must end with exactly valgrind's code
# The program links tabai_ctime: the library's release objects, except the sources that call
# tabai_declassify (directly or through tabai_reduced_public), which are built once more with
# -DTABAI_CTIME_DECLASSIFY (the documented public bits are marked defined inside the library).
# The objects checked are the ones users link. Only those few files are compiled twice (the
# whole library again was about as long as the library itself); a source that declassifies
# but were taken from the release objects would branch on undefined bits, so the test would
# fail, never pass wrongly (and if a header of src/ ever calls them, every source is built
# again). The release objects have no debug information: memcheck's reports name their
# functions, not their lines.
# Skipped (77) without valgrind or valgrind/memcheck.h; not built at all in sanitizer or VERIFY builds.
set(TABAI_CTIME_TESTS ctime.generic ctime.bmi2 ctime.avx2 ctime.leaky)
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

# The library's sources (whatever src/CMakeLists.txt lists) that declassify, with their
# per-file ISA flags; the other objects are the release build's own.
get_target_property(_ctime_srcs tabai_objects SOURCES)
get_target_property(_ctime_srcdir tabai_objects SOURCE_DIR)
set(_ctime_calls "tabai_declassify|tabai_reduced_public")
file(GLOB_RECURSE _ctime_hdrs ${_ctime_srcdir}/*.h)
set(_ctime_all FALSE)
foreach(h IN LISTS _ctime_hdrs)
  if(NOT h MATCHES "/src/internal\\.h$")
    file(STRINGS "${h}" _hits REGEX "${_ctime_calls}")
    if(_hits)
      set(_ctime_all TRUE)
    endif()
  endif()
endforeach()
set(_ctime_files "")
set(_ctime_objs_exclude "")
foreach(s IN LISTS _ctime_srcs)
  set(rel "${s}")
  if(NOT IS_ABSOLUTE "${s}")
    set(s "${_ctime_srcdir}/${s}")
  else()
    file(RELATIVE_PATH rel "${_ctime_srcdir}" "${s}")
  endif()
  file(STRINGS "${s}" _hits REGEX "${_ctime_calls}")
  if(NOT _hits AND NOT _ctime_all)
    continue()
  endif()
  list(APPEND _ctime_files "${s}")
  string(REPLACE "." "\\." _rx "${rel}")
  list(APPEND _ctime_objs_exclude "/${_rx}\\.o$")
  get_source_file_property(_opts "${s}" DIRECTORY "${_ctime_srcdir}" COMPILE_OPTIONS)
  if(_opts)
    set_source_files_properties("${s}" PROPERTIES COMPILE_OPTIONS "${_opts}")
  endif()
endforeach()
list(JOIN _ctime_objs_exclude "|" _ctime_objs_rx)
if(NOT _ctime_objs_rx)
  set(_ctime_objs_rx "^$") # no source declassifies: every release object
endif()
add_library(tabai_ctime STATIC ${_ctime_files}
  $<FILTER:$<TARGET_OBJECTS:tabai_objects>,EXCLUDE,${_ctime_objs_rx}>)
target_include_directories(tabai_ctime PUBLIC ${PROJECT_SOURCE_DIR}/include
  PRIVATE ${VALGRIND_INCLUDE_DIR})
target_link_libraries(tabai_ctime PUBLIC PkgConfig::NETTLE Threads::Threads)
# the release code: without TABAI_VERIFY, whose assertions may branch on secrets
target_compile_definitions(tabai_ctime PRIVATE TABAI_CTIME_DECLASSIFY=1
  $<FILTER:$<TARGET_PROPERTY:tabai_objects,COMPILE_DEFINITIONS>,EXCLUDE,^TABAI_VERIFY>)
# -g only adds line numbers to memcheck's reports (for these files); DWARF 4:
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
foreach(tier generic bmi2 avx2)
  add_test(NAME ctime.${tier} COMMAND ${_ctime_vg} $<TARGET_FILE:test_ctime> --tier ${tier})
  set_tests_properties(ctime.${tier} PROPERTIES ENVIRONMENT "TABAI_CPU=${tier}"
    SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "ctime;nosan")
endforeach()
add_test(NAME ctime.leaky COMMAND ${CMAKE_COMMAND} "-DCMD=${_ctime_vg};$<TARGET_FILE:test_ctime>;--leaky"
  -DEXPECT=${TABAI_CTIME_EXIT} -P ${CMAKE_CURRENT_LIST_DIR}/leaky.cmake)
set_tests_properties(ctime.leaky PROPERTIES TIMEOUT 120 LABELS "ctime;nosan")
