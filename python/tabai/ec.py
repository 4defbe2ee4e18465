"""tabai.ec: elliptic-curve keys, ECDH, ECDSA and X25519, shaped like ``cryptography``'s API.

>>> from tabai import ec
>>> curve = ec.P256                       # also ec.P384, ec.P521, ec.SECP256K1
>>> sk = ec.PrivateKey.generate(curve)
>>> pk = sk.public_key()
>>> sig = sk.sign(b"message", "sha256")   # DER; encoding="p1363" for r || s
>>> pk.verify(sig, b"message", "sha256")  # None, or raises tabai.InvalidSignature
>>> P = curve.generator
>>> 5 * P + P == 6 * P
True

Curves: NIST P-256, P-384, P-521 (FIPS 186-5) and secp256k1 (SEC 2), all of prime order n
with cofactor 1; X25519 (RFC 7748). Private keys are scalars 1 <= d < n (big-endian bytes of
the curve's scalar length), public keys SEC1 points (uncompressed 0x04 || X || Y or
compressed 0x02/0x03 || X), X25519 keys 32 bytes little-endian.

Hashing is Python's ``hashlib`` (the message is hashed here, the digest signed by the C
library with an RFC 6979 nonce: HMAC_DRBG with the same hash). DER signatures (X9.62
``SEQUENCE { r INTEGER, s INTEGER }``) are encoded and decoded by ``cryptography`` and must be
strict: a signature whose DER is not the unique encoding of (r, s) is refused.

Errors: ``TypeError`` for an argument of the wrong type, ``ValueError`` for malformed input
(a wrong length, a scalar out of range, a public key that is not a point of the curve, a
signature that is not valid DER or not 2*Ln bytes in P1363 form, an unknown hash, an X25519
result of all zeros), ``tabai.InvalidSignature`` when a well-formed signature does not verify
(r or s outside [1, n-1] included).

Time: everything that uses a private key (key generation, public key, ECDH, signing, X25519,
``k * P``) is constant time in the C library; the Python wrapper around it handles the key as
Python ``bytes``/``int`` objects, which it does not wipe (Python cannot). Verification and point
decoding are variable time (public data only).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Optional, Tuple, Union

from . import _core
from . import InvalidSignature

__all__ = [
    "Curve",
    "Point",
    "PrivateKey",
    "PublicKey",
    "X25519PrivateKey",
    "X25519PublicKey",
    "P256",
    "P384",
    "P521",
    "SECP256K1",
    "curve",
    "x25519",
    "InvalidSignature",
    "exchange_batch",
    "sign_batch",
    "verify_batch",
]

_Bytes = Union[bytes, bytearray, memoryview]

#: hash name -> (hashlib name, tabai_hash id of include/tabai_ec.h)
_HASHES = {
    "sha224": ("sha224", 1),
    "sha256": ("sha256", 2),
    "sha384": ("sha384", 3),
    "sha512": ("sha512", 4),
    "sha512_224": ("sha512_224", 5),
    "sha512_256": ("sha512_256", 6),
    "sha3_224": ("sha3_224", 7),
    "sha3_256": ("sha3_256", 8),
    "sha3_384": ("sha3_384", 9),
    "sha3_512": ("sha3_512", 10),
}

# hashlib's named constructors where it has them (faster than hashlib.new's look-up)
_HASH_NEW = {k: getattr(hashlib, v[0], None) for k, v in _HASHES.items()}


def _digest(name: str, data: bytes) -> bytes:
    """data hashed by the hash of the _HASHES key name"""
    new = _HASH_NEW[name]
    return new(data).digest() if new else hashlib.new(_HASHES[name][0], data).digest()


def _hash_name(hash: Any) -> str:
    """A hash given as a name ("sha256", "SHA-256", "sha3-256", "sha512/256") or as a
    ``cryptography`` hash object (its ``.name``), normalised to a key of _HASHES."""
    if type(hash) is str and hash in _HASHES:  # the common case: a key already
        return hash
    name = getattr(hash, "name", hash)
    if not isinstance(name, str):
        raise TypeError(f"hash must be a name such as 'sha256' or a cryptography hash, not "
                        f"{type(hash).__name__}")
    key = name.lower().replace("/", "_")
    if key.startswith("sha3-") or key.startswith("sha3_"):
        key = "sha3_" + key[5:]
    else:
        key = key.replace("sha512-", "sha512_").replace("-", "")
    if key not in _HASHES:
        raise ValueError(f"unknown hash {name!r}; known: {', '.join(sorted(_HASHES))}")
    return key


def _bytes(b: Any, what: str) -> bytes:
    if type(b) is bytes:
        return b
    if isinstance(b, (bytes, bytearray, memoryview)):
        return bytes(b)
    raise TypeError(f"{what} must be bytes, not {type(b).__name__}")


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError(f"{what} must be an int, not {type(v).__name__}")
    return v.__index__()


# ------------------------------------------------------------------------------------------
# Curves and points
# ------------------------------------------------------------------------------------------
class Curve:
    """A short-Weierstrass curve y^2 = x^3 + a x + b over GF(p) with generator G of prime
    order n (cofactor 1). Use the module constants P256, P384, P521, SECP256K1 or curve(name).

    Attributes: name ("P-256", ...), id (tabai_curve), p, a, b, n (ints), field_bytes (L),
    scalar_bytes (Ln), generator and infinity (Points).
    """

    __slots__ = ("id", "name", "p", "a", "b", "n", "field_bytes", "scalar_bytes", "generator",
                 "infinity", "_crypto_name")

    def __init__(self, cid: int, crypto_name: str):
        p, a, b, gx, gy, n, name = _core.ec_params(cid)
        self.id = cid
        self.name = name
        self.p, self.a, self.b = (int.from_bytes(v, "big") for v in (p, a, b))
        self.n = int.from_bytes(n, "big")
        self.field_bytes = len(p)
        self.scalar_bytes = len(n)
        self._crypto_name = crypto_name
        self.generator = Point(self, int.from_bytes(gx, "big"), int.from_bytes(gy, "big"))
        self.infinity = Point(self, None, None)

    def __repr__(self) -> str:
        return f"ec.curve({self.name!r})"

    def __reduce__(self):
        return (curve, (self.name,))

    def point(self, x: int, y: int) -> "Point":
        """The point (x, y), validated: ValueError unless it is on the curve with x, y < p."""
        L = self.field_bytes
        x, y = _int(x, "x"), _int(y, "y")
        if not (0 <= x < self.p and 0 <= y < self.p):
            raise ValueError("point coordinates must be in [0, p)")
        return Point.from_sec1(self, b"\x04" + x.to_bytes(L, "big") + y.to_bytes(L, "big"))


class Point:
    """A point of a curve, affine (x, y) or the point at infinity (x = y = None).

    ``P + Q``, ``P - Q``, ``-P``, ``k * P`` (any int k, reduced mod n), ``P == Q``. Addition
    uses complete formulas and ``k * P`` is constant time in k (C library); negation is Python.
    Points made by the library are always on their curve; use Curve.point or Point.from_sec1
    for coordinates from elsewhere (validated).
    """

    __slots__ = ("curve", "x", "y")

    def __init__(self, curve: Curve, x: Optional[int], y: Optional[int]):
        self.curve, self.x, self.y = curve, x, y

    @classmethod
    def from_sec1(cls, curve: Curve, data: _Bytes) -> "Point":
        """Decodes and validates a SEC1 point (b"\\x00" is the point at infinity).

        Raises ValueError for a bad length or prefix, a coordinate >= p, or a point not on
        the curve."""
        data = _bytes(data, "data")
        if data == b"\x00":
            return curve.infinity
        return cls._from_uncompressed(curve, _core.ec_public_key_check(curve.id, data))

    @classmethod
    def _from_uncompressed(cls, curve: Curve, raw: bytes) -> "Point":
        L = curve.field_bytes
        if raw[0] == 0:
            return curve.infinity
        return cls(curve, int.from_bytes(raw[1 : 1 + L], "big"), int.from_bytes(raw[1 + L :], "big"))

    @property
    def is_infinity(self) -> bool:
        return self.x is None

    def to_sec1(self, compressed: bool = False) -> bytes:
        """SEC1 bytes: 0x04 || X || Y, or 0x02/0x03 || X if compressed; b"\\x00" at infinity."""
        if self.x is None:
            return b"\x00"
        L = self.curve.field_bytes
        if compressed:
            return bytes([2 | (self.y & 1)]) + self.x.to_bytes(L, "big")
        return b"\x04" + self.x.to_bytes(L, "big") + self.y.to_bytes(L, "big")

    def __add__(self, other: "Point") -> "Point":
        if not isinstance(other, Point):
            return NotImplemented
        if other.curve is not self.curve:
            raise ValueError("points of different curves")
        raw = _core.ec_point_add(self.curve.id, self.to_sec1(), other.to_sec1())
        return Point._from_uncompressed(self.curve, raw)

    def __neg__(self) -> "Point":
        if self.x is None:
            return self
        return Point(self.curve, self.x, (-self.y) % self.curve.p)

    def __sub__(self, other: "Point") -> "Point":
        if not isinstance(other, Point):
            return NotImplemented
        return self + (-other)

    def __mul__(self, k: Any) -> "Point":
        if isinstance(k, bool) or not hasattr(k, "__index__"):
            return NotImplemented
        k = k.__index__() % self.curve.n
        kb = k.to_bytes(self.curve.scalar_bytes, "big")
        return Point._from_uncompressed(self.curve, _core.ec_point_mul(self.curve.id, kb, self.to_sec1()))

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Point):
            return NotImplemented
        return self.curve is other.curve and self.x == other.x and self.y == other.y

    def __hash__(self) -> int:
        return hash((self.curve.id, self.x, self.y))

    def __repr__(self) -> str:
        if self.x is None:
            return f"<Point at infinity of {self.curve.name}>"
        return f"<Point of {self.curve.name} x={self.x:#x} y={self.y:#x}>"


P256 = Curve(1, "secp256r1")
P384 = Curve(2, "secp384r1")
P521 = Curve(3, "secp521r1")
SECP256K1 = Curve(4, "secp256k1")
_BY_ID = {c.id: c for c in (P256, P384, P521, SECP256K1)}
_BY_CRYPTO = {c._crypto_name: c for c in _BY_ID.values()}


def curve(name: Union[str, Curve]) -> Curve:
    """The curve of a name: "P-256", "secp256r1", "prime256v1", "P-384", "secp384r1",
    "P-521", "secp521r1", "secp256k1" (case-insensitive). Raises ValueError if unknown."""
    if isinstance(name, Curve):
        return name
    if not isinstance(name, str):
        raise TypeError(f"curve name must be a str, not {type(name).__name__}")
    cid = _core.ec_curve_parse(name)
    if cid < 0:
        raise ValueError(f"unknown curve {name!r}; known: P-256 (secp256r1, prime256v1), "
                         f"P-384 (secp384r1), P-521 (secp521r1), secp256k1")
    return _BY_ID[cid]


def _curve_of_crypto(key: Any) -> Curve:
    curve_ = getattr(key, "curve", None)
    if curve_ is None:
        raise TypeError(f"expected a cryptography elliptic-curve key, got {type(key).__name__}")
    name = curve_.name
    if name not in _BY_CRYPTO:
        raise ValueError(f"curve {name} is not supported by tabai.ec")
    return _BY_CRYPTO[name]


# ------------------------------------------------------------------------------------------
# Signatures: DER (strict) and P1363
# ------------------------------------------------------------------------------------------
_DSS: Optional[Tuple[Any, Any]] = None


def _dss() -> Tuple[Any, Any]:
    """cryptography's DER codec of (r, s): (encode_dss_signature, decode_dss_signature),
    imported at the first use and kept (an import statement in the call costs as much as the
    encoding itself)."""
    global _DSS
    if _DSS is None:
        from cryptography.hazmat.primitives.asymmetric.utils import (
            decode_dss_signature,
            encode_dss_signature,
        )

        _DSS = (encode_dss_signature, decode_dss_signature)
    return _DSS


def _encode_sig(curve: Curve, rs: bytes, encoding: str) -> bytes:
    if encoding == "p1363":
        return rs
    if encoding == "der":
        Ln = curve.scalar_bytes
        return (_DSS or _dss())[0](int.from_bytes(rs[:Ln], "big"), int.from_bytes(rs[Ln:], "big"))
    raise ValueError(f"encoding must be 'der' or 'p1363', not {encoding!r}")


def _decode_sig(curve: Curve, sig: bytes, encoding: str) -> Optional[bytes]:
    """r || s of a signature, None if r or s is outside [0, 2^(8 Ln)) (cannot verify).

    Raises ValueError for malformed DER (anything but the unique DER encoding of two
    non-negative INTEGERs, trailing bytes included) or a P1363 signature of the wrong length."""
    Ln = curve.scalar_bytes
    if encoding == "p1363":
        if len(sig) != 2 * Ln:
            raise ValueError(f"a P1363 signature on {curve.name} is {2 * Ln} bytes, got {len(sig)}")
        return sig
    if encoding != "der":
        raise ValueError(f"encoding must be 'der' or 'p1363', not {encoding!r}")
    decode_dss_signature = (_DSS or _dss())[1]
    try:  # a strict DER parser: BER forms, trailing bytes and negative INTEGERs are refused
        r, s = decode_dss_signature(sig)
    except Exception as ex:  # cryptography raises ValueError; be sure of the type
        raise ValueError(f"malformed DER signature: {ex}") from None
    if r < 0 or s < 0:
        raise ValueError("malformed DER signature: a negative INTEGER")
    if r >> (8 * Ln) or s >> (8 * Ln):
        return None
    return r.to_bytes(Ln, "big") + s.to_bytes(Ln, "big")


# ------------------------------------------------------------------------------------------
# Keys
# ------------------------------------------------------------------------------------------
class PrivateKey:
    """An ECDSA/ECDH private key: a scalar 1 <= d < n of a curve.

    Make one with generate(curve), from_int(curve, d), from_bytes(curve, b) or
    from_cryptography(key). Signing, ECDH and public_key() are constant time in d.
    """

    __slots__ = ("curve", "_d", "_pub")

    def __init__(self, curve_: Curve, d_bytes: bytes, pub: Optional[bytes] = None):
        self.curve, self._d, self._pub = curve_, d_bytes, pub

    @classmethod
    def generate(cls, curve_: Union[str, Curve]) -> "PrivateKey":
        """A new key from the operating system's random generator (getrandom; rejection
        sampling of d in [1, n-1]). Raises OSError if the generator fails."""
        c = curve(curve_)
        sk, pk = _core.ec_keypair(c.id)
        return cls(c, sk, pk)

    @classmethod
    def from_int(cls, curve_: Union[str, Curve], d: int) -> "PrivateKey":
        """The key of the scalar d. Raises ValueError unless 1 <= d < n, TypeError for a
        non-int."""
        c = curve(curve_)
        d = _int(d, "d")
        if not 1 <= d < c.n:
            raise ValueError(f"private key out of range: need 1 <= d < n for {c.name}")
        return cls(c, d.to_bytes(c.scalar_bytes, "big"))

    @classmethod
    def from_bytes(cls, curve_: Union[str, Curve], data: _Bytes) -> "PrivateKey":
        """The key of a big-endian scalar of exactly Ln bytes (32, 48, 66, 32). Raises
        ValueError for another length or d not in [1, n-1]."""
        c = curve(curve_)
        data = _bytes(data, "data")
        if len(data) != c.scalar_bytes:
            raise ValueError(f"a {c.name} private key is {c.scalar_bytes} bytes, got {len(data)}")
        return cls.from_int(c, int.from_bytes(data, "big"))

    @classmethod
    def from_cryptography(cls, key: Any) -> "PrivateKey":
        """From a ``cryptography`` EllipticCurvePrivateKey on one of the four curves."""
        c = _curve_of_crypto(key)
        return cls.from_int(c, key.private_numbers().private_value)

    def to_cryptography(self) -> Any:
        """The same key as a ``cryptography`` EllipticCurvePrivateKey."""
        from cryptography.hazmat.primitives.asymmetric import ec as cec

        return cec.derive_private_key(self.private_value, getattr(cec, self.curve._crypto_name.upper())())

    @property
    def private_value(self) -> int:
        """d as an int."""
        return int.from_bytes(self._d, "big")

    def to_bytes(self) -> bytes:
        """d as Ln big-endian bytes."""
        return self._d

    def public_key(self) -> "PublicKey":
        """The public key Q = d G (constant time in d)."""
        if self._pub is None:
            self._pub = _core.ec_public_key(self.curve.id, self._d, False)
        return PublicKey(self.curve, self._pub)

    def exchange(self, peer: "PublicKey") -> bytes:
        """ECDH (SEC 1 3.3.1): the x-coordinate of d Q_peer, L bytes big-endian (the peer key
        is validated). Raises ValueError for a peer key of another curve. Constant time in d."""
        if not isinstance(peer, PublicKey):
            raise TypeError(f"peer must be a tabai.ec.PublicKey, not {type(peer).__name__}")
        if peer.curve is not self.curve:
            raise ValueError(f"peer key is on {peer.curve.name}, this key on {self.curve.name}")
        return _core.ecdh(self.curve.id, self._d, peer._sec1)

    def sign_digest(self, digest: _Bytes, hash: Any = "sha256", encoding: str = "der",
                    low_s: bool = False, extra_entropy: Union[bool, bytes, None] = None) -> bytes:
        """ECDSA signature of a message digest (FIPS 186-5; nonce by RFC 6979 with `hash`,
        the hash that made the digest).

        Args:
            digest: the digest bytes (any length; its leftmost bits as many as n has are used).
            hash: the digest's hash, for RFC 6979's HMAC_DRBG ("sha256", "sha384", ...).
            encoding: "der" (X9.62, default) or "p1363" (r || s, 2 Ln bytes).
            low_s: normalise s to s <= n/2 (secp256k1's BIP 62/146 rule).
            extra_entropy: bytes mixed into the nonce (RFC 6979 3.6), or True for Ln fresh
                bytes from os.urandom; None (default): fully deterministic.
        Returns: the signature bytes.
        Raises: ValueError for an unknown hash or encoding. Constant time in d and the nonce.
        """
        digest = _bytes(digest, "digest")
        hid = _HASHES[_hash_name(hash)][1]
        if extra_entropy is True:
            extra: Optional[bytes] = os.urandom(self.curve.scalar_bytes)
        elif extra_entropy is None or extra_entropy is False:
            extra = None
        else:
            extra = _bytes(extra_entropy, "extra_entropy")
        if encoding not in ("der", "p1363"):
            raise ValueError(f"encoding must be 'der' or 'p1363', not {encoding!r}")
        rs = _core.ecdsa_sign_digest(self.curve.id, self._d, digest, hid, extra, 1 if low_s else 0)
        return _encode_sig(self.curve, rs, encoding)

    def sign(self, msg: _Bytes, hash: Any = "sha256", encoding: str = "der", low_s: bool = False,
             extra_entropy: Union[bool, bytes, None] = None) -> bytes:
        """ECDSA signature of msg hashed with `hash` (hashlib); as sign_digest otherwise."""
        name = _hash_name(hash)
        digest = _digest(name, _bytes(msg, "msg"))
        return self.sign_digest(digest, name, encoding, low_s, extra_entropy)

    def __repr__(self) -> str:
        return f"<tabai.ec.PrivateKey on {self.curve.name}>"


class PublicKey:
    """An ECDSA/ECDH public key: a point Q != infinity of a curve, validated when made."""

    __slots__ = ("curve", "_sec1")

    def __init__(self, curve_: Curve, sec1_uncompressed: bytes):
        self.curve, self._sec1 = curve_, sec1_uncompressed

    @classmethod
    def from_sec1(cls, curve_: Union[str, Curve], data: _Bytes) -> "PublicKey":
        """From SEC1 bytes (uncompressed or compressed), validated (SEC 1 3.2.2.1). Raises
        ValueError for a bad length or prefix, a coordinate >= p, a point not on the curve
        or the point at infinity."""
        c = curve(curve_)
        return cls(c, _core.ec_public_key_check(c.id, _bytes(data, "data")))

    @classmethod
    def from_point(cls, point: Point) -> "PublicKey":
        """From a Point (ValueError for the point at infinity)."""
        return cls.from_sec1(point.curve, point.to_sec1())

    @classmethod
    def from_cryptography(cls, key: Any) -> "PublicKey":
        """From a ``cryptography`` EllipticCurvePublicKey on one of the four curves."""
        from cryptography.hazmat.primitives import serialization as ser

        c = _curve_of_crypto(key)
        return cls.from_sec1(c, key.public_bytes(ser.Encoding.X962, ser.PublicFormat.UncompressedPoint))

    def to_cryptography(self) -> Any:
        """The same key as a ``cryptography`` EllipticCurvePublicKey."""
        from cryptography.hazmat.primitives.asymmetric import ec as cec

        return cec.EllipticCurvePublicKey.from_encoded_point(
            getattr(cec, self.curve._crypto_name.upper())(), self._sec1)

    def to_sec1(self, compressed: bool = False) -> bytes:
        """SEC1 bytes: 0x04 || X || Y (1 + 2L), or 0x02/0x03 || X (1 + L) if compressed."""
        if not compressed:
            return self._sec1
        return self.point.to_sec1(compressed=True)

    @property
    def point(self) -> Point:
        """Q as a Point."""
        return Point._from_uncompressed(self.curve, self._sec1)

    def verify_digest(self, signature: _Bytes, digest: _Bytes, encoding: str = "der",
                      low_s: bool = False) -> None:
        """Verifies an ECDSA signature of a digest (FIPS 186-5 6.4.2). Variable time.

        Args:
            signature: DER (strict) or, with encoding="p1363", r || s of 2 Ln bytes.
            digest: the message digest (its leftmost bits as many as n has are used).
            low_s: also reject s > n/2 (secp256k1's BIP 62/146 rule).
        Returns: None when the signature is valid.
        Raises:
            tabai.InvalidSignature: a well-formed signature that does not verify (r or s out
                of [1, n-1] included, or s > n/2 with low_s).
            ValueError: malformed DER, a P1363 signature of the wrong length, a bad encoding.
        """
        rs = _decode_sig(self.curve, _bytes(signature, "signature"), encoding)
        if rs is None or not _core.ecdsa_verify_digest(
            self.curve.id, self._sec1, _bytes(digest, "digest"), rs, 1 if low_s else 0
        ):
            raise InvalidSignature("signature does not verify")

    def verify(self, signature: _Bytes, msg: _Bytes, hash: Any = "sha256", encoding: str = "der",
               low_s: bool = False) -> None:
        """Verifies an ECDSA signature of msg hashed with `hash` (hashlib); as verify_digest."""
        digest = _digest(_hash_name(hash), _bytes(msg, "msg"))
        self.verify_digest(signature, digest, encoding, low_s)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PublicKey):
            return NotImplemented
        return self.curve is other.curve and self._sec1 == other._sec1

    def __hash__(self) -> int:
        return hash((self.curve.id, self._sec1))

    def __repr__(self) -> str:
        return f"<tabai.ec.PublicKey on {self.curve.name} {self._sec1.hex()}>"


# ------------------------------------------------------------------------------------------
# X25519
# ------------------------------------------------------------------------------------------
def x25519(k: _Bytes, u: _Bytes) -> bytes:
    """X25519(k, u) of RFC 7748: 32-byte little-endian scalar and u-coordinate in, 32 bytes
    out (k clamped, u's top bit ignored, u >= p reduced). Raises ValueError for lengths other
    than 32 or an all-zero result (u of small order). Constant time in k."""
    return _core.x25519(_bytes(k, "k"), _bytes(u, "u"))


class X25519PublicKey:
    """An X25519 public key: a 32-byte little-endian u-coordinate."""

    __slots__ = ("_u",)

    def __init__(self, u: bytes):
        self._u = u

    @classmethod
    def from_bytes(cls, data: _Bytes) -> "X25519PublicKey":
        """From 32 bytes (ValueError for another length). Any 32 bytes are accepted, as in
        RFC 7748; a small-order key is refused by exchange()."""
        data = _bytes(data, "data")
        if len(data) != 32:
            raise ValueError(f"an X25519 public key is 32 bytes, got {len(data)}")
        return cls(data)

    from_public_bytes = from_bytes

    def to_bytes(self) -> bytes:
        """The 32 bytes."""
        return self._u

    public_bytes_raw = to_bytes

    @classmethod
    def from_cryptography(cls, key: Any) -> "X25519PublicKey":
        """From a ``cryptography`` X25519PublicKey."""
        return cls.from_bytes(key.public_bytes_raw())

    def to_cryptography(self) -> Any:
        """As a ``cryptography`` X25519PublicKey."""
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey as C

        return C.from_public_bytes(self._u)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, X25519PublicKey):
            return NotImplemented
        return self._u == other._u

    def __hash__(self) -> int:
        return hash(self._u)

    def __repr__(self) -> str:
        return f"<tabai.ec.X25519PublicKey {self._u.hex()}>"


class X25519PrivateKey:
    """An X25519 private key: 32 bytes (clamped when used, RFC 7748)."""

    __slots__ = ("_k", "_pub")

    def __init__(self, k: bytes, pub: Optional[bytes] = None):
        self._k, self._pub = k, pub

    @classmethod
    def generate(cls) -> "X25519PrivateKey":
        """A new key from getrandom. Raises OSError if the generator fails."""
        sk, pk = _core.x25519_keypair()
        return cls(sk, pk)

    @classmethod
    def from_bytes(cls, data: _Bytes) -> "X25519PrivateKey":
        """From 32 bytes (ValueError for another length)."""
        data = _bytes(data, "data")
        if len(data) != 32:
            raise ValueError(f"an X25519 private key is 32 bytes, got {len(data)}")
        return cls(data)

    from_private_bytes = from_bytes

    def to_bytes(self) -> bytes:
        """The 32 bytes as given (not clamped)."""
        return self._k

    private_bytes_raw = to_bytes

    @classmethod
    def from_cryptography(cls, key: Any) -> "X25519PrivateKey":
        """From a ``cryptography`` X25519PrivateKey."""
        return cls.from_bytes(key.private_bytes_raw())

    def to_cryptography(self) -> Any:
        """As a ``cryptography`` X25519PrivateKey."""
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey as C

        return C.from_private_bytes(self._k)

    def public_key(self) -> X25519PublicKey:
        """X25519(k, 9). Constant time in k."""
        if self._pub is None:
            self._pub = _core.x25519_base(self._k)
        return X25519PublicKey(self._pub)

    def exchange(self, peer: X25519PublicKey) -> bytes:
        """The shared secret X25519(k, peer), 32 bytes. Raises ValueError when it is all zero
        (a small-order peer key, RFC 7748 6.1). Constant time in k."""
        if not isinstance(peer, X25519PublicKey):
            raise TypeError(f"peer must be a tabai.ec.X25519PublicKey, not {type(peer).__name__}")
        return _core.x25519(self._k, peer._u)

    def __repr__(self) -> str:
        return "<tabai.ec.X25519PrivateKey>"


def _sig_tuple(curve_: Curve, sig: bytes, encoding: str = "der") -> Tuple[int, int]:
    """(r, s) of a signature (for tests and tools); ValueError if malformed."""
    rs = _decode_sig(curve_, sig, encoding)
    if rs is None:
        raise ValueError("r or s does not fit the curve's scalar length")
    Ln = curve_.scalar_bytes
    return int.from_bytes(rs[:Ln], "big"), int.from_bytes(rs[Ln:], "big")


# ------------------------------------------------------------------------------------------
# Batches: many operations of one curve in one call (at tier ifma eight at a time, one per
# lane of a zmm register; below it, and for P-521, one after another); results equal the
# single methods'.
# The GIL is released while the C library runs, so threads calling these scale.
# ------------------------------------------------------------------------------------------
def _batch_curve(keys: Any, cls: type, what: str) -> Curve:
    keys = list(keys)
    for k in keys:
        if not isinstance(k, cls):
            raise TypeError(f"{what} must be tabai.ec.{cls.__name__} objects, not "
                            f"{type(k).__name__}")
    curves = {k.curve for k in keys}
    if len(curves) > 1:
        raise ValueError(f"{what} are on different curves: "
                         f"{', '.join(sorted(c.name for c in curves))}")
    return keys[0].curve if keys else P256


def _same_len(a: list, b: list, what: str) -> None:
    if len(a) != len(b):
        raise ValueError(f"{what}: the lists differ in length ({len(a)} and {len(b)})")


def exchange_batch(private_keys: Any, public_keys: Any) -> list:
    """ECDH (SEC 1 3.3.1) for many pairs: [sk.exchange(pk) for sk, pk in zip(...)], computed
    together (tabai_ecdh_batch).

    Args:
        private_keys: PrivateKey objects, all of one curve.
        public_keys: PublicKey objects of the same curve, as many.
    Returns: a list of the L-byte shared secrets.
    Raises: TypeError for other objects; ValueError for lists of different lengths or keys of
        different curves. Constant time in the private keys.
    """
    sks, pks = list(private_keys), list(public_keys)
    _same_len(sks, pks, "exchange_batch")
    c = _batch_curve(sks, PrivateKey, "private_keys")
    if pks and _batch_curve(pks, PublicKey, "public_keys") is not c:
        raise ValueError("public_keys are on another curve than private_keys")
    out = _core.ecdh_batch(c.id, [k._d for k in sks], [k._sec1 for k in pks])
    if any(o is None for o in out):  # keys are validated on construction: cannot happen
        raise ValueError("exchange_batch(): an item failed")
    return out


def sign_batch(private_keys: Any, messages: Any, hash: Any = "sha256", encoding: str = "der",
               low_s: bool = False) -> list:
    """ECDSA signatures of many messages: [sk.sign(m, hash, encoding, low_s) for ...], the
    same bytes (deterministic RFC 6979 nonces), computed together (tabai_ecdsa_sign_batch).

    Args:
        private_keys: PrivateKey objects, all of one curve.
        messages: bytes, as many (hashed here with `hash`, hashlib).
        hash, encoding, low_s: as PrivateKey.sign.
    Returns: a list of signatures (DER, or r || s with encoding="p1363").
    Raises: TypeError for other objects; ValueError for lists of different lengths, keys of
        different curves, an unknown hash or encoding. Constant time in the keys and nonces.
    """
    sks, msgs = list(private_keys), list(messages)
    _same_len(sks, msgs, "sign_batch")
    c = _batch_curve(sks, PrivateKey, "private_keys")
    if encoding not in ("der", "p1363"):
        raise ValueError(f"encoding must be 'der' or 'p1363', not {encoding!r}")
    name = _hash_name(hash)
    digests = [_digest(name, _bytes(m, "message")) for m in msgs]
    rs = _core.ecdsa_sign_batch(c.id, [k._d for k in sks], digests, _HASHES[name][1],
                                1 if low_s else 0)
    if any(x is None for x in rs):  # keys are validated on construction: cannot happen
        raise ValueError("sign_batch(): an item failed")
    return [_encode_sig(c, x, encoding) for x in rs]


def verify_batch(public_keys: Any, signatures: Any, messages: Any, hash: Any = "sha256",
                 encoding: str = "der", low_s: bool = False) -> list:
    """ECDSA verification of many signatures (tabai_ecdsa_verify_batch_vartime).

    Args:
        public_keys: PublicKey objects, all of one curve.
        signatures: DER (strict) or, with encoding="p1363", r || s; as many.
        messages: bytes, as many (hashed here with `hash`).
        low_s: also reject s > n/2.
    Returns: a list of booleans, True where the signature is valid; a malformed signature
        (bad DER, wrong length) is False, not an exception, so one bad item spoils nothing.
    Raises: TypeError for other objects; ValueError for lists of different lengths, keys of
        different curves, an unknown hash or encoding. Variable time (public data).
    """
    pks, sigs, msgs = list(public_keys), list(signatures), list(messages)
    _same_len(pks, sigs, "verify_batch")
    _same_len(pks, msgs, "verify_batch")
    c = _batch_curve(pks, PublicKey, "public_keys")
    if encoding not in ("der", "p1363"):
        raise ValueError(f"encoding must be 'der' or 'p1363', not {encoding!r}")
    name = _hash_name(hash)
    Ln = c.scalar_bytes
    rs, keep = [], []
    for s in sigs:
        try:
            x = _decode_sig(c, _bytes(s, "signature"), encoding)
        except ValueError:
            x = None
        keep.append(x is not None)
        rs.append(x if x is not None else bytes(2 * Ln))  # r = 0: never valid
    digests = [_digest(name, _bytes(m, "message")) for m in msgs]
    ok = _core.ecdsa_verify_batch(c.id, [k._sec1 for k in pks], digests, rs, 1 if low_s else 0)
    return [bool(a and b) for a, b in zip(ok, keep)]
