/* Byte conversions, status strings, version. */
#include "../internal.h"

const char *tabai_status_str(tabai_status s) {
    switch (s) {
    case TABAI_OK: return "ok";
    case TABAI_ERR_NULL: return "a required pointer is NULL";
    case TABAI_ERR_SIZE: return "limb count or length out of range (1..TABAI_MAX_LIMBS limbs)";
    case TABAI_ERR_MODULUS: return "modulus not allowed (Montgomery: odd p >= 3; Ohta: p >= 2)";
    case TABAI_ERR_RANGE: return "operand not reduced (must be < p)";
    case TABAI_ERR_NOINV: return "no inverse exists";
    case TABAI_ERR_TIER: return "tier or kernel not available on this CPU";
    case TABAI_ERR_KERNEL: return "kernel does not support this size";
    case TABAI_ERR_ALLOC: return "out of memory";
    case TABAI_ERR_SCRATCH: return "scratch buffer too short";
    case TABAI_ERR_FAULT: return "fault detected: the result failed its check";
    case TABAI_ERR_RSA_SIZE: return "RSA key: modulus outside 1024..8192 bits or primes not of half its size";
    case TABAI_ERR_RSA_E: return "RSA key: public exponent even or < 3";
    case TABAI_ERR_RSA_PQ: return "RSA key: p or q even, p == q, or p*q != n";
    case TABAI_ERR_RSA_DP: return "RSA key: dP out of range or e*dP != 1 mod (p-1)";
    case TABAI_ERR_RSA_DQ: return "RSA key: dQ out of range or e*dQ != 1 mod (q-1)";
    case TABAI_ERR_RSA_QINV: return "RSA key: qInv out of range or q*qInv != 1 mod p";
    case TABAI_ERR_RSA_D: return "RSA key: d >= n or d does not match dP, dQ";
    case TABAI_ERR_CURVE: return "unknown curve";
    case TABAI_ERR_POINT: return "invalid point (encoding, not on the curve, or infinity)";
    case TABAI_ERR_SCALAR: return "scalar out of range (0 or >= the group order)";
    case TABAI_ERR_SIGNATURE: return "invalid signature";
    case TABAI_ERR_RANDOM: return "the random generator failed";
    }
    return "unknown status";
}

const char *tabai_version(void) { return "0.1.0"; }

tabai_status tabai_from_bytes(uint64_t *r, size_t n, const uint8_t *be, size_t len) {
    if (!r || (!be && len)) return TABAI_ERR_NULL;
    if (n > SIZE_MAX / 8) return TABAI_ERR_SIZE; /* 8n bytes would not fit in a size_t */
    /* the bytes in front of the last 8n must all be zero: OR-ed, no branch on their values
     * (the count of leading zero bytes is secret); whether the value fits is public, it
     * decides TABAI_ERR_SIZE */
    size_t keep = len < 8 * n ? len : 8 * n;
    uint64_t high = 0;
    for (size_t i = 0; i < len - keep; i++) high |= be[i];
    if (tabai_declassify(tabai_nonzero(high))) return TABAI_ERR_SIZE;
    for (size_t i = 0; i < n; i++) r[i] = 0;
    for (size_t i = 0; i < keep; i++) {
        size_t pos = len - 1 - i; /* byte i counted from the least significant end */
        r[i / 8] |= (uint64_t)be[pos] << (8 * (i % 8));
    }
    return TABAI_OK;
}

tabai_status tabai_to_bytes(uint8_t *be, size_t len, const uint64_t *a, size_t n) {
    if (!be || !a) return TABAI_ERR_NULL;
    if (n > SIZE_MAX / 8) return TABAI_ERR_SIZE; /* 8n bytes would not fit in a size_t */
    /* the value must fit: every byte at or above len must be zero. OR-ed, no branch on the
     * limbs; whether the value fits is public, it decides TABAI_ERR_SIZE */
    uint64_t high = 0;
    for (size_t i = len; i < 8 * n; i++) high |= (a[i / 8] >> (8 * (i % 8))) & 0xff;
    if (tabai_declassify(tabai_nonzero(high))) return TABAI_ERR_SIZE;
    for (size_t i = 0; i < len; i++) {
        uint8_t v = i < 8 * n ? (uint8_t)(a[i / 8] >> (8 * (i % 8))) : 0;
        be[len - 1 - i] = v;
    }
    return TABAI_OK;
}
