"""Compiling a NumPy call inside tensor control flow, for the op tests.

``assert_compiles_in_loop(fn, *args)`` puts ``fn(*args)`` in the body of a ``while`` loop whose
trip count is a tensor, compiles that with ``to_static(fallback="error")`` (so nothing falls back
to eager), checks the graph (a ``while_loop`` is in it) and compares the result with ``fn`` run
by NumPy: the same types (dtype, shape, Python or NumPy scalar) and values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from op_harness import assert_same_value

import tograph as tg
from tograph.ir import check


def in_tensor_loop(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A function of ``(n, *xs)`` that computes ``fn(*xs)`` again on each of ``n`` trips."""

    def program(n, *xs):
        out = fn(*xs)
        i = 0
        while i < n:
            out = fn(*xs)
            i += 1
        return out

    return program


def _leaves(tree: Any) -> list[Any]:
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in _leaves(item)]
    return [tree]


def assert_compiles_in_loop(fn: Callable[..., Any], *args: Any, trips: int = 2) -> Any:
    """``fn(*args)`` inside a tensor ``while`` loop compiles fully and matches NumPy; returns
    the compiled function's concrete form."""
    static = tg.to_static(in_tensor_loop(fn), fallback="error")
    n = np.int64(trips)
    got = static(n, *args)
    cf = static.concrete(n, *args)
    assert cf.fallback is None
    check.check_graph(cf.graph)
    assert "while_loop" in str(cf.graph)
    expected = fn(*args)
    got_leaves, expected_leaves = _leaves(got), _leaves(expected)
    assert len(got_leaves) == len(expected_leaves)
    for g, e in zip(got_leaves, expected_leaves):
        assert_same_value(g, e)
    return cf
