"""Operators between a Python list or tuple and a number computed from tensors: eager code gives
them Python's meaning when the number is a Python number (``*`` repeats the sequence, ``==`` is
False, ``+`` raises TypeError), repeats the sequence for a NumPy integer scalar, and computes
elementwise for an array (a 0-d one too). A repeat count known only when the graph runs falls
back; the rest compile as eager code runs them."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def counting_sort(a):
    counts = [0] * (int(a.max()) + 1)
    for v in a:
        counts[v] += 1
    return counts


def repeat_by_numpy_int(x):
    return (1, 2) * x.sum()


def compare_with_python_int(x):
    n = int(x.sum())
    return [1, 2] == n, (1, 2) != n, n == [3]


def add_python_float(x):
    return [1.0, 2.0] + float(x.sum())


def add_in_place_python_int(x):
    n = int(x.sum())
    n += [1, 2]
    return n


def elementwise_with_numpy_scalar(x):
    s = x.sum()
    return [1, 2] + s, s - (1, 2), s == [3, 4], [0.5, 2] < s


def elementwise_with_0d_array(x):
    a = np.array(x.sum())
    return [1, 2] * a, (3, 4) * np.asarray(x[0])


X = np.array([2, 0, 1])


def test_a_list_repeated_by_a_count_from_the_data_falls_back_and_repeats_it():
    cf = assert_matches_eager(counting_sort, X, compiles=False)
    assert "repeated by a number (sequence * n)" in cf.fallback
    assert_matches_eager(repeat_by_numpy_int, X, compiles=False)


def test_a_python_number_compares_unequal_to_a_sequence():
    assert_matches_eager(compare_with_python_int, X)


@pytest.mark.parametrize("fn", [add_python_float, add_in_place_python_int])
def test_adding_a_python_number_to_a_sequence_raises_type_error_as_eager(fn):
    cf = assert_matches_eager(fn, X, compiles=False)
    assert "TypeError" in cf.fallback


@pytest.mark.parametrize("fn", [elementwise_with_numpy_scalar, elementwise_with_0d_array])
def test_a_numpy_scalar_or_array_computes_elementwise_in_the_graph(fn):
    cf = assert_matches_eager(fn, X)
    assert "multiply" in cf.op_counts() or "add" in cf.op_counts()


def test_the_repeat_count_fallback_names_the_line():
    with pytest.warns(tg.FallbackWarning, match=r"test_sequence_operators\.py:\d+"):
        tg.to_static(counting_sort)(X)
