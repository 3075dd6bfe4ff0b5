"""A lookup table read at an index computed from tensors (``FREQS[np.argmax(power)]``, a global
array, one computed from static values, a list of numbers): the table becomes a read-only
constant of the graph where the read is a copy (one element, or an index array), and results,
dtypes and Python-vs-NumPy kinds agree with eager code. A read that views the table (a row of a
2-d table, a slice) still runs eagerly, naming the line."""

import re

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg

LEVELS = np.array([0.5, 1.5, 2.5, 3.5])
GRID = np.arange(12.0).reshape(3, 4)
NAMES_AS_NUMBERS = [10, 20, 30, 40]
WEIGHTS = [0.25, 0.5, 0.75, 1.0]


def level_of_peak(x):
    return LEVELS[np.argmax(x)]


def cell_of_extremes(x):
    return GRID[np.argmin(x) % 3, np.argmax(x)]


def gathered(x):
    return LEVELS[np.argsort(x)[:2]]


def weighted_by_rank(x):
    return WEIGHTS[np.argmax(x)] * 2, NAMES_AS_NUMBERS[np.argmin(x)] + 1


def frequency_of_peak(x):
    freqs = np.fft.rfftfreq(len(x), 0.5)
    return freqs[np.argmax(np.abs(np.fft.rfft(x)))]


def negative_index(x):
    return LEVELS[-1 - np.argmax(x)]


def out_of_range(x):
    return LEVELS[np.argmax(x) + 4]


X = np.array([0.3, -1.2, 2.0, 0.7])


@pytest.mark.parametrize(
    "fn",
    [
        level_of_peak,
        cell_of_extremes,
        gathered,
        weighted_by_rank,
        frequency_of_peak,
        negative_index,
    ],
)
def test_a_table_indexed_by_a_tensor_compiles(fn):
    assert_matches_eager(fn, X)


def test_an_index_out_of_range_raises_when_the_graph_runs():
    assert_matches_eager(out_of_range, X)


def row_of_table(x):
    return GRID[np.argmax(x) % 3]


def test_a_view_of_the_table_runs_eagerly():
    cf = assert_matches_eager(row_of_table, X, compiles=False)
    assert re.search(r"test_lookup_tables\.py:\d+", cf.fallback), cf.fallback


def list_and_tuple_reads(x):
    return NAMES_AS_NUMBERS[int(x[0])], (1.5, 2.5)[int(x[1])]


@pytest.mark.parametrize("x", [[1.0, 0.0], [4.0, 0.0], [-4.0, 1.0], [-5.0, 0.0], [0.0, 2.0]])
def test_a_list_read_out_of_range_raises_python_s_index_error(x):
    x = np.array(x)
    assert_matches_eager(list_and_tuple_reads, x)
    try:
        expected = list_and_tuple_reads(x)
    except IndexError as exc:  # the oracle compares classes only: here the message too
        with pytest.raises(IndexError) as raised:
            tg.to_static(list_and_tuple_reads)(x)
        assert str(raised.value) == str(exc)
    else:
        assert tg.to_static(list_and_tuple_reads)(x) == expected


def ks_walk_over_sorted(x, y):
    xs, ys = sorted(x), sorted(y)
    i = j = 0
    d = 0.0
    while i < len(xs) and j < len(ys):
        v = min(xs[i], ys[j])
        while i < len(xs) and xs[i] == v:
            i += 1
        while j < len(ys) and ys[j] == v:
            j += 1
        d = max(d, abs(i / len(xs) - j / len(ys)))
    return d


def python_floats_read_back(x):
    values = [float(v) for v in x]
    k = int(np.argmax(x))
    return values[k], values[-k - 1], (x[0], x[1])[k % 2]


def tensor_read_of_sorted(x):
    ranked = sorted(x)
    return ranked[int(np.argmin(x)) + 1]


@pytest.mark.parametrize(
    "fn, args",
    [
        (ks_walk_over_sorted, (np.array([2.0, 1.0, 2.0, 4.0]), np.array([3.0, 2.0, 0.5]))),
        (ks_walk_over_sorted, (np.array([1, 3, 3], np.int32), np.array([3, 1, 2], np.int32))),
        (python_floats_read_back, (np.array([0.5, 3.0, 1.0]),)),
        (python_floats_read_back, (np.array([0.5, 3.0, 1.0], np.float32),)),
        (tensor_read_of_sorted, (np.array([2.0, 1.0, 3.0]),)),
        (tensor_read_of_sorted, (np.array([2.0, 3.0, 1.0]),)),
    ],
)
def test_a_list_of_scalar_tensors_of_one_kind_read_at_a_tensor_index_compiles(fn, args):
    """A list of NumPy scalars (``sorted(x)``) or of Python floats from tensors, read at an index
    known when the graph runs, is stacked and picked from (each item comes back of its kind); an
    index past its end raises Python's IndexError. It once fell back."""
    assert_matches_eager(fn, *args)
