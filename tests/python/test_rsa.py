"""tabai.rsa: keys through `cryptography`, RFC 8017 encodings checked against `cryptography`
(OpenSSL) both ways, the implicit rejection of PKCS #1 v1.5 decryption byte for byte against
OpenSSL, one error for every decryption failure, every Wycheproof RSA file (skipped when the
vectors are absent: TABAI_WYCHEPROOF_DIR or ../shared/vectors/wycheproof beside the
repository)."""

import json
import os
from pathlib import Path

import pytest

import tabai
from tabai import rsa

serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
hashes = pytest.importorskip("cryptography.hazmat.primitives.hashes")
cpad = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.padding")
crsa = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.rsa")

ROOT = Path(__file__).resolve().parents[2]
KEYS = {bits: (ROOT / "data" / "keys" / f"rsa-{bits}.pem").read_bytes() for bits in (2048, 3072, 4096)}


def c_key(bits):
    return serialization.load_pem_private_key(KEYS[bits], password=None)


@pytest.fixture(scope="module", params=[2048, 3072, 4096])
def pair(request):
    ck = c_key(request.param)
    return ck, rsa.PrivateKey.from_pem(KEYS[request.param])


def test_keys_round_trip(pair):
    ck, k = pair
    assert k.public_key().n == ck.public_key().public_numbers().n
    assert k.to_cryptography().private_numbers() == ck.private_numbers()
    assert rsa.PrivateKey.from_cryptography(ck).public_key() == k.public_key()
    der = ck.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                           serialization.NoEncryption())
    assert rsa.PrivateKey.from_der(der).public_key() == k.public_key()
    pem = ck.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                           serialization.BestAvailableEncryption(b"pw"))
    assert rsa.PrivateKey.from_pem(pem, password=b"pw").public_key() == k.public_key()
    pub = ck.public_key()
    spki = pub.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    assert rsa.PublicKey.from_pem(spki) == k.public_key()
    der = pub.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.PKCS1)
    assert rsa.PublicKey.from_der(der) == k.public_key()
    assert k.public_key().to_cryptography().public_numbers() == pub.public_numbers()


@pytest.mark.parametrize("h", ["sha1", "sha224", "sha256", "sha384", "sha512", "sha3_256"])
def test_pkcs1v15_signatures_identical(pair, h):
    ck, k = pair
    ch = getattr(hashes, h.upper().replace("3_", "3_"))()
    for msg in (b"", b"abc", os.urandom(1000)):
        sig = k.sign(msg, "pkcs1v15", h)
        assert sig == ck.sign(msg, cpad.PKCS1v15(), ch)
        k.public_key().verify(sig, msg, "pkcs1v15", ch)  # a cryptography hash object works too
        with pytest.raises(tabai.InvalidSignature):
            k.public_key().verify(sig, msg + b"x", "pkcs1v15", h)


def test_sign_batch_and_prehashed(pair):
    ck, k = pair
    msgs = [bytes([i]) * i for i in range(11)]
    sigs = k.sign_batch(msgs, threads=2)
    assert sigs == [ck.sign(m, cpad.PKCS1v15(), hashes.SHA256()) for m in msgs]
    import hashlib
    assert k.sign(hashlib.sha256(b"abc").digest(), prehashed=True) == k.sign(b"abc")
    for sig in k.sign_batch(msgs, padding="pss"):
        pass
    k.public_key().verify(sig, msgs[-1], "pss")


def test_pss_both_ways(pair):
    ck, k = pair
    msg = b"tabai pss"
    for h, ch in (("sha256", hashes.SHA256()), ("sha512", hashes.SHA512())):
        for slen in (None, 0, 20):
            sig = k.sign(msg, "pss", h, salt_length=slen)
            want = ch.digest_size if slen is None else slen
            ck.public_key().verify(sig, msg, cpad.PSS(cpad.MGF1(ch), want), ch)
            k.public_key().verify(sig, msg, "pss", h, salt_length=want)
            k.public_key().verify(sig, msg, "pss", h)  # any salt length
        theirs = ck.sign(msg, cpad.PSS(cpad.MGF1(ch), cpad.PSS.MAX_LENGTH), ch)
        k.public_key().verify(theirs, msg, "pss", h)
        with pytest.raises(tabai.InvalidSignature):
            k.public_key().verify(theirs, msg, "pss", h, salt_length=32)
        with pytest.raises(tabai.InvalidSignature):
            k.public_key().verify(theirs, msg + b"!", "pss", h)


