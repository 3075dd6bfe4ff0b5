"""W6: the first call (conversion, build, compile and one run) of fresh straight-line functions.

Stage: benchmark definitions. Input: a size. Output: one ``Variant`` per function length (10, 100
and 1000 statements; smoke: 10). The functions come from ``straight_line_source`` of
``benchmarks/bench_conversion.py`` and are imported with its ``load``, each sample from a fresh
module (so no cache of any framework can serve it). A peer runs the same source with the module's
``np`` bound to its own array module (``jax.numpy``, ``torch``, ...), via ``first_call``.
"""

from __future__ import annotations

import functools
import itertools
import time
import types
from collections.abc import Callable
from typing import Any

import numpy as np

import tograph as tg
from tograph.bench import scripts, timing
from tograph.bench.workloads.base import Variant

_fresh_names = itertools.count()
_TO_STATIC = functools.partial(tg.to_static, fallback="error")


def fresh_function(
    statements: int, array_module: types.ModuleType | None = None
) -> Callable[..., Any]:
    """A newly imported ``f(x, y)`` of ``statements`` statements; its ``np`` is ``array_module``."""
    bench = scripts.load("bench_conversion")
    name = f"w6_{statements}_{next(_fresh_names)}_{time.perf_counter_ns()}"
    module = bench.load(bench.straight_line_source(name, statements), name)
    if array_module is not None:
        module.np = array_module
    return getattr(module, name)


def first_call(
    name: str,
    statements: int,
    compile_fn: Callable[[Callable[..., Any]], Callable[..., Any]],
    args: tuple[Any, ...],
    array_module: types.ModuleType | None = None,
    to_numpy: Callable[[Any], Any] = np.asarray,
    finish: Callable[[Any], Any] = lambda out: out,
) -> timing.Contender:
    """A self-timed contender: compile a fresh function with ``compile_fn`` and call it once.

    Args:
      name: the contender's column.
      statements: the function's length.
      compile_fn: the framework's compiler (``tg.to_static``, ``jax.jit``, ...).
      args: the call's arguments, in the framework's array type.
      array_module: what ``np`` means in the function's module (None: NumPy).
      to_numpy: turns the result into a NumPy array for the check.
      finish: waits for the result where the framework computes asynchronously.
    """

    def sample() -> tuple[float, Any]:
        fn = fresh_function(statements, array_module)
        start = time.perf_counter()
        out = finish(compile_fn(fn)(*args))
        return time.perf_counter() - start, out

    return timing.Contender(name, sample, to_numpy=to_numpy, self_timed=True)


def w6_variants(size: str) -> list[Variant]:
    """W6: one variant per length; the reference result is the plain NumPy call's."""
    inputs = (np.ones(4), np.full(4, 0.5))
    variants = []
    for statements in (10, 100, 1000) if size == "full" else (10,):
        variants.append(
            Variant(
                key=f"W6.{statements}",
                workload="W6",
                title=f"first call, {statements} statements",
                inputs=inputs,
                numpy=None,
                tograph=first_call("tograph", statements, _TO_STATIC, inputs),
                rtol=1e-9,
                first_call=True,
                param=statements,
                reference=fresh_function(statements)(*inputs),
            )
        )
    return variants
