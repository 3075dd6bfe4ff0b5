"""The public API: grad / value_and_grad signatures, results, dtypes, caching, errors, nesting."""

import numpy as np
import pytest

import tograph as tg
from tograph import errors
from tograph import gradients as api
from tograph.ir import check

A = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
B = np.array([0.3, -0.2, 0.9])


def loss(a, b, scale=2.0):
    return np.sum(np.tanh(a * b)) * scale


def expected_grads(a, b, scale=2.0):
    d = (1 - np.tanh(a * b) ** 2) * scale
    return d * b, np.sum(d * a, axis=0)


def test_argnums_int_and_tuple():
    ga, gb = expected_grads(A, B)
    np.testing.assert_allclose(api.grad(loss)(A, B), ga)
    np.testing.assert_allclose(api.grad(loss, argnums=1)(A, B), gb)
    got = api.grad(loss, argnums=(1, 0))(A, B)
    assert isinstance(got, tuple) and len(got) == 2
    np.testing.assert_allclose(got[0], gb)
    np.testing.assert_allclose(got[1], ga)


def test_value_and_grad():
    value, (ga, gb) = api.value_and_grad(loss, argnums=(0, 1))(A, B, scale=3.0)
    assert value == pytest.approx(loss(A, B, 3.0))
    np.testing.assert_allclose(ga, expected_grads(A, B, 3.0)[0])
    np.testing.assert_allclose(gb, expected_grads(A, B, 3.0)[1])


def test_gradients_have_the_dtype_and_shape_of_their_arguments():
    a32, b32 = A.astype(np.float32), B.astype(np.float32)
    value, (ga, gb) = api.value_and_grad(loss, argnums=(0, 1))(a32, b32)
    assert ga.dtype == np.float32 and gb.dtype == np.float32
    assert ga.shape == A.shape and gb.shape == B.shape
    assert np.asarray(value).dtype == np.float32
    np.testing.assert_allclose(ga, expected_grads(A, B)[0], rtol=1e-5)


def test_python_float_arguments():
    g = api.grad(lambda x, y: x * x * y, argnums=(0, 1))(3.0, 2.0)
    assert g == pytest.approx((12.0, 9.0))
    assert np.asarray(g[0]).dtype == np.float64


def test_structured_arguments_get_structured_gradients():
    def f(params, x):
        return np.sum(params["w"] * x) + params["b"][0] * params["b"][1]

    params = {"w": B, "b": (np.float64(2.0), np.float64(5.0))}
    got = api.grad(f)(params, B)
    np.testing.assert_allclose(got["w"], B)
    assert got["b"] == pytest.approx((5.0, 2.0))


def test_integer_argument_is_an_error_naming_it():
    with pytest.raises(errors.DTypeError, match="argument 'b'.*i64"):
        api.grad(loss, argnums=1)(A, np.arange(3))
    with pytest.raises(errors.DTypeError, match="argument 'n', which is int 3"):
        api.grad(lambda x, n: x * n, argnums=1)(2.0, 3)


def test_function_must_return_a_float_scalar():
    with pytest.raises(errors.ShapeError, match="must return a scalar.*f64\\[2,3\\]"):
        api.grad(lambda a: a * 2.0)(A)
    with pytest.raises(errors.ShapeError, match="one scalar"):
        api.grad(lambda a: (np.sum(a), a))(A)
    with pytest.raises(errors.DTypeError, match="float scalar"):
        api.grad(lambda a: np.argmax(a))(A)


def test_non_differentiable_paths_give_zero_gradients():
    def f(x):
        return np.argmax(x).astype(np.float64) + np.sum((x > 0) * 1.0) + 3.0

    np.testing.assert_array_equal(api.grad(f)(B), np.zeros(3))
    np.testing.assert_array_equal(api.grad(lambda x: 3.0)(B), np.zeros(3))


def test_gradient_functions_cache_per_signature():
    g = api.grad(loss)
    first = g.concrete(A, B)
    assert g.concrete(A * 2, B) is first
    assert g.concrete(A[:1], B) is not first
    assert g.concrete(A.astype(np.float32), B.astype(np.float32)) is not first


