"""A list comprehension filtered on tensors (``[i for i in range(n) if x[i] > t]``) compiles to a
loop whose filter is a cond around a list push, and matches the eager comprehension: values,
kinds, and the comprehension's variables not leaking into the function."""

import contextlib
import io
import warnings

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


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


def mean_of_losses(r):
    return np.mean([v for v in r if v < 0])


def count_and_share_above(x, t):
    n = 0
    n += len([v for v in x if v > t])
    return n, (t, [i for i in range(len(x)) if x[i] > t])


def largest_positive(x):
    return max(v for v in x if v > 0)


def sortino_ratio(returns, target=0.0):
    downside = [r - target for r in returns if r < target]
    spread = np.sqrt(sum(d * d for d in downside) / len(returns))
    return (np.mean(returns) - target) / spread


def printed_positives(x):
    print("kept", [round(float(v), 2) for v in x if v > 0])


@pytest.mark.parametrize(
    "fn, args",
    [
        (mean_of_losses, (np.array([0.5, -1.0, -2.0]),)),
        (count_and_share_above, (np.array([1.0, 3.0, 2.0]), 1.5)),
        (count_and_share_above, (np.array([1.0, 3.0, 2.0]), 5.0)),
        (largest_positive, (np.array([-1.0, 3.0, np.nan, 2.0]),)),
        (largest_positive, (np.array([np.nan, 1.0]),)),
        (largest_positive, (np.array([-1, 4, 4, 2]),)),
        (sortino_ratio, (np.array([0.01, -0.02, 0.03, -0.01]),)),
        (printed_positives, (np.array([1.25, -3.0, 2.5]),)),
    ],
)
def test_a_filtered_comprehension_inside_a_statement_compiles_and_matches_eager(fn, args):
    assert_matches_eager(fn, *args)


def test_max_of_a_list_filtered_empty_raises_pythons_error():
    """The list is empty only when the graph runs: the graph raises what ``max`` raises."""
    assert_matches_eager(largest_positive, np.array([-1.0, -2.0]))
    static = tg.to_static(largest_positive)
    static(np.array([1.0, -2.0]))
    with pytest.raises(ValueError) as caught:
        static(np.array([-1.0, -2.0]))
    with pytest.raises(ValueError) as eager:
        largest_positive(np.array([-1.0, -2.0]))
    assert str(caught.value) == str(eager.value)


def test_a_comprehension_filtered_on_a_tensor_that_stays_python_names_it():
    def in_a_short_circuit(x):  # a generator has a frame of its own in every Python version
        return x[0] > 0 and any(v > 1 for v in x if v > 0)

    with pytest.warns(tg.FallbackWarning, match="comprehension filtered on a tensor"):
        tg.to_static(in_a_short_circuit)(np.array([1.0, -1.0]))


def branch_on_filtered_counts(x):
    if len([v for v in x if v > 0]) > 1:
        return 1
    elif sum(v for v in x if v < 0) < -1:
        return 2
    return 3


@pytest.mark.parametrize(
    "x", [np.array([1.5, -2.0, 3.0]), np.array([-1.0, -2.0]), np.array([0.5, -0.5])]
)
def test_comprehensions_in_if_tests_compile_and_match_eager(x):
    assert_matches_eager(branch_on_filtered_counts, x)


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


def noisy_mean(x):
    print("mean of", x.shape[0])
    return x.mean()


def warns_before_the_filter(x):
    return (x / 0.0).sum() + sum(t for t in x if t > 0)


def two_filtered_means(x):
    print("stats", noisy_mean(x), np.mean([t for t in x if t > 0]) / (x[-1] - x[-1]))
    return np.mean([t for t in x if t > 0]), np.mean([t for t in x if t < 0])


def _outcome(fn, x):
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        result = fn(x.copy())
    messages = [str(w.message) for w in caught if not issubclass(w.category, tg.FallbackWarning)]
    return result, messages, out.getvalue()


@pytest.mark.parametrize("fn", [warns_before_the_filter, two_filtered_means])
@pytest.mark.parametrize("x", [np.array([0.5, -2.0, 3.0]), np.array([1.0, 2.0])])
def test_what_runs_before_a_filtered_list_is_computed_first_in_eagers_order(fn, x):
    """Fuzz seed 7027: a second filtered list in a statement fell back, since a call ran before
    it; the call now runs first, then the list is built, warnings and prints in eager's order."""
    cf = assert_matches_eager(fn, x)
    assert cf.fallback is None
    eager, static = _outcome(fn, x), _outcome(tg.to_static(fn), x)
    assert static[1:] == eager[1:]
    np.testing.assert_array_equal(static[0], eager[0])


class _Weights:
    def __init__(self, w):
        self.w = w


def filter_of_an_expression(x, o):
    positives = len(list(filter(lambda t: t > 0, o.w)))
    return positives, sum(list(filter(lambda t: t < 0, x[::-1] * 2)))


@pytest.mark.parametrize("x", [np.array([1.0, -2.0, 3.0]), np.array([-1.0, -1.0, 0.0])])
def test_a_filter_over_an_attribute_or_an_expression_compiles(x):
    """Fuzz seed 100009: ``list(filter(lambda ...))`` over ``o.w`` fell back; its items are
    evaluated first whatever expression gives them, as the comprehension's are."""
    assert_matches_eager(filter_of_an_expression, x, _Weights(x * 3))
