"""Type stubs of tabai._core, the binding of the tabai C library (re-exported by tabai).

Every function accepts Python ints of any sign and size (and objects with __index__, such as
numpy integers); anything else raises TypeError. Moduli are limited to 8192 bits (MAX_BITS).
"""

import numpy
from typing import List, Sequence, SupportsIndex, TypedDict, Union

_Int = Union[int, SupportsIndex]

MAX_BITS: int
"""The largest modulus size in bits (8192 = 128 limbs of 64 bits)."""

class CpuInfo(TypedDict):
    brand: str
    features: List[str]
    native: str
    tier: str
    tiers: List[str]

def powmod(b: _Int, e: _Int, m: _Int) -> int:
    """b**e mod m with the results and exceptions of pow(b, e, m) for every m >= 1.

    Args:
        b: any int (reduced mod m first).
        e: any int; e < 0 uses the inverse of b mod m.
        m: 1 <= m < 2**8192.
    Returns:
        int in [0, m).
    Raises:
        TypeError: an argument is not an int.
        ValueError: m <= 0, m >= 2**8192, or e < 0 and b is not invertible mod m.
    Time: constant in b and e for a given bit length of e and a given m (fixed window,
        masked table reads; Montgomery for odd m, Ohta for even m). The int conversion, the
        reduction of b outside [0, m) and the inverse for e < 0 are not constant time.
    """

def powmod_vartime(b: _Int, e: _Int, m: _Int) -> int:
    """As powmod(), by sliding window: variable time in e. Public exponents only."""

def powmod2_vartime(a1: _Int, e1: _Int, a2: _Int, e2: _Int, m: _Int) -> int:
    """a1**e1 * a2**e2 mod m, the results and exceptions of pow(a1, e1, m) * pow(a2, e2, m) % m,
    by one simultaneous exponentiation (Straus's trick with interleaved sliding windows: one
    shared chain of squarings), as DSA verification needs. Only for public exponents.

    Args:
        a1, a2: any ints (reduced mod m first).
        e1, e2: any ints; a negative exponent uses the inverse of its base mod m.
        m: 1 <= m < 2**8192.
    Returns:
        int in [0, m).
    Raises:
        TypeError: an argument is not an int.
        ValueError: m <= 0, m >= 2**8192, or a negative exponent whose base is not invertible.
    Time: variable in e1 and e2 (and the bases).
    """

class FixedBase:
    """g**e mod p for one fixed base g and exponents of at most ebits bits (odd p >= 3): the
    comb method of Lim and Lee with a table of 2**rows entries made once (rows=None: the
    measured default). Raises ValueError for a bad p, ebits outside [1, 16384] or rows outside
    [1, 6], TypeError for a non-int."""

    def __init__(self, p: int, g: int, ebits: int, rows: int | None = None) -> None: ...
    @property
    def ebits(self) -> int: ...
    @property
    def rows(self) -> int: ...
    def pow(self, e: int) -> int:
        """g**e mod p for 0 <= e < 2**ebits: ceil(ebits/rows) squarings and products, each
        table entry read by a masked scan of all of them. Constant time in e (the int
        conversion aside). Raises ValueError for e outside [0, 2**ebits)."""

def powmod_batch(bases: Sequence[_Int], exps: Sequence[_Int], mods: Sequence[_Int],
                 threads: int | None = None) -> list[int]:
    """[pow(b, e, m) for b, e, m in zip(bases, exps, mods)], constant time, many at once.

    At tier ifma 8 at a time in the AVX-512 IFMA kernels (radix 2**52, one per vector lane);
    below it, or for moduli above 4096 bits, one at a time with the same results. The groups
    are split across `threads` threads (None: one per core); the GIL is released.
    Args:
        bases: ints (reduced mod their modulus first).
        exps: ints >= 0 (all processed with the bit length of the longest).
        mods: odd ints >= 3 below 2**8192, each operation its own.
        threads: None (every core) or 1..256.
    Raises:
        TypeError: not sequences of ints.
        ValueError: different lengths, an even or < 3 modulus, a negative exponent, threads
            outside 1..256.
    """

def powmod_batch_limbs(b: "numpy.ndarray", e: "numpy.ndarray", m: "numpy.ndarray",
                       threads: int | None = None) -> "numpy.ndarray":
    """powmod_batch on numpy uint64 arrays of limbs: b and m of shape (count, n), e of shape
    (count, k) (all 64*k exponent bits processed); returns a new (count, n) uint64 array.
    C-contiguous uint64 inputs are read in place (other integer arrays are converted, a
    copy). threads as in powmod_batch. Raises TypeError for what is not a 2-d array,
    ValueError for mismatched shapes, n outside 1..128, an even or < 3 modulus, or
    b[i] >= m[i]."""

