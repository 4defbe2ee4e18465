"""tabai.ec's X25519: RFC 7748 vectors, Wycheproof x25519_test.json, `cryptography` interop,
errors. Acceptable Wycheproof cases (docs/ec.md): a zero shared secret is refused
(ValueError), every other acceptable case (twist points, non-canonical u) computes RFC 7748's
value."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cryptography.hazmat.primitives.asymmetric import x25519 as cx

from ec_ref import cavp_dir, read_rsp, wycheproof_dir
from tabai import ec


def test_rfc7748_section_5_2_vectors():
    d = cavp_dir()
    if d is None:
        pytest.skip("cryptography-vectors is not installed")
    n = 0
    for _, b in read_rsp(d / "X25519" / "rfc7748.txt"):
        k, u, out = (bytes.fromhex(b[x]) for x in ("INPUT_SCALAR", "INPUT_U", "OUTPUT_U"))
        assert ec.x25519(k, u) == out
        n += 1
    assert n == 3


def test_rfc7748_iterated_1_and_1000():
    k = u = bytes([9]) + bytes(31)
    for i in range(1000):
        k, u = ec.x25519(k, u), k
        if i == 0:
            assert k.hex() == "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079"
    assert k.hex() == "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"


def test_rfc7748_section_6_1():
    a = ec.X25519PrivateKey.from_bytes(bytes.fromhex(
        "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
    b = ec.X25519PrivateKey.from_bytes(bytes.fromhex(
        "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
    assert a.public_key().to_bytes().hex() == \
        "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
    assert b.public_key().to_bytes().hex() == \
        "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
    want = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
    assert a.exchange(b.public_key()).hex() == want
    assert b.exchange(a.public_key()).hex() == want


def test_wycheproof_x25519():
    d = wycheproof_dir()
    if d is None:
        pytest.skip("Wycheproof vectors not found (TABAI_WYCHEPROOF_DIR)")
    data = json.loads((d / "x25519_test.json").read_text())
    counts = {"valid": 0, "invalid": 0, "acceptable": 0}
    for g in data["testGroups"]:
        for t in g["tests"]:
            counts[t["result"]] += 1
            k = bytes.fromhex(t["private"])
            u = bytes.fromhex(t["public"])
            shared = bytes.fromhex(t["shared"])
            what = f"tcId {t['tcId']} {t['comment']} {t['flags']}"
            zero = "ZeroSharedSecret" in t["flags"]
            if t["result"] == "valid" or (t["result"] == "acceptable" and not zero):
                assert ec.x25519(k, u) == shared, what
                key = ec.X25519PrivateKey.from_bytes(k)
                assert key.exchange(ec.X25519PublicKey.from_bytes(u)) == shared, what
            else:  # invalid, or an acceptable zero shared secret: refused
                assert shared == bytes(32) or t["result"] == "invalid", what
                with pytest.raises(ValueError):
                    ec.x25519(k, u)
    assert counts["valid"] > 0 and counts["acceptable"] > 0


@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_against_cryptography(k, u):
    try:
        want = cx.X25519PrivateKey.from_private_bytes(k).exchange(cx.X25519PublicKey.from_public_bytes(u))
    except ValueError:
        with pytest.raises(ValueError):
            ec.x25519(k, u)
        return
    assert ec.x25519(k, u) == want


def test_keys_interop_with_cryptography():
    for _ in range(5):
        ours = ec.X25519PrivateKey.generate()
        theirs = cx.X25519PrivateKey.generate()
        assert ours.to_cryptography().public_key().public_bytes_raw() == ours.public_key().to_bytes()
        s1 = ours.exchange(ec.X25519PublicKey.from_cryptography(theirs.public_key()))
        s2 = theirs.exchange(ours.public_key().to_cryptography())
        assert s1 == s2
        back = ec.X25519PrivateKey.from_cryptography(theirs)
        assert back.public_key().to_bytes() == theirs.public_key().public_bytes_raw()
    a, b = ec.X25519PrivateKey.generate(), ec.X25519PrivateKey.generate()
    assert a.to_bytes() != b.to_bytes()


def test_errors():
    with pytest.raises(ValueError, match="32 bytes"):
        ec.x25519(bytes(31), bytes(32))
    with pytest.raises(ValueError, match="32 bytes"):
        ec.x25519(bytes(32), bytes(33))
    with pytest.raises(TypeError):
        ec.x25519("00" * 32, bytes(32))
    with pytest.raises(ValueError, match="all zero"):
        ec.X25519PrivateKey.generate().exchange(ec.X25519PublicKey.from_bytes(bytes(32)))
    with pytest.raises(ValueError):
        ec.X25519PrivateKey.from_bytes(b"\x01" * 16)
    with pytest.raises(ValueError):
        ec.X25519PublicKey.from_bytes(b"\x01" * 33)
    with pytest.raises(TypeError):
        ec.X25519PrivateKey.generate().exchange(b"\x09" + bytes(31))
