"""Sorting and searching Python lists of tensor values: each function, compiled once, gives on
many inputs (NaN, ties, -0.0 beside 0.0, infinities) what its eager run gives: the same items in
the same order, of the same kinds (``repr`` tells ``-0.0`` from ``0.0`` and ``1.0`` from
``np.float64(1.0)``), and leaves its arguments as eager leaves them."""

import bisect
import copy
import heapq
import re
import statistics
import warnings

import numpy as np
import pytest

import tograph as tg

_VALUES = [np.nan, -0.0, 0.0, 1.0, -1.0, 2.0, np.inf, 1.0]


def _arrays(n, dtype=np.float64, count=24, seed=0):
    rng = np.random.default_rng(seed)
    pool = np.array(_VALUES if np.dtype(dtype).kind == "f" else [3, -1, 0, 2, 2, -5])
    return [rng.choice(pool, size=n).astype(dtype) for _ in range(count)]


def _outcome(fn, args):
    args = copy.deepcopy(args)
    try:
        result = fn(*args)
    except Exception as exc:  # noqa: BLE001 - the outcome compared
        result = (type(exc), str(exc).splitlines()[0])
    return repr(result), repr(args)


def assert_matches_eager(fn, inputs):
    """``fn`` compiled (a fallback is an error) matches its eager run on each args tuple."""
    static = tg.to_static(fn, fallback="error")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for args in inputs:
            assert _outcome(static, args) == _outcome(fn, args), args


def sorted_items(x):
    vals = [x[i] for i in range(len(x))]
    return sorted(vals), sorted(vals, reverse=True)


def sorted_python_floats(x):
    vals = [float(x[i]) for i in range(len(x))]
    return sorted(vals, reverse=True)


def sort_in_place(x):
    vals = [x[i] for i in range(len(x))]
    vals.sort()
    return vals


def argsort_by_hand(x):
    return sorted(range(len(x)), key=lambda i: x[i])


def pairs_by_second(x):
    pairs = [(i, x[i]) for i in range(len(x))]
    return sorted(pairs, key=lambda p: p[1], reverse=True)


def pairs_as_tuples(x):
    pairs = [(x[i], -i) for i in range(len(x))]
    return sorted(pairs)


def absolute_extremes(x):
    vals = [x[i] for i in range(len(x))]
    return max(vals, key=abs), min(vals, key=lambda v: -v), min(vals, default=None)


def heap_picks(x):
    vals = [x[i] for i in range(len(x))]
    return heapq.nsmallest(2, vals), heapq.nlargest(3, vals, key=abs), heapq.nsmallest(1, vals)


def searches(x):
    vals = [x[i] for i in range(len(x) - 1)]
    v = x[len(x) - 1]
    return vals.count(v), vals.count(vals[0]), bisect.bisect_left(vals, v), bisect.bisect(vals, v)


def insort_items(x):
    lst = [x[0], x[1]]
    bisect.insort(lst, x[2])
    bisect.insort_left(lst, x[3])
    return lst


@pytest.mark.parametrize(
    "fn",
    [
        sorted_items,
        sorted_python_floats,
        sort_in_place,
        argsort_by_hand,
        pairs_by_second,
        pairs_as_tuples,
        absolute_extremes,
        heap_picks,
    ],
)
@pytest.mark.parametrize("n", [1, 5])
def test_orders_as_eager_python_does(fn, n):
    assert_matches_eager(fn, [(x,) for x in _arrays(n)])


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_other_dtypes_order_as_eager(dtype):
    for fn in (sorted_items, pairs_by_second, heap_picks):
        assert_matches_eager(fn, [(x,) for x in _arrays(6, dtype)])


def test_searches_and_insertions_match_eager():
    assert_matches_eager(searches, [(x,) for x in _arrays(5)])
    assert_matches_eager(insort_items, [(x,) for x in _arrays(4)])


def medians(x):
    vals = [x[i] for i in range(len(x))]
    return statistics.median(vals), statistics.median_low(vals), statistics.median_high(vals)