class RSAKey:
    """An RSA private key (RFC 8017 section 3.2) for the raw private operation.

    RSAKey(n, e, d, p, q, dp, dq, qinv): n of 1024 to 8192 bits, e odd with 3 <= e < 2**64,
    p and q of half the limbs of n. Every parameter is checked; ValueError names the failed
    check (p*q != n, e*dp != 1 mod (p-1), e*dq != 1 mod (q-1), q*qinv != 1 mod p, d not
    matching dp, dq, ...). Key setup is variable time in p, q and d; the operations are
    constant time, blinded (base blinding with r**e, OpenSSL's pair updated by squaring, a
    fresh r every 32 operations) and the result is checked with e before it leaves
    (RuntimeError and no result on a mismatch). The key memory is wiped when freed."""

    def __init__(self, n: _Int, e: _Int, d: _Int, p: _Int, q: _Int, dp: _Int, dq: _Int,
                 qinv: _Int) -> None: ...
    def private_batch(self, messages: Sequence[_Int], threads: int | None = None) -> list[int]:
        """[m**d mod n for m in messages] by CRT, 8 at a time at tier ifma, on `threads`
        threads (None: every core); the GIL is released. Raises ValueError for a message
        outside [0, n)."""
    def private(self, c: _Int) -> int:
        """c**d mod n for one message."""
    def public(self, m: _Int) -> int:
        """m**e mod n (variable time in e)."""
    @property
    def n(self) -> int: ...
    @property
    def e(self) -> int: ...
    @property
    def bits(self) -> int: ...

class RSAPublicKey:
    """An RSA public key (n, e) for the raw public operation m**e mod n: n odd of 1024 to
    8192 bits, e odd with 3 <= e < 2**64 (ValueError otherwise). Variable time in e."""

    def __init__(self, n: _Int, e: _Int) -> None: ...
    def public_batch(self, messages: Sequence[_Int], threads: int | None = None) -> list[int]:
        """[m**e mod n for m in messages] on `threads` threads (None: every core); the GIL is
        released. Raises ValueError for a message outside [0, n)."""
    def public(self, m: _Int) -> int:
        """m**e mod n."""
    @property
    def n(self) -> int: ...
    @property
    def e(self) -> int: ...
    @property
    def bits(self) -> int: ...

def jacobi_vartime(a: _Int, m: _Int) -> int:
    """The Jacobi symbol (a/m) in {-1, 0, 1} for an odd m >= 3 (a reduced mod m first); for a
    prime m the Legendre symbol. Variable time (public values only). Raises ValueError for an
    even or < 3 m (or m >= 2**8192), TypeError for a non-int."""

def cpu() -> CpuInfo:
    """The CPU brand, its features, the native tier, the tier in use and the tiers available."""

def set_tier(name: str) -> str:
    """Caps the dispatch tier ("generic", "bmi2", "avx2", "avx512", "ifma", "native"),
    never above the native one. Returns the tier now in use. Raises ValueError for an unknown
    name. Objects created before keep their kernels."""

def c_version() -> str:
    """Version string of the C library."""

class Montgomery:
    """Arithmetic modulo an odd p >= 3 (p < 2**8192) with Montgomery products (CIOS,
    R = 2**(64*limbs)); the Montgomery form stays inside a call.

    Every method takes ints of any sign and size (reduced mod p first, by Python ints, not in
    constant time) and returns an int in [0, p). Constant time in the reduced operands except
    inv() and pow_vartime(). Raises TypeError for non-int arguments.
    """

    def __init__(self, p: _Int) -> None:
        """Raises ValueError if p is even, p < 3 or p >= 2**8192; TypeError for a non-int."""
    @property
    def p(self) -> int:
        """The modulus."""
    @property
    def bits(self) -> int:
        """Bit length of p."""
    @property
    def limbs(self) -> int:
        """Length of p in 64-bit limbs."""
    @property
    def tier(self) -> str:
        """The dispatch tier whose kernels this object uses (fixed at creation)."""
    def mul(self, a: _Int, b: _Int) -> int:
        """a*b mod p. Constant time."""
    def sqr(self, a: _Int) -> int:
        """a*a mod p. Constant time."""
    def add(self, a: _Int, b: _Int) -> int:
        """a+b mod p. Constant time."""
    def sub(self, a: _Int, b: _Int) -> int:
        """a-b mod p. Constant time."""
    def neg(self, a: _Int) -> int:
        """-a mod p. Constant time."""
    def inv(self, a: _Int) -> int:
        """a**-1 mod p (binary extended Euclid, any p). Raises ValueError if gcd(a, p) != 1.
        Variable time."""
    def inv_prime(self, a: _Int) -> int:
        """a**-1 mod p by Fermat, a**(p-2): constant time; an inverse only if p is prime (not
        checked). Raises ValueError if a is 0 mod p."""
    def pow2_vartime(self, a1: _Int, e1: _Int, a2: _Int, e2: _Int) -> int:
        """a1**e1 * a2**e2 mod p as powmod2_vartime() with this context (no set-up per call).
        Variable time in e1 and e2: public exponents only."""
    def pow(self, a: _Int, e: _Int) -> int:
        """a**e mod p, e any int (e < 0 through the inverse; ValueError if there is none).
        Constant time in a and e for a given bit length of e; the inverse is not."""
    def pow_vartime(self, a: _Int, e: _Int) -> int:
        """As pow(), sliding window, variable time in e: public exponents only."""