def test_oaep_both_ways(pair):
    ck, k = pair
    for h, ch in (("sha1", hashes.SHA1()), ("sha256", hashes.SHA256())):
        for label in (b"", b"label"):
            oaep = cpad.OAEP(cpad.MGF1(ch), ch, label or None)
            for msg in (b"", b"x", b"secret" * 5):
                assert ck.decrypt(k.public_key().encrypt(msg, "oaep", h, label), oaep) == msg
                assert k.decrypt(ck.public_key().encrypt(msg, oaep), "oaep", h, label) == msg
            with pytest.raises(rsa.DecryptionError, match="^decryption failed$"):
                k.decrypt(ck.public_key().encrypt(b"m", oaep), "oaep", h, label + b"?")
    with pytest.raises(ValueError, match="too long"):
        k.public_key().encrypt(b"x" * k.size)


def test_pkcs1v15_encryption_and_implicit_rejection(pair):
    ck, k = pair
    pub = ck.public_key()
    for msg in (b"", b"pms" * 16):
        assert k.decrypt(pub.encrypt(msg, cpad.PKCS1v15()), "pkcs1v15") == msg
        assert ck.decrypt(k.public_key().encrypt(msg, "pkcs1v15"), cpad.PKCS1v15()) == msg
    # bad paddings: OpenSSL (3.2+, inside cryptography) answers with the synthetic message of
    # the implicit rejection; tabai must give the same bytes, and raise only without it
    n = k.public_key().n
    bad_ems = [b"\x00\x01" + b"\xff" * (k.size - 2), b"\x00\x02" + b"\x01" * (k.size - 2),
               b"\x00\x02" + b"\x00" * (k.size - 2), b"\x01" * k.size,
               b"\x00\x02" + b"\x01" * 6 + b"\x00" + b"\x05" * (k.size - 9)]
    for em in bad_ems:
        ct = k.public_key().public(int.from_bytes(em, "big") % n).to_bytes(k.size, "big")
        ours = k.decrypt(ct, "pkcs1v15")
        assert len(ours) <= k.size - 11
        try:
            theirs = ck.decrypt(ct, cpad.PKCS1v15())
        except ValueError:
            theirs = None  # an OpenSSL without implicit rejection
        if theirs is not None:
            assert ours == theirs
        with pytest.raises(rsa.DecryptionError):
            k.decrypt(ct, "pkcs1v15", implicit_rejection=False)
    for ct in (b"\x00" * (k.size - 1), (n).to_bytes(k.size, "big"), b"\xff" * k.size):
        for pad in ("oaep", "pkcs1v15"):
            with pytest.raises(rsa.DecryptionError, match="^decryption failed$"):
                k.decrypt(ct, pad)


def test_errors():
    k = rsa.PrivateKey.from_pem(KEYS[2048])
    with pytest.raises(ValueError, match="padding"):
        k.sign(b"", "raw")
    with pytest.raises(ValueError, match="unsupported hash"):
        k.sign(b"", hash="md4")
    with pytest.raises(TypeError):
        k.sign(b"", hash=5)
    with pytest.raises(ValueError, match="prehashed"):
        k.sign(b"abc", prehashed=True)
    with pytest.raises(tabai.InvalidSignature):
        k.public_key().verify(b"\x00" * 255, b"")
    with pytest.raises(ValueError, match="1024 to 8192"):
        rsa.PrivateKey.generate(512)
    nums = c_key(2048).private_numbers()
    with pytest.raises(ValueError, match="qInv"):
        rsa.PrivateKey(nums.public_numbers.n, nums.public_numbers.e, nums.d, nums.p, nums.q,
                       nums.dmp1, nums.dmq1, nums.iqmp + 2)
    ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    with pytest.raises(ValueError, match="not an RSA"):
        rsa.PrivateKey.from_pem(pem)


def test_generate():
    k = rsa.PrivateKey.generate(1024, e=3)
    assert k.bits == 1024 and k.public_key().e == 3
    assert k.decrypt(k.public_key().encrypt(b"hi")) == b"hi"


