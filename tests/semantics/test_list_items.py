"""Item assignment to a Python list of numbers inside an ``if`` or loop over tensors
(``counts[k] += 1``, ``dp[i] = max(...)``, ``marks[-1] = True``): the list becomes a tensor list
and each write a ``list_set``, at a static or tensor index, as eager code writes it (an index out
of range raises ``IndexError`` when the graph runs); an argument list is given its final
contents after the run. What cannot be exact falls back with the construct named: a list of
arrays, a number of another kind than the list's, and a list holding lists (the graph would hand
out one such list on every call)."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, outcome

import tograph as tg


def histogram(x, bins):
    counts = [0] * bins
    for v in x:
        if v < 0 or v >= 1:
            continue
        k = int(v * bins)
        counts[k] += 1
    return counts


def lengths_of_runs(x):
    best = [0, 0]
    run = 0
    for v in x:
        if v > 0:
            run += 1
            best[0] = max(best[0], run)
        else:
            best[-1] += 1
            run = 0
    return best


def marks_from_the_end(x):
    marks = [False, False, False]
    i = 0
    while i < len(x) and x[i] > 0:
        marks[-1 - i % 3] = True
        i += 1
    return marks, i


def store_at(x):
    slots = [0, 0]
    if x[0] > 0:
        slots[int(x[0])] = 5
    return slots


@pytest.mark.parametrize(
    "fn, args",
    [
        (histogram, (np.array([0.1, 0.5, 0.55, -1.0, 0.99, 1.0]), 4)),
        (lengths_of_runs, (np.array([1.0, 2.0, -1.0, 3.0, 0.0, 0.0]),)),
        (marks_from_the_end, (np.array([1.0, 2.0, 3.0, 4.0, -1.0]),)),
        (marks_from_the_end, (np.array([-1.0]),)),
        (store_at, (np.array([1.0]),)),
        (store_at, (np.array([3.0]),)),  # IndexError when the graph runs, as eagerly
    ],
)
def test_item_assignment_to_a_list_of_numbers_compiles(fn, args):
    cf = assert_matches_eager(fn, *args)
    assert "list_set" in cf.op_counts()


def test_a_loop_that_never_runs_leaves_the_list_as_made():
    assert_matches_eager(histogram, np.array([], dtype=np.float32), 2)


def _argument_list(x, slots):
    if x[0] > 0:
        slots[0] = 1
    return slots


def _list_of_arrays(x):
    rows = [np.zeros(2), np.ones(2)]
    if x[0] > 0:
        rows[0] = x[:2]
    return rows


def _python_floats_given_numpy_ones(x):
    sums = [0.0, 0.0]
    for i in range(2):
        if x[i] > 0:
            sums[i] = sums[i] + x[i]
    return sums


def _rows_of_a_table(x):
    table = [[0, 1]]
    if x[0] > 0:
        table.append([5, 5])
    return table


def _index_value_pairs(x):
    found = []
    for i in range(len(x)):
        if x[i] > 0:
            found.append((i, x[i]))
    return found


def _pairs_of_tensors(x):
    pairs = []
    for i in range(2):
        if x[i] > 0:
            pairs.append((x[i], i))
    return pairs


def _formatted_rows(x):
    rows = ["head"]
    for i, v in enumerate(x):
        rows.append(f"{i:3d} {v:6.2f}")
    return "\n".join(rows)


def _nones_per_item(x):
    marks = []
    for v in x:
        marks.append(None)
    return marks


@pytest.mark.parametrize(
    "fn, args, construct",
    [
        (_formatted_rows, (np.array([1.0, -2.0]),), "string of a tensor"),
        (_nones_per_item, (np.array([1.0, -2.0]),), "item of a tensor list that is no array"),
        (_index_value_pairs, (np.array([1.0, -2.0, 3.0]),), "tuple of tensors in a tensor list"),
        (_list_of_arrays, (np.array([1.0, 2.0]),), "tensor list of arrays"),
        (_python_floats_given_numpy_ones, (np.array([1.0, 2.0]),), "DTypeError"),
        (_rows_of_a_table, (np.array([1.0]),), "mutable item of a tensor list"),
        (_pairs_of_tensors, (np.array([1.0, -2.0]),), "tuple of tensors in a tensor list"),
    ],
)
def test_what_cannot_be_exact_falls_back_naming_the_construct(fn, args, construct):
    assert_matches_eager(fn, *args, compiles=False)
    _, _, fallbacks = outcome(tg.to_static(fn), args)
    assert len(fallbacks) == 1 and construct in fallbacks[0], fallbacks


@pytest.mark.parametrize("x", [np.array([1.0]), np.array([-1.0])])
def test_an_argument_list_is_written_back(x):
    slots = [0, 0]
    assert_matches_eager(_argument_list, x, slots)
    assert tg.to_static(_argument_list)(x, slots) is slots


def test_a_list_made_in_the_function_is_new_on_every_call():
    static = tg.to_static(_rows_of_a_table)
    with pytest.warns(tg.FallbackWarning):
        first = static(np.array([1.0]))
    first[0][0] = 99
    first[1][0] = 77
    assert static(np.array([1.0])) == [[0, 1], [5, 5]]


def test_gradients_flow_through_items_assigned():
    def tallied(w):
        sums = [0.0, 0.0]
        for i in range(len(w)):
            sums[i % 2] += float(w[i]) ** 2
        return sums[0] * sums[1]

    w = np.array([0.5, -1.0, 2.0])
    got = tg.grad(tg.to_static(tallied, fallback="error"))(w)
    expected = np.array([2 * 0.5 * 1.0, 2 * -1.0 * (0.25 + 4.0), 2 * 2.0 * 1.0])
    np.testing.assert_allclose(got, expected)
