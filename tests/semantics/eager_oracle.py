"""The oracle of the semantics tests: a function run eagerly and compiled, on copies of the same
arguments, must give the same outcome: values (with dtypes and Python-vs-NumPy kinds), the
exception, and the arguments' state afterwards."""

from __future__ import annotations

import copy
import types
import warnings
from typing import Any

import numpy as np

import tograph as tg


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types, arrays with equal dtypes, shapes and elements."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and bool(np.array_equal(a, b, equal_nan=True))
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, BaseException):
        return True  # same type: messages may name graph equations
    if isinstance(a, float) and a != a:
        return b != b
    if hasattr(a, "__dict__") and not isinstance(a, (type, types.FunctionType, types.MethodType)):
        return same(vars(a), vars(b))
    return bool(a == b)


def outcome(fn: Any, args: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...], list[str]]:
    """(result or exception, the arguments afterwards, fallback warnings) of ``fn(*copies)``."""
    copies = copy.deepcopy(args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*copies)
        except Exception as exc:  # noqa: BLE001 - the outcome to compare
            result = exc
    fallbacks = [str(w.message) for w in caught if issubclass(w.category, tg.FallbackWarning)]
    return result, copies, fallbacks


def assert_matches_eager(fn: Any, *args: Any, compiles: bool = True) -> tg.ConcreteFunction:
    """Asserts ``tg.to_static(fn)`` matches ``fn``; with ``compiles`` also that it made a graph.

    Returns the concrete function (for its graph or fallback reason).
    """
    eager, eager_args, _ = outcome(fn, args)
    static = tg.to_static(fn)
    compiled, compiled_args, fallbacks = outcome(static, args)
    assert type(compiled) is type(eager), f"eager gave {eager!r}, compiled {compiled!r}"
    assert same(eager, compiled), f"eager gave {eager!r}, compiled {compiled!r}"
    assert same(eager_args, compiled_args), (
        f"arguments afterwards: eager {eager_args!r}, compiled {compiled_args!r}"
    )
    cf = static.concrete(*copy.deepcopy(args))
    if compiles:
        assert not fallbacks and cf.fallback is None, f"fell back: {fallbacks or cf.fallback}"
    return cf