# ---- Wycheproof ----------------------------------------------------------------------------


def wycheproof_dir():
    env = os.environ.get("TABAI_WYCHEPROOF_DIR")
    d = Path(env) if env else ROOT.parent / "shared" / "vectors" / "wycheproof"
    return d if d.is_dir() else None


def wycheproof_files(prefix):
    d = wycheproof_dir()
    return sorted(d.glob(prefix + "*_test.json")) if d else []


def _load(path):
    if path is None:
        pytest.skip("Wycheproof vectors not found (set TABAI_WYCHEPROOF_DIR)")
    return json.loads(Path(path).read_text())


def _priv(g):
    return rsa.PrivateKey.from_pem(g["privateKeyPem"].encode())


def _pub(g):
    return rsa.PublicKey.from_pem((g.get("publicKeyPem") or g["keyPem"]).encode())


def _params(prefix):
    return pytest.mark.parametrize("path", wycheproof_files(prefix) or [None],
                                   ids=lambda p: p.name if p else "absent")


def _hash(name):
    return name.lower().replace("-", "")


@_params("rsa_signature_")
def test_wycheproof_pkcs1_verify(path):
    data = _load(path)
    for g in data["testGroups"]:
        pub = _pub(g)
        for t in g["tests"]:
            if t["result"] == "acceptable":
                continue
            try:
                pub.verify(bytes.fromhex(t["sig"]), bytes.fromhex(t["msg"]), "pkcs1v15", _hash(g["sha"]))
                ok = True
            except tabai.InvalidSignature:
                ok = False
            assert ok == (t["result"] == "valid"), (path.name, t["tcId"], t["comment"])


@_params("rsa_pkcs1_")
def test_wycheproof_pkcs1_sign_and_decrypt(path):
    data = _load(path)
    for g in data["testGroups"]:
        k = _priv(g)
        for t in g["tests"]:
            if data["schema"].startswith("rsassa_pkcs1_generate"):
                sig = k.sign(bytes.fromhex(t["msg"]), "pkcs1v15", _hash(g["sha"]))
                if t["result"] in ("valid", "acceptable"):
                    assert sig == bytes.fromhex(t["sig"]), (path.name, t["tcId"])
                else:
                    assert sig != bytes.fromhex(t["sig"]), (path.name, t["tcId"])
            else:
                ct = bytes.fromhex(t["ct"])
                try:
                    msg = k.decrypt(ct, "pkcs1v15", implicit_rejection=False)
                except rsa.DecryptionError:
                    msg = None
                if t["result"] == "valid":
                    assert msg == bytes.fromhex(t["msg"]), (path.name, t["tcId"])
                    assert k.decrypt(ct, "pkcs1v15") == msg
                elif t["result"] == "invalid":
                    assert msg is None, (path.name, t["tcId"], t["comment"])


@_params("rsa_pss_")
def test_wycheproof_pss_verify(path):
    data = _load(path)
    for g in data["testGroups"]:
        pub = _pub(g)
        for t in g["tests"]:
            if t["result"] == "acceptable":
                continue
            try:
                pub.verify(bytes.fromhex(t["sig"]), bytes.fromhex(t["msg"]), "pss", _hash(g["sha"]),
                           salt_length=g["sLen"], mgf_hash=_hash(g["mgfSha"]))
                ok = True
            except tabai.InvalidSignature:
                ok = False
            assert ok == (t["result"] == "valid"), (path.name, t["tcId"], t["comment"])


@_params("rsa_oaep_")
def test_wycheproof_oaep_decrypt(path):
    data = _load(path)
    for g in data["testGroups"]:
        k = _priv(g)
        assert _hash(g["mgfSha"]) == _hash(g["sha"])
        for t in g["tests"]:
            try:
                msg = k.decrypt(bytes.fromhex(t["ct"]), "oaep", _hash(g["sha"]), bytes.fromhex(t["label"]))
            except rsa.DecryptionError:
                msg = None
            if t["result"] == "valid":
                assert msg == bytes.fromhex(t["msg"]), (path.name, t["tcId"])
            elif t["result"] == "invalid":
                assert msg is None, (path.name, t["tcId"], t["comment"])
