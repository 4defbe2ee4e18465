"""Renders the reproduction report (docs/reproduction.md's measured part) from the JSON that
``tabai-bench --reproduce`` writes.

The C benchmark only measures and writes records; every table, ratio and verdict of the
report is computed here. Each record carries ``experiment`` (the report section: seed000,
seed002, seed003, seed004, scan, seed001), ``ns_min``, and for digit kernels ``digit_bits``,
``digits`` and ``useful_digits``; the records of a section are in the order the binary
measured them. ``meta`` carries the run's date, CPU, tier, core clock, TSC frequency, GMP
version, budget per experiment, load average and whether the multi-buffer kernels run here.
Only the standard library is used.
"""

from __future__ import annotations

from typing import Any, Dict, List

Record = Dict[str, Any]

_DISPATCHED = "mul_n (dispatched)"


def _f(fmt: str, *args: Any) -> str:
    """printf-style formatting (the report's figures use C's rounding: correctly rounded)."""
    return fmt % args


def _section(data: Dict[str, Any], name: str) -> List[Record]:
    return [r for r in data.get("records", []) if r.get("experiment") == name]


def _sym(r: Record) -> str:
    return r.get("symbol") or "-"


def _header(meta: Dict[str, Any]) -> str:
    out = "# tabai reproduction report\n\n"
    out += _f("Run %s on %s (tier in use: %s; core clock %.2f GHz: the fastest of many "
              "chains of dependent adds, i.e. the boost clock, so fractions of peak below are "
              "conservative; TSC %.3f GHz, TSC ticks are not core cycles). GMP %s. Median of "
              "alternating samples, about %.1f s per experiment; 1-minute load average at the "
              "start %.2f.\n",
              meta["date"], meta["cpu"], meta["tier"], meta["core_ghz"],
              meta.get("tsc_hz_exact", meta["tsc_hz"]) * 1e-9, meta["gmp_version"],
              meta["seconds"], meta["loadavg"])
    if not meta.get("ifma"):
        out += ("\nThis CPU has no AVX-512 IFMA: the IFMA experiment of seed 001 cannot run "
                "here.\n")
    return out


def _seed000(rs: List[Record]) -> str:
    out = "\n## Seed 000: 1024 x 1024-bit product, 16-bit standard C vs 29-bit SIMD\n\n"
    out += ("Seed (Pentium 4, 1.2 GHz): standard C 16x16 **30.0 us**, SSE2 asm 29-bit digits "
            "**2.80 us**: **10.7x**. Targets here: SSE2 >= 8x, best width >= 15x.\n\n")
    out += "| kernel | symbol | median ns | TSC ticks | min ns | vs c16 | |\n|---|---|---|---|---|---|---|\n"
    c = len(rs)
    ndig = sum(1 for r in rs if r["op"] == "mul_digits")
    base = rs[0]["ns"]
    for i, r in enumerate(rs):
        note = ("digits in, digits out (as the seed measured)" if i < ndig
                else "limbs in, limbs out (conversion included)")
        if i >= ndig and r["impl"] == "tabai" and r.get("symbol") == _DISPATCHED:
            note = "fastest tabai path (64-bit limbs, tier in use)"
        if r["impl"] == "gmp":
            note = "GMP"
        out += _f("| %s | %s | %.0f | %.0f | %.0f | %.2fx | %s |\n", r["kernel"], _sym(r),
                  r["ns"], r["tsc"], r["ns_min"], base / r["ns"], note)
    best, bk = rs[1]["ns"], rs[1]["kernel"]
    for r in rs[1:ndig]:
        if r["ns"] < best:
            best, bk = r["ns"], r["kernel"]
    top = rs[c - 2]
    conv = rs[c - 3]["ns"] if rs[c - 3]["ns"] < rs[c - 4]["ns"] else rs[c - 4]["ns"]
    out += _f("\nFastest tabai kernel at 1024 bits: **%s** `%s` (%.0f ns, %.1fx c16; the best "
              "delayed-carry kernel with conversion: %.0f ns).\n",
              top["kernel"], top["symbol"], top["ns"], base / top["ns"], conv)
    out += _f("\nSSE2 vs c16: **%.1fx** (target >= 8x: %s). Best width (%s) vs c16: **%.1fx** "
              "(target >= 15x: %s). Conversion included: SSE2 %.1fx.\n",
              base / rs[1]["ns"], "met" if base / rs[1]["ns"] >= 8 else "missed", bk, base / best,
              "met" if base / best >= 15 else "missed", rs[ndig]["ns"] / rs[ndig + 1]["ns"])
    return out


