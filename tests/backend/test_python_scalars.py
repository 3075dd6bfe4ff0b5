"""Loop scalars as Python numbers: every result, dtype, scalar kind, warning and error is the
eager function's (and so the plain executor's), including overflow, division by zero, NaN,
int64 wrap-around, 0-d arrays that enter a loop and leave it untouched, and np.errstate."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from loop_programs import assert_same, divide_down, shrink

import tograph as tg
from tograph.backend import codegen, python_scalars, scalar_plan


def grow(x, n):
    i = 0
    while i < n:
        x = x * 1e200
        i = i + 1
    return x


def wrap_int(k, n):
    i = 0
    while i < n:
        k = k * 3 + 1
        i = i + 1
    return k


def int_steps(k, d, n):
    i = 0
    while i < n:
        k = k // d + k % 7 - 2
        i = i + 1
    return k


def clamp_down(x, n):
    i = 0
    while i < n:
        if x > 5.0:
            x = x - 1.0
        i = i + 1
    return x


def flags(x, n):
    seen = x > 0.0
    i = 0
    while i < n:
        seen = seen ^ (x < 3.0)
        x = x + 1.0
        i = i + 1
    return seen, x


def mixed_compare(k, x):
    n = 0
    while k > x:
        k = k - 1
        n = n + 1
    return k, n


def subtract_inf(x, y, n):
    i = 0
    while i < n:
        x = x - y
        i = i + 1
    return x


def outputs(fn, args):
    """The result of ``fn(*args)`` and the warnings it gave, as (category, message) pairs."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as exc:  # noqa: BLE001 - the oracle's exception is part of its result
            result = exc
    return result, [(w.category, str(w.message)) for w in caught]


def assert_matches_eager(fn, *args):
    compiled = tg.to_static(fn, fallback="error")
    graph = compiled.concrete(*args).graph
    assert scalar_plan.plan(graph).scalar_eqns, "nothing was unboxed"
    got, got_warnings = outputs(compiled, args)
    expected, expected_warnings = outputs(fn, args)
    assert_same(got, expected)
    assert got_warnings == expected_warnings


CASES = [
    (shrink, (np.float64(150.0),)),
    (shrink, (np.array(150.0),)),
    (shrink, (np.float64(0.5),)),
    (shrink, (np.float64(np.nan),)),
    (grow, (np.float64(3.0), np.int64(3))),
    (grow, (np.float64(-3.0), np.int64(1))),
    (divide_down, (np.float64(3.0), np.float64(0.0), np.int64(2))),
    (divide_down, (np.float64(0.0), np.float64(0.0), np.int64(1))),
    (divide_down, (np.float64(1e-300), np.float64(1e300), np.int64(3))),
    (divide_down, (np.float64(1e300), np.float64(1e-300), np.int64(2))),
    (wrap_int, (np.int64(5), np.int64(45))),
    (wrap_int, (np.int64(-5), np.int64(3))),
    (int_steps, (np.int64(10**6), np.int64(3), np.int64(6))),
    (int_steps, (np.int64(10), np.int64(0), np.int64(2))),
    (int_steps, (np.int64(-(2**63)), np.int64(-1), np.int64(1))),
    (clamp_down, (np.array(3.0), np.int64(4))),
    (clamp_down, (np.array(9.0), np.int64(2))),
    (clamp_down, (np.float64(7.5), np.int64(5))),
    (flags, (np.float64(1.0), np.int64(4))),
    (flags, (np.float64(-1.0), np.int64(0))),
    (mixed_compare, (np.int64(2**62 + 3), np.float64(2.0**62))),
    (mixed_compare, (np.int64(7), np.float64(3.5))),
    (subtract_inf, (np.float64(np.inf), np.float64(np.inf), np.int64(1))),
    (subtract_inf, (np.float64(1.0), np.float64(-np.inf), np.int64(2))),
]


CASE_IDS = [f"{fn.__name__}{i}" for i, (fn, _) in enumerate(CASES)]


@pytest.mark.parametrize("fn, args", CASES, ids=CASE_IDS)
def test_matches_eager(fn, args):
    assert_matches_eager(fn, *args)


def test_a_zero_d_array_that_never_changes_comes_back_itself():
    x, y = np.array(3.0), np.array(0.5)
    for fn, args in [(clamp_down, (x, np.int64(3))), (shrink, (y,))]:
        graph = tg.to_static(fn).concrete(*args).graph
        # the value is an output beside its kind tag (a 0-d array on one path, a NumPy scalar
        # on the other)
        for compile_graph in (python_scalars.compile_graph, codegen.compile_graph):
            assert any(out is args[0] for out in compile_graph(graph)(*args))


@pytest.mark.parametrize("setting", [{"divide": "raise"}, {"over": "ignore"}, {"under": "raise"}])
def test_errstate_is_numpys(setting):
    compiled = tg.to_static(divide_down, fallback="error")
    n2, n3 = np.int64(2), np.int64(3)
    tiny, huge = np.float64(1e-300), np.float64(1e300)
    for args in [(np.float64(3.0), np.float64(0.0), n2), (tiny, huge, n3)]:
        with np.errstate(**setting):
            got, got_warnings = outputs(compiled, args)
            expected, expected_warnings = outputs(divide_down, args)
        assert_same(got, expected)
        assert got_warnings == expected_warnings


def test_generated_loop_is_python_arithmetic():
    graph = tg.to_static(shrink).concrete(np.float64(2.0)).graph
    source = python_scalars.source_of(graph)
    assert "x_1 = (x_1 * 0.995)" in source  # no guard: 0 < 0.995 <= 1 cannot overflow
    assert "enter_float(x)" in source
    plain = codegen.compile_graph(graph)
    assert python_scalars.compile_graph(graph) is not plain


FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e308, -1e308, 5e-324, 1.0]),
)


@given(FLOATS, FLOATS, st.integers(0, 3))
def test_float_steps_match_eager(x, y, n):
    def steps(x, y, n):
        i = 0
        while i < n:
            x = (x + y) * y - x / y
            i = i + 1
        return x

    assert_matches_eager(steps, np.float64(x), np.float64(y), np.int64(n))
