"""The `tabai` command: with a stand-in binary (fake_bench.py) always, with the real
tabai-bench when the package carries one (or TABAI_BENCH_BIN points at it)."""

import csv
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import tabai
from tabai import _bench, cli

FAKE = Path(__file__).resolve().parent / "fake_bench.py"
FAKE_CMD = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE))}"


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setenv("TABAI_BENCH_BIN", FAKE_CMD)
    monkeypatch.delenv("FAKE_BENCH_FAIL", raising=False)


def run_cli(tmp_path, *extra, plot=True):
    args = ["bench", "--json", str(tmp_path / "b.json"), "--csv", str(tmp_path / "b.csv")]
    args += ["--plot", str(tmp_path / "b.png")] if plot else ["--no-plot"]
    return cli.main(args + list(extra))


def test_list(fake, capsys):
    assert cli.main(["bench", "--list"]) == 0
    out = capsys.readouterr().out
    assert "ops:" in out and "mont_mul" in out and "future_op" in out
    assert "secp256k1_p" in out and "2048 bits" in out
    assert "extra_key" in out


def test_bench_report(fake, tmp_path, capsys):
    assert run_cli(tmp_path, "--ops", "mul,modmul,mont_mul,powmod,future_op", "--bits", "256,64",
                   "--seconds", "0.25", "--md", str(tmp_path / "b.md"), "--tiers", "generic",
                   plot=False) == 0
    cap = capsys.readouterr()
    out = cap.out
    # options reached the binary
    data = json.loads((tmp_path / "b.json").read_text())
    assert data["meta"]["argv"] == {"ops": "mul,modmul,mont_mul,powmod,future_op",
                                    "bits": "256,64", "seconds": 0.25, "tiers": "generic"}
    # header, then one table per op in the report's order; unknown ops at the end
    assert "Fake CPU" in out and "3.0.11" in out
    order = [out.index(f"== {op}") for op in ("mul", "mont_mul", "modmul", "powmod", "future_op")]
    assert order == sorted(order)
    # progress lines are consumed, other stderr lines passed through, stdout of the binary hidden
    assert "@progress" not in cap.err and "a warning line on stderr" in cap.err
    assert "table on stdout" not in out
    # ratios: gmp mul 15*s vs fastest tabai 5*s -> 3.00; openssl mont 30 vs 20 -> 1.50;
    # modmul (gmp only) 40 vs tabai mont_mul 20 -> 2.00; powmod 1.5
    mul = out[out.index("== mul"):out.index("== mont_mul")]
    assert "3.00" in mul and "tabai generic ns" in mul and "tabai bmi2 ns" in mul
    mont = out[out.index("== mont_mul"):out.index("== modmul")]
    assert "1.50" in mont
    modmul = out[out.index("== modmul"):out.index("== powmod")]
    assert "2.00" in modmul and "ratios against" in modmul
    assert "1.50" in out[out.index("== powmod"):]
    # CSV: one row per record, every field, extra ones included
    with open(tmp_path / "b.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(data["records"])
    assert list(rows[0])[:9] == list(_bench.FIELDS)
    assert {"lanes", "extra", "min_ns"} <= set(rows[0])
    fut = [r for r in rows if r["op"] == "future_op"]
    assert fut and fut[0]["lanes"] == "8" and json.loads(fut[0]["extra"]) == {"note": "future"}
    assert all(r["modulus"] == "" for r in rows if r["op"] == "mul")
    md = (tmp_path / "b.md").read_text()
    assert "| bits | modulus |" in md
    assert not (tmp_path / "b.png").exists()


def test_bench_plot(fake, tmp_path):
    pytest.importorskip("matplotlib")
    assert run_cli(tmp_path) == 0
    png = (tmp_path / "b.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000


def test_default_paths(fake, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["bench", "--ops", "mul", "--bits", "64", "--no-plot"]) == 0
    assert (tmp_path / "results" / "bench.json").exists()
    assert (tmp_path / "results" / "bench.csv").exists()


def test_report_subcommand(fake, tmp_path, capsys):
    assert run_cli(tmp_path, "--ops", "powmod", "--bits", "2048", plot=False) == 0
    capsys.readouterr()
    assert cli.main(["report", str(tmp_path / "b.json"), "--csv", str(tmp_path / "c.csv"),
                     "--no-plot"]) == 0
    assert "rsa2048_n" in capsys.readouterr().out
    assert (tmp_path / "c.csv").exists()


def test_binary_fails(fake, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_BENCH_FAIL", "3")
    assert run_cli(tmp_path, plot=False) == 1
    err = capsys.readouterr().err
    assert "failing on purpose" in err and "status 3" in err
    assert "fake-bench stdout before failing" in err


def test_unknown_option_elsewhere(capsys):
    with pytest.raises(SystemExit):
        cli.main(["cpu", "--tiers", "x"])


def test_binary_missing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABAI_BENCH_BIN", str(tmp_path / "nope"))
    assert run_cli(tmp_path, plot=False) == 1
    assert "tabai: error" in capsys.readouterr().err


def test_bad_json(tmp_path):
    p = tmp_path / "x.json"
    for text in ("not json", "[]", '{"records": 3}', '{"meta": [], "records": []}'):
        p.write_text(text)
        with pytest.raises(_bench.BenchError):
            _bench.load(p)
    p.write_text('{"records": [{"op": "mul"}, 7, {"bits": "x"}]}')
    data = _bench.load(p)
    assert len(data["records"]) == 2
    assert "== mul" in _bench.format_report(data)


def test_formatting():
    assert _bench.format_time(5.5) == "5.50 ns"
    assert _bench.format_time(123.4) == "123.4 ns"
    assert _bench.format_time(12345.0) == "12.35 us"
    assert _bench.format_time(2.5e6) == "2.50 ms"
    assert _bench.format_time(None) == "-"
    assert _bench.format_ticks(1234) == "1234"
    assert _bench.format_ticks(2.0e7) == "20.0M"


def test_python_m_and_console_script(fake, tmp_path):
    env = dict(os.environ, TABAI_BENCH_BIN=FAKE_CMD)
    r = subprocess.run([sys.executable, "-m", "tabai", "bench", "--list"], capture_output=True,
                       text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "mont_mul" in r.stdout
    r = subprocess.run([sys.executable, "-m", "tabai", "cpu"], capture_output=True, text=True,
                       cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["native"] == tabai.cpu()["native"]
    r = subprocess.run([sys.executable, "-m", "tabai"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2 and "bench" in r.stdout


def test_tier_env_var(tmp_path):
    env = dict(os.environ, TABAI_CPU="generic")
    r = subprocess.run([sys.executable, "-c", "import tabai; print(tabai.cpu()['tier'])"],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.stdout.strip() == "generic"


# ---- the real binary -----------------------------------------------------------------
def real_binary():
    if os.environ.get("TABAI_BENCH_BIN"):
        return os.environ["TABAI_BENCH_BIN"]
    p = Path(tabai.__file__).resolve().parent / "_bin" / "tabai-bench"
    return str(p) if p.exists() else None


needs_real = pytest.mark.skipif(real_binary() is None, reason="no tabai-bench in the package")


@needs_real
def test_real_list(capsys, monkeypatch):
    monkeypatch.setenv("TABAI_BENCH_BIN", real_binary())
    data = _bench.list_available()
    assert "mul" in data["ops"] and "generic" in data["kernels"]
    assert any(m["bits"] == 256 for m in data["moduli"])
    assert cli.main(["bench", "--list"]) == 0
    assert "mont_mul" in capsys.readouterr().out


@needs_real
def test_real_short_run(tmp_path, monkeypatch):
    monkeypatch.setenv("TABAI_BENCH_BIN", real_binary())
    assert run_cli(tmp_path, "--ops", "mul", "--bits", "64", "--seconds", "0.01", plot=False) == 0
    data = json.loads((tmp_path / "b.json").read_text())
    assert {"meta", "records"} <= set(data)
    recs = data["records"]
    assert recs and all(r["op"] == "mul" and r["bits"] == 64 for r in recs)
    assert any(r["impl"] == "tabai" for r in recs)
    for r in recs:
        assert set(_bench.FIELDS) <= set(r)
        assert r["ns"] > 0 and r["reps"] >= 1
