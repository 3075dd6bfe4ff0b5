"""lstsq, pinv, slogdet, matrix_power (and norm's orders, in control flow) against NumPy."""

import math

import numpy as np
import pytest
from op_harness import check, out_type, trace
from static_harness import assert_compiled_matches

from tograph import errors
from tograph.ir import types

ALL = [np.float32, np.float64, np.complex64, np.complex128]
RNG = np.random.default_rng(23)


def T(dtype, *dims):
    return types.TensorType(dtype, dims)


def matrix(shape, dtype):
    m = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        m = m + 1j * RNG.standard_normal(shape)
    return m.astype(dtype)


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize(
    "a_shape, b_shape", [((5, 3), (5,)), ((5, 3), (5, 2)), ((2, 4), (2,)), ((3, 3), (3, 1))]
)
def test_lstsq(a_shape, b_shape, dtype):
    a, b = matrix(a_shape, dtype), matrix(b_shape, dtype)
    check(lambda a, b: np.linalg.lstsq(a, b), a, b, exact=False)
    check(lambda a, b: np.linalg.lstsq(a, b, rcond=1e-3)[0], a, b)
    assert_compiled_matches(np.linalg.lstsq, a, b, rtol=1e-4)


def test_lstsq_types_and_rank_deficiency():
    x, res, rank, s = trace(
        lambda a, b: np.linalg.lstsq(a, b), T(np.float32, 5, 3), T(np.float32, 5, 2)
    ).out_types
    assert (x, res, rank, s) == (
        T(np.float32, 3, 2),
        T(np.float32, None),
        T(np.int32),
        T(np.float32, 3),
    )
    wide = trace(lambda a, b: np.linalg.lstsq(a, b), T(np.float64, 2, 4), T(np.float64, 2))
    assert wide.out_types[1] == T(np.float64, 0)  # a wide matrix has no residuals
    deficient = np.ones((4, 2))  # rank 1: NumPy returns no residuals
    check(lambda a, b: np.linalg.lstsq(a, b), deficient, np.arange(4.0), exact=False)
    with pytest.raises(errors.ShapeError, match=r"lstsq: incompatible dimensions"):
        out_type(lambda a, b: np.linalg.lstsq(a, b)[0], T(np.float64, 4, 2), T(np.float64, 3))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 5), (2, 3, 4), (0, 0), (2, 0, 3)], ids=str)
def test_pinv(shape, dtype):
    a = matrix(shape, dtype)
    check(np.linalg.pinv, a)
    check(lambda a: (np.linalg.pinv(a, rcond=0.1), np.linalg.pinv(a, rtol=0.1)), a)
    check(lambda a: np.linalg.pinv(a, rtol=None), a)
    if shape[-1] == shape[-2]:
        h = a + np.conj(np.swapaxes(a, -1, -2))
        check(lambda a: np.linalg.pinv(a, hermitian=True), h)


@pytest.mark.parametrize("dtype", ALL + [np.int64])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 1), (0, 0), (2, 0, 0)], ids=str)
def test_slogdet_and_matrix_power(shape, dtype):
    a = matrix(shape, dtype) if dtype != np.int64 else RNG.integers(-2, 3, shape)
    check(lambda a: tuple(np.linalg.slogdet(a)), a)
    check(lambda a: np.linalg.slogdet(a).logabsdet, a)
    for n in (0, 1, 2, 5):
        check(lambda a: np.linalg.matrix_power(a, n), a)
    if dtype != np.int64:
        for n in (-1, -3):
            check(lambda a: np.linalg.matrix_power(a, n), a + 3 * np.eye(shape[-1], dtype=dtype))


def test_compiled_in_control_flow():
    a = matrix((2, 3, 3), np.float64) + 3 * np.eye(3)
    assert_compiled_matches(np.linalg.pinv, a)
    assert_compiled_matches(np.linalg.slogdet, a)
    assert_compiled_matches(lambda a: np.linalg.matrix_power(a, -2), a)
    for ord in (None, "fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf):
        assert_compiled_matches(lambda a: np.linalg.norm(a, ord, axis=(2, 1), keepdims=True), a)
    for ord in (None, 0, 1, 2, -1, 3.5, math.inf):
        assert_compiled_matches(lambda a: np.linalg.norm(a + 0.5j, ord, axis=0), a)


def test_errors():
    with pytest.raises(errors.ShapeError, match=r"matrix_power: last 2 dimensions .* \(2, 3\)"):
        out_type(lambda a: np.linalg.matrix_power(a, 2), T(np.float64, 2, 3))
    with pytest.raises(TypeError, match="exponent must be an integer"):
        out_type(lambda a: np.linalg.matrix_power(a, 1.5), T(np.float64, 2, 2))
    with pytest.raises(ValueError, match="can't be both set"):
        out_type(lambda a: np.linalg.pinv(a, 0.1, rtol=0.1), T(np.float64, 2, 2))
    with pytest.raises(errors.DTypeError, match=r"slogdet: unsupported dtype \(f16\)"):
        out_type(lambda a: np.linalg.slogdet(a)[0], T(np.float16, 2, 2))
