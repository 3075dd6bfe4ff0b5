"""The benchmark workloads W1-W7: each a NumPy function, its tograph compilation, and its inputs.

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
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from tograph.bench import timing


@dataclasses.dataclass
class Variant:
    """One row of the report.

    Attributes:
      key: unique id, the workload name and a suffix ("W2.fwd", "W6.100").
      workload: "W1" ... "W7".
      title: a short description for the table.
      inputs: the NumPy inputs, shared by all contenders (peers convert them).
      numpy: the hand-written NumPy contender (None where NumPy has no counterpart: W6).
      tograph: the tograph contender.
      rtol: relative tolerance of the correctness check against NumPy's result.
      atol: absolute tolerance of that check.
      number: calls per sample for every contender (W7: 1000), instead of calibrating.
      memory: also measure peak memory (W4).
      first_call: the time is a first call (W6), not a steady-state call.
      param: a parameter peers need to build their version (W6: the statement count).
      reference: the expected result where there is no NumPy contender to compute it (W6).
    """

    key: str
    workload: str
    title: str
    inputs: tuple[Any, ...]
    numpy: timing.Contender | None
    tograph: timing.Contender
    rtol: float = 1e-7
    atol: float = 0.0
    number: int | None = None
    memory: bool = False
    first_call: bool = False
    param: Any = None
    reference: Any = None


@dataclasses.dataclass(frozen=True)
class Workload:
    """A named workload and the function making its variants for a size ("full" or "smoke")."""

    name: str
    title: str
    variants: Callable[[str], list[Variant]]


def all_workloads() -> list[Workload]:
    """W1 to W7, in order."""
    from tograph.bench.workloads import arrays, conversion, loops, models

    return [
        Workload("W1", "scalar while loop", loops.w1_variants),
        Workload("W2", "RNN for-loop", models.w2_variants),
        Workload("W3", "if inside a tensor loop", loops.w3_variants),
        Workload("W4", "elementwise chain, 4M float32", arrays.w4_variants),
        Workload("W5", "MLP SGD step", models.w5_variants),
        Workload("W6", "first call (conversion)", conversion.w6_variants),
        Workload("W7", "MLP batch 1, per call", models.w7_variants),
    ]