def _seed002(rs: List[Record], ghz: float) -> str:
    peak = 8.0 * ghz
    out = "\n## Seed 002: float64-digit products at 640 and 2000 bits\n\n"
    out += _f("Seed (HP 9000/755, 198 MFLOPS peak, 20-bit digits, 4x4 blocking): 640 bits **36 us**, "
              "2000 bits **222 us** (about 50%% of peak counted as 2 flops per digit product).\n"
              "Here the peak is 8 flops/cycle x %.2f GHz = %.1f GFLOPS per core (two 128-bit FMA "
              "pipes); flops counted as the seed did: 2 per useful digit product (2 nd^2).\n\n",
              ghz, peak)
    for bits, seed_us in ((640, 36.0), (2000, 222.0)):
        group = [r for r in rs if r["bits"] == bits]
        out += _f("\n### %u bits (seed: %.0f us)\n\n", bits, seed_us)
        out += ("| kernel | symbol | digits | median ns | TSC ticks | vs seed | useful GFLOPS | of peak |\n"
                "|---|---|---|---|---|---|---|---|\n")
        best, bestk = 1e300, ""
        for r in group:
            dig, gfs, pks, vs = "limbs (conversion included)", "-", "-", "-"
            carry = r["op"] == "carry_pass"
            if r["op"] == "mul_digits":
                useful = r["useful_digits"]
                gf = 2.0 * useful * useful / r["ns"]
                dig = _f("%d x %u bits", useful, r["digit_bits"])
                gfs = _f("%.2f", gf)
                pks = _f("%.1f%%", 100.0 * gf / peak)
            elif carry:
                dig = _f("%d columns", 2 * r["digits"])
            if not carry:
                vs = _f("%.0fx", seed_us * 1000.0 / r["ns"])
            out += _f("| %s | %s | %s | %.0f | %.0f | %s | %s | %s |\n", r["kernel"], _sym(r), dig,
                      r["ns"], r["tsc"], vs, gfs, pks)
            if not carry and r["impl"] == "tabai" and r["ns"] < best:
                best, bestk = r["ns"], r["kernel"]
        cp = [r for r in group if r["op"] == "carry_pass"]
        out += _f("\nFastest tabai kernel: **%s** (%.0f ns). Carry pass alone over %d columns: int64 "
                  "%.0f ns, the seed's floating-point chain %.0f ns.\n",
                  bestk, best, 2 * cp[0]["digits"], cp[0]["ns"], cp[1]["ns"])
    return out


