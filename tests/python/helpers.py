"""Input classes shared by the tabai Python tests (the named classes of STYLE.md):
uniform values of every size up to 8192 bits, long runs of 0 and 1 bits, edge limbs,
moduli 2^k +- c, top limb 1, all-ones, and the standard moduli written as their formulas."""

from hypothesis import strategies as st

MAX_BITS = 8192
EDGE_LIMBS = (0, 1, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1)

# Standard moduli by their defining formulas (public constants of the standards).
NAMED_PRIMES = {
    "2^61-1": 2**61 - 1,
    "2^127-1": 2**127 - 1,
    "secp256k1 p": 2**256 - 2**32 - 977,
    "P-256 p": 2**256 - 2**224 + 2**192 + 2**96 - 1,
    "2^255-19": 2**255 - 19,
    "P-384 p": 2**384 - 2**128 - 2**96 + 2**32 - 1,
    "P-521 p": 2**521 - 1,
    "2^607-1": 2**607 - 1,
    "2^1279-1": 2**1279 - 1,
    "2^2203-1": 2**2203 - 1,
    "2^4253-1": 2**4253 - 1,
}
SMALL_PRIMES = (3, 5, 7, 11, 13, 65537, 2**31 - 1)


def hexid(x: int) -> str:
    """A short test id for a big int: its bit length and the ends of its hex digits."""
    s = f"{x:x}"
    return f"{x.bit_length()}b:{s if len(s) <= 12 else s[:4] + '..' + s[-4:]}"


def limbs(x: int) -> int:
    return max(1, (x.bit_length() + 63) // 64)


@st.composite
def sized(draw, min_bits=1, max_bits=MAX_BITS):
    """A value of exactly `bits` bits, bits drawn with a bias to the limb boundaries."""
    bits = draw(
        st.one_of(
            st.integers(min_bits, max_bits),
            st.sampled_from([b for b in (64, 128, 192, 256, 384, 512, 521, 1024, 2048, 3072,
                                         4096, 8192) if min_bits <= b <= max_bits]),
            st.integers(1, max_bits // 64).map(lambda k: 64 * k).filter(lambda b: b >= min_bits),
        )
    )
    if bits == 0:
        return 0
    return draw(st.integers(2 ** (bits - 1), 2**bits - 1))


@st.composite
def from_edge_limbs(draw, max_limbs=MAX_BITS // 64):
    """A value whose limbs are all edge limbs (0, 1, 2^63-1, 2^63, 2^64-2, 2^64-1)."""
    ls = draw(st.lists(st.sampled_from(EDGE_LIMBS), min_size=1, max_size=max_limbs))
    return sum(v << (64 * i) for i, v in enumerate(ls))


@st.composite
def runs(draw, max_bits=MAX_BITS):
    """Long runs of 0 and 1 bits."""
    x, pos = 0, 0
    while pos < max_bits:
        length = draw(st.integers(1, 600))
        if draw(st.booleans()):
            x |= ((1 << length) - 1) << pos
        pos += length
        if draw(st.integers(0, 5)) == 0:
            break
    return x & ((1 << max_bits) - 1)


@st.composite
def special_modulus(draw, max_bits=MAX_BITS):
    """2^k +- c, top limb 1, all-ones, standard moduli."""
    kind = draw(st.integers(0, 4))
    if kind == 0:  # 2^k + c, 2^k - c
        k = draw(st.integers(1, max_bits - 1))
        c = draw(st.integers(0, 2**20))
        return 2**k + c if draw(st.booleans()) else max(1, 2 ** (k + 1) - c)
    if kind == 1:  # top limb 1
        n = draw(st.integers(2, max_bits // 64))
        return 2 ** (64 * (n - 1)) + draw(st.integers(0, 2 ** (64 * (n - 1)) - 1))
    if kind == 2:  # all ones, just below 2^(64n)
        n = draw(st.integers(1, max_bits // 64))
        return 2 ** (64 * n) - 1 - draw(st.integers(0, 64))
    if kind == 3:
        return draw(st.sampled_from(sorted(NAMED_PRIMES.values())))
    return draw(from_edge_limbs(max_limbs=max_bits // 64))


def moduli(min_value=1, max_bits=MAX_BITS, odd=False):
    """Moduli >= min_value of every class (small ones included), optionally only odd ones."""
    s = st.one_of(
        st.integers(min_value, 2**16),
        st.integers(min_value, 2**130),
        sized(max_bits=max_bits),
        special_modulus(max_bits=max_bits),
        runs(max_bits=max_bits),
    )
    s = s.filter(lambda m: min_value <= m < 2**max_bits)
    if odd:
        s = s.map(lambda m: m | 1).filter(lambda m: m >= max(3, min_value) and m < 2**max_bits)
    return s


@st.composite
def operand(draw, m):
    """An operand for modulus m: the edge values, anything in range, out of range, negative."""
    R = 2 ** (64 * limbs(m))
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return draw(st.sampled_from([0, 1, 2, m - 1, m - 2, m, m + 1, -1, -m, R % m, R - 1, m * m]))
    if choice == 1:
        return draw(st.integers(0, max(m - 1, 0)))
    if choice == 2:
        return draw(st.integers(-(2**MAX_BITS), 2 ** (MAX_BITS + 64)))
    if choice == 3:
        return draw(from_edge_limbs(max_limbs=limbs(m))) % max(m, 1)
    if choice == 4:
        return draw(runs(max_bits=max(1, m.bit_length())))
    return -draw(st.integers(0, 4 * m))


def exponents(max_bits=600):
    """Exponents of both signs; mostly short so that 8192-bit moduli stay fast."""
    return st.one_of(
        st.integers(-3, 70),
        st.integers(-(2**70), 2**70),
        sized(max_bits=max_bits),
        sized(max_bits=max_bits).map(lambda e: -e),
        st.sampled_from([2**64 - 1, 2**64, 2**128 - 1, 2**256 - 1]),
    )


def outcome(f, *args):
    """f(*args) as ("ok", value) or ("raise", exception type)."""
    try:
        return ("ok", f(*args))
    except Exception as ex:  # noqa: BLE001 - compared by type
        return ("raise", type(ex))
