"""The Python side of ``tabai bench``: the cryptosystems as a Python user calls them, tabai's
modules beside the OpenSSL that the ``cryptography`` package ships, in the records of the C
benchmark's JSON schema (bench/README.md).

Ops (each also an op of the C binary except dsa_sign and dsa_verify, which only this side
measures; the C binary times its own calls of the same ops against the system OpenSSL):

    rsa_sign    PKCS #1 v1.5 signature with SHA-256 of a short message (RSA 2048/3072/4096)
    rsa_verify  its verification
    dh          one key agreement with a validated peer value (ffdhe2048/3072/4096)
    dsa_sign    DSA signature with SHA-256 (2048/256, 3072/256)
    dsa_verify  its verification, repeated on one key object: tabai's from the second call on
                by the per-key fixed-base tables (dsa.PublicKey.verify), its first by Straus

Records: ``impl`` "tabai" (``kernel`` "python", ``symbol`` the Python method) or
"cryptography" (``kernel`` null, ``symbol`` its method, ``peer`` its OpenSSL version);
``tsc`` null (no cycle counter from Python). Implementations alternate A B A B; ``ns`` is the
median per call, ``ns_min`` the fastest sample.
"""

from __future__ import annotations

import statistics
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

PY_OPS = ("rsa_sign", "rsa_verify", "dh", "dsa_sign", "dsa_verify")
PY_ONLY_OPS = ("dsa_sign", "dsa_verify")

_SIZES = {"rsa_sign": (2048, 3072, 4096), "rsa_verify": (2048, 3072, 4096),
          "dh": (2048, 3072, 4096), "dsa_sign": (2048, 3072), "dsa_verify": (2048, 3072)}


def split_ops(ops: Optional[str]):
    """(the ops for the C binary or None for all, the ops measured here) from --ops."""
    if not ops:
        return None, list(PY_OPS)
    names = [o.strip() for o in ops.split(",") if o.strip()]
    c_ops = [o for o in names if o not in PY_ONLY_OPS]
    return ",".join(c_ops), [o for o in names if o in PY_OPS]


def _time(impls: Sequence[Callable[[], Any]], seconds: float) -> List[Dict[str, float]]:
    """Median and fastest ns per call of each callable, alternating, within the budget."""
    for f in impls:  # warm-up, and the batch size: a sample of at least 2 ms
        f()
    batches = []
    for f in impls:
        t0 = time.perf_counter_ns()
        f()
        one = max(time.perf_counter_ns() - t0, 1)
        batches.append(max(1, int(2e6 // one)))
    samples: List[List[float]] = [[] for _ in impls]
    deadline = time.perf_counter() + seconds
    while len(samples[0]) < 5 or (time.perf_counter() < deadline and len(samples[0]) < 2000):
        for i, f in enumerate(impls):
            t0 = time.perf_counter_ns()
            for _ in range(batches[i]):
                f()
            samples[i].append((time.perf_counter_ns() - t0) / batches[i])
    return [{"ns": statistics.median(s), "ns_min": min(s), "reps": len(s), "batch": b}
            for s, b in zip(samples, batches)]


def _rsa_key(bits: int):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa as crsa

    pem = Path(__file__).resolve().parents[2] / "data" / "keys" / f"rsa-{bits}.pem"
    if pem.exists():
        return serialization.load_pem_private_key(pem.read_bytes(), password=None)
    return crsa.generate_private_key(public_exponent=65537, key_size=bits)


def _cases(op: str, bits: int):
    """(modulus label, [(impl, kernel, symbol, callable)]) for one op and size."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    from . import dh, dsa, rsa

    msg = b"tabai bench message"
    if op.startswith("rsa_"):
        ck = _rsa_key(bits)
        k = rsa.PrivateKey.from_cryptography(ck)
        label = f"rsa{bits}_n"
        if op == "rsa_sign":
            return label, [("tabai", "python", "rsa.PrivateKey.sign", lambda: k.sign(msg)),
                           ("cryptography", None, "RSAPrivateKey.sign",
                            lambda: ck.sign(msg, padding.PKCS1v15(), hashes.SHA256()))]
        sig, pub, cpub = k.sign(msg), k.public_key(), ck.public_key()
        return label, [("tabai", "python", "rsa.PublicKey.verify", lambda: pub.verify(sig, msg)),
                       ("cryptography", None, "RSAPublicKey.verify",
                        lambda: cpub.verify(sig, msg, padding.PKCS1v15(), hashes.SHA256()))]
    if op == "dh":
        g = dh.Group(f"ffdhe{bits}")
        a, y = g.generate(), g.generate().public_key()
        params = g.to_cryptography()
        ca = params.generate_private_key()
        cpeer = params.generate_private_key().public_key()
        return g.name, [("tabai", "python", "dh.PrivateKey.exchange", lambda: a.exchange(y)),
                        ("cryptography", None, "DHPrivateKey.exchange", lambda: ca.exchange(cpeer))]
    from cryptography.hazmat.primitives.asymmetric import dsa as cdsa

    ck = cdsa.generate_private_key(bits)
    k = dsa.PrivateKey.from_cryptography(ck)
    label = f"dsa{bits}_{k.params.N}"
    if op == "dsa_sign":
        return label, [("tabai", "python", "dsa.PrivateKey.sign", lambda: k.sign(msg)),
                       ("cryptography", None, "DSAPrivateKey.sign", lambda: ck.sign(msg, hashes.SHA256()))]
    sig, pub, cpub = k.sign(msg), k.public_key(), ck.public_key()
    return label, [("tabai", "python", "dsa.PublicKey.verify", lambda: pub.verify(sig, msg)),
                   ("cryptography", None, "DSAPublicKey.verify", lambda: cpub.verify(sig, msg, hashes.SHA256()))]


def measure(ops: Sequence[str], bits: Optional[str] = None, seconds: Optional[float] = None,
            stream=None) -> List[Dict[str, Any]]:
    """Records for the Python-side ops (names from PY_OPS), sizes filtered by the --bits list."""
    try:
        import cryptography
        from cryptography.hazmat.backends.openssl import backend
    except ImportError:
        return []
    want = {int(b) for b in bits.split(",")} if bits else None
    budget = 0.2 if seconds is None else float(seconds)
    peer = f"cryptography {cryptography.__version__} ({backend.openssl_version_text()})"
    records = []
    for op in ops:
        for size in _SIZES[op]:
            if want is not None and size not in want:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # cryptography's FFDH deprecation notice
                label, impls = _cases(op, size)
                times = _time([f for *_, f in impls], budget)
            line = []
            for (impl, kernel, symbol, _), t in zip(impls, times):
                records.append({"op": op, "bits": size, "modulus": label, "impl": impl,
                                "kernel": kernel, "symbol": symbol, "ns": t["ns"], "tsc": None,
                                "reps": t["reps"], "ns_min": t["ns_min"], "n": (size + 63) // 64,
                                "batch": t["batch"], "side": "python",
                                **({"peer": peer} if impl == "cryptography" else {})})
                line.append(f"{impl} {t['ns'] / 1e3:.1f} us")
            if stream is not None:
                stream.write(f"[python] {op} {size} {label}: {' | '.join(line)}\n")
    return records
