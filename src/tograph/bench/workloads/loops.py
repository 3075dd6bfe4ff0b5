"""W1 (scalar while loop) and W3 (data-dependent if inside a tensor loop).

Stage: benchmark definitions. Input: a size. Output: the workloads' ``Variant``s. The functions
below are the hand-written NumPy; tograph compiles the very same functions (its ``while`` and
``for`` over a tensor become ``while_loop``, the ``if`` on a tensor a ``cond``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import tograph as tg
from tograph.bench import timing
from tograph.bench.workloads.base import Variant


def scalar_while(x: Any) -> Any:
    """Shrinks ``x`` until it is at most 1: the trip count depends on the value of ``x``."""
    n = 0
    while x > 1.0:
        x = x * 0.995
        n = n + 1
    return x, n


def if_in_loop(x: Any, n: Any) -> Any:
    """``n`` steps over a vector, each taking the branch that the vector's mean selects."""
    for _ in range(n):
        if np.mean(x) > 0.0:
            x = np.sin(x) - 0.3
        else:
            x = np.cos(x) * 0.9
    return x


def _variant(key: str, title: str, fn: Any, inputs: tuple[Any, ...]) -> Variant:
    compiled = tg.to_static(fn, fallback="error")
    return Variant(
        key=key,
        workload=key,
        title=title,
        inputs=inputs,
        numpy=timing.Contender("numpy", fn, inputs),
        tograph=timing.Contender("tograph", compiled, inputs),
    )


def w1_variants(size: str) -> list[Variant]:
    """W1: ``scalar_while`` from 150.0, 1000 iterations (smoke: 10)."""
    start = 150.0 if size == "full" else 1.05
    return [_variant("W1", f"scalar while from {start}", scalar_while, (np.float64(start),))]


def w3_variants(size: str) -> list[Variant]:
    """W3: ``if_in_loop`` on a float64 vector of 1000 for 500 steps (smoke: 8 for 6)."""
    length, steps = (1000, 500) if size == "full" else (8, 6)
    x = np.random.default_rng(3).normal(size=length)
    return [_variant("W3", f"if in loop, {length} x {steps}", if_in_loop, (x, np.int64(steps)))]
