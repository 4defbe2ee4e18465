"""tabai.dh and tabai.dsa: the groups from their definitions (safe primes, the RFCs' end
digits), validation of public values, interoperation with `cryptography` both ways, DSA
with RFC 6979 nonces (the RFC's own DSA-2048 example), DER and P1363, and the Wycheproof DSA
files (skipped when absent: TABAI_WYCHEPROOF_DIR or ../shared/vectors/wycheproof)."""

import json
import os
from pathlib import Path

import pytest

import tabai
from tabai import dh, dsa
from tabai.dsa import _is_probable_prime

cdh = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.dh")
cdsa = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.dsa")
hashes = pytest.importorskip("cryptography.hazmat.primitives.hashes")

ROOT = Path(__file__).resolve().parents[2]

# the last 32 hex digits of each prime as printed in RFC 7919 appendix A and RFC 3526
TAILS = {
    "ffdhe2048": "886B423861285C97FFFFFFFFFFFFFFFF",
    "ffdhe3072": "25E41D2B66C62E37FFFFFFFFFFFFFFFF",
    "ffdhe4096": "C68A007E5E655F6AFFFFFFFFFFFFFFFF",
    "modp2048": "15728E5A8AACAA68FFFFFFFFFFFFFFFF",
    "modp3072": "4B82D120A93AD2CAFFFFFFFFFFFFFFFF",
    "modp4096": "4DF435C934063199FFFFFFFFFFFFFFFF",
}


@pytest.mark.parametrize("name", dh.GROUPS)
def test_groups_are_safe_primes(name):
    g = dh.Group(name)
    assert g.p.bit_length() == int(name[-4:]) and g.q == (g.p - 1) // 2 and g.g == 2
    assert f"{g.p:X}".startswith("FFFFFFFFFFFFFFFF")
    if name in TAILS:
        assert f"{g.p:X}".endswith(TAILS[name])
    if g.bits <= 4096:
        assert _is_probable_prime(g.p, 2) and _is_probable_prime(g.q, 2)
    assert tabai.powmod_vartime(2, g.q, g.p) == 1  # 2 generates the subgroup of order q


@pytest.mark.parametrize("name", ["ffdhe2048", "modp2048", "ffdhe3072"])
def test_dh_interop(name):
    g = dh.Group(name)
    params = g.to_cryptography()
    for full in (False, True):
        a = g.generate(full_length=full)
        b = params.generate_private_key()
        yb = b.public_key().public_numbers().y
        z = a.exchange(yb)
        assert len(z) == g.size
        peer = cdh.DHPublicNumbers(a.public_key(), params.parameter_numbers()).public_key()
        assert z == b.exchange(peer)
        # the same key through cryptography's objects
        assert dh.PrivateKey.from_cryptography(a.to_cryptography()).exchange(yb) == z
        assert dh.PrivateKey.from_cryptography(b).public_key() == yb
    assert len(a.public_key().to_bytes(g.size, "big")) == g.size


def test_dh_short_exponents():
    g = dh.Group("ffdhe4096")
    x = g.generate()
    assert x._x.bit_length() == 326  # 325 random bits below a set top bit
    assert g.generate(full_length=True)._x.bit_length() > 4000


def test_subgroup_check_is_the_legendre_symbol():
    """For the safe primes, y^q == 1 exactly when (y/p) == 1 (what validate() computes)."""
    import random

    rng = random.Random(5)
    for name in ("ffdhe2048", "modp3072"):
        g = dh.Group(name)
        for y in [2, 3, g.p - 2, g.p - 3] + [rng.randrange(2, g.p - 1) for _ in range(20)]:
            assert (tabai.powmod_vartime(y, g.q, g.p) == 1) == (tabai.jacobi_vartime(y, g.p) == 1)
    for m in (3, 5, 7, 9, 15, 21, 2**127 - 1, 3**81):
        for a in (0, 1, 2, 5, m - 1, 12345):
            assert tabai.jacobi_vartime(a, m) == _jacobi(a % m, m)
    with pytest.raises(ValueError):
        tabai.jacobi_vartime(3, 10)


def _jacobi(a, n):
    """The textbook Jacobi symbol in Python ints (the oracle)."""
    t = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                t = -t
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            t = -t
        a %= n
    return t if n == 1 else 0


