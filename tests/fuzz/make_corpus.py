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
        # fuzz_limb: size bytes 224.. select limb counts above 128 (BIG_SIZES in fuzz_limb.c);
        # other targets read them as ordinary sizes
        for i in range(16):
            data = bytes([tier, 224 + i]) + bytes([i % CLASSES, 1 + i]) * 8
            with open(os.path.join(out, f"t{tier}_big{i}"), "wb") as f:
                f.write(data)
        # fuzz_rsa: byte 1 is the key choice (3, 7, 11: the shipped 2048/3072/4096-bit keys;
        # others: primes of 1..8 limbs from the input), byte 2 the message count
        for choice in (0, 3, 7, 11, 28):
            for count in (1, 8):
                data = bytes([tier, choice, count - 1]) + bytes([5, 77]) * 8
                with open(os.path.join(out, f"t{tier}_rsa{choice}_{count}"), "wb") as f:
                    f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
