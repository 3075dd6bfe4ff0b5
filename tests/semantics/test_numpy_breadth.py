"""The NumPy functions that joined the coverage table's compiled rows, each against its eager run
(values, dtypes, kinds, the arguments afterwards, memory shared or not), over dtypes, and inside
a branch or a loop on tensor values: putmask and place write in place; ascontiguousarray,
asfortranarray, require, asarray_chkfinite and asarray's order return the argument itself or a
copy as NumPy does; trim_zeros is a view; einsum_path and dtype are answered while tracing."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.bool_, np.complex128]
GRID = np.array([[0, 2, 0, 3], [1, 0, 4, 0], [0, 0, 5, 6]])


def _put_masks(a, m):
    np.putmask(a, m > 1, [7, 1])
    return a


def _place(a, m):
    np.place(a, m > 1, [7, 1, 0])
    return a


def _put_masks_in_branch(a, m):
    if m.sum() > 3:
        np.putmask(a, m == 0, np.array([True]))
    else:
        np.place(a, m == 0, np.array([False, True]))
    return a


def _place_in_loop(a, m, n):
    i = 0
    while i < n:
        np.place(a, m == i, [i])
        i += 1
    return a


@pytest.mark.parametrize("dtype", DTYPES)
def test_putmask_and_place_write_in_place(dtype):
    a = (GRID * 3).astype(dtype)
    assert_matches_eager(_put_masks, a, GRID)
    assert_matches_eager(_place, a, GRID)
    assert_matches_eager(_put_masks_in_branch, a, GRID)
    assert_matches_eager(_put_masks_in_branch, a, GRID * 0)
    assert_matches_eager(_place_in_loop, a, GRID, 4)


def _put_floats(a):
    np.putmask(a, a > 1, np.array([2.5]))
    return a


def _place_on_a_view(a):
    np.place(a[1:], a[1:] > 2, [9])
    return a


def test_putmask_keeps_numpys_refusals_and_writes_through_views():
    cf = assert_matches_eager(_put_floats, GRID.copy(), compiles=False)
    assert "rule 'safe'" in str(cf.fallback)  # float64 into int64: raised as NumPy raises
    assert_matches_eager(_put_floats, GRID.astype(np.complex128))
    assert_matches_eager(_place_on_a_view, GRID.copy())
    assert_matches_eager(lambda a, m: np.putmask(a, m, 1.5), GRID * 1.0, GRID > 0)
    cf = assert_matches_eager(lambda a, m: np.place(a, m, 1), GRID, GRID[:2] > 0, compiles=False)
    assert "same size" in str(cf.fallback)


def _contiguous_written(a):
    b = np.ascontiguousarray(a)
    b[0] = 7
    return b


def _fortran_written(a):
    b = np.asfortranarray(a)
    b[..., 0] = 7
    return b


def _required_written(a):
    b = np.require(a, np.float64, ["F", "A"])
    b[..., 0] = 7
    return b


def _asarray_in_order_written(a):
    b = np.asarray(a, order="F")  # a copy of a 2-d C array, its argument itself in 1-d
    b[..., 0] = 7
    return b


def _checked(a):
    b = np.asarray_chkfinite(a)
    b[..., 0] = 1
    return b, b is a


def _checked_in_branch(a):
    if a.ravel()[0] != 2:
        return np.asarray_chkfinite(a[::-1])
    return a


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 4), (4,), (1, 4)])
def test_asked_orders_alias_or_copy_as_numpy_does(dtype, shape):
    a = GRID.reshape(-1)[: int(np.prod(shape))].reshape(shape).astype(dtype)
    for fn in (_contiguous_written, _fortran_written, _asarray_in_order_written, _checked):
        assert_matches_eager(fn, a)
    assert_matches_eager(_required_written, a.real.astype(np.float64))
    assert_matches_eager(_checked_in_branch, a)


def test_a_0d_array_becomes_a_1d_view():
    assert_matches_eager(lambda a: _contiguous_written(a[0, 0]), GRID.copy())
    assert_matches_eager(lambda a: _fortran_written(np.float32(3)), GRID)


@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan])
def test_asarray_chkfinite_raises_numpys_error_when_the_graph_runs(value):
    a = np.ones((2, 3))
    a[1, 2] = value
    assert_matches_eager(_checked, a)
    assert_matches_eager(_checked, a.astype(np.complex64))
    compiled = tg.to_static(_checked_in_branch)
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        compiled(a)  # in a branch, the error also says which equation raised it
    assert compiled.concrete(a).fallback is None


def test_an_unknown_layout_falls_back_instead_of_guessing():
    cf = assert_matches_eager(lambda a: _fortran_written(a[0]), GRID.copy(), compiles=False)
    assert "memory layout" in str(cf.fallback)


def _trimmed(a, trim):
    b = np.trim_zeros(a, trim)
    return b, b.sum()


def _trimmed_written(a):
    b = np.trim_zeros(a)
    b[...] = 9
    return b


def _trimmed_in_loop(a, n):
    b = a
    i = 0
    while i < n:
        b = np.trim_zeros(b[1:], "f")
        i += 1
    return b


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trim", ["fb", "f", "B"])
def test_trim_zeros_is_a_view_with_bounds_from_the_values(dtype, trim):
    for a in (GRID[0], GRID[:, 0], np.zeros(3), GRID, GRID[:, :1] * 0):
        assert_matches_eager(_trimmed, a.astype(dtype), trim)
    assert_matches_eager(_trimmed_written, GRID[1].astype(dtype))
    assert_matches_eager(_trimmed_in_loop, GRID[1].astype(dtype), 2)
    assert_matches_eager(lambda a: np.trim_zeros(a, axis=1), GRID.astype(dtype))


def _path(a, b):
    return np.einsum_path("ij,jk,kl->il", a, b, b.T, optimize="greedy")


def test_shape_queries_are_answered_while_tracing():
    cf = assert_matches_eager(_path, np.ones((3, 4)), np.ones((4, 2)))
    assert "numpy_call" not in str(cf.graph)
    assert_matches_eager(lambda a: np.dtype(a[0]), np.ones(2, np.float32))
    assert_matches_eager(lambda a: [i for i in np.ndindex(a.shape)], np.ones((2, 3)))
    assert_matches_eager(lambda a: a[np.mask_indices(3, np.triu)], np.ones((3, 3)))
