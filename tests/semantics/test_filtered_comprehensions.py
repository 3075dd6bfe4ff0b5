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


def filtered_lists_inside_expressions(x, b):
    v = b * sum(t for t in b if t != 0)
    k = len(list(filter(lambda t: t > 0, x)))
    x[0:1] /= len(list(filter(lambda t: t > 0, x))) + 1
    if sum([t * 2 for t in x if t > 3]) == np.argmax(x):
        k += 1
    print("n", len([t for t in x if t > 0]), sum(t for t in x if t > 0))
    n = np.float64(sum([t * 2 for t in x if t > 3]))
    return v, k, n, max(t for t in x if t < 100)


def largest_below(x, t):
    return max(v for v in x if v < t)


@pytest.mark.parametrize(
    "fn, args",
    [
        (filtered_lists_inside_expressions, (np.array([1.0, -2.0, 3.0]), np.array([1, 0, 1]))),
        (filtered_lists_inside_expressions, (np.array([-1.0, -2.0, 4.0]), np.array([0, 0, 0]))),
        (largest_below, (np.array([1.0, 5.0, 3.0]), 4.0)),
        (largest_below, (np.array([1.0, 5.0, 3.0]), 0.0)),  # empty: max() raises Python's error
    ],
)
def test_a_filtered_list_inside_an_expression_compiles_and_matches_eager(fn, args, capsys):
    """Fuzz seeds 0, 18, 26, 63, 86: a filter on tensors inside an expression (a generator
    given to sum, ``list(filter(lambda ...))``) fell back; the list is now built before the
    statement, where nothing the statement evaluates first can tell."""
    assert_matches_eager(fn, *args)
    printed = capsys.readouterr().out  # the oracle's eager run, then the compiled one
    assert printed[: len(printed) // 2] == printed[len(printed) // 2 :]


def warns_before_the_filter(x):
    return (x / 0.0).sum() + sum(t for t in x if t > 0)


def filter_in_a_short_circuit(x):
    return x[0] > 0 and len([t for t in x if t > 1]) > 1


@pytest.mark.parametrize("fn", [warns_before_the_filter, filter_in_a_short_circuit])
def test_a_filtered_list_after_something_observable_or_conditional_stays(fn):
    """Built first, the list would warn or run before (or without) what precedes it."""
    cf = assert_matches_eager(fn, np.array([0.5, 2.0, 3.0]), compiles=False)
    assert cf.fallback is not None and "truth value" in cf.fallback
