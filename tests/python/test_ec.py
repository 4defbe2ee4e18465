"""tabai.ec on P-256, P-384, P-521 and secp256k1: parameters and point arithmetic against the
pure-Python reference (ec_ref.py, hypothesis), RFC 6979 signatures byte for byte, NIST CAVP
(cryptography-vectors), interop with `cryptography`, errors. Wycheproof: test_ec_wycheproof.py."""

import hashlib
import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec as cec
from cryptography.hazmat.primitives.asymmetric import utils

import tabai
from ec_ref import CRYPTO_NAMES, P_FORMULAS, cavp_dir, is_probable_prime, read_rsp, ref
from tabai import ec

CURVES = [ec.P256, ec.P384, ec.P521, ec.SECP256K1]
HASH_OF = {"P-256": "sha256", "P-384": "sha384", "P-521": "sha512", "secp256k1": "sha256"}


@pytest.mark.parametrize("c", CURVES, ids=lambda c: c.name)
def test_parameters(c):
    r = ref(c)
    assert c.p == P_FORMULAS[c.name] == r.p
    assert c.a == r.a and c.b == r.b
    assert (c.generator.x, c.generator.y) == r.G
    assert is_probable_prime(c.n)
    assert abs(c.n - (c.p + 1)) <= 2 * math.isqrt(c.p) + 2  # Hasse, cofactor 1
    assert r.mul(c.n - 1, r.G) == r.neg(r.G) and r.add(r.mul(c.n - 1, r.G), r.G) is None
    assert (c.n - 1) * c.generator == -c.generator
    assert c.generator * c.n == c.infinity
    assert ec.curve(c.name) is c


def test_curve_names():
    assert ec.curve("secp256r1") is ec.P256 and ec.curve("prime256v1") is ec.P256
    assert ec.curve("P-384") is ec.P384 and ec.curve("SECP521R1") is ec.P521
    assert ec.curve("secp256k1") is ec.SECP256K1
    with pytest.raises(ValueError):
        ec.curve("P-192")
    with pytest.raises(TypeError):
        ec.curve(256)


def scalars(c):
    return st.one_of(st.sampled_from([0, 1, 2, 3, c.n - 1, c.n - 2, c.n, c.n + 1, -1]),
                     st.integers(min_value=0, max_value=2 * c.n))


@pytest.mark.parametrize("c", CURVES, ids=lambda c: c.name)
def test_point_arithmetic_against_reference(c):
    r = ref(c)

    @given(scalars(c), scalars(c))
    @example(1, 1)
    @example(1, -1)
    @example(0, 5)
    def check(k1, k2):
        P = k1 * c.generator
        Q = k2 * c.generator
        rp, rq = r.mul(k1, r.G), r.mul(k2, r.G)
        assert (None if P.is_infinity else (P.x, P.y)) == rp
        S = P + Q
        rs = r.add(rp, rq)
        assert (None if S.is_infinity else (S.x, S.y)) == rs
        assert P + P == 2 * P
        assert P + (-P) == c.infinity
        assert P + c.infinity == P and c.infinity + P == P
        assert P - Q == P + (-Q)
        if not P.is_infinity:
            assert ec.Point.from_sec1(c, P.to_sec1()) == P
            assert ec.Point.from_sec1(c, P.to_sec1(compressed=True)) == P
            assert k2 * P == (k1 * k2) * c.generator

    check()


