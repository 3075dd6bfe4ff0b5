"""Conversion cost of nested tensor loops: body traces and first-call time per nesting depth.

Each family nests 1 to 4 loops over tensors (their trip counts are known only when the graph
runs), so every loop becomes a ``while_loop`` whose body is traced while the graph is built. The
count of body and branch traces shows whether an inner loop is traced again for every trace of
the loop around it (growth by a factor per level) or about once per level (linear growth).

    python benchmarks/bench_nested_loops.py [--repeats 5] [--depths 1,2,3,4]
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np

import tograph as tg
from bench_conversion import load  # a fresh module per function, as W6 makes them
from tograph.staging import control_flow


def while_source(name: str, depth: int) -> str:
    """Counters compared with a 0-d array: ``while i0 < n: ... while i1 < n: s = ...``."""
    lines = [f"def {name}(x, n):", "    s = x"]
    indent = "    "
    for level in range(depth):
        lines += [f"{indent}i{level} = 0", f"{indent}while i{level} < n:"]
        indent += "    "
    lines.append(f"{indent}s = s * 0.5 + 1.0")
    for level in reversed(range(depth)):
        lines.append(f"{indent}i{level} += 1")
        indent = indent[:-4]
    lines.append("    return s")
    return "\n".join(lines) + "\n"


def for_source(name: str, depth: int) -> str:
    """Loops over the rows of an array, a Python float total summed at the innermost level."""
    lines = [f"def {name}(x, n):", "    s = x[0] * 0.0", "    total = 0.0"]
    indent = "    "
    for level in range(depth):
        lines.append(f"{indent}for r{level} in x:")
        indent += "    "
    product = " * ".join(f"r{level}" for level in range(depth))
    lines += [f"{indent}s = s + {product}", f"{indent}total += s.sum()"]
    lines.append("    return s, total")
    return "\n".join(lines) + "\n"


def if_source(name: str, depth: int) -> str:
    """A tensor ``if`` in every loop body, and an array written in place at the innermost level."""
    lines = [f"def {name}(x, n):", "    s = x.copy()", "    acc = np.zeros(2)"]
    indent = "    "
    for level in range(depth):
        lines += [f"{indent}i{level} = 0", f"{indent}while i{level} < n:"]
        indent += "    "
        lines += [
            f"{indent}if s.sum() > {level}:",
            f"{indent}    s = s - 0.25",
            f"{indent}else:",
            f"{indent}    s = s + 0.5",
        ]
    lines.append(f"{indent}acc[0] += s.max()")
    for level in reversed(range(depth)):
        lines.append(f"{indent}i{level} += 1")
        indent = indent[:-4]
    lines.append("    return s, acc")
    return "\n".join(lines) + "\n"


FAMILIES: dict[str, Callable[[str, int], str]] = {
    "while": while_source,
    "for": for_source,
    "if in loop": if_source,
}


class TraceCounter:
    """Counts ``staging.control_flow._trace`` calls (branch, body and loop-test traces)."""

    def __init__(self) -> None:
        self.counts: collections.Counter[str] = collections.Counter()
        self._original = control_flow._trace

    def __enter__(self) -> TraceCounter:
        def counting(parent, label, *args, **kwargs):
            self.counts[label] += 1
            return self._original(parent, label, *args, **kwargs)

        control_flow._trace = counting
        return self

    def __exit__(self, *exc: object) -> None:
        control_flow._trace = self._original


def first_call(
    family: str, depth: int, repeats: int
) -> tuple[float, float, collections.Counter[str]]:
    """The median first-call seconds of fresh functions, wall and CPU (steadier on a shared
    machine), and the traces of one of them."""
    x, n = np.arange(6.0).reshape(3, 2) / 10, np.array(2)
    times, cpu, counts = [], [], collections.Counter()
    for r in range(repeats):
        name = f"f_{r}_{time.perf_counter_ns()}"
        fn = getattr(load(FAMILIES[family](name, depth), name), name)
        expected = fn(x.copy(), n)
        with warnings.catch_warnings(), TraceCounter() as counter:
            warnings.simplefilter("error", tg.FallbackWarning)
            start, start_cpu = time.perf_counter(), time.process_time()
            got = tg.to_static(fn)(x.copy(), n)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        np.testing.assert_equal(got, expected)
        counts = counter.counts
    return statistics.median(times), statistics.median(cpu), counts


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--depths", default="1,2,3,4")
    opts = parser.parse_args(argv)
    depths = [int(d) for d in opts.depths.split(",")]
    rows = []
    print(
        f"{'family':<12} {'depth':>5} {'first call (median)':>20} {'CPU (median)':>13} "
        f"{'body':>6} {'test':>6} {'branch':>7}"
    )
    for family in FAMILIES:
        for depth in depths:
            seconds, cpu, counts = first_call(family, depth, opts.repeats)
            branches = counts["then"] + counts["else"]
            rows.append(
                {"family": family, "depth": depth, "seconds": seconds, "cpu": cpu, **counts}
            )
            print(
                f"{family:<12} {depth:>5} {seconds * 1e3:>17.1f} ms {cpu * 1e3:>10.1f} ms "
                f"{counts['body']:>6} {counts['cond']:>6} {branches:>7}"
            )
    return rows


if __name__ == "__main__":
    sys.exit(main() and 0)
