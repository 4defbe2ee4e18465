"""tabai._core.powmod2_vartime (a1**e1 * a2**e2 mod m) against the builtin pow."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tabai import _core
from conftest import examples
from helpers import NAMED_PRIMES, exponents, hexid, moduli, operand, outcome

f = _core.powmod2_vartime


def want(a1, e1, a2, e2, m):
    return pow(a1, e1, m) * pow(a2, e2, m) % m


@given(data=st.data())
@settings(max_examples=examples(150))
def test_matches_pow(data):
    m = data.draw(moduli(), label="m")
    a1, a2 = data.draw(operand(m), label="a1"), data.draw(operand(m), label="a2")
    mb = 600 if m.bit_length() <= 2048 else 130
    e1, e2 = data.draw(exponents(max_bits=mb), label="e1"), data.draw(exponents(max_bits=mb), label="e2")
    assert outcome(f, a1, e1, a2, e2, m) == outcome(want, a1, e1, a2, e2, m)


@given(m=moduli(max_bits=2100), a1=st.integers(0, 2**2100), a2=st.integers(0, 2**2100),
       e1=st.integers(0, 2**300), e2=st.integers(0, 2**2100))
@example(m=2**2048 - 1, a1=2, a2=3, e1=2**256 - 1, e2=1)
@example(m=2**64 + 1, a1=0, a2=0, e1=0, e2=0)
@settings(max_examples=examples(60))
def test_different_lengths(m, a1, a2, e1, e2):
    """One exponent much shorter than the other, in both orders."""
    assert f(a1, e1, a2, e2, m) == want(a1, e1, a2, e2, m)
    assert f(a2, e2, a1, e1, m) == want(a1, e1, a2, e2, m)


@pytest.mark.parametrize("name", sorted(NAMED_PRIMES))
def test_named_primes(name):
    """The DSA shape: 256-bit exponents on the embedded primes, and edge bases."""
    p = NAMED_PRIMES[name]
    e1, e2 = 3**160 % 2**256, 5**110 % 2**256
    for a1, a2 in [(2, 3), (p - 1, p - 1), (0, p // 3), (1, p - 2), (p // 7, p // 5)]:
        assert f(a1, e1, a2, e2, p) == want(a1, e1, a2, e2, p)
        assert f(a1, 0, a2, 1, p) == a2 % p
        assert f(a1, 1, a2, 0, p) == a1 % p


def test_edge_cases():
    for m in (1, 2, 3, 4, 2**64 - 1, 2**64, 2**64 + 1, 2**128):
        for a1 in (0, 1, -1, m - 1, m + 1):
            for a2 in (0, 1, m - 1, 2 * m + 1):
                for e1, e2 in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 3), (-1, 2), (2**64 - 1, 2**64), (-2, -1)]:
                    got, exp = outcome(f, a1, e1, a2, e2, m), outcome(want, a1, e1, a2, e2, m)
                    assert got == exp, (a1, e1, a2, e2, m)


@pytest.mark.parametrize("m", [2**256 - 189, 2**256, 6 * 2**300 + 6, 1000003], ids=hexid)
def test_long_exponents(m):
    """Exponents beyond one C call (> 16384 bits) go through two exponentiations."""
    e = 2**20000 + 3**6000
    for a1, a2 in [(3, m - 1), (2**200 + 7, 5)]:
        assert f(a1, e, a2, 65537, m) == want(a1, e, a2, 65537, m)
        assert f(a1, 17, a2, e, m) == want(a1, 17, a2, e, m)


def test_errors():
    with pytest.raises(ValueError, match="modulus"):
        f(2, 3, 4, 5, 0)
    with pytest.raises(ValueError, match="modulus"):
        f(2, 3, 4, 5, -7)
    with pytest.raises(ValueError):
        f(2, 3, 4, 5, 2**8192 + 1)
    with pytest.raises(ValueError, match="not invertible"):
        f(2, 3, 6, -1, 9)
    for pos in range(5):
        args = [2, 3, 4, 5, 7]
        args[pos] = "3"
        with pytest.raises(TypeError):
            f(*args)


@given(m=moduli(max_bits=2100, odd=True), a1=st.integers(-(2**2100), 2**2100),
       a2=st.integers(0, 2**2100), e1=st.integers(0, 2**300), e2=st.integers(-5, 2**600))
@settings(max_examples=examples(40))
def test_montgomery_pow2_vartime(m, a1, a2, e1, e2):
    """The context method gives powmod2_vartime's results and exceptions."""
    ctx = _core.Montgomery(m)
    assert outcome(ctx.pow2_vartime, a1, e1, a2, e2) == outcome(want, a1, e1, a2, e2, m)


@given(m=moduli(max_bits=2100, odd=True), g=st.integers(0, 2**2100), ebits=st.integers(1, 400),
       rows=st.one_of(st.none(), st.integers(1, 6)), data=st.data())
@settings(max_examples=examples(60))
def test_fixed_base(m, g, ebits, rows, data):
    fb = _core.FixedBase(m, g, ebits, rows)
    assert fb.ebits == ebits and 1 <= fb.rows <= 6
    for e in (0, 1, 2**ebits - 1, data.draw(st.integers(0, 2**ebits - 1), label="e")):
        assert fb.pow(e) == pow(g, e, m)
    with pytest.raises(ValueError):
        fb.pow(2**ebits)
    with pytest.raises(ValueError):
        fb.pow(-1)


def test_fixed_base_errors():
    with pytest.raises(ValueError):
        _core.FixedBase(10, 3, 64)  # even modulus
    with pytest.raises(ValueError):
        _core.FixedBase(11, 3, 0)
    with pytest.raises(ValueError):
        _core.FixedBase(11, 3, 64, 7)
    with pytest.raises(TypeError):
        _core.FixedBase(11, "3", 64)


def test_dsa_verify_both_paths():
    """A key object verifies by Straus first, then by the two combs: same answers."""
    cdsa = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.dsa")
    from tabai import InvalidSignature, dsa

    key = dsa.PrivateKey.from_cryptography(cdsa.generate_private_key(2048))
    pub = dsa.PublicKey(key.params, key.public_key().y)
    sigs = [key.sign(b"m%d" % i) for i in range(3)]
    for round_ in range(3):
        for i, sig in enumerate(sigs):
            pub.verify(sig, b"m%d" % i)
            with pytest.raises(InvalidSignature):
                pub.verify(sig, b"other")
    assert pub._ytab is not None
