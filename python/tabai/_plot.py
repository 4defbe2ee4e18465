"""The benchmark plot: one subplot per op, time (ns, log scale) against the bit length,
one line per (impl, kernel). matplotlib with the Agg backend (no display needed)."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Dict, List, Tuple

from ._bench import REFERENCE_OPS, _num, ordered_ops, series_key, series_label


def plot(data: Dict[str, Any], path: os.PathLike) -> Path:
    """Writes the PNG of a benchmark result to path (parent folders are created).

    Each (impl, kernel) is one line through its fastest record at each bit length, with every
    record as a marker (several moduli can share a size). tabai lines are solid, peers dashed.

    Returns:
        the path written.
    Raises:
        ImportError: matplotlib is not installed (``pip install tabai[bench]``).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = [r for r in data.get("records", []) if _num(r.get("ns")) and _num(r.get("bits"))]
    ops = ordered_ops(records) or ["(no records)"]
    ncols = 1 if len(ops) == 1 else 2 if len(ops) <= 4 else 3
    nrows = math.ceil(len(ops) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.0 * ncols, 4.2 * nrows), squeeze=False)
    cmap = plt.get_cmap("tab10")
    all_series = list(dict.fromkeys(series_key(r) for r in records))
    colour = {s: cmap(i % 10) for i, s in enumerate(all_series)}

    for ax, op in zip(axes.flat, ops):
        mine = [r for r in records if str(r.get("op")) == op]
        series = list(dict.fromkeys(series_key(r) for r in mine))
        impl_count: Dict[str, int] = {}
        for s in series:
            impl_count[s[0]] = impl_count.get(s[0], 0) + 1
        for s in series:
            pts: List[Tuple[float, float]] = [
                (float(r["bits"]), float(r["ns"])) for r in mine if series_key(r) == s
            ]
            best: Dict[float, float] = {}
            for x, y in pts:
                best[x] = min(y, best.get(x, math.inf))
            xs = sorted(best)
            style = "-" if s[0] == "tabai" else "--"
            ax.plot(xs, [best[x] for x in xs], style, color=colour[s], label=series_label(s, impl_count))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o", color=colour[s], markersize=3)
        title = op
        if not any(s[0] == "tabai" for s in series) and op in REFERENCE_OPS:
            # a peers-only op (modmul): draw tabai's reference ops dotted for comparison
            for ref in REFERENCE_OPS[op]:
                refs = [r for r in records if str(r.get("op")) == ref and r.get("impl") == "tabai"]
                for s in dict.fromkeys(series_key(r) for r in refs):
                    best = {}
                    for r in refs:
                        if series_key(r) == s:
                            x = float(r["bits"])
                            best[x] = min(float(r["ns"]), best.get(x, math.inf))
                    xs = sorted(best)
                    ax.plot(xs, [best[x] for x in xs], ":", color=colour[s],
                            label=f"{series_label(s, {})} ({ref})")
            title += " (dotted: tabai for comparison)"
        ax.set_title(title)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        xs_all = sorted({float(r["bits"]) for r in mine}) or [64.0]
        ticks = [t for t in (64, 128, 256, 512, 1024, 2048, 4096, 8192)
                 if min(xs_all) / 1.5 <= t <= max(xs_all) * 1.5] or xs_all
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(int(t)) for t in ticks])
        ax.set_xlabel("bits")
        ax.set_ylabel("ns per operation")
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(ops):]:
        ax.set_visible(False)

    return _save(fig, data, "tabai benchmark", path)


def _save(fig: Any, data: Dict[str, Any], title: str, path: os.PathLike) -> Path:
    """Titles fig with title, the run's CPU and date, writes it to path (parent folders
    created) and closes it; returns the path."""
    import matplotlib.pyplot as plt

    meta = data.get("meta", {})
    cpu = meta.get("cpu") or meta.get("brand") or ""
    if isinstance(cpu, dict):
        cpu = cpu.get("brand", "")
    when = meta.get("date") or meta.get("time") or ""
    fig.suptitle(f"{title} {cpu} {when}".strip())
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _mb_pairs(data: Dict[str, Any]) -> List[Tuple[str, str]]:
    """(IFMA label, AVX-512F label) of equal lane counts, from the kernel registry in the run's
    meta (the bench writes it; no label is spelled here): radix 2^52 over radix 2^32."""
    mb = [k for k in data.get("meta", {}).get("registry", []) if "mb_mont_mul" in k.get("ops", [])]
    return [(a["label"], b["label"]) for a in mb for b in mb
            if a.get("lanes") == b.get("lanes") and a.get("radix") == 52 and b.get("radix") == 32]


