"""The complex-cotangent convention (``autodiff.complex_rules``) against finite differences.

For a real loss ``L`` of a complex ``z = x + iy``, ``grad`` returns ``dL/dx - i dL/dy`` (JAX's
convention); ``gradcheck.numerical_grad`` perturbs the real and imaginary parts to get it.
"""

import numpy as np
import pytest
from gradcheck import assert_grads, numerical_grad

import tograph as tg

RNG = np.random.default_rng(5)
Z = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))
X = RNG.standard_normal((2, 3))

LOSSES = {
    "abs": lambda z: np.sum(np.abs(z)),
    "abs squared": lambda z: np.sum(np.abs(z * z) ** 2),
    "real imag": lambda z: np.sum(np.real(z) * 3 + np.imag(z) ** 2),
    "conj": lambda z: np.sum(np.real(z.conj() * (1 + 2j))),
    "holomorphic": lambda z: np.sum(np.abs(np.exp(z) + z @ z.T @ z)),
    "var": lambda z: np.var(z) + np.std(z),
    "norm": lambda z: np.linalg.norm(z) + np.linalg.norm(z, axis=1)[0],
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradient_wrt_a_complex_argument(name):
    assert_grads(LOSSES[name], Z)


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_real_argument_through_complex_values(name):
    assert_grads(lambda x: LOSSES[name](x * (0.5 - 1.5j) + x[::-1] * 1j), X)


def test_the_convention_is_dL_dx_minus_i_dL_dy():
    def loss(z):
        return np.sum(np.real(z) ** 2 + 3 * np.imag(z))

    z = np.array([1.0 + 2.0j])
    np.testing.assert_allclose(tg.grad(loss)(z), [2.0 - 3.0j])
    np.testing.assert_allclose(numerical_grad(loss, [z], 0), [2.0 - 3.0j], rtol=1e-6)
    assert tg.grad(loss)(1.0 + 2.0j) == 2.0 - 3.0j