@pytest.mark.parametrize("c", CURVES, ids=lambda c: c.name)
def test_small_x_points(c):
    """Points with the smallest x on the curve (x = 0, 1, 2, ...) through from_sec1 and
    the arithmetic, against the reference."""
    r = ref(c)
    found = 0
    for x in range(0, 200):
        rhs = (x**3 + c.a * x + c.b) % c.p
        y = pow(rhs, (c.p + 1) // 4, c.p)
        if y * y % c.p != rhs:
            continue
        P = c.point(x, y)
        assert (3 * P).to_sec1() == ec.Point(c, *r.mul(3, (x, y))).to_sec1()
        assert (P + c.generator).to_sec1() == ec.Point(c, *r.add((x, y), r.G)).to_sec1()
        assert P + P == 2 * P and P - P == c.infinity
        found += 1
        if found == 3:
            break
    assert found


def rfc6979_cases():
    d = cavp_dir()
    if d is None:
        return []
    text = (d / "ECDSA" / "RFC6979" / "evppkey_ecdsa_rfc6979.txt").read_text().splitlines()
    keys, cases, cur, pem = {}, [], {}, None
    i = 0
    while i < len(text):
        line = text[i].strip()
        if line.startswith("PrivateKey="):
            name = line.split("=", 1)[1].strip()
            j = i + 1
            while "END PRIVATE KEY" not in text[j]:
                j += 1
            if name.split("_")[0] in ("P-256", "P-384", "P-521"):
                keys[name] = serialization.load_pem_private_key(
                    "\n".join(text[i + 1 : j + 1]).encode(), None)
            i = j
        elif line.startswith("DigestSign"):
            cur = {"hash": line.split("=", 1)[1].strip()}
        elif line.startswith("Key") and cur is not None and "hash" in cur and "key" not in cur:
            cur["key"] = line.split("=", 1)[1].strip()
        elif line.startswith("NonceType") and cur is not None:
            cur["det"] = "deterministic" in line
        elif line.startswith("Input") and cur is not None and "key" in cur:
            cur["msg"] = line.split("=", 1)[1].strip().strip('"').encode()
        elif line.startswith("Output") and cur is not None and "msg" in cur:
            cur["sig"] = bytes.fromhex(line.split("=", 1)[1].strip())
            if cur.get("det") and cur["key"].split("_")[0] in ("P-256", "P-384", "P-521"):
                cases.append((keys[cur["key"]], cur["hash"], cur["msg"], cur["sig"]))
            cur = None
        i += 1
    return cases


def test_rfc6979_a25_a27_byte_for_byte():
    cases = rfc6979_cases()
    if not cases:
        pytest.skip("cryptography-vectors is not installed")
    done = 0
    for key, hname, msg, sig in cases:
        h = hname.lower().replace("-", "")
        if h == "sha1":
            continue  # tabai's RFC 6979 has no SHA-1 (docs/ec.md)
        sk = ec.PrivateKey.from_cryptography(key)
        assert sk.sign(msg, h) == sig, (sk.curve.name, hname, msg)
        sk.public_key().verify(sig, msg, h)
        done += 1
    assert done >= 3 * 4 * 2  # three curves, SHA-224..512, two messages


def _cavp_curve(block):
    return {"P-256": ec.P256, "P-384": ec.P384, "P-521": ec.P521}.get(block.get("_curve"))


def test_cavp_sigver():
    d = cavp_dir()
    if d is None:
        pytest.skip("cryptography-vectors is not installed")
    n = 0
    for section, b in read_rsp(d / "ECDSA" / "FIPS_186-3" / "SigVer.rsp"):
        c = _cavp_curve(b)
        if c is None or "Msg" not in b:
            continue
        hname = section.split(",")[1].lower().replace("-", "")
        if hname == "sha1":
            continue  # no SHA-1 in tabai.ec
        L = c.field_bytes
        try:
            pk = ec.PublicKey.from_sec1(c, b"\x04" + int(b["Qx"], 16).to_bytes(L, "big") + int(b["Qy"], 16).to_bytes(L, "big"))
        except ValueError:
            assert b["Result"].startswith("F")
            continue
        sig = int(b["R"], 16).to_bytes(c.scalar_bytes, "big") + int(b["S"], 16).to_bytes(c.scalar_bytes, "big")
        msg = bytes.fromhex(b["Msg"])
        if b["Result"].startswith("P"):
            pk.verify(sig, msg, hname, encoding="p1363")
        else:
            with pytest.raises(tabai.InvalidSignature):
                pk.verify(sig, msg, hname, encoding="p1363")
        n += 1
    assert n > 100


def test_cavp_keypair_and_pkv():
    d = cavp_dir()
    if d is None:
        pytest.skip("cryptography-vectors is not installed")
    n = 0
    for section, b in read_rsp(d / "ECDSA" / "FIPS_186-3" / "KeyPair.rsp"):
        c = _cavp_curve(b)
        if c is None or "d" not in b:
            continue
        pub = ec.PrivateKey.from_int(c, int(b["d"], 16)).public_key().point
        assert (pub.x, pub.y) == (int(b["Qx"], 16), int(b["Qy"], 16))
        n += 1
    for section, b in read_rsp(d / "ECDSA" / "FIPS_186-3" / "PKV.rsp"):
        c = _cavp_curve(b)
        if c is None or "Qx" not in b:
            continue
        x, y = int(b["Qx"], 16), int(b["Qy"], 16)
        L = c.field_bytes
        ok = True
        if x.bit_length() > 8 * L or y.bit_length() > 8 * L:
            ok = False
        else:
            try:
                ec.PublicKey.from_sec1(c, b"\x04" + x.to_bytes(L, "big") + y.to_bytes(L, "big"))
            except ValueError:
                ok = False
        assert ok == b["Result"].startswith("P"), (section, b)
        n += 1
    assert n > 50


def test_cavp_ecdh_kas_zz_only():
    """KAS ECC static unified, Z only (SP 800-56A): for every P-256/384/521 record, both
    public keys valid, each private key matching its public key and ECDH giving Z exactly
    when the record passes."""
    d = cavp_dir()
    if d is None:
        pytest.skip("cryptography-vectors is not installed")
    n = 0
    for name in ("KASValidityTest_ECCStaticUnified_NOKC_ZZOnly_init.fax",
                 "KASValidityTest_ECCStaticUnified_NOKC_ZZOnly_resp.fax"):
        for _, b in read_rsp(d / "ECDH" / name):
            c = _cavp_curve(b)
            if c is None or "Z" not in b or "Result" not in b:
                continue
            L = c.field_bytes

            def pub(x, y):
                return b"\x04" + int(x, 16).to_bytes(L, "big") + int(y, 16).to_bytes(L, "big")

            ok = True
            try:
                q_cavs = ec.PublicKey.from_sec1(c, pub(b["QsCAVSx"], b["QsCAVSy"]))
                q_iut = ec.PublicKey.from_sec1(c, pub(b["QsIUTx"], b["QsIUTy"]))
                d_iut = ec.PrivateKey.from_int(c, int(b["dsIUT"], 16))
                d_cavs = ec.PrivateKey.from_int(c, int(b["dsCAVS"], 16))
                ok = (d_iut.public_key() == q_iut and d_cavs.public_key() == q_cavs
                      and d_iut.exchange(q_cavs) == bytes.fromhex(b["Z"])
                      and d_cavs.exchange(q_iut) == bytes.fromhex(b["Z"]))
            except ValueError:
                ok = False
            assert ok == b["Result"].startswith("P"), (name, c.name, b["COUNT"], b["Result"])
            n += 1
    assert n >= 60


@pytest.mark.parametrize("c", CURVES, ids=lambda c: c.name)
def test_interop_with_cryptography(c):
    cc = getattr(cec, CRYPTO_NAMES[c.name])()
    h = HASH_OF[c.name]
    hc = getattr(hashes, h.upper())()
    for _ in range(3):
        ours = ec.PrivateKey.generate(c)
        theirs = cec.generate_private_key(cc)
        msg = b"interop " + ours.to_bytes()[:4]
        # cryptography verifies tabai's signatures (DER), tabai verifies cryptography's
        ours.public_key().to_cryptography().verify(ours.sign(msg, h), msg, cec.ECDSA(hc))
        ours.public_key().to_cryptography().verify(
            ours.sign(msg, h, extra_entropy=True, low_s=True), msg, cec.ECDSA(hc))
        ec.PublicKey.from_cryptography(theirs.public_key()).verify(theirs.sign(msg, cec.ECDSA(hc)), msg, h)
        # the same key both ways
        assert ec.PrivateKey.from_cryptography(ours.to_cryptography()).to_bytes() == ours.to_bytes()
        assert ours.public_key().to_cryptography().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint) == ours.public_key().to_sec1()
        # ECDH agrees
        s1 = ours.exchange(ec.PublicKey.from_cryptography(theirs.public_key()))
        s2 = theirs.exchange(cec.ECDH(), ours.public_key().to_cryptography())
        assert s1 == s2 and len(s1) == c.field_bytes
        # P1363 and sign_digest
        dg = hashlib.new(h, msg).digest()
        sig = ours.sign_digest(dg, h, encoding="p1363")
        assert len(sig) == 2 * c.scalar_bytes
        r, s = int.from_bytes(sig[: c.scalar_bytes], "big"), int.from_bytes(sig[c.scalar_bytes :], "big")
        ours.public_key().to_cryptography().verify(utils.encode_dss_signature(r, s), dg,
                                                   cec.ECDSA(utils.Prehashed(hc)))
        ours.public_key().verify_digest(sig, dg, encoding="p1363")


