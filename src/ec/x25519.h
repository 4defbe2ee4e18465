/* X25519 at tier bmi2 (src/ec/bmi2/x25519_bmi2.c): GF(2^255 - 19) in 4 x 64-bit limbs,
 * mulx/adcx/adox. Elements: uint64_t[4], least significant first, any value in [0, 2^256)
 * (lazily reduced: congruent mod p = 2^255 - 19, not necessarily below p); outputs are in
 * [0, 2^256) too. */
#ifndef TABAI_EC_X25519_H
#define TABAI_EC_X25519_H
#include <stdint.h>

/* out[32] = the u-coordinate k * u (RFC 7748 section 5 ladder, 255 steps, fully reduced,
 * little-endian), without the all-zero check. k: the scalar, already clamped; u: the top bit
 * is ignored. Constant time in k and u. */
void tabai_x25519_ladder_n4_bmi2(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]);
/* out[32] = x2 / z2 mod p, fully reduced, little-endian: the end of the bmi2 and ifma ladders
 * (z2 reduced, inverted by tabai_fe25519_invert_safegcd_n4, one product). x2, z2: any value in
 * [0, 2^256); z2 = 0 mod p gives 0. Constant time. */
void tabai_x25519_affine_n4_bmi2(uint8_t out[32], const uint64_t x2[4], const uint64_t z2[4]);

/* The field operations, exposed for the differential tests. r may alias the inputs. */
void tabai_fe25519_mul_n4_bmi2(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void tabai_fe25519_sqr_n4_bmi2(uint64_t r[4], const uint64_t a[4]);
/* s = a + b, d = a - b */
void tabai_fe25519_addsub_n4_bmi2(uint64_t s[4], uint64_t d[4], const uint64_t a[4],
                                  const uint64_t b[4]);
/* r = b + 121665 a (RFC 7748's a24) */
void tabai_fe25519_mul_a24_add_n4_bmi2(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
/* s[32] = a mod p in [0, p), little-endian */
void tabai_fe25519_to_bytes_n4_bmi2(uint8_t s[32], const uint64_t a[4]);

/* X25519 at tier ifma (src/ec/ifma/x25519_ifma.c): the ladder as 4-way AVX-512 IFMA
 * products in radix 2^51 (five 51-bit digits, four elements per ymm); the inversion by
 * safegcd, the last product and reduction of the bmi2 tier above. Same contract as
 * tabai_x25519_ladder_n4_bmi2. */
void tabai_x25519_ladder_r51n5_ifma(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]);
/* r[l] = a[l] * b[l] mod p for the four lanes l: inputs any value in [0, 2^256) as four
 * 64-bit limbs, outputs congruent and in [0, 2^256) (not fully reduced). */
void tabai_fe25519_mul_r51n5_mb4_ifma(uint64_t r[4][4], const uint64_t a[4][4],
                                      const uint64_t b[4][4]);

/* r = a^-1 mod p (0 for a = 0) for a < p, r < p: Bernstein-Yang safegcd in constant time
 * (src/mod/safegcd.c; src/ec/x25519.c), the final inversion of the bmi2 and ifma ladders:
 * measured faster there than z^(p-2) by 254 squarings and 11 products, one serial chain. */
void tabai_fe25519_invert_safegcd_n4(uint64_t r[4], const uint64_t a[4]);

/* The generic twins (src/ec/x25519.c, radix 2^51): inputs any value in [0, 2^256) as four
 * 64-bit limbs, outputs fully reduced into [0, p). */
void tabai_fe25519_mul_r51_generic(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void tabai_fe25519_sqr_r51_generic(uint64_t r[4], const uint64_t a[4]);
#endif
