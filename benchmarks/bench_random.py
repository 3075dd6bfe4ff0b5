"""Random draws benchmark: compiled functions that draw against the same functions run eagerly.

Run as ``python benchmarks/bench_random.py [--repeats N]``. Each case times both sides in this one
process, a call of each in turn (so a busy machine slows both alike), and shows the median time
per call and the ratio compiled / eager:

* ``monte-carlo``: 2000 trips of a loop over a tensor range, one ``rng.normal(size=3)`` per trip
  (the per-draw cost of a ``random`` equation inside a ``while_loop``);
* ``dropout 1e6``: ``rng.random(x.shape) > 0.3`` masking a million-element array (the draw
  itself dominates);
* ``dropout 100``: the same on 100 elements (the per-call overhead of a compiled function).

Both sides draw from generators seeded alike; the results are checked equal before timing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import tograph as tg


def noisy_mean(x: Any, rng: Any, n: Any) -> Any:
    total = 0.0
    for _ in range(n):
        total += np.mean(x + rng.normal(scale=0.1, size=x.shape))
    return total / n


def dropout(x: Any, rng: Any) -> Any:
    keep = rng.random(x.shape) > 0.3
    return np.where(keep, x / 0.7, 0.0)


def _median_pair(
    fn: Callable[..., Any], make_args: Callable[[Any], tuple[Any, ...]], repeats: int
) -> tuple[float, float]:
    """Median seconds per call, eager and compiled, each side on its own generator seeded 0."""
    static = tg.to_static(fn, fallback="error")
    eager_args = make_args(np.random.default_rng(0))
    compiled_args = make_args(np.random.default_rng(0))
    if not np.array_equal(fn(*eager_args), static(*compiled_args)):
        raise AssertionError(f"{fn.__name__}: compiled and eager results differ")
    eager, compiled = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*eager_args)
        eager.append(time.perf_counter() - start)
        start = time.perf_counter()
        static(*compiled_args)
        compiled.append(time.perf_counter() - start)
    return statistics.median(eager), statistics.median(compiled)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=25)
    repeats = parser.parse_args().repeats
    big, small = np.ones(1_000_000), np.ones(100)
    cases: list[tuple[str, Callable[..., Any], Callable[[Any], tuple[Any, ...]]]] = [
        ("monte-carlo", noisy_mean, lambda rng: (np.ones(3), rng, np.int64(2000))),
        ("dropout 1e6", dropout, lambda rng: (big, rng)),
        ("dropout 100", dropout, lambda rng: (small, rng)),
    ]
    print(f"{'case':<12} {'eager ms':>10} {'compiled ms':>12} {'ratio':>6}")
    for name, fn, make_args in cases:
        eager, compiled = _median_pair(fn, make_args, repeats)
        print(f"{name:<12} {eager * 1e3:>10.3f} {compiled * 1e3:>12.3f} {compiled / eager:>6.2f}")


if __name__ == "__main__":
    main()
