"""tabai.ec's batches (exchange_batch, sign_batch, verify_batch) against the single methods
on every curve, at counts around the lane width (8), with bad signatures mixed in, against
``cryptography`` for ECDH, and from several threads at once (the GIL is released)."""

import hashlib
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptography.hazmat.primitives.asymmetric import ec as cec

from conftest import examples
from tabai import ec

CURVES = [ec.P256, ec.P384, ec.P521, ec.SECP256K1]
COUNTS = [0, 1, 7, 8, 9, 17]


def keys(c, count, seed):
    """count private keys of curve c, deterministic in seed."""
    out = []
    for i in range(count):
        d = int.from_bytes(hashlib.sha512(b"%d/%d/%s" % (seed, i, c.name.encode())).digest(), "big")
        out.append(ec.PrivateKey.from_int(c, d % (c.n - 1) + 1))
    return out


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("c", CURVES, ids=lambda c: c.name)
def test_exchange_batch(c, count):
    sks, peers = keys(c, count, 1), keys(c, count, 2)
    pks = [p.public_key() for p in peers]
    got = ec.exchange_batch(sks, pks)
    assert got == [s.exchange(p) for s, p in zip(sks, pks)]
    for s, p, g in zip(sks[:3], peers, got):  # against cryptography's ECDH
        assert s.to_cryptography().exchange(cec.ECDH(), p.public_key().to_cryptography()) == g


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("c", CURVES, ids=lambda c: c.name)
def test_sign_verify_batch(c, count):
    sks = keys(c, count, 3)
    pks = [s.public_key() for s in sks]
    msgs = [b"m%d" % i * (i + 1) for i in range(count)]
    for enc in ("der", "p1363"):
        for low_s in (False, True):
            sigs = ec.sign_batch(sks, msgs, "sha256", encoding=enc, low_s=low_s)
            assert sigs == [s.sign(m, "sha256", encoding=enc, low_s=low_s)
                            for s, m in zip(sks, msgs)]
            assert ec.verify_batch(pks, sigs, msgs, "sha256", encoding=enc, low_s=low_s) == \
                [True] * count
    # bad items mixed in: each fails alone
    sigs = ec.sign_batch(sks, msgs, "sha256", encoding="p1363")
    want = [True] * count
    bad = list(sigs)
    for i in range(1, count, 3):
        bad[i] = bytes([bad[i][0] ^ 1]) + bad[i][1:]  # r changed
        want[i] = False
    for i in range(2, count, 5):
        bad[i] = b"\x00" * len(bad[i])  # r = s = 0
        want[i] = False
    wrong = list(msgs)
    if count > 4:
        wrong[4] = b"another message"
        want[4] = False
    assert ec.verify_batch(pks, bad, wrong, "sha256", encoding="p1363") == want
    for i, w in enumerate(want):
        if not w:
            with pytest.raises(ec.InvalidSignature):
                pks[i].verify(bad[i], wrong[i], "sha256", encoding="p1363")


def test_verify_batch_malformed_is_false():
    sks = keys(ec.P256, 3, 4)
    msgs = [b"a", b"b", b"c"]
    sigs = ec.sign_batch(sks, msgs)
    sigs[1] = b"\x30\x00"  # not DER of (r, s)
    assert ec.verify_batch([s.public_key() for s in sks], sigs, msgs) == [True, False, True]


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(min_value=1), st.integers(min_value=1), st.binary(max_size=40),
       st.sampled_from(CURVES))
def test_batch_matches_single(d1, d2, msg, c):
    a = ec.PrivateKey.from_int(c, d1 % (c.n - 1) + 1)
    b = ec.PrivateKey.from_int(c, d2 % (c.n - 1) + 1)
    assert ec.exchange_batch([a, b], [b.public_key(), a.public_key()]) == \
        [a.exchange(b.public_key())] * 2
    sigs = ec.sign_batch([a, b], [msg, msg], "sha384")
    assert sigs == [a.sign(msg, "sha384"), b.sign(msg, "sha384")]
    assert ec.verify_batch([b.public_key(), a.public_key()], sigs, [msg, msg], "sha384") == \
        [a.public_key() == b.public_key()] * 2


def test_errors():
    p256, k1 = keys(ec.P256, 2, 5), keys(ec.SECP256K1, 1, 5)
    with pytest.raises(ValueError):
        ec.exchange_batch(p256, [p256[0].public_key()])  # lengths
    with pytest.raises(ValueError):
        ec.exchange_batch([p256[0], k1[0]], [p256[1].public_key()] * 2)  # mixed curves
    with pytest.raises(ValueError):
        ec.exchange_batch([p256[0]], [k1[0].public_key()])  # peer on another curve
    with pytest.raises(TypeError):
        ec.sign_batch([b"not a key"], [b"m"])
    with pytest.raises(ValueError):
        ec.sign_batch(p256, [b"a", b"b"], hash="md5")
    with pytest.raises(ValueError):
        ec.verify_batch([p256[0].public_key()], [b"x"], [b"m"], encoding="raw")
    assert ec.exchange_batch([], []) == [] and ec.sign_batch([], []) == []
    assert ec.verify_batch([], [], []) == []


def test_threads():
    """The C call runs without the GIL: four threads at once get the single results."""
    sks = keys(ec.P256, 16, 6)
    msgs = [b"t%d" % i for i in range(16)]
    want = [s.sign(m) for s, m in zip(sks, msgs)]
    got, errs = [None] * 4, []

    def run(t):
        try:
            got[t] = ec.sign_batch(sks, msgs)
        except Exception as ex:  # reported below
            errs.append(ex)

    ts = [threading.Thread(target=run, args=(t,)) for t in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errs and all(g == want for g in got)
