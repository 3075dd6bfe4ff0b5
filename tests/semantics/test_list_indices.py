"""A list of indices grown in a loop over tensors (``peaks.append(i)``) used to index an array,
``x[peaks]`` and ``x[peaks] = v``: NumPy reads a list of ints as an index array, so the graph
stacks the list in its integer dtype (an empty list selects nothing) and indexes with it when the
graph runs; a lookup table made while converting becomes a constant of the graph first. A list
of booleans, which stacks to a mask, falls back. Each case is compared with its eager run."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager


def _local_maxima(x):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1]:
            peaks.append(i)
    return peaks


def peak_values(x):
    return x[_local_maxima(x)]


def flatten_peaks_in_place(x):
    peaks = _local_maxima(x)
    x[peaks] = 0.0
    return len(peaks)


def rows_of_matrix(m):
    chosen = []
    for i in range(m.shape[0]):
        if m[i].sum() > 0:
            chosen.append(i)
    return m[chosen], m[chosen, 0]


SQUARES = np.arange(10.0) ** 2


def squares_of_positive_entries(x):
    picked = []
    for v in x:
        if v > 0:
            picked.append(int(v))
    return SQUARES[picked]


def mask_list(x):
    keep = []
    for v in x:
        keep.append(v > 0)
    return x[keep]


@pytest.mark.parametrize(
    "fn, args",
    [
        (peak_values, (np.array([0.0, 2.0, 1.0, 3.0, 0.5]),)),
        (peak_values, (np.array([3.0, 2.0, 1.0]),)),
        (flatten_peaks_in_place, (np.array([0.0, 2.0, 1.0, 3.0, 0.5]),)),
        (flatten_peaks_in_place, (np.arange(4.0),)),
        (rows_of_matrix, (np.array([[1.0, 2.0], [-3.0, 1.0], [0.5, 0.0]]),)),
        (rows_of_matrix, (-np.ones((2, 2)),)),
        (squares_of_positive_entries, (np.array([3.0, -1.0, 7.5]),)),
        (squares_of_positive_entries, (np.array([-3.0]),)),
    ],
)
def test_a_grown_list_of_ints_indexes_as_numpy_reads_it(fn, args):
    cf = assert_matches_eager(fn, *args)
    assert "list_stack" in cf.op_counts()


def test_a_grown_list_of_booleans_falls_back():
    cf = assert_matches_eager(mask_list, np.array([1.0, -1.0, 2.0]), compiles=False)
    assert "valid indices" in cf.fallback
