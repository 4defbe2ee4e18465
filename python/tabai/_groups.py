"""The finite-field Diffie-Hellman groups of RFC 7919 (ffdhe2048..8192) and RFC 3526 (MODP
2048..8192), computed from their published definitions rather than typed in:

    RFC 7919: p = 2^b - 2^(b-64) + {[2^(b-130) e] + X} * 2^64 - 1
    RFC 3526: p = 2^b - 2^(b-64) - 1 + 2^64 * {[2^(b-130) pi] + X}

with the offsets X of the RFCs; g = 2 and q = (p-1)/2 for all (safe primes; 2 generates the
subgroup of order q). The test suite checks p and q for primality and the RFCs' first and last
hex digits.
"""

from __future__ import annotations

from functools import lru_cache

# the offsets X of the RFCs (RFC 7919 appendix A, RFC 3526 sections 3-7)
_FFDHE_X = {2048: 560316, 3072: 2625351, 4096: 5736041, 6144: 15705020, 8192: 10965728}
_MODP_X = {2048: 124476, 3072: 1690314, 4096: 240904, 6144: 929484, 8192: 4743158}

# RFC 7919 section 5.2 (table in its appendix A): the shortest private exponent for each size,
# twice the security strength; the same sizes serve the MODP groups of the same length
SHORT_EXPONENT_BITS = {2048: 225, 3072: 275, 4096: 325, 6144: 375, 8192: 400}


def _e_fixed(bits: int) -> int:
    """floor(e * 2^bits) by the series sum 1/k! in integers (guard bits against rounding)."""
    guard = 64
    one = 1 << (bits + guard)
    total, term, k = 0, one, 0
    while term:
        total += term
        k += 1
        term //= k
    return total >> guard


def _pi_fixed(bits: int) -> int:
    """floor(pi * 2^bits) by Machin's formula pi = 16 atan(1/5) - 4 atan(1/239)."""
    guard = 64
    one = 1 << (bits + guard)

    def atan_inv(x: int) -> int:
        total, power, k, sign = 0, one // x, 1, 1
        while power:
            total += sign * (power // k)
            power //= x * x
            k += 2
            sign = -sign
        return total

    return (16 * atan_inv(5) - 4 * atan_inv(239)) >> guard


@lru_cache(maxsize=None)
def ffdhe(bits: int) -> int:
    """The RFC 7919 prime of `bits` bits."""
    return 2**bits - 2 ** (bits - 64) + (_e_fixed(bits - 130) + _FFDHE_X[bits]) * 2**64 - 1


@lru_cache(maxsize=None)
def modp(bits: int) -> int:
    """The RFC 3526 prime of `bits` bits."""
    return 2**bits - 2 ** (bits - 64) - 1 + 2**64 * (_pi_fixed(bits - 130) + _MODP_X[bits])


NAMES = tuple(f"ffdhe{b}" for b in _FFDHE_X) + tuple(f"modp{b}" for b in _MODP_X)


def prime(name: str) -> int:
    """The prime of a group name ("ffdhe2048", "modp3072", ...). Raises ValueError."""
    for prefix, fn in (("ffdhe", ffdhe), ("modp", modp)):
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            bits = int(name[len(prefix):])
            if bits in _FFDHE_X:
                return fn(bits)
    raise ValueError(f"unknown group {name!r}; known: {', '.join(NAMES)}")
