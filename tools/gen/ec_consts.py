#!/usr/bin/env python3
"""Curve constants of src/ec (the short-Weierstrass curves of tabai_ec.h).

The parameters are the published ones (FIPS 186-5 / NIST SP 800-186 section 3.2.1 for P-256,
P-384, P-521; SEC 2 v2 section 2.4.1 for secp256k1). Everything else (Montgomery constants,
R^2, the curve constants in Montgomery form, the exponents of inversion and square root) is
derived here, and each curve is checked: p and n prime (Miller-Rabin), p = 3 mod 4, G on the
curve, n G = infinity, the NIST primes' special forms.

    python3 tools/gen/ec_consts.py --out src/ec/curves.c
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from moduli import is_probable_prime  # noqa: E402 (the generators' one Miller-Rabin)

CURVES = [
    dict(
        ident="P256", name="P-256",
        p=2**256 - 2**224 + 2**192 + 2**96 - 1,
        a=-3,
        b=0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B,
        gx=0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
        gy=0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
        n=0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551,
    ),
    dict(
        ident="P384", name="P-384",
        p=2**384 - 2**128 - 2**96 + 2**32 - 1,
        a=-3,
        b=0, gx=0, gy=0, n=0,  # below, in 32-bit groups as the standard prints them
    ),
    dict(
        ident="P521", name="P-521",
        p=2**521 - 1,
        form="MERSENNE",
        a=-3,
        b=0, gx=0, gy=0, n=0,  # below
    ),
    dict(
        ident="SECP256K1", name="secp256k1",
        p=2**256 - 2**32 - 977,
        a=0,
        b=7,
        gx=0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
        gy=0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8,
        n=0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141,
    ),
]


def h(*parts):
    """An integer from hex groups (the standards print long constants in 32-bit groups)."""
    return int("".join(parts), 16)


CURVES[1].update(
    b=h("B3312FA7", "E23EE7E4", "988E056B", "E3F82D19", "181D9C6E", "FE814112",
        "0314088F", "5013875A", "C656398D", "8A2ED19D", "2A85C8ED", "D3EC2AEF"),
    gx=h("AA87CA22", "BE8B0537", "8EB1C71E", "F320AD74", "6E1D3B62", "8BA79B98",
         "59F741E0", "82542A38", "5502F25D", "BF55296C", "3A545E38", "72760AB7"),
    gy=h("3617DE4A", "96262C6F", "5D9E98BF", "9292DC29", "F8F41DBD", "289A147C",
         "E9DA3113", "B5F0B8C0", "0A60B1CE", "1D7E819D", "7A431D7C", "90EA0E5F"),
    n=h("FFFFFFFF", "FFFFFFFF", "FFFFFFFF", "FFFFFFFF", "FFFFFFFF", "FFFFFFFF",
        "C7634D81", "F4372DDF", "581A0DB2", "48B0A77A", "ECEC196A", "CCC52973"),
)
CURVES[2].update(
    b=h("0051", "953EB961", "8E1C9A1F", "929A21A0", "B68540EE", "A2DA725B", "99B315F3",
        "B8B48991", "8EF109E1", "56193951", "EC7E937B", "1652C0BD", "3BB1BF07", "3573DF88",
        "3D2C34F1", "EF451FD4", "6B503F00"),
    gx=h("00C6", "858E06B7", "0404E9CD", "9E3ECB66", "2395B442", "9C648139", "053FB521",
         "F828AF60", "6B4D3DBA", "A14B5E77", "EFE75928", "FE1DC127", "A2FFA8DE", "3348B3C1",
         "856A429B", "F97E7E31", "C2E5BD66"),
    gy=h("0118", "39296A78", "9A3BC004", "5C8A5FB4", "2C7D1BD9", "98F54449", "579B4468",
         "17AFBD17", "273E662C", "97EE7299", "5EF42640", "C550B901", "3FAD0761", "353C7086",
         "A272C240", "88BE9476", "9FD16650"),
    n=h("01FF", "FFFFFFFF", "FFFFFFFF", "FFFFFFFF", "FFFFFFFF", "FFFFFFFF", "FFFFFFFF",
        "FFFFFFFF", "FFFFFFFA", "51868783", "BF2F966B", "7FCC0148", "F709A5D0", "3BB5C9B8",
        "899C47AE", "BB6FB71E", "91386409"),
)


def ec_add(P, Q, a, p):
    """Affine addition with None for infinity (the check of n G only)."""
    if P is None:
        return Q
    if Q is None:
        return P
    (x1, y1), (x2, y2) = P, Q
    if x1 == x2 and (y1 + y2) % p == 0:
        return None
    if P == Q:
        lam = (3 * x1 * x1 + a) * pow(2 * y1, -1, p) % p
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (lam * lam - x1 - x2) % p
    return x3, (lam * (x1 - x3) - y1) % p


def ec_mul(k, P, a, p):
    R = None
    for bit in bin(k)[2:]:
        R = ec_add(R, R, a, p)
        if bit == "1":
            R = ec_add(R, P, a, p)
    return R


def check(c):
    p, n, a, b = c["p"], c["n"], c["a"] % c["p"], c["b"]
    G = (c["gx"], c["gy"])
    assert is_probable_prime(p) and is_probable_prime(n), c["name"]
    assert p % 4 == 3, c["name"]
    assert (G[1] ** 2 - G[0] ** 3 - a * G[0] - b) % p == 0, c["name"] + ": G not on the curve"
    assert ec_mul(n, G, a, p) is None, c["name"] + ": n G != infinity"
    assert (4 * a**3 + 27 * b * b) % p != 0
    assert n < p < 2 * n, c["name"]  # x mod n is one conditional subtraction


GLV_BITS = 129  # |k1|, |k2| < 2^GLV_BITS after the decomposition (checked below)


def sqrt_mod(a, m):
    """A square root of a modulo the prime m (Tonelli-Shanks)."""
    a %= m
    if m % 4 == 3:
        r = pow(a, (m + 1) // 4, m)
    else:
        q, s = m - 1, 0
        while q % 2 == 0:
            q, s = q // 2, s + 1
        z = 2
        while pow(z, (m - 1) // 2, m) != m - 1:
            z += 1
        mm, c, t, r = s, pow(z, q, m), pow(a, q, m), pow(a, (q + 1) // 2, m)
        while t != 1:
            i, t2 = 0, t
            while t2 != 1:
                t2, i = t2 * t2 % m, i + 1
            b = pow(c, 1 << (mm - i - 1), m)
            mm, c, t, r = i, b * b % m, t * b * b % m, r * b % m
    assert r * r % m == a
    return r


def glv(c):
    """The GLV endomorphism of an a = 0 curve (Gallant, Lambert, Vanstone, CRYPTO 2001):
    lambda, a cube root of 1 mod n, and beta, one mod p, with lambda (x, y) = (beta x, y);
    the short lattice basis (a1, b1), (a2, b2) of section 4 by the extended Euclidean
    algorithm on (n, lambda); g1 = round(2^384 b2 / n), g2 = round(2^384 (-b1) / n), so
    that c1 = round(k g1 / 2^384), c2 = round(k g2 / 2^384), k2 = -(c1 b1 + c2 b2) and
    k1 = k - k2 lambda mod n have at most GLV_BITS bits in absolute value."""
    p, n = c["p"], c["n"]
    G = (c["gx"], c["gy"])
    for lam0 in ((-1 + sqrt_mod(-3, n)) * pow(2, -1, n) % n,):
        for lam in (lam0, lam0 * lam0 % n):
            for beta in ((-1 + sqrt_mod(-3, p)) * pow(2, -1, p) % p,):
                for bt in (beta, beta * beta % p):
                    if ec_mul(lam, G, 0, p) == (bt * G[0] % p, G[1]):
                        lam_ok, beta_ok = lam, bt
    lam, beta = lam_ok, beta_ok
    assert pow(lam, 3, n) == 1 and pow(beta, 3, p) == 1
    # extended Euclid: s_i n + t_i lam = r_i
    r0, r1, t0, t1 = n, lam, 0, 1
    rs, ts = [r0, r1], [t0, t1]
    while r1 != 0:
        q = r0 // r1
        r0, r1, t0, t1 = r1, r0 - q * r1, t1, t0 - q * t1
        rs.append(r1)
        ts.append(t1)
    isq = 1
    while isq * isq <= n:
        isq *= 2
    lo, hi = 0, isq
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if mid * mid <= n else (lo, mid)
    sq = lo  # floor(sqrt(n))
    l = max(i for i in range(len(rs)) if rs[i] >= sq)
    a1, b1 = rs[l + 1], -ts[l + 1]
    cand = [(rs[l], -ts[l]), (rs[l + 2], -ts[l + 2])]
    a2, b2 = min(cand, key=lambda v: v[0] ** 2 + v[1] ** 2)
    for a, b in ((a1, b1), (a2, b2)):
        assert (a + b * lam) % n == 0
    assert b2 > 0 and b1 < 0
    g1 = (2**384 * b2 + n // 2) // n
    g2 = (2**384 * (-b1) + n // 2) // n
    assert g1 < 2**256 and g2 < 2**256

    def split(k):
        c1 = (k * g1 + 2**383) >> 384
        c2 = (k * g2 + 2**383) >> 384
        k2 = (-(c1 * b1 + c2 * b2)) % n
        k1 = (k - k2 * lam) % n
        return k1, k2

    rng = random.Random(7)
    ks = [0, 1, 2, n - 1, n - 2, n // 2, n // 2 + 1, lam, n - lam] + [rng.randrange(n) for _ in range(20000)]
    for k in ks:
        k1, k2 = split(k)
        assert (k1 + k2 * lam) % n == k % n
        for v in (k1, k2):
            assert min(v, n - v) < 2**GLV_BITS, hex(k)
    return dict(lam=lam, beta=beta, mb1=(-b1) % n, mb2=(-b2) % n, g1=g1, g2=g2)


def limbs(x, nl):
    assert 0 <= x < 2 ** (64 * nl)
    return [(x >> (64 * i)) & (2**64 - 1) for i in range(nl)]


def arr(x, nl, width=9):
    v = limbs(x, nl) + [0] * (width - nl)
    items = ["0x%016xu" % w for w in v]
    lines, line = [], "{"
    for i, it in enumerate(items):
        piece = it + ("," if i + 1 < len(items) else "}")
        if len(line) + len(piece) + 1 > 86:
            lines.append(line)
            line = "      " + piece
        else:
            line = line + ("" if line == "{" else " ") + piece
    lines.append(line)
    return "\n".join(lines)


def render():
    out = []
    cmd = "python3 tools/gen/ec_consts.py --out src/ec/curves.c"
    out.append("/* Generated by `%s`: do not edit." % cmd)
    out.append(" * The curves of tabai_ec.h: the published parameters (FIPS 186-5 / SP 800-186,")
    out.append(" * SEC 2) and the constants derived from them: field elements in Montgomery form")
    out.append(" * (R = 2^(64 n)) or plain (the special primes: R = 1), scalars in Montgomery form. */")
    out.append('#include "ec.h"')
    out.append("")
    out.append("/* secp256k1's GLV split leaves |k1|, |k2| below 2^%d (checked by the generator) */" % GLV_BITS)
    out.append("_Static_assert(TABAI_EC_GLV_BITS == %d, \"regenerate src/ec/curves.c\");" % GLV_BITS)
    out.append("")
    out.append("const tabai_ec_curve tabai_ec_curves[TABAI_EC_NCURVES] = {")
    for idx, c in enumerate(CURVES):
        check(c)
        p, n = c["p"], c["n"]
        nl = (p.bit_length() + 63) // 64
        assert (n.bit_length() + 63) // 64 == nl
        R = 2 ** (64 * nl)
        # the field's representation: Montgomery (x R mod p) or, for the special primes whose
        # reduction src/ec/special.c does, the plain residue (R_field = 1); see src/ec/README.md
        form = c.get("form", "MONT")
        Rf = R if form == "MONT" else 1
        if form == "MERSENNE":
            assert p == 2**521 - 1
        a = c["a"] % p
        fields = [
            ("id", "TABAI_CURVE_%s" % c["ident"]),
            ("name", '"%s"' % c["name"]),
            ("n", str(nl)),
            ("bytes", str((p.bit_length() + 7) // 8)),
            ("pbits", str(p.bit_length())),
            ("qbits", str(n.bit_length())),
            ("a_zero", "1" if a == 0 else "0"),
            ("form", "TABAI_EC_FORM_%s" % form),
            ("p", arr(p, nl)),
            ("pinv", "0x%016xu" % ((-pow(p, -1, 2**64)) % 2**64)),
            ("p_rr", arr(Rf * Rf % p, nl)),
            ("p_one", arr(Rf % p, nl)),
            ("p_minus2", arr(p - 2, nl)),
            ("p_sqrt", arr((p + 1) // 4, nl)),
            ("a", arr(a, nl)),
            ("b", arr(c["b"], nl)),
            ("gx", arr(c["gx"], nl)),
            ("gy", arr(c["gy"], nl)),
            ("b_m", arr(c["b"] * Rf % p, nl)),
            ("b3_m", arr(3 * c["b"] * Rf % p, nl)),
            ("gx_m", arr(c["gx"] * Rf % p, nl)),
            ("gy_m", arr(c["gy"] * Rf % p, nl)),
            ("q", arr(n, nl)),
            ("qinv", "0x%016xu" % ((-pow(n, -1, 2**64)) % 2**64)),
            ("q_rr", arr(R * R % n, nl)),
            ("q_one", arr(R % n, nl)),
            ("q_minus2", arr(n - 2, nl)),
            ("q_half", arr(n // 2, nl)),
        ]
        if a == 0:  # the GLV endomorphism (secp256k1)
            g = glv(c)
            fields += [
                ("glv", "1"),
                ("beta_m", arr(g["beta"] * Rf % p, nl)),
                ("lam_m", arr(g["lam"] * R % n, nl)),
                ("mb1_m", arr(g["mb1"] * R % n, nl)),
                ("mb2_m", arr(g["mb2"] * R % n, nl)),
                ("g1", arr(g["g1"], nl)),
                ("g2", arr(g["g2"], nl)),
            ]
        out.append("    [%d] = {" % idx)
        for k, v in fields:
            out.append("        .%s = %s," % (k, v.replace("\n", "\n        ")))
        out.append("    },")
    out.append("};")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    text = render()
    with open(args.out, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
