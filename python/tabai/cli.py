"""The ``tabai`` command (also ``python -m tabai``).

    tabai bench [--ops LIST] [--bits LIST] [--seconds S] [--json PATH] [--csv PATH]
                [--plot PATH] [--no-plot] [--md PATH] [--list] [--reproduce] [-v]
    tabai report JSON [--csv PATH] [--plot PATH] [--no-plot] [--md PATH] [--reproduce]
    tabai cpu

Options of ``bench`` that it does not know (``--tiers LIST``, ...) go to the binary as they
are. ``bench`` runs the C benchmark (``tabai/_bin/tabai-bench``, or ``TABAI_BENCH_BIN``) with a
progress bar, prints the run's header and one table per operation, and writes the JSON,
CSV and PNG under results/. ``report`` does the same from a JSON file already written.
With ``--reproduce``, ``bench`` runs the seeds' experiments and renders their report
(``TABAI_REPRODUCE_MD``, default reproduction.md) from the records the binary writes beside
it; ``report --reproduce JSON`` renders it again from such a file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import List, Optional

from . import _bench, _reproduce


def _add_outputs(p: argparse.ArgumentParser) -> None:
    p.add_argument("--csv", default="results/bench.csv", metavar="PATH",
                   help="CSV output, one row per record (default: %(default)s)")
    p.add_argument("--plot", default="results/bench.png", metavar="PATH",
                   help="PNG plot output (default: %(default)s)")
    p.add_argument("--no-plot", action="store_true", help="do not write the plot")
    p.add_argument("--md", metavar="PATH", help="also write the tables as Markdown to PATH")


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    ap = argparse.ArgumentParser(
        prog="tabai", description="tabai: multi-precision modular arithmetic (benchmark and tools)"
    )
    ap.add_argument("--version", action="version", version=f"tabai {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")

    b = sub.add_parser("bench", help="run the benchmark against GMP and OpenSSL",
                       description="Run the C benchmark (tabai beside GMP and OpenSSL), print the "
                       "tables, write JSON, CSV and a PNG plot.")
    b.add_argument("--ops", metavar="LIST", help="comma-separated operations (see --list)")
    b.add_argument("--bits", metavar="LIST",
                   help="comma-separated sizes in bits (limb ops: ceil(bits/64) limbs; modular "
                   "ops: the default modulus of that size, else a fixed-seed random odd one)")
    b.add_argument("--seconds", type=float, metavar="S", help="time budget per measurement")
    b.add_argument("--json", default="results/bench.json", metavar="PATH",
                   help="JSON output of the benchmark (default: %(default)s)")
    _add_outputs(b)
    b.add_argument("--list", action="store_true",
                   help="list the operations, kernels and moduli available, then exit")
    b.add_argument("--reproduce", action="store_true",
                   help="run the seeds' experiments beside tabai's instead (writes a Markdown "
                   "report and its records as JSON beside it, see docs/reproduction.md; "
                   "TABAI_REPRODUCE_MD sets its path)")
    b.add_argument("--threads", type=int, metavar="N",
                   help="also measure the batches on N threads (the binary's --threads)")
    b.add_argument("-v", "--verbose", action="store_true",
                   help="also show what the benchmark binary prints on stdout")

    r = sub.add_parser("report", help="print tables and write CSV/PNG from a benchmark JSON file")
    r.add_argument("json", metavar="JSON", help="a JSON file written by tabai bench")
    _add_outputs(r)
    r.add_argument("--reproduce", action="store_true",
                   help="JSON holds the records of a --reproduce run: write its Markdown report "
                   "(to --md PATH, else TABAI_REPRODUCE_MD, else reproduction.md)")

    sub.add_parser("cpu", help="show the CPU features and the dispatch tier in use")
    return ap


def _report(data: dict, args: argparse.Namespace) -> int:
    print(_bench.format_report(data))
    print()
    _bench.write_csv(data["records"], args.csv)
    print(f"wrote {args.csv}")
    if args.md:
        Path(args.md).parent.mkdir(parents=True, exist_ok=True)
        Path(args.md).write_text(_bench.format_report(data, markdown=True) + "\n", encoding="utf-8")
        print(f"wrote {args.md}")
    if not args.no_plot:
        try:
            from ._plot import plot
        except ImportError:  # pragma: no cover - only without matplotlib
            print("tabai: matplotlib is not installed, no plot (pip install 'tabai[bench]')",
                  file=sys.stderr)
            return 0
        try:
            plot(data, args.plot)
        except ImportError:
            print("tabai: matplotlib is not installed, no plot (pip install 'tabai[bench]')",
                  file=sys.stderr)
            return 0
        print(f"wrote {args.plot}")
        from ._plot import plot_mb

        mb_path = Path(args.plot).with_name(Path(args.plot).stem + "_mb.png")
        if plot_mb(data, mb_path):
            print(f"wrote {mb_path}")
        from ._plot import plot_ec

        ec_path = Path(args.plot).with_name(Path(args.plot).stem + "_ec.png")
        if plot_ec(data, ec_path):
            print(f"wrote {ec_path}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import _bench_py

    if args.list:
        avail = _bench.list_available()
        avail["ops"] = list(avail.get("ops", [])) + [o for o in _bench_py.PY_ONLY_OPS
                                                     if o not in avail.get("ops", [])]
        print(_bench.format_list(avail))
        return 0
    extra = list(args.extra) + (["--reproduce"] if args.reproduce else [])
    if args.threads:
        extra += ["--threads", str(args.threads)]
    c_ops, py_ops = _bench_py.split_ops(args.ops)
    if args.reproduce:
        py_ops = []
    if c_ops == "":  # only ops the Python side measures: no binary run
        from . import __version__, cpu

        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        data = {"meta": {"tabai_version": __version__, "cpu": cpu()["brand"],
                         "tier": cpu()["tier"], "argv": {"ops": args.ops, "bits": args.bits}},
                "records": []}
    else:
        data = _bench.run(args.json, ops=c_ops or args.ops, bits=args.bits, seconds=args.seconds,
                          echo_stdout=args.verbose, progress=True, extra_args=extra)
    if py_ops:
        data["records"] += _bench_py.measure(py_ops, args.bits, args.seconds, sys.stderr)
    if py_ops or c_ops == "":
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if args.reproduce and not data.get("records"):
        md_path, json_path = _reproduce.paths()
        _reproduce.write(json_path, md_path)
        print(f"wrote {md_path}", file=sys.stderr)
        return 0
    if not args.reproduce:
        _python_peers(args, data)
    print(f"wrote {args.json}", file=sys.stderr)
    return _report(data, args)


def _python_peers(args: argparse.Namespace, data: dict) -> None:
    """Adds the records of the peers timed from Python (the OpenSSL of the cryptography
    wheel, python/tabai/_bench_ec.py) for the selected curve ops, and rewrites the JSON."""
    from . import _bench_ec

    ops = [o.strip() for o in args.ops.split(",")] if args.ops else None
    if ops is not None and not set(ops) & set(_bench_ec.OPS):
        return
    curves = None
    extra = list(args.extra)
    if "--curves" in extra and extra.index("--curves") + 1 < len(extra):
        curves = [c.strip() for c in extra[extra.index("--curves") + 1].split(",")]
    try:
        recs = _bench_ec.run(ops, curves, seconds=args.seconds if args.seconds else 0.2,
                             progress=lambda label: print(f"  {label}", file=sys.stderr))
    except Exception as ex:  # a peer's failure must not lose the C results
        print(f"tabai: the Python-side peers failed: {ex}", file=sys.stderr)
        return
    if recs:
        data["records"].extend(recs)
        data["meta"]["python_peers"] = _bench_ec.version()
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _cmd_report(args: argparse.Namespace) -> int:
    if args.reproduce:
        md_path = _reproduce.paths(args.md or "")[0]
        _reproduce.write(args.json, md_path)
        print(f"wrote {md_path}")
        return 0
    return _report(_bench.load(args.json), args)


def _cmd_cpu(args: argparse.Namespace) -> int:
    from . import cpu

    print(json.dumps(cpu(), indent=2))
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``tabai`` console script. Returns the exit status."""
    ap = _parser()
    args, extra = ap.parse_known_args(argv)
    if extra and args.command != "bench":
        ap.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    if args.command is None:
        ap.print_help()
        return 2
    try:
        if args.command == "bench":
            return _cmd_bench(args)
        if args.command == "report":
            return _cmd_report(args)
        return _cmd_cpu(args)
    except _bench.BenchError as ex:
        print(f"tabai: error: {ex}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tabai: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
