#!/usr/bin/env python3
"""P-521's field product and square in radix 2^58 with mulx (src/ec/bmi2/p521_mul.h).

The representation is p521_field.h's: nine limbs of 58 bits (the top one 57), loosely
reduced, 2^522 = 2 mod p, so a product is 81 partial products a_i b_j summed in nine
128-bit columns k = i + j mod 9, those with i + j >= 9 doubled (a square: the 45 products
a_i a_j, i <= j, doubled off the diagonal, doubled again when they fold). This script
writes the column sums as mulx with the two carry chains of ADX (adcx on CF, adox on OF,
alternating product by product): a column's high word never overflows (a column is below
2^124.2, p521_field.h's bounds), so the flag is zero again after each pair and any column
may take either chain. The columns come in three groups of three, each group's nine rows
(rdx = b_j, or a_j for the square) touching its three accumulators; the groups do not
depend on each other, and each is followed by its share of the carry pass (p521_field.h's
p521_r58_columns: limb k = column k mod 2^58, the rest carried one column up; the carry out
of bit 521 folded into limbs 0 and 1), the carry out of a group held in two registers for
the next.

    python3 tools/gen/p521_mulx.py --out src/ec/bmi2/p521_mul.h
"""
import argparse


def mul_terms():
    """(column, j, source, i): column += source[i] * b[j]; a2 = 2 a for the folded ones"""
    terms = []
    for k in range(9):
        for j in range(9):
            i = k - j
            terms.append((k, j, "a", i) if i >= 0 else (k, j, "a2", i + 9))
    return terms


def sqr_terms():
    """(column, j, source, i): column += source[i] * a[j] over i <= j, source a, a2 or a4"""
    terms = []
    for j in range(9):
        for i in range(j + 1):
            fold = i + j >= 9
            c = (2 if fold else 1) if i == j else (4 if fold else 2)
            terms.append(((i + j) % 9, j, {1: "a", 2: "a2", 4: "a4"}[c], i))
    return terms


def layout(sources):
    """offsets in the scratch words w[]: the multiples of a, then the nine output limbs"""
    off = {s: 72 * n for n, s in enumerate(sources)}
    off["r"] = 72 * len(sources)
    return off


def line(s):
    return '    "' + s + '\\n\\t"'


def emit(terms, rdx_src, off, mem_carry=False):
    def mem(src, i):
        if src == "a":
            return "%d(%%[a])" % (8 * i)
        return "%d(%%[w])" % (off[src] + 8 * i)

    def r(k):
        return "%d(%%[w])" % (off["r"] + 8 * k)

    out = []
    lo, hi = ["l0", "l1", "l2"], ["h0", "h1", "h2"]
    for g in range(3):
        cols = [3 * g, 3 * g + 1, 3 * g + 2]
        out.append("    /* columns %d, %d, %d */" % tuple(cols))
        first = set(cols)
        out.append(line("xorl %k[tl], %k[tl]"))
        n = 0
        for j in sorted({t[1] for t in terms if t[0] in cols}):
            out.append(line("movq %d(%%[%s]), %%%%rdx" % (8 * j, rdx_src)))
            for k, jj, src, i in terms:
                if k not in cols or jj != j:
                    continue
                c = cols.index(k)
                if k in first:
                    out.append(line("mulxq %s, %%[%s], %%[%s]" % (mem(src, i), lo[c], hi[c])))
                    first.discard(k)
                    continue
                op = "adcxq" if n % 2 == 0 else "adoxq"
                n += 1
                out.append(line("mulxq %s, %%[tl], %%[th]" % mem(src, i)))
                out.append(line("%s %%[tl], %%[%s]" % (op, lo[c])))
                out.append(line("%s %%[th], %%[%s]" % (op, hi[c])))
        # the group's carry pass, rdx = 58 for bzhi
        out.append(line("movl $58, %%edx"))
        if g > 0:
            if mem_carry:  # left in this group's first two limbs' places
                out.append(line("addq %s, %%[l0]" % r(cols[0])))
                out.append(line("adcq %s, %%[h0]" % r(cols[1])))
            else:
                out.append(line("addq %[cl], %[l0]"))
                out.append(line("adcq %[ch], %[h0]"))
        for c, k in enumerate(cols):
            if k == 8:  # limb 8 keeps 57 bits; the carry out of bit 521 into limbs 0 and 1
                out += [line("movq %[l2], %[tl]"), line("shlq $7, %[tl]"),
                        line("shrq $7, %[tl]"), line("movq %%[tl], %s" % r(8)),
                        line("shrdq $57, %[h2], %[l2]"), line("shrq $57, %[h2]"),
                        line("addq %s, %%[l2]" % r(0)), line("adcq $0, %[h2]"),
                        line("bzhiq %%rdx, %[l2], %[tl]"), line("movq %%[tl], %s" % r(0)),
                        line("shrdq $58, %[h2], %[l2]"), line("addq %%[l2], %s" % r(1))]
                continue
            out.append(line("bzhiq %%%%rdx, %%[%s], %%[tl]" % lo[c]))
            out.append(line("movq %%[tl], %s" % r(k)))
            if c < 2:
                out += [line("shrdq $58, %%[%s], %%[%s]" % (hi[c], lo[c])),
                        line("shrq $58, %%[%s]" % hi[c]),
                        line("addq %%[%s], %%[%s]" % (lo[c], lo[c + 1])),
                        line("adcq %%[%s], %%[%s]" % (hi[c], hi[c + 1]))]
            elif mem_carry:
                out += [line("shrdq $58, %%[%s], %%[%s]" % (hi[c], lo[c])),
                        line("shrq $58, %%[%s]" % hi[c]),
                        line("movq %%[%s], %s" % (lo[c], r(k + 1))),
                        line("movq %%[%s], %s" % (hi[c], r(k + 2)))]
            else:
                out += [line("movq %%[%s], %%[cl]" % lo[c]),
                        line("shrdq $58, %%[%s], %%[cl]" % hi[c]),
                        line("movq %%[%s], %%[ch]" % hi[c]), line("shrq $58, %[ch]")]
    return " \\\n".join(out)


