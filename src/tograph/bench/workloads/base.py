"""The row type shared by all workloads: ``Variant``, one contender pair with its inputs."""

from __future__ import annotations

import dataclasses
from typing import Any

from tograph.bench import timing


@dataclasses.dataclass
class Variant:
    """One row of the report.

    Attributes:
      key: unique id, the workload name and a suffix ("W2.fwd", "W6.100").
      workload: "W1" ... "W8".
      title: a short description for the table.
      inputs: the NumPy inputs, shared by all contenders (peers convert them).
      numpy: the hand-written NumPy contender (None where NumPy has no counterpart: W6).
      tograph: the tograph contender.
      rtol: relative tolerance of the correctness check against NumPy's result.
      atol: absolute tolerance of that check.
      number: calls per sample for every contender (W7: 1000), instead of calibrating.
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
    first_call: bool = False
    param: Any = None
    reference: Any = None
