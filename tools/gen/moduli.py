#!/usr/bin/env python3
"""Writes bench/moduli.h: the benchmark's embedded default moduli (real input).

    python3 tools/gen/moduli.py -o bench/moduli.h

Each modulus is computed from its defining formula in the standard that names it, not typed
as hex, wherever the standard gives one:

    secp256k1_p     2^256 - 2^32 - 977                               SEC 2 v2, 2.4.1
    p256_p          2^256 - 2^224 + 2^192 + 2^96 - 1                 FIPS 186-4, D.1.2.3
    p256_n          the order of the P-256 base point (hex)          FIPS 186-4, D.1.2.3
    p384_p          2^384 - 2^128 - 2^96 + 2^32 - 1                  FIPS 186-4, D.1.2.4
    p521_p          2^521 - 1                                        FIPS 186-4, D.1.2.5
    bls12_381_p     (x-1)^2 (x^4 - x^2 + 1) / 3 + x, x = -0xd201000000010000
                                                                     BLS12-381 (Bowe 2017)
    curve25519_p    2^255 - 19                                       RFC 7748
    modpN           2^N - 2^(N-64) - 1 + 2^64 * (floor(2^(N-130) pi) + c_N)
                                                                     RFC 3526, groups 14-16
    rsaN_n/p/q      modulus and CRT primes of data/keys/rsa-N.pem    (read with `cryptography`)

It also writes the whole private key of each data/keys/rsa-N.pem (n, e, d, p, q, dp, dq,
qinv) as bench_rsa_keys[], for the RSA private-key operations of the benchmark.

Checks run before anything is written (the script stops on a failure):
    - every modulus has the bit length its name says, and is odd;
    - curve primes, p256_n, the MODP primes (safe primes: (p-1)/2 prime as well) and the RSA
      primes pass 32 rounds of Miller-Rabin; rsaN_n == p * q;
    - the RFC 3526 primes match the leading and trailing hex digits printed in the RFC;
    - p256_n is the order of the P-256 generator according to `cryptography` (OpenSSL):
      the key with scalar n-1 has the generator's x and the negated y, and scalar n is refused;
    - BLS12-381 p matches the hex digits printed in the draft standard (leading and trailing).
The C test tests/c/test_moduli.c compares the table once more against OpenSSL's own
constants (BN_get_rfc3526_prime_*, EC_GROUP_get_curve / EC_GROUP_get_order).

The output lists, for each modulus, its name, bit length, limb count and limbs (uint64_t,
least significant first). The file is committed; regenerate after changing the keys.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "data" / "keys"


# ------------------------------------------------------------------------------------------
# Numbers
# ------------------------------------------------------------------------------------------
def is_probable_prime(n: int, rounds: int = 32, rng: random.Random = random.Random(1)) -> bool:
    """Miller-Rabin with `rounds` random bases (fixed seed: the script is deterministic)."""
    if n < 2:
        return False
    for sp in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % sp == 0:
            return n == sp
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(rounds):
        a = rng.randrange(2, n - 1)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def pi_fixed(bits: int) -> int:
    """floor(pi * 2^bits), by Machin's formula pi = 16 atan(1/5) - 4 atan(1/239) in integers
    with 64 guard bits (the truncation error is far below one unit at the end)."""
    guard = 64
    one = 1 << (bits + guard)

    def atan_inv(x: int) -> int:
        total, term, k, x2 = 0, one // x, 0, x * x
        while term:
            total += term // (2 * k + 1) if k % 2 == 0 else -(term // (2 * k + 1))
            term //= x2
            k += 1
        return total

    return (16 * atan_inv(5) - 4 * atan_inv(239)) >> guard


def modp(nbits: int, offset: int) -> int:
    """RFC 3526: p = 2^N - 2^(N-64) - 1 + 2^64 * ( [2^(N-130) pi] + offset )."""
    return (1 << nbits) - (1 << (nbits - 64)) - 1 + (1 << 64) * (pi_fixed(nbits - 130) + offset)


def bls12_381_p() -> int:
    x = -0xD201000000010000
    num = (x - 1) ** 2 * (x**4 - x**2 + 1)
    assert num % 3 == 0
    return num // 3 + x


# FIPS 186-4, D.1.2.3: the order n of the P-256 base point (given only as a number there).
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def curve_moduli():
    """(name, value, source) for the curve and MODP moduli."""
    return [
        ("secp256k1_p", (1 << 256) - (1 << 32) - 977, "SEC 2 v2, 2.4.1: 2^256 - 2^32 - 977"),
        ("p256_p", (1 << 256) - (1 << 224) + (1 << 192) + (1 << 96) - 1,
         "FIPS 186-4 D.1.2.3: 2^256 - 2^224 + 2^192 + 2^96 - 1"),
        ("p256_n", P256_N, "FIPS 186-4 D.1.2.3: order of the P-256 base point"),
        ("curve25519_p", (1 << 255) - 19, "RFC 7748: 2^255 - 19"),
        ("p384_p", (1 << 384) - (1 << 128) - (1 << 96) + (1 << 32) - 1,
         "FIPS 186-4 D.1.2.4: 2^384 - 2^128 - 2^96 + 2^32 - 1"),
        ("bls12_381_p", bls12_381_p(), "BLS12-381 base field: (x-1)^2 (x^4-x^2+1)/3 + x"),
        ("p521_p", (1 << 521) - 1, "FIPS 186-4 D.1.2.5: 2^521 - 1"),
        ("modp2048", modp(2048, 124476), "RFC 3526 group 14 (2048-bit MODP prime)"),
        ("modp3072", modp(3072, 1690314), "RFC 3526 group 15 (3072-bit MODP prime)"),
        ("modp4096", modp(4096, 240904), "RFC 3526 group 16 (4096-bit MODP prime)"),
    ]


def rsa_moduli(keys_dir: Path):
    """(name, value, source) for n, p, q of each data/keys/rsa-N.pem."""
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    out = []
    for bits in (2048, 3072, 4096):
        path = keys_dir / f"rsa-{bits}.pem"
        key = load_pem_private_key(path.read_bytes(), password=None)
        priv = key.private_numbers()
        n = priv.public_numbers.n
        if key.key_size != bits or priv.p * priv.q != n:
            raise SystemExit(f"{path.name}: not a {bits}-bit RSA key with n = p*q")
        src = f"data/keys/rsa-{bits}.pem"
        out.append((f"rsa{bits}_n", n, f"{src}: modulus n"))
        out.append((f"rsa{bits}_p", priv.p, f"{src}: CRT prime p"))
        out.append((f"rsa{bits}_q", priv.q, f"{src}: CRT prime q"))
    return out


def rsa_keys(keys_dir: Path):
    """(bits, {field: value}) for every data/keys/rsa-N.pem, the CRT form of PKCS #1."""
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    out = []
    for bits in (2048, 3072, 4096):
        priv = load_pem_private_key((keys_dir / f"rsa-{bits}.pem").read_bytes(),
                                    password=None).private_numbers()
        f = {"n": priv.public_numbers.n, "e": priv.public_numbers.e, "d": priv.d, "p": priv.p,
             "q": priv.q, "dp": priv.dmp1, "dq": priv.dmq1, "qinv": priv.iqmp}
        if (f["qinv"] * f["q"]) % f["p"] != 1 or f["dp"] != f["d"] % (f["p"] - 1) or \
                f["dq"] != f["d"] % (f["q"] - 1) or pow(pow(7, f["e"], f["n"]), f["d"], f["n"]) != 7:
            raise SystemExit(f"rsa-{bits}.pem: inconsistent CRT parameters")
        out.append((bits, f))
    return out


