# X25519 (RFC 7748) against the RFC's vectors and OpenSSL's EVP X25519, and its field against
# GMP; included from tests/c/CMakeLists.txt. Three field paths: radix 2^51 (tier generic) and
# 4 x 64-bit limbs with mulx/adcx/adox (bmi2 up to avx512, src/ec/bmi2/x25519_bmi2.c), and
# the 4-way radix-2^51 ladder with AVX-512 IFMA (ifma, src/ec/ifma/x25519_ifma.c), so both
# programs run at tiers generic, bmi2 and ifma (skipped, exit 77, on a CPU without IFMA). The
# 1,000,000-iteration vector of RFC 7748 5.2 runs with `test_x25519 --long` (about half a
# minute; not registered).
find_package(OpenSSL COMPONENTS Crypto)
if(OpenSSL_FOUND)
  add_executable(test_x25519 ${CMAKE_CURRENT_LIST_DIR}/test_x25519.c)
  target_link_libraries(test_x25519 PRIVATE tabai_testutil OpenSSL::Crypto)
  foreach(tier generic bmi2 ifma)
    add_test(NAME x25519.${tier} COMMAND test_x25519)
    set_tests_properties(x25519.${tier} PROPERTIES ENVIRONMENT "TABAI_CPU=${tier}"
      LABELS "c;tier" TIMEOUT 120 SKIP_RETURN_CODE 77)
  endforeach()
else()
  message(STATUS "test_x25519: OpenSSL not found, not built")
endif()
add_executable(test_fe25519 ${CMAKE_CURRENT_LIST_DIR}/test_fe25519.c)
target_link_libraries(test_fe25519 PRIVATE tabai_testutil)
target_include_directories(test_fe25519 PRIVATE ${PROJECT_SOURCE_DIR}/src)
foreach(tier generic bmi2 ifma)
  add_test(NAME fe25519.${tier} COMMAND test_fe25519)
  set_tests_properties(fe25519.${tier} PROPERTIES ENVIRONMENT "TABAI_CPU=${tier}"
    LABELS "c;tier" TIMEOUT 300 SKIP_RETURN_CODE 77)
endforeach()