HEAD = """\
/* Generated by `python3 tools/gen/p521_mulx.py --out src/ec/bmi2/p521_mul.h`: do not edit.
 *
 * P-521's field product and square in radix 2^58 (p521_field.h's representation and
 * bounds) with mulx and the two carry chains of ADX, for the bmi2 tier's point code
 * (built with -mbmi2 -madx only): the same 81 (45) partial products in nine 128-bit columns
 * as p521_r58_mul (p521_r58_sqr), accumulated by mulx/adcx/adox instead of the compiler's
 * mul/add/adc (which moved every operand through rax and rdx, and whose add/adc pairs issue
 * more slowly beside mulx than adcx/adox do), in three independent groups of three columns,
 * each followed by its share of p521_r58_columns' carry pass. Results bit-identical to
 * p521_r58_mul and p521_r58_sqr (the same limbs, not only the same residue). Inputs: limbs
 * below 2^60 (lazy sums allowed, as for the portable ones); r may alias a and b (the limbs
 * are written to a scratch area first). Constant time: straight-line code, no
 * secret-dependent branch or address. Fourteen registers with rdx, so it builds with a frame
 * pointer; a, b and the scratch words are read and written through their pointer registers
 * under a "memory" clobber (the statement volatile, its only effect being in memory), as "m"
 * operands would take registers of their own for their addresses (too many for clang). */
#ifndef TABAI_EC_P521_MUL_BMI2_H
#define TABAI_EC_P521_MUL_BMI2_H

#include <string.h>

#include "../p521_field.h"

"""

FUNCS = """
#define P521_MULX_OUTPUTS                                                                     \\
    [l0] "=&r"(l0), [h0] "=&r"(h0), [l1] "=&r"(l1), [h1] "=&r"(h1), [l2] "=&r"(l2),               \\
        [h2] "=&r"(h2), [tl] "=&r"(tl), [th] "=&r"(th), [cl] "=&r"(cl), [ch] "=&r"(ch)

/* r = a b mod p, loosely reduced, limbs of a and b below 2^60 (r may alias a and b); for
 * clang, which finds no fourteenth register for it, with the carries between the groups
 * through memory (slower by a few percent in gcc's ECDH) */
TABAI_INLINE void p521_r58_mul_bmi2(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t w[18], l0, h0, l1, h1, l2, h2, tl, th; /* 2 a, then r's limbs */
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) w[i] = a[i] << 1;
#if defined(__clang__)
    __asm__ volatile(P521_MUL_BMI2_MEMCARRY
                     : [l0] "=&r"(l0), [h0] "=&r"(h0), [l1] "=&r"(l1), [h1] "=&r"(h1),
                       [l2] "=&r"(l2), [h2] "=&r"(h2), [tl] "=&r"(tl), [th] "=&r"(th)
                     : [a] "r"(a), [b] "r"(b), [w] "r"(w)
                     : "rdx", "cc", "memory");
#else
    uint64_t cl, ch;
    __asm__ volatile(P521_MUL_BMI2
                     : P521_MULX_OUTPUTS
                     : [a] "r"(a), [b] "r"(b), [w] "r"(w)
                     : "rdx", "cc", "memory");
#endif
    memcpy(r, w + 9, 9 * sizeof *r);
}

/* r = a^2 mod p, loosely reduced, limbs of a below 2^60 (r may alias a) */
TABAI_INLINE void p521_r58_sqr_bmi2(uint64_t *r, const uint64_t *a) {
    uint64_t w[27], l0, h0, l1, h1, l2, h2, tl, th, cl, ch; /* 2 a, 4 a, then r's limbs */
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) w[i] = a[i] << 1, w[9 + i] = a[i] << 2;
    __asm__ volatile(P521_SQR_BMI2
                     : P521_MULX_OUTPUTS
                     : [a] "r"(a), [w] "r"(w)
                     : "rdx", "cc", "memory");
    memcpy(r, w + 18, 9 * sizeof *r);
}

#endif
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    text = HEAD
    text += "/* the columns of a b: rdx = b_j, a at %[a], 2 a at w[0..8], r's limbs at w[9..17] */\n"
    text += "#define P521_MUL_BMI2 \\\n" + emit(mul_terms(), "b", layout(["a2"])) + "\n\n"
    text += "/* the same with the carries between the groups through r's places in w (clang) */\n"
    text += "#define P521_MUL_BMI2_MEMCARRY \\\n"
    text += emit(mul_terms(), "b", layout(["a2"]), mem_carry=True) + "\n\n"
    text += "/* the columns of a^2: rdx = a_j, a at %[a], 2 a and 4 a at w[0..17], r at w[18..26] */\n"
    text += "#define P521_SQR_BMI2 \\\n" + emit(sqr_terms(), "a", layout(["a2", "a4"])) + "\n"
    text += FUNCS
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
