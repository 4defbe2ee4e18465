# ctime.leaky: the deliberately leaky functions of ctime.c must be caught by memcheck.
#   cmake "-DCMD=valgrind;...;--error-exitcode=E;...;test_ctime;--leaky" -DEXPECT=E -P leaky.cmake
# Passes only if the run ends with exactly valgrind's error exit code E (a crash, a wrong
# result (1) or a clean run (0) all fail) and memcheck reported both leaks in the leaky
# functions: the branch on the secret bit and the load at the secret index.
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
set(fail "")
if(NOT rc STREQUAL "${EXPECT}")
  string(APPEND fail " exit code ${rc}, expected ${EXPECT};")
endif()
# memcheck's report, then its first stack frame: the leaky function
set(report_leaky_select "Conditional jump or move depends on uninitialised value")
set(report_leaky_lookup "Use of uninitialised value of size 8")
foreach(fn leaky_select leaky_lookup)
  if(NOT err MATCHES "${report_${fn}}[^\n]*\n[^\n]*${fn}")
    string(APPEND fail " no report '${report_${fn}}' in ${fn};")
  endif()
endforeach()
if(NOT out MATCHES "results correct")
  string(APPEND fail " the leaky functions did not run to the end correctly;")
endif()
if(fail)
  message(FATAL_ERROR "ctime.leaky:${fail}")
endif()
message(STATUS "ctime.leaky: memcheck caught both leaks (exit code ${rc})")
