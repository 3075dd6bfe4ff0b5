"""Smoke tests of the benchmark suite: tiny sizes, no timing assertions.

Each workload's tograph contender agrees with its NumPy version (values and dtypes), and the
runner's ``--smoke`` mode writes JSON with every workload's variants.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import tograph.bench
from tograph.bench import compare, report, runner, timing, workloads

VARIANTS = [v for w in workloads.all_workloads() for v in w.variants("smoke")]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.key)
def test_tograph_matches_numpy(variant: workloads.Variant) -> None:
    reference = variant.reference if variant.numpy is None else variant.numpy.result()
    assert compare.check(variant.tograph, reference, variant.rtol, variant.atol, peer=False) == "ok"


def test_every_workload_has_variants() -> None:
    assert sorted({v.workload for v in VARIANTS}) == [f"W{i}" for i in range(1, 9)]


def test_check_reports_a_wrong_result() -> None:
    wrong = timing.Contender("tograph", lambda x: (x + 1e-3, 1), (np.ones(3),))
    status = compare.check(wrong, (np.ones(3), 1), 1e-7, 0.0, peer=False)
    assert status.startswith("result 0: max abs difference 0.001")


def test_check_reports_a_wrong_dtype() -> None:
    wrong = timing.Contender("tograph", lambda x: x.astype(np.float32), (np.ones(3),))
    assert (
        compare.check(wrong, np.ones(3), 1e-7, 0.0, peer=False)
        == "result 0: dtype float32, NumPy float64"
    )


def test_smoke_run_writes_json(tmp_path, capsys) -> None:
    out = tmp_path / "bench.json"
    assert tograph.bench.main(["--smoke", "--peers", "none", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [r["key"] for r in data["results"]] == [v.key for v in VARIANTS]
    for record in data["results"]:
        assert record["contenders"]["tograph"]["check"] == "ok"
        assert record["contenders"]["tograph"]["median_s"] > 0
        assert ("numpy" in record["contenders"]) != record["first_call"]
    assert set(next(r for r in data["results"] if r["key"] == "W4")["peak_bytes"]) == {
        "numpy",
        "tograph",
    }
    printed = capsys.readouterr().out
    assert "median time per call" in printed and "tograph / X" in printed


def test_only_selects_workloads(tmp_path) -> None:
    out = tmp_path / "bench.json"
    assert (
        tograph.bench.main(["--smoke", "--only", "w1,W3", "--peers", "none", "--json", str(out)])
        == 0
    )
    assert [r["key"] for r in json.loads(out.read_text())["results"]] == ["W1", "W3"]


def test_unknown_workload_is_a_usage_error(capsys) -> None:
    assert tograph.bench.main(["--only", "W9"]) == 2
    assert "unknown workload 'W9'" in capsys.readouterr().err


def test_targets_compare_ratios() -> None:
    record = {
        "key": "W3",
        "workload": "W3",
        "first_call": False,
        "ratios": {"tograph/numpy": 1.2, "tograph/jax.jit": 2.0, "tograph/tf.function": 0.5},
    }
    verdicts = {v["target"]: v["met"] for v in compare.targets([record])}
    assert verdicts == {"<= 1.05x numpy": False, "ahead of tf.function": True}


def test_workloads_with_their_own_targets() -> None:
    records = [
        {"key": "W8", "workload": "W8", "first_call": False, "ratios": {"tograph/numpy": 0.6}},
        {"key": "W4", "workload": "W4", "first_call": False, "ratios": {"tograph/numpy": 0.8}},
    ]
    verdicts = {v["target"]: v["met"] for v in compare.targets(records)}
    assert verdicts == {"<= 0.625x numpy": True, "<= 0.75x numpy": False}


def test_report_marks_misses() -> None:
    data = runner.run(runner.Options(mode="smoke", only=["W1"], peers=[]), out=_Sink())
    data["targets"] = compare.targets([{**data["results"][0], "ratios": {"tograph/numpy": 2.0}}])
    assert "MISS  W1" in report.render(data)


class _Sink:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def test_backend_option_times_tograph_on_both_backends(tmp_path) -> None:
    out = tmp_path / "bench.json"
    args = ["--smoke", "--only", "W1,W3", "--peers", "numba", "--backend", "numba"]
    assert tograph.bench.main([*args, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["backend"] == "numba"
    backends = {r["key"]: r["backend"] for r in data["results"]}
    assert backends["W1"] == "numba"
    from tograph.backend import numba_libm

    exact_trig = all(numba_libm.agrees(name) for name in numba_libm.FUNCTIONS)
    assert backends["W3"] == "numba" if exact_trig else backends["W3"].startswith("numpy (numba: ")
    for record in data["results"]:
        found = record["contenders"]
        assert set(found) == {"numpy", "tograph", "tograph.numba", "numba.njit"}
        assert all(c["check"] == "ok" for c in found.values())
        assert {"tograph/numba.njit", "tograph.numba/numpy"} <= set(record["ratios"])


def test_loop_targets_name_the_contender() -> None:
    record = {
        "key": "W1",
        "workload": "W1",
        "first_call": False,
        "ratios": {"tograph/numpy": 0.4, "tograph.numba/jax.jit": 0.25},
    }
    verdicts = {v["target"]: v["met"] for v in compare.targets([record])}
    assert verdicts == {
        "tograph <= 0.5x numpy": True,
        "tograph.numba <= 0.2x jax.jit": False,
        "<= 1.05x numpy": True,
    }


def test_first_calls_are_held_to_torch_jit_script_and_forward_rnns_to_0_9x_numpy() -> None:
    first = {
        "key": "W6.100",
        "workload": "W6",
        "first_call": True,
        "ratios": {"tograph/torch.jit.script": 1.6, "tograph/jax.jit": 0.3},
    }
    rnn = {"key": "W2.fwd", "workload": "W2", "first_call": False, "ratios": {"tograph/numpy": 1.0}}
    verdicts = {(v["key"], v["target"]): v["met"] for v in compare.targets([first, rnn])}
    assert verdicts == {
        ("W6.100", "tograph <= 1.0x torch.jit.script"): False,
        ("W2.fwd", "<= 0.9x numpy"): False,
    }


@pytest.fixture
def blas_threads():
    """Restores NumPy's BLAS thread counts after a test that changes them."""
    import threadpoolctl

    before = {p["internal_api"]: p["num_threads"] for p in threadpoolctl.threadpool_info()}
    yield
    for api, count in before.items():
        threadpoolctl.threadpool_limits(count, user_api=None if api is None else "blas")


