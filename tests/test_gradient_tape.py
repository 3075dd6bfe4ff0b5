"""tg.GradientTape: gradients of plain NumPy code run eagerly, checked against the compiled
gradients of tg.grad and central finite differences; persistent and nested tapes,
tg.stop_gradient, float() and int() of watched tensors, and the errors of misuse."""

import warnings

import numpy as np
import pytest

import tograph as tg

RNG = np.random.default_rng(7)
X = RNG.standard_normal((5, 3))
W = RNG.standard_normal((3, 2))


def model(w, x):
    """Data-dependent control flow: a loop over rows, a branch per row, an early exit."""
    h = np.tanh(x @ w)
    total = 0.0
    for row in h:
        if row.sum() > 0:
            total = total + np.sum(row**2)
        else:
            total = total - np.sum(np.exp(row))
        if total > 4.0:
            break
    return total * 0.5


def numeric_grad(fn, w, eps=1e-6):
    """Central finite differences of the scalar ``fn`` at the array ``w``."""
    grad = np.zeros_like(w)
    for i in np.ndindex(w.shape):
        step = np.zeros_like(w)
        step[i] = eps
        grad[i] = (fn(w + step) - fn(w - step)) / (2 * eps)
    return grad


def tape_grad(fn, w, *args):
    with tg.GradientTape() as tape:
        watched = tape.watch(w)
        loss = fn(watched, *args)
    return tape.gradient(loss, watched)


@pytest.mark.parametrize("w", [W, -W, W * 3])
def test_gradient_of_numpy_code_matches_graph_gradients_and_finite_differences(w):
    got = tape_grad(model, w, X)
    compiled = tg.grad(tg.to_static(model, fallback="error"))(w, X)
    assert type(got) is np.ndarray and got.dtype == w.dtype and got.shape == w.shape
    np.testing.assert_allclose(got, compiled, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got, numeric_grad(lambda v: model(v, X), w), rtol=1e-6, atol=1e-8)


def test_float32_and_scalar_sources_keep_their_kinds():
    w32 = W.astype(np.float32)
    g32 = tape_grad(lambda w: np.sum(np.sin(w) * w), w32)
    assert g32.dtype == np.float32
    np.testing.assert_allclose(g32, np.cos(w32) * w32 + np.sin(w32), rtol=1e-6)
    g = tape_grad(lambda s: s**3, 2.0)  # a Python float is watched as a NumPy float, as tg.grad
    assert type(g) is np.float64 and g == 12.0


def test_sources_may_be_a_structure():
    params = {"w": W, "b": [np.float64(0.5), np.zeros(2)]}

    def loss(p):
        return np.sum(np.tanh(X @ p["w"] + p["b"][1]) * p["b"][0])

    with tg.GradientTape() as tape:
        watched = tape.watch(params)
        value = loss(watched)
    grads = tape.gradient(value, watched)
    assert set(grads) == {"w", "b"} and isinstance(grads["b"], list)
    expected = tg.grad(loss)(params)
    np.testing.assert_allclose(grads["w"], expected["w"], rtol=1e-12)
    assert type(grads["b"][0]) is np.float64 and grads["b"][0] == pytest.approx(expected["b"][0])
    np.testing.assert_allclose(grads["b"][1], expected["b"][1], rtol=1e-12)


def test_a_persistent_tape_gives_several_gradients_and_a_plain_one_gives_one():
    with tg.GradientTape(persistent=True) as tape:
        w = tape.watch(W)
        a = np.sum(w**2)
        b = np.sum(np.sin(w))
    np.testing.assert_allclose(tape.gradient(a, w), 2 * W)
    np.testing.assert_allclose(tape.gradient(b, w), np.cos(W))
    with tg.GradientTape() as once:
        w = once.watch(W)
        a = np.sum(w**2)
    once.gradient(a, w)
    with pytest.raises(RuntimeError, match="persistent=True"):
        once.gradient(a, w)


