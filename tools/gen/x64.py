#!/usr/bin/env python3
"""Generator of tabai's x86-64 kernels, tier "bmi2" (BMI2 + ADX): mulx rows with two
independent carry chains (adox for the low halves, adcx for the high halves), every partial
sum of a row kept in registers (seed 004). Emits GNU as (.S, Intel syntax, System V AMD64
ABI, endbr64, CFI, .note.GNU-stack) into one folder:

  mul.S    tabai_mul_n{N}_bmi2      r[2N] = a[N]*b[N], N = 1..16
  sqr.S    tabai_sqr_n{N}_bmi2      r[2N] = a[N]^2
  mont.S   tabai_mont_mul_n{N}_bmi2, tabai_mont_sqr_n{N}_bmi2
  modas.S  tabai_mod_add_n{N}_bmi2, tabai_mod_sub_n{N}_bmi2
  mul32.S  tabai_mul_n32_bmi2, tabai_sqr_n32_bmi2 (fully unrolled, 2048 bits)
  redc.S   tabai_redc_n{N}_bmi2, tabai_mul_rows_n{N}_bmi2   N = 24..128 step 8 (any-n drivers)
  row.S    tabai_mul_1_n_bmi2, tabai_addmul_1_n_bmi2 (any n), tabai_addmul_8xn_bmi2
  x64_mix.h  instruction mix of every generated function (read by the benchmark)

Usage: python3 tools/gen/x64.py --out src/x64     (the exact command is written into every
output file; tests/c/x64_fresh.cmake regenerates into a temporary folder and diffs.)
If <out>/ticks.json exists (written by tools/gen/x64_ticks.py from a `tabai bench --ops x64
--json` run), each function's comment carries its measured TSC ticks per call.
No third-party library. See docs/x64.md for the register allocation and the carry chains.
"""
import argparse
import json
import os
import re
import sys

NMAX = 16
# mont_sqr_n{N} for N up to MONT_SQR_VIA_MUL is the fused mont_mul(a, a) rather than square + REDC,
# per target core (--tune): measured on Zen 1 (mulx every 2 cycles) the fused product wins up to
# n = 4; on Zen 4 (one mulx per cycle) square + REDC wins from n = 4 (3.5-4%).
TUNES = {"zen4": {"mont_sqr_via_mul": 3}, "zen1": {"mont_sqr_via_mul": 4}}
TUNE_DEFAULT = "zen4"
MONT_SQR_VIA_MUL = TUNES[TUNE_DEFAULT]["mont_sqr_via_mul"]
REDC_SIZES = list(range(24, 129, 8))
REDC_BLOCKS = (24, 32)  # any-n REDC fully unrolled in register-window blocks at these sizes
CALLEE = ["rbx", "rbp", "r12", "r13", "r14", "r15"]
R32 = {"rax": "eax", "rbx": "ebx", "rcx": "ecx", "rdx": "edx", "rsi": "esi", "rdi": "edi",
       "rbp": "ebp", "rsp": "esp"}
for _i in range(8, 16):
    R32["r%d" % _i] = "r%dd" % _i
CMD = "python3 tools/gen/x64.py --out src/x64"


def d32(r):
    return R32[r]


def m(base, off=0, idx=None):
    """qword memory operand [base + idx*8 + off]."""
    s = base
    if idx is not None:
        s += " + 8*" + idx
    if off > 0:
        s += " + %d" % off
    elif off < 0:
        s += " - %d" % (-off)
    return "qword ptr [%s]" % s


class Func:
    """One generated function: body lines, stack frame, prologue/epilogue with CFI."""

    def __init__(self, name, contract, regmap=""):
        self.name = name
        self.contract = contract
        self.regmap = regmap
        self.body = []
        self.frame = 0  # bytes below the pushes (rsp-relative slots)
        self.nlabel = 0

    def __call__(self, op, *args):
        self.body.append("\t%s\t%s" % (op, ", ".join(args)) if args else "\t" + op)

    def label(self, name):
        self.body.append("%s:" % name)

    def newlabel(self, hint):
        self.nlabel += 1
        return ".L%s_%s_%d" % (self.name, hint, self.nlabel)

    def used_callee(self):
        text = "\n".join(self.body)
        return [r for r in CALLEE if re.search(r"\b%s\b|\b%s\b" % (r, d32(r)), text)]

    def render(self, ticks=None):
        saved = self.used_callee()
        frame = self.frame
        out = ["", "/* %s" % self.contract]
        if self.regmap:
            out.append(" * %s" % self.regmap)
        if ticks and self.name[len("tabai_"):] in ticks["ticks"]:
            out.append(" * measured: %.1f TSC ticks per call (%s, %s; src/x64/ticks.json)"
                       % (ticks["ticks"][self.name[len("tabai_"):]], ticks["cpu"], ticks["date"]))
        out.append(" */")
        out += ["\t.globl\t%s" % self.name, "\t.hidden\t%s" % self.name,
                "\t.type\t%s, @function" % self.name, "\t.p2align\t4", "%s:" % self.name,
                "\t.cfi_startproc", "\tendbr64"]
        for r in saved:
            out += ["\tpush\t%s" % r, "\t.cfi_adjust_cfa_offset 8", "\t.cfi_rel_offset %s, 0" % r]
        if frame:
            out += ["\tsub\trsp, %d" % frame, "\t.cfi_adjust_cfa_offset %d" % frame]
        out += self.body
        if frame:
            out += ["\tadd\trsp, %d" % frame, "\t.cfi_adjust_cfa_offset -%d" % frame]
        for r in reversed(saved):
            out += ["\tpop\t%s" % r, "\t.cfi_adjust_cfa_offset -8", "\t.cfi_restore %s" % r]
        out += ["\tret", "\t.cfi_endproc", "\t.size\t%s, .-%s" % (self.name, self.name)]
        return "\n".join(out) + "\n"

    def mix(self):
        """Instruction counts of the body (prologue/epilogue excluded)."""
        c = {"mulx": 0, "adcx": 0, "adox": 0, "adc": 0, "add": 0, "sbb_sub": 0, "mov": 0,
             "cmov": 0, "other": 0, "spill": 0, "total": 0}
        for line in self.body:
            if line.endswith(":"):
                continue
            parts = line.split(None, 1)
            op = parts[0]
            args = parts[1] if len(parts) > 1 else ""
            c["total"] += 1
            if op in ("mulx", "adcx", "adox", "adc", "add", "mov"):
                c[op] += 1
            elif op in ("sbb", "sub"):
                c["sbb_sub"] += 1
            elif op.startswith("cmov"):
                c["cmov"] += 1
            else:
                c["other"] += 1
            if "[rsp" in args:
                c["spill"] += 1
        return c


# ----------------------------------------------------------------------------------------
# mul: rows of mulx over a register window (seed 004's mulPack / mulPackAdd), chunked over a
# when the window does not fit.