def test_dh_validation():
    g = dh.Group("ffdhe2048")
    a = g.generate()
    order_2q = g.p - 2  # -2 = -1 * 2: -1 has order 2, 2 has order q, so -2 has order 2q
    for y in (0, 1, g.p - 1, g.p, order_2q, g.p + 5, -3):
        with pytest.raises(ValueError, match="invalid public value"):
            a.exchange(y)
    with pytest.raises(TypeError):
        a.exchange(2.0)
    with pytest.raises(ValueError):
        dh.Group("ffdhe1024")
    with pytest.raises(ValueError):
        dh.PrivateKey(g, 0)
    # the smallest and largest valid values pass
    a.exchange(2)
    a.exchange(pow(2, g.q - 1, g.p))


# ---- DSA -----------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=[2048, 3072])
def dsa_pair(request):
    ck = cdsa.generate_private_key(request.param)
    return ck, dsa.PrivateKey.from_cryptography(ck)


def test_dsa_interop(dsa_pair):
    ck, k = dsa_pair
    for msg in (b"", b"abc", os.urandom(300)):
        sig = k.sign(msg)
        ck.public_key().verify(sig, msg, hashes.SHA256())
        k.public_key().verify(ck.sign(msg, hashes.SHA256()), msg)
        assert k.sign(msg) == sig  # RFC 6979: deterministic
        p1363 = k.sign(msg, encoding="p1363")
        assert len(p1363) == 2 * k.params.N // 8
        k.public_key().verify(p1363, msg, encoding="p1363")
        with pytest.raises(tabai.InvalidSignature):
            k.public_key().verify(sig, msg + b"!")
    assert k.to_cryptography().private_numbers() == ck.private_numbers()
    assert dsa.PublicKey.from_cryptography(ck.public_key()) == k.public_key()
    assert k.public_key().to_cryptography().public_numbers() == ck.public_key().public_numbers()


def test_dsa_rejects_r_s_out_of_range(dsa_pair):
    _, k = dsa_pair
    q = k.params.q
    w = k.params.N // 8
    r, s = int.from_bytes(k.sign(b"m", encoding="p1363")[:w], "big"), 1
    for rr, ss in ((0, s), (r, 0), (q, s), (r, q), (r + q, s)):
        sig = rr.to_bytes(w + 1, "big")[-w:] + ss.to_bytes(w + 1, "big")[-w:] if max(rr, ss) < 256**w else None
        if sig is not None:
            with pytest.raises(tabai.InvalidSignature):
                k.public_key().verify(sig, b"m", encoding="p1363")
        with pytest.raises(tabai.InvalidSignature):
            k.public_key().verify(dsa._der_sig(rr, ss), b"m")


def test_dsa_validation(dsa_pair):
    ck, _ = dsa_pair
    nums = ck.private_numbers()
    pn = nums.public_numbers.parameter_numbers
    params = dsa.Parameters(pn.p, pn.q, pn.g)
    with pytest.raises(ValueError):
        dsa.Parameters(pn.p, pn.q, 1)
    with pytest.raises(ValueError):
        dsa.Parameters(pn.p, pn.q + 2, pn.g)
    with pytest.raises(ValueError):
        dsa.PublicKey(params, 1)
    with pytest.raises(ValueError):
        dsa.PublicKey(params, pn.p - 1)
    with pytest.raises(ValueError):
        dsa.PrivateKey(params, 0)
    with pytest.raises(ValueError):
        dsa.PrivateKey(params, nums.x, nums.public_numbers.y + 1)


CAVP = None
try:
    import cryptography_vectors

    CAVP = Path(cryptography_vectors.__file__).parent / "asymmetric" / "DSA" / "FIPS_186-3"
except ImportError:
    pass


def cavp_sections(name, last):
    """[(L, N, hash, {P, Q, G}, [records])] of a CAVP file; `last` is a record's last field."""
    if CAVP is None or not (CAVP / name).exists():
        pytest.skip("cryptography-vectors not installed")
    out, rec = [], {}
    for line in (CAVP / name).read_text().splitlines():
        line = line.strip()
        if line.startswith("[mod"):
            L, N, h = [x.strip() for x in line[6:-1].split(",")]
            out.append((int(L[2:]), int(N[2:]), h.lower().replace("-", ""), {}, []))
        elif "=" in line and out and not line.startswith("#"):
            k, v = [x.strip() for x in line.split("=", 1)]
            if k in ("P", "Q", "G"):
                out[-1][3][k] = int(v, 16)
                continue
            rec[k] = v
            if k == last:
                out[-1][4].append(rec)
                rec = {}
    return [x for x in out if (x[0], x[1]) in dsa.SIZES]


