"""vdot, kron, cross, trapezoid, cov and corrcoef against NumPy."""

import numpy as np
import pytest
from op_harness import check, out_type
from static_harness import assert_compiled_matches

from tograph import errors
from tograph.ir import types

RNG = np.random.default_rng(43)
DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int32]


def values(shape, dtype):
    x = RNG.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_vdot_and_kron(dtype):
    a, b = values((2, 3), dtype), values((3, 2), np.float64)
    check(lambda a, b: (np.vdot(a, b), np.vdot(b, a), np.vdot(a[0], a[1])), a, b)
    check(lambda a, b: (np.kron(a, b), np.kron(a[0], b), np.kron(b, a[:, :1])), a, b)
    check(lambda a, b: (np.kron(a, 2.0), np.kron(a[0, 0], b), np.kron(a[:0], b)), a, b)
    check(lambda a, b: np.kron(a[None], b), a, b)
    with pytest.raises(errors.ShapeError, match="vdot: vectors have different lengths"):
        out_type(np.vdot, types.TensorType(np.float64, (3,)), types.TensorType(np.float64, (4,)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_cross(dtype):
    a, b = values((4, 3), dtype), values((4, 3), np.float64)
    check(lambda a, b: (np.cross(a, b), np.cross(a, b[0]), np.cross(a[:1], b)), a, b)
    check(lambda a, b: (np.cross(a.T, b.T, axis=0), np.cross(a, b.T, axisb=0, axisc=0)), a, b)
    check(lambda a, b: np.cross(a[None], b[:, None]), a, b)
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors"):
        check(lambda a, b: (np.cross(a[:, :2], b), np.cross(a, b[:, :2])), a, b)
    with pytest.warns(DeprecationWarning):
        check(lambda a, b: np.cross(a[:, :2], b[:, 1:]), a, b)
    with pytest.raises(errors.ShapeError, match="incompatible dimensions for cross product"):
        out_type(lambda a: np.cross(a, a.T), types.type_of(a))


@pytest.mark.parametrize("dtype", DTYPES)
def test_trapezoid(dtype):
    y, x = values((3, 5), dtype), np.cumsum(np.abs(values((3, 5), np.float64)), axis=1)
    check(lambda y, x: (np.trapezoid(y), np.trapezoid(y, dx=0.5), np.trapezoid(y, axis=0)), y, x)
    check(lambda y, x: (np.trapezoid(y, x), np.trapezoid(y, x[0]), np.trapezoid(y[0], x[1])), y, x)
    check(lambda y, x: (np.trapezoid(y[:, :1]), np.trapezoid(y[:, :0])), y, x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cov_and_corrcoef(dtype):
    m, y = values((3, 6), dtype), values((2, 6), np.float64)
    check(lambda m, y: (np.cov(m), np.cov(m, y), np.cov(m, bias=True), np.cov(m, ddof=2)), m, y)
    check(lambda m, y: (np.cov(m.T, rowvar=False), np.cov(m[0]), np.cov(m[0], y[0])), m, y)
    check(lambda m, y: (np.cov(m, dtype=np.complex128), np.cov(m[:0])), m, y)
    check(lambda m, y: (np.corrcoef(m), np.corrcoef(m, y), np.corrcoef(m[0])), m, y)
    check(lambda m, y: (np.corrcoef(m.T, rowvar=False), np.corrcoef(m[0], y[1])), m, y)


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")
def test_cov_with_too_few_samples_warns_as_numpy():
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        check(lambda m: np.cov(m[:, :1]), values((2, 3), np.float64))


def test_compiled_in_control_flow():
    a, b = values((4, 3), np.float64), values((4, 3), np.complex128)
    assert_compiled_matches(np.vdot, a, b)
    assert_compiled_matches(np.kron, a, b)
    assert_compiled_matches(np.cross, a, b)
    assert_compiled_matches(lambda y, x: np.trapezoid(y, np.cumsum(np.abs(x), axis=1)), b, a)
    assert_compiled_matches(np.cov, a, b)
    assert_compiled_matches(np.corrcoef, a)
