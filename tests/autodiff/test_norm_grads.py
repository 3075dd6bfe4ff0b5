"""Gradients of ``np.linalg.norm`` for every vector and matrix order, against finite differences.

Entries are kept away from 0 and from ties (distinct magnitudes, distinct row and column sums,
distinct singular values), where the norms are not differentiable.
"""

import math

import numpy as np
import pytest
from gradcheck import assert_grads

RNG = np.random.default_rng(17)


def spread(shape):
    """Distinct magnitudes between 0.3 and 2, random signs: no ties, no zeros."""
    size = math.prod(shape)
    magnitudes = 0.3 + 1.7 * RNG.permutation(size) / size
    return (magnitudes * RNG.choice([-1.0, 1.0], size)).reshape(shape)


VECTOR_ORDS = [None, 2, 1, math.inf, -math.inf, 0, 3, 0.5, -1, -2.5]
MATRIX_ORDS = [None, "fro", "nuc", 2, -2, 1, -1, math.inf, -math.inf]


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=str)
def test_vector_norms(ord):
    x = spread((3, 4))
    weights = np.arange(1.0, 4.0)
    assert_grads(lambda x: np.sum(np.linalg.norm(x, ord, axis=1) * weights), x)
    assert_grads(lambda x: np.sum(np.linalg.norm(x, ord, axis=0, keepdims=True) ** 2), x)
    assert_grads(lambda x: np.linalg.norm(x[0], ord), x)


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
def test_matrix_norms(ord):
    x = spread((3, 4))
    assert_grads(lambda x: np.linalg.norm(x, ord), x)
    batched = spread((2, 3, 4))
    weights = np.arange(1.0, 4.0)
    assert_grads(lambda x: np.sum(np.linalg.norm(x, ord, axis=(2, 0)) * weights), batched)
    assert_grads(lambda x: np.sum(np.linalg.norm(x, ord, axis=(1, 2), keepdims=True)), batched)


@pytest.mark.parametrize("ord", [None, 2, 1, math.inf, 3], ids=str)
def test_complex_vector_norms(ord):
    z = spread((2, 3)) + 1j * spread((2, 3))
    assert_grads(lambda z: np.sum(np.linalg.norm(z, ord, axis=1) * np.array([1.0, 2.0])), z)


@pytest.mark.parametrize("ord", ["fro", "nuc", 2, -2, 1, math.inf], ids=str)
def test_complex_matrix_norms(ord):
    z = spread((3, 3)) + 1j * spread((3, 3))
    assert_grads(lambda z: np.linalg.norm(z, ord), z)


def test_zero_norm_has_zero_gradient():
    assert_grads(lambda x: np.linalg.norm(x * 0.0) + np.sum(x), spread((3,)), tape=False)
