"""Executor benchmark: generated code against the same computation hand-written with NumPy.

Run as ``python benchmarks/bench_executor.py [--repeats N]``. Two cases, both sides timed in this
one process: ``repeats`` short samples of each side, taken in turn (so a busy machine slows both
alike), and the median time per call of each side:

* ``straight-line``: 1000 equations of small-array ops (``(8,)`` float64 multiply, add, tanh),
  the graph traced from the very function it is compared with;
* ``while-loop``: ``while i < n: x = x * 0.999 + 1.0; i = i + 1`` for 10,000 iterations on
  scalars, as a ``while_loop`` equation against the same loop hand-written on NumPy scalars.

The table shows the medians and the ratio tograph / hand-written (target: at most 1.1).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import tograph  # noqa: F401  (registers the primitives)
from tograph.backend import codegen
from tograph.ir import check, core, types
from tograph.ops import control
from tograph.trace import builder

STEPS = 250  # four equations each: 1000 in all
ITERATIONS = 10_000


def straight_line(x: Any, w: Any) -> Any:
    """Hand-written NumPy: the computation the straight-line graph is traced from."""
    for _ in range(STEPS):
        x = np.tanh(x * w + 0.5) * 0.9
    return x


def scalar_loop(x: Any, n: Any) -> Any:
    """Hand-written NumPy scalar loop."""
    i = 0
    while i < n:
        x = x * 0.999 + 1.0
        i = i + 1
    return x


def _trace(name: str, fn: Callable[..., Any], in_types: list[types.TensorType]) -> core.Graph:
    graph_builder = builder.GraphBuilder(name)
    with graph_builder.active():
        args = [graph_builder.add_input(t, hint=f"a{k}") for k, t in enumerate(in_types)]
        out = fn(*args)
    graph = graph_builder.finish([out])
    check.check_graph(graph)
    return graph


def _traced_loop(x: Any, n: Any) -> Any:
    """``scalar_loop`` as the compiler lowers it: a ``while_loop`` over ``i`` and ``x``."""
    _, x = control.while_loop(
        lambda i, x: i < n, lambda i, x: (i + 1, x * 0.999 + 1.0), (0, x), ("i", "x")
    )
    return x


def _seconds_per_call(fn: Callable[..., Any], args: tuple[Any, ...], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fn(*args)
    return (time.perf_counter() - start) / number


def _case(
    name: str,
    graph: core.Graph,
    hand: Callable[..., Any],
    args: tuple[Any, ...],
    number: int,
    repeats: int,
) -> tuple[str, int, float, float]:
    compiled = codegen.compile_graph(graph)
    np.testing.assert_allclose(compiled(*args)[0], hand(*args))
    ours, theirs = [], []
    for _ in range(repeats):  # short interleaved samples: a busy machine slows both sides alike
        ours.append(_seconds_per_call(compiled, args, number))
        theirs.append(_seconds_per_call(hand, args, number))
    return name, len(list(graph.walk())), statistics.median(ours), statistics.median(theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=101)
    repeats = parser.parse_args().repeats
    vec = types.TensorType(np.float64, (8,))
    scalar_f, scalar_i = types.TensorType(np.float64, ()), types.TensorType(np.int64, ())
    rng = np.random.default_rng(0)
    rows = [
        _case(
            "straight-line",
            _trace("straight_line", straight_line, [vec, vec]),
            straight_line,
            (rng.standard_normal(8), rng.standard_normal(8)),
            5,
            repeats,
        ),
        _case(
            "while-loop",
            _trace("scalar_loop", _traced_loop, [scalar_f, scalar_i]),
            scalar_loop,
            (np.float64(1.0), np.int64(ITERATIONS)),
            1,
            repeats,
        ),
    ]
    print(f"{'case':<15}{'eqns':>6}{'tograph ms':>13}{'numpy ms':>11}{'ratio':>8}")
    for name, eqns, ours, theirs in rows:
        print(f"{name:<15}{eqns:>6}{ours * 1e3:>13.3f}{theirs * 1e3:>11.3f}{ours / theirs:>8.3f}")
    print(f"(median of {repeats} repeats)")


if __name__ == "__main__":
    main()
