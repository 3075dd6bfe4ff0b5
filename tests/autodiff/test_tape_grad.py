"""Gradients on the eager tape: the same rules as graphs, dead code dropped, nesting with graphs."""

import warnings

import numpy as np
import pytest

import tograph as tg
from tograph import eager, errors
from tograph import gradients as api
from tograph.autodiff import tape as tape_grad

X = np.array([0.5, -1.0, 2.0])


def test_backward_over_a_tape():
    with eager.Tape() as tape:
        x = tape.watch(X)
        y = np.sum(np.sin(x) * x)
    (g,) = tape_grad.backward(tape, y, [x])
    np.testing.assert_allclose(eager.unwrap(g), np.cos(X) * X + np.sin(X))


def test_only_what_the_gradient_needs_is_computed():
    with eager.Tape() as tape:
        x = tape.watch(X)
        np.exp(np.cos(x) * 3.0)
        y = np.sum(np.tanh(x) * x)
    graph, _ = tape_grad.gradient_graph(tape, y, [x])
    names = set(graph.op_counts())
    # no exp, cos or sin for the unused values, and no tanh: the recorded output is reused
    assert not names & {"exp", "cos", "sin", "tanh"}, graph
    assert tape.records[0].prim.name == "cos"


def test_an_output_not_computed_from_the_inputs_has_zero_gradients():
    with eager.Tape() as tape:
        x = tape.watch(X)
        y = np.float64(3.0)
    (g,) = tape_grad.backward(tape, y, [x])
    np.testing.assert_array_equal(g, np.zeros(3))


def uses_try(x, w):
    try:
        y = np.tanh(x * w)
    except FloatingPointError:  # which np.seterr(all="raise") would make tanh raise
        y = x
    if np.sum(y) > 0:
        y = y * 3.0
    total = 0.0
    for v in y:
        total = total + v * v
    return total


def test_function_that_falls_back_is_differentiated_on_a_tape():
    g = api.value_and_grad(uses_try, argnums=(0, 1))
    with pytest.warns(errors.FallbackWarning, match="try body with multiply"):
        value, (gx, gw) = g(X, X[::-1].copy())
    assert g.concrete(X, X[::-1].copy()).graph is None
    y = np.tanh(X * X[::-1]) * 3.0
    assert value == pytest.approx(np.sum(y * y))
    np.testing.assert_allclose(gx, 2 * y * 3.0 * (1 - (y / 3.0) ** 2) * X[::-1])
    assert isinstance(gx, np.ndarray) and isinstance(gw, np.ndarray)


def test_second_derivative_of_an_eager_function():
    def cube(x):
        try:
            return x * x * x
        except ValueError:
            return x

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", errors.FallbackWarning)
        assert api.grad(api.grad(cube))(1.5) == pytest.approx(9.0)


def test_eager_code_calling_a_compiled_gradient_is_differentiated_through_it():
    inner = api.grad(lambda x: np.sum(np.sin(x) * x))

    def outer(x):
        try:
            g = inner(x)
        except ValueError:
            g = x
        return np.sum(g * g)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", errors.FallbackWarning)
        got = api.grad(outer)(X)
    d1 = np.cos(X) * X + np.sin(X)
    d2 = -np.sin(X) * X + 2 * np.cos(X)
    np.testing.assert_allclose(got, 2 * d1 * d2)


def test_compiled_code_calling_a_gradient_inlines_its_graph():
    inner = api.grad(lambda x: np.sum(np.sin(x) * x))

    @tg.to_static(fallback="error")
    def outer(x):
        return np.sum(inner(x) ** 2)

    graph = outer.concrete(X).graph
    assert "cos" in set(graph.op_counts())
    got = api.grad(outer)(X)
    d1 = np.cos(X) * X + np.sin(X)
    np.testing.assert_allclose(got, 2 * d1 * (-np.sin(X) * X + 2 * np.cos(X)))


def test_tensor_lists_on_a_tape_are_rejected():
    from tograph.ops import lists

    with eager.Tape() as tape:
        x = tape.watch(X)
        lst = lists.push(lists.new(), x * 2.0)
        y = np.sum(lists.stack(lst))
    with pytest.raises(errors.UnsupportedError, match="tensor lists"):
        tape_grad.backward(tape, y, [x])