RSA_FIELDS = ("n", "e", "d", "p", "q", "dp", "dq", "qinv")


# ------------------------------------------------------------------------------------------
# Checks
# ------------------------------------------------------------------------------------------
def expected_bits(name: str) -> int:
    table = {"secp256k1_p": 256, "p256_p": 256, "p256_n": 256, "curve25519_p": 255,
             "p384_p": 384, "bls12_381_p": 381, "p521_p": 521}
    if name in table:
        return table[name]
    if name.startswith("modp"):
        return int(name[4:])
    bits = int(name[3:].split("_")[0])
    return bits if name.endswith("_n") else bits // 2


def check_p256_order() -> None:
    """p256_n is the order of the generator, asked of `cryptography` (OpenSSL underneath)."""
    from cryptography.hazmat.primitives.asymmetric import ec

    curve = ec.SECP256R1()
    g = ec.derive_private_key(1, curve).public_key().public_numbers()
    m = ec.derive_private_key(P256_N - 1, curve).public_key().public_numbers()
    p = (1 << 256) - (1 << 224) + (1 << 192) + (1 << 96) - 1
    if (m.x, m.y) != (g.x, (p - g.y) % p):
        raise SystemExit("p256_n: (n-1)*G is not -G")
    try:
        ec.derive_private_key(P256_N, curve)
    except ValueError:
        return
    raise SystemExit("p256_n: scalar n accepted, so n is not the group order")


