/* tabai_ec.h: elliptic-curve cryptography over prime fields, on tabai's modular arithmetic.
 *
 * Curves: NIST P-256, P-384, P-521 (FIPS 186-5, SEC 2), secp256k1 (SEC 2), and Curve25519
 * for X25519 (RFC 7748). All short-Weierstrass curves here have cofactor 1.
 *
 * Encodings (all byte strings big-endian unless said otherwise):
 *   L   = tabai_ec_field_bytes(curve)  (32, 48, 66, 32): a field element, an ECDH secret.
 *   Ln  = tabai_ec_scalar_bytes(curve) (32, 48, 66, 32): a private scalar, r and s.
 *   Points as SEC1 (SEC 1 v2, 2.3.3): 0x04 || X || Y (1 + 2L bytes, uncompressed),
 *   0x02/0x03 || X (1 + L bytes, compressed). The point at infinity is the single byte
 *   0x00; only the point-arithmetic functions accept or produce it.
 *   X25519 scalars and u-coordinates: 32 bytes, little-endian (RFC 7748).
 *
 * Time: everything that touches a private scalar or a nonce is constant time (addition
 * formulas without exceptional inputs: Renes-Costello-Batina's complete ones, and in k P a
 * unified Jacobian one whose every case is taken by masks; masked table scans; no
 * secret-dependent branch, address or variable-latency instruction). Functions whose time depends on their inputs end in
 * `_vartime` and take public data only.
 *
 * Errors: every function returns a tabai_status and writes nothing to its outputs on error.
 */
#ifndef TABAI_EC_H
#define TABAI_EC_H

#include "tabai.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tabai_curve {
    TABAI_CURVE_P256 = 1,      /**< NIST P-256 = secp256r1 = prime256v1 */
    TABAI_CURVE_P384 = 2,      /**< NIST P-384 = secp384r1 */
    TABAI_CURVE_P521 = 3,      /**< NIST P-521 = secp521r1 */
    TABAI_CURVE_SECP256K1 = 4  /**< SEC 2 secp256k1 */
} tabai_curve;

/** Hash functions, for RFC 6979's HMAC_DRBG (the hash of the digest being signed). */
typedef enum tabai_hash {
    TABAI_HASH_SHA224 = 1,
    TABAI_HASH_SHA256 = 2,
    TABAI_HASH_SHA384 = 3,
    TABAI_HASH_SHA512 = 4,
    TABAI_HASH_SHA512_224 = 5,
    TABAI_HASH_SHA512_256 = 6,
    TABAI_HASH_SHA3_224 = 7,
    TABAI_HASH_SHA3_256 = 8,
    TABAI_HASH_SHA3_384 = 9,
    TABAI_HASH_SHA3_512 = 10
} tabai_hash;

/** ECDSA flag: when signing, s is normalised to s <= n/2; when verifying, s > n/2 is
 *  rejected (secp256k1's low-S rule, BIP 62 / BIP 146). */
#define TABAI_ECDSA_LOW_S 1u

/** A curve's name ("P-256", "P-384", "P-521", "secp256k1"), NULL if unknown. */
TABAI_API const char *tabai_curve_name(tabai_curve c);
/** Parse a curve name, case-insensitive: "P-256", "secp256r1", "prime256v1", "P-384",
 *  "secp384r1", "P-521", "secp521r1", "secp256k1". Returns -1 for an unknown name. */
TABAI_API int tabai_curve_parse(const char *name);
/** L: bytes of a field element (0 for an unknown curve). */
TABAI_API size_t tabai_ec_field_bytes(tabai_curve c);
/** Ln: bytes of a scalar modulo the group order n (0 for an unknown curve). */
TABAI_API size_t tabai_ec_scalar_bytes(tabai_curve c);
/** The curve y^2 = x^3 + a x + b over F_p with generator G of prime order n: p, a, b, Gx,
 *  Gy as L bytes, n as Ln bytes (any output may be NULL). Errors: TABAI_ERR_CURVE. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ec_curve_params(tabai_curve c, uint8_t *p,
                                                                      uint8_t *a, uint8_t *b,
                                                                      uint8_t *gx, uint8_t *gy,
                                                                      uint8_t *n);

/* ---- keys ---- */

