"""np.pad against NumPy: every supported mode, pad widths and constants in every form, dtypes,
empty and 0-d arrays, run-time dims (``pad_index``), errors, tensor control flow."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loop_harness import assert_compiles_in_loop
from op_harness import check, trace

from tograph import errors
from tograph.ir import types

DTYPES = [np.float32, np.float64, np.int32, np.bool_]
MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
WIDTHS = [
    0,
    2,
    (1, 3),
    (2,),
    ((1, 2),),
    ((1,), (2,)),
    ((2, 0), (1, 3)),
    [[0, 5], [4, 1]],
    np.array([[1, 0], [0, 6]]),
    np.int8(1),
]


def sample(shape, dtype=np.float64):
    values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) - 2.5
    return (values > 0) if dtype == np.bool_ else values.astype(dtype)


@pytest.mark.parametrize("width", WIDTHS, ids=str)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_pad(dtype, mode, width):
    x = sample((3, 4), dtype)
    check(lambda x: np.pad(x, width, mode=mode), x)


@pytest.mark.parametrize("width", WIDTHS, ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_pad_runtime_dims(mode, width):
    graph = check(lambda x: np.pad(x, width, mode=mode), sample((3, 4)), unknown={0: [0, 1]})
    if mode != "constant" and np.any(np.asarray(width)):
        assert "pad_index" in str(graph)


@pytest.mark.parametrize("mode", MODES)
def test_pad_1d_and_0d(mode):
    x = sample((2,), np.int32)
    check(lambda x: np.pad(x, (3, 5), mode=mode), x)
    check(lambda x: np.pad(x[0], 2, mode=mode), x)


def test_pad_constants_in_every_form():
    x = sample((2, 3), np.int32)
    check(lambda x: np.pad(x, 1, constant_values=7), x)
    check(lambda x: np.pad(x, 1, constant_values=(1, 2)), x)
    check(lambda x: np.pad(x, 1, constant_values=((1, 2), (3.7, -4))), x)
    check(lambda x: np.pad(x, ((1, 1), (2, 0)), constant_values=x[0, 1] * 2), x)
    check(lambda x: np.pad(x, 2, mode="empty") * 0, x)


def test_pad_empty_axes():
    e = np.zeros((0, 3))
    check(lambda x: np.pad(x, 1), e)
    check(lambda x: np.pad(x, ((0, 0), (1, 2)), mode="reflect"), e)
    with pytest.raises(ValueError, match="can't extend empty axis 0"):
        trace(lambda x: np.pad(x, 1, mode="edge"), types.type_of(e))


def test_pad_errors():
    x = types.TensorType(np.float64, (2, 3))
    with pytest.raises(errors.DTypeError, match="integral type"):
        trace(lambda x: np.pad(x, 1.5), x)
    with pytest.raises(ValueError, match="negative values"):
        trace(lambda x: np.pad(x, (1, -1)), x)
    with pytest.raises(errors.ShapeError, match="does not fit an array of rank 2"):
        trace(lambda x: np.pad(x, ((1, 2), (3, 4), (5, 6))), x)


def test_pad_forms_without_a_rule_run_numpy():
    x = np.arange(6.0).reshape(2, 3)
    for fn in (
        lambda x: np.pad(x, 1, mode="mean"),
        lambda x: np.pad(x, 1, mode="reflect", reflect_type="odd"),
    ):
        assert "numpy_call" in str(check(fn, x))
    graph = check(lambda x, n: np.pad(x, n), x, np.int64(2), exact=False)
    assert graph.out_types[0].shape == (None, None)  # the widths are known when the graph runs


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
    mode=st.sampled_from(MODES),
    data=st.data(),
)
def test_pad_matches_numpy(shape, mode, data):
    widths = [data.draw(st.tuples(st.integers(0, 9), st.integers(0, 9))) for _ in shape]
    check(lambda x: np.pad(x, widths, mode=mode), sample(shape))


def test_pad_in_a_tensor_loop():
    x = sample((2, 3))
    assert_compiles_in_loop(lambda x: np.pad(x, ((1, 0), (2, 2)), mode="reflect"), x)
    assert_compiles_in_loop(lambda x: np.pad(x, 1, constant_values=-1.0), x)