def test_nested_tapes_give_higher_derivatives():
    x0 = np.array([0.3, -1.2, 2.0])
    with tg.GradientTape() as outer:
        x = outer.watch(x0)
        with tg.GradientTape() as inner:
            inner.watch(x)
            y = np.sum(np.sin(x) * x**2)
        dy = inner.gradient(y, x)  # recorded by the outer tape
        total = np.sum(dy)
    d2y = outer.gradient(total, x)
    np.testing.assert_allclose(dy.numpy(), np.cos(x0) * x0**2 + 2 * x0 * np.sin(x0))
    second = -np.sin(x0) * x0**2 + 4 * x0 * np.cos(x0) + 2 * np.sin(x0)
    np.testing.assert_allclose(d2y, second, rtol=1e-12)
    first = tape_grad(lambda v: np.sum(np.sin(v) * v**2), x0)
    np.testing.assert_allclose(first, dy.numpy())  # outside an enclosing tape: NumPy


def stopped(w):
    return np.sum(w * tg.stop_gradient(np.tanh(w))) + tg.stop_gradient(2.0) * np.sum(w)


def test_stop_gradient_holds_a_value_constant_on_tapes_and_in_graphs():
    tanh = np.tanh(W)
    expected = tanh + 2.0  # d/dw of sum(w * c) + 2 * sum(w), with c = tanh(w) held constant
    numeric = numeric_grad(lambda v: np.sum(v * tanh) + 2.0 * np.sum(v), W)
    np.testing.assert_allclose(expected, numeric, rtol=1e-6)
    np.testing.assert_allclose(tape_grad(stopped, W), expected, rtol=1e-12)
    compiled = tg.to_static(stopped, fallback="error")
    np.testing.assert_allclose(tg.grad(compiled)(W), expected, rtol=1e-12)
    assert "stop_gradient" in compiled.concrete(W).op_counts()
    assert compiled(W) == pytest.approx(stopped(W))
    assert type(tg.stop_gradient(2.0)) is float  # a Python number stays one


def test_float_and_int_of_a_watched_tensor_are_plain_numbers():
    printed = []
    with tg.GradientTape() as tape:
        w = tape.watch(W)
        loss = np.sum(w**2)
        printed.append((float(loss), int(loss)))  # logging and decisions
        for _ in range(int(np.abs(w).max()) + 1):
            loss = loss * 1.0
        scale = float(np.sum(w))  # a constant: no gradient flows through it
        loss = loss + scale * np.sum(w)
    value = np.sum(W**2)
    assert printed == [(value, int(value))] and type(printed[0][0]) is float
    np.testing.assert_allclose(tape.gradient(loss, w), 2 * W + np.sum(W), rtol=1e-12)


def uses_float_under_grad(w):
    try:
        scale = float(np.sum(w))
    except FloatingPointError:  # which np.seterr(all="raise") would make the sum raise
        scale = 1.0
    return scale * np.sum(w)


def test_under_grad_a_float_that_would_lose_its_gradient_is_still_refused():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tg.FallbackWarning)
        with pytest.raises(tg.ToGraphError, match=r"float\(\) turns a tensor"):
            tg.grad(uses_float_under_grad)(W)


@tg.to_static
def compiled_loss(w, x):
    return np.sum((x @ w) ** 2)


def falls_back_calling_compiled(w, x):
    try:
        y = compiled_loss(w, x)
    except ValueError:
        y = 0.0
    return y


def test_a_compiled_function_on_watched_tensors_is_recorded():
    expected = 2 * X.T @ (X @ W)
    np.testing.assert_allclose(tape_grad(compiled_loss, W, X), expected, rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tg.FallbackWarning)
        # the graph took the watched tensor for a constant: the gradient was zero
        np.testing.assert_allclose(tg.grad(falls_back_calling_compiled)(W, X), expected)


def test_misuse_is_one_clear_error():
    with tg.GradientTape() as tape:
        tape.watch(W)  # the returned tensor is not used
        loss = np.sum(W**2)
    with pytest.raises(tg.ToGraphError, match="(?s)sources is a NumPy array.*x = tape.watch"):
        tape.gradient(loss, W)
    with tg.GradientTape() as tape:
        w = tape.watch(W)
        values = w * 2
    with pytest.raises(tg.ToGraphError, match="must be a scalar"):
        tape.gradient(values, w)
    with pytest.raises(tg.ToGraphError, match="the target is a float"):
        tape.gradient(float(np.sum(values)), w)
    with pytest.raises(tg.ToGraphError, match=r"value\[1\] is i64\[3\]"):
        tg.GradientTape().watch([W, np.arange(3)])
