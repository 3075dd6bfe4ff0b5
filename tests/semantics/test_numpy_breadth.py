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
FEWER_DTYPES = [np.float32, np.int64, np.bool_, np.complex128]
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


@pytest.mark.parametrize("dtype", FEWER_DTYPES)
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
    cf = assert_matches_eager(lambda a: _fortran_written(a[:, 1]), GRID.copy(), compiles=False)
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


@pytest.mark.parametrize("dtype", FEWER_DTYPES)
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


def _lower_mask(m, k):
    print("mask", k)
    return np.tril(m, k)


def _masked_by_a_user_function(a):
    return a[np.mask_indices(a.shape[0], _lower_mask, -1)]


def test_mask_indices_calls_its_function_as_converted_code(capsys):
    assert_matches_eager(_masked_by_a_user_function, GRID[:, :3] * 1.0)
    assert capsys.readouterr().out == "mask -1\n" * 2  # eager, then when the graph ran


def _fortran_copy_reshaped_written(a):
    b = np.copy(a, order="F")
    b.reshape(-1)[0] = 9  # a copy in NumPy: b is not C-contiguous
    return b


def test_a_fortran_copy_is_not_taken_for_c_contiguous():
    """Regression: np.copy(a, order="F") kept a's C layout, so a reshape of it was traced as a
    view and the write reached b (eager leaves b alone)."""
    assert_matches_eager(_fortran_copy_reshaped_written, GRID * 1.0, compiles=False)


def _asarray_fortran_written(a):
    b = np.asarray(a, order="F")
    b[0, 0] = 9
    return a


def test_asarray_in_fortran_order_copies_a_c_array():
    """Regression: np.asarray(a, order="F") returned a itself, so the write changed a."""
    assert_matches_eager(_asarray_fortran_written, GRID.copy())


def _printed_sum(v):
    print("slice", v)
    return v.sum()


def _along(a):
    return np.apply_along_axis(_printed_sum, 1, a), np.apply_along_axis(np.diag, 0, a)


def _along_in_branch(a):
    if a.sum() > 3:
        return np.apply_along_axis(lambda v: v[::-1] * 2, 0, a)
    return a


def _over(a):
    return np.apply_over_axes(np.sum, a, [0, -1]), np.apply_over_axes(np.max, a, 1)


def _grid(a):
    return np.fromfunction(lambda i, j: i * 10 + j + a[0, 0], (2, 3), dtype=int)


def _pieces(x):
    return np.piecewise(x, [x < 0, x > 1], [lambda v: -v, lambda v: v**2, 0.5])


def _pieces_called_only_on_selected(x):
    return np.piecewise(x, x < 0, [lambda v: np.max(v) * np.ones_like(v), 7])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128])
def test_callbacks_are_converted_and_called_as_numpy_calls_them(dtype, capsys):
    a = (GRID - 2).astype(dtype)
    assert_matches_eager(_along, a)
    printed = capsys.readouterr().out.splitlines()  # eager, then compiled: once per slice
    assert len(printed) == 6 and printed[:3] == printed[3:]
    for fn in (_along_in_branch, _over, _grid):
        assert_matches_eager(fn, a)
    if dtype != np.complex128:  # ordered comparisons
        assert_matches_eager(_pieces, a)
        assert_matches_eager(_pieces_called_only_on_selected, a[0])
        assert_matches_eager(_pieces_called_only_on_selected, a[0] + 5)  # max of none: not run


def test_callbacks_that_cannot_be_unrolled_fall_back_naming_the_function():
    cf = assert_matches_eager(
        lambda a: np.apply_along_axis(np.sum, 0, a), np.ones((2, 300)), compiles=False
    )
    assert "apply_along_axis" in str(cf.fallback)
    cf = assert_matches_eager(lambda a: np.vectorize(abs)(a), -GRID, compiles=False)
    assert "np.vectorize calls a Python function once per element" in str(cf.fallback)


def _viewed(a):
    b = a.view()
    b[0] = 5
    c = a.view({4: np.int32, 8: np.int64, 16: np.complex128}[a.dtype.itemsize])
    c[-1] = 7
    return a, b, c, a.byteswap()


