# Freshness of the generated curve constants: cmake -DPYTHON=... -DSRC=<repo> -DTMP=<dir>
# -P ec_fresh.cmake runs tools/gen/ec_consts.py into TMP and compares with src/ec/curves.c.
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
