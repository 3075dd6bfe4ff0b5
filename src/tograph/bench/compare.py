"""Comparisons: results against NumPy's, times as ratios, and the issue's targets.

Stage: benchmark harness. Input: contenders' results and the runner's per-variant records.
Output: a check status ("ok" or what differs), ``tograph / X`` ratios, and the target verdicts:

* steady state within 1.05x of hand-written NumPy (every variant but W6's first calls), or
  within the variant's own target: W2 forward 0.9x, W4 0.75x (blocked fusion), W5 1.0x, W8
  0.625x (1.6x faster than NumPy's sequential run, on threads);
* ahead of every installed peer's compiled mode on W1, W3, W5 and W7, jax.jit excepted on W1 and
  W3 (JAX compiles a scalar loop to machine code; tograph runs it in Python);
* issue 14's loop targets: W1 on the NumPy backend within 0.5x hand-written NumPy (loop scalars
  as Python numbers), W1 on numba ("tograph.numba") within 1/5 of jax.jit's time, W2 forward and
  W3 with ``--backend auto`` ("tograph.auto") ahead of jax.jit;
* W6's first calls ahead of torch.jit.script's at every length.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph.bench import peers, timing

NUMPY_TARGET = 1.05
NUMPY_TARGETS = {"W2.fwd": 0.9, "W4": 0.75, "W5": 1.0, "W8": 1 / 1.6}
PEER_TARGET_WORKLOADS = ("W1", "W3", "W5", "W7")
PEER_TARGET_EXCEPTIONS = {("W1", "jax.jit"), ("W3", "jax.jit")}
# (variant, tograph contender, other contender) -> ratio limit
LOOP_TARGETS = {
    ("W1", "tograph", "numpy"): 0.5,
    ("W1", "tograph.numba", "jax.jit"): 0.2,
    ("W2.fwd", "tograph.auto", "jax.jit"): 1.0,
    ("W3", "tograph.auto", "jax.jit"): 1.0,
    **{(f"W6.{n}", "tograph", "torch.jit.script"): 1.0 for n in (10, 100, 1000)},
}
# Peers compute in their own order, some in float32 where NumPy promotes (paddle's Python-float
# scalars): their check is looser than tograph's, which must match NumPy exactly in dtype too.
_PEER_RTOL, _PEER_ATOL = 1e-3, 1e-5


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def check(contender: timing.Contender, reference: Any, rtol: float, atol: float, peer: bool) -> str:
    """Runs ``contender`` once and compares its result with ``reference``; "ok" or what differs."""
    got = [np.asarray(contender.to_numpy(leaf)) for leaf in _leaves(contender.result())]
    expected = [np.asarray(leaf) for leaf in _leaves(reference)]
    if len(got) != len(expected):
        return f"{len(got)} results, NumPy has {len(expected)}"
    if peer:
        rtol, atol = max(rtol, _PEER_RTOL), max(atol, _PEER_ATOL)
    for i, (g, e) in enumerate(zip(got, expected)):
        if g.shape != e.shape:
            return f"result {i}: shape {g.shape}, NumPy {e.shape}"
        if not peer and g.dtype != e.dtype:
            return f"result {i}: dtype {g.dtype}, NumPy {e.dtype}"
        if not np.allclose(g, e, rtol=rtol, atol=atol):
            error = float(np.max(np.abs(g.astype(float) - e.astype(float))))
            return f"result {i}: max abs difference {error:.3g} (rtol {rtol:g}, atol {atol:g})"
    return "ok"


def ratios(contenders: dict[str, dict[str, Any]]) -> dict[str, float]:
    """``{"tograph/numpy": r, "tograph.numba/numpy": r, ...}`` from median times, for each
    tograph contender against every other contender (below 1: tograph is faster)."""
    ours = [name for name in contenders if name.startswith("tograph")]
    return {
        f"{mine}/{name}": contenders[mine]["median_s"] / c["median_s"]
        for mine in ours
        for name, c in contenders.items()
        if not name.startswith("tograph")
    }


def targets(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One verdict per (variant, target): ``{"key", "target", "ratio", "met"}``."""
    verdicts = []
    for record in results:
        found = record["ratios"]
        for (key, mine, other), limit in LOOP_TARGETS.items():
            ratio = found.get(f"{mine}/{other}")
            if record["key"] == key and ratio is not None:
                verdicts.append(_verdict(key, f"{mine} <= {limit}x {other}", ratio, limit))
        if not record["first_call"] and "tograph/numpy" in found:
            limit = NUMPY_TARGETS.get(record["key"], NUMPY_TARGET)
            verdicts.append(
                _verdict(record["key"], f"<= {limit:.3g}x numpy", found["tograph/numpy"], limit)
            )
        if record["workload"] not in PEER_TARGET_WORKLOADS:
            continue
        for peer in peers.COMPILED:
            ratio = found.get(f"tograph/{peer}")
            if ratio is not None and (record["workload"], peer) not in PEER_TARGET_EXCEPTIONS:
                verdicts.append(_verdict(record["key"], f"ahead of {peer}", ratio, 1.0))
    return verdicts


def _verdict(key: str, target: str, ratio: float, limit: float) -> dict[str, Any]:
    return {"key": key, "target": target, "ratio": ratio, "met": ratio <= limit}
