"""Timing and memory measurement: interleaved medians of contenders, and peak traced memory.

Stage: benchmark harness. Input: ``Contender``s (a callable, its arguments, and how to turn its
result into NumPy arrays). Output: per contender the median seconds per call over short samples
taken in turn (``measure``), and the peak bytes NumPy allocates during one call (``peak_bytes``).

Interleaving (sample of A, sample of B, ..., then again) makes a busy machine slow every contender
alike; each contender is warmed up first (compilation, caches), and each sample repeats the call
``number`` times, ``number`` chosen so that one sample lasts about ``sample_seconds``.
"""

from __future__ import annotations

import dataclasses
import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


@dataclasses.dataclass
class Contender:
    """One implementation of a workload variant, timed as ``fn(*args)``.

    Attributes:
      name: the column it is reported under ("numpy", "tograph", "jax.jit", ...).
      fn: the call to time.
      args: its arguments, already in the contender's own array type.
      to_numpy: turns one leaf of ``fn``'s result into a NumPy value (for the correctness check).
      self_timed: ``fn(*args)`` measures itself and returns ``(seconds, result)`` (first-call
        timing, where each sample needs a fresh function whose making must not be timed).
    """

    name: str
    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()
    to_numpy: Callable[[Any], Any] = np.asarray
    self_timed: bool = False

    def result(self) -> Any:
        """The result of one call (what the correctness check compares)."""
        out = self.fn(*self.args)
        return out[1] if self.self_timed else out


@dataclasses.dataclass
class Timing:
    """The measurement of one contender: median seconds per call and how it was sampled."""

    median: float
    samples: int
    number: int


def _sample(contender: Contender, number: int) -> float:
    fn, args = contender.fn, contender.args
    if contender.self_timed:
        return statistics.median(fn(*args)[0] for _ in range(number))
    start = time.perf_counter()
    for _ in range(number):
        fn(*args)
    return (time.perf_counter() - start) / number


def _calls_per_sample(contender: Contender, sample_seconds: float) -> int:
    """Warms ``contender`` up and returns how many calls make one sample of ``sample_seconds``."""
    per_call = _sample(contender, 1)
    if contender.self_timed:
        return 1
    per_call = min(per_call, _sample(contender, 1))
    return max(1, int(sample_seconds / max(per_call, 1e-7)))


def measure(
    contenders: Sequence[Contender],
    repeats: int,
    sample_seconds: float,
    number: int | None = None,
    budget_seconds: float = float("inf"),
) -> dict[str, Timing]:
    """Median seconds per call of each contender, over ``repeats`` interleaved samples.

    Args:
      contenders: the implementations to compare (each already checked for correctness).
      repeats: samples per contender (fewer when a sample round would exceed the budget).
      sample_seconds: the target length of one sample (sets the calls per sample).
      number: calls per sample for every contender, instead of calibrating.
      budget_seconds: rough cap on the time spent sampling all contenders.

    Returns:
      ``{name: Timing}`` in the order of ``contenders``.
    """
    numbers = {c.name: number or _calls_per_sample(c, sample_seconds) for c in contenders}
    samples: dict[str, list[float]] = {c.name: [] for c in contenders}
    started = time.perf_counter()
    gc_was_enabled = gc.isenabled()
    for _ in range(repeats):
        for c in contenders:
            gc.collect()
            gc.disable()  # a collection triggered by one contender's garbage must not hit another
            try:
                samples[c.name].append(_sample(c, numbers[c.name]))
            finally:
                if gc_was_enabled:
                    gc.enable()
        if time.perf_counter() - started > budget_seconds:
            break
    return {
        name: Timing(statistics.median(times), len(times), numbers[name])
        for name, times in samples.items()
    }


def peak_bytes(contender: Contender) -> int:
    """Peak bytes allocated through tracemalloc during one call, above what was live before it.

    NumPy reports every array buffer it allocates to tracemalloc, so for NumPy and tograph this
    is the peak of the call's array temporaries (and its result). Other frameworks allocate
    outside Python's allocator and are not measured this way.
    """
    gc.collect()
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        contender.fn(*contender.args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak - baseline