/** A new key pair from the operating system's random generator (getrandom): sk[Ln], a
 *  scalar 1 <= d < n drawn by rejection sampling; pk[1 + 2L], uncompressed Q = d G.
 *  Errors: TABAI_ERR_CURVE, TABAI_ERR_NULL, TABAI_ERR_RANDOM. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ec_keypair(tabai_curve c, uint8_t *sk,
                                                                 uint8_t *pk);
/** pk = d G for the private scalar sk[Ln]; pk_len 1 + 2L (uncompressed) or 1 + L
 *  (compressed) chooses the form. Errors: TABAI_ERR_CURVE, TABAI_ERR_NULL, TABAI_ERR_SIZE
 *  (pk_len), TABAI_ERR_SCALAR (d = 0 or d >= n). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ec_public_key(tabai_curve c, uint8_t *pk,
                                                                    size_t pk_len,
                                                                    const uint8_t *sk);
/** Validates a SEC1 public key (SEC 1 v2, 3.2.2.1: encoding, coordinates < p, on the
 *  curve, not infinity; decompression by y = (x^3 + a x + b)^((p+1)/4), as p = 3 mod 4 for
 *  all four curves) and writes it uncompressed to out[1 + 2L]
 *  (out may be NULL). Errors: TABAI_ERR_CURVE, TABAI_ERR_NULL, TABAI_ERR_POINT. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ec_public_key_check(tabai_curve c,
                                                                          uint8_t *out,
                                                                          const uint8_t *pk,
                                                                          size_t pk_len);

/* ---- ECDH ---- */

/** Elliptic-curve Diffie-Hellman primitive (SEC 1 v2, 3.3.1): secret[L] = x(d Q), the
 *  x-coordinate left-padded to L bytes. The peer's key is validated first.
 *  Errors: TABAI_ERR_CURVE, TABAI_ERR_NULL, TABAI_ERR_SCALAR, TABAI_ERR_POINT.
 *  Time: constant in sk. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ecdh(tabai_curve c, uint8_t *secret,
                                                           const uint8_t *sk,
                                                           const uint8_t *peer_pk, size_t peer_len);

/* ---- ECDSA ---- */

/** ECDSA signature (FIPS 186-5 6.4.1, SEC 1 v2 4.1.3) of a message digest: sig[2 Ln] =
 *  r || s. The nonce k is deterministic by RFC 6979 (HMAC_DRBG with hash h, the hash that
 *  made the digest); extra[extra_len] (may be NULL/0) is the additional data k' of RFC 6979
 *  3.6, for fresh randomness mixed into the nonce. digest: any length; its leftmost bits
 *  (as many as n has) are used (bits2int). flags: TABAI_ECDSA_LOW_S.
 *  Errors: TABAI_ERR_CURVE, TABAI_ERR_NULL, TABAI_ERR_SCALAR, TABAI_ERR_KERNEL (hash
 *  unknown, or 64 nonce candidates in a row out of [1, n-1]), TABAI_ERR_ALLOC (extra longer than 128 bytes and
 *  its buffer could not be allocated). Time: constant in sk and k. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ecdsa_sign_digest(
    tabai_curve c, uint8_t *sig, const uint8_t *sk, const uint8_t *digest, size_t digest_len,
    tabai_hash h, const uint8_t *extra, size_t extra_len, unsigned flags);
/** ECDSA verification (FIPS 186-5 6.4.2) of sig[2 Ln] = r || s over a digest, for the SEC1
 *  public key pk[pk_len] (validated). Returns TABAI_OK if the signature is valid.
 *  flags: TABAI_ECDSA_LOW_S rejects s > n/2.
 *  Errors: TABAI_ERR_CURVE, TABAI_ERR_NULL, TABAI_ERR_POINT (bad public key),
 *  TABAI_ERR_SIGNATURE (r or s out of [1, n-1], or the equation fails).
 *  Time: variable (public inputs only). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ecdsa_verify_digest_vartime(
    tabai_curve c, const uint8_t *pk, size_t pk_len, const uint8_t *digest, size_t digest_len,
    const uint8_t *sig, unsigned flags);

/* ---- point arithmetic (for research; SEC1 encodings, 0x00 for infinity) ---- */

/** out = k P for a scalar k[k_len] (big-endian, any length, reduced mod n) and a point
 *  P[p_len] (validated; infinity allowed). out: 1 + 2L bytes, uncompressed, or a single
 *  0x00 followed by 2L zero bytes for infinity. Errors: TABAI_ERR_CURVE, TABAI_ERR_NULL,
 *  TABAI_ERR_POINT. Time: constant in k; P is treated as public (the table of its multiples
 *  is made in variable time), as the peer's key of tabai_ecdh is. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ec_point_mul(tabai_curve c, uint8_t *out,
                                                                   const uint8_t *k, size_t k_len,
                                                                   const uint8_t *pt, size_t p_len);
/** out = P + Q by complete formulas (any inputs, infinity included). out as in
 *  tabai_ec_point_mul. Errors: TABAI_ERR_CURVE, TABAI_ERR_NULL, TABAI_ERR_POINT. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ec_point_add(tabai_curve c, uint8_t *out,
                                                                   const uint8_t *pt, size_t p_len,
                                                                   const uint8_t *qt, size_t q_len);

/* ---- X25519 (RFC 7748) ---- */