def check(mods) -> None:
    for name, v, _ in mods:
        if v.bit_length() != expected_bits(name):
            raise SystemExit(f"{name}: {v.bit_length()} bits, expected {expected_bits(name)}")
        if v % 2 == 0:
            raise SystemExit(f"{name}: even")
        if not name.endswith("_n") or name == "p256_n":
            if not is_probable_prime(v):
                raise SystemExit(f"{name}: not prime")
        if name.startswith("modp") and not is_probable_prime((v - 1) // 2):
            raise SystemExit(f"{name}: (p-1)/2 not prime")
    vals = {name: v for name, v, _ in mods}
    # Digits printed in RFC 3526 (first and last 16 hex digits of each prime).
    rfc = {"modp2048": ("FFFFFFFFFFFFFFFFC90FDAA22168C234", "15728E5A8AACAA68FFFFFFFFFFFFFFFF"),
           "modp3072": ("FFFFFFFFFFFFFFFFC90FDAA22168C234", "4B82D120A93AD2CAFFFFFFFFFFFFFFFF"),
           "modp4096": ("FFFFFFFFFFFFFFFFC90FDAA22168C234", "4DF435C934063199FFFFFFFFFFFFFFFF")}
    for name, (head, tail) in rfc.items():
        h = f"{vals[name]:X}"
        if not (h.startswith(head) and h.endswith(tail)):
            raise SystemExit(f"{name}: digits differ from RFC 3526")
    h = f"{vals['bls12_381_p']:x}"
    if not (h.startswith("1a0111ea397fe69a4b1ba7b6434bacd7") and h.endswith("b9feffffffffaaab")):
        raise SystemExit("bls12_381_p: digits differ from the BLS12-381 specification")
    for bits in (2048, 3072, 4096):
        if vals[f"rsa{bits}_p"] * vals[f"rsa{bits}_q"] != vals[f"rsa{bits}_n"]:
            raise SystemExit(f"rsa{bits}: n != p*q")
    check_p256_order()


# ------------------------------------------------------------------------------------------
# Output
# ------------------------------------------------------------------------------------------
def limbs(v: int):
    out = []
    while v:
        out.append(v & (2**64 - 1))
        v >>= 64
    return out


def render_rsa(keys) -> list:
    """bench_rsa_keys[]: every field as limbs of the key's half size h (p, q, dp, dq, qinv)
    or full size 2h (n, e, d)."""
    lines = [
        "/* The private keys of data/keys (CRT form, PKCS #1): limbs, least significant first;",
        " * n, e, d: 2h limbs; p, q, dp, dq, qinv: h limbs. */",
        "typedef struct bench_rsa_key {",
        "    unsigned bits; /* of n */",
        "    size_t h;      /* limbs of p and q */",
        "    const uint64_t *n, *e, *d, *p, *q, *dp, *dq, *qinv;",
        "} bench_rsa_key;",
        "",
    ]
    for bits, f in keys:
        h = bits // 128
        for name in RSA_FIELDS:
            width = 2 * h if name in ("n", "e", "d") else h
            ls = limbs(f[name]) + [0] * width
            ls = ls[:width]
            lines.append(f"static const uint64_t bench_rsa{bits}_{name}[{width}] = {{")
            for i in range(0, width, 3):
                chunk = ", ".join(f"0x{x:016x}u" for x in ls[i:i + 3])
                lines.append(f"    {chunk},")
            lines.append("};")
    lines += ["", "static const bench_rsa_key bench_rsa_keys[] = {"]
    for bits, _ in keys:
        refs = ", ".join(f"bench_rsa{bits}_{name}" for name in RSA_FIELDS)
        lines.append(f"    {{{bits}, {bits // 128}, {refs}}},")
    lines += ["};", "#define BENCH_RSA_KEYS_COUNT (sizeof bench_rsa_keys / sizeof bench_rsa_keys[0])", ""]
    return lines


def render(mods, command: str, keys=()) -> str:
    lines = [
        f"/* Generated by: {command} -- do not edit. */",
        "/* The benchmark's embedded default moduli (real input): name, bit length, limbs",
        " * (uint64_t, least significant first). Sources and checks: tools/gen/moduli.py.",
        " * The RSA moduli come from the test keys in data/keys (never use them for anything real). */",
        "#ifndef TABAI_BENCH_MODULI_H",
        "#define TABAI_BENCH_MODULI_H",
        "",
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
        "typedef struct bench_modulus {",
        "    const char *name;     /* e.g. \"p256_p\", \"rsa2048_n\" */",
        "    unsigned bits;        /* bit length */",
        "    size_t n;             /* limbs */",
        "    const uint64_t *limbs; /* n limbs, least significant first */",
        "    const char *source;   /* where the value comes from */",
        "} bench_modulus;",
        "",
    ]
    for name, v, _ in mods:
        ls = limbs(v)
        lines.append(f"static const uint64_t bench_modulus_{name}[{len(ls)}] = {{")
        for i in range(0, len(ls), 3):
            chunk = ", ".join(f"0x{x:016x}u" for x in ls[i:i + 3])
            lines.append(f"    {chunk},")
        lines.append("};")
    lines += ["", "static const bench_modulus bench_moduli[] = {"]
    for name, v, src in mods:
        src_c = src.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'    {{"{name}", {v.bit_length()}, {len(limbs(v))}, bench_modulus_{name}, "{src_c}"}},')
    lines += [
        "};",
        "#define BENCH_MODULI_COUNT (sizeof bench_moduli / sizeof bench_moduli[0])",
        "",
    ] + render_rsa(keys) + [
        "#endif",
        "",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    ap.add_argument("--keys", default=str(KEYS), help="folder with rsa-N.pem (default: data/keys)")
    args = ap.parse_args(argv)
    mods = curve_moduli() + rsa_moduli(Path(args.keys))
    mods.sort(key=lambda m: (m[1].bit_length(), m[0]))
    check(mods)
    command = "python3 tools/gen/moduli.py -o bench/moduli.h"
    text = render(mods, command, rsa_keys(Path(args.keys)))
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
