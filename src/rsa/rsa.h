/* The RSA layer's internal interface: the entry with an explicit multi-buffer kernel (tests,
 * benchmark), the one call that runs a batch's CRT exponentiations, and the test hooks. */
#ifndef TABAI_RSA_RSA_H
#define TABAI_RSA_RSA_H

#include "../mb/mb.h"

/* x[2i] = x[2i]^dP_i mod p_i and x[2i+1] = x[2i+1]^dQ_i mod q_i for i < count, in place;
 * x[j]: H limbs (H >= every prime's limb count; limbs above the prime's zero in and out). The pair of
 * CRT exponentiations of every private operation goes through this one call, so that a
 * faster exponentiation kernel replaces it in one place. k: the multi-buffer kernel (NULL:
 * the scalar loop); on the calling thread (a batch's threads each run their own share of
 * messages through it). Constant time in x and the keys' secrets. Errors: TABAI_ERR_ALLOC. */
tabai_status tabai_rsa_crt_exp(const tabai_mb_kernel *k, size_t count,
                               const tabai_rsa_key *const key[], uint64_t *const x[], size_t H);

/* tabai_rsa_private_batch with an explicit multi-buffer kernel (NULL: the scalar loop). */
tabai_status tabai_rsa_private_batch_with(const tabai_mb_kernel *k, size_t count,
                                          uint64_t *const m[], const uint64_t *const c[],
                                          tabai_rsa_key *const key[], unsigned threads);

/* Test hooks (hidden symbols, NULL in every program but the tests; never exported).
 * fault: called with each item's m1 = c'^dP mod p (p's limbs) after the CRT exponentiations,
 *        so a test can corrupt one half and expect TABAI_ERR_FAULT.
 * blind: called with each item's blinding factor A (Montgomery form, n limbs) as it is
 *        used, so a test can see that two operations use different ones. */
extern void (*tabai_rsa_fault_hook)(uint64_t *m1, size_t h);
extern void (*tabai_rsa_blind_hook)(const uint64_t *a, size_t n);

#endif
