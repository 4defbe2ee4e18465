#!/usr/bin/env python3
"""Writes the seed corpus of the libFuzzer targets (deterministic): for every tier byte, the
sizes of the default moduli and the edges of the fixed slots, and every operand class of
fuzz.h (all-ones limbs, edge limbs, 2^k +- c, digits at the 52- and 29-bit boundaries, runs,
top limb 1 or all ones), one input per (tier, n, class). Usage: make_corpus.py OUT_DIR"""
import os
import sys

CLASSES = 11  # FZ_CLASS_COUNT in fuzz.h
SIZES = (1, 2, 4, 5, 8, 15, 16, 17, 24, 32, 33, 48, 64, 128)


def main(out):
    os.makedirs(out, exist_ok=True)
    for tier in range(5):
        for n in SIZES:
            for cls in range(CLASSES):
                # tier, n, then the class byte repeated for every operand and field that follows
                data = bytes([tier, n - 1]) + bytes([cls, (cls * 37) & 0xFF]) * 8
                with open(os.path.join(out, f"t{tier}_n{n}_c{cls}"), "wb") as f:
                    f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
