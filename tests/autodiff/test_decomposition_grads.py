"""Gradients of the decompositions against central finite differences.

Inputs are well conditioned (distinct singular values and eigenvalues, full rank) and every loss
is invariant to the sign of each singular vector or eigenvector (singular values, eigenvalues,
products ``u @ diag(s) @ vh``, projectors ``v v^T``, ``q_k r_kk``), so the gradient is defined.
"""

import inspect

import numpy as np
import pytest
from gradcheck import assert_grads

import tograph as tg
from tograph import errors

RNG = np.random.default_rng(11)


def rand(shape):
    return RNG.standard_normal(shape)


def symmetric(shape):
    m = rand(shape)
    return m + np.swapaxes(m, -1, -2)


def spd(shape):
    m = symmetric(shape)
    return m @ m + 3 * np.eye(shape[-1])


def weights(n):
    return np.arange(1.0, n + 1)


def qr_loss(a):
    q, r = np.linalg.qr(a)
    sign_free = q[..., :, :1] * r[..., :1, :1]  # q_0 r_00 does not depend on the sign
    return np.sum((q @ r) ** 2) + np.sum(np.abs(r[..., 0, :])) + np.sum(sign_free * 0.5)


def svd_loss(a):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    product = (u * s[..., None, :]) @ vh
    projector = u[..., :, :1] @ vh[..., :1, :]
    return np.sum(s * weights(s.shape[-1])) + np.sum(product * 0.3) + np.sum(projector**2 * 0.5)


def eigh_loss(a):
    w, v = np.linalg.eigh(a)
    projector = v[..., :, :1] * v[..., None, :, 0]
    return np.sum(w * weights(w.shape[-1])) + np.sum(projector * weights(a.shape[-1]))


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 5), (2, 4, 3)], ids=str)
def test_qr_and_svd(shape):
    a = rand(shape)
    assert_grads(qr_loss, a)
    assert_grads(lambda a: np.sum(np.linalg.qr(a, mode="r") ** 2 * weights(a.shape[-1])), a)
    assert_grads(svd_loss, a)
    assert_grads(lambda a: np.sum(np.linalg.svd(a, compute_uv=False) ** 3), a)


def test_qr_complete_and_svd_full_matrices():
    tall, square = rand((4, 2)), rand((3, 3))
    assert_grads(lambda a: np.sum(np.abs(np.linalg.qr(a, "complete")[1])), tall)
    assert_grads(lambda a: np.sum(np.linalg.svd(a)[1]), tall)
    assert_grads(lambda a: qr_loss(a) + svd_loss(a), square)
    full_u = tg.grad(lambda a: np.sum(np.linalg.svd(a)[0][:, :1] ** 2))
    with pytest.raises(errors.UnsupportedError, match=r"full_matrices=True.*non-square"):
        full_u(tall)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)], ids=str)
def test_eigh_eigvalsh_cholesky(shape):
    a = symmetric(shape)
    assert_grads(eigh_loss, a)
    assert_grads(lambda a: np.sum(np.linalg.eigh(a, UPLO="U")[0] ** 2), a)
    assert_grads(lambda a: np.sum(np.linalg.eigvalsh(a) ** 3), a)
    assert_grads(lambda a: np.sum(np.linalg.eigvalsh(a, UPLO="U") ** 3), a)
    assert_grads(lambda a: np.sum(np.linalg.svd(a, hermitian=True, compute_uv=False) ** 2), a)
    b = spd(shape)
    assert_grads(lambda a: np.sum(np.linalg.cholesky(a) * weights(a.shape[-1])), b)
    assert_grads(lambda a: np.sum(np.linalg.cholesky(a, upper=True) ** 2 * weights(3)[:1]), b)


def test_decompositions_of_built_matrices():
    """The usual use: a symmetric matrix built from parameters, then decomposed."""
    x = rand((4, 3))

    def loss(x):
        gram = x.T @ x + np.eye(3)
        chol = np.linalg.cholesky(gram)
        return np.sum(np.log(np.diag(chol))) + np.sum(np.linalg.eigvalsh(gram) ** 0.5)

    assert_grads(loss, x)


def test_eig_gradient_is_an_error_at_the_users_line():
    def loss(a):
        w = np.linalg.eigvals(a)
        return np.sum(np.abs(w))

    line = inspect.getsourcelines(loss)[1] + 1
    where = rf":{line}, in loss: .*differentiate eigvals"
    with pytest.raises(errors.UnsupportedError, match=where):
        tg.grad(loss)(rand((3, 3)))
    with pytest.raises(errors.UnsupportedError, match="differentiate eig"):
        tg.grad(lambda a: np.sum(np.abs(np.linalg.eig(a)[1])))(rand((3, 3)))


def test_complex_decomposition_gradients_are_refused():
    def loss(x):
        return np.sum(np.linalg.svd(x * (1 + 1j), compute_uv=False))

    with pytest.raises(errors.UnsupportedError, match=r"np\.linalg\.svd of complex matrices"):
        tg.grad(loss)(rand((3, 3)))


def test_run_time_sizes():
    spec = [tg.TensorSpec((None, None))]
    a = rand((5, 3))
    s = a.T @ a + np.eye(3)
    assert_grads(svd_loss, a, input_spec=spec)
    assert_grads(lambda a: np.sum(np.linalg.svd(a, compute_uv=False)), a, input_spec=spec)
    assert_grads(eigh_loss, s, input_spec=spec)
    assert_grads(lambda a: np.sum(np.linalg.cholesky(a)), s, input_spec=spec)
    assert_grads(lambda a: np.sum(np.linalg.pinv(a) ** 2), a, input_spec=spec)
    assert_grads(lambda a: np.linalg.slogdet(a)[1] + np.linalg.norm(a, "nuc"), s, input_spec=spec)
    qr_r = tg.grad(tg.to_static(lambda a: np.sum(np.abs(np.linalg.qr(a)[1])), input_spec=spec))
    with pytest.raises(errors.UnsupportedError, match="qr needs the matrix sizes"):
        qr_r(a)
