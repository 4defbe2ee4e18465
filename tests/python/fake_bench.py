#!/usr/bin/env python3
"""A stand-in for the C binary tabai-bench with the same command line, for the CLI tests.

It writes records whose numbers are chosen here (so the tests can check the ratios the CLI
computes), extra record fields and an op the CLI does not know (later issues add those), and
it honours --ops / --bits / --seconds / --json / --list / --progress. FAKE_BENCH_FAIL=N makes
it exit with status N after a message on stderr.
"""

import argparse
import json
import os
import sys

MODULI = [{"name": "secp256k1_p", "bits": 256}, {"name": "p256_p", "bits": 256},
          {"name": "p256_n", "bits": 256}, {"name": "rsa2048_n", "bits": 2048}]


def records(ops, bits_list):
    out = []
    for bits in bits_list:
        mods = [m["name"] for m in MODULI if m["bits"] == bits] or [f"random{bits}"]
        scale = bits / 64
        for op in ops:
            if op in ("mul", "sqr"):
                out.append(dict(op=op, bits=bits, modulus=None, impl="tabai", kernel="generic",
                                symbol=f"{op}_n_generic", ns=10.0 * scale, tsc=25.0 * scale, reps=1001))
                out.append(dict(op=op, bits=bits, modulus=None, impl="tabai", kernel="bmi2",
                                symbol=f"{op}_n4_bmi2", ns=5.0 * scale, tsc=12.5 * scale, reps=1001))
                out.append(dict(op=op, bits=bits, modulus=None, impl="gmp", kernel=None,
                                symbol="mpn_mul_n" if op == "mul" else "mpn_sqr",
                                ns=15.0 * scale, tsc=37.5 * scale, reps=1001))
                continue
            for mod in mods:
                if op == "modmul":
                    out.append(dict(op=op, bits=bits, modulus=mod, impl="gmp", kernel=None,
                                    symbol="mpz_mul+mpz_mod", ns=40.0 * scale, tsc=100 * scale, reps=501))
                elif op == "mont_mul":
                    out.append(dict(op=op, bits=bits, modulus=mod, impl="tabai", kernel="generic",
                                    symbol="mont_mul_n_generic", ns=20.0 * scale, tsc=50 * scale,
                                    reps=501, min_ns=19.0 * scale))
                    out.append(dict(op=op, bits=bits, modulus=mod, impl="openssl", kernel=None,
                                    symbol="BN_mod_mul_montgomery", ns=30.0 * scale, tsc=75 * scale,
                                    reps=501))
                elif op == "powmod":
                    out.append(dict(op=op, bits=bits, modulus=mod, impl="tabai", kernel="generic",
                                    symbol="mont_powmod", ns=1e4 * scale**2, tsc=2.5e4 * scale**2, reps=11))
                    out.append(dict(op=op, bits=bits, modulus=mod, impl="gmp", kernel=None,
                                    symbol="mpz_powm_sec", ns=1.5e4 * scale**2, tsc=3.75e4 * scale**2,
                                    reps=11))
                else:  # an op of a later issue, with fields of its own
                    out.append(dict(op=op, bits=bits, modulus=mod, impl="tabai", kernel="ifma_zmm",
                                    symbol=f"{op}_r52n20_mb8_ifma", ns=7.0 * scale, tsc=17.5 * scale,
                                    reps=99, lanes=8, extra={"note": "future"}))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="mul,sqr,mont_mul,modmul,powmod,future_op")
    ap.add_argument("--bits", default="64,256,2048")
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--json")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--tiers")
    a = ap.parse_args()
    if os.environ.get("FAKE_BENCH_FAIL"):
        print("fake-bench: failing on purpose", file=sys.stderr)
        print("fake-bench stdout before failing")
        return int(os.environ["FAKE_BENCH_FAIL"])
    if a.list:
        print(json.dumps({"ops": ["mul", "sqr", "mont_mul", "modmul", "powmod", "future_op"],
                          "kernels": ["generic", "bmi2"], "moduli": MODULI, "extra_key": 1}))
        return 0
    ops = a.ops.split(",")
    bits = [int(b) for b in a.bits.split(",")]
    recs = records(ops, bits)
    print("fake-bench: a warning line on stderr", file=sys.stderr)
    for i in range(len(recs)):
        if a.progress:
            print(f"@progress {i + 1} {len(recs)} {recs[i]['op']} {recs[i]['bits']}", file=sys.stderr)
    print("fake-bench: table on stdout")
    meta = {"cpu": "Fake CPU", "features": ["bmi2", "adx"], "tier": "bmi2", "compiler": "gcc 12",
            "flags": "-O2", "tsc_ghz": 2.5, "gmp": "6.2.1", "openssl": "3.0.11",
            "argv": {"ops": a.ops, "bits": a.bits, "seconds": a.seconds, "tiers": a.tiers}, "date": "2026-11-22"}
    with open(a.json, "w") as f:
        json.dump({"meta": meta, "records": recs}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
