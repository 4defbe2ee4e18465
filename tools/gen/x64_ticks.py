#!/usr/bin/env python3
"""Refresh src/x64/ticks.json (the measured TSC ticks per call that tools/gen/x64.py writes
above each generated function) from a benchmark JSON file:

    tabai bench --ops x64 --bits 64,128,...,1024,2048 --json results/x64.json
    python3 tools/gen/x64_ticks.py results/x64.json > src/x64/ticks.json
    python3 tools/gen/x64.py --out src/x64

Takes the records with impl "tabai" and kernel "bmi2" (median TSC ticks) and the run's
CPU and date from its meta object."""
import json
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as fh:
        data = json.load(fh)
    meta = data.get("meta", {})
    ticks = {}
    for rec in data.get("records", []):
        if rec.get("impl") == "tabai" and rec.get("kernel") == "bmi2" and rec.get("symbol"):
            ticks[rec["symbol"]] = round(float(rec["tsc"]), 1)
    out = {"cpu": meta.get("cpu", meta.get("cpu_brand", "unknown")),
           "date": meta.get("date", "unknown"),
           "tsc_hz": meta.get("tsc_hz"),
           "ticks": dict(sorted(ticks.items()))}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
