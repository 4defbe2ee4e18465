# The benchmark's embedded moduli (bench/moduli.h) against OpenSSL's constants, the PEM test
# keys in data/keys and the defining formulas; included from tests/c/CMakeLists.txt.
find_package(OpenSSL COMPONENTS Crypto)
if(OpenSSL_FOUND)
  add_executable(test_moduli ${CMAKE_CURRENT_LIST_DIR}/test_moduli.c)
  target_link_libraries(test_moduli PRIVATE ${GMP_LIBRARY} OpenSSL::Crypto)
  target_include_directories(test_moduli PRIVATE ${GMP_INCLUDE_DIR} ${PROJECT_SOURCE_DIR}/bench)
  add_test(NAME moduli COMMAND test_moduli ${PROJECT_SOURCE_DIR}/data/keys)
  set_tests_properties(moduli PROPERTIES LABELS "c" TIMEOUT 120)
else()
  message(STATUS "test_moduli: OpenSSL not found, not built")
endif()