def _fields(a):
    kind = {4: np.int32, 8: np.int64, 16: np.complex128}[a.dtype.itemsize]
    b = a.getfield(kind)
    b[0] = 3
    a.setfield(2.5, a.dtype)
    a[1:].setfield(np.arange(a.size - 1), kind)
    return a, b


def _swapped_in_place(a):
    a[1:].byteswap(inplace=True)
    return a


def _viewed_in_loop(a, n):
    i = 0
    while i < n:
        a.view(np.uint64)[i] += 1
        i += 1
    return a


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.complex128])
def test_views_and_byteswaps_share_and_swap_bytes_as_numpy(dtype):
    a = GRID[0].astype(dtype)
    assert_matches_eager(_viewed, a)
    assert_matches_eager(_swapped_in_place, a)
    assert_matches_eager(_fields, a)
    assert_matches_eager(_viewed_in_loop, np.arange(4.0), 3)
    cf = assert_matches_eager(lambda a: a.view(np.int8), a, compiles=False)
    assert "another size" in str(cf.fallback)
    cf = assert_matches_eager(lambda a: a.getfield(np.int8, 1), a, compiles=False)
    assert "part of each item" in str(cf.fallback)


def _made_by_the_class(a):
    n = a.shape[0] - 1  # a tensor when the first dim is known only at run time
    b = np.ndarray((n, 2), np.float32)
    b[...] = a[1:, :2]
    return b


def test_the_ndarray_class_makes_arrays_of_shapes_known_when_the_graph_runs():
    assert_matches_eager(_made_by_the_class, GRID * 1.0)
    cf = tg.to_static(_made_by_the_class, input_spec=[tg.TensorSpec((None, 4), np.float64)])
    np.testing.assert_array_equal(cf(GRID * 1.0), _made_by_the_class(GRID * 1.0))
    concrete = cf.concrete(GRID * 1.0)
    assert concrete.fallback is None and "f32[None,2]" in str(concrete.graph)


def _open_mesh(a, rows):
    i, j = np.ix_(rows, a[0] > 1)
    i[0, 0] = 0  # a view of rows, as NumPy's
    return a[i, j], i, j, rows


def _uniques(x):
    return np.unique_all(x), np.unique_counts(x).counts, np.unique_inverse(x)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
def test_functions_the_host_call_probe_refused_compile(dtype):
    """Regression: the table counted np.ix_ (a view), np.unique_all, np.unique_counts and
    np.unique_inverse (named tuples) as host calls, which fell back on every call."""
    a = (GRID * 3).astype(dtype)
    assert_matches_eager(_open_mesh, a, np.array([2, 0]))
    values = np.array([[3.0, np.nan, 1.0], [np.nan, 3.0, 3.0]])
    values = values.astype(dtype) if dtype == np.float64 else np.nan_to_num(values).astype(dtype)
    assert_matches_eager(_uniques, values)
    cf = assert_matches_eager(lambda v: np.roots(v), np.array([1.0, 0.0, 1.0]), compiles=False)
    assert "dtype depends on the values" in str(cf.fallback)


def _counts(a):
    return (
        np.count_nonzero(a),
        np.count_nonzero(a, axis=0),
        np.count_nonzero(a, axis=(0, 1), keepdims=True),
        np.count_nonzero(a[0, 0]),
        np.count_nonzero(3.5),
    )


def _counts_in_loop(a, n):
    total = 0
    i = 0
    while i < n:
        total = total + np.count_nonzero(a > i)
        i += 1
    return total


@pytest.mark.parametrize("dtype", DTYPES)
def test_count_nonzero_is_a_sum_of_nonzeros(dtype):
    a = GRID.astype(dtype)
    assert_matches_eager(_counts, a)
    assert_matches_eager(_counts_in_loop, a.real if dtype == np.complex128 else a, 3)


def test_mask_indices_of_a_size_known_when_the_graph_runs():
    fn = tg.to_static(_masked_by_a_user_function, input_spec=[tg.TensorSpec((None, 3), "f8")])
    a = GRID[:, :3] * 1.0
    np.testing.assert_array_equal(fn(a), _masked_by_a_user_function(a))
    assert fn.concrete(a).fallback is None
