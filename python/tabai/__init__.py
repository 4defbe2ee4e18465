"""tabai (多倍): multi-precision modular arithmetic at public-key sizes (64 to 8192 bits).

The Python face of the tabai C library, in the style of gmpy2 and the ``pow`` builtin:

>>> import tabai
>>> tabai.powmod(3, 2**255 - 20, 2**255 - 19)   # Fermat: 1 for a prime modulus
1
>>> F = tabai.Montgomery(2**255 - 19)
>>> F.mul(-1, 2)                                  # any ints in, residues in [0, p) out
57896044618658097711785492504343953926634992332820282019728792003956564819947
>>> tabai.Ohta(2**64).pow(3, -1)                  # any modulus >= 2, even ones included
12297829382473034411

Public names:
    powmod(b, e, m)          b**e mod m like pow(); constant time in b and e (odd or even m)
    powmod_vartime(b, e, m)  the same by sliding window, for public exponents only
    powmod_batch(bs, es, ms, threads=None)  many constant-time powmods at once (8 per
                             AVX-512 IFMA vector, on every core)
    powmod_batch_limbs(b, e, m)  the same on numpy uint64 arrays of limbs (zero copy in)
    RSAKey(n, e, d, p, q, dp, dq, qinv)  the raw RSA private operation: checked key, CRT,
                             blinding, result checked with e; many at once
    RSAPublicKey(n, e)       the raw RSA public operation
    rsa                      RSA keys from PEM/DER/cryptography with PKCS #1 v1.5, PSS, OAEP
    dh                       Diffie-Hellman in the RFC 7919 and RFC 3526 groups
    dsa                      DSA (FIPS 186-4, legacy) with RFC 6979 nonces
    InvalidSignature         raised by the verify methods
    Montgomery(p)            field object for an odd p >= 3 (Montgomery products)
    Ohta(p)                  field object for any p >= 2 (Ohta's Barrett-like reduction)
    jacobi_vartime(a, m)     the Jacobi symbol (a/m), public values only
    cpu()                    CPU features, native tier and tier in use
    set_tier(name)           cap the dispatch tier of this process (like TABAI_CPU)
    MAX_BITS                 the largest modulus size, 8192 bits
    ec                       elliptic curves: keys, ECDH, ECDSA, X25519, points (tabai.ec)
    InvalidSignature         raised when a well-formed signature does not verify

Errors: TypeError for a non-int argument, ValueError for a bad modulus or a missing
inverse; never a crash. The command line tool is ``tabai bench`` (``python -m tabai``).
"""

from ._core import (
    MAX_BITS,
    Montgomery,
    Ohta,
    RSAKey,
    RSAPublicKey,
    cpu,
    jacobi_vartime,
    powmod,
    powmod_batch,
    powmod_batch_limbs,
    powmod_vartime,
    set_tier,
)
from ._core import c_version as _c_version  # noqa: F401  (kept: the C library version)



class InvalidSignature(Exception):
    """A signature that does not verify (raised by the verify methods of tabai.rsa, tabai.ec and
    the other signature schemes)."""


from . import dh, dsa, ec, rsa  # noqa: E402  (they use InvalidSignature)

__version__ = "0.1.0"
__all__ = [
    "InvalidSignature",
    "MAX_BITS",
    "Montgomery",
    "Ohta",
    "RSAKey",
    "RSAPublicKey",
    "cpu",
    "dh",
    "dsa",
    "jacobi_vartime",
    "ec",
    "powmod",
    "powmod_batch",
    "powmod_batch_limbs",
    "powmod_vartime",
    "rsa",
    "set_tier",
]
