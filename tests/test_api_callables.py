"""to_static of callables other than plain functions: objects with ``__call__``, bound methods,
``functools.partial`` (frozen arrays as tensor inputs, other frozen values static), functions
wrapped with ``functools.wraps`` (their own code runs), and callables with no Python code."""

import contextlib
import functools
import io
import warnings

import numpy as np
import pytest

import tograph as tg


class Clipper:
    """A callable object whose result depends on tensor values (a cond) and an attribute."""

    def __init__(self, limit):
        self.limit = limit

    def __call__(self, x):
        if np.max(x) > self.limit:
            return np.minimum(x, self.limit)
        return x * 2.0

    def scaled(self, x, k=3.0):
        return self(x) * k


X = np.array([0.5, 3.0, -1.0])


def eager_and_compiled(fn, *args, **kwargs):
    """(eager result, compiled result, the compiled function) with no fallback allowed."""
    compiled = tg.to_static(fn, fallback="error")
    return fn(*args, **kwargs), compiled(*args, **kwargs), compiled


@pytest.mark.parametrize("x", [X, X / 10])
def test_a_callable_object_compiles_its_bound_call(x):
    clip = Clipper(1.0)
    expected, got, compiled = eager_and_compiled(clip, x)
    np.testing.assert_array_equal(got, expected)
    assert "cond" in compiled.concrete(x).op_counts()


def test_a_bound_method_compiles_with_its_object():
    clip = Clipper(1.0)
    expected, got, compiled = eager_and_compiled(clip.scaled, X, k=0.5)
    np.testing.assert_array_equal(got, expected)
    assert compiled.concrete(X, k=0.5).fallback is None


def weighted(w, x, *, shift=0.0, scale=1.0):
    total = 0.0
    for v in x * w:
        if v > shift:
            total = total + v * scale
    return total


def test_a_partial_passes_frozen_arrays_as_tensors_and_other_values_as_static():
    w = np.array([1.0, 2.0, -1.0])
    part = functools.partial(weighted, w, scale=2.0)
    compiled = tg.to_static(part, fallback="error")
    assert isinstance(compiled, functools.partial)
    assert compiled(X) == part(X) and type(compiled(X)) is type(part(X))
    cf = compiled.concrete(X)
    assert [str(v.type) for v in cf.graph.inputs] == ["f64[3]", "f64[3]"]  # w and x
    assert "2.0" in str(cf.graph)  # the static scale is baked in
    w[:] = [-1.0, 4.0, 0.0]  # eager reads the array's current values: so does the graph
    assert compiled(X, shift=1.0) == part(X, shift=1.0)


def test_a_partial_with_an_input_spec_counts_the_arguments_it_still_takes():
    part = functools.partial(weighted, np.ones(3))
    compiled = tg.to_static(part, input_spec=[tg.TensorSpec([None])], fallback="error")
    assert compiled(X) == part(X)
    assert str(compiled.concrete(X).graph.inputs[1].type) == "f64[None]"


def test_grad_of_a_partial_differentiates_the_arguments_it_still_takes():
    x = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]])
    w = np.array([0.3, -0.7])

    def loss(x, w, scale):
        return np.sum(np.tanh(x @ w) ** 2) * scale

    part = functools.partial(loss, x)
    for grad_fn in (tg.grad(part), tg.grad(tg.to_static(part))):
        got = grad_fn(w, 3.0)
        np.testing.assert_allclose(got, tg.grad(loss, argnums=1)(x, w, 3.0), rtol=1e-12)
        eps = 1e-6
        numeric = [
            (loss(x, w + eps * e, 3.0) - loss(x, w - eps * e, 3.0)) / (2 * eps) for e in np.eye(2)
        ]
        np.testing.assert_allclose(got, numeric, rtol=1e-6)
    value, g = tg.value_and_grad(part, argnums=(0,))(w, scale=1.0)
    assert value == loss(x, w, 1.0) and g[0].shape == (2,)


def doubled(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        print("calling", fn.__name__)
        return 2 * fn(*args, **kwargs)

    return wrapper


@doubled
def shifted(x, by=1.0):
    if np.sum(x) > 0:
        return x + by
    return x - by


def test_a_functools_wraps_wrapper_runs_its_own_code():
    outputs = []
    for fn in (shifted, tg.to_static(shifted, fallback="error")):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            result = fn(X, by=0.5)
        outputs.append((result.tolist(), printed.getvalue()))
    assert outputs[0] == outputs[1] == ([2.0, 7.0, -1.0], "calling shifted\n")


@pytest.mark.parametrize("fn, name", [(np.sin, "<ufunc 'sin'>"), (Clipper, "Clipper")])
def test_a_callable_without_python_code_runs_eagerly_with_the_reason(fn, name):
    compiled = tg.to_static(fn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = compiled(1.0)
    (warning,) = caught
    assert "is not a Python function" in str(warning.message) and name in str(warning.message)
    assert warning.filename == __file__
    expected = fn(1.0)
    assert type(result) is type(expected)
    if fn is np.sin:
        assert result == expected