def emit_mul(f, R, roff, A, aoff, B, boff, na, nb, regs):
    """R[roff/8 + 0 .. na+nb-1] = A[na] * B[nb]. A is the mulx memory operand (window over
    A, at most len(regs)-2 limbs for one chunk, len(regs)-3 per chunk otherwise), rdx takes
    B[i] row by row. regs: scratch registers (not rdx, not the pointers). R must not
    overlap A or B."""
    if na <= len(regs) - 2:
        emit_mul_chunk(f, R, roff, A, aoff, B, boff, na, nb, 0, True, regs)
        return
    # first column chunk written fresh, the rest accumulated in place (emit_addmul, the same
    # chunk widths) over the limbs above it, zeroed first
    wmax = len(regs) - 3
    k = -(-na // wmax)
    w0 = na // k + (1 if na % k else 0)
    emit_mul_chunk(f, R, roff, A, aoff, B, boff, w0, nb, 0, True, regs)
    z = regs[0]
    f("xor", d32(z), d32(z))
    for pos in range(w0 + nb, na + nb):
        f("mov", m(R, roff + 8 * pos), z)
    emit_addmul(f, R, roff, A, aoff + 8 * w0, B, boff, na - w0, nb, w0, na + nb - 1, regs)


def emit_mul_chunk(f, R, roff, A, aoff, B, boff, w, nb, c0, first, regs):
    lo, hi = regs[0], regs[1]
    cy = None if first else regs[2]
    pool = regs[2:] if first else regs[3:]
    W = pool[:w]

    def rpos(p):
        return m(R, roff + 8 * p)

    # row 0: W <- A * B[0] (positions c0+1 ..), position c0 -> hi
    f("mov", "rdx", m(B, boff))
    f("mulx", W[0], hi, m(A, aoff))
    for j in range(1, w):
        f("mulx", W[j], lo, m(A, aoff + 8 * j))
        f("add" if j == 1 else "adc", W[j - 1], lo)
    if w > 1:
        f("adc", W[w - 1], "0")
    if first:
        f("mov", rpos(c0), hi)
    else:
        f("add", hi, rpos(c0))
        f("mov", rpos(c0), hi)
        f("sbb", cy, cy)
    # rows 1..nb-1: W += A * B[i], two chains, out W[0]
    for i in range(1, nb):
        p = c0 + i
        f("mov", "rdx", m(B, boff + 8 * i))
        f("xor", d32(lo), d32(lo))
        H = hi
        for j in range(w):
            f("mulx", H, lo, m(A, aoff + 8 * j))
            f("adox", W[j], lo)
            if j == 0 and first:
                f("mov", rpos(p), W[0])
            if j < w - 1:
                f("adcx", W[j + 1], H)
        f("mov", d32(lo), "0")
        f("adox", H, lo)
        f("adcx", H, lo)
        out = W[0]
        if not first:
            f("neg", cy)
            f("adc", out, rpos(p))
            f("mov", rpos(p), out)
            f("sbb", cy, cy)
        W = W[1:] + [H]
        hi = out
    # final window: positions c0+nb .. c0+nb+w-1 (fresh)
    if not first:
        f("neg", cy)
    for j in range(w):
        if not first:
            f("adc", W[j], "0")
        f("mov", rpos(c0 + nb + j), W[j])


# ----------------------------------------------------------------------------------------
# sqr: the off-diagonal triangle by rows in a shrinking register window, then one pass that
# doubles it (adcx chain) and adds the diagonal squares (adox chain).

def emit_sqr(f, R, roff, A, aoff, n, regs, tmp_off=None):
    """R[2n] = A[n]^2: the off-diagonal triangle (emit_tri), then one pass that doubles it and
    adds the diagonal; with every off-diagonal limb in registers when 2n <= len(regs).
    tmp_off: unused (the cross products of a split accumulate in R itself)."""
    if 2 <= n and 2 * n <= len(regs):
        emit_sqr_regs(f, R, roff, A, aoff, n, regs)
        return
    emit_tri(f, R, roff, A, aoff, n, regs)
    emit_sqr_pass(f, R, roff, A, aoff, n, regs)


def emit_tri(f, R, roff, A, aoff, n, regs):
    """R[1 .. 2n-2] = sum_{i<j} a_i a_j 2^(64(i+j)). For n > len(regs)-1, a = aL + aH 2^(64h):
    the triangles of aL (R[1 .. 2h-2]) and aH (R[2h+1 .. 2n-2]), R[2h-1] = R[2h] = 0, then
    aL*aH accumulated at limb h (emit_addmul): one doubling pass for the whole square."""
    if n <= len(regs) - 1:
        emit_sqr_tri(f, R, roff, A, aoff, n, regs)
        return
    h = n // 2
    emit_tri(f, R, roff, A, aoff, h, regs)
    emit_tri(f, R, roff + 16 * h, A, aoff + 8 * h, n - h, regs)
    z = regs[0]
    f("xor", d32(z), d32(z))
    f("mov", m(R, roff + 8 * (2 * h - 1)), z)
    f("mov", m(R, roff + 8 * (2 * h)), z)
    emit_addmul(f, R, roff, A, aoff, A, aoff + 8 * h, h, n - h, h, 2 * n - 2, regs)


def emit_addmul(f, R, roff, A, aoff, B, boff, na, nb, c0, top, regs):
    """R[c0 .. top] += A[na] * B[nb] * 2^(64 c0), the caller knowing that the sum fits in
    R[.. top]. Columns of A in chunks of at most len(regs)-3 limbs (the mulx memory operand,
    window registers), rows over B (rdx). Every row: R at its low limb enters at the head of
    the adcx chain, the low halves on adox, the high halves on adcx, the row closes on a
    register kept 0; the window plus A*B[i] plus one limb is at most 2^(64(w+1)) - 1, so the
    closing limb never overflows. After the rows the window joins R and the carry runs to
    top. R must not overlap A or B."""
    lo, zero = regs[0], regs[1]
    pool = regs[2:]
    wmax = len(pool) - 1
    k = -(-na // wmax)
    widths = [na // k + (1 if i < na % k else 0) for i in range(k)]
    f("xor", d32(zero), d32(zero))
    ca = 0
    for w in widths:
        W, H = pool[:w], pool[w]
        for r in W:
            f("xor", d32(r), d32(r))
        for i in range(nb):
            p = c0 + ca + i
            f("mov", "rdx", m(B, boff + 8 * i))
            f("xor", d32(lo), d32(lo))
            f("adcx", W[0], m(R, roff + 8 * p))
            for j in range(w):
                f("mulx", H, lo, m(A, aoff + 8 * (ca + j)))
                f("adox", W[j], lo)
                if j < w - 1:
                    f("adcx", W[j + 1], H)
            f("adox", H, zero)
            f("adcx", H, zero)
            f("mov", m(R, roff + 8 * p), W[0])
            W, H = W[1:] + [H], W[0]
        base = c0 + ca + nb
        for j in range(w):
            f("add" if j == 0 else "adc", W[j], m(R, roff + 8 * (base + j)))
            f("mov", m(R, roff + 8 * (base + j)), W[j])
        for pos in range(base + w, top + 1):
            f("mov", lo, m(R, roff + 8 * pos))
            f("adc", lo, zero)
            f("mov", m(R, roff + 8 * pos), lo)
        ca += w


def emit_sqr_row0(f, A, aoff, W, out, lo, w):
    """The triangle's row 0, a_0 (a_1 .. a_n-1) with rdx = a_0: position 1 into out, the rest
    into W[0 .. w-1], its carries on the CF chain alone (adcx: beside mulx, adcx/adox take
    less issue bandwidth than add/adc, as in the products' row 0); lo is scratch, zeroed for
    the last carry."""
    if w > 1:
        f("xor", d32(lo), d32(lo))
    f("mulx", W[0], out, m(A, aoff + 8))
    for j in range(1, w):
        f("mulx", W[j], lo, m(A, aoff + 8 * (1 + j)))
        f("adcx", W[j - 1], lo)
    if w > 1:
        f("mov", d32(lo), "0")
        f("adcx", W[w - 1], lo)


def emit_sqr_regs(f, R, roff, A, aoff, n, regs):
    """R[2n] = A[n]^2 with every off-diagonal limb kept in a register (2n <= len(regs)): the
    triangle by rows, then the doubling (adcx) + diagonal (adox) pass straight from the
    registers, each result limb stored once."""
    lo = regs[0]
    free = list(regs[1:])
    reg = {}  # position -> register
    w = n - 1
    W = free[:w]
    free = free[w:]
    out = free.pop(0)
    f("mov", "rdx", m(A, aoff))
    emit_sqr_row0(f, A, aoff, W, out, lo, w)
    reg[1] = out
    pos0 = 2
    for i in range(1, n - 1):
        while pos0 < 2 * i + 1:
            reg[pos0] = W[0]
            W = W[1:]
            pos0 += 1
        H = free.pop(0)
        f("mov", "rdx", m(A, aoff + 8 * i))
        f("xor", d32(lo), d32(lo))
        for j in range(len(W)):
            f("mulx", H, lo, m(A, aoff + 8 * (i + 1 + j)))
            f("adox", W[j], lo)
            if j < len(W) - 1:
                f("adcx", W[j + 1], H)
        f("mov", d32(lo), "0")
        f("adox", H, lo)
        f("adcx", H, lo)
        W = W + [H]
    for j, r in enumerate(W):
        reg[pos0 + j] = r
    # pass: 2*off + diagonal
    H = free.pop(0)
    for i in range(n):
        f("mov", "rdx", m(A, aoff + 8 * i))
        f("mulx", H, lo, "rdx")
        if i == 0:
            f("mov", m(R, roff), lo)
            f("xor", "edx", "edx")  # CF = OF = 0 (rdx is reloaded below)
        else:
            o0 = reg[2 * i]
            f("adcx", o0, o0)
            f("adox", o0, lo)
            f("mov", m(R, roff + 16 * i), o0)
        if i == n - 1:
            o1 = reg[1]  # stored already: reuse it as the zero limb of position 2n-1
            f("mov", d32(o1), "0")
        else:
            o1 = reg[2 * i + 1]
        f("adcx", o1, o1)
        f("adox", o1, H)
        f("mov", m(R, roff + 16 * i + 8), o1)


def emit_sqr_tri(f, R, roff, A, aoff, n, regs):
    """R[1 .. 2n-2] = sum_{i<j} a_i a_j 2^(64(i+j)) (n >= 2)."""
    if n == 1:
        return
    lo, hi = regs[0], regs[1]
    free = list(regs[2:])
    w = n - 1
    W = free[:w]
    free = free[w:]
    f("mov", "rdx", m(A, aoff))
    emit_sqr_row0(f, A, aoff, W, hi, lo, w)
    f("mov", m(R, roff + 8), hi)
    free.append(hi)
    pos0 = 2  # position of W[0]
    for i in range(1, n - 1):
        while pos0 < 2 * i + 1:
            f("mov", m(R, roff + 8 * pos0), W[0])
            free.append(W[0])
            W = W[1:]
            pos0 += 1
        H = free.pop(0)
        f("mov", "rdx", m(A, aoff + 8 * i))
        f("xor", d32(lo), d32(lo))
        for j in range(len(W)):
            f("mulx", H, lo, m(A, aoff + 8 * (i + 1 + j)))
            f("adox", W[j], lo)
            if j < len(W) - 1:
                f("adcx", W[j + 1], H)
        f("mov", d32(lo), "0")
        f("adox", H, lo)
        f("adcx", H, lo)
        W = W + [H]
    for j, r in enumerate(W):
        f("mov", m(R, roff + 8 * (pos0 + j)), r)


def emit_sqr_pass(f, R, roff, A, aoff, n, regs):
    """R[2n] = 2*R[1..2n-2] + sum a_i^2 2^(128i); R[0], R[2n-1] are not read."""
    L, H, o0, o1 = regs[0], regs[1], regs[2], regs[3]
    if n == 1:
        f("mov", "rdx", m(A, aoff))
        f("mulx", H, L, "rdx")
        f("mov", m(R, roff), L)
        f("mov", m(R, roff + 8), H)
        return
    f("xor", d32(o0), d32(o0))
    for i in range(n):
        f("mov", "rdx", m(A, aoff + 8 * i))
        f("mulx", H, L, "rdx")
        if i == 0:
            f("mov", m(R, roff), L)
        else:
            f("mov", o0, m(R, roff + 16 * i))
            f("adcx", o0, o0)
            f("adox", o0, L)
            f("mov", m(R, roff + 16 * i), o0)
        if i == n - 1:
            f("mov", d32(o1), "0")
        else:
            f("mov", o1, m(R, roff + 16 * i + 8))
        f("adcx", o1, o1)
        f("adox", o1, H)
        f("mov", m(R, roff + 16 * i + 8), o1)


# ----------------------------------------------------------------------------------------
# Montgomery

FREE_BASE = ["r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14", "r15"]


def final_sub_regs(f, T, top, P, R, lo, free=()):
    """R[n] = T - p if T + top*2^(64n) >= p else T (T: registers, top in {0,1} register).
    s = T - p in the free registers if there are enough, else staged in R; then cmov by the
    borrow: no branch."""
    n = len(T)
    if len(free) >= n:
        S = list(free)[:n]
        for j in range(n):
            f("mov", S[j], T[j])
            f("sub" if j == 0 else "sbb", S[j], m(P, 8 * j))
        f("sbb", top, "0")  # CF = 1 iff T < p and top == 0: keep T
        for j in range(n):
            f("cmovc", S[j], T[j])
            f("mov", m(R, 8 * j), S[j])
        return
    for j in range(n):
        f("mov", lo, T[j])
        f("sub" if j == 0 else "sbb", lo, m(P, 8 * j))
        f("mov", m(R, 8 * j), lo)
    f("sbb", top, "0")  # CF = 1 iff T < p and top == 0: keep T
    for j in range(n):
        f("cmovnc", T[j], m(R, 8 * j))
        f("mov", m(R, 8 * j), T[j])


def gen_mont_mul(n):
    name = "tabai_mont_mul_n%d_bmi2" % n
    contract = ("r[%d] = a*b*2^-%d mod p: fused CIOS, product and reduction rows interleaved"
                " in registers; a, b < p, any odd p < 2^%d; r may alias a and/or b; constant time."
                % (n, 64 * n, 64 * n))
    if n >= 10:
        return gen_mont_mem(n, sqr=False)
    if n == 1:
        f = Func(name, contract, "t = r9:r10, m*p = r11:rax, top carry r10 (0/-1)")
        f("mov", "rdx", m("rdx"))
        f("mulx", "r9", "r10", m("rsi"))
        f("mov", "rdx", "r10")
        f("imul", "rdx", "r8")
        f("mulx", "r11", "rax", m("rcx"))
        f("add", "r10", "rax")   # 0, carry out
        f("adc", "r9", "r11")
        f("sbb", "r10", "r10")   # -top
        f("mov", "rax", "r9")
        f("sub", "rax", m("rcx"))
        f("sbb", "r10", "0")     # CF = 1 iff top == 0 and t < p: keep t
        f("cmovc", "rax", "r9")
        f("mov", m("rdi"), "rax")
        return f
    f = Func(name, contract)
    # args: rdi r, rsi a, rdx b, rcx p, r8 pinv
    pool = list(FREE_BASE)
    need = n + 3  # hi + window (n+1) + top carry
    spill = []
    b_in_reg = True
    if len(pool) < need + 1:
        spill.append("r")
        pool.append("rdi")
    if len(pool) < need + 1:
        spill.append("pinv")
        pool.append("r8")
    if len(pool) < need + 1:
        b_in_reg = False
        spill.append("b")
    alternate = False
    if len(pool) < need + (1 if b_in_reg else 0):
        alternate = True
        spill += ["a", "p"]
        pool.append("rcx")
    assert len(pool) >= need + (1 if b_in_reg else 0), n
    slots = {v: 8 * i for i, v in enumerate(spill)}
    f.frame = 8 * len(spill)
    argreg = {"r": "rdi", "a": "rsi", "b": "rdx", "p": "rcx", "pinv": "r8"}
    for v in spill:
        f("mov", m("rsp", slots[v]), argreg[v])
    if b_in_reg:
        Breg = pool.pop()
        f("mov", Breg, "rdx")
    hi = pool[0]
    T = pool[1:n + 2]
    C1 = pool[n + 2]
    lo = "rax"
    A = "rsi"
    P = "rsi" if alternate else "rcx"
    PINV = m("rsp", slots["pinv"]) if "pinv" in slots else "r8"
    f.regmap = ("window t[0..%d] = %s, carry %s, lo %s, hi %s, a %s, p %s%s"
                % (n, " ".join(T), C1, lo, hi, A, P,
                   (", spilled: " + " ".join(spill)) if spill else ""))

    def load_b(i):
        if b_in_reg:
            f("mov", "rdx", m(Breg, 8 * i))
        else:
            f("mov", "rdx", m("rsp", slots["b"]))
            f("mov", "rdx", m("rdx", 8 * i))

    def use(ptr):
        if alternate:
            f("mov", "rsi", m("rsp", slots[ptr]))

    # product row 0: T[0..n] = a*b[0], on the CF chain alone (adcx: next to mulx on a core
    # issuing one mulx per cycle, adcx/adox cost less issue bandwidth than add/adc); C1 = 0
    # clears the flags and is the zero for the last carry
    load_b(0)
    f("xor", d32(C1), d32(C1))
    f("mulx", T[1], T[0], m(A, 0))
    for j in range(1, n):
        f("mulx", T[j + 1], lo, m(A, 8 * j))
        f("adcx", T[j], lo)
    if n > 1:
        f("adcx", T[n], C1)
    for i in range(n):
        if i > 0:
            # product row i: T[0..n] (+C1 at n+1) += a*b[i]
            # C1 is 0 here (the previous reduction row's zeroed T[0]) and T[n] is 0 or 1, so
            # the OF carry folds into T[n] before the last high half without overflowing,
            # and only CF leaves the row: C1 = CF
            use("a")
            load_b(i)
            f("xor", d32(lo), d32(lo))
            for j in range(n):
                f("mulx", hi, lo, m(A, 8 * j))
                f("adox", T[j], lo)
                if j == n - 1:
                    f("adox", T[n], C1)
                f("adcx", T[j + 1], hi)
            f("adcx", C1, C1)
        # reduction row: T += m*p with m = T[0]*pinv; T[0] becomes 0 and serves as the zero
        # for the row's closing carries (no flag-preserving `mov reg, 0`)
        use("p")
        f("mov", "rdx", T[0])
        f("imul", "rdx", PINV)
        f("xor", d32(lo), d32(lo))
        Z = T[0]
        for j in range(n):
            f("mulx", hi, lo, m(P, 8 * j))
            f("adox", T[j], lo)
            if j == n - 1:
                f("adox", T[n], Z)
            f("adcx", T[j + 1], hi)
        f("adcx", C1, Z)
        f("adox", C1, Z)
        T, C1 = T[1:] + [C1], T[0]
    R = "rdi"
    free = ([lo, hi, C1] + ([] if alternate else ["rsi"]) + ([Breg] if b_in_reg else [])
            + (["r8"] if PINV == "r8" else []))
    if "r" in slots:
        f("mov", "rdx", m("rsp", slots["r"]))
        R = "rdx"
    else:
        free.append("rdx")
    final_sub_regs(f, T[:n], T[n], P, R, lo, free)
    return f


def gen_mont_sqr(n):
    if n >= 10:
        return gen_mont_mem(n, sqr=True)
    name = "tabai_mont_sqr_n%d_bmi2" % n
    contract = ("r[%d] = a^2*2^-%d mod p: square (off-diagonal once, doubled, plus diagonal) on the"
                " stack, then REDC rows in a register window; a < p, any odd p; r may alias a;"
                " constant time." % (n, 64 * n))
    if n <= MONT_SQR_VIA_MUL:
        f = Func(name, "r[%d] = a^2*2^-%d mod p: tail call of tabai_mont_mul_n%d_bmi2(r, a, a, p, pinv)"
                 " (below n = %d the fused product beats square + REDC on the core the"
                 " generator is tuned for); r may alias a; constant time."
                 % (n, 64 * n, n, MONT_SQR_VIA_MUL + 1))
        f("mov", "r8", "rcx")
        f("mov", "rcx", "rdx")
        f("mov", "rdx", "rsi")
        f("jmp", "tabai_mont_mul_n%d_bmi2" % n)
        return f
    f = Func(name, contract)
    # args: rdi r, rsi a, rdx p, rcx pinv
    U = 24  # u[2n] at rsp+24; slots r, p, pinv at 0, 8, 16
    f.frame = U + 16 * n
    f("mov", m("rsp", 0), "rdi")
    f("mov", m("rsp", 8), "rdx")
    f("mov", m("rsp", 16), "rcx")
    regs = ["rax", "rcx", "rdi", "r8", "r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14", "r15"]
    emit_sqr(f, "rsp", U, "rsi", 0, n, regs)
    emit_redc_regs(f, n, U)
    return f


def emit_redc_regs(f, n, U):
    """r = u*2^(-64n) mod p for u[2n] at rsp+U (u < p*2^(64n)); slots r, p, pinv at
    rsp+0, +8, +16. Register window t[0..n], pending carry C."""
    P = "rsi"
    f("mov", P, m("rsp", 8))
    pool = ["rax", "rcx", "rdi", "r8", "r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14", "r15"]
    lo, hi, C = pool[0], pool[1], pool[2]
    rest = pool[3:]
    PINV = m("rsp", 16)
    if len(rest) >= n + 2:
        PINV = rest.pop()
        f("mov", PINV, m("rsp", 16))
    T = rest[:n]
    free = rest[n:]
    # a register that stays 0 closes the rows (no flag-preserving `mov reg, 0`, which costs
    # issue bandwidth next to mulx); the row's zeroed t[0] collects its carry
    Zr = free.pop() if len(free) >= 2 else None
    for j in range(n):
        f("mov", T[j], m("rsp", U + 8 * j))
    f("xor", d32(C), d32(C))
    if Zr:
        f("xor", d32(Zr), d32(Zr))
    for i in range(n):
        top = free.pop(0)
        f("mov", top, m("rsp", U + 8 * (i + n)))
        f("mov", "rdx", T[0])
        f("imul", "rdx", PINV)
        f("xor", d32(lo), d32(lo))
        W = T + [top]
        for j in range(n):
            f("mulx", hi, lo, m(P, 8 * j))
            f("adox", W[j], lo)
            if j == n - 1:
                f("lea", hi, "[%s + %s]" % (hi, C))
            f("adcx", W[j + 1], hi)
        if Zr:
            f("adox", W[n], Zr)
            f("adcx", W[0], Zr)
            f("adox", W[0], Zr)
            free.append(C)
            C = W[0]
        else:
            f("mov", d32(C), "0")
            f("mov", d32(lo), "0")
            f("adox", W[n], lo)
            f("adcx", C, lo)
            f("adox", C, lo)
            free.append(W[0])
        T = W[1:]
    f("mov", "rdx", m("rsp", 0))
    final_sub_regs(f, T, C, P, "rdx", lo,
                   [hi] + free + ([Zr] if Zr else []) + ([PINV] if PINV in pool else []))


def emit_redc_mem(f, n, P, PINV, Up, cnt, R):
    """r[n] = u * 2^(-64n) mod p for u[2n] at Up (u < p*2^(64n); destroyed): one REDC row per
    loop trip, mulx with the accumulator in memory (adox with a memory operand), high halves
    by adcx, the pending top carry in rbx; final subtraction by cmov. R: register holding r,
    or "rdx_at_end" to load it from the frame slot rsp+0."""
    L, H1, H2, Z, C = "rax", "r9", "r10", "r11", "rbx"
    f("mov", d32(cnt), str(n))
    f("xor", d32(C), d32(C))
    f("xor", d32(Z), d32(Z))
    loop = f.newlabel("redc")
    f.label(loop)
    f("mov", "rdx", m(Up, 0))
    f("imul", "rdx", PINV)
    f("xor", d32(L), d32(L))
    Hs = [H1, H2]
    for j in range(n):
        H = Hs[j % 2]
        f("mulx", H, L, m(P, 8 * j))
        f("adox", L, m(Up, 8 * j))
        if j > 0:
            f("adcx", L, Hs[(j - 1) % 2])
            f("mov", m(Up, 8 * j), L)
    Hp = Hs[(n - 1) % 2]
    f("lea", Hp, "[%s + %s]" % (Hp, C))
    f("mov", L, m(Up, 8 * n))
    f("adcx", L, Hp)
    f("adox", L, Z)
    f("mov", m(Up, 8 * n), L)
    f("mov", d32(C), "0")
    f("adcx", C, Z)
    f("adox", C, Z)
    f("lea", Up, "[%s + 8]" % Up)
    f("dec", cnt)
    f("jnz", loop)
    # final subtraction: t = Up[0..n-1] + C*2^(64n)
    if R == "rdx_at_end":
        R = "rdx"
        f("mov", R, m("rsp", 0))
    for j in range(n):
        f("mov", L, m(Up, 8 * j))
        f("sub" if j == 0 else "sbb", L, m(P, 8 * j))
        f("mov", m(R, 8 * j), L)
    f("sbb", C, "0")
    for j in range(n):
        f("mov", L, m(R, 8 * j))
        f("cmovc", L, m(Up, 8 * j))
        f("mov", m(R, 8 * j), L)


def emit_redc_blocks(f, n, T, toff, P, PINV, MOFF, R):
    """r[n] = u * 2^(-64n) mod p for u[2n+1] at T+toff (u[2n] = 0 on entry, u < p*2^(64n);
    destroyed), n >= 9: blocks of at most 8 REDC rows (balanced), fully unrolled. Phase 1 of a
    block of w rows: the w multipliers m_i = win[0]*pinv by rows over p[0..w-1] in a w-register
    window (stored at rsp+MOFF); phase 2: m[0..w-1] x p[w..n-1] by rows over p[j]
    (rdx = p[j]) with the window over m, starting from the window phase 1 left; u at the row's
    low limb is added at the head of the row's adcx chain (adcx with a memory operand), so the
    chain runs over w + 1 positions and no third carry is needed: the window plus m*p[j] plus
    one limb is at most 2^(64(w+1)) - 1, so the closing limb never overflows. Rows close on
    rcx, kept 0 (no `mov reg, 0` per row). R: register holding r at the end, or "rdx_at_end"
    (frame slot rsp+0)."""
    assert n >= 9
    lo, zero = "rax", "rcx"
    pool = ["r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14", "r15"]
    k = -(-n // 8)
    widths = [n // k + (1 if i < n % k else 0) for i in range(k)]

    def u(pos):
        return m(T, toff + 8 * pos)

    kb = 0
    f("xor", d32(zero), d32(zero))
    for w in widths:
        W = pool[:w]
        H = pool[w]
        for j in range(w):
            f("mov", W[j], u(kb + j))
        # phase 1
        for i in range(w):
            f("mov", "rdx", W[0])
            f("imul", "rdx", PINV)
            f("mov", m("rsp", MOFF + 8 * i), "rdx")
            f("xor", d32(lo), d32(lo))
            for j in range(w):
                f("mulx", H, lo, m(P, 8 * j))
                f("adox", W[j], lo)
                if j < w - 1:
                    f("adcx", W[j + 1], H)
            f("adox", H, zero)
            f("adcx", H, zero)
            W, H = W[1:] + [H], W[0]
        # phase 2: window W at positions kb+w .., rows over p[w..n-1]; u[pos] enters the
        # adcx chain at its head
        for jj in range(w, n):
            pos = kb + jj
            f("mov", "rdx", m(P, 8 * jj))
            f("xor", d32(lo), d32(lo))
            f("adcx", W[0], u(pos))
            for q in range(w):
                f("mulx", H, lo, m("rsp", MOFF + 8 * q))
                f("adox", W[q], lo)
                if q < w - 1:
                    f("adcx", W[q + 1], H)
            f("adox", H, zero)
            f("adcx", H, zero)
            out = W[0]
            f("mov", u(pos), out)
            W, H = W[1:] + [H], out
        # the window (positions kb+n .. kb+n+w-1) and the carry up to u[2n]
        for q in range(w):
            f("add" if q == 0 else "adc", W[q], u(kb + n + q))
            f("mov", u(kb + n + q), W[q])
        for pos in range(kb + n + w, 2 * n + 1):
            f("mov", lo, u(pos))
            f("adc", lo, "0")
            f("mov", u(pos), lo)
        kb += w
    # final subtraction: t = u[n..2n-1] + u[2n]*2^(64n)
    top = pool[0]
    f("mov", top, u(2 * n))
    if R == "rdx_at_end":
        R = "rdx"
        f("mov", R, m("rsp", 0))
    for j in range(n):
        f("mov", lo, u(n + j))
        f("sub" if j == 0 else "sbb", lo, m(P, 8 * j))
        f("mov", m(R, 8 * j), lo)
    f("sbb", top, "0")
    for j in range(n):
        f("mov", lo, m(R, 8 * j))
        f("cmovc", lo, u(n + j))
        f("mov", m(R, 8 * j), lo)


def gen_redc(n):
    f = Func("tabai_redc_n%d_bmi2" % n,
             "r[%d] = t * 2^-%d mod p for t[%d] < p*2^%d (t destroyed); REDC rows in a loop, one"
             " unrolled mulx row of %d limbs per trip; r must not overlap t; constant time."
             % (n, 64 * n, 2 * n, 64 * n, n),
             "rdi r, rsi t, r8 p, r12 pinv, rcx count, rbx carry")
    # args: rdi r, rsi t, rdx p, rcx pinv
    if n in REDC_BLOCKS:
        f.contract = ("r[%d] = t * 2^-%d mod p for t[%d] < p*2^%d (t has %d limbs of storage and is"
                      " destroyed); REDC in fully unrolled blocks of 8 rows with register windows;"
                      " r must not overlap t; constant time." % (n, 64 * n, 2 * n, 64 * n, 2 * n + 1))
        f.frame = 80
        f.regmap = "t rsi, p r8, pinv at rsp+8, m[8] at rsp+16, window r9..r15 rbx rbp, rcx kept 0"
        f("mov", m("rsp", 8), "rcx")
        f("mov", "r8", "rdx")
        f("mov", m("rsi", 16 * n), "0")
        emit_redc_blocks(f, n, "rsi", 0, "r8", m("rsp", 8), 16, "rdi")
        return f
    f("mov", "r8", "rdx")
    f("mov", "r12", "rcx")
    emit_redc_mem(f, n, P="r8", PINV="r12", Up="rsi", cnt="rcx", R="rdi")
    return f


def gen_mul_rows(n):
    """r[2n] = a*b for a fixed n above 16: one unrolled mulx row of n limbs per loop trip
    (rdx = b[i]), the accumulator r in memory (adox with a memory operand), high halves by
    adcx."""
    f = Func("tabai_mul_rows_n%d_bmi2" % n,
             "r[%d] = a[%d]*b[%d]: mulx rows, memory accumulator; r must not overlap a or b."
             % (2 * n, n, n), "rdi r (advances), rsi a, rcx b (advances), r8 count, r11 zero")
    # args: rdi r, rsi a, rdx b, rcx n (ignored)
    L, Hs, Z, cnt = "rax", ["r9", "r10"], "r11", "r8"
    f("mov", "rcx", "rdx")
    f("mov", "rdx", m("rcx", 0))
    f("xor", d32(Z), d32(Z))
    for j in range(n):  # row 0: r[0..n] = a*b[0]
        f("mulx", Hs[j % 2], L, m("rsi", 8 * j))
        if j:
            f("adcx", L, Hs[(j - 1) % 2])
        f("mov", m("rdi", 8 * j), L)
    Hp = Hs[(n - 1) % 2]
    f("adcx", Hp, Z)
    f("mov", m("rdi", 8 * n), Hp)
    f("mov", d32(cnt), str(n - 1))
    loop = f.newlabel("row")
    f.label(loop)
    f("lea", "rdi", "[rdi + 8]")
    f("lea", "rcx", "[rcx + 8]")
    f("mov", "rdx", m("rcx", 0))
    f("xor", d32(L), d32(L))
    for j in range(n):
        f("mulx", Hs[j % 2], L, m("rsi", 8 * j))
        f("adox", L, m("rdi", 8 * j))
        if j:
            f("adcx", L, Hs[(j - 1) % 2])
        f("mov", m("rdi", 8 * j), L)
    f("adox", Hp, Z)
    f("adcx", Hp, Z)
    f("mov", m("rdi", 8 * n), Hp)
    f("dec", cnt)
    f("jnz", loop)
    return f


def gen_mont_mem(n, sqr):
    """n >= 10: the 2n-limb product or square on the stack (register-window rows), then REDC
    rows with the accumulator in memory (adox with a memory operand), one row per loop trip."""
    op = "sqr" if sqr else "mul"
    name = "tabai_mont_%s_n%d_bmi2" % (op, n)
    contract = ("r[%d] = a%s*2^-%d mod p: %s into a 2n-limb stack buffer, then REDC rows (mulx, adox"
                " memory accumulator, adcx high halves); inputs < p, any odd p; r may alias"
                " inputs; constant time." % (n, "^2" if sqr else "*b", 64 * n,
                                           "square" if sqr else "product"))
    f = Func(name, contract)
    U = 32
    TMP = U + 16 * n
    f.frame = TMP + (8 * n if sqr else 0)
    if sqr:  # rdi r, rsi a, rdx p, rcx pinv
        f("mov", m("rsp", 0), "rdi")
        f("mov", m("rsp", 8), "rdx")
        f("mov", m("rsp", 16), "rcx")
        regs = ["rax", "rcx", "rdi", "r8", "r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14",
                "r15"]
        emit_sqr(f, "rsp", U, "rsi", 0, n, regs, tmp_off=TMP)
    else:  # rdi r, rsi a, rdx b, rcx p, r8 pinv
        f("mov", m("rsp", 0), "rdi")
        f("mov", m("rsp", 8), "rcx")
        f("mov", m("rsp", 16), "r8")
        f("mov", "rcx", "rdx")
        regs = ["rax", "rdi", "r8", "r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14", "r15"]
        emit_mul(f, "rsp", U, "rsi", 0, "rcx", 0, n, n, regs)
    f("mov", "rsi", m("rsp", 8))
    if True:  # n = 10..16: blocked REDC in register windows
        MOFF = TMP + 8 * n + 8
        f.frame = MOFF + 64
        f("mov", "rdi", m("rsp", 16))
        f("mov", m("rsp", U + 16 * n), "0")
        emit_redc_blocks(f, n, "rsp", U, "rsi", "rdi", MOFF, "rdx_at_end")
        f.regmap = "product on the stack at rsp+%d; REDC blocks: p rsi, pinv rdi, m[8] at rsp+%d" % (U, MOFF)
        return f
    f("mov", "r8", m("rsp", 16))
    f("lea", "rdi", "[rsp + %d]" % U)
    emit_redc_mem(f, n, P="rsi", PINV="r8", Up="rdi", cnt="rcx", R="rdx_at_end")
    f.regmap = "product on the stack at rsp+%d; REDC: p rsi, u rdi, pinv r8, carry rbx" % U
    return f


# ----------------------------------------------------------------------------------------
# modular add / sub

def gen_mod_add(n):
    name = "tabai_mod_add_n%d_bmi2" % n
    f = Func(name, "r[%d] = a + b mod p; a, b < p; any aliasing of r with a, b; constant time." % n)
    # rdi r, rsi a, rdx b, rcx p
    x = "rax"
    if n <= 10:
        T = ["r8", "r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14", "r15"][:n]
        for j in range(n):
            f("mov", T[j], m("rsi", 8 * j))
            f("add" if j == 0 else "adc", T[j], m("rdx", 8 * j))
        f("mov", d32(x), "0")
        f("adc", x, "0")  # carry
        c = "rsi"
        f("mov", c, x)
        final_sub_regs(f, T, c, "rcx", "rdi", x)
        f.regmap = "t = " + " ".join(T)
        return f
    # memory: t = a + b into r, carry c; borrow of t - p; r -= p & mask
    c, z, k = "r8", "r9", "r10"
    for j in range(n):
        f("mov", x, m("rsi", 8 * j))
        f("adc" if j else "add", x, m("rdx", 8 * j))
        f("mov", m("rdi", 8 * j), x)
    f("sbb", c, c)  # c = -carry
    for j in range(n):
        f("mov", x, m("rdi", 8 * j))
        f("sbb" if j else "sub", x, m("rcx", 8 * j))
    f("sbb", k, k)  # k = -borrow
    f("not", c)     # c = carry ? 0 : -1
    f("and", k, c)  # k = -1 iff keep t
    f("not", k)     # k = -1 iff subtract
    f("xor", d32(z), d32(z))
    f("test", k, k)  # ZF = 1: keep
    f("bt", k, "0")  # CF = subtract (ZF unchanged)
    for j in range(n):
        f("mov", x, m("rcx", 8 * j))
        f("not", x)
        f("cmovz", x, z)
        f("adcx", x, m("rdi", 8 * j))
        f("mov", m("rdi", 8 * j), x)
    return f


def gen_mod_sub(n):
    name = "tabai_mod_sub_n%d_bmi2" % n
    f = Func(name, "r[%d] = a - b mod p; a, b < p; any aliasing of r with a, b; constant time." % n)
    x, k, z = "rax", "r8", "r9"
    for j in range(n):
        f("mov", x, m("rsi", 8 * j))
        f("sbb" if j else "sub", x, m("rdx", 8 * j))
        f("mov", m("rdi", 8 * j), x)
    f("sbb", k, k)
    f("xor", d32(z), d32(z))
    f("test", k, k)  # ZF = 1: no borrow, add nothing; CF = 0 (test)
    for j in range(n):
        f("mov", x, m("rcx", 8 * j))
        f("cmovz", x, z)
        f("adcx", x, m("rdi", 8 * j))
        f("mov", m("rdi", 8 * j), x)
    return f


# ----------------------------------------------------------------------------------------
# row kernels, any n

def gen_row(add, U=8):
    name = "tabai_%s_1_n_bmi2" % ("addmul" if add else "mul")
    contract = ("r[n] %s a[n]*b, returns the high limb; any n >= 0; r may equal a; "
                "mulx + %s, unrolled by %d (entered part-way for n %% %d != 0)."
                % ("+=" if add else "=", "adox (r) / adcx (high halves)" if add else "adcx", U, U))
    f = Func(name, contract, "rdi r, rsi a, rcx -index, rdx b, r8 n, r9/r10 high halves")
    # args: rdi r, rsi a, rdx n, rcx b
    done = f.newlabel("done")
    zero = f.newlabel("zero")
    steps = [f.newlabel("s%d" % k) for k in range(U)]
    ent = [f.newlabel("e%d" % k) for k in range(U)]
    f("mov", "r8", "rdx")
    f("mov", "rdx", "rcx")
    f("test", "r8", "r8")
    f("jz", zero)
    # rcx = -(n rounded up to U); the entry skips k = (rounded - n) steps
    f("lea", "rcx", "[r8 + %d]" % (U - 1))
    f("and", "rcx", "-%d" % U)
    f("lea", "rsi", "[rsi + 8*r8]")   # a + 8n: the first step run reads a[0]
    f("lea", "rdi", "[rdi + 8*r8]")
    f("neg", "rcx")
    f("lea", "r11", "[rcx + r8]")     # -k
    f("neg", "r11")                   # k, public
    for k in range(1, U):
        f("cmp", "r11", str(k))
        f("je", ent[k])
    f("jmp", ent[0])
    Hs = ["r9", "r10"]
    for k in list(range(1, U)) + [0]:  # entry 0 falls through into step 0
        f.label(ent[k])
        f("xor", d32(Hs[(k + 1) % 2]), d32(Hs[(k + 1) % 2]))  # carry in = 0; CF = OF = 0
        if k:
            f("jmp", steps[k])
    for k in range(U):
        f.label(steps[k])
        H, Hp = Hs[k % 2], Hs[(k + 1) % 2]
        f("mulx", H, "rax", m("rsi", 8 * k, "rcx"))
        if add:
            f("adox", "rax", m("rdi", 8 * k, "rcx"))
        f("adcx", "rax", Hp)
        f("mov", m("rdi", 8 * k, "rcx"), "rax")
    f("lea", "rcx", "[rcx + %d]" % U)
    f("jrcxz", done)
    f("jmp", steps[0])
    f.label(done)
    Hl = Hs[(U - 1) % 2]
    f("mov", "eax", "0")
    f("adcx", Hl, "rax")
    if add:
        f("adox", Hl, "rax")
    f("mov", "rax", Hl)
    f("ret")
    f.label(zero)
    f("xor", "eax", "eax")
    return f


def gen_addmul_8xn():
    """r[0 .. nb+7] += a[8] * b[nb], returns the carry out (0 or 1); nb >= 1. The window of
    8 limbs stays in registers across a runtime loop over the rows (b[i] in rdx); at the end
    of each row its low limb leaves into r[i] through a third carry, kept as 0/-1 in r8
    between rows, and the window shifts down by register moves."""
    f = Func("tabai_addmul_8xn_bmi2",
             "r[nb+8] += a[8]*b[nb], returns the carry out; nb >= 1; r must not overlap a or b.",
             "rdi r (advances), rsi a, rcx b (advances), r8 carry 0/-1, window r9 r10 r11 rbx rbp"
             " r12 r13 r14, r15 hi")
    W = ["r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14"]
    H = "r15"
    f.frame = 8
    # args: rdi r, rsi a, rdx b, rcx nb
    f("lea", "rax", "[rdx + 8*rcx]")
    f("mov", m("rsp", 0), "rax")  # end of b
    f("mov", "rcx", "rdx")
    for r in W:
        f("xor", d32(r), d32(r))
    f("xor", "r8d", "r8d")
    loop = f.newlabel("row")
    f.label(loop)
    f("mov", "rdx", m("rcx", 0))
    f("xor", "eax", "eax")
    for j in range(8):
        f("mulx", H, "rax", m("rsi", 8 * j))
        f("adox", W[j], "rax")
        if j < 7:
            f("adcx", W[j + 1], H)
    f("mov", "eax", "0")
    f("adox", H, "rax")
    f("adcx", H, "rax")
    f("neg", "r8")
    f("adc", W[0], m("rdi", 0))
    f("mov", m("rdi", 0), W[0])
    f("sbb", "r8", "r8")
    for j in range(7):
        f("mov", W[j], W[j + 1])
    f("mov", W[7], H)
    f("lea", "rdi", "[rdi + 8]")
    f("lea", "rcx", "[rcx + 8]")
    f("cmp", "rcx", m("rsp", 0))
    f("jne", loop)
    f("neg", "r8")
    for j in range(8):
        f("adc", W[j], m("rdi", 8 * j))
        f("mov", m("rdi", 8 * j), W[j])
    f("sbb", "rax", "rax")
    f("neg", "rax")
    return f


def gen_mul(n):
    f = Func("tabai_mul_n%d_bmi2" % n,
             "r[%d] = a[%d]*b[%d] (mulPre); r must not overlap a or b; n argument ignored." % (2 * n, n, n),
             "rdi r, rsi a (mulx memory operand), rcx b (rows, rdx = b[i])")
    f("mov", "rcx", "rdx")
    regs = ["rax", "r8", "r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14", "r15"]
    emit_mul(f, "rdi", 0, "rsi", 0, "rcx", 0, n, n, regs)
    return f


def gen_sqr(n):
    f = Func("tabai_sqr_n%d_bmi2" % n,
             "r[%d] = a[%d]^2: off-diagonal products once (register rows), doubled, plus the"
             " diagonal; r must not overlap a; n argument ignored." % (2 * n, n),
             "rdi r, rsi a")
    regs = ["rax", "rcx", "r8", "r9", "r10", "r11", "rbx", "rbp", "r12", "r13", "r14", "r15"]
    emit_sqr(f, "rdi", 0, "rsi", 0, n, regs)
    return f


# ----------------------------------------------------------------------------------------

def header(title):
    return ("/* %s\n * Generated by `%s` (tools/gen/x64.py): do not edit.\n"
            " * Tier bmi2 (BMI2 + ADX), System V AMD64 ABI, GNU as, Intel syntax. */\n"
            "\t.intel_syntax noprefix\n\t.text\n" % (title, CMD))


FOOTER = "\n\t.section\t.note.GNU-stack,\"\",@progbits\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="output folder (src/x64)")
    ap.add_argument("--tune", choices=sorted(TUNES), default=TUNE_DEFAULT,
                    help="core whose measurements pick the size thresholds (default %(default)s)")
    args = ap.parse_args()
    global MONT_SQR_VIA_MUL, CMD
    MONT_SQR_VIA_MUL = TUNES[args.tune]["mont_sqr_via_mul"]
    if args.tune != TUNE_DEFAULT:
        CMD += " --tune " + args.tune
    os.makedirs(args.out, exist_ok=True)
    files = {
        "mul.S": ("mul: r[2n] = a[n]*b[n], n = 1..16", [gen_mul(n) for n in range(1, NMAX + 1)]),
        "sqr.S": ("sqr: r[2n] = a[n]^2, n = 1..16", [gen_sqr(n) for n in range(1, NMAX + 1)]),
        "mont.S": ("Montgomery mul and sqr, n = 1..16",
                   [gen_mont_mul(n) for n in range(1, NMAX + 1)] +
                   [gen_mont_sqr(n) for n in range(1, NMAX + 1)]),
        "redc.S": ("REDC and product rows for the any-n drivers, n = 24..128 step 8",
                   [gen_redc(n) for n in REDC_SIZES] + [gen_mul_rows(n) for n in REDC_SIZES]),
        "mul32.S": ("mul and sqr unrolled for n = 32 (2048 bits), used by the any-n drivers",
                    [gen_mul(32), gen_sqr(32)]),
        "modas.S": ("modular add and sub, n = 1..16",
                    [gen_mod_add(n) for n in range(1, NMAX + 1)] +
                    [gen_mod_sub(n) for n in range(1, NMAX + 1)]),
        "row.S": ("row kernels mul_1, addmul_1 (any n), addmul_8xn (8 x any n)",
                  [gen_row(False), gen_row(True), gen_addmul_8xn()]),
    }
    ticks = None
    tpath = os.path.join(args.out, "ticks.json")  # measured figures, refreshed by x64_ticks.py
    if os.path.exists(tpath):
        with open(tpath) as fh:
            ticks = json.load(fh)
    mix = []
    for fname, (title, funcs) in files.items():
        text = header(title) + "".join(fn.render(ticks) for fn in funcs) + FOOTER
        with open(os.path.join(args.out, fname), "w") as fh:
            fh.write(text)
        for fn in funcs:
            mix.append((fn.name, fn.mix()))
    keys = ["mulx", "adcx", "adox", "adc", "add", "sbb_sub", "mov", "cmov", "other", "spill", "total"]
    lines = ["/* Instruction mix of the generated bmi2 kernels (prologue/epilogue excluded;",
             " * spill = instructions touching the stack frame).",
             " * Generated by `%s` (tools/gen/x64.py): do not edit. */" % CMD,
             "#ifndef TABAI_X64_MIX_H", "#define TABAI_X64_MIX_H", "",
             "typedef struct tabai_x64_mix {", "    const char *symbol;"]
    lines += ["    unsigned %s;" % k for k in keys]
    lines += ["} tabai_x64_mix;", "", "static const tabai_x64_mix tabai_x64_mix_table[] = {"]
    for name, c in mix:
        lines.append("    {\"%s\", %s}," % (name[len("tabai_"):], ", ".join(str(c[k]) for k in keys)))
    lines += ["};", "", "#endif", ""]
    with open(os.path.join(args.out, "x64_mix.h"), "w") as fh:
        fh.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