class Ohta:
    """Arithmetic modulo any p >= 2 (p < 2**8192), even ones included, with Ohta's
    Barrett-like reduction (K = floor(R**2 / p), truncated product, two masked subtractions).

    Same conventions as Montgomery: ints of any sign and size in, ints in [0, p) out,
    constant time except inv() and pow_vartime(), TypeError for non-int arguments.
    """

    def __init__(self, p: _Int) -> None:
        """Raises ValueError if p < 2 or p >= 2**8192; TypeError for a non-int."""
    @property
    def p(self) -> int:
        """The modulus."""
    @property
    def bits(self) -> int:
        """Bit length of p."""
    @property
    def limbs(self) -> int:
        """Length of p in 64-bit limbs."""
    @property
    def tier(self) -> str:
        """The dispatch tier whose kernels this object uses (fixed at creation)."""
    def mul(self, a: _Int, b: _Int) -> int:
        """a*b mod p. Constant time."""
    def sqr(self, a: _Int) -> int:
        """a*a mod p. Constant time."""
    def add(self, a: _Int, b: _Int) -> int:
        """a+b mod p. Constant time."""
    def sub(self, a: _Int, b: _Int) -> int:
        """a-b mod p. Constant time."""
    def neg(self, a: _Int) -> int:
        """-a mod p. Constant time."""
    def inv(self, a: _Int) -> int:
        """a**-1 mod p (any p). Raises ValueError if gcd(a, p) != 1. Variable time."""
    def pow(self, a: _Int, e: _Int) -> int:
        """a**e mod p, e any int (e < 0 through the inverse; ValueError if there is none).
        Constant time in a and e for a given bit length of e; the inverse is not."""
    def pow_vartime(self, a: _Int, e: _Int) -> int:
        """As pow(), sliding window, variable time in e: public exponents only."""

# ---- elliptic curves (include/tabai_ec.h); the public API is tabai.ec ----
# Byte strings in and out: L = field bytes, Ln = scalar bytes of the curve id (1 P-256,
# 2 P-384, 3 P-521, 4 secp256k1). ValueError for wrong lengths and invalid values, OSError
# when the random generator fails.

def ec_curve_parse(name: str) -> int:
    """Curve id of a name (case-insensitive), -1 if unknown."""

def ec_params(curve: int) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes, str]:
    """(p, a, b, gx, gy, n, name): big-endian bytes and the curve's name."""

def ec_keypair(curve: int) -> tuple[bytes, bytes]:
    """(sk of Ln bytes, pk of 1 + 2L bytes uncompressed) from getrandom. Constant time."""

def ec_public_key(curve: int, sk: bytes, compressed: bool) -> bytes:
    """SEC1 d*G. ValueError unless 1 <= d < n. Constant time in sk."""

def ec_public_key_check(curve: int, pk: bytes) -> bytes:
    """pk validated, uncompressed (1 + 2L bytes). ValueError if invalid. Variable time."""

def ecdh(curve: int, sk: bytes, pk: bytes) -> bytes:
    """x(d*Q), L bytes. ValueError for a bad scalar or peer key. Constant time in sk."""

def ecdsa_sign_digest(curve: int, sk: bytes, digest: bytes, hash: int, extra: bytes | None,
                      flags: int) -> bytes:
    """r || s (2 Ln bytes), RFC 6979 nonce (hash: tabai_hash id); flags 1 = low S.
    Constant time in sk and the nonce."""

def ecdsa_verify_digest(curve: int, pk: bytes, digest: bytes, sig: bytes, flags: int) -> bool:
    """True if sig = r || s verifies; False if not. ValueError for a bad key or length.
    Variable time."""

def ecdh_batch(curve: int, sks: list[bytes], pks: list[bytes]) -> list[bytes | None]:
    """x(d_i*Q_i) for every pair (None for a bad item). Constant time in the keys."""

def ecdsa_sign_batch(curve: int, sks: list[bytes], digests: list[bytes], hash: int,
                     flags: int) -> list[bytes | None]:
    """r || s for every item, as ecdsa_sign_digest (None for a bad scalar). Constant time."""

def ecdsa_verify_batch(curve: int, pks: list[bytes], digests: list[bytes], sigs: list[bytes],
                       flags: int) -> list[bool]:
    """True where sig_i = r || s verifies for pk_i. Variable time."""

def ec_point_mul(curve: int, k: bytes, point: bytes) -> bytes:
    """k*P (1 + 2L bytes; all zero for infinity). Constant time in k."""

def ec_point_add(curve: int, a: bytes, b: bytes) -> bytes:
    """P + Q by complete formulas (1 + 2L bytes; all zero for infinity)."""

def x25519(k: bytes, u: bytes) -> bytes:
    """X25519(k, u) of RFC 7748, 32 bytes each. ValueError for wrong lengths or an all-zero
    result. Constant time in k."""

def x25519_base(k: bytes) -> bytes:
    """X25519(k, 9). Constant time in k."""

def x25519_keypair() -> tuple[bytes, bytes]:
    """(sk, pk), 32 bytes each, from getrandom. OSError if the generator fails."""
