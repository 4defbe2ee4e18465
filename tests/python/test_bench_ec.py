"""The curve ops in the report: best/tabai and the like-for-like ratio of the Python-side
peer (synthetic records), and the Python-side peer module on X25519 (a very short run)."""

from tabai import _bench, _bench_ec


def rec(impl, kernel, ns, op="ecdh", modulus="P-256"):
    return {"op": op, "bits": 256, "modulus": modulus, "impl": impl, "kernel": kernel,
            "symbol": "x", "ns": ns, "tsc": None, "reps": 5}


def test_best_peer_and_python_ratio():
    records = [rec("tabai", "bmi2", 100.0), rec("tabai", "python", 110.0),
               rec("openssl", None, 150.0), rec("libsecp256k1", None, 120.0),
               rec("cryptography", None, 99.0)]
    title, header, rows = _bench.build_table("ecdh", records)
    assert header[-1] == "best/tabai"
    row = dict(zip(header, rows[0]))
    assert row["openssl/tabai"] == "1.50"            # C peer against tabai in C
    assert row["libsecp256k1/tabai"] == "1.20"
    assert row["cryptography/tabai"] == "0.90"       # Python peer against tabai from Python
    assert row["best/tabai"] == "0.90"
    # other ops keep their columns
    _, h2, _ = _bench.build_table("powmod", [rec("tabai", "bmi2", 1.0, op="powmod"),
                                             rec("gmp", None, 2.0, op="powmod"),
                                             rec("openssl", None, 3.0, op="powmod")])
    assert "best/tabai" not in h2


def test_python_peer_x25519_records():
    recs = _bench_ec.run(ops=["x25519"], seconds=0.01)
    assert {r["impl"] for r in recs} == {"tabai", "cryptography"}
    for r in recs:
        assert r["op"] == "x25519" and r["modulus"] == "X25519" and r["bits"] == 255
        assert r["ns"] > 0 and r["reps"] >= 5
        assert set(_bench.FIELDS) <= set(r)


def test_plot_ec(tmp_path):
    import pytest

    pytest.importorskip("matplotlib")
    from tabai._plot import plot_ec

    records = [rec("tabai", "bmi2", 100.0), rec("openssl", None, 150.0),
               rec("tabai", "generic", 40.0, op="x25519", modulus="X25519"),
               rec("openssl", None, 30.0, op="x25519", modulus="X25519")]
    out = plot_ec({"meta": {}, "records": records}, tmp_path / "ec.png")
    assert out is not None and out.stat().st_size > 1000
    assert plot_ec({"meta": {}, "records": [rec("tabai", "bmi2", 1.0, op="powmod")]},
                   tmp_path / "none.png") is None