def membership(x):
    vals = [x[i] for i in range(len(x) - 1)]
    v = x[len(x) - 1]
    first = vals[0]
    return v in vals, v not in vals, first in vals, (v, 1) in [(vals[0], 1), (vals[1], 2)]


def index_of_last(x):
    vals = [x[i] for i in range(len(x) - 1)]
    return vals.index(x[len(x) - 1])


def index_in_range(x):
    vals = [x[i] for i in range(len(x))]
    return vals.index(x[0], 1)


def sort_argument(lst, x):
    lst.append(x[0])
    lst.sort(reverse=True)
    return len(lst)


def empty_and_single(x):
    none = [x[i] for i in range(0)]
    one = [x[0]]
    return sorted(none), sorted(one, key=abs), max(none, default=x[0]), heapq.nsmallest(0, one)


def test_medians_match_eager():
    for n in (1, 4, 5):
        assert_matches_eager(medians, [(x,) for x in _arrays(n)])


def test_membership_matches_eager():
    assert_matches_eager(membership, [(x,) for x in _arrays(4)])


def test_index_raises_eager_value_error_when_missing():
    inputs = [(x,) for x in _arrays(4)]
    assert any("not in list" in _outcome(index_of_last, args)[0] for args in inputs)
    assert_matches_eager(index_of_last, inputs)
    assert_matches_eager(index_in_range, inputs)


def test_index_with_unused_result_still_raises():
    def unused(x):
        vals = [x[0], x[1]]
        vals.index(x[2])
        return x[0]

    assert_matches_eager(unused, [(np.array([1.0, 2.0, 3.0]),), (np.array([1.0, 2.0, 2.0]),)])


def test_an_argument_list_ends_sorted_as_eager_leaves_it():
    inputs = [([np.float64(v) for v in x[1:]], x) for x in _arrays(4)]
    assert_matches_eager(sort_argument, inputs)


def test_empty_and_one_item_lists_match_eager():
    assert_matches_eager(empty_and_single, [(x,) for x in _arrays(2)])


def test_long_lists_sort_as_eager():
    """Past CPython's shortest run (64 items) its sort merges runs; NaN shows that too."""
    assert_matches_eager(sorted_items, [(x,) for x in _arrays(150, count=4)])


def _fallback_reason(fn, *args):
    with pytest.warns(tg.FallbackWarning) as caught:
        result = tg.to_static(fn)(*args)
    assert _outcome(lambda *a: result, args) == _outcome(fn, args)
    return str(caught[0].message)


def mixed_kinds(x):
    vals = [x[0], float(x[1]), np.float32(x[2]), 1.0]
    pairs = [(vals[i], i) for i in range(len(vals))]
    return sorted(vals), max(vals, key=abs), sorted(pairs, reverse=True), min(vals[:2])


def test_items_of_mixed_kinds_keep_their_kinds():
    assert_matches_eager(mixed_kinds, [(x,) for x in _arrays(3)])


def test_items_of_integers_and_floats_fall_back_naming_sorted_and_line():
    def mixed(x):
        vals = [x[0], int(x[1])]
        return sorted(vals)

    reason = _fallback_reason(mixed, np.array([2.0, 1.0]))
    assert "sorted() of a list of tensor values" in reason
    assert f":{mixed.__code__.co_firstlineno + 2})" in reason


def test_a_list_grown_in_a_tensor_loop_falls_back_naming_the_construct():
    def grown(x):
        vals = []
        i = 0
        while x[i] > 0:
            vals.append(x[i])
            i += 1
        return sorted(vals)

    reason = _fallback_reason(grown, np.array([2.0, 1.0, -1.0]))
    assert "sorted() of a list of tensor values: its length is known only" in reason


def _heap_top_k(x, k):
    heap = []
    for v in x:
        if len(heap) < k:
            heapq.heappush(heap, v)
        elif v > heap[0]:
            heapq.heapreplace(heap, v)
    return sorted(heap)


