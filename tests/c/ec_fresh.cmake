# Freshness of the generated curve constants: cmake -DPYTHON=... -DSRC=<repo> -DTMP=<dir>
# -P ec_fresh.cmake runs tools/gen/ec_consts.py into TMP and compares with src/ec/curves.c,
# then tools/gen/p521_mulx.py with src/ec/bmi2/p521_mul.h.
file(REMOVE_RECURSE ${TMP})
file(MAKE_DIRECTORY ${TMP})
execute_process(COMMAND ${PYTHON} tools/gen/ec_consts.py --out ${TMP}/curves.c
  WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "tools/gen/ec_consts.py failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${TMP}/curves.c ${SRC}/src/ec/curves.c
  RESULT_VARIABLE diff)
if(diff)
  message(FATAL_ERROR "src/ec/curves.c differs from the generator's output: run "
    "`python3 tools/gen/ec_consts.py --out src/ec/curves.c` and commit")
endif()
message(STATUS "src/ec/curves.c up to date")

# and P-521's generated mulx product and square (tools/gen/p521_mulx.py)
execute_process(COMMAND ${PYTHON} tools/gen/p521_mulx.py --out ${TMP}/p521_mul.h
  WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "tools/gen/p521_mulx.py failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${TMP}/p521_mul.h
  ${SRC}/src/ec/bmi2/p521_mul.h RESULT_VARIABLE diff)
if(diff)
  message(FATAL_ERROR "src/ec/bmi2/p521_mul.h differs from the generator's output: run "
    "`python3 tools/gen/p521_mulx.py --out src/ec/bmi2/p521_mul.h` and commit")
endif()
message(STATUS "src/ec/bmi2/p521_mul.h up to date")
