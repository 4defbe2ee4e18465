"""tabai.powmod_batch (1, 2 threads and every core) and tabai.RSAKey against the builtin pow, at the tier in use
(the AVX-512 IFMA lanes at tier ifma, the scalar loop below it), and the PEM keys of
data/keys read with `cryptography`."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabai
from conftest import examples

ROOT = Path(__file__).resolve().parents[2]


def odd_moduli(max_bits=4200):
    return st.integers(1, max_bits).flatmap(
        lambda b: st.integers(2 ** (b - 1), 2**b - 1)).map(lambda m: m | 1).filter(lambda m: m >= 3)


@given(data=st.data(), count=st.integers(0, 19))
@settings(max_examples=examples(40))
def test_powmod_batch_matches_pow(data, count):
    mods = [data.draw(odd_moduli(), label="m") for _ in range(count)]
    bases = [data.draw(st.integers(-(2**4300), 2**4300), label="b") for _ in mods]
    exps = [data.draw(st.integers(0, 2**300), label="e") for _ in mods]
    want = [pow(b, e, m) for b, e, m in zip(bases, exps, mods)]
    assert tabai.powmod_batch(bases, exps, mods) == want
    assert tabai.powmod_batch(bases, exps, mods, threads=1) == want
    assert tabai.powmod_batch(bases, exps, mods, threads=3) == want


def test_powmod_batch_edges():
    p = 2**255 - 19
    mods = [3, p, 2**4096 - 1, 2**4097 - 1, 2**8191 - 1, p, p, p, p]  # > 4096 bits: scalar loop
    bases = [2, p - 1, 2**4095, 5, 7, 0, 1, -1, p]
    exps = [0, p - 2, 3, 2**64, 65537, 5, 2**300 - 1, 3, 7]
    assert tabai.powmod_batch(bases, exps, mods) == [pow(b, e, m) for b, e, m in zip(bases, exps, mods)]
    assert tabai.powmod_batch([], [], []) == []


@pytest.mark.parametrize(
    "args, exc, text",
    [
        (([1], [1], [4]), ValueError, "odd and >= 3"),
        (([1], [1], [1]), ValueError, "odd and >= 3"),
        (([1], [1], [-7]), ValueError, "odd and >= 3"),
        (([1], [-1], [7]), ValueError, "exponents must be >= 0"),
        (([1, 2], [1], [7]), ValueError, "same length"),
        (([1], [1], [2**8193 + 1]), ValueError, None),
        (([1.0], [1], [7]), TypeError, "must be int"),
        ((1, [1], [7]), TypeError, "sequence of ints"),
        ((["3"], [1], [7]), TypeError, "must be int"),
        (([1], [1], [7], 0), ValueError, "threads"),
    ],
)
def test_powmod_batch_errors(args, exc, text):
    with pytest.raises(exc, match=text):
        tabai.powmod_batch(*args)


def raw_key(nums):
    pub = nums.public_numbers
    return tabai.RSAKey(pub.n, pub.e, nums.d, nums.p, nums.q, nums.dmp1, nums.dmq1, nums.iqmp)


def pem_key(bits):
    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    return serialization.load_pem_private_key((ROOT / "data" / "keys" / f"rsa-{bits}.pem").read_bytes(),
                                              password=None)


@pytest.mark.parametrize("bits", [2048, 3072, 4096])
def test_rsa_private_batch_pem_keys(bits):
    key = pem_key(bits)
    nums = key.private_numbers()
    k = raw_key(nums)
    n, e, d = nums.public_numbers.n, nums.public_numbers.e, nums.d
    assert k.n == n and k.bits == bits and k.e == e
    msgs = [0, 1, 2, n - 1, n - 2] + [pow(3, i + 100, n) for i in range(12)]
    out = k.private_batch(msgs)
    assert out == [pow(c, d, n) for c in msgs]
    assert k.private_batch(msgs, threads=1) == out == k.private_batch(msgs, threads=2)
    pub = tabai.RSAPublicKey(n, e)
    assert pub.public_batch(out) == msgs == pub.public_batch(out, threads=2)
    assert k.public(out[5]) == msgs[5]
    assert all(pow(m, e, n) == c for m, c in zip(out, msgs))  # the public operation
    assert k.private(msgs[7]) == out[7]


def test_rsa_sign_matches_cryptography():
    """tabai's raw private operation on a PKCS #1 v1.5 encoded message is the signature
    `cryptography` (OpenSSL) makes."""
    hashes = pytest.importorskip("cryptography.hazmat.primitives.hashes")
    padding = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.padding")
    key = pem_key(2048)
    nums = key.private_numbers()
    k = raw_key(nums)
    msg = b"tabai"
    sig = key.sign(msg, padding.PKCS1v15(), hashes.SHA256())
    h = hashes.Hash(hashes.SHA256())
    h.update(msg)
    digest_info = bytes.fromhex("3031300d060960864801650304020105000420") + h.finalize()
    em = b"\x00\x01" + b"\xff" * (256 - 3 - len(digest_info)) + b"\x00" + digest_info
    assert k.private(int.from_bytes(em, "big")).to_bytes(256, "big") == sig


def test_rsa_key_errors():
    """Every check of the key setup raises ValueError naming it."""
    key = pem_key(2048)
    nums = key.private_numbers()
    n, e = nums.public_numbers.n, nums.public_numbers.e
    args = dict(n=n, e=e, d=nums.d, p=nums.p, q=nums.q, dp=nums.dmp1, dq=nums.dmq1, qinv=nums.iqmp)
    cases = [
        (dict(qinv=nums.iqmp ^ 2), "qInv"),
        (dict(dp=nums.dmp1 ^ 2), "dP"),
        (dict(dq=nums.dmq1 ^ 2), "dQ"),
        (dict(d=nums.d ^ 2), "d does not match"),
        (dict(p=nums.p ^ 1), "p or q even"),
        (dict(n=n ^ 4), r"p\*q != n"),
        (dict(e=e + 1), "exponent even"),
        (dict(e=1), "exponent even or < 3"),
        (dict(n=2**1000 + 1), "1024..8192"),
        (dict(dp=-1), "dp out of range"),
        (dict(e=2**64 + 1), "below 2\\*\\*64"),
    ]
    for change, text in cases:
        with pytest.raises(ValueError, match=text):
            tabai.RSAKey(**{**args, **change})
    with pytest.raises(TypeError):
        tabai.RSAKey(**{**args, "qinv": "1"})
    k = tabai.RSAKey(**args)
    with pytest.raises(ValueError, match=r"\[0, n\)"):
        k.private_batch([n])
    with pytest.raises(ValueError, match=r"\[0, n\)"):
        k.private(-1)
    with pytest.raises(ValueError, match="threads"):
        k.private_batch([1], threads=0)
    with pytest.raises(ValueError):
        tabai.RSAPublicKey(n - 1, e)


def limbs_of(vals, n):
    np = pytest.importorskip("numpy")
    return np.array([[(v >> (64 * j)) & (2**64 - 1) for j in range(n)] for v in vals], dtype=np.uint64)


def int_of(row):
    return sum(int(x) << (64 * j) for j, x in enumerate(row))


@given(data=st.data(), count=st.integers(1, 19), n=st.integers(1, 70), k=st.integers(1, 5))
@settings(max_examples=examples(25))
def test_powmod_batch_limbs(data, count, n, k):
    mods = [data.draw(odd_moduli(64 * n), label="m") for _ in range(count)]
    bases = [data.draw(st.integers(0, m - 1), label="b") for m in mods]
    exps = [data.draw(st.integers(0, 2 ** (64 * k) - 1), label="e") for _ in mods]
    out = tabai.powmod_batch_limbs(limbs_of(bases, n), limbs_of(exps, k), limbs_of(mods, n))
    assert out.shape == (count, n) and str(out.dtype) == "uint64"
    assert [int_of(r) for r in out] == [pow(b, e, m) for b, e, m in zip(bases, exps, mods)]


def test_powmod_batch_limbs_errors():
    np = pytest.importorskip("numpy")
    m = limbs_of([2**127 - 1, 2**89 - 1], 2)
    b = limbs_of([5, 7], 2)
    e = limbs_of([3, 4], 1)
    with pytest.raises(ValueError, match="same shape"):
        tabai.powmod_batch_limbs(b[:1], e, m)
    with pytest.raises(ValueError):
        tabai.powmod_batch_limbs(m, e, m)  # b >= m
    with pytest.raises(ValueError):
        tabai.powmod_batch_limbs(b, e, limbs_of([2**127 - 1, 2**89], 2))  # even
    with pytest.raises(TypeError):
        tabai.powmod_batch_limbs([[5, 0], [7, 0]], e, m)  # not an array
    # other integer arrays (dtype, order) are converted: a copy, the same result
    want = tabai.powmod_batch_limbs(b, e, m)
    assert (tabai.powmod_batch_limbs(b.astype(np.int64), e, np.asfortranarray(m)) == want).all()
