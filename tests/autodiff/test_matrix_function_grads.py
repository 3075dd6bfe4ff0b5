"""Gradients of lstsq, pinv, slogdet and matrix_power against central finite differences."""

import numpy as np
import pytest
from gradcheck import assert_grads

import tograph as tg
from tograph import errors

RNG = np.random.default_rng(29)


def rand(shape):
    return RNG.standard_normal(shape)


@pytest.mark.parametrize(
    "a_shape, b_shape", [((5, 3), (5,)), ((5, 3), (5, 2)), ((2, 4), (2,)), ((3, 3), (3, 2))]
)
def test_lstsq_through_the_solution(a_shape, b_shape):
    a, b = rand(a_shape), rand(b_shape)
    weights = rand((a_shape[1],) + b_shape[1:])

    def loss(a, b):
        x, residuals, rank, s = np.linalg.lstsq(a, b)
        return np.sum(x * weights)

    assert_grads(loss, a, b, argnums=(0, 1))
    assert_grads(lambda a, b: np.sum(np.linalg.lstsq(a, b, rcond=1e-10)[0] ** 2), a, b)


def test_lstsq_residuals_have_no_gradient():
    with pytest.raises(errors.UnsupportedError, match="through its residuals"):
        tg.grad(lambda a, b: np.sum(np.linalg.lstsq(a, b)[1]))(rand((4, 2)), rand(4))


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)], ids=str)
def test_pinv(shape):
    weights = rand(shape[:-2] + shape[-2:][::-1])
    assert_grads(lambda a: np.sum(np.linalg.pinv(a) * weights), rand(shape))


def test_pinv_hermitian():
    m, weights = rand((3, 3)), rand((3, 3))
    assert_grads(lambda a: np.sum(np.linalg.pinv(a, hermitian=True) * weights), m + m.T)


def test_slogdet():
    a = rand((2, 3, 3)) + 3 * np.eye(3)
    assert_grads(lambda a: np.sum(np.linalg.slogdet(a).logabsdet * np.array([1.0, 2.0])), a)
    assert_grads(lambda a: np.sum(np.linalg.slogdet(-a)[0] * np.linalg.slogdet(a)[1]), a)


def test_complex_slogdet_sign_and_logabsdet():
    z = rand((2, 3, 3)) + 3 * np.eye(3) + 1j * rand((2, 3, 3))
    weights = np.array([1 + 2j, 0.5j])

    def loss(z):
        sign, logabsdet = np.linalg.slogdet(z)
        return np.sum(logabsdet) + np.sum(np.real(sign * weights))

    assert_grads(loss, z)


@pytest.mark.parametrize("n", [0, 1, 2, 3, -1, -3])
def test_matrix_power(n):
    a = 0.3 * rand((2, 3, 3)) + 1.5 * np.eye(3)
    weights = rand((2, 3, 3))
    assert_grads(lambda a: np.sum(np.linalg.matrix_power(a, n) * weights), a)
    z = a + 0.3j * rand((2, 3, 3))
    assert_grads(lambda z: np.sum(np.abs(np.linalg.matrix_power(z, n))), z)
