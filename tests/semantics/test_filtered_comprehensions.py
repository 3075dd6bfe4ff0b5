"""A list comprehension filtered on tensors (``[i for i in range(n) if x[i] > t]``) compiles to a
loop whose filter is a cond around a list push, and matches the eager comprehension: values,
kinds, and the comprehension's variables not leaking into the function."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager


def indices_above(x, t):
    i = -1
    idx = [i for i in range(len(x)) if x[i] > t]
    return idx, i


def doubled_positives(x):
    x = [v * 2 for v in x if v > 0]
    return x


def lower_triangle_above(m, t):
    return [(i, j) for i in range(m.shape[0]) for j in range(i) if m[i, j] > t]


@pytest.mark.parametrize(
    "fn, args",
    [
        (indices_above, (np.array([1.0, 3.0, 2.0]), 1.5)),
        (indices_above, (np.array([1.0, 3.0, 2.0]), 5.0)),
        (doubled_positives, (np.array([1.0, -3.0, 2.0]),)),
        (doubled_positives, (np.arange(3),)),
        (lower_triangle_above, (np.arange(9.0).reshape(3, 3), 4.0)),
    ],
)
def test_a_filter_on_a_tensor_compiles_and_matches_eager(fn, args):
    cf = assert_matches_eager(fn, *args)
    assert "cond" in cf.op_counts()


def heights_of_peaks(x):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1]:
            peaks.append(i)
    heights = [x[i] * 2 for i in peaks]
    return peaks, heights


def squares_of_a_static_list(n):
    found = []
    for k in range(n):
        found.append(k)
    return [k * k for k in found], found


def widths_of_runs(x):
    starts = []
    for i in range(len(x)):
        if x[i] > 0 and (i == 0 or x[i - 1] <= 0):
            starts.append(i)
    widths = [len(x) - i for i in starts]
    return widths, i


@pytest.mark.parametrize(
    "fn, args",
    [
        (heights_of_peaks, (np.array([0.0, 2.0, 1.0, 3.0, 0.5]),)),
        (heights_of_peaks, (np.array([3.0, 2.0, 1.0]),)),
        (widths_of_runs, (np.array([1.0, -1.0, 2.0, 3.0]),)),
    ],
)
def test_a_comprehension_over_a_list_grown_in_a_tensor_loop_compiles_and_matches_eager(fn, args):
    cf = assert_matches_eager(fn, *args)
    assert cf.op_counts()["while_loop"] >= 1


def test_a_comprehension_over_a_list_grown_in_python_stays_python():
    cf = assert_matches_eager(squares_of_a_static_list, 4)
    assert "while_loop" not in cf.op_counts()
