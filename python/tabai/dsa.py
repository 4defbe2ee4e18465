"""DSA (FIPS 186-4) with deterministic nonces (RFC 6979) on tabai's constant-time arithmetic.

DSA is legacy: FIPS 186-5 keeps it for verifying existing signatures only. Prefer ECDSA or
EdDSA for new systems; this module is here to verify, and where a protocol still asks for
it, to sign.

>>> from tabai import dsa
>>> key = dsa.PrivateKey.generate(2048)             # parameters and key by `cryptography`
>>> sig = key.sign(b"message")                      # DER, SHA-256, RFC 6979 nonce
>>> key.public_key().verify(sig, b"message")        # raises tabai.InvalidSignature if bad

Sizes (L, N) of FIPS 186-4 section 4.2: (2048, 224), (2048, 256), (3072, 256). Parameters
and keys are validated (p and q prime, q | p-1, g of order q, 0 < x < q, y = g^x in the
subgroup). Signatures: DER (SEQUENCE of two INTEGERs, strict) or "p1363" (r || s, each N/8
bytes).
"""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache
from typing import Optional

from . import _core
from . import InvalidSignature

__all__ = ["Parameters", "PrivateKey", "PublicKey"]

SIZES = ((2048, 224), (2048, 256), (3072, 256))