def test_cavp_siggen_with_given_k():
    """FIPS 186-3 SigGen (CAVP, from cryptography-vectors): with the file's k, our r and s."""
    n = 0
    for L, N, h, pqg, recs in cavp_sections("SigGen.txt", "S"):
        params = dsa.Parameters(pqg["P"], pqg["Q"], pqg["G"])
        for rec in recs[:3]:
            k = dsa.PrivateKey(params, int(rec["X"], 16), int(rec["Y"], 16))
            import hashlib

            z = dsa._bits2int(hashlib.new(h, bytes.fromhex(rec["Msg"])).digest(), N)
            assert k._sign_k(z, int(rec["K"], 16)) == (int(rec["R"], 16), int(rec["S"], 16))
            k.public_key().verify(dsa._der_sig(int(rec["R"], 16), int(rec["S"], 16)),
                                  bytes.fromhex(rec["Msg"]), h)
            n += 1
    assert n > 0


def test_cavp_sigver():
    """FIPS 186-3 SigVer (CAVP): every P passes, every F fails (bad r, s, message or key)."""
    n = 0
    for L, N, h, pqg, recs in cavp_sections("SigVer.rsp", "Result"):
        params = dsa.Parameters(pqg["P"], pqg["Q"], pqg["G"])
        for rec in recs:
            ok = rec["Result"].startswith("P")
            try:
                pub = dsa.PublicKey(params, int(rec["Y"], 16))
                pub.verify(dsa._der_sig(int(rec["R"], 16), int(rec["S"], 16)),
                           bytes.fromhex(rec["Msg"]), h)
                got = True
            except (tabai.InvalidSignature, ValueError):
                got = False
            assert got == ok, (L, N, h, rec)
            n += 1
    assert n > 0


def test_rfc6979_nonce_against_openssl():
    """The RFC 6979 nonce generator against OpenSSL's deterministic ECDSA (in `cryptography`)
    on P-256: k recovered from OpenSSL's signature as s^-1 (z + x r) mod n equals ours."""
    ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
    import hashlib
    import importlib.util

    spec = importlib.util.spec_from_file_location("moduli", ROOT / "tools" / "gen" / "moduli.py")
    moduli = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(moduli)
    n = moduli.P256_N
    key = ec.generate_private_key(ec.SECP256R1())
    x = key.private_numbers().private_value
    for msg in (b"sample", b"test", os.urandom(50)):
        for h, ch, hn in (("sha256", hashes.SHA256(), "sha256"), ("sha512", hashes.SHA512(), "sha512")):
            try:
                sig = key.sign(msg, ec.ECDSA(ch, deterministic_signing=True))
            except TypeError:
                pytest.skip("cryptography without deterministic ECDSA")
            r, s = decode_dss_signature(sig)
            digest = hashlib.new(hn, msg).digest()
            z = dsa._bits2int(digest, 256)
            k = pow(s, -1, n) * (z + x * r) % n
            ours = dsa.rfc6979_nonce(x, n, digest, hn)
            assert ours == k or ours == n - k  # OpenSSL may normalise s (low-s): k or -k


def wycheproof_dir():
    env = os.environ.get("TABAI_WYCHEPROOF_DIR")
    d = Path(env) if env else ROOT.parent / "shared" / "vectors" / "wycheproof"
    return d if d.is_dir() else None


_files = sorted(wycheproof_dir().glob("dsa_*_test.json")) if wycheproof_dir() else []


@pytest.mark.parametrize("path", _files or [None], ids=lambda p: p.name if p else "absent")
def test_wycheproof_dsa(path):
    if path is None:
        pytest.skip("Wycheproof vectors not found (set TABAI_WYCHEPROOF_DIR)")
    data = json.loads(path.read_text())
    checked = 0
    for g in data["testGroups"]:
        kd = g.get("publicKey") or g["key"]
        x = {k: int(v, 16) for k, v in kd.items() if k in ("p", "q", "g", "y")}
        pub = dsa.PublicKey(dsa.Parameters(x["p"], x["q"], x["g"]), x["y"])
        name = g["sha"].lower().replace("-", "")
        for t in g["tests"]:
            if t["result"] == "acceptable":
                continue
            try:
                pub.verify(bytes.fromhex(t["sig"]), bytes.fromhex(t["msg"]), name)
                ok = True
            except tabai.InvalidSignature:
                ok = False
            assert ok == (t["result"] == "valid"), (path.name, t["tcId"], t["comment"])
            checked += 1
    assert checked > 0
