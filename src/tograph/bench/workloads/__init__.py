"""The benchmark workloads W1-W8: each a NumPy function, its tograph compilation, and its inputs.

Stage: benchmark definitions. Input: a size ("full" for the benchmark, "smoke" for tiny tests).
Output: ``Variant``s, the rows of the report: the hand-written NumPy and the tograph contender,
the NumPy inputs (which ``tograph.bench.peers`` convert for the other frameworks) and how to
compare results. A workload may have several variants (W2 forward and forward+backward; W6 one
per function size).

| name | what |
|------|------|
| W1 | scalar ``while`` loop, data-dependent trip count (1000 iterations) |
| W2 | tanh RNN ``for`` loop (T=200, B=16, H=64): forward, and value_and_grad wrt the weights |
| W3 | data-dependent ``if`` inside a tensor loop (vector of 1000, 500 iterations) |
| W4 | elementwise chain on 4M-element float32 arrays: time and peak memory |
| W5 | MLP 784-256-10 SGD step, batch 128 (softmax cross-entropy, value_and_grad, update) |
| W6 | first call (conversion) of 10/100/1000-statement functions |
| W7 | MLP 512-256-128-2 float32, batch 1, per call over 1000 calls |
| W8 | two independent chains of 512x512 matrix products and ``tanh``, then their sum |
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from tograph.bench.workloads import arrays, chains, conversion, loops, models
from tograph.bench.workloads.base import Variant

__all__ = ["Variant", "Workload", "all_workloads"]


@dataclasses.dataclass(frozen=True)
class Workload:
    """A named workload and the function making its variants for a size ("full" or "smoke")."""

    name: str
    title: str
    variants: Callable[[str], list[Variant]]


def all_workloads() -> list[Workload]:
    """W1 to W8, in order."""
    return [
        Workload("W1", "scalar while loop", loops.w1_variants),
        Workload("W2", "RNN for-loop", models.w2_variants),
        Workload("W3", "if inside a tensor loop", loops.w3_variants),
        Workload("W4", "elementwise chain, 4M float32", arrays.w4_variants),
        Workload("W5", "MLP SGD step", models.w5_variants),
        Workload("W6", "first call (conversion)", conversion.w6_variants),
        Workload("W7", "MLP batch 1, per call", models.w7_variants),
        Workload("W8", "independent chains", chains.w8_variants),
    ]
