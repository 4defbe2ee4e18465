"""A small pure-Python reference of short-Weierstrass point arithmetic (affine, Python ints),
the oracle of the tabai.ec tests, and where the test vectors live.

Curve parameters: p from the defining formulas (FIPS 186-5, SEC 2), a = -3 (NIST) or 0
(secp256k1), the generator from ``cryptography`` (the public key of d = 1), b from the
generator's coordinates; the order n is tabai's, checked here (n G = infinity, n prime,
inside the Hasse interval).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, Optional, Tuple

Pt = Optional[Tuple[int, int]]  # None = infinity

P_FORMULAS = {
    "P-256": 2**256 - 2**224 + 2**192 + 2**96 - 1,
    "P-384": 2**384 - 2**128 - 2**96 + 2**32 - 1,
    "P-521": 2**521 - 1,
    "secp256k1": 2**256 - 2**32 - 977,
}
CRYPTO_NAMES = {"P-256": "SECP256R1", "P-384": "SECP384R1", "P-521": "SECP521R1",
                "secp256k1": "SECP256K1"}


class RefCurve:
    def __init__(self, name: str, n: int):
        from cryptography.hazmat.primitives.asymmetric import ec as cec

        self.name = name
        self.p = P_FORMULAS[name]
        self.a = 0 if name == "secp256k1" else self.p - 3
        nums = cec.derive_private_key(1, getattr(cec, CRYPTO_NAMES[name])()).public_key().public_numbers()
        self.G = (nums.x, nums.y)
        self.b = (nums.y**2 - nums.x**3 - self.a * nums.x) % self.p
        self.n = n

    def on_curve(self, P: Pt) -> bool:
        if P is None:
            return True
        x, y = P
        return (y * y - x**3 - self.a * x - self.b) % self.p == 0

    def neg(self, P: Pt) -> Pt:
        return None if P is None else (P[0], (-P[1]) % self.p)

    def add(self, P: Pt, Q: Pt) -> Pt:
        if P is None:
            return Q
        if Q is None:
            return P
        p = self.p
        if P[0] == Q[0]:
            if (P[1] + Q[1]) % p == 0:
                return None
            lam = (3 * P[0] * P[0] + self.a) * pow(2 * P[1], -1, p) % p
        else:
            lam = (Q[1] - P[1]) * pow(Q[0] - P[0], -1, p) % p
        x = (lam * lam - P[0] - Q[0]) % p
        return (x, (lam * (P[0] - x) - P[1]) % p)

    def mul(self, k: int, P: Pt) -> Pt:
        k %= self.n
        R: Pt = None
        for bit in bin(k)[2:]:
            R = self.add(R, R)
            if bit == "1":
                R = self.add(R, P)
        return R


def is_probable_prime(n: int) -> bool:
    if n < 2:
        return False
    for q in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


_REFS: Dict[str, RefCurve] = {}


def ref(curve) -> RefCurve:
    """The reference of a tabai.ec.Curve (built once)."""
    if curve.name not in _REFS:
        _REFS[curve.name] = RefCurve(curve.name, curve.n)
    return _REFS[curve.name]


def wycheproof_dir() -> Optional[Path]:
    """The Wycheproof folder: TABAI_WYCHEPROOF_DIR, else ../shared/vectors/wycheproof from
    the repository's root; None if absent."""
    env = os.environ.get("TABAI_WYCHEPROOF_DIR")
    if env:
        return Path(env) if Path(env).is_dir() else None
    root = Path(__file__).resolve().parents[2]
    d = root.parent / "shared" / "vectors" / "wycheproof"
    return d if d.is_dir() else None


def cavp_dir() -> Optional[Path]:
    """The asymmetric/ folder of the ``cryptography-vectors`` package, None if missing."""
    try:
        import cryptography_vectors
    except ImportError:
        return None
    return Path(cryptography_vectors.__file__).parent / "asymmetric"


def read_rsp(path: Path):
    """Blocks of a NIST .rsp/.txt/.fax file: yields (section, dict of KEY = value) for each
    blank-line separated block of key/value lines; section is the last [header]. The dict's
    "_curve" is the last curve named by a header ("[P-256]", "[P-256,SHA-256]",
    "[EC - SHA256]": KAS files name curves EA..EE = P-192, P-224, P-256, P-384, P-521)."""
    import re

    kas = {"EA": "P-192", "EB": "P-224", "EC": "P-256", "ED": "P-384", "EE": "P-521"}
    section, curve = "", ""
    block: Dict[str, str] = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                if block:
                    yield section, block
                    block = {}
                section = line[1:-1]
                m = re.match(r"^([PKB]-\d+)", section)
                if m:
                    curve = m.group(1)
                elif section[:2] in kas and (len(section) == 2 or section[2:5] == " - "):
                    curve = kas[section[:2]]
                continue
            if not line:
                if block:
                    yield section, block
                    block = {}
                continue
            if "=" in line:
                k, v = line.split("=", 1)
                block[k.strip()] = v.strip()
                block["_curve"] = curve
    if block:
        yield section, block
