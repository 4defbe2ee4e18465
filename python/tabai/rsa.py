"""RSA signatures and encryption (RFC 8017) on tabai's private and public operations.

>>> from tabai import rsa
>>> key = rsa.PrivateKey.generate(2048)
>>> sig = key.sign(b"message")                      # PKCS #1 v1.5, SHA-256
>>> key.public_key().verify(sig, b"message")        # raises tabai.InvalidSignature if bad
>>> ct = key.public_key().encrypt(b"secret")         # OAEP, SHA-256
>>> key.decrypt(ct)
b'secret'

Keys are read, written and generated through the `cryptography` package (PEM, DER, PKCS #1,
PKCS #8, encrypted PEM); the numbers then go to tabai's C library, which checks them (a
ValueError names the failed check). The private operation there is constant time, blinded
and checked with the public exponent before the result leaves. The encodings here are
RFC 8017's: EMSA-PKCS1-v1_5 (section 9.2), EMSA-PSS with MGF1 (9.1), RSAES-OAEP (7.1) and
RSAES-PKCS1-v1_5 (7.2) with the implicit rejection of draft-irtf-cfrg-rsa-guidance (a wrong
padding gives a pseudo-random message derived from the key and the ciphertext, not an error,
so that a padding oracle learns nothing; OpenSSL 3.2+ does the same, byte for byte).

The padding code is Python: it has no secret-dependent early exits (every byte is examined,
errors are collected as flags), but Python itself gives no constant-time guarantee. Hashes
come from hashlib, randomness from secrets.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Optional, Union

from . import _core
from . import InvalidSignature

__all__ = ["PrivateKey", "PublicKey", "DecryptionError"]


class DecryptionError(ValueError):
    """The one error of every failed decryption (bad padding, wrong length, out of range):
    the message never says which check failed."""


# ---- hashes ------------------------------------------------------------------------------

# object identifiers of the hashes (RFC 8017 appendix B.1, NIST's hash OIDs)
_NIST = (2, 16, 840, 1, 101, 3, 4, 2)
_HASH_OIDS = {
    "sha1": (1, 3, 14, 3, 2, 26),
    "sha256": _NIST + (1,),
    "sha384": _NIST + (2,),
    "sha512": _NIST + (3,),
    "sha224": _NIST + (4,),
    "sha512_224": _NIST + (5,),
    "sha512_256": _NIST + (6,),
    "sha3_224": _NIST + (7,),
    "sha3_256": _NIST + (8,),
    "sha3_384": _NIST + (9,),
    "sha3_512": _NIST + (10,),
}

HashLike = Union[str, object]


def _hash_name(h: HashLike) -> str:
    """A hashlib name from "sha256", "SHA-256", "sha512-224" or a `cryptography` hash object."""
    name = getattr(h, "name", h)
    if not isinstance(name, str):
        raise TypeError(f"hash must be a name such as 'sha256', not {type(h).__name__}")
    key = name.lower().replace("-", "_")
    if key.startswith("sha_"):
        key = "sha" + key[4:]
    if key not in _HASH_OIDS:
        raise ValueError(f"unsupported hash {name!r}; known: {', '.join(sorted(_HASH_OIDS))}")
    return key


def _digest(name: str, data: bytes) -> bytes:
    return hashlib.new(name, data).digest()


def _der(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 0x80:
        return bytes([tag, n]) + body
    ln = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(ln)]) + ln + body


def _oid(arcs) -> bytes:
    out = bytearray([40 * arcs[0] + arcs[1]])
    for a in arcs[2:]:
        chunk = [a & 0x7F]
        a >>= 7
        while a:
            chunk.append(0x80 | (a & 0x7F))
            a >>= 7
        out += bytes(reversed(chunk))
    return _der(0x06, bytes(out))


def _digest_info(name: str, digest: bytes) -> bytes:
    """DigestInfo ::= SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING digest } (RFC 8017 9.2)."""
    alg = _der(0x30, _oid(_HASH_OIDS[name]) + b"\x05\x00")
    return _der(0x30, alg + _der(0x04, digest))


def _mgf1(name: str, seed: bytes, length: int) -> bytes:
    """MGF1 of RFC 8017 appendix B.2.1."""
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += _digest(name, seed + counter.to_bytes(4, "big"))
        counter += 1
    return bytes(out[:length])


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


def _message_hash(name: str, msg: bytes, prehashed: bool) -> bytes:
    if prehashed:
        size = hashlib.new(name).digest_size
        if len(msg) != size:
            raise ValueError(f"a prehashed {name} digest has {size} bytes, not {len(msg)}")
        return bytes(msg)
    return _digest(name, msg)


def _padding(p: str, allowed) -> str:
    if not isinstance(p, str) or p.lower() not in allowed:
        raise ValueError(f"padding must be one of {', '.join(allowed)}, not {p!r}")
    return p.lower()


# ---- the encodings -----------------------------------------------------------------------


def _emsa_pkcs1_v15(name: str, mhash: bytes, k: int) -> bytes:
    t = _digest_info(name, mhash)
    if k < len(t) + 11:
        raise ValueError("the key is too short for this hash (RFC 8017 9.2: k >= tLen + 11)")
    return b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t


def _emsa_pss_encode(name: str, mhash: bytes, em_bits: int, salt_len: int) -> bytes:
    h_len = len(mhash)
    em_len = (em_bits + 7) // 8
    if em_len < h_len + salt_len + 2:
        raise ValueError("the key is too short for this hash and salt length (RFC 8017 9.1.1)")
    salt = secrets.token_bytes(salt_len)
    h = _digest(name, b"\x00" * 8 + mhash + salt)
    db = b"\x00" * (em_len - salt_len - h_len - 2) + b"\x01" + salt
    masked = bytearray(_xor(db, _mgf1(name, h, em_len - h_len - 1)))
    masked[0] &= 0xFF >> (8 * em_len - em_bits)
    return bytes(masked) + h + b"\xbc"


def _emsa_pss_verify(name: str, mgf: str, mhash: bytes, em: bytes, em_bits: int,
                     salt_len: Optional[int]) -> bool:
    h_len = len(mhash)
    em_len = (em_bits + 7) // 8
    if len(em) != em_len or em_len < h_len + 2 or em[-1] != 0xBC:
        return False
    masked, h = em[: em_len - h_len - 1], em[em_len - h_len - 1: -1]
    if masked[0] & ~(0xFF >> (8 * em_len - em_bits)) & 0xFF:
        return False
    db = bytearray(_xor(masked, _mgf1(mgf, h, em_len - h_len - 1)))
    db[0] &= 0xFF >> (8 * em_len - em_bits)
    if salt_len is None:  # any salt length: the first non-zero byte must be the 0x01
        i = next((j for j, b in enumerate(db) if b), len(db))
        if i == len(db) or db[i] != 1:
            return False
        salt = bytes(db[i + 1:])
    else:
        if em_len < h_len + salt_len + 2:
            return False
        ps_len = em_len - h_len - salt_len - 2
        if any(db[:ps_len]) or db[ps_len] != 1:
            return False
        salt = bytes(db[ps_len + 1:])
    return hmac.compare_digest(_digest(name, b"\x00" * 8 + mhash + salt), h)


def _oaep_encode(name: str, msg: bytes, label: bytes, k: int) -> bytes:
    h_len = hashlib.new(name).digest_size
    if len(msg) > k - 2 * h_len - 2:
        raise ValueError(f"message too long for OAEP: at most {k - 2 * h_len - 2} bytes")
    db = _digest(name, label) + b"\x00" * (k - len(msg) - 2 * h_len - 2) + b"\x01" + msg
    seed = secrets.token_bytes(h_len)
    masked_db = _xor(db, _mgf1(name, seed, k - h_len - 1))
    return b"\x00" + _xor(seed, _mgf1(name, masked_db, h_len)) + masked_db


def _oaep_decode(name: str, em: bytes, label: bytes, k: int) -> Optional[bytes]:
    """The message, or None; every byte examined, the failures collected in one flag."""
    h_len = hashlib.new(name).digest_size
    if k < 2 * h_len + 2:
        return None
    masked_seed, masked_db = em[1: 1 + h_len], em[1 + h_len:]
    seed = _xor(masked_seed, _mgf1(name, masked_db, h_len))
    db = _xor(masked_db, _mgf1(name, seed, k - h_len - 1))
    bad = em[0] | (not hmac.compare_digest(db[:h_len], _digest(name, label)))
    # the first non-zero byte after lHash must be 0x01: scan all, remember the first one
    index, looking = 0, 1
    for i in range(h_len, len(db)):
        b = db[i]
        nonzero = b != 0
        bad |= looking & nonzero & (b != 1)
        index = index + (i - index) * (looking & nonzero)
        looking &= not nonzero
    bad |= looking
    return None if bad else db[index + 1:]


def _pkcs1_v15_encrypt_encode(msg: bytes, k: int) -> bytes:
    if len(msg) > k - 11:
        raise ValueError(f"message too long for PKCS #1 v1.5: at most {k - 11} bytes")
    ps = bytearray()
    while len(ps) < k - len(msg) - 3:
        ps += bytes(b for b in secrets.token_bytes(k) if b)
    return b"\x00\x02" + bytes(ps[: k - len(msg) - 3]) + b"\x00" + msg


def _prf(kdk: bytes, label: bytes, length: int) -> bytes:
    """The PRF of the implicit rejection: HMAC-SHA256(kdk, I2OSP(i, 2) || label ||
    I2OSP(8 * length, 2)) for i = 0, 1, ..., concatenated and cut to length bytes."""
    out = bytearray()
    i = 0
    while len(out) < length:
        out += hmac.new(kdk, i.to_bytes(2, "big") + label + (8 * length).to_bytes(2, "big"),
                        "sha256").digest()
        i += 1
    return bytes(out[:length])


def _pkcs1_v15_decrypt_decode(em: bytes, k: int, kdk: Optional[bytes]) -> Optional[bytes]:
    """RSAES-PKCS1-v1_5 decoding (RFC 8017 7.2.2): the message, or with kdk (implicit
    rejection, draft-irtf-cfrg-rsa-guidance) a synthetic message for a bad padding, or None
    without kdk. Every byte is examined; the failures collect in one flag."""
    bad = em[0] | (em[1] ^ 2)
    index, looking = 0, 1
    for i in range(2, k):
        zero = em[i] == 0
        index = index + (i - index) * (looking & zero)
        looking &= not zero
    bad |= looking | (index < 10)  # no separator, or fewer than 8 bytes of PS
    real = em[index + 1:]
    if kdk is None:
        return None if bad else real
    max_sep = k - 2 - 8
    mask = 1
    while mask < max_sep:
        mask <<= 1
    mask -= 1
    lengths = _prf(kdk, b"length", 256)
    synth_len = 0
    for i in range(0, 256, 2):
        cand = ((lengths[i] << 8) | lengths[i + 1]) & mask
        ok = cand < max_sep
        synth_len = synth_len + (cand - synth_len) * ok
    synthetic = _prf(kdk, b"message", k)[k - synth_len:]
    return synthetic if bad else real


# ---- keys --------------------------------------------------------------------------------


def _crypto():
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa as crsa
    except ImportError as exc:  # pragma: no cover - cryptography is a dependency of the tests
        raise ImportError("tabai.rsa reads and writes keys through the `cryptography` package") from exc
    return serialization, crsa


class PublicKey:
    """An RSA public key (n, e): verification and encryption.

    PublicKey(n, e): n odd, 1024 to 8192 bits; e odd, 3 <= e < 2**64 (ValueError otherwise).
    """

    def __init__(self, n: int, e: int) -> None:
        self._k = _core.RSAPublicKey(n, e)
        self.n, self.e = self._k.n, self._k.e
        self.size = (self.n.bit_length() + 7) // 8  # k of RFC 8017, bytes

    def __repr__(self) -> str:
        return f"tabai.rsa.PublicKey({self.n.bit_length()} bits, e={self.e})"

    def __eq__(self, other) -> bool:
        return isinstance(other, PublicKey) and (self.n, self.e) == (other.n, other.e)

    def __hash__(self) -> int:
        return hash((self.n, self.e))

    @property
    def bits(self) -> int:
        """Bit length of n."""
        return self.n.bit_length()

    @classmethod
    def from_cryptography(cls, key) -> "PublicKey":
        """From a `cryptography` RSAPublicKey (or RSAPrivateKey: its public half)."""
        if hasattr(key, "private_numbers"):
            key = key.public_key()
        nums = key.public_numbers()
        return cls(nums.n, nums.e)

    @classmethod
    def from_pem(cls, data: bytes) -> "PublicKey":
        """From a PEM public key (SubjectPublicKeyInfo or PKCS #1), read by `cryptography`.
        Raises ValueError for data that is not an RSA public key."""
        serialization, crsa = _crypto()
        key = serialization.load_pem_public_key(data)
        if not isinstance(key, crsa.RSAPublicKey):
            raise ValueError("not an RSA public key")
        return cls.from_cryptography(key)

    @classmethod
    def from_der(cls, data: bytes) -> "PublicKey":
        """From a DER public key (SubjectPublicKeyInfo or PKCS #1), read by `cryptography`."""
        serialization, crsa = _crypto()
        key = serialization.load_der_public_key(data)
        if not isinstance(key, crsa.RSAPublicKey):
            raise ValueError("not an RSA public key")
        return cls.from_cryptography(key)

    def to_cryptography(self):
        """The same key as a `cryptography` RSAPublicKey."""
        _, crsa = _crypto()
        return crsa.RSAPublicNumbers(self.e, self.n).public_key()

    def public(self, m: int) -> int:
        """The raw operation m**e mod n (RSAEP / RSAVP1). Raises ValueError outside [0, n)."""
        return self._k.public(m)

    def verify(self, signature: bytes, msg: bytes, padding: str = "pkcs1v15",
               hash: HashLike = "sha256", salt_length: Optional[int] = None,
               prehashed: bool = False, mgf_hash: Optional[HashLike] = None) -> None:
        """Verifies an RSASSA-PKCS1-v1_5 or RSASSA-PSS signature (RFC 8017 8.2.2, 8.1.2).

        Args:
            signature: exactly `size` bytes.
            msg: the message (or its digest with prehashed=True).
            padding: "pkcs1v15" or "pss".
            hash: a hashlib name ("sha256", "sha3_256", ...) or a `cryptography` hash object.
            salt_length: PSS only: the salt length in bytes; None accepts any.
            mgf_hash: PSS only: the MGF1 hash (default: hash).
        Raises:
            tabai.InvalidSignature: the signature does not verify (any reason).
            ValueError: an unknown padding or hash.
        Time: variable (public data only).
        """
        padding = _padding(padding, ("pkcs1v15", "pss"))
        name = _hash_name(hash)
        mhash = _message_hash(name, msg, prehashed)
        if len(signature) != self.size:
            raise InvalidSignature("signature length is not the modulus length")
        s = int.from_bytes(signature, "big")
        if s >= self.n:
            raise InvalidSignature("signature representative out of range")
        m = self._k.public(s)
        if padding == "pkcs1v15":
            ok = hmac.compare_digest(m.to_bytes(self.size, "big"),
                                     _emsa_pkcs1_v15(name, mhash, self.size))
        else:
            em_bits = self.bits - 1
            em_len = (em_bits + 7) // 8
            mgf = _hash_name(mgf_hash) if mgf_hash is not None else name
            ok = m < 1 << (8 * em_len) and _emsa_pss_verify(
                name, mgf, mhash, m.to_bytes(em_len, "big"), em_bits, salt_length)
        if not ok:
            raise InvalidSignature("signature does not verify")

    def encrypt(self, msg: bytes, padding: str = "oaep", hash: HashLike = "sha256",
                label: bytes = b"") -> bytes:
        """RSAES-OAEP (MGF1 with the same hash) or RSAES-PKCS1-v1_5 encryption (RFC 8017 7.1.1,
        7.2.1). Returns `size` bytes. Raises ValueError for a message too long for the key."""
        padding = _padding(padding, ("oaep", "pkcs1v15"))
        if padding == "oaep":
            em = _oaep_encode(_hash_name(hash), bytes(msg), bytes(label), self.size)
        else:
            em = _pkcs1_v15_encrypt_encode(bytes(msg), self.size)
        return self._k.public(int.from_bytes(em, "big")).to_bytes(self.size, "big")


class PrivateKey:
    """An RSA private key: signatures and decryption on tabai's private operation.

    PrivateKey(n, e, d, p, q, dp, dq, qinv) with the numbers of RFC 8017 section 3.2; every
    one is checked (ValueError naming the failed check). Usually made by from_pem, from_der,
    from_cryptography or generate. The private operation is constant time, blinded and
    checked with e (RuntimeError, never a wrong result, if a fault is detected).
    """

    def __init__(self, n: int, e: int, d: int, p: int, q: int, dp: int, dq: int,
                 qinv: int) -> None:
        self._k = _core.RSAKey(n, e, d, p, q, dp, dq, qinv)
        self._pub = PublicKey(n, e)
        self._d = d  # kept for the implicit-rejection key (KDK) of PKCS #1 v1.5 decryption
        self._parts = (p, q, dp, dq, qinv)

    def __repr__(self) -> str:
        return f"tabai.rsa.PrivateKey({self._pub.bits} bits, e={self._pub.e})"

    @property
    def size(self) -> int:
        """Modulus length in bytes."""
        return self._pub.size

    @property
    def bits(self) -> int:
        """Bit length of n."""
        return self._pub.bits

    @classmethod
    def from_cryptography(cls, key) -> "PrivateKey":
        """From a `cryptography` RSAPrivateKey."""
        nums = key.private_numbers()
        pub = nums.public_numbers
        return cls(pub.n, pub.e, nums.d, nums.p, nums.q, nums.dmp1, nums.dmq1, nums.iqmp)

    @classmethod
    def from_pem(cls, data: bytes, password: Optional[bytes] = None) -> "PrivateKey":
        """From a PEM private key (PKCS #1 or PKCS #8, encrypted with password), read by
        `cryptography`. Raises ValueError for data that is not an RSA private key, TypeError
        for a missing or superfluous password (as `cryptography`)."""
        serialization, crsa = _crypto()
        key = serialization.load_pem_private_key(data, password=password)
        if not isinstance(key, crsa.RSAPrivateKey):
            raise ValueError("not an RSA private key")
        return cls.from_cryptography(key)

    @classmethod
    def from_der(cls, data: bytes, password: Optional[bytes] = None) -> "PrivateKey":
        """From a DER private key (PKCS #1 or PKCS #8), read by `cryptography`."""
        serialization, crsa = _crypto()
        key = serialization.load_der_private_key(data, password=password)
        if not isinstance(key, crsa.RSAPrivateKey):
            raise ValueError("not an RSA private key")
        return cls.from_cryptography(key)

    @classmethod
    def generate(cls, bits: int = 3072, e: int = 65537) -> "PrivateKey":
        """A new key of `bits` bits (1024 to 8192) made by `cryptography` (OpenSSL's prime
        generation from the operating system's randomness)."""
        if not 1024 <= bits <= 8192:
            raise ValueError("bits must be 1024 to 8192")
        _, crsa = _crypto()
        return cls.from_cryptography(crsa.generate_private_key(public_exponent=e, key_size=bits))

    def public_key(self) -> PublicKey:
        """The public half (n, e)."""
        return self._pub

    def to_cryptography(self):
        """The same key as a `cryptography` RSAPrivateKey."""
        _, crsa = _crypto()
        p, q, dp, dq, qinv = self._parts
        pub = crsa.RSAPublicNumbers(self._pub.e, self._pub.n)
        return crsa.RSAPrivateNumbers(p, q, self._d, dp, dq, qinv, pub).private_key()

    def private(self, c: int) -> int:
        """The raw operation c**d mod n (RSADP / RSASP1), blinded and checked."""
        return self._k.private(c)

    def private_batch(self, cs, threads: Optional[int] = None) -> list:
        """[c**d mod n for c in cs], 8 at a time at tier ifma, on `threads` threads (None:
        every core); the GIL is released."""
        return self._k.private_batch(cs, threads)

    def sign(self, msg: bytes, padding: str = "pkcs1v15", hash: HashLike = "sha256",
             salt_length: Optional[int] = None, prehashed: bool = False) -> bytes:
        """An RSASSA-PKCS1-v1_5 or RSASSA-PSS signature (RFC 8017 8.2.1, 8.1.1), `size` bytes.

        Args:
            msg: the message (or its digest with prehashed=True).
            padding: "pkcs1v15" (deterministic: byte-identical to OpenSSL's) or "pss"
                (MGF1 with the same hash, random salt from secrets).
            hash: a hashlib name or a `cryptography` hash object.
            salt_length: PSS only; default the hash length.
        Raises:
            ValueError: unknown padding or hash, a key too short for it.
        """
        padding = _padding(padding, ("pkcs1v15", "pss"))
        name = _hash_name(hash)
        mhash = _message_hash(name, msg, prehashed)
        if padding == "pkcs1v15":
            em = _emsa_pkcs1_v15(name, mhash, self.size)
        else:
            slen = len(mhash) if salt_length is None else salt_length
            if slen < 0:
                raise ValueError("salt_length must be >= 0")
            em = _emsa_pss_encode(name, mhash, self.bits - 1, slen)
        return self._k.private(int.from_bytes(em, "big")).to_bytes(self.size, "big")

    def sign_batch(self, msgs, padding: str = "pkcs1v15", hash: HashLike = "sha256",
                   threads: Optional[int] = None, prehashed: bool = False) -> list:
        """sign() for many messages at once: the private operations run as one batch (8 at a
        time at tier ifma, on `threads` threads, None: every core)."""
        padding = _padding(padding, ("pkcs1v15", "pss"))
        name = _hash_name(hash)
        ems = []
        for msg in msgs:
            mhash = _message_hash(name, msg, prehashed)
            if padding == "pkcs1v15":
                ems.append(_emsa_pkcs1_v15(name, mhash, self.size))
            else:
                ems.append(_emsa_pss_encode(name, mhash, self.bits - 1, len(mhash)))
        out = self._k.private_batch([int.from_bytes(em, "big") for em in ems], threads)
        return [s.to_bytes(self.size, "big") for s in out]

    def _kdk(self, ct: bytes) -> bytes:
        """The key-derivation key of the implicit rejection: HMAC-SHA256 keyed with
        SHA-256(I2OSP(d, k)) over the ciphertext left-padded to k bytes."""
        dkey = hashlib.sha256(self._d.to_bytes(self.size, "big")).digest()
        return hmac.new(dkey, ct.rjust(self.size, b"\x00"), "sha256").digest()

    def decrypt(self, ciphertext: bytes, padding: str = "oaep", hash: HashLike = "sha256",
                label: bytes = b"", implicit_rejection: bool = True) -> bytes:
        """RSAES-OAEP (MGF1 with the same hash) or RSAES-PKCS1-v1_5 decryption (RFC 8017
        7.1.2, 7.2.2).

        OAEP: every failure (length, range, padding, label) raises DecryptionError, one
        message for all. PKCS #1 v1.5 with implicit_rejection=True (default): a ciphertext
        of the wrong length or out of range raises DecryptionError (public facts); a bad
        padding returns a synthetic message derived from the key and the ciphertext
        (draft-irtf-cfrg-rsa-guidance, as OpenSSL 3.2+), so a padding oracle learns nothing.
        With implicit_rejection=False a bad padding raises DecryptionError too (only safe when
        the caller can hide that failure, e.g. TLS 1.2's own countermeasure).
        """
        padding = _padding(padding, ("oaep", "pkcs1v15"))
        ct = bytes(ciphertext)
        if len(ct) != self.size or int.from_bytes(ct, "big") >= self._pub.n:
            raise DecryptionError("decryption failed")
        em = self._k.private(int.from_bytes(ct, "big")).to_bytes(self.size, "big")
        if padding == "oaep":
            out = _oaep_decode(_hash_name(hash), em, bytes(label), self.size)
        else:
            out = _pkcs1_v15_decrypt_decode(em, self.size,
                                            self._kdk(ct) if implicit_rejection else None)
        if out is None:
            raise DecryptionError("decryption failed")
        return out
