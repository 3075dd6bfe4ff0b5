"""W8: two independent chains of matrix products and elementwise work in one function.

Stage: benchmark definitions. Input: a size. Output: the W8 ``Variant``. The chains share no
value until the final sum, so tograph's executor runs them on two threads
(``tograph.backend.parallel``) while hand-written NumPy runs them one after the other; the target
is 1.6x NumPy's speed on two cores.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import tograph as tg
from tograph.bench import timing
from tograph.bench.workloads.base import Variant


def two_chains(a: Any, b: Any, c: Any, d: Any) -> Any:
    """``tanh(tanh(a @ b) @ b) + tanh(tanh(c @ d) @ d)``: two independent chains, then a sum."""
    x = np.tanh(a @ b)
    x = np.tanh(x @ b)
    y = np.tanh(c @ d)
    y = np.tanh(y @ d)
    return x + y


def w8_variants(size: str) -> list[Variant]:
    """W8: ``two_chains`` on float64 matrices of 512 x 512 (smoke: 8 x 8)."""
    n = 512 if size == "full" else 8
    rng = np.random.default_rng(8)
    inputs = tuple(rng.normal(size=(n, n)) / np.sqrt(n) for _ in range(4))
    return [
        Variant(
            key="W8",
            workload="W8",
            title=f"two independent chains, {n}x{n} f64",
            inputs=inputs,
            numpy=timing.Contender("numpy", two_chains, inputs),
            tograph=timing.Contender("tograph", tg.to_static(two_chains, fallback="error"), inputs),
            rtol=1e-12,
        )
    ]
