"""Finite-field Diffie-Hellman in the groups of RFC 7919 (ffdhe2048..8192) and RFC 3526
(MODP 2048..8192), on tabai's constant-time exponentiation.

>>> from tabai import dh
>>> g = dh.Group("ffdhe2048")
>>> a, b = g.generate(), g.generate()
>>> a.exchange(b.public_key()) == b.exchange(a.public_key())
True

Private exponents are short by default, as RFC 7919 section 5.2 allows (twice the security
strength in bits: 225 bits at 2048, 275 at 3072, 325 at 4096, 375 at 6144, 400 at 8192), or
uniform in [1, q) with full_length=True. Peer public values are validated (2 <= y <= p-2 and
y^q = 1 mod p: y lies in the subgroup of prime order q), and the shared secret is left-padded
to the length of p (as `cryptography` and TLS 1.3 do).
"""

from __future__ import annotations

import secrets
from typing import Union

from . import _core, _groups

__all__ = ["Group", "PrivateKey", "GROUPS"]

GROUPS = _groups.NAMES
"""The group names: ffdhe2048, ffdhe3072, ffdhe4096, ffdhe6144, ffdhe8192, modp2048, ...,
modp8192."""


class Group:
    """A safe-prime group: p, its subgroup order q = (p-1)/2 and the generator g = 2.

    Group(name) for a name in GROUPS (ValueError otherwise).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.p = _groups.prime(name)
        self.q = (self.p - 1) // 2
        self.g = 2
        self.bits = self.p.bit_length()
        self.size = (self.bits + 7) // 8
        self.short_exponent_bits = _groups.SHORT_EXPONENT_BITS[self.bits]
        # one Montgomery context per group: building it costs about 5% of an exchange
        self._fp = _core.Montgomery(self.p)

    def __repr__(self) -> str:
        return f"tabai.dh.Group({self.name!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Group) and other.p == self.p

    def __hash__(self) -> int:
        return hash(self.p)

    def validate(self, y: int) -> None:
        """Public-key validation (NIST SP 800-56A 5.6.2.3.1): 2 <= y <= p-2 and y^q = 1 mod p
        (computed as the Legendre symbol (y/p) == 1, equivalent for the safe prime p).
        Raises ValueError otherwise, TypeError for a non-int. Variable time (y is public)."""
        if not isinstance(y, int) or isinstance(y, bool):
            raise TypeError("a public value must be an int")
        if not 2 <= y <= self.p - 2:
            raise ValueError("invalid public value: not in [2, p-2]")
        # p = 2q + 1 is a safe prime: the subgroup of order q is the squares, so y^q == 1
        # exactly when the Legendre symbol (y/p) is 1, which costs a gcd-like pass instead of
        # a full exponentiation (the tests check both agree)
        if _core.jacobi_vartime(y, self.p) != 1:
            raise ValueError("invalid public value: not in the subgroup of order q")

    def generate(self, full_length: bool = False) -> "PrivateKey":
        """A new private key: a short exponent of short_exponent_bits random bits (RFC 7919
        5.2), or with full_length=True uniform in [1, q). Randomness from secrets."""
        if full_length:
            return PrivateKey(self, 1 + secrets.randbelow(self.q - 1))
        return PrivateKey(self, (1 << self.short_exponent_bits) | secrets.randbits(self.short_exponent_bits))

    def to_cryptography(self):
        """The same parameters as `cryptography` DHParameters (p, g, q)."""
        from cryptography.hazmat.primitives.asymmetric import dh as cdh

        return cdh.DHParameterNumbers(self.p, self.g, self.q).parameters()


class PrivateKey:
    """A DH private exponent x in a Group: PrivateKey(group, x) with 1 <= x < q (ValueError
    otherwise); usually made by Group.generate()."""

    def __init__(self, group: Union[Group, str], x: int) -> None:
        self.group = group if isinstance(group, Group) else Group(group)
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("x must be an int")
        if not 1 <= x < self.group.q:
            raise ValueError("x must be in [1, q)")
        self._x = x
        # g has order q, so any exponent x + k q gives the same power: x + q hides the length
        # of a full-length x (it has the bit length of q, or one more with probability about
        # 2^-64), a short x already has a fixed length (its top bit is set)
        short = x.bit_length() == self.group.short_exponent_bits + 1
        self._e = x if short else x + self.group.q
        self._y = None

    def __repr__(self) -> str:
        return f"tabai.dh.PrivateKey({self.group.name})"

    def public_key(self) -> int:
        """The public value y = g^x mod p (an int; constant time in x)."""
        if self._y is None:
            self._y = self.group._fp.pow(self.group.g, self._e)
        return self._y

    def exchange(self, y: int) -> bytes:
        """The shared secret y^x mod p as big-endian bytes of the length of p (left-padded).
        Raises ValueError for a y that fails validation (Group.validate). Constant time in x."""
        self.group.validate(y)
        z = self.group._fp.pow(y, self._e)
        return z.to_bytes(self.group.size, "big")

    @classmethod
    def from_cryptography(cls, key) -> "PrivateKey":
        """From a `cryptography` DHPrivateKey whose parameters are one of the named groups
        (ValueError otherwise)."""
        nums = key.private_numbers()
        p = nums.public_numbers.parameter_numbers.p
        for name in GROUPS:
            if _groups.prime(name) == p:
                return cls(Group(name), nums.x)
        raise ValueError("not one of the named groups of RFC 7919 or RFC 3526")

    def to_cryptography(self):
        """The same key as a `cryptography` DHPrivateKey."""
        from cryptography.hazmat.primitives.asymmetric import dh as cdh

        g = self.group
        pn = cdh.DHParameterNumbers(g.p, g.g, g.q)
        return cdh.DHPrivateNumbers(self._x, cdh.DHPublicNumbers(self.public_key(), pn)).private_key()