def _is_probable_prime(n: int, rounds: int = 40) -> bool:
    """Miller-Rabin with fixed bases from a seeded generator (public values only)."""
    if n < 2:
        return False
    for small in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % small == 0:
            return n == small
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    import random

    rng = random.Random(n)
    for _ in range(rounds):
        a = rng.randrange(2, n - 1)
        x = _core.powmod_vartime(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@lru_cache(maxsize=64)
def _primes_ok(p: int, q: int) -> bool:
    """Primality of p and q (Miller-Rabin, 64 rounds for q, 8 for the much larger p as FIPS
    186-4 table C.1 allows), remembered for the last 64 parameter sets (keys share them)."""
    return _is_probable_prime(q, 64) and _is_probable_prime(p, 8)


class Parameters:
    """DSA domain parameters (p, q, g), validated: (L, N) one of SIZES, p and q probable
    primes, q | p-1, 2 <= g <= p-1 and g^q = 1 mod p. Raises ValueError otherwise."""

    def __init__(self, p: int, q: int, g: int) -> None:
        if (p.bit_length(), q.bit_length()) not in SIZES:
            raise ValueError(f"DSA sizes (L, N) must be one of {SIZES}")
        if (p - 1) % q or not 2 <= g <= p - 1 or _core.powmod_vartime(g, q, p) != 1:
            raise ValueError("invalid DSA parameters: q does not divide p-1 or g is not of order q")
        if not _primes_ok(p, q):
            raise ValueError("invalid DSA parameters: p or q is not prime")
        self.p, self.q, self.g = p, q, g
        self.L, self.N = p.bit_length(), q.bit_length()
        self._fp, self._fq = _core.Montgomery(p), _core.Montgomery(q)

    def __eq__(self, other) -> bool:
        return isinstance(other, Parameters) and (self.p, self.q, self.g) == (other.p, other.q, other.g)

    def __hash__(self) -> int:
        return hash((self.p, self.q, self.g))


@lru_cache(maxsize=16)
def _g_table(p: int, g: int, N: int):
    """The comb table of g for exponents below 2^N, shared by every key of these parameters."""
    return _core.FixedBase(p, g, N)


def _hash_name(h) -> str:
    name = getattr(h, "name", h)
    if not isinstance(name, str):
        raise TypeError("hash must be a name such as 'sha256'")
    name = name.lower().replace("-", "_")
    try:
        hashlib.new(name)
    except ValueError:
        raise ValueError(f"unsupported hash {name!r}") from None
    return name


def _bits2int(b: bytes, qlen: int) -> int:
    """RFC 6979 2.3.2: the leftmost qlen bits of b as an int."""
    v = int.from_bytes(b, "big")
    blen = 8 * len(b)
    return v >> (blen - qlen) if blen > qlen else v


def _int2octets(x: int, rlen: int) -> bytes:
    return x.to_bytes(rlen, "big")


def _der_int(v: int) -> bytes:
    b = v.to_bytes(v.bit_length() // 8 + 1, "big")  # a leading 0 byte when the top bit is set
    return b"\x02" + bytes([len(b)]) + b


def _der_sig(r: int, s: int) -> bytes:
    body = _der_int(r) + _der_int(s)
    if len(body) < 0x80:
        return b"\x30" + bytes([len(body)]) + body
    return b"\x30\x81" + bytes([len(body)]) + body


def _der_parse(sig: bytes) -> Optional[tuple]:
    """(r, s) from a strict DER SEQUENCE of two INTEGERs, or None."""
    def length(buf, i):
        if i >= len(buf):
            return None, i
        n = buf[i]
        if n < 0x80:
            return n, i + 1
        if n != 0x81 or i + 1 >= len(buf) or buf[i + 1] < 0x80:
            return None, i  # only the minimal long form of one byte is used at these sizes
        return buf[i + 1], i + 2

    def integer(buf, i):
        if i >= len(buf) or buf[i] != 0x02:
            return None, i
        n, j = length(buf, i + 1)
        if n is None or n == 0 or j + n > len(buf):
            return None, i
        v = buf[j: j + n]
        if v[0] & 0x80 or (n > 1 and v[0] == 0 and not v[1] & 0x80):
            return None, i  # negative, or not minimal
        return int.from_bytes(v, "big"), j + n

    if len(sig) < 2 or sig[0] != 0x30:
        return None
    n, i = length(sig, 1)
    if n is None or i + n != len(sig):
        return None
    r, i = integer(sig, i)
    if r is None:
        return None
    s, i = integer(sig, i)
    if s is None or i != len(sig):
        return None
    return r, s


def rfc6979_nonce(x: int, q: int, digest: bytes, name: str, skip: int = 0) -> int:
    """RFC 6979 section 3.2: the nonce k in [1, q) for private key x, group order q and the
    message digest (hash `name` also keys the HMAC_DRBG); skip > 0 returns the candidate after
    that many rejected ones (the retry of step h.3 when r or s came out 0)."""
    qlen = q.bit_length()
    rlen = (qlen + 7) // 8
    hlen = hashlib.new(name).digest_size
    V, K = b"\x01" * hlen, b"\x00" * hlen
    seed = _int2octets(x, rlen) + _int2octets(_bits2int(digest, qlen) % q, rlen)
    K = hmac.new(K, V + b"\x00" + seed, name).digest()
    V = hmac.new(K, V, name).digest()
    K = hmac.new(K, V + b"\x01" + seed, name).digest()
    V = hmac.new(K, V, name).digest()
    while True:
        t = b""
        while 8 * len(t) < qlen:
            V = hmac.new(K, V, name).digest()
            t += V
        k = _bits2int(t, qlen)
        if 0 < k < q:
            if skip == 0:
                return k
            skip -= 1
        K = hmac.new(K, V + b"\x00", name).digest()
        V = hmac.new(K, V, name).digest()


class PublicKey:
    """A DSA public key: Parameters and y, validated (2 <= y <= p-2, y^q = 1 mod p).
    PublicKey(params, y) or PublicKey.from_cryptography(key)."""

    def __init__(self, params: Parameters, y: int) -> None:
        if not 2 <= y <= params.p - 2 or _core.powmod_vartime(y, params.q, params.p) != 1:
            raise ValueError("invalid DSA public key: y not in [2, p-2] or not of order q")
        self.params, self.y = params, y
        self._verifies, self._ytab = 0, None

    def __eq__(self, other) -> bool:
        return isinstance(other, PublicKey) and (self.params, self.y) == (other.params, other.y)

    def __hash__(self) -> int:
        return hash((self.params, self.y))

    @classmethod
    def from_cryptography(cls, key) -> "PublicKey":
        """From a `cryptography` DSAPublicKey (or DSAPrivateKey: its public half)."""
        if hasattr(key, "private_numbers"):
            key = key.public_key()
        nums = key.public_numbers()
        pn = nums.parameter_numbers
        return cls(Parameters(pn.p, pn.q, pn.g), nums.y)

    def to_cryptography(self):
        """The same key as a `cryptography` DSAPublicKey."""
        from cryptography.hazmat.primitives.asymmetric import dsa as cdsa

        pr = self.params
        return cdsa.DSAPublicNumbers(self.y, cdsa.DSAParameterNumbers(pr.p, pr.q, pr.g)).public_key()

    def verify(self, signature: bytes, msg: bytes, hash="sha256", encoding: str = "der",
               prehashed: bool = False) -> None:
        """Verifies a DSA signature (FIPS 186-4 section 4.7).

        Args:
            signature: DER (strict) or, with encoding="p1363", r || s of N/8 bytes each.
            msg: the message, or its digest with prehashed=True.
            hash: a hashlib name or a `cryptography` hash object.
        Raises:
            tabai.InvalidSignature: any failure (encoding, r or s outside [1, q-1], equation).
            ValueError: an unknown encoding or hash.
        Time: variable (public data only). The first verification with this key object
        computes g^u1 y^u2 by one simultaneous exponentiation (Straus); from the second on, by
        two fixed-base combs (Lim-Lee) whose tables (g's per parameters, y's per key, about
        one verification's work each) are made then and kept.
        """
        pr = self.params
        name = _hash_name(hash)
        if encoding == "der":
            rs = _der_parse(bytes(signature))
        elif encoding == "p1363":
            w = (pr.N + 7) // 8
            sig = bytes(signature)
            rs = (int.from_bytes(sig[:w], "big"), int.from_bytes(sig[w:], "big")) if len(sig) == 2 * w else None
        else:
            raise ValueError("encoding must be 'der' or 'p1363'")
        if rs is None:
            raise InvalidSignature("malformed signature")
        r, s = rs
        if not (0 < r < pr.q and 0 < s < pr.q):
            raise InvalidSignature("r or s out of range")
        digest = bytes(msg) if prehashed else hashlib.new(name, bytes(msg)).digest()
        z = _bits2int(digest, pr.N)
        w_ = pr._fq.inv(s)
        u1, u2 = z * w_ % pr.q, r * w_ % pr.q
        self._verifies += 1
        if self._verifies < 2:
            # one simultaneous exponentiation: one chain of N squarings for both bases
            v = pr._fp.pow2_vartime(pr.g, u1, self.y, u2)
        else:
            # a key that verifies again: N/5 squarings and products per base with the tables
            if self._ytab is None:
                self._ytab = _core.FixedBase(pr.p, self.y, pr.N)
            v = pr._fp.mul(_g_table(pr.p, pr.g, pr.N).pow(u1), self._ytab.pow(u2))
        v %= pr.q
        if v != r:
            raise InvalidSignature("signature does not verify")


class PrivateKey:
    """A DSA private key x with its public key. PrivateKey(params, x, y=None): 0 < x < q, and
    y = g^x mod p (checked when given). Signing is constant time in x and the nonce (tabai's
    fixed-base comb for g^k, with its table made once per key, and Fermat inversion); the
    nonce is RFC 6979's, so no randomness is needed."""

    def __init__(self, params: Parameters, x: int, y: Optional[int] = None) -> None:
        if not 0 < x < params.q:
            raise ValueError("invalid DSA private key: x not in [1, q-1]")
        gx = _core.powmod(params.g, x, params.p)
        if y is not None and y != gx:
            raise ValueError("invalid DSA key: y != g^x mod p")
        self.params, self._x = params, x
        self._pub = PublicKey(params, gx)
        self._fq = _core.Montgomery(params.q)
        # g is fixed: a comb table (Lim-Lee) for the nonce exponents of N+1 bits (_sign_k)
        self._gk = _core.FixedBase(params.p, params.g, params.N + 1)

    def public_key(self) -> PublicKey:
        return self._pub

    @classmethod
    def from_cryptography(cls, key) -> "PrivateKey":
        """From a `cryptography` DSAPrivateKey."""
        nums = key.private_numbers()
        pn = nums.public_numbers.parameter_numbers
        return cls(Parameters(pn.p, pn.q, pn.g), nums.x, nums.public_numbers.y)

    def to_cryptography(self):
        """The same key as a `cryptography` DSAPrivateKey."""
        from cryptography.hazmat.primitives.asymmetric import dsa as cdsa

        pr = self.params
        pub = cdsa.DSAPublicNumbers(self._pub.y, cdsa.DSAParameterNumbers(pr.p, pr.q, pr.g))
        return cdsa.DSAPrivateNumbers(self._x, pub).private_key()

    @classmethod
    def generate(cls, L: int = 2048, N: Optional[int] = None) -> "PrivateKey":
        """New parameters and key by `cryptography` (L = 2048 or 3072; N = 256 by default,
        224 possible at L = 2048 only through existing parameters)."""
        from cryptography.hazmat.primitives.asymmetric import dsa as cdsa

        if L not in (2048, 3072):
            raise ValueError("L must be 2048 or 3072")
        return cls.from_cryptography(cdsa.generate_private_key(L))

    def _sign_k(self, z: int, k: int):
        """(r, s) for the truncated digest z and the nonce k, or None if r or s is 0."""
        pr = self.params
        # k + q or k + 2q: exactly N+1 bits either way (q >= 2^(N-1)), so the length of the
        # exponentiation does not depend on k (as OpenSSL's dsa_sign_setup)
        k1 = k + pr.q
        kk = k1 + pr.q * (k1.bit_length() <= pr.N)
        r = self._gk.pow(kk) % pr.q
        s = self._fq.inv_prime(k) * (z + self._x * r) % pr.q
        return (r, s) if r and s else None

    def sign(self, msg: bytes, hash="sha256", encoding: str = "der", prehashed: bool = False) -> bytes:
        """A DSA signature (FIPS 186-4 section 4.6) with the RFC 6979 nonce: r = (g^k mod p)
        mod q, s = k^-1 (z + x r) mod q. Returns DER or, with encoding="p1363", r || s.
        Deterministic: the same message and key give the same signature. Constant time in x
        and k as far as tabai's powmod and inversion go (the Python big-int products around
        them are not)."""
        if encoding not in ("der", "p1363"):
            raise ValueError("encoding must be 'der' or 'p1363'")
        pr = self.params
        name = _hash_name(hash)
        digest = bytes(msg) if prehashed else hashlib.new(name, bytes(msg)).digest()
        z = _bits2int(digest, pr.N)
        rs, skip = None, 0
        while rs is None:
            rs = self._sign_k(z, rfc6979_nonce(self._x, pr.q, digest, name, skip))
            skip += 1
        r, s = rs
        rlen = (pr.N + 7) // 8
        if encoding == "der":
            return _der_sig(r, s)
        return r.to_bytes(rlen, "big") + s.to_bytes(rlen, "big")
