"""W4: an elementwise chain on large float32 arrays, timed and measured for peak memory.

Stage: benchmark definitions. Input: a size. Output: the W4 ``Variant``. Nine elementwise
operations on three 4M-element float32 vectors: the time is memory traffic, and the peak memory
shows how many 16 MB temporaries are alive at once (hand-written NumPy reuses a temporary whose
only reference is the expression stack, so it needs fewer).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import tograph as tg
from tograph.bench import timing
from tograph.bench.workloads.base import Variant


def chain(a: Any, b: Any, c: Any) -> Any:
    """``tanh(a*b + c) * 0.5 + a * exp(-b*b)``, elementwise."""
    return np.tanh(a * b + c) * 0.5 + a * np.exp(-(b * b))


def w4_variants(size: str) -> list[Variant]:
    """W4: ``chain`` on three float32 vectors of 4M elements (smoke: 16)."""
    length = 4_000_000 if size == "full" else 16
    rng = np.random.default_rng(4)
    inputs = tuple(rng.normal(size=length).astype(np.float32) for _ in range(3))
    return [
        Variant(
            key="W4",
            workload="W4",
            title=f"elementwise chain, {length:,} f32",
            inputs=inputs,
            numpy=timing.Contender("numpy", chain, inputs),
            tograph=timing.Contender("tograph", tg.to_static(chain, fallback="error"), inputs),
            rtol=1e-5,
            atol=1e-6,
        )
    ]
