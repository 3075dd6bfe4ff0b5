"""Fusion, buffer reuse, parallel tasks and the optimisation passes change nothing a caller sees.

Each program runs eagerly, compiled plainly (folding, CSE and DCE only: the tracer leaves dead
probes behind; no planning) and compiled with every
optimisation at thresholds small enough for these arrays (chunks of 4 elements, so most regions
end in a partial chunk). The three must agree on values bit for bit (NaN, inf, -0.0), dtypes,
Python-vs-NumPy kinds, the arguments afterwards, which results share memory with which
arguments, the warnings in order, and the error under ``np.errstate(all="raise")``. Arguments
include strided, transposed, overlapping and identical arrays, 0-d and empty ones.
"""

import contextlib
import functools
import math
import warnings

import numpy as np
import pytest

import tograph as tg
from tograph.backend import fusion, loop_broadcasts, memory, parallel
from tograph.passes import cse, dce, fold, manager

SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 0.0, 5e-324, 2.5, -3.0, 1e300, 0.5, -0.5, 7.0]


@contextlib.contextmanager
def configured(monkeypatch, optimised):
    """Every optimisation applying to tiny arrays, or none (and only the basic passes) at all."""
    with monkeypatch.context() as m:
        if optimised:
            m.setattr(fusion, "MIN_ELEMENTS", 6)
            m.setattr(fusion, "CHUNK_ELEMENTS", 4)
            m.setattr(memory, "MIN_BYTES", 8)
            m.setattr(memory, "LOOP_MIN_BYTES", 8)
            m.setattr(parallel, "MIN_TASK_NS", 1.0)
        else:
            m.setattr(fusion, "MIN_ELEMENTS", 1 << 62)
            m.setattr(memory, "MIN_BYTES", 1 << 62)
            m.setattr(memory, "LOOP_MIN_BYTES", 1 << 62)
            m.setattr(loop_broadcasts, "MAX_BYTES", -1)
            m.setattr(parallel, "MIN_TASK_NS", math.inf)
            basic = (
                fold.fold_constants,
                cse.eliminate_common_subexpressions,
                dce.eliminate_dead_code,
            )
            m.setattr(manager, "run_passes", functools.partial(manager.run_passes, passes=basic))
        yield


def arguments(kind, dtype):
    """A fresh pair of arrays of ``kind`` (special values included for floats)."""
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(6, 8)) * 3, rng.normal(size=(6, 8))
    a.flat[: len(SPECIAL)] = SPECIAL
    b.flat[5 : 5 + len(SPECIAL)] = SPECIAL[::-1]
    with np.errstate(all="ignore"):
        a, b = a.astype(dtype), b.astype(dtype)
    if kind == "strided":
        return a[:, ::2], b[:, 1::2]
    if kind == "transposed":
        return a.T, b.T
    if kind == "same":
        return a, a
    if kind == "overlapping":
        return a.ravel()[:-1], a.ravel()[1:]
    if kind == "0-d":
        return np.array(a[0, 6]), np.array(b[0, 1])
    if kind == "empty":
        return a[:0], b[:0]
    if kind == "row":
        return a, b[0]
    return a, b


def key(value):
    """What must be equal: the type, dtype, shape and bytes of arrays and NumPy scalars."""
    if isinstance(value, (tuple, list)):
        return [key(v) for v in value]
    if isinstance(value, (np.ndarray, np.generic)):
        return (type(value), value.dtype, value.shape, value.tobytes())
    if isinstance(value, BaseException):
        cause = value.__cause__ or value  # a GraphRuntimeError names the equation
        return (type(cause), str(cause))
    if isinstance(value, float):
        return (float, np.float64(value).tobytes())
    return (type(value), value)


def sharing(result, args):
    """Which results share memory with which arguments (and are those arguments)."""
    results = result if isinstance(result, tuple) else (result,)
    return [
        (i, j, np.shares_memory(r, a), r is a)
        for i, r in enumerate(results)
        for j, a in enumerate(args)
        if isinstance(r, np.ndarray)
    ]


def outcome(fn, make, errors):
    args = make()
    with warnings.catch_warnings(record=True) as caught, np.errstate(all=errors):
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as exc:  # noqa: BLE001 - the outcome to compare
            result = exc
    assert not [w for w in caught if w.category is tg.FallbackWarning]
    alias = None if isinstance(result, Exception) else sharing(result, args)
    return key(result), key(list(args)), alias, [str(w.message) for w in caught]


def assert_exact(monkeypatch, fn, make):
    for errors in ("warn", "raise"):
        eager = outcome(fn, make, errors)
        for optimised in (False, True):
            with configured(monkeypatch, optimised):
                static = tg.to_static(fn)
                assert outcome(static, make, errors) == eager, (optimised, errors)
                assert static.concrete(*make()).fallback is None