def test_threads_option_sets_numpy_blas_and_records_what_ran(tmp_path, blas_threads) -> None:
    import threadpoolctl

    out = tmp_path / "bench.json"
    args = ["--smoke", "--only", "W8", "--peers", "none", "--threads", "2"]
    assert tograph.bench.main([*args, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    threads = data["environment"]["threads"]
    assert threads["threads"] == 2 and threads["env"]["OPENBLAS_NUM_THREADS"] == "2"
    blas = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
    assert blas and all(p["num_threads"] == 2 for p in blas)
    (record,) = data["results"]
    assert record["ran_on"] == {"tograph": "numpy"}
    assert set(record["peak_bytes"]) == {"numpy", "tograph"}


def test_without_threadpoolctl_the_suite_reruns_with_the_variables_set(monkeypatch) -> None:
    from tograph.bench import peers

    monkeypatch.setattr(peers.importlib.util, "find_spec", lambda name: None)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    assert peers.restart_needed(3)
    calls = []
    monkeypatch.setattr(
        tograph.bench.subprocess, "call", lambda cmd, env: calls.append((cmd, env)) or 0
    )
    assert tograph.bench.main(["--smoke", "--threads", "3"]) == 0
    ((cmd, env),) = calls
    assert cmd[1:] == ["-m", "tograph.bench", "--smoke", "--threads", "3"]
    assert env["OPENBLAS_NUM_THREADS"] == env["OMP_NUM_THREADS"] == "3"
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    assert not peers.restart_needed(3)  # the child: the variables were there before NumPy
