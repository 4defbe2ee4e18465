"""tabai.powmod and tabai.powmod_vartime against the builtin pow(b, e, m)."""

import decimal
import fractions

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabai
from conftest import examples
from helpers import NAMED_PRIMES, exponents, hexid, moduli, operand, outcome

POWMODS = [tabai.powmod, tabai.powmod_vartime]


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
@given(data=st.data())
@settings(max_examples=examples(150))
def test_matches_pow(f, data):
    m = data.draw(moduli(), label="m")
    b = data.draw(operand(m), label="b")
    e = data.draw(exponents(max_bits=600 if m.bit_length() <= 2048 else 130), label="e")
    assert outcome(f, b, e, m) == outcome(pow, b, e, m)


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
@given(m=moduli(max_bits=1100), b=st.integers(-(2**1200), 2**1200), e=st.integers(0, 2**1100))
@settings(max_examples=examples(60))
def test_full_length_exponent(f, m, b, e):
    assert f(b, e, m) == pow(b, e, m)


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("name", sorted(NAMED_PRIMES))
def test_named_primes_fermat(f, name):
    p = NAMED_PRIMES[name]
    for b in (2, 3, p - 1, p // 3):
        assert f(b, p - 1, p) == 1
        assert f(b, p - 2, p) == pow(b, -1, p)
        assert f(b, -1, p) == pow(b, -1, p)


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("m", [2**8192 - 1, 2**8191 + 1, 2**8191, 2**8192 - 2, (2**8192 - 1) // 3], ids=hexid)
def test_8192_bits(f, m):
    b = 3**5000 % m
    for e in (0, 1, 2, 2**64 + 1, 3**400):
        assert f(b, e, m) == pow(b, e, m)
    assert f(-b, 65537, m) == pow(-b, 65537, m)


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "m", [2**256 - 189, 2**256, 6 * 2**300 + 6, 2**64 - 59, 1000003, 2**130 - 5], ids=hexid
)
@pytest.mark.parametrize("ebits", [16383, 16384, 16385, 20000, 40001])
def test_long_exponents(f, m, ebits):
    """Exponents beyond one C call (> 16384 bits) are chunked by the binding."""
    e = 2 ** (ebits - 1) + 3**6000 % 2 ** (ebits - 1) + 12345
    for b in (3, m - 1, 2**200 + 7):
        assert f(b, e, m) == pow(b, e, m)
        if m % 2 and m > 2:
            assert f(b, -e, m) == pow(b, -e, m)


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
def test_edge_cases(f):
    for m in (1, 2, 3, 4, 2**64 - 1, 2**64, 2**64 + 1, 2**128):
        for b in (0, 1, -1, m - 1, m, m + 1, -m, 2 * m + 1):
            for e in (0, 1, 2, 3, -1, -2, 2**64 - 1, 2**64):
                assert outcome(f, b, e, m) == outcome(pow, b, e, m), (b, e, m)


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
def test_modulus_one(f):
    for b, e in [(0, 0), (5, 0), (0, -1), (7, -3), (-(2**9000), 2**9000)]:
        assert f(b, e, 1) == pow(b, e, 1) == 0


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
def test_not_invertible(f):
    for b, m in [(0, 7), (2, 4), (6, 9), (2**64, 2**65), (2**255 - 19, (2**255 - 19) * 3)]:
        with pytest.raises(ValueError, match="base is not invertible for the given modulus"):
            f(b, -1, m)
        with pytest.raises(ValueError):
            pow(b, -1, m)


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("m", [0, -1, -7, -(2**300)])
def test_bad_modulus(f, m):
    with pytest.raises(ValueError, match="modulus"):
        f(3, 5, m)
    if m == 0:
        with pytest.raises(ValueError):
            pow(3, 5, m)


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
def test_modulus_too_large(f):
    assert f(3, 5, 2**8192 - 1) == pow(3, 5, 2**8192 - 1)
    for m in (2**8192, 2**8192 + 1, 2**20000 + 1):
        with pytest.raises(ValueError, match="8192"):
            f(3, 5, m)


BAD = [2.0, 1.5, "7", b"7", None, 3 + 0j, decimal.Decimal(7), fractions.Fraction(7, 1), [7]]


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad", BAD, ids=repr)
@pytest.mark.parametrize("pos", [0, 1, 2])
def test_type_errors(f, bad, pos):
    args = [3, 5, 7]
    args[pos] = bad
    with pytest.raises(TypeError):
        f(*args)
    # the builtin agrees where it has no meaning of its own for the type
    # (pow(b, e, None) is 2-argument pow, Decimal has a 3-argument pow, complex ValueError)
    if not isinstance(bad, (complex, decimal.Decimal)) and not (bad is None and pos == 2):
        with pytest.raises(TypeError):
            pow(*args)


def test_type_error_message():
    with pytest.raises(TypeError, match=r"powmod\(\) argument 'm' must be int, not float"):
        tabai.powmod(3, 5, 7.0)
    with pytest.raises(TypeError, match=r"powmod_vartime\(\) argument 'e' must be int, not str"):
        tabai.powmod_vartime(3, "5", 7)


class Index:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


@pytest.mark.parametrize("f", POWMODS, ids=lambda f: f.__name__)
def test_int_likes(f):
    assert f(True, 2, 3) == pow(True, 2, 3)
    assert f(3, True, 5) == 3
    assert f(Index(3), Index(-1), Index(7)) == pow(3, -1, 7)

    class MyInt(int):
        pass

    assert f(MyInt(10), MyInt(3), MyInt(2**64 + 13)) == pow(10, 3, 2**64 + 13)
    assert type(f(MyInt(10), 3, 7)) is int


def test_numpy_ints():
    np = pytest.importorskip("numpy")
    assert tabai.powmod(np.int64(3), np.uint8(5), np.int32(7)) == pow(3, 5, 7)
    with pytest.raises(TypeError):
        tabai.powmod(np.float64(3), 5, 7)


def test_wrong_arity():
    with pytest.raises(TypeError):
        tabai.powmod(3, 5)
    with pytest.raises(TypeError):
        tabai.powmod(3, 5, 7, 9)
