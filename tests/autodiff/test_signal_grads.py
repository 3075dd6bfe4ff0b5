"""Gradients of convolve, correlate, interp, polyval, polyfit, vdot, kron, cross, trapezoid, cov
and corrcoef against central finite differences (complex operands included where they apply)."""

import numpy as np
import pytest
from gradcheck import assert_grads

import tograph as tg
from tograph import errors

RNG = np.random.default_rng(47)


def rand(*shape):
    return RNG.standard_normal(shape)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("n, m", [(5, 3), (3, 5), (4, 4), (1, 3), (2, 5), (6, 1)])
def test_convolve_and_correlate(n, m, mode):
    a, v = rand(n), rand(m)
    w = rand(len(np.convolve(a, v, mode)))
    assert_grads(lambda a, v: np.sum(np.convolve(a, v, mode) * w), a, v, argnums=(0, 1))
    assert_grads(lambda a, v: np.sum(np.correlate(a, v, mode) * w), a, v, argnums=(0, 1))


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_complex_convolve_and_correlate(mode):
    a, v = rand(5) + 1j * rand(5), rand(3) + 1j * rand(3)
    assert_grads(lambda a, v: np.sum(np.abs(np.correlate(a, v, mode))), a, v, argnums=(0, 1))
    assert_grads(lambda a, v: np.sum(np.abs(np.convolve(v, a, mode))), a, v, argnums=(0, 1))


@pytest.mark.parametrize("left, right", [(None, None), (-3.0, 5.0)])
def test_interp(left, right):
    xp, fp = np.array([0.0, 1.0, 2.5, 4.0, 6.0, 7.0]), rand(6)
    x = np.array([-1.0, 0.5, 2.3, 4.4, 6.7, 7.5, 3.3, 0.2])
    w = rand(8)

    def loss(x, xp, fp):
        return np.sum(np.interp(x, xp, fp, left, right) * w)

    assert_grads(loss, x, xp, fp, argnums=(0, 1, 2))
    assert_grads(
        lambda x, fp: np.sum(np.abs(np.interp(x, xp, fp * (1 + 2j)))), x, fp, argnums=(0, 1)
    )


def test_interp_with_period_has_no_gradient():
    xp = np.arange(4.0)
    with pytest.raises(errors.UnsupportedError, match="period"):
        tg.grad(lambda x: np.sum(np.interp(x, xp, xp**2, period=4.0)))(rand(3))


def test_polyval_and_polyfit():
    p, x = rand(4), rand(2, 3)
    assert_grads(lambda p, x: np.sum(np.polyval(p, x) * x), p, x, argnums=(0, 1))
    assert_grads(lambda p, x: np.sum(np.polyval(p, x)), p[:1], x, argnums=(0, 1))
    xs = np.linspace(-1, 1, 7) + 0.05 * rand(7)
    for deg in (0, 1, 3):
        weights = np.arange(1.0, deg + 2)
        assert_grads(
            lambda x, y: np.sum(np.polyfit(x, y, deg) * weights), xs, rand(7), argnums=(0, 1)
        )
        assert_grads(
            lambda x, y: np.sum(np.polyfit(x, y, deg) ** 2), xs, rand(7, 2), argnums=(0, 1)
        )


def test_products():
    a, b = rand(4, 3), rand(4, 3)
    z = a + 1j * b
    assert_grads(lambda a, b: np.vdot(a, b), a, b, argnums=(0, 1))
    assert_grads(lambda z, b: np.abs(np.vdot(z, b * 1j + z)), z, b, argnums=(0, 1))
    weights = rand(8, 9)
    assert_grads(lambda a, b: np.sum(np.kron(a, b[:2]) * weights), a, b, argnums=(0, 1))
    assert_grads(lambda a, b: np.sum(np.cross(a, b) * np.arange(3.0)), a, b, argnums=(0, 1))
    assert_grads(lambda a, b: np.sum(np.cross(a, b[0], axisc=0) ** 2), a, b, argnums=(0, 1))


def test_statistics():
    y, x = rand(3, 5), np.cumsum(np.abs(rand(3, 5)), axis=1)
    assert_grads(lambda y, x: np.sum(np.trapezoid(y, x) ** 2), y, x, argnums=(0, 1))
    assert_grads(lambda y: np.sum(np.trapezoid(y, dx=0.3, axis=0) ** 2), y)
    m, n = rand(3, 6), rand(2, 6)
    weights = rand(5, 5)
    assert_grads(lambda m, n: np.sum(np.cov(m, n) * weights), m, n, argnums=(0, 1))
    assert_grads(lambda m: np.sum(np.cov(m.T, rowvar=False, bias=True) * weights[:3, :3]), m)
    assert_grads(lambda m: np.sum(np.corrcoef(m) * weights[:3, :3]), m)
    assert_grads(lambda m: np.sum(np.abs(np.cov(m * (1 + 0.5j) + m[::-1]))), m)


def test_run_time_lengths():
    spec = [tg.TensorSpec((None,))]
    p = rand(4)
    assert_grads(lambda p: np.sum(np.polyval(p, np.arange(3.0))), p, input_spec=spec)
    assert_grads(lambda p: np.sum(np.convolve(p, np.arange(3.0), "same") ** 2), p, input_spec=spec)
    assert_grads(lambda p: np.sum(np.correlate(np.arange(5.0), p, "same") ** 2), p, input_spec=spec)
    points = np.array([0.5, 1.7])
    assert_grads(lambda fp: np.sum(np.interp(points, np.arange(4.0), fp)), p, input_spec=spec)
