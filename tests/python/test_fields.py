"""tabai.Montgomery and tabai.Ohta against Python ints, on every dispatch tier."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabai
from conftest import examples
from helpers import NAMED_PRIMES, SMALL_PRIMES, exponents, hexid, limbs, moduli, operand, outcome

FIELDS = [tabai.Montgomery, tabai.Ohta]


def check_all_methods(F, p, a, b, e):
    """Every method of F against Python ints (exceptions compared by type)."""
    assert F.mul(a, b) == a * b % p
    assert F.sqr(a) == a * a % p
    assert F.add(a, b) == (a + b) % p
    assert F.sub(a, b) == (a - b) % p
    assert F.neg(a) == -a % p
    assert outcome(F.inv, a) == outcome(pow, a, -1, p)
    assert outcome(F.pow, a, e) == outcome(pow, a, e, p)
    assert outcome(F.pow_vartime, a, e) == outcome(pow, a, e, p)


@st.composite
def field_case(draw, cls, max_bits=8192):
    p = draw(moduli(min_value=3 if cls is tabai.Montgomery else 2, max_bits=max_bits,
                    odd=cls is tabai.Montgomery))
    a = draw(operand(p))
    b = draw(operand(p))
    e = draw(exponents(max_bits=300 if p.bit_length() <= 2048 else 64))
    return p, a, b, e


@pytest.mark.parametrize("cls", FIELDS, ids=lambda c: c.__name__)
@given(data=st.data())
@settings(max_examples=examples(120))
def test_methods_match_ints(cls, data):
    p, a, b, e = data.draw(field_case(cls))
    F = cls(p)
    check_all_methods(F, p, a, b, e)


@pytest.mark.parametrize("cls", FIELDS, ids=lambda c: c.__name__)
@given(data=st.data())
@settings(max_examples=examples(40))
def test_many_operands_one_field(cls, data):
    p, _, _, _ = data.draw(field_case(cls, max_bits=1024))
    F = cls(p)
    for _ in range(10):
        a, b = data.draw(operand(p)), data.draw(operand(p))
        assert F.mul(a, b) == a * b % p
        assert F.sqr(b) == b * b % p


def edge_values(p):
    R = 2 ** (64 * limbs(p))
    return sorted({0, 1, 2, p - 2, p - 1, p, p + 1, -1, -p, R % p, R - 1, (R - 1) % p, p // 2,
                   p * p - 1, 2**64 - 1})


EDGE_MODULI = [3, 5, 2**64 - 59, 2**64 - 1, 2**64 + 1, 2**128 - 159, 2**127 + 1, 2**192 + 2**64 + 1,
               2**255 - 19, 2**256 - 1, 2**256 + 1, 2**320 + 1, 2**1024 - 105, 2**2048 - 1,
               2**4096 + 1, 2**8191 + 1, 2**8192 - 1]
EVEN_MODULI = [2, 4, 6, 2**63, 2**64, 2**64 + 2, 2**128, 2**255 + 2**100, 2**256, 2**256 - 2,
               2**1024, 3 * 2**2000, 2**8191, 2**8192 - 2]


EDGE_CASES = [(tabai.Montgomery, p) for p in EDGE_MODULI] + [
    (tabai.Ohta, p) for p in EDGE_MODULI + EVEN_MODULI]


@pytest.mark.parametrize("cls,p", EDGE_CASES, ids=lambda x: hexid(x) if isinstance(x, int) else x.__name__)
def test_edge_operands(cls, p):
    F = cls(p)
    vals = edge_values(p)
    for a in vals:
        for b in vals:
            assert F.mul(a, b) == a * b % p, (a, b)
            assert F.add(a, b) == (a + b) % p
            assert F.sub(a, b) == (a - b) % p
        assert F.sqr(a) == a * a % p
        assert F.neg(a) == -a % p
        assert outcome(F.inv, a) == outcome(pow, a, -1, p)
        for e in (0, 1, 2, -1, -2, 2**64 + 3) + ((p - 1,) if p.bit_length() <= 1100 else ()):
            assert outcome(F.pow, a, e) == outcome(pow, a, e, p)


@pytest.mark.parametrize("cls", FIELDS, ids=lambda c: c.__name__)
def test_long_exponent_chunks(cls):
    p = 2**255 - 19
    F = cls(p)
    e = 3**20000  # 31700 bits: two chunks of the binding
    assert F.pow(5, e) == pow(5, e, p)
    assert F.pow_vartime(5, -e) == pow(5, -e, p)


@pytest.mark.parametrize("name", sorted(NAMED_PRIMES))
def test_inv_prime(name):
    p = NAMED_PRIMES[name]
    F = tabai.Montgomery(p)
    for a in (1, 2, p - 1, p - 2, 3**100 % p, -5, p + 7):
        assert F.inv_prime(a) == pow(a, -1, p)
    with pytest.raises(ValueError):
        F.inv_prime(0)
    with pytest.raises(ValueError):
        F.inv_prime(p)


@pytest.mark.parametrize("p", SMALL_PRIMES)
def test_inv_prime_small(p):
    F = tabai.Montgomery(p)
    for a in range(1, min(p, 200)):
        assert F.inv_prime(a) == pow(a, -1, p)


@pytest.mark.parametrize("cls", FIELDS, ids=lambda c: c.__name__)
def test_inv_not_invertible(cls):
    for p, a in [(9, 3), (9, 6), (15, 5), (2**255 - 19, 0), (3 * (2**127 - 1), 2**127 - 1)]:
        F = cls(p)
        with pytest.raises(ValueError, match="not invertible"):
            F.inv(a)
        with pytest.raises(ValueError, match="base is not invertible for the given modulus"):
            F.pow(a, -1)


def test_ohta_even_inverse():
    for p in (2, 4, 2**64, 2**256, 6 * 2**100, 10**30):
        F = tabai.Ohta(p)
        for a in (1, 3, p - 1, 2**61 - 1, -7):
            assert outcome(F.inv, a) == outcome(pow, a, -1, p)


@pytest.mark.parametrize("cls,p", [(tabai.Montgomery, 2**255 - 19), (tabai.Ohta, 2**255 - 19),
                                   (tabai.Ohta, 2**256), (tabai.Montgomery, 3), (tabai.Ohta, 2)])
def test_attributes(cls, p):
    F = cls(p)
    assert F.p == p and type(F.p) is int
    assert F.bits == p.bit_length()
    assert F.limbs == limbs(p)
    assert F.tier in tabai.cpu()["tiers"]
    assert repr(F) == f"{cls.__name__}({hex(p)})"
    assert eval(repr(F), {cls.__name__: cls}).p == p


@pytest.mark.parametrize("p", [0, 1, 2, 4, 2**64, -3, -1, 2**8192 + 1, 2**9000 - 1])
def test_montgomery_bad_modulus(p):
    with pytest.raises(ValueError, match="modulus|8192"):
        tabai.Montgomery(p)


@pytest.mark.parametrize("p", [0, 1, -2, -(2**100), 2**8192, 2**8192 + 1])
def test_ohta_bad_modulus(p):
    with pytest.raises(ValueError, match="modulus|8192"):
        tabai.Ohta(p)


@pytest.mark.parametrize("bad", [3.0, "7", None, b"\x07", 7j, [7]], ids=repr)
@pytest.mark.parametrize("cls", FIELDS, ids=lambda c: c.__name__)
def test_type_errors(cls, bad):
    with pytest.raises(TypeError):
        cls(bad)
    F = cls(101)
    for call in (lambda: F.mul(bad, 1), lambda: F.mul(1, bad), lambda: F.sqr(bad),
                 lambda: F.add(bad, 1), lambda: F.sub(1, bad), lambda: F.neg(bad),
                 lambda: F.inv(bad), lambda: F.pow(bad, 3), lambda: F.pow(3, bad),
                 lambda: F.pow_vartime(3, bad)):
        with pytest.raises(TypeError, match="must be int"):
            call()
    if cls is tabai.Montgomery:
        with pytest.raises(TypeError):
            F.inv_prime(bad)


def test_largest_modulus():
    p = 2**8192 - 1
    assert tabai.Ohta(p).bits == 8192
    assert tabai.Montgomery(p).limbs == 128
    with pytest.raises(ValueError):
        tabai.Ohta(2**8192)


# ---- every dispatch tier in one process -------------------------------------------------
@pytest.fixture
def restore_tier():
    before = tabai.cpu()["tier"]
    yield
    tabai.set_tier(before)


@pytest.mark.parametrize("tier", tabai.cpu()["tiers"])
def test_every_tier(tier, restore_tier):
    assert tabai.set_tier(tier) == tier
    assert tabai.cpu()["tier"] == tier
    import random

    rng = random.Random(tier)
    for bits in [64, 65, 127, 128, 192, 255, 256, 320, 384, 448, 512, 521, 576, 640, 704, 768,
                 832, 896, 960, 1024, 1088, 2048, 3072, 4096, 8192]:
        p_odd = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        p_even = p_odd ^ 1
        for cls, p in [(tabai.Montgomery, p_odd), (tabai.Ohta, p_odd), (tabai.Ohta, p_even)]:
            F = cls(p)
            assert F.tier == tier
            a, b = rng.randrange(p), rng.randrange(p)
            check_all_methods(F, p, a, b, rng.getrandbits(min(bits, 256)))
        e = rng.getrandbits(bits if bits <= 1100 else 300)
        assert tabai.powmod(a, e, p_odd) == pow(a, e, p_odd)
        assert tabai.powmod(a, e, p_even) == pow(a, e, p_even)


def test_set_tier_errors(restore_tier):
    with pytest.raises(ValueError, match="unknown tier"):
        tabai.set_tier("pentium")
    with pytest.raises(TypeError):
        tabai.set_tier(3)
    assert tabai.set_tier("native") == tabai.cpu()["native"]
    assert tabai.set_tier("ifma") == tabai.cpu()["native"] or tabai.cpu()["native"] == "ifma"


def test_cpu():
    info = tabai.cpu()
    assert set(info) >= {"brand", "features", "native", "tier", "tiers"}
    assert isinstance(info["brand"], str) and isinstance(info["features"], list)
    assert info["tier"] in info["tiers"] and info["tiers"][-1] == info["native"]
    assert info["tiers"][0] == "generic"
