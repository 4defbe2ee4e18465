# X25519 (RFC 7748) against the RFC's vectors and OpenSSL's EVP X25519; included from
# tests/c/CMakeLists.txt. The field code has no dispatch tiers: one run. The 1,000,000-
# iteration vector of RFC 7748 5.2 runs with `test_x25519 --long` (about half a minute; not
# registered).
find_package(OpenSSL COMPONENTS Crypto)
if(OpenSSL_FOUND)
  add_executable(test_x25519 ${CMAKE_CURRENT_LIST_DIR}/test_x25519.c)
  target_link_libraries(test_x25519 PRIVATE tabai_testutil OpenSSL::Crypto)
  add_test(NAME x25519 COMMAND test_x25519)
  set_tests_properties(x25519 PROPERTIES LABELS "c" TIMEOUT 120)
else()
  message(STATUS "test_x25519: OpenSSL not found, not built")
endif()