def plot_mb(data: Dict[str, Any], path: os.PathLike) -> Path | None:
    """The multi-buffer figure (in the style of seed 001's throughput slide), if the
    result has mont_mul_mb records: left, Montgomery products per second per core against the
    bit length for every kernel (solid) and its instruction-count bound (dashed); right, the
    speed-up of IFMA over the 32-bit AVX-512F baseline (same vector width) with the seed's
    2.84 line. Returns the path written, or None when there is nothing to draw."""
    records = [r for r in data.get("records", [])
               if r.get("op") == "mont_mul_mb" and _num(r.get("ns")) and _num(r.get("bits"))]
    if not records:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def best(impl: str, kernel: str) -> Dict[float, float]:
        out: Dict[float, float] = {}
        for r in records:
            if r.get("impl") == impl and r.get("kernel") == kernel:
                x = float(r["bits"])
                out[x] = min(float(r["ns"]), out.get(x, math.inf))
        return out

    kernels = list(dict.fromkeys(str(r.get("kernel")) for r in records if r.get("impl") == "tabai"))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 4.8))
    cmap = plt.get_cmap("tab10")
    for i, k in enumerate(kernels):
        for impl, style in (("tabai", "-o"), ("bound", "--")):
            pts = best(impl, k)
            if not pts:
                continue
            xs = sorted(pts)
            label = k if impl == "tabai" else f"{k} bound"
            ax.plot(xs, [1e9 / pts[x] for x in xs], style, color=cmap(i % 10), label=label,
                    markersize=3)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("modulus bits")
    ax.set_ylabel("Montgomery products per second per core")
    ax.set_title("mont_mul_mb throughput (dashed: instruction-count bound)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    for j, (num, den) in enumerate(_mb_pairs(data)):
        a, b = best("tabai", num), best("tabai", den)
        xs = sorted(set(a) & set(b))
        if xs:
            bx.plot(xs, [b[x] / a[x] for x in xs], "-o", color=cmap(j), markersize=3,
                    label=f"{num} / {den}")
    bx.axhline(2.84375, color="grey", linestyle=":", label="seed 001: 2.84")
    bx.set_xscale("log", base=2)
    bx.set_xlabel("modulus bits")
    bx.set_ylabel("speed-up (time of 32-bit / time of IFMA)")
    bx.set_title("IFMA radix 2^52 over the AVX-512F radix 2^32 baseline")
    bx.grid(True, which="both", alpha=0.3)
    bx.legend(fontsize=8)
    return _save(fig, data, "tabai multi-buffer Montgomery", path)


def plot_ec(data: Dict[str, Any], path: os.PathLike) -> Path | None:
    """The curve figure, if the result has curve records: left, the time of each operation on
    each curve (microseconds, log scale) for tabai in C and every peer; right, tabai against
    its best peer (the report's best/tabai: > 1 means tabai is faster). Returns the path
    written, or None when there is nothing to draw."""
    from ._bench import BEST_PEER_OPS, build_table

    records = [r for r in data.get("records", [])
               if r.get("op") in BEST_PEER_OPS and _num(r.get("ns"))]
    if not records:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ops = [o for o in BEST_PEER_OPS if any(r["op"] == o for r in records)]
    cases = [(o, m) for o in ops
             for m in dict.fromkeys(str(r.get("modulus")) for r in records if r["op"] == o)]
    series = list(dict.fromkeys(series_key(r) for r in records))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(14, 0.35 * len(cases) + 2.5))
    cmap = plt.get_cmap("tab10")
    height = 0.8 / max(len(series), 1)
    for j, s in enumerate(series):
        ys, xs = [], []
        for i, (o, m) in enumerate(cases):
            ns = [float(r["ns"]) for r in records
                  if r["op"] == o and str(r.get("modulus")) == m and series_key(r) == s]
            if ns:
                ys.append(i + j * height)
                xs.append(min(ns) / 1e3)
        label = f"{s[0]} {s[1]}".strip() if s[1] else s[0]
        ax.barh(ys, xs, height=height, color=cmap(j % 10), label=label)
    labels = [f"{o} {m}" for o, m in cases]
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(cases))])
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    from matplotlib.ticker import FormatStrFormatter, NullFormatter

    ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("microseconds per operation")
    ax.set_title("curve operations")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.legend(fontsize=7)
    ratios = []
    for o, m in cases:
        _, header, rows = build_table(o, records)
        val = None
        if "best/tabai" in header:
            for row in rows:
                cell = dict(zip(header, row))
                if cell.get("modulus") == m and cell["best/tabai"] != "-":
                    val = float(cell["best/tabai"])
        ratios.append(val)
    bx.barh(range(len(cases)), [v or 0 for v in ratios],
            color=["tab:green" if (v or 0) >= 1 else "tab:red" for v in ratios])
    bx.axvline(1.0, color="grey", linestyle=":")
    bx.set_yticks(range(len(cases)))
    bx.set_yticklabels(labels, fontsize=8)
    bx.invert_yaxis()
    bx.set_xlabel("best peer's time / tabai's time (> 1: tabai is faster)")
    bx.set_title("tabai against its best peer")
    bx.grid(True, axis="x", alpha=0.3)
    return _save(fig, data, "tabai elliptic curves", path)
