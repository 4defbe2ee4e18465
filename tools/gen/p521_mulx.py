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
    """offsets in the scratch words w[]: the nine output limbs, then the multiples of a"""
    off = {s: 72 * (n + 1) for n, s in enumerate(sources)}
    off["r"] = 0
    return off


def line(s):
    return '    "' + s + '\\n\\t"'


def r(k):
    """limb k of the result, in w[0..8]"""
    return "%d(%%[w])" % (8 * k)


LO, HI = ["l0", "l1", "l2"], ["h0", "h1", "h2"]


def rows(terms, rdx_src, off, g):
    """group g's products into its three columns (l, h), then rdx = 58 for the pass"""
    def mem(src, i):
        if src == "a":
            return "%d(%%[a])" % (8 * i)
        return "%d(%%[w])" % (off[src] + 8 * i)

    cols = [3 * g, 3 * g + 1, 3 * g + 2]
    out = ["    /* columns %d, %d, %d */" % tuple(cols), line("xorl %k[tl], %k[tl]")]
    first, n = set(cols), 0
    for j in sorted({t[1] for t in terms if t[0] in cols}):
        out.append(line("movq %d(%%[%s]), %%%%rdx" % (8 * j, rdx_src)))
        for k, jj, src, i in terms:
            if k not in cols or jj != j:
                continue
            c = cols.index(k)
            if k in first:
                out.append(line("mulxq %s, %%[%s], %%[%s]" % (mem(src, i), LO[c], HI[c])))
                first.discard(k)
                continue
            op = "adcxq" if n % 2 == 0 else "adoxq"
            n += 1
            out.append(line("mulxq %s, %%[tl], %%[th]" % mem(src, i)))
            out.append(line("%s %%[tl], %%[%s]" % (op, LO[c])))
            out.append(line("%s %%[th], %%[%s]" % (op, HI[c])))
    out.append(line("movl $58, %%edx"))  # bzhi's index
    return out


def limbs(g):
    """group g's share of the carry pass: limbs 3g..3g+2 stored, each carry into the next
    column; for the last group the carry out of bit 521 folded into limbs 0 and 1"""
    out = []
    for c, k in enumerate([3 * g, 3 * g + 1, 3 * g + 2]):
        if k == 8:  # limb 8 keeps 57 bits
            out += [line("movq %[l2], %[tl]"), line("shlq $7, %[tl]"),
                    line("shrq $7, %[tl]"), line("movq %%[tl], %s" % r(8)),
                    line("shrdq $57, %[h2], %[l2]"), line("shrq $57, %[h2]"),
                    line("addq %s, %%[l2]" % r(0)), line("adcq $0, %[h2]"),
                    line("bzhiq %%rdx, %[l2], %[tl]"), line("movq %%[tl], %s" % r(0)),
                    line("shrdq $58, %[h2], %[l2]"), line("addq %%[l2], %s" % r(1))]
            continue
        out += [line("bzhiq %%%%rdx, %%[%s], %%[tl]" % LO[c]), line("movq %%[tl], %s" % r(k))]
        if c < 2:
            out += [line("shrdq $58, %%[%s], %%[%s]" % (HI[c], LO[c])),
                    line("shrq $58, %%[%s]" % HI[c]),
                    line("addq %%[%s], %%[%s]" % (LO[c], LO[c + 1])),
                    line("adcq %%[%s], %%[%s]" % (HI[c], HI[c + 1]))]
    return out


# the carry out of a group's last column and into the next group's first: in the registers
# cl, ch, or (clang) in the next group's first two limbs' places of w
CARRY_OUT = [line("movq %[l2], %[cl]"), line("shrdq $58, %[h2], %[cl]"),
             line("movq %[h2], %[ch]"), line("shrq $58, %[ch]")]
CARRY_IN = [line("addq %[cl], %[l0]"), line("adcq %[ch], %[h0]")]


