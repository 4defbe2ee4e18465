/* Internal interface of the eight-lane curve batches (src/ec/mb.c): the batch functions of
 * tabai_ec.h with an explicit kernel (NULL: the loop over the single-operation functions),
 * for the tests and the benchmark, and the two helpers ec.c lends to them. Not exported. */
#ifndef TABAI_EC_MB_H
#define TABAI_EC_MB_H

#include "../ifma/ec_r52.h"
#include "ec.h"

/* d, e (the digit as a scalar mod q) and the first RFC 6979 nonce candidate k in [1, q-1]
 * of tabai_ecdsa_sign_digest with the same arguments (n limbs each, secret); its errors
 * (TABAI_ERR_CURVE, _NULL, _SCALAR, _KERNEL, _ALLOC) in the same order. */
tabai_status tabai_ec_sign_prepare(tabai_curve cv, uint64_t *d, uint64_t *e, uint64_t *k,
                                   const uint8_t *sk, const uint8_t *digest, size_t digest_len,
                                   tabai_hash h, const uint8_t *extra, size_t extra_len);
/* e = bits2int(digest) mod q (RFC 6979 2.3.2, then one conditional subtraction). */
void tabai_ec_digest_scalar(const tabai_ec_curve *c, uint64_t *e, const uint8_t *digest,
                            size_t digest_len);

/* len bytes from the operating system's generator (getrandom); 1 on success. */
int tabai_ec_os_random(uint8_t *buf, size_t len);

/* The kernel the batches use at the tier in use: the IFMA one at tier ifma, else NULL. */
const tabai_ec_r52_kernel *tabai_ec_mb_kernel_active(void);
/* The radix-2^52 constants and generator table of a curve (built at first use), or NULL for
 * a curve the eight-lane kernels do not serve (P-521). */
const tabai_ec_r52_curve *tabai_ec_r52_curve_get(const tabai_ec_curve *c);

tabai_status tabai_ec_public_key_batch_with(const tabai_ec_r52_kernel *k, tabai_curve c,
                                            size_t count, tabai_status st[], uint8_t *const pk[],
                                            size_t pk_len, const uint8_t *const sk[]);
tabai_status tabai_ecdh_batch_with(const tabai_ec_r52_kernel *k, tabai_curve c, size_t count,
                                   tabai_status st[], uint8_t *const secret[],
                                   const uint8_t *const sk[], const uint8_t *const peer_pk[],
                                   const size_t peer_len[]);
tabai_status tabai_ecdsa_sign_batch_with(const tabai_ec_r52_kernel *k, tabai_curve c,
                                         size_t count, tabai_status st[], uint8_t *const sig[],
                                         const uint8_t *const sk[],
                                         const uint8_t *const digest[],
                                         const size_t digest_len[], tabai_hash h,
                                         const uint8_t *const extra[], const size_t extra_len[],
                                         unsigned flags);
tabai_status tabai_ecdsa_verify_batch_with_vartime(const tabai_ec_r52_kernel *k, tabai_curve c,
                                                   size_t count, tabai_status st[],
                                                   const uint8_t *const pk[],
                                                   const size_t pk_len[],
                                                   const uint8_t *const digest[],
                                                   const size_t digest_len[],
                                                   const uint8_t *const sig[], unsigned flags);

#endif
