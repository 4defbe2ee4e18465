# Freshness of the generated assembly: cmake -DPYTHON=... -DSRC=<repo> -DTMP=<dir> -P x64_fresh.cmake
file(REMOVE_RECURSE ${TMP})
file(MAKE_DIRECTORY ${TMP})
if(EXISTS ${SRC}/src/x64/ticks.json)  # the measured figures the generator writes into comments
  file(COPY ${SRC}/src/x64/ticks.json DESTINATION ${TMP})
endif()
execute_process(COMMAND ${PYTHON} tools/gen/x64.py --out ${TMP} WORKING_DIRECTORY ${SRC}
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "tools/gen/x64.py failed (${rc})")
endif()
file(GLOB generated RELATIVE ${TMP} ${TMP}/*)
list(LENGTH generated count)
if(count EQUAL 0)
  message(FATAL_ERROR "the generator wrote nothing")
endif()
foreach(f IN LISTS generated)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${TMP}/${f} ${SRC}/src/x64/${f}
    RESULT_VARIABLE diff)
  if(diff)
    message(FATAL_ERROR "src/x64/${f} differs from the generator's output: "
      "run `python3 tools/gen/x64.py --out src/x64` and commit")
  endif()
endforeach()
message(STATUS "src/x64: ${count} generated files up to date")
