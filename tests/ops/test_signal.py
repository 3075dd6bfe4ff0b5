"""convolve, correlate, interp, searchsorted, polyval, polyfit against NumPy."""

import numpy as np
import pytest
from op_harness import check, out_type, trace
from static_harness import assert_compiled_matches

from tograph import errors
from tograph.ir import types

RNG = np.random.default_rng(41)
DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int64]


def T(dtype, *dims):
    return types.TensorType(dtype, dims)


def values(shape, dtype):
    x = RNG.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n, m", [(5, 3), (3, 5), (4, 4), (1, 6), (6, 1), (2, 7)])
def test_convolve_and_correlate(n, m, dtype):
    a, v = values((n,), dtype), values((m,), np.float64)
    for mode in ("full", "same", "valid"):
        check(lambda a, v: (np.convolve(a, v, mode), np.correlate(a, v, mode)), a, v)
        check(lambda a, v: (np.convolve(v, a, mode=mode), np.correlate(v, a, mode=mode)), a, v)
    check(lambda a, v: (np.convolve(a, v), np.correlate(a, v)), a, v)  # default modes


def test_sliding_scalars_and_unknown_lengths():
    check(
        lambda a: (np.convolve(a, 2.0), np.convolve(np.float32(3.0), a)), values((4,), np.float32)
    )
    with pytest.raises(errors.ShapeError, match="operands must be 1-d"):
        trace(lambda a: np.correlate(a, a[0]), T(np.float64, 3))
    assert out_type(lambda a, v: np.convolve(a, v), T(np.float64, None), T(np.float64, 3)) == T(
        np.float64, None
    )
    a, v = values((6,), np.float64), values((3,), np.float64)
    check(lambda a, v: np.correlate(a, v, "same"), a, v, unknown={0: (0,)})
    with pytest.raises(errors.ShapeError, match="v cannot be empty"):
        trace(np.convolve, T(np.float64, 3), T(np.float64, 0))
    with pytest.raises(ValueError, match="mode must be one of"):
        trace(lambda a: np.convolve(a, a, "middle"), T(np.float64, 3))


@pytest.mark.parametrize("fp_dtype", [np.float32, np.float64, np.complex128])
def test_interp(fp_dtype):
    xp = np.array([0.0, 1.0, 2.5, 4.0, 4.0, 7.0])
    fp = values((6,), fp_dtype)
    x = np.array([[-1.0, 0.0, 0.5], [4.0, 6.9, 7.0], [9.0, 2.5, 3.0]])
    check(lambda x, xp, fp: np.interp(x, xp, fp), x, xp, fp)
    check(lambda x, xp, fp: np.interp(x, xp, fp, left=-5.0, right=5), x, xp, fp)
    check(lambda x, xp, fp: np.interp(x, xp, fp, period=3.0), x, xp, fp)
    check(lambda x, xp, fp: (np.interp(x[0, 0], xp, fp), np.interp(2.0, xp, fp)), x, xp, fp)
    check(lambda x, xp, fp: np.interp(x[:0], xp[:1], fp[:1]), x, xp, fp)
    check(lambda x, xp, fp: np.interp(x.astype(np.float32), xp, fp), x, xp, fp)
    with pytest.raises(errors.ShapeError, match="not of the same length"):
        trace(np.interp, T(np.float64, 2), T(np.float64, 3), T(np.float64, 4))


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(side):
    a = np.array([1.0, 2.0, 2.0, 5.0])
    v = np.array([[0.0, 2.0], [2.5, 9.0]])
    check(lambda a, v: np.searchsorted(a, v, side), a, v)
    check(lambda a, v: (np.searchsorted(a, v[0, 0], side=side), np.searchsorted(a, 2)), a, v)
    check(lambda a, v: np.searchsorted(a, v[:0], side), a, v)
    order = np.array([2, 0, 3, 1])
    check(lambda a, v, s: np.searchsorted(a[::-1], v, side, sorter=s), a, v, order)
    check(lambda a, v: np.searchsorted(a.astype(np.int32), v.astype(np.int64), side), a, v)


@pytest.mark.parametrize("dtype", DTYPES)
def test_polyval(dtype):
    p, x = values((4,), dtype), values((2, 3), np.float64)
    check(lambda p, x: (np.polyval(p, x), np.polyval(p, x[0, 0]), np.polyval(p, 2.0)), p, x)
    check(lambda p, x: (np.polyval(p[:1], x), np.polyval(p, x[:0])), p, x)
    check(lambda p, x: np.polyval(p, x.astype(np.float32)), p, x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("deg", [0, 1, 3])
def test_polyfit(deg, dtype):
    x = np.linspace(-2, 3, 7).astype(dtype)
    y = values((7,), np.float64)
    check(lambda x, y: np.polyfit(x, y, deg), x, y)
    check(lambda x, y: np.polyfit(x, np.stack([y, 2 * y], axis=1), deg, rcond=1e-3), x, y)
    check(lambda x, y: np.polyfit(x, y.astype(np.float32), deg), x, y)


def test_compiled_in_control_flow():
    a, v = values((6,), np.float64), values((3,), np.complex128)
    assert_compiled_matches(lambda a, v: np.convolve(a, v, "same"), a, v)
    assert_compiled_matches(np.correlate, a, v)
    xp = np.arange(6.0)
    assert_compiled_matches(lambda x, xp: np.interp(x, xp, xp**2), a, xp)
    assert_compiled_matches(np.searchsorted, xp, a)
    assert_compiled_matches(lambda x, y: np.polyval(np.polyfit(x, y, 2), x), xp, a)
