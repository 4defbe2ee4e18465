"""Runs the C benchmark ``tabai-bench`` and turns its JSON into tables and CSV.

The binary (bench/ in the source tree, installed as ``tabai/_bin/tabai-bench``, or the path in
the environment variable ``TABAI_BENCH_BIN``) does all the timing; no Python runs while it
measures. Its interface::

    tabai-bench [--ops LIST] [--bits LIST] [--seconds S] [--json PATH] [--list] [--progress]

With ``--progress`` it prints ``@progress DONE TOTAL LABEL`` lines on stderr; ``--json PATH``
receives ``{"meta": {...}, "records": [{"op", "bits", "modulus", "impl", "kernel", "symbol",
"ns", "tsc", "reps", ...}, ...]}``; ``--list`` prints ``{"ops": [...], "kernels": [...],
"moduli": [{"name", "bits"}, ...]}`` on stdout. Records may carry more fields and ops this
module does not know: they are kept in the CSV and shown in the tables like the others.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import IO, Any, Dict, Iterable, List, Optional, Sequence, Tuple

#: Record fields in the order of the schema; CSV columns start with these.
FIELDS = ("op", "bits", "modulus", "impl", "kernel", "symbol", "ns", "tsc", "reps")

#: Operations in the order the report shows them; unknown ops follow in order of appearance.
OP_ORDER = ("mul", "sqr", "mont_mul", "mont_sqr", "ohta_mul", "modmul", "powmod")

#: For an op that only peers measure, the tabai ops its ratios are taken against
#: (GMP's mpz_mul + mpz_mod against tabai's Montgomery and Ohta products).
REFERENCE_OPS = {"modmul": ("mont_mul", "ohta_mul")}

#: Peers timed from Python (their ratio is taken against tabai's kernel "python" record).
PYTHON_PEERS = ("cryptography",)
PYTHON_KERNEL = "python"

#: Ops whose tables add a column "best/tabai": the smallest of the peers' ratios.
BEST_PEER_OPS = ("ec_mul_base", "ec_mul", "ecdh", "ecdsa_sign", "ecdsa_verify", "x25519")

_PROGRESS = re.compile(r"^@progress\s+(\d+)\s+(\d+)\s*(.*)$")


class BenchError(RuntimeError):
    """The benchmark binary is missing, failed, or wrote something unreadable."""


# ------------------------------------------------------------------------------------------
# Finding and running the binary
# ------------------------------------------------------------------------------------------
def bench_command() -> List[str]:
    """The command that runs the benchmark binary.

    Returns:
        ``TABAI_BENCH_BIN`` if set (a path, or a command line split like a shell would),
        else the binary installed with the package (``tabai/_bin/tabai-bench``), else
        ``tabai-bench`` found on PATH.
    Raises:
        BenchError: no binary found.
    """
    env = os.environ.get("TABAI_BENCH_BIN")
    if env:
        return [env] if os.path.exists(env) else shlex.split(env)
    here = Path(__file__).resolve().parent / "_bin" / "tabai-bench"
    if here.exists():
        return [str(here)]
    import shutil

    found = shutil.which("tabai-bench")
    if found:
        return [found]
    raise BenchError(
        "the benchmark binary tabai-bench was not found: it is built with the package when "
        "GMP and OpenSSL are installed (apt-get install libgmp-dev libssl-dev, then reinstall "
        "tabai), or point TABAI_BENCH_BIN at one"
    )


def list_available(cmd: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """Runs ``tabai-bench --list`` and returns its JSON object (ops, kernels, moduli).

    Raises:
        BenchError: the binary failed or printed something that is not a JSON object.
    """
    cmd = list(cmd or bench_command())
    proc = subprocess.run(cmd + ["--list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise BenchError(f"{' '.join(cmd)} --list failed ({proc.returncode}): {proc.stderr.strip()}")
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError as ex:
        raise BenchError(f"tabai-bench --list did not print JSON: {ex}") from None
    if not isinstance(data, dict):
        raise BenchError("tabai-bench --list did not print a JSON object")
    return data


def format_list(data: Dict[str, Any]) -> str:
    """The ``--list`` object as text: operations, kernels, then the moduli with their sizes."""
    out = []
    for key in ("ops", "kernels"):
        vals = data.get(key) or []
        if any(isinstance(v, dict) for v in vals):  # objects: one line each
            out.append(f"{key}:")
            for v in vals:
                if isinstance(v, dict):
                    rest = ", ".join(f"{k}={v[k]}" for k in v if k != "name")
                    out.append(f"  {v.get('name', '?')}" + (f"  ({rest})" if rest else ""))
                else:
                    out.append(f"  {v}")
        else:
            out.append(f"{key + ':':<9}{', '.join(str(v) for v in vals) if vals else '-'}")
    moduli = data.get("moduli") or []
    out.append(f"moduli:  {len(moduli)}")
    if moduli:
        width = max(len(str(m.get("name", "?"))) for m in moduli if isinstance(m, dict))
        for m in moduli:
            if isinstance(m, dict):
                out.append(f"  {str(m.get('name', '?')):<{width}}  {m.get('bits', '?'):>5} bits")
            else:
                out.append(f"  {m}")
    for key, val in data.items():
        if key not in ("ops", "kernels", "moduli"):
            out.append(f"{key}: {json.dumps(val)}")
    return "\n".join(out)


class _Progress:
    """A tqdm bar driven by ``@progress`` lines (plain text lines when tqdm is missing)."""

    def __init__(self, stream: IO[str]):
        self.stream = stream
        self.bar = None
        try:
            import tqdm  # noqa: F401

            self.tqdm = tqdm.tqdm
        except ImportError:
            self.tqdm = None
        self.last_plain = -1

    def update(self, done: int, total: int, label: str) -> None:
        if self.tqdm is not None:
            if self.bar is None:
                self.bar = self.tqdm(total=total, unit="meas", file=self.stream, dynamic_ncols=True)
            if self.bar.total != total:
                self.bar.total = total
            self.bar.set_postfix_str(label, refresh=False)
            self.bar.update(done - self.bar.n)
        else:
            pct = 100 * done // max(total, 1)
            if pct // 10 != self.last_plain // 10 or done == total:
                self.last_plain = pct
                print(f"[{done}/{total}] {label}", file=self.stream, flush=True)

    def write(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def run(
    json_path: os.PathLike,
    ops: Optional[str] = None,
    bits: Optional[str] = None,
    seconds: Optional[float] = None,
    cmd: Optional[Sequence[str]] = None,
    progress: bool = True,
    echo_stdout: bool = False,
    stream: Optional[IO[str]] = None,
    extra_args: Sequence[str] = (),
) -> Dict[str, Any]:
    """Runs the benchmark binary, shows its progress, and returns the JSON it wrote.

    Args:
        json_path: where the binary writes its JSON (parent folders are created).
        ops, bits: comma-separated lists passed through as ``--ops`` / ``--bits``.
        seconds: time budget per measurement, passed through as ``--seconds``.
        cmd: the binary's command (default: bench_command()).
        progress: show a progress bar (tqdm) from the ``@progress`` lines.
        echo_stdout: print what the binary writes on stdout (else only when it fails).
        extra_args: more options for the binary (passed through unchanged).
        stream: where progress and the binary's other stderr lines go (default sys.stderr).
    Returns:
        the parsed JSON object ``{"meta": ..., "records": [...]}``.
    Raises:
        BenchError: the binary failed or its JSON is missing or malformed.
    """
    cmd = list(cmd or bench_command())
    stream = stream or sys.stderr
    json_path = Path(json_path)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    args = list(cmd)
    if ops:
        args += ["--ops", ops]
    if bits:
        args += ["--bits", bits]
    if seconds is not None:
        args += ["--seconds", repr(float(seconds))]
    args += list(extra_args)
    args += ["--json", str(json_path), "--progress"]

    try:
        proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1
        )
    except OSError as ex:
        raise BenchError(f"cannot run {args[0]}: {ex}") from None
    out_lines: List[str] = []

    def drain() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            out_lines.append(line)
            if echo_stdout:
                bar.write(line.rstrip("\n"))

    bar = _Progress(stream)
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            m = _PROGRESS.match(line.rstrip("\n"))
            if m:
                if progress:
                    bar.update(int(m.group(1)), int(m.group(2)), m.group(3))
            else:
                bar.write(line.rstrip("\n"))
        rc = proc.wait()
        reader.join()
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait()
        raise
    finally:
        bar.close()
    if rc != 0:
        if out_lines and not echo_stdout:
            stream.write("".join(out_lines))
        raise BenchError(f"{' '.join(shlex.quote(a) for a in args)} exited with status {rc}")
    data = load(json_path)
    if ops is None or "rsa_private" in ops.split(","):
        extra = cryptography_peer(data, seconds if seconds is not None else 0.2)
        if extra:
            data["records"].extend(extra)
            json_path.write_text(json.dumps(data, indent=1))
    return data


#: impl name of the OpenSSL that the ``cryptography`` wheel ships, measured from Python
CRYPTOGRAPHY_PEER = "openssl_wheel"


def cryptography_peer(data: Dict[str, Any], seconds: float) -> List[Dict[str, Any]]:
    """RSA private operations of the OpenSSL inside the ``cryptography`` wheel, as records.

    For every ``rsa_private`` case of the run, the same key (data/keys/rsa-<bits>.pem) signs a
    SHA-256 digest with PKCS#1 v1.5 (``Prehashed``: no hashing in the timed loop; OpenSSL's
    blinding included). Records in the run's schema with impl ``openssl_wheel`` and the wheel's
    OpenSSL version in ``meta["openssl_wheel_version"]``; ``tsc`` from the run's ``tsc_hz``.
    Returns [] when cryptography or the keys are missing.
    """
    try:
        from cryptography.hazmat.backends.openssl.backend import backend
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import padding, utils
    except ImportError:
        return []
    keydir = Path(__file__).resolve().parents[2] / "data" / "keys"
    meta = data.get("meta", {})
    hz = _num(meta.get("tsc_hz"))
    out: List[Dict[str, Any]] = []
    done = set()
    for r in data.get("records", []):
        if r.get("op") != "rsa_private" or (r["bits"], r.get("modulus")) in done:
            continue
        done.add((r["bits"], r.get("modulus")))
        pem = keydir / f"rsa-{r['bits']}.pem"
        if not pem.exists():
            continue
        key = serialization.load_pem_private_key(pem.read_bytes(), password=None)
        digest = bytes(range(32))
        algo = utils.Prehashed(hashes.SHA256())
        pad = padding.PKCS1v15()
        key.sign(digest, pad, algo)
        samples: List[float] = []
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline or len(samples) < 5:
            t0 = time.perf_counter_ns()
            key.sign(digest, pad, algo)
            samples.append(float(time.perf_counter_ns() - t0))
        samples.sort()
        ns = samples[len(samples) // 2]
        out.append({
            "op": "rsa_private", "bits": r["bits"], "modulus": r.get("modulus"),
            "impl": CRYPTOGRAPHY_PEER, "kernel": None,
            "symbol": "RSAPrivateKey.sign(PKCS1v15, Prehashed(SHA256))",
            "ns": ns, "tsc": ns * hz / 1e9 if hz else None, "reps": len(samples),
            "ns_min": samples[0], "tsc_min": samples[0] * hz / 1e9 if hz else None,
            "n": r.get("n"), "batch": 1,
        })
    if out:
        meta["openssl_wheel_version"] = backend.openssl_version_text()
    return out


def load(path: os.PathLike) -> Dict[str, Any]:
    """Reads a benchmark JSON file and checks its shape (an object with meta and records).

    Raises:
        BenchError: missing file, invalid JSON, or not ``{"meta": {...}, "records": [...]}``.
    """
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise BenchError(f"the benchmark wrote no JSON file at {path}") from None
    except json.JSONDecodeError as ex:
        raise BenchError(f"{path}: invalid JSON: {ex}") from None
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        raise BenchError(f"{path}: expected an object with a 'records' list")
    if not isinstance(data.get("meta", {}), dict):
        raise BenchError(f"{path}: 'meta' must be an object")
    data.setdefault("meta", {})
    data["records"] = [r for r in data["records"] if isinstance(r, dict)]
    return data


# ------------------------------------------------------------------------------------------
# Report: header, tables, CSV
# ------------------------------------------------------------------------------------------
def _flatten(meta: Dict[str, Any], prefix: str = "") -> Iterable[Tuple[str, str]]:
    for key, val in meta.items():
        name = f"{prefix}{key}"
        if isinstance(val, dict):
            yield from _flatten(val, name + ".")
        elif isinstance(val, (list, tuple)):
            yield name, ", ".join(str(v) for v in val)
        else:
            yield name, "-" if val is None else str(val)


def format_meta(meta: Dict[str, Any]) -> str:
    """The run's header (CPU, features, tier, compiler, TSC, peers' versions) as lines."""
    items = list(_flatten(meta))
    if not items:
        return "(no metadata)"
    width = max(len(k) for k, _ in items)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in items)


def format_time(ns: Optional[float]) -> str:
    """ns per operation with a unit (ns, us, ms, s) and three or four significant digits."""
    if ns is None or not isinstance(ns, (int, float)) or math.isnan(ns):
        return "-"
    for scale, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
        if ns >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns:.2f} ns" if ns < 10 else f"{ns:.1f} ns"


def format_ticks(t: Optional[float]) -> str:
    if t is None or not isinstance(t, (int, float)) or math.isnan(t):
        return "-"
    if t >= 1e7:
        return f"{t / 1e6:.1f}M"
    if t >= 1e4:
        return f"{t / 1e3:.1f}k"
    return f"{t:.0f}" if t >= 100 else f"{t:.1f}"


def _num(x: Any) -> Optional[float]:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def ordered_ops(records: Sequence[Dict[str, Any]]) -> List[str]:
    """The ops present, known ones in OP_ORDER first, then the others as they appear."""
    seen = list(OrderedDict.fromkeys(str(r.get("op")) for r in records))
    return [o for o in OP_ORDER if o in seen] + [o for o in seen if o not in OP_ORDER]


def series_key(r: Dict[str, Any]) -> Tuple[str, str]:
    """(impl, kernel) of a record: one line of the plot, one column group of a table."""
    impl = str(r.get("impl") or "?")
    kernel = r.get("kernel")
    return impl, "" if kernel is None else str(kernel)


def series_label(key: Tuple[str, str], impl_count: Dict[str, int]) -> str:
    impl, kernel = key
    if impl == "tabai":
        return f"tabai {kernel}" if kernel else "tabai"
    return f"{impl} {kernel}" if kernel and impl_count.get(impl, 0) > 1 else impl


def _row_key(r: Dict[str, Any]) -> Tuple[int, str]:
    bits = r.get("bits")
    return (int(bits) if isinstance(bits, (int, float)) else 0, str(r.get("modulus") or ""))


def build_table(op: str, records: Sequence[Dict[str, Any]]) -> Tuple[str, List[str], List[List[str]]]:
    """One op's table: (title, header, rows).

    Rows are (bits, modulus); for each tabai kernel the columns ns and tsc, for each peer
    its ns and the ratio peer ns / fastest tabai ns of the row (> 1: tabai is faster); a bound
    record with a tabai kernel's label: bound ns / that kernel's ns (the share of the bound).
    For an op without tabai records (modmul) the ratio is taken against tabai's records of
    REFERENCE_OPS at the same size and modulus.
    """
    mine = [r for r in records if str(r.get("op")) == op]
    series = list(OrderedDict.fromkeys(series_key(r) for r in mine))
    tabai = [s for s in series if s[0] == "tabai"]
    peers = [s for s in series if s[0] != "tabai"]
    impl_count: Dict[str, int] = {}
    for s in series:
        impl_count[s[0]] = impl_count.get(s[0], 0) + 1

    cells: Dict[Tuple[Tuple[int, str], Tuple[str, str]], Dict[str, Any]] = {}
    for r in mine:
        cells.setdefault((_row_key(r), series_key(r)), r)
    rows = sorted({_row_key(r) for r in mine})

    ref_ops = REFERENCE_OPS.get(op, ()) if not tabai else ()
    ref_best: Dict[Tuple[int, str], float] = {}
    for r in records:
        if str(r.get("op")) in ref_ops and str(r.get("impl")) == "tabai":
            ns = _num(r.get("ns"))
            k = _row_key(r)
            if ns is not None and ns > 0 and (k not in ref_best or ns < ref_best[k]):
                ref_best[k] = ns

    title = op
    if ref_ops:
        title += f"  (ratios against the fastest tabai {' / '.join(ref_ops)})"
    header = ["bits", "modulus"]
    for s in tabai:
        lab = series_label(s, impl_count)
        header += [f"{lab} ns", "tsc"]
    # a bound record whose kernel label is also a tabai kernel's (the multi-buffer suite) is
    # compared with that kernel: the share of its bound it reaches
    own = {s: t for s in peers for t in tabai if s[0] == "bound" and s[1] and t[1] == s[1]}
    for s in peers:
        lab = series_label(s, impl_count)
        header += [f"{lab} ns", f"bound/{s[1]}" if s in own else f"{s[0]}/tabai"]
    best_col = op in BEST_PEER_OPS and any(s[0] != "bound" for s in peers)
    if best_col:
        header += ["best/tabai"]

    body = []
    for rk in rows:
        line = [str(rk[0]), rk[1] or "-"]
        best = None
        best_c = None  # the fastest tabai record measured in C (kernel other than "python")
        py_ns = None   # tabai through its Python binding (kernel "python")
        for s in tabai:
            r = cells.get((rk, s))
            ns = _num(r.get("ns")) if r else None
            if ns is not None and ns > 0 and (best is None or ns < best):
                best = ns
            if ns is not None and ns > 0 and s[1] != PYTHON_KERNEL and (best_c is None or ns < best_c):
                best_c = ns
            if ns is not None and ns > 0 and s[1] == PYTHON_KERNEL:
                py_ns = ns
            line += [format_time(ns), format_ticks(_num(r.get("tsc")) if r else None)]
        if best is None:
            best = ref_best.get(rk)
        ratios = []
        for s in peers:
            r = cells.get((rk, s))
            ns = _num(r.get("ns")) if r else None
            # a peer timed from Python is compared with tabai timed from Python (the same
            # call overhead); a C peer with the fastest tabai measured in C
            ref = (py_ns if s[0] in PYTHON_PEERS and py_ns else best_c) or best
            if s in own:
                t = cells.get((rk, own[s]))
                ref = _num(t.get("ns")) if t else None
            ratio = f"{ns / ref:.2f}" if ns is not None and ref else "-"
            if ns is not None and ref and s[0] != "bound":
                ratios.append(ns / ref)
            line += [format_time(ns), ratio]
        if best_col:
            line += [f"{min(ratios):.2f}" if ratios else "-"]
        body.append(line)
    return title, header, body


def render_table(title: str, header: List[str], rows: List[List[str]], markdown: bool = False) -> str:
    """A table as aligned text (or as a Markdown table)."""
    if markdown:
        out = [f"**{title}**", "", "| " + " | ".join(header) + " |"]
        out.append("|" + "|".join("---" if i < 2 else "---:" for i in range(len(header))) + "|")
        out += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(out)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    fmt = lambda cells: "  ".join(  # noqa: E731
        c.ljust(widths[i]) if i < 2 else c.rjust(widths[i]) for i, c in enumerate(cells)
    )
    rule = "-" * len(fmt(header))
    return "\n".join([f"== {title}", fmt(header), rule] + [fmt(r) for r in rows])


def format_report(data: Dict[str, Any], markdown: bool = False) -> str:
    """The whole report: the meta header, then one table per op."""
    records = data.get("records", [])
    parts = []
    if markdown:
        parts.append("```\n" + format_meta(data.get("meta", {})) + "\n```")
    else:
        parts.append(format_meta(data.get("meta", {})))
    if not records:
        parts.append("(no records)")
    for op in ordered_ops(records):
        parts.append(render_table(*build_table(op, records), markdown=markdown))
    parts.append(
        "ns: median wall time per operation; tsc: median TSC ticks per operation (TSC ticks "
        "are not core cycles); peer/tabai: peer ns / fastest tabai ns, > 1 means tabai is faster; "
        "bound/K: the bound's ns / kernel K's ns, the share of its bound K reaches; best/tabai "
        "(curve ops): the smallest peer/tabai ratio of the row. Curve ops: modulus = the curve; "
        "cryptography and tabai python are timed from Python (call overhead included) and "
        "compared with each other, the C peers with tabai measured in C."
    )
    return "\n\n".join(parts)


def write_csv(records: Sequence[Dict[str, Any]], path: os.PathLike) -> List[str]:
    """Writes one CSV row per record with every field (the schema's first, then the others).

    Lists and objects are written as JSON, None as an empty cell. Returns the columns.
    """
    cols = list(FIELDS)
    for r in records:
        for k in r:
            if k not in cols:
                cols.append(k)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in records:
            row = []
            for c in cols:
                v = r.get(c)
                if v is None:
                    row.append("")
                elif isinstance(v, (dict, list)):
                    row.append(json.dumps(v, sort_keys=True))
                else:
                    row.append(v)
            w.writerow(row)
    return cols
