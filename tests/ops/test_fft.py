"""np.fft's transforms, shifts and frequencies against NumPy."""

import numpy as np
import pytest
from op_harness import check, out_type, trace
from static_harness import assert_compiled_matches

import tograph as tg
from tograph import errors
from tograph.ir import types

RNG = np.random.default_rng(31)
NORMS = [None, "backward", "ortho", "forward"]
DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int32]


def T(dtype, *dims):
    return types.TensorType(dtype, dims)


def signal(shape, dtype):
    x = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return (x * 3).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("norm", NORMS)
def test_complex_transforms(norm, dtype):
    x = signal((3, 8), dtype)
    check(lambda x: (np.fft.fft(x, norm=norm), np.fft.ifft(x, norm=norm)), x)
    check(lambda x: (np.fft.fft(x, 5, 0, norm), np.fft.ifft(x, n=11, axis=1, norm=norm)), x)
    check(lambda x: (np.fft.fft2(x, norm=norm), np.fft.ifft2(x, norm=norm)), x)
    check(lambda x: np.fft.fft2(x, s=(4, 5), norm=norm), x)
    check(lambda x: np.fft.ifft2(x, s=(2, 9), axes=(1, 0), norm=norm), x)
    check(lambda x: np.fft.fft2(x[None], axes=(0, 2), norm=norm), x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("norm", NORMS)
def test_real_transforms(norm, dtype):
    x = signal((3, 8), dtype)
    check(lambda x: (np.fft.rfft(x, norm=norm), np.fft.rfft(x, 5, 0, norm)), x)
    check(lambda x: np.fft.rfft(x, n=11, norm=norm), x)
    spectrum = np.fft.rfft(x).astype(np.result_type(dtype, np.complex64))
    for n in (None, 8, 9, 3, 1):
        check(lambda s: np.fft.irfft(s, n, norm=norm), spectrum)
    check(lambda s: np.fft.irfft(s, axis=0, norm=norm), spectrum)
    check(lambda x: np.fft.irfft(x), x)  # a real half spectrum


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.complex64])
def test_shifts(dtype):
    for shape in [(5,), (4,), (3, 4), (2, 0)]:
        x = signal(shape, dtype)
        check(lambda x: (np.fft.fftshift(x), np.fft.ifftshift(x)), x)
    x = signal((3, 5), dtype)
    check(lambda x: (np.fft.fftshift(x, axes=1), np.fft.ifftshift(x, axes=(0, -1))), x)
    check(lambda x: np.fft.fftshift(x, 0), x, unknown={0: (0,)})


def test_empty_and_batched():
    x = signal((0, 4), np.float64)
    check(lambda x: (np.fft.fft(x), np.fft.rfft(x), np.fft.fft(x, n=2)), x)
    check(lambda x: np.fft.fft2(x, s=(1, 3)), x)
    batched = signal((2, 3, 4, 6), np.complex128)
    check(lambda x: (np.fft.fft2(x), np.fft.ifft(x, axis=1), np.fft.irfft(x, axis=2)), batched)


def test_unknown_dims():
    assert out_type(np.fft.fft, T(np.float32, 2, None)) == T(np.complex64, 2, None)
    assert out_type(np.fft.rfft, T(np.float64, None)) == T(np.complex128, None)
    assert out_type(lambda x: np.fft.rfft(x, 6), T(np.float64, None)) == T(np.complex128, 4)
    assert out_type(np.fft.irfft, T(np.complex64, 3, None)) == T(np.float32, 3, None)
    assert out_type(lambda x: np.fft.irfft(x, 7), T(np.complex64, None)) == T(np.float32, 7)
    x = signal((2, 5), np.complex128)
    transforms = lambda x: (np.fft.irfft(x), np.fft.fft(x, 3), np.fft.rfft(x.real, 4))
    check(transforms, x, unknown={0: (1,)})


def test_frequencies():
    def freqs(n, d):
        return np.fft.fftfreq(n), np.fft.rfftfreq(n, d), np.fft.fftfreq(n, d), np.fft.rfftfreq(7)

    static = tg.to_static(freqs, fallback="error")
    for n in (np.int64(1), np.int64(6), np.int64(7)):
        for got, want in zip(static(n, 0.25), freqs(n, 0.25), strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-15)
            assert got.dtype == want.dtype
    graph = static.concrete(np.int64(6), 0.25).graph
    assert "fftfreq[d=0.25, real=True]" in str(graph)
    assert_compiled_matches(lambda d: np.fft.fftfreq(8, d), np.float64(0.5))


def test_compiled_in_control_flow():
    x = signal((3, 8), np.float64)
    z = signal((3, 8), np.complex64)
    assert_compiled_matches(np.fft.fft, x)
    assert_compiled_matches(lambda z: np.fft.ifft2(z, norm="ortho"), z)
    assert_compiled_matches(lambda x: np.fft.irfft(np.fft.rfft(x, 10), 10), x)
    assert_compiled_matches(lambda z: np.fft.fftshift(np.fft.ifftshift(z)), z)


def test_errors_follow_numpy():
    with pytest.raises(ValueError, match="Invalid number of FFT data points \\(0\\)"):
        trace(lambda x: np.fft.fft(x, 0), T(np.float64, 3))
    with pytest.raises(ValueError, match="Invalid number of FFT data points \\(0\\)"):
        trace(np.fft.irfft, T(np.complex128, 1))
    with pytest.raises(errors.ShapeError, match="invalid number of FFT data points \\(0\\)"):
        trace(np.fft.fft, T(np.float64, 2, 0))
    with pytest.raises(ValueError, match="Invalid norm value bad"):
        trace(lambda x: np.fft.fft(x, norm="bad"), T(np.float64, 3))
    with pytest.raises(errors.DTypeError, match="rfft does not support operands"):
        trace(np.fft.rfft, T(np.complex128, 4))
