"""Conversion time: the first call (convert, build, optimise, compile, run) of fresh functions.

Functions of 10, 100 and 1000 straight-line statements and one with 20 nested if/for blocks are
generated into a temporary module (so each has real source and is converted from scratch). Prints
medians over repeats and the per-statement cost, which must stay flat (linear growth).

    python benchmarks/bench_conversion.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import tograph as tg


def straight_line_source(name: str, n: int) -> str:
    lines = [f"def {name}(x, y):"]
    for i in range(n):
        a = "x" if i == 0 else f"v{i - 1}"
        op = ("+", "*", "-")[i % 3]
        lines.append(
            f"    v{i} = np.tanh({a}) {op} y" if i % 4 == 0 else f"    v{i} = {a} {op} y * 0.5"
        )
    lines.append(f"    return v{n - 1}")
    return "\n".join(lines) + "\n"


def nested_source(name: str, depth: int) -> str:
    lines = [f"def {name}(x, n):", "    s = x"]
    indent = "    "
    for level in range(depth):
        if level % 2 == 0:
            lines.append(f"{indent}if s.sum() > {level}:")
        else:
            lines.append(f"{indent}for i{level} in range(n):")
        indent += "    "
        lines.append(f"{indent}s = s * 0.5 + {level}")
    lines.append("    return s")
    return "\n".join(lines) + "\n"


def load(source: str, tag: str):
    path = Path(tempfile.mkdtemp()) / f"bench_{tag}.py"
    path.write_text("import numpy as np\n\n" + source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_call_seconds(source_fn, args, repeats: int) -> float:
    times = []
    for r in range(repeats):
        name = f"f_{r}_{time.perf_counter_ns()}"
        fn = getattr(load(source_fn(name), name), name)
        with warnings.catch_warnings():
            warnings.simplefilter("error", tg.FallbackWarning)
            start = time.perf_counter()
            tg.to_static(fn)(*args)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    opts = parser.parse_args(argv)
    x, y = np.ones(4), np.full(4, 0.5)
    rows = []
    for n in (10, 100, 1000):
        t = first_call_seconds(
            lambda name, n=n: straight_line_source(name, n), (x, y), opts.repeats
        )
        rows.append({"workload": f"{n} statements", "seconds": t, "per_statement_ms": 1e3 * t / n})
    # One trip per loop: the time measured is conversion, not 3**10 innermost iterations.
    t = first_call_seconds(lambda name: nested_source(name, 20), (x, np.int64(1)), opts.repeats)
    rows.append({"workload": "20 nested if/for", "seconds": t, "per_statement_ms": 1e3 * t / 20})
    print(f"{'workload':<20} {'first call (median)':>20} {'per statement':>15}")
    for row in rows:
        print(
            f"{row['workload']:<20} {row['seconds'] * 1e3:>17.1f} ms "
            f"{row['per_statement_ms']:>12.3f} ms"
        )
    return rows


if __name__ == "__main__":
    sys.exit(main() and 0)
