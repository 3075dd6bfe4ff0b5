"""Call overhead benchmark: compiled functions taking objects, lists and dicts against eager ones.

Run as ``python benchmarks/bench_call_objects.py [--repeats N] [--number N]``. Each case times
both sides in this one process, a batch of calls of each in turn (so a busy machine slows both
alike), and shows the median time per call in microseconds and the ratio compiled / eager. The
arrays are tiny, so the figures are the cost of the call path itself:

* ``object``: ``step(o, g)``, an optimizer step that reads and sets attributes of ``o`` (an
  array, a static learning rate, a step counter);
* ``method``: the same step as a method ``o.step(g)`` of a class, ``to_static`` on the method;
* ``list``: ``f(xs)`` on a list of three arrays;
* ``list set``: ``f(xs)`` setting an item of the list (written back into the caller's list);
* ``dict``: ``f(d)`` on a dict of three arrays.

Each side runs on its own copies of the arguments; the results and the objects' attributes are
checked equal before timing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import tograph as tg


class Opt:
    def __init__(self) -> None:
        self.lr = 0.1
        self.m = np.zeros(3)
        self.t = 0


def step(o: Any, g: Any) -> Any:
    o.m = 0.9 * o.m + 0.1 * g
    o.t += 1
    return o.m * o.lr


class MethodOpt(Opt):
    def step(self, g: Any) -> Any:
        self.m = 0.9 * self.m + 0.1 * g
        self.t += 1
        return self.m * self.lr


class CompiledOpt(Opt):
    step = tg.to_static(MethodOpt.step, fallback="error")


def list_sum(xs: Any) -> Any:
    return xs[0] * xs[1] + xs[2]


def list_set(xs: Any) -> Any:
    xs[1] = xs[0] * 2.0
    return xs[1] + xs[2]


def dict_sum(d: Any) -> Any:
    return d["a"] * d["b"] + d["c"]


def _per_call(call: Callable[[], Any], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        call()
    return (time.perf_counter() - start) / number


def _median_pair(
    eager: Callable[[], Any], compiled: Callable[[], Any], repeats: int, number: int
) -> tuple[float, float]:
    """Median seconds per call of each side, batches of ``number`` calls taken in turn."""
    eager_times, compiled_times = [], []
    for _ in range(repeats):
        eager_times.append(_per_call(eager, number))
        compiled_times.append(_per_call(compiled, number))
    return statistics.median(eager_times), statistics.median(compiled_times)


def _check(name: str, eager: Any, compiled: Any) -> None:
    if not np.array_equal(eager, compiled):
        raise AssertionError(f"{name}: compiled and eager results differ")


def _cases() -> list[tuple[str, Callable[[], Any], Callable[[], Any]]]:
    g = np.ones(3)
    compiled_step = tg.to_static(step, fallback="error")
    eager_opt, compiled_opt = Opt(), Opt()
    eager_method, compiled_method = MethodOpt(), CompiledOpt()
    xs = [np.ones(3), np.full(3, 2.0), np.arange(3.0)]
    d = {"a": xs[0], "b": xs[1], "c": xs[2]}
    compiled_list = tg.to_static(list_sum, fallback="error")
    compiled_dict = tg.to_static(dict_sum, fallback="error")
    compiled_set = tg.to_static(list_set, fallback="error")
    eager_xs, compiled_xs = list(xs), list(xs)
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("object", lambda: step(eager_opt, g), lambda: compiled_step(compiled_opt, g)),
        ("method", lambda: eager_method.step(g), lambda: compiled_method.step(g)),
        ("list", lambda: list_sum(xs), lambda: compiled_list(xs)),
        ("list set", lambda: list_set(eager_xs), lambda: compiled_set(compiled_xs)),
        ("dict", lambda: dict_sum(d), lambda: compiled_dict(d)),
    ]
    for name, eager, compiled in cases:
        _check(name, eager(), compiled())
    _check("list set", eager_xs[1], compiled_xs[1])
    for a, b in ((eager_opt, compiled_opt), (eager_method, compiled_method)):
        _check("attributes", a.m, b.m)
        if (a.t, a.lr) != (b.t, b.lr) or type(a.t) is not type(b.t):
            raise AssertionError("compiled and eager attributes differ")
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--number", type=int, default=1000)
    options = parser.parse_args()
    print(f"{'case':<9} {'eager us':>10} {'compiled us':>12} {'ratio':>7}")
    for name, eager, compiled in _cases():
        e, c = _median_pair(eager, compiled, options.repeats, options.number)
        print(f"{name:<9} {e * 1e6:>10.2f} {c * 1e6:>12.2f} {c / e:>7.1f}")


if __name__ == "__main__":
    main()
