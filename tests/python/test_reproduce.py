"""The reproduction report rendered in Python from the records of ``tabai-bench --reproduce``.

data/reproduce.json and data/reproduce.md come from one run of the binary when it still wrote
the Markdown itself (C printf): the renderer must give the same text, byte for byte, from the
JSON alone. Then the CLI paths: ``tabai report --reproduce`` and the file names."""

from __future__ import annotations

import json
from pathlib import Path

from tabai import _reproduce
from tabai.cli import main

DATA = Path(__file__).with_name("data")


def test_render_matches_the_c_report():
    data = json.loads((DATA / "reproduce.json").read_text(encoding="utf-8"))
    assert _reproduce.render(data) == (DATA / "reproduce.md").read_text(encoding="utf-8")


def test_render_without_the_mb_kernels():
    data = json.loads((DATA / "reproduce.json").read_text(encoding="utf-8"))
    data["meta"]["mb_unusable"] = "ifma_zmm"
    data["meta"]["ifma"] = False
    data["records"] = [r for r in data["records"] if r["experiment"] != "seed001"]
    md = _reproduce.render(data)
    assert "This CPU has no AVX-512 IFMA" in md
    assert md.endswith("Not measurable on this CPU (ifma_zmm needs AVX-512F/VL and IFMA).\n")


def test_paths(monkeypatch):
    monkeypatch.delenv("TABAI_REPRODUCE_MD", raising=False)
    assert _reproduce.paths() == ("reproduction.md", "reproduction.json")
    monkeypatch.setenv("TABAI_REPRODUCE_MD", "out/r.v1/report.md")
    assert _reproduce.paths() == ("out/r.v1/report.md", "out/r.v1/report.json")
    assert _reproduce.paths("x") == ("x", "x.json")


def test_report_reproduce_cli(tmp_path, capsys):
    out = tmp_path / "r.md"
    assert main(["report", str(DATA / "reproduce.json"), "--reproduce", "--md", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == (DATA / "reproduce.md").read_text(encoding="utf-8")
    assert str(out) in capsys.readouterr().out