def chain(a, b):
    return np.tanh(a * b + 1.0) * 0.5 + a * np.exp(-(b * b))


def quotients(a, b):
    t = a / b
    return np.sqrt(np.abs(t)) - np.log(np.abs(b) + 1.0) + t * t


def relu_gradient(a, b):
    return np.where(a > 0, b, 0) + np.where(b >= 0, 0.0, a)


def casts(a, b):
    t = (a * 2).astype(np.float32) + b.astype(np.float32)
    return np.clip(t, -1, 1) * np.round(t, 1), np.floor(a * 3.5) - np.trunc(b / 2)


def identities(a, b):
    y = -(a * 1 - 0.0)
    x = -y
    return x.astype(x.dtype) + b, x / 1, np.transpose(np.transpose(x))


def in_place(a, b):
    a += b * 2
    a *= 3
    return a + 1


def through_a_view(a, b):
    v = a[1:]
    v *= 2
    return np.exp(v) + b[-1]


def results_and_views(a, b):
    t = a * 2
    return t[1:], np.sin(np.exp(t) + b), a, t + b


def two_chains(a, b):
    x = np.exp(np.tanh(a * b) * b)
    y = np.log(np.tanh(b - a) + 10.0)
    return x + y, np.sum(x)


def two_products(a, b):
    x = np.tanh(a @ b.T)
    y = np.exp(b @ a.T * 0.5)
    return x + y, np.sum(x)


def zero_trip_loop(a, b):
    i = 0
    acc = a * 1.5
    while i < np.sum(b > 1e300):  # never runs: invariants moved out must not warn
        acc = acc + np.where((b < 1e300) & (a > 0), a, b) + (b < 1e300)
        i += 1
    return acc


def carried_chain(a, b):
    for _ in range(int(np.sum(b > 0)) % 3 + 2):  # a loop over tensors, run in chunks each trip
        a = np.tanh(a * 2.0 + b) - a * 0.5
    return a, np.exp(a) * b


def bias_in_a_loop(a, b):
    w = b.T @ b * 0.1
    row, h = b[:1], a
    for _ in range(int(np.sum(b > 0)) % 3 + 2):  # ``+ row`` reads a copy to full shape
        h = np.tanh(h @ w + row) - row * h
    return h


def common_in_branches(a, b):
    if np.sum(np.abs(b)) > 10.0:
        r = np.where(a > b, a, b) * 2
    else:
        r = np.where(a > b, a, b) - 1
    return r


FLOAT_PROGRAMS = [chain, quotients, relu_gradient, casts, identities, two_chains]
SHAPES = ["contiguous", "strided", "transposed", "same", "overlapping", "0-d", "empty", "row"]


@pytest.mark.parametrize("kind", SHAPES)
@pytest.mark.parametrize("fn", FLOAT_PROGRAMS, ids=lambda f: f.__name__)
def test_elementwise_programs_on_float64(monkeypatch, fn, kind):
    assert_exact(monkeypatch, fn, lambda: arguments(kind, np.float64))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
@pytest.mark.parametrize("fn", FLOAT_PROGRAMS, ids=lambda f: f.__name__)
def test_elementwise_programs_on_other_dtypes(monkeypatch, fn, dtype):
    assert_exact(monkeypatch, fn, lambda: arguments("contiguous", dtype))


@pytest.mark.parametrize("kind", ["contiguous", "strided", "same", "overlapping", "row"])
@pytest.mark.parametrize(
    "fn", [in_place, through_a_view, results_and_views], ids=lambda f: f.__name__
)
def test_writes_into_arguments_and_aliasing(monkeypatch, fn, kind):
    assert_exact(monkeypatch, fn, lambda: arguments(kind, np.float64))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
@pytest.mark.parametrize("kind", ["contiguous", "strided", "transposed", "same", "row", "empty"])
def test_independent_products_run_as_parallel_tasks(monkeypatch, kind, dtype):
    assert_exact(monkeypatch, two_products, lambda: arguments(kind, dtype))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "fn", [zero_trip_loop, carried_chain, common_in_branches], ids=lambda f: f.__name__
)
def test_code_moved_out_of_loops_and_branches(monkeypatch, fn, dtype):
    assert_exact(monkeypatch, fn, lambda: arguments("contiguous", dtype))


@pytest.mark.parametrize("kind", ["overlapping", "same", "strided", "0-d"])
def test_loop_bodies_fused_and_reusing_buffers(monkeypatch, kind):
    """One-dimensional carries are contiguous, so the body's chain runs in chunks each trip."""
    assert_exact(monkeypatch, carried_chain, lambda: arguments(kind, np.float64))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("kind", ["contiguous", "strided", "transposed", "same", "empty"])
def test_loop_invariant_broadcasts_copied_before_the_loop(monkeypatch, kind, dtype):
    assert_exact(monkeypatch, bias_in_a_loop, lambda: arguments(kind, dtype))
