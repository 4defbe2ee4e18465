"""Every Wycheproof ECDSA and ECDH file for P-256, P-384, P-521 and secp256k1 through tabai.ec.

valid: verifies / gives the shared secret; invalid: refused with the documented error
(ValueError for a malformed DER signature or a bad public key, tabai.InvalidSignature for a
well-formed signature that does not verify). The `acceptable` cases are decided in docs/ec.md
and checked here: a compressed public key is accepted (the secret must then be right);
in the secp256k1 ECDH file (public keys as X.509 SubjectPublicKeyInfo DER, parsed by
`cryptography`), a key that `cryptography` parses is used, and then the secret must be right.
"""

import json

import pytest

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization

import tabai
from ec_ref import wycheproof_dir
from tabai import ec

ECDSA_FILES = {
    "ecdsa_secp256r1_sha256_test.json": ("P-256", "sha256", False),
    "ecdsa_secp384r1_sha384_test.json": ("P-384", "sha384", False),
    "ecdsa_secp521r1_sha512_test.json": ("P-521", "sha512", False),
    "ecdsa_secp256k1_sha256_test.json": ("secp256k1", "sha256", False),
    "ecdsa_secp256k1_sha256_bitcoin_test.json": ("secp256k1", "sha256", True),
}
ECDH_POINT_FILES = {
    "ecdh_secp256r1_ecpoint_test.json": "P-256",
    "ecdh_secp384r1_ecpoint_test.json": "P-384",
    "ecdh_secp521r1_ecpoint_test.json": "P-521",
}


def load(name):
    d = wycheproof_dir()
    if d is None or not (d / name).exists():
        pytest.skip("Wycheproof vectors not found (TABAI_WYCHEPROOF_DIR)")
    return json.loads((d / name).read_text())


@pytest.mark.parametrize("name", sorted(ECDSA_FILES))
def test_ecdsa(name):
    curve_name, hname, low_s = ECDSA_FILES[name]
    c = ec.curve(curve_name)
    data = load(name)
    seen = {"valid": 0, "invalid": 0, "acceptable": 0}
    for g in data["testGroups"]:
        pk = ec.PublicKey.from_sec1(c, bytes.fromhex(g["publicKey"]["uncompressed"]))
        assert g["sha"].lower().replace("-", "") == hname
        for t in g["tests"]:
            seen[t["result"]] += 1
            sig, msg = bytes.fromhex(t["sig"]), bytes.fromhex(t["msg"])
            what = f"{name} tcId {t['tcId']} {t['comment']} {t['flags']}"
            if t["result"] == "valid":
                pk.verify(sig, msg, hname, low_s=low_s)
                continue
            assert t["result"] == "invalid", what  # these files have no acceptable case
            with pytest.raises((ValueError, tabai.InvalidSignature)) as info:
                pk.verify(sig, msg, hname, low_s=low_s)
            # ValueError exactly when the DER is not the strict encoding of two INTEGERs
            try:
                ec._sig_tuple(c, sig)
                decodes = True
            except ValueError:
                decodes = False
            if info.type is ValueError:
                assert not decodes, what
    assert seen["valid"] > 0 and seen["invalid"] > 0


def _private(c, hexstr):
    return ec.PrivateKey.from_int(c, int(hexstr, 16))


@pytest.mark.parametrize("name", sorted(ECDH_POINT_FILES))
def test_ecdh_sec1_points(name):
    c = ec.curve(ECDH_POINT_FILES[name])
    data = load(name)
    for g in data["testGroups"]:
        for t in g["tests"]:
            what = f"{name} tcId {t['tcId']} {t['comment']} {t['flags']}"
            sk = _private(c, t["private"])
            pub = bytes.fromhex(t["public"])
            if t["result"] == "valid" or t["result"] == "acceptable":
                # acceptable: compressed points only (docs/ec.md): accepted
                assert t["result"] == "valid" or "CompressedPublic" in t["flags"], what
                peer = ec.PublicKey.from_sec1(c, pub)
                assert sk.exchange(peer) == bytes.fromhex(t["shared"]), what
            else:
                with pytest.raises(ValueError):
                    sk.exchange(ec.PublicKey.from_sec1(c, pub))


def test_ecdh_secp256k1_spki():
    c = ec.SECP256K1
    data = load("ecdh_secp256k1_test.json")
    used = 0
    for g in data["testGroups"]:
        for t in g["tests"]:
            what = f"tcId {t['tcId']} {t['comment']} {t['flags']}"
            sk = _private(c, t["private"])
            try:
                ckey = serialization.load_der_public_key(bytes.fromhex(t["public"]))
                shared = sk.exchange(ec.PublicKey.from_cryptography(ckey))
            except (ValueError, TypeError, UnsupportedAlgorithm):
                assert t["result"] != "valid", what
                continue
            assert t["result"] != "invalid", what
            assert shared == bytes.fromhex(t["shared"]), what
            used += 1
    assert used > 0
