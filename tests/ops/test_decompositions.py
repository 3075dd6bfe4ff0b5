"""Decompositions (qr, svd, svdvals, eigh, eigvalsh, cholesky, eig, eigvals) against NumPy."""

import numpy as np
import pytest
from op_harness import check, out_type
from static_harness import assert_compiled_matches

from tograph import errors
from tograph.ir import types

FLOATS = [np.float32, np.float64]
ALL = FLOATS + [np.complex64, np.complex128]
RNG = np.random.default_rng(3)


def T(dtype, *dims):
    return types.TensorType(dtype, dims)


def matrix(shape, dtype):
    m = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        m = m + 1j * RNG.standard_normal(shape)
    return m.astype(dtype)


def hermitian(shape, dtype):
    m = matrix(shape, dtype)
    return (m @ np.conj(np.swapaxes(m, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


SHAPES = [(3, 3), (4, 2), (2, 5), (2, 3, 3), (2, 1, 4, 3), (0, 0), (2, 0, 3), (3, 0)]
SQUARE = [(3, 3), (1, 1), (2, 4, 4), (2, 1, 2, 2), (0, 0), (3, 0, 0)]


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_qr_and_svd(shape, dtype):
    a = matrix(shape, dtype)
    check(lambda a: tuple(np.linalg.qr(a)), a)
    check(lambda a: (np.linalg.qr(a, "complete")[0], np.linalg.qr(a, mode="r")), a)
    check(lambda a: tuple(np.linalg.svd(a)), a)
    check(lambda a: tuple(np.linalg.svd(a, full_matrices=False)), a)
    check(lambda a: (np.linalg.svd(a, compute_uv=False), np.linalg.svdvals(a)), a)


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", SQUARE, ids=str)
def test_symmetric_decompositions(shape, dtype):
    a = hermitian(shape, dtype)
    check(lambda a: tuple(np.linalg.eigh(a)), a)
    check(lambda a: (np.linalg.eigvalsh(a), np.linalg.eigvalsh(a, UPLO="U")), a)
    check(lambda a: tuple(np.linalg.eigh(a, "U")), a)
    check(lambda a: (np.linalg.cholesky(a), np.linalg.cholesky(a, upper=True)), a)
    check(lambda a: np.linalg.svd(a, hermitian=True, compute_uv=False), a)


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", SQUARE, ids=str)
def test_eig_is_always_complex(shape, dtype):
    complex_dtype = np.result_type(dtype, np.complex64)
    for a in (matrix(shape, dtype), hermitian(shape, dtype)):  # NumPy: real if the values are
        graph = check(lambda a: tuple(x.astype(complex_dtype) for x in np.linalg.eig(a)), a)
        assert all(t.dtype == complex_dtype for t in graph.out_types)
        check(lambda a: np.linalg.eigvals(a).astype(complex_dtype), a)


def test_results_are_numpys_named_tuples():
    a = matrix((4, 3), np.float64)

    def fields(a):
        q = np.linalg.qr(a)
        s = np.linalg.svd(a, full_matrices=False)
        e = np.linalg.eigh(a.T @ a)
        g = np.linalg.eig(a.T @ a + 0j)
        return q.Q, q.R, s.U, s.S, s.Vh, e.eigenvalues, e.eigenvectors, g.eigenvalues

    check(fields, a)
    assert_compiled_matches(np.linalg.qr, a)
    assert type(np.linalg.qr(a)).__name__ == "QRResult"


@pytest.mark.parametrize("dtype", FLOATS + [np.complex128])
def test_compiled_in_control_flow(dtype):
    a = matrix((2, 4, 3), dtype)
    h = hermitian((2, 3, 3), dtype)
    assert_compiled_matches(np.linalg.qr, a)
    assert_compiled_matches(lambda a: np.linalg.qr(a, mode="complete"), a)
    assert_compiled_matches(np.linalg.svd, a)
    assert_compiled_matches(lambda a: np.linalg.svd(a, compute_uv=False), a)
    assert_compiled_matches(np.linalg.eigh, h)
    assert_compiled_matches(np.linalg.eigvalsh, h)
    assert_compiled_matches(np.linalg.cholesky, h)
    assert_compiled_matches(np.linalg.eigvals, h + 0j)
    assert_compiled_matches(np.linalg.eig, h + 0j)


def test_unknown_dims():
    f = T(np.float64, None, 4, None)
    q, r = (t for t in _outs(np.linalg.qr, f))
    assert (q, r) == (T(np.float64, None, 4, None), T(np.float64, None, None, None))
    assert _outs(lambda a: np.linalg.qr(a, "complete"), f)[0] == T(np.float64, None, 4, 4)
    u, s, vh = _outs(np.linalg.svd, T(np.float32, 5, 3))
    assert (u, s, vh) == (T(np.float32, 5, 5), T(np.float32, 3), T(np.float32, 3, 3))
    assert _outs(np.linalg.svd, f)[1] == T(np.float64, None, None)
    w, v = _outs(np.linalg.eigh, T(np.complex64, None, None))
    assert (w, v) == (T(np.float32, None), T(np.complex64, None, None))
    assert out_type(np.linalg.eigvals, T(np.int32, 2, 3, 3)) == T(np.complex128, 2, 3)
    assert out_type(np.linalg.cholesky, T(np.float64, 3, None)) == T(np.float64, 3, None)
    a = matrix((2, 4, 3), np.float64)
    check(lambda a: tuple(np.linalg.svd(a, full_matrices=False)), a, unknown={0: (0, 2)})


def _outs(fn, *in_types):
    from op_harness import trace

    return trace(lambda *xs: tuple(fn(*xs)), *in_types).out_types


def test_errors_name_the_shape_and_dtype():
    with pytest.raises(errors.ShapeError, match=r"eigh: last 2 dimensions .* shape \(2, 3\)"):
        out_type(np.linalg.eigh, T(np.float64, 2, 3))
    with pytest.raises(errors.ShapeError, match=r"qr: 1-dimensional array given"):
        out_type(lambda a: np.linalg.qr(a)[0], T(np.float64, 3))
    with pytest.raises(errors.DTypeError, match=r"cholesky: unsupported dtype \(f16\)"):
        out_type(np.linalg.cholesky, T(np.float16, 2, 2))
    with pytest.raises(ValueError, match="UPLO"):
        out_type(lambda a: np.linalg.eigvalsh(a, "X"), T(np.float64, 2, 2))