/** out[32] = X25519(k, u): the Montgomery ladder of RFC 7748 section 5 with constant-time
 *  conditional swaps; k clamped, the top bit of u masked. Errors: TABAI_ERR_NULL,
 *  TABAI_ERR_POINT when the result is all zero (a small-order u; RFC 7748 section 6.1),
 *  nothing written then. Time: constant in k. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_x25519(uint8_t out[32], const uint8_t k[32],
                                                             const uint8_t u[32]);
/** out[32] = X25519(k, 9): the public key of k. Errors: TABAI_ERR_NULL. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_x25519_base(uint8_t out[32],
                                                                  const uint8_t k[32]);
/** A new X25519 key pair: sk[32] from getrandom, pk[32] = X25519(sk, 9).
 *  Errors: TABAI_ERR_NULL, TABAI_ERR_RANDOM. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_x25519_keypair(uint8_t sk[32],
                                                                     uint8_t pk[32]);

/* ---- batches: many operations of one curve in one call ----
 * At tier ifma, P-256, P-384 and secp256k1 run in groups of 8, one operation per 64-bit
 * lane of a zmm register (radix 2^52, vpmadd52luq/huq: Bos, Montgomery, Shumow, Zaverucha,
 * SAC 2013, Algorithm 2; the complete formulas of Renes, Costello, Batina 2016, k P's
 * doublings in Jacobian coordinates on the a = -3 curves, GLV on secp256k1; inversions by
 * safegcd item by item), a last partial group padded with dummy lanes; at the tiers below,
 * and for P-521, every item goes through its single-operation function. Either way every
 * item's output and status are those of its single-operation twin (same bytes: RFC 6979
 * nonces included). Arrays hold one entry per item (count may be 0). Each item has its own
 * status in st[i]; an item's bad input fails that item alone and leaves its output
 * unwritten. Returns TABAI_OK if every item succeeded, else the status of the first failed
 * item; TABAI_ERR_CURVE (unknown curve) and TABAI_ERR_NULL (st or an array NULL with
 * count > 0) before anything is written. */

/** pk[i] = sk[i] G for i < count: tabai_ec_public_key for many keys, all in the form
 *  pk_len chooses (1 + 2L uncompressed, 1 + L compressed; TABAI_ERR_SIZE for the whole call
 *  otherwise). Per item: TABAI_ERR_NULL, TABAI_ERR_SCALAR. Time: constant in sk[i]. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status
tabai_ec_public_key_batch(tabai_curve c, size_t count, tabai_status st[], uint8_t *const pk[],
                          size_t pk_len, const uint8_t *const sk[]);
/** count key pairs from getrandom (tabai_ec_keypair's rejection sampling per item):
 *  sk[i][Ln], pk[i][1 + 2L] uncompressed. Per item: TABAI_ERR_NULL, TABAI_ERR_RANDOM.
 *  Time: constant in the private keys. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ec_keypair_batch(tabai_curve c, size_t count,
                                                                       tabai_status st[],
                                                                       uint8_t *const sk[],
                                                                       uint8_t *const pk[]);
/** secret[i][L] = x(sk[i] Q_i), Q_i the SEC1 key peer_pk[i][peer_len[i]] (validated): the
 *  ECDH primitive of tabai_ecdh (SEC 1 v2 3.3.1) for many pairs. Per item:
 *  TABAI_ERR_NULL, TABAI_ERR_POINT, TABAI_ERR_SCALAR (in that order, as tabai_ecdh).
 *  Time: constant in sk[i]. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ecdh_batch(
    tabai_curve c, size_t count, tabai_status st[], uint8_t *const secret[],
    const uint8_t *const sk[], const uint8_t *const peer_pk[], const size_t peer_len[]);
/** sig[i][2 Ln] = r || s: tabai_ecdsa_sign_digest of digest[i][digest_len[i]] with sk[i]
 *  for many items, one hash h and flags for all; extra may be NULL (no additional data),
 *  else extra[i][extra_len[i]] as RFC 6979 3.6's k'. The signatures are byte for byte
 *  those of tabai_ecdsa_sign_digest. Per item: its errors. Time: constant in sk[i] and the
 *  nonces. */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ecdsa_sign_batch(
    tabai_curve c, size_t count, tabai_status st[], uint8_t *const sig[], const uint8_t *const sk[],
    const uint8_t *const digest[], const size_t digest_len[], tabai_hash h,
    const uint8_t *const extra[], const size_t extra_len[], unsigned flags);
/** st[i] = tabai_ecdsa_verify_digest_vartime(pk[i], digest[i], sig[i]) for i < count (flags
 *  for all): TABAI_OK for a valid signature, else TABAI_ERR_NULL, TABAI_ERR_POINT or
 *  TABAI_ERR_SIGNATURE. Time: variable (public inputs only). */
TABAI_API TABAI_WARN_UNUSED_RESULT tabai_status tabai_ecdsa_verify_batch_vartime(
    tabai_curve c, size_t count, tabai_status st[], const uint8_t *const pk[],
    const size_t pk_len[], const uint8_t *const digest[], const size_t digest_len[],
    const uint8_t *const sig[], unsigned flags);

#ifdef __cplusplus
}
#endif
#endif /* TABAI_EC_H */
