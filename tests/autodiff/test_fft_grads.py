"""Gradients through np.fft against central finite differences, real and complex inputs.

For a complex input the finite differences perturb the real and the imaginary part of each
element (``gradcheck.numerical_grad``), checking the convention of ``autodiff.complex_rules``:
the gradient is ``dL/dx - i dL/dy``. Losses are real: ``abs``, ``real`` of a product with complex
weights, or the real output of ``irfft``.
"""

import numpy as np
import pytest
from gradcheck import assert_grads

import tograph as tg

RNG = np.random.default_rng(37)
X = RNG.standard_normal((3, 8))
Z = X + 1j * RNG.standard_normal((3, 8))
W = RNG.uniform(0.5, 1.5, (3, 8))
WC = W + 1j * RNG.standard_normal((3, 8))
NORMS = [None, "ortho", "forward"]


@pytest.mark.parametrize("norm", NORMS)
def test_fft_and_ifft(norm):
    assert_grads(lambda x: np.sum(np.abs(np.fft.fft(x, norm=norm)) * W), X)
    assert_grads(lambda z: np.sum(np.abs(np.fft.fft(z, norm=norm)) * W), Z)
    assert_grads(lambda z: np.sum(np.real(np.fft.ifft(z, 5, 1, norm) * WC[:, :5])), Z)
    assert_grads(lambda z: np.sum(np.imag(np.fft.fft(z, n=11, axis=0, norm=norm) ** 2)), Z)


@pytest.mark.parametrize("norm", NORMS)
def test_fft2_and_ifft2(norm):
    assert_grads(lambda z: np.sum(np.abs(np.fft.fft2(z, norm=norm)) * W), Z)
    assert_grads(lambda z: np.sum(np.abs(np.fft.ifft2(z, s=(4, 6), norm=norm)) ** 2), Z)
    assert_grads(lambda x: np.sum(np.real(np.fft.fft2(x, axes=(1, 0), norm=norm) * WC)), X)


@pytest.mark.parametrize("norm", NORMS)
def test_rfft(norm):
    assert_grads(lambda x: np.sum(np.abs(np.fft.rfft(x, norm=norm)) * W[:, :5]), X)
    assert_grads(lambda x: np.sum(np.abs(np.fft.rfft(x, n=7, norm=norm)) ** 1.5), X)
    assert_grads(lambda x: np.sum(np.real(np.fft.rfft(x, axis=0, norm=norm) * WC[:2])), X)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 8, 9, 3])
def test_irfft(n, norm):
    weights = np.arange(1.0, (14 if n is None else n) + 1)
    assert_grads(lambda z: np.sum(np.fft.irfft(z, n=n, norm=norm) ** 2 * weights), Z)
    assert_grads(lambda z: np.sum(np.fft.irfft(z, n=n, axis=0, norm=norm) ** 3), Z)


def test_round_trip_and_shifts():
    assert_grads(lambda x: np.sum(np.fft.irfft(np.fft.rfft(x) * WC[:, :5], 8) ** 2), X)
    assert_grads(lambda x: np.sum(np.fft.fftshift(x) * W + np.fft.ifftshift(x, axes=1) * W**2), X)
    assert_grads(lambda z: np.sum(np.abs(np.fft.fftshift(z[:, :7], axes=(0, 1))) * W[:, :7]), Z)


def test_run_time_lengths():
    spec = [tg.TensorSpec((3, None), np.complex128)]
    assert_grads(lambda z: np.sum(np.fft.irfft(z) ** 2), Z, input_spec=spec)
    spec = [tg.TensorSpec((3, None))]
    assert_grads(lambda x: np.sum(np.abs(np.fft.rfft(x, 12))), X, input_spec=spec)
    assert_grads(lambda x: np.sum(np.abs(np.fft.fft(x, 5))), X, input_spec=spec)


def test_frequency_spacing():
    assert_grads(lambda d: np.sum(np.fft.fftfreq(6, d) ** 2), np.float64(0.3))
