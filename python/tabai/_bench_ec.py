"""The curve operations of the OpenSSL that the ``cryptography`` wheel ships, timed from Python.

The C benchmark links the system's OpenSSL; ``cryptography`` carries its own (often a newer
major version, much faster on some curves), which a C program cannot link beside it. This
module times that OpenSSL through ``cryptography``'s API and returns records in the schema of
bench/README.md with ``impl`` = "cryptography" and ``symbol`` naming the call. The times
include the Python call overhead (about a microsecond: small beside a curve operation), and the
same overhead is measured on tabai's own Python binding of the same operation (impl "tabai",
kernel "python"), so the two compare like for like.

    ops: ec_mul_base (derive_private_key: d G), ecdh (exchange), ecdsa_sign (sign of a
    prehashed digest), ecdsa_verify (verify), x25519 (exchange).
"""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

OPS = ("ec_mul_base", "ecdh", "ecdsa_sign", "ecdsa_verify", "x25519")
CURVES = ("P-256", "P-384", "P-521", "secp256k1", "X25519")
_BITS = {"P-256": 256, "P-384": 384, "P-521": 521, "secp256k1": 256, "X25519": 255}
_CRYPTO = {"P-256": "SECP256R1", "P-384": "SECP384R1", "P-521": "SECP521R1", "secp256k1": "SECP256K1"}
_HASH = {"P-256": "SHA256", "P-384": "SHA384", "P-521": "SHA512", "secp256k1": "SHA256"}


def available() -> bool:
    try:
        import cryptography  # noqa: F401
    except ImportError:
        return False
    return True


def version() -> str:
    """'cryptography X (OpenSSL Y)'."""
    import cryptography
    from cryptography.hazmat.backends.openssl.backend import backend

    return f"cryptography {cryptography.__version__} ({backend.openssl_version_text()})"


def _time(fns: Sequence[Callable[[], Any]], seconds: float) -> List[Dict[str, float]]:
    """Median and minimum ns per call of each fn, sampled alternately (A B A B) for about
    `seconds` in all; each sample a batch of calls lasting >= 20 us."""
    batches = []
    for fn in fns:  # calibrate
        n = 1
        while True:
            t = time.perf_counter_ns()
            for _ in range(n):
                fn()
            if time.perf_counter_ns() - t >= 20_000 or n >= 1 << 16:
                break
            n *= 2
        batches.append(n)
    samples: List[List[float]] = [[] for _ in fns]
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(samples[0]) < 5:
        for i, fn in enumerate(fns):
            n = batches[i]
            t = time.perf_counter_ns()
            for _ in range(n):
                fn()
            samples[i].append((time.perf_counter_ns() - t) / n)
    return [{"ns": statistics.median(s), "ns_min": min(s), "reps": len(s), "batch": b}
            for s, b in zip(samples, batches)]


def _cases(op: str, curve: str):
    """(tabai callable, cryptography callable, symbol) for one op on one curve, after checking
    that both compute the same thing; None if the op does not apply."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec as cec
    from cryptography.hazmat.primitives.asymmetric import utils, x25519 as cx

    from . import ec

    if curve == "X25519":
        if op != "x25519":
            return None
        a, b = cx.X25519PrivateKey.generate(), cx.X25519PrivateKey.generate()
        bp = b.public_key()
        ta = ec.X25519PrivateKey.from_cryptography(a)
        tb = ec.X25519PublicKey.from_cryptography(bp)
        if ta.exchange(tb) != a.exchange(bp):
            raise RuntimeError("x25519: tabai and cryptography disagree")
        return (lambda: ta.exchange(tb)), (lambda: a.exchange(bp)), "X25519PrivateKey.exchange"
    if op == "x25519":
        return None
    cc = getattr(cec, _CRYPTO[curve])()
    key, peer = cec.generate_private_key(cc), cec.generate_private_key(cc)
    tkey = ec.PrivateKey.from_cryptography(key)
    tpeer = ec.PublicKey.from_cryptography(peer.public_key())
    d = key.private_numbers().private_value
    h = getattr(hashes, _HASH[curve])()
    digest = hashes.Hash(h)
    digest.update(b"tabai bench")
    dg = digest.finalize()
    pre = cec.ECDSA(utils.Prehashed(h))
    hname = _HASH[curve].lower()
    if op == "ec_mul_base":
        return ((lambda: ec.PrivateKey.from_int(tkey.curve, d).public_key()),
                (lambda: cec.derive_private_key(d, cc).public_key()), "derive_private_key")
    if op == "ecdh":
        if tkey.exchange(tpeer) != key.exchange(cec.ECDH(), peer.public_key()):
            raise RuntimeError(f"{curve} ecdh: tabai and cryptography disagree")
        pp = peer.public_key()
        return ((lambda: tkey.exchange(tpeer)), (lambda: key.exchange(cec.ECDH(), pp)),
                "EllipticCurvePrivateKey.exchange")
    if op == "ecdsa_sign":
        key.public_key().verify(tkey.sign_digest(dg, hname), dg, pre)
        return ((lambda: tkey.sign_digest(dg, hname)), (lambda: key.sign(dg, pre)),
                "EllipticCurvePrivateKey.sign")
    if op == "ecdsa_verify":
        sig = key.sign(dg, pre)
        tpub, pub = tkey.public_key(), key.public_key()
        tpub.verify_digest(sig, dg)
        return ((lambda: tpub.verify_digest(sig, dg)), (lambda: pub.verify(sig, dg, pre)),
                "EllipticCurvePublicKey.verify")
    return None


def run(ops: Optional[Sequence[str]] = None, curves: Optional[Sequence[str]] = None,
        seconds: float = 0.2, progress: Optional[Callable[[str], None]] = None) -> List[Dict[str, Any]]:
    """Records for the selected ops and curves (default all that apply): for each case an
    impl "tabai" (kernel "python": tabai through its Python binding) and an impl
    "cryptography" record, timed alternately. Returns [] without ``cryptography``."""
    if not available():
        return []
    sym_ver = version()
    want_curves = [c for c in CURVES if not curves or c.lower() in {x.lower() for x in curves}]
    out: List[Dict[str, Any]] = []
    for op in OPS:
        if ops and op not in ops:
            continue
        for curve in want_curves:
            case = _cases(op, curve)
            if case is None:
                continue
            mine, theirs, symbol = case
            if progress:
                progress(f"{op} {curve} (cryptography)")
            res = _time([mine, theirs], seconds)
            base = {"op": op, "bits": _BITS[curve], "modulus": curve}
            out.append(dict(base, impl="tabai", kernel="python", symbol=f"tabai.ec ({op})",
                            tsc=None, **res[0]))
            out.append(dict(base, impl="cryptography", kernel=None, symbol=f"{symbol}; {sym_ver}",
                            tsc=None, **res[1]))
    return out