def test_repeated_calls_on_arrays_take_the_fast_path_with_the_same_results():
    g = api.value_and_grad(lambda a, b: loss(a, b), argnums=(0, 1))
    first = g(A, B)
    assert len(g._flat) == 1
    for _ in range(2):
        value, grads = g(A, B)
        assert value == first[0] and type(value) is type(first[0])
        for got, expected in zip(grads, first[1]):
            np.testing.assert_array_equal(got, expected)
    assert g(A.astype(np.float32), B.astype(np.float32))[1][0].dtype == np.float32
    for _ in range(2):  # an error is never cached
        with pytest.raises(errors.DTypeError, match="argument 'b'"):
            g(A, np.arange(3))


def test_concrete_shows_a_checked_printable_gradient_graph():
    cf = api.value_and_grad(loss, argnums=(0, 1)).concrete(A, B)
    check.check_graph(cf.graph)
    text = str(cf.graph)
    assert text.startswith("graph value_and_grad_loss(a:f64[2,3], b:f64[3])")
    assert "tanh" in text and text.count("tanh") == 1  # the forward value is reused


def test_grad_of_a_to_static_function_reuses_its_graph_and_input_spec():
    static = tg.to_static(loss, input_spec=[tg.TensorSpec((None, 3)), None])
    g = api.grad(static)
    graph = g.concrete(A, B).graph
    assert graph.inputs[0].type.shape == (None, 3)
    np.testing.assert_allclose(g(A[:1], B), expected_grads(A[:1], B)[0])
    assert g.concrete(A[:1], B) is g.concrete(A, B)


def piecewise(x):
    if x > 0:
        y = x * x * x
    else:
        y = np.sin(x)
    return y * 2.0


@pytest.mark.parametrize("x", [1.5, -0.5])
def test_second_derivatives(x):
    second = api.grad(api.grad(piecewise))(x)
    assert second == pytest.approx(12 * x if x > 0 else -2 * np.sin(x))
    third = api.grad(api.grad(api.grad(lambda t: np.exp(2.0 * t) * t)))(x)
    assert third == pytest.approx(np.exp(2 * x) * (8 * x + 12))


def test_second_derivative_through_broadcasting_and_indexing():
    def f(x, y):
        return np.sum(np.sin(x[:, None] * y) * x[[0, 1, 1]][:, None])

    def grad_norm(x, y):
        return np.sum(api.grad(f)(x, y) ** 2)

    x, y = np.array([0.3, -0.7, 1.1]), np.array([0.4, 0.9])
    got = api.grad(grad_norm)(x, y)
    eps = 1e-6
    num = [(grad_norm(x + eps * e, y) - grad_norm(x - eps * e, y)) / (2 * eps) for e in np.eye(3)]
    np.testing.assert_allclose(got, num, rtol=1e-5)


def test_second_derivative_through_a_loop():
    def f(x, w, n):
        h = x
        for i in range(n):
            h = np.tanh(h * w + 0.1)
        return np.sum(h * h)

    def grad_norm(x, w, n):
        return np.sum(api.grad(f, argnums=1)(x, w, n) ** 2)

    x, w, n = np.array([0.3, -0.5]), np.array([0.8, 1.1]), np.int64(3)
    got = api.grad(grad_norm, argnums=1)(x, w, n)
    eps = 1e-6
    num = [
        (grad_norm(x, w + eps * e, n) - grad_norm(x, w - eps * e, n)) / (2 * eps) for e in np.eye(2)
    ]
    np.testing.assert_allclose(got, num, rtol=1e-6)


def test_eager_gradients_keep_float32():
    def f(x):
        try:
            return np.sum(np.sin(x) * x)
        except FloatingPointError:  # which np.seterr(all="raise") would make sin raise
            return x

    with pytest.warns(tg.FallbackWarning):
        got = api.grad(f)(B.astype(np.float32))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, np.cos(B) * B + np.sin(B), rtol=1e-6)


def test_argnums_must_be_non_negative_ints():
    with pytest.raises(TypeError, match="argnums"):
        api.grad(loss, argnums=(0, "b"))
    with pytest.raises(TypeError, match="out of range"):
        api.grad(loss, argnums=5)(A, B)