@pytest.mark.parametrize("c", CURVES, ids=lambda c: c.name)
def test_low_s_and_determinism(c):
    sk = ec.PrivateKey.generate(c)
    pk = sk.public_key()
    h = HASH_OF[c.name]
    assert sk.sign(b"m", h) == sk.sign(b"m", h)  # RFC 6979: deterministic
    assert sk.sign(b"m", h, extra_entropy=b"x") != sk.sign(b"m", h)
    long_extra = sk.sign(b"m", h, extra_entropy=bytes(range(200)))  # RFC 6979 3.6: any length
    pk.verify(long_extra, b"m", h)
    assert long_extra == sk.sign(b"m", h, extra_entropy=bytes(range(200)))
    for i in range(8):
        r, s = ec._sig_tuple(c, sk.sign(bytes([i]), h, low_s=True))
        assert s <= c.n // 2
        high = utils.encode_dss_signature(r, c.n - s)
        pk.verify(high, bytes([i]), h)  # accepted without low_s
        with pytest.raises(tabai.InvalidSignature):
            pk.verify(high, bytes([i]), h, low_s=True)


def test_errors():
    c = ec.P256
    with pytest.raises(ValueError):
        ec.PrivateKey.from_int(c, 0)
    with pytest.raises(ValueError):
        ec.PrivateKey.from_int(c, c.n)
    with pytest.raises(ValueError):
        ec.PrivateKey.from_bytes(c, bytes(31) + b"\x01" + b"\x00")
    with pytest.raises(TypeError):
        ec.PrivateKey.from_int(c, 1.0)
    sk = ec.PrivateKey.generate(c)
    pk = sk.public_key()
    good = pk.to_sec1()
    for bad in (b"", b"\x04", good[:-1], b"\x05" + good[1:], b"\x04" + good[1:-1] + bytes([good[-1] ^ 1]),
                b"\x04" + (c.p).to_bytes(32, "big") + good[33:], b"\x00"):
        with pytest.raises(ValueError):
            ec.PublicKey.from_sec1(c, bad)
    with pytest.raises(ValueError):
        sk.sign(b"m", "md5")
    with pytest.raises(ValueError):
        sk.sign(b"m", encoding="raw")
    sig = sk.sign(b"m")
    with pytest.raises(ValueError):
        pk.verify(sig + b"\x00", b"m")  # trailing bytes: not DER
    with pytest.raises(ValueError):
        pk.verify(sig[:-1], b"m")
    with pytest.raises(ValueError):
        pk.verify(bytes(63), b"m", encoding="p1363")
    with pytest.raises(tabai.InvalidSignature):
        pk.verify(sig, b"other")
    with pytest.raises(tabai.InvalidSignature):
        pk.verify(bytes(64), b"m", encoding="p1363")  # r = s = 0
    with pytest.raises(ValueError):
        sk.exchange(ec.PrivateKey.generate(ec.P384).public_key())
    with pytest.raises(ValueError):
        c.point(1, 1)