def _heap_of_pairs(x):
    heap = [(x[i], i) for i in range(len(x))]
    heapq.heapify(heap)
    return heapq.heappop(heap)


@pytest.mark.parametrize(
    "fn, args, name",
    [
        (_heap_top_k, (np.array([3.0, 1.0, 4.0, 1.5]), 2), "heappush"),
        (_heap_of_pairs, (np.array([2.0, 0.5]),), "heapify"),
    ],
)
def test_heapq_changes_on_tensor_values_fall_back_naming_the_function(fn, args, name):
    """heapq's in-place functions on tensor values fall back naming themselves and the line
    (heappush inside a tensor loop once leaked a tracer instead), and give eager's answer."""
    reason = _fallback_reason(fn, *args)
    assert f"heapq.{name}() of a list of tensor values" in reason
    assert re.search(r"test_ordering\.py:\d+\)", reason)


def test_heapq_on_values_known_while_building_runs_as_python():
    def static_heap(x):
        heap = [5, 1, 4]
        heapq.heapify(heap)
        smallest = heapq.heappop(heap)
        heapq.heappush(heap, 0)
        return x * smallest + heap[0]

    assert_matches_eager(static_heap, [(np.array([1.0, 2.0]),)])


def test_array_items_fall_back():
    def rows(m):
        return sorted([m[0], m[1]], key=lambda r: r[0])

    reason = _fallback_reason(rows, np.array([[2.0, 1.0], [1.0, 0.0]]))
    assert "is an array, which eager's result would hold itself" in reason


def weighted_order(x):
    vals = [x[i] for i in range(len(x))]
    ranked = sorted(vals, key=abs, reverse=True)
    return ranked[0] * 3.0 + ranked[1] * ranked[2] + max(vals, key=lambda v: -v)


def test_gradient_through_a_sort_matches_finite_differences():
    x = np.array([0.3, -1.2, 0.7, 2.1])
    got = tg.grad(weighted_order)(x)
    eps = 1e-6
    expected = [
        (weighted_order(x + eps * e) - weighted_order(x - eps * e)) / (2 * eps)
        for e in np.eye(len(x))
    ]
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


def arrays_and_tuples(x):
    return sorted(x, reverse=True), min((x[0], 1), (x[1], 0)), max(x[0], x[1], key=lambda v: v * v)


def test_arrays_and_tuples_of_items_match_eager():
    assert_matches_eager(arrays_and_tuples, [(x,) for x in _arrays(3)])


def test_string_items_picked_by_a_tensor_key_fall_back():
    def names(x):
        return sorted(["a", "b"], key=lambda n: x[0] if n == "a" else x[1])

    reason = _fallback_reason(names, np.array([2.0, 1.0]))
    assert "an item holds a str, which a graph cannot pick" in reason


def named_arrays_in_order(params, x):
    y = x
    for name, p in sorted(params.items()):
        y = p @ y if p.ndim == 2 else y + p
        if y.sum() < 0:
            y = -y
    names = [n for n, _ in sorted(params.items(), key=lambda kv: (kv[0], kv[1]), reverse=True)]
    return y, names


def test_pairs_ordered_by_distinct_first_parts_compile():
    """``sorted(d.items())`` of arrays: the keys differ, so Python never compares the arrays and
    the order is known while tracing (it fell back: a str item has no graph order)."""
    params = {"w": np.array([[1.0, 2.0], [3.0, 4.0]]), "b": np.ones(2), "a": -np.ones(2)}
    inputs = [(params, np.array([1.0, -1.0])), (params, np.array([-3.0, 0.5]))]
    assert_matches_eager(named_arrays_in_order, inputs)


def repeated_first_parts(x):
    return sorted([(1, x[0]), (0, x[1]), (1, x[2])])


def test_pairs_with_a_repeated_first_part_are_still_compared_whole():
    assert_matches_eager(repeated_first_parts, [(x,) for x in _arrays(3)])