def carry_out_mem(g):
    k = 3 * g + 2
    return [line("shrdq $58, %[h2], %[l2]"), line("shrq $58, %[h2]"),
            line("movq %%[l2], %s" % r(k + 1)), line("movq %%[h2], %s" % r(k + 2))]


def carry_in_mem(g):
    return [line("addq %s, %%[l0]" % r(3 * g)), line("adcq %s, %%[h0]" % r(3 * g + 1))]


def macro(name, lines, comment=None):
    text = "/* %s */\n" % comment if comment else ""
    return text + "#define %s \\\n" % name + " \\\n".join(lines) + "\n\n"


def compose(name, parts, comment):
    return "/* %s */\n#define %s \\\n" % (comment, name) + " \\\n".join(
        "    " + p for p in parts) + "\n\n"


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
    uint64_t w[18], l0, h0, l1, h1, l2, h2, tl, th; /* r's limbs, then 2 a */
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) w[9 + i] = a[i] << 1;
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
    memcpy(r, w, 9 * sizeof *r);
}

/* r = a^2 mod p, loosely reduced, limbs of a below 2^60 (r may alias a) */
TABAI_INLINE void p521_r58_sqr_bmi2(uint64_t *r, const uint64_t *a) {
    uint64_t w[27], l0, h0, l1, h1, l2, h2, tl, th, cl, ch; /* r's limbs, 2 a, 4 a */
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) w[9 + i] = a[i] << 1, w[18 + i] = a[i] << 2;
    __asm__ volatile(P521_SQR_BMI2
                     : P521_MULX_OUTPUTS
                     : [a] "r"(a), [w] "r"(w)
                     : "rdx", "cc", "memory");
    memcpy(r, w, 9 * sizeof *r);
}

#endif
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    text = HEAD
    mul, sqr = (mul_terms(), "b", layout(["a2"])), (sqr_terms(), "a", layout(["a2", "a4"]))
    for g in range(3):
        text += macro("P521_MUL_ROWS%d" % g, rows(*mul, g),
                      "a b's columns: rdx = b_j, a at %[a], 2 a at w[9..17]" if g == 0 else None)
    for g in range(3):
        text += macro("P521_SQR_ROWS%d" % g, rows(*sqr, g),
                      "a^2's columns: rdx = a_j, a at %[a], 2 a and 4 a at w[9..26]" if g == 0
                      else None)
    for g in range(3):
        text += macro("P521_LIMBS%d" % g, limbs(g),
                      "the carry pass, the result's limbs at w[0..8]" if g == 0 else None)
    text += macro("P521_CARRY_OUT", CARRY_OUT, "the carries between the groups in registers")
    text += macro("P521_CARRY_IN", CARRY_IN)
    for g in range(2):
        text += macro("P521_CARRY_OUT_MEM%d" % g, carry_out_mem(g),
                      "or through the next group's limbs' places in w (clang)" if g == 0 else None)
        text += macro("P521_CARRY_IN_MEM%d" % (g + 1), carry_in_mem(g + 1))
    for name, rows_, what in (("P521_MUL_BMI2", "P521_MUL_ROWS", "a b"),
                              ("P521_SQR_BMI2", "P521_SQR_ROWS", "a^2")):
        text += compose(name, ["%s0" % rows_, "P521_LIMBS0", "P521_CARRY_OUT",
                               "%s1" % rows_, "P521_CARRY_IN", "P521_LIMBS1", "P521_CARRY_OUT",
                               "%s2" % rows_, "P521_CARRY_IN", "P521_LIMBS2"],
                        "r = %s: each group's rows, then its share of the pass" % what)
    text += compose("P521_MUL_BMI2_MEMCARRY",
                    ["P521_MUL_ROWS0", "P521_LIMBS0", "P521_CARRY_OUT_MEM0",
                     "P521_MUL_ROWS1", "P521_CARRY_IN_MEM1", "P521_LIMBS1", "P521_CARRY_OUT_MEM1",
                     "P521_MUL_ROWS2", "P521_CARRY_IN_MEM2", "P521_LIMBS2"],
                    "the same with the carries through memory (clang)")
    text += FUNCS
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