def _seed003(rs: List[Record]) -> str:
    out = ("\n## Seed 003: Ohta modular multiplication (carry save, register blocking) vs "
           "Montgomery\n\n")
    out += ("Seed (Pentium 4, 1.8 GHz, gcc 3.2 -O1, 220 bits): carry-save Ohta with 14-bit "
            "digits and 3x3 blocks **1.74 us**, Montgomery on 16-bit digits **1.79 us** (Ohta 3% "
            "faster; 3x3 beat 2x2 and 4x4).\n\n")
    out += ("`mont (tier)` is tabai's Montgomery on 64-bit limbs (the dispatched kernel), "
            "`ohta (tier)` tabai's Ohta on 64-bit limbs, `carry_save_kxk` the seed's "
            "technique on b-bit digits in 64-bit words, and `mont digit-serial` the seed's "
            "baseline: word-serial Montgomery on the same b-bit digits, carry on every step. "
            "All include conversion of the operands (and, for carry save, of p and K) to "
            "digits.\n\n")
    out += ("| bits | modulus | digit b | mont (tier) | ohta (tier) | carry_save_2x2 | "
            "carry_save_3x3 | carry_save_4x4 | mont digit-serial | best carry-save vs "
            "mont digit-serial | vs mont (tier) |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
    for k in range(0, len(rs) - 5, 6):
        im = rs[k:k + 6]
        bcs = im[2]["ns"]
        for r in im[3:5]:
            if r["ns"] < bcs:
                bcs = r["ns"]
        out += _f("| %u | %s | %u | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2fx | %.2fx |\n",
                  im[0]["bits"], im[0]["modulus"], im[5]["digit_bits"],
                  *(r["ns"] for r in im), im[5]["ns"] / bcs, im[0]["ns"] / bcs)
    out += ("\nTimes in median ns per modular multiplication. The two last columns are "
            "ratios of times (> 1: carry save is faster).\n")
    return out


def _seed004(rs: List[Record], tier: str) -> str:
    seed = {4: (12.93, 6.19), 6: (23.43, 12.31), 8: (38.42, 21.97)}
    out = "\n## Seed 004: mulPre (n x n -> 2n limbs), n = 3..8, vs GMP\n\n"
    out += _f("Seed (Xeon Platinum 8280): N=4 GMP 12.93 ns / asm 6.19; N=6 23.43 / 12.31; "
              "N=8 38.42 / 21.97. Here: the dispatched `tabai_mul_n` of the tier in use (%s) and "
              "`mpn_mul_n`, alternating.\n\n", tier)
    out += "| n | tabai ns | GMP ns | GMP / tabai | seed GMP / asm |\n|---|---|---|---|---|\n"
    for k in range(0, len(rs) - 1, 2):
        t, g = rs[k], rs[k + 1]
        n = t["bits"] // 64
        sd = _f("%.2fx", seed[n][0] / seed[n][1]) if n in seed else "-"
        out += _f("| %d | %.2f | %.2f | %.2fx | %s |\n", n, t["ns"], g["ns"], g["ns"] / t["ns"], sd)
    return out


def _scan(rs: List[Record], tier: str) -> str:
    out = "\n## Where each delayed-carry kernel stands: n x n products, 256 to 8192 bits\n\n"
    out += _f("Median ns per product, limbs in and out (conversions included), all alternating "
              "in one run. `tier` is tabai's dispatched `tabai_mul_n` (%s, 64-bit limbs, "
              "schoolbook), `fp64_fma_mb4` is four independent products per call divided by "
              "four. The last column is the best delayed-carry time over the tier's: above 1 "
              "it misses by that factor.\n\n", tier)
    sizes: List[int] = []
    for r in rs:
        if r["bits"] not in sizes:
            sizes.append(r["bits"])
    first = [r for r in rs if r["bits"] == sizes[0]] if sizes else []
    mb4 = any(r["op"] == "mul_mb4_per_product" for r in first)
    names = []
    for r in first:
        if r.get("symbol") == _DISPATCHED:
            break
        if r["op"] == "mul":
            names.append(r["kernel"])
    out += "| bits |" + "".join(_f(" %s |", k) for k in names)
    out += _f("%s tier | GMP | best delayed / tier |\n|---|", " fp64_fma_mb4 |" if mb4 else "")
    out += "---|" * (len(names) + 3 + int(mb4)) + "\n"
    for bits in sizes:
        group = [r for r in rs if r["bits"] == bits]
        nt = next(i for i, r in enumerate(group) if r.get("symbol") == _DISPATCHED)
        best = 1e300
        out += _f("| %u |", bits)
        for i, r in enumerate(group):
            out += _f(" %.0f |", r["ns"])
            if i < nt and r["ns"] < best:
                best = r["ns"]
        out += _f(" %.2f |\n", best / group[nt]["ns"])
    return out


def _seed001(rs: List[Record], unusable: Any) -> str:
    out = "\n## Seed 001: AVX-512 IFMA (radix 2^52) vs the 32-bit AVX-512F baseline\n\n"
    out += ("Seed (Intel, ymm): throughput mostly >= 80% of the instruction-count bound; the IFMA "
            "version 2-3x the 32-bit one at 100-200 bits, converging to **2.84x** at RSA sizes "
            "((28/24)/(13/12) x (52/32)^2). Here: `tabai_mont_mul_r52n_mb8/mb4_ifma` and "
            "`tabai_mont_mul_r32n_mb8/mb4_avx512` (src/ifma, src/avx512), every lane its own "
            "operation, chained x = x*y, TSC ticks per single product.\n\n")
    if unusable:
        out += _f("Not measurable on this CPU (%s needs AVX-512F/VL%s).\n", unusable,
                  " and IFMA" if unusable.startswith("ifma") else "")
        return out
    out += ("| bits | IFMA zmm | IFMA ymm | 32-bit zmm | 32-bit ymm | IFMA / 32-bit, zmm | "
            "ymm | seed |\n|---|---|---|---|---|---|---|---|\n")
    for k in range(0, len(rs) - 3, 4):
        t = [r["tsc"] for r in rs[k:k + 4]]
        bits = rs[k]["bits"]
        out += _f("| %u | %.1f | %.1f | %.1f | %.1f | %.2fx | %.2fx | %s |\n", bits, t[0], t[1],
                  t[2], t[3], t[2] / t[0], t[3] / t[1], "2.84x" if bits >= 1024 else "2-3x")
    out += ("\nThe share of the instruction-count bound, per size, is in `tabai bench --ops "
            "mont_mul_mb` (records `impl: \"bound\"`) and src/ifma/README.md.\n")
    return out


def render(data: Dict[str, Any]) -> str:
    """The reproduction report as Markdown, from the JSON of ``tabai-bench --reproduce``.

    Args:
        data: the parsed JSON object ({"meta": {...}, "records": [...]}).
    Returns:
        The Markdown text.
    Raises:
        KeyError, IndexError: the JSON is not a complete reproduction run.
    """
    meta = data["meta"]
    return (_header(meta)
            + _seed000(_section(data, "seed000"))
            + _seed002(_section(data, "seed002"), meta["core_ghz"])
            + _seed003(_section(data, "seed003"))
            + _seed004(_section(data, "seed004"), meta["tier"])
            + _scan(_section(data, "scan"), meta["tier"])
            + _seed001(_section(data, "seed001"), meta.get("mb_unusable")))


def paths(md_path: str = "") -> "tuple[str, str]":
    """The report's Markdown path and the JSON path beside it, as ``tabai-bench --reproduce``
    derives them: ``md_path``, else ``TABAI_REPRODUCE_MD``, else ``reproduction.md``; the JSON
    has the same name with ``.json`` for its extension."""
    import os

    md = md_path or os.environ.get("TABAI_REPRODUCE_MD") or "reproduction.md"
    head, sep, tail = md.rpartition("/")
    stem = tail.rsplit(".", 1)[0] if "." in tail else tail
    return md, head + sep + stem + ".json"


def write(json_path: str, md_path: str) -> None:
    """Reads the reproduction JSON at ``json_path`` and writes its report to ``md_path``.

    Raises:
        OSError: a file cannot be read or written.
        ValueError: the file is not JSON; KeyError, IndexError: not a complete run.
    """
    import json
    from pathlib import Path

    data = json.loads(Path(json_path).read_text(encoding="utf-8"))
    Path(md_path).write_text(render(data), encoding="utf-8")
