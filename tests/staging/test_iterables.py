"""Tensor iterables, what a ``for`` over tensors walks: ``TensorRange`` (length and items agree
with Python's ``range``, for symbolic bounds too), a tensor's first axis, a tensor list,
``TensorEnumerate`` and ``TensorZip``; and the errors for what they cannot do."""

import textwrap

import numpy as np
import pytest

import tograph as tg
from tograph import errors
from tograph.backend import interpreter
from tograph.ir import types
from tograph.ops import lists
from tograph.staging import iterables
from tograph.trace import builder as builder_mod

I64 = types.TensorType(np.int64, ())
WEAK_INT = types.TensorType(np.int64, (), weak=True)


def dedent(text):
    return textwrap.dedent(text).strip("\n")


def trace(fn, *in_types, names=None):
    b = builder_mod.GraphBuilder("g")
    with b.active():
        args = [b.add_input(t, n) for t, n in zip(in_types, names or ["x"] * len(in_types))]
        out = fn(*args)
        return b.finish(out if isinstance(out, tuple) else (out,))


RANGES = [
    (start, stop, step)
    for start in (-3, 0, 2)
    for stop in (-4, 0, 1, 7)
    for step in (-3, -1, 1, 2, 5)
]


@pytest.mark.parametrize("start, stop, step", RANGES)
def test_range_of_python_bounds_matches_python(start, stop, step):
    r = iterables.TensorRange(start, stop, step)
    expected = range(start, stop, step)
    assert r.length == len(expected)
    assert [r.item(i) for i in range(len(expected))] == list(expected)
    assert all(r.has_next(i) for i in range(len(expected)))
    assert not r.has_next(len(expected))


@pytest.mark.parametrize("args", [(5,), (2, 5), (2, 5, 1)])
def test_range_fills_in_start_and_step_as_python_does(args):
    r = iterables.TensorRange(*args)
    assert (r.start, r.stop, r.step) == (
        range(*args).start,
        range(*args).stop,
        range(*args).step,
    )


def test_range_with_a_symbolic_stop_computes_its_length_in_the_graph():
    graph = trace(lambda n: iterables.TensorRange(1, n, 2).length, I64, names=["n"])
    assert str(graph) == dedent("""
        graph g(n:i64[]):
          t0:i64[] = subtract n 1
          t1:i64[] = add t0 2
          t2:i64[] = subtract t1 1
          t3:i64[] = floor_divide t2 2
          t4:i64[] = maximum t3 0
          return t4
    """)
    for n in (-3, 0, 1, 2, 3, 8):
        (length,) = interpreter.interpret(graph, np.int64(n))
        assert length == len(range(1, n, 2))


@pytest.mark.parametrize("step", [-2, -1, 1, 3])
def test_range_with_symbolic_bounds_matches_python(step):
    def fn(start, stop, index):
        r = iterables.TensorRange(start, stop, step)
        return r.length, r.item(index)

    graph = trace(fn, I64, I64, WEAK_INT, names=["start", "stop", "i"])
    assert [str(t) for t in graph.out_types] == ["i64[]", "i64[]~"]
    for start in (-2, 0, 5):
        for stop in (-4, 0, 3, 9):
            expected = range(start, stop, step)
            length, first = interpreter.interpret(graph, np.int64(start), np.int64(stop), 0)
            assert length == len(expected)
            if expected:
                assert first == expected[0]
                *_, last = interpreter.interpret(
                    graph, np.int64(start), np.int64(stop), len(expected) - 1
                )
                assert last == expected[-1] and type(last) is int


def test_range_items_are_weak_like_python_ints():
    def fn(n, i):
        return iterables.TensorRange(n).item(i), iterables.TensorRange(np.int64(3), n).item(i)

    graph = trace(fn, I64, WEAK_INT, names=["n", "i"])
    assert graph.outputs[0] is graph.inputs[1]  # range(n)'s item is the index itself
    assert [str(t) for t in graph.out_types] == ["i64[]~", "i64[]~"]
    assert graph.eqns[-1].prim.name == "astype"  # NumPy start, Python-int item
    got = interpreter.interpret(graph, np.int64(9), 2)
    assert got == (range(9)[2], range(np.int64(3), 9)[2])
    assert [type(v) for v in got] == [int, int]


@pytest.mark.parametrize("start, stop", [(-5, 5), (5, -5), (0, 0), (3, 4)])
def test_range_with_a_symbolic_step_matches_python(start, stop):
    def fn(step, index):
        r = iterables.TensorRange(start, stop, step)
        return r.length, r.item(index)

    graph = trace(fn, I64, WEAK_INT, names=["step", "i"])
    for step in (-7, -3, -1, 1, 2, 4, 11):
        expected = range(start, stop, step)
        length, first = interpreter.interpret(graph, np.int64(step), 0)
        assert length == len(expected)
        if expected:
            assert first == expected[0]
    with pytest.raises(ValueError, match="must not be zero"):
        interpreter.interpret(graph, np.int64(0), 0)


def test_range_errors():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        n = b.add_input(I64, "n")
        with pytest.raises(ValueError, match="must not be zero"):
            iterables.TensorRange(0, n, 0)
        with pytest.raises(TypeError, match="1 to 3 arguments, got 0"):
            iterables.TensorRange()
        with pytest.raises(TypeError, match="got 4"):
            iterables.TensorRange(0, n, 1, 1)
        with pytest.raises(errors.TracerError, match="only a for statement over it becomes a loop"):
            iter(iterables.TensorRange(n))


def test_a_tensor_walks_its_first_axis():
    def fn(x, i):
        static = iterables.as_tensor_iterable(x)
        return static.length, static.item(i)

    graph = trace(fn, types.TensorType(np.float64, (4, 2)), WEAK_INT, names=["x", "i"])
    assert graph.outputs[0].value == 4
    x = np.arange(8.0).reshape(4, 2)
    _, row = interpreter.interpret(graph, x, 2)
    np.testing.assert_array_equal(row, x[2])


def test_a_tensor_with_an_unknown_first_dim_has_a_tensor_length():
    graph = trace(
        lambda x: iterables.as_tensor_iterable(x).length, types.TensorType(np.float64, (None,))
    )
    assert str(graph) == dedent("""
        graph g(x:f64[None]):
          t0:i64[]~ = dim[axis=0] x
          return t0
    """)
    assert interpreter.interpret(graph, np.ones(6)) == (6,)


def test_a_scalar_tensor_cannot_be_iterated():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        s = b.add_input(types.TensorType(np.float64, ()), "s")
        with pytest.raises(TypeError, match="0-d tensor"):
            iterables.as_tensor_iterable(s)


def test_a_tensor_list_walks_its_items():
    def fn(i):
        lst = lists.as_list([np.float64(1.5), np.float64(2.5)])
        loop = iterables.as_tensor_iterable(lst)
        return loop.length, loop.item(i)

    graph = trace(fn, WEAK_INT, names=["i"])
    assert [str(t) for t in graph.out_types] == ["i64[]~", "f64[]"]
    assert interpreter.interpret(graph, 1) == (2, 2.5)


@pytest.mark.parametrize("value", [[1, 2], (1,), range(3), np.arange(3), "ab", None])
def test_python_iterables_are_left_to_python(value):
    assert iterables.as_tensor_iterable(value) is None


def test_as_tensor_iterable_returns_tensor_iterables_as_they_are():
    r = iterables.TensorRange(0, 4)
    assert iterables.as_tensor_iterable(r) is r


def test_enumerate_counts_from_start():
    def fn(x, i):
        plain, shifted = iterables.TensorEnumerate(x), iterables.TensorEnumerate(x, 10)
        return (plain.length, *plain.item(i), *shifted.item(i))

    graph = trace(fn, types.TensorType(np.int64, (None,)), WEAK_INT, names=["x", "i"])
    x = np.array([7, 8, 9])
    for i in range(3):
        length, count, item, count10, item10 = interpreter.interpret(graph, x, i)
        assert (length, count, item, count10, item10) == (3, i, x[i], i + 10, x[i])
        assert type(count) is int and type(count10) is int


def test_zip_stops_at_the_shortest_and_accepts_python_ranges():
    def fn(x, y, i):
        z = iterables.TensorZip(x, y, range(1, 6))
        return (z.length, *z.item(i))

    graph = trace(
        fn,
        types.TensorType(np.float64, (None,)),
        types.TensorType(np.float64, (None, 2)),
        WEAK_INT,
        names=["x", "y", "i"],
    )
    x, y = np.arange(7.0), np.arange(8.0).reshape(4, 2)
    length, a, b, c = interpreter.interpret(graph, x, y, 3)
    assert length == len(list(zip(x, y, range(1, 6)))) == 4
    assert a == x[3] and c == 4
    np.testing.assert_array_equal(b, y[3])
    (length, *_) = interpreter.interpret(graph, x[:2], y, 0)
    assert length == 2


def test_zip_and_enumerate_reject_python_sequences_mixed_with_tensors():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, (3,)), "x")
        with pytest.raises(errors.UnsupportedError, match="mixing tensors with a list") as info:
            iterables.TensorZip(x, ["a", "b", "c"])
        assert info.value.construct == "zip/enumerate of tensors and Python sequences"
        with pytest.raises(errors.UnsupportedError, match="with a tuple"):
            iterables.TensorEnumerate((1, 2.5))


def count_and_last(n, step):
    count, last = 0, None
    for i in range(0, n, step):
        count += 1
        last = i
    return count, last


@pytest.mark.parametrize(
    "n, step",
    [(10, 2), (-10, -3), (3, 10), (5, -1), (0, -1), (7, 0)],
)
def test_a_loop_over_a_range_with_a_tensor_step_matches_eager(n, step):
    """``range(0, n, step)`` with a tensor step fell back; it is a loop whose trip count the
    graph computes, and a zero step raises Python's ``ValueError`` when the graph runs."""
    static = tg.to_static(count_and_last, fallback="error")
    args = (np.int64(n), np.int64(step))
    if step == 0:
        with pytest.raises(ValueError, match="must not be zero"):
            static(*args)
        return
    got, expected = static(*args), count_and_last(*args)
    assert got == expected
    assert [type(v) for v in got] == [type(v) for v in expected]


def uses_after_static_break(x):
    items = iter([1, 2, 3, 4])
    for v in items:
        if v == 2:
            break
    return x * next(items)


def counts_until_tensor_break(x):
    used = 0
    for k, part in enumerate([x, x * 2, x * 3]):
        if np.sum(part) > 10:
            break
        used = k + 1
    return used


def test_a_python_loop_takes_no_item_after_its_break():
    """The loop took the next item before testing its break flag: an iterator the function reads
    after the loop was one item further on than eagerly."""
    x = np.array([1.0, 2.0])
    np.testing.assert_array_equal(tg.to_static(uses_after_static_break)(x), x * 3)


@pytest.mark.parametrize("x", [np.array([0.5, -1.5, 2.0, 3.25]), np.array([9.0]), -np.ones(2)])
def test_a_python_loop_over_an_iterator_goes_on_under_a_tensor_break(x):
    """Once the break flag of a loop over enumerate(list) became a tensor, the rest of the items
    were read again from the spent iterator (one iteration was lost: 1 where eager gives 2)."""
    static = tg.to_static(counts_until_tensor_break, fallback="error")
    assert static(x) == counts_until_tensor_break(x)


def breaks_in_a_loop_over_map(x):
    def scaled(k):
        print("making", k)
        return x * k

    used = 0
    for part in map(scaled, [1, 2, 3]):
        if np.sum(part) > 4:
            break
        used += 1
    return used


def test_a_tensor_break_over_an_iterator_that_runs_code_falls_back(capsys):
    """Which items map() makes would depend on the tensor break: it made them all at once."""
    x = np.array([0.5, 1.0])
    with pytest.warns(tg.FallbackWarning, match=r"runs code to make each item \(map\)"):
        got = tg.to_static(breaks_in_a_loop_over_map)(x)
    compiled_out = capsys.readouterr().out
    assert got == breaks_in_a_loop_over_map(x)
    assert compiled_out == capsys.readouterr().out


def reversed_tensor_range(n):
    order = []
    for i in reversed(range(2, n, 3)):
        order.append(i)
    return order


@pytest.mark.parametrize("n", [12, 3, 2, -1])
def test_reversed_of_a_tensor_range(n):
    """reversed(range(n)) with a tensor bound raised TypeError while tracing (and fell back)."""
    static = tg.to_static(reversed_tensor_range, fallback="error")
    got, expected = static(np.int64(n)), reversed_tensor_range(np.int64(n))
    assert got == expected
    assert [type(v) for v in got] == [type(v) for v in expected]


def appends_to_the_list_it_walks(x):
    items = [x[0], x[1]]
    for v in items:
        if v > 0 and len(items) < 5:
            items.append(v * 0.5)
    return items


def reads_its_iterator_after_a_tensor_break(x):
    it = iter([x[0], x[1], x[2]])
    for v in it:
        if v < 0:
            break
    return list(it)


@pytest.mark.parametrize(
    "fn, reason",
    [
        (appends_to_the_list_it_walks, "a list that its body changes under a tensor condition"),
        (reads_its_iterator_after_a_tensor_break, "an iterator made with iter"),
    ],
)
@pytest.mark.parametrize("x", [np.array([0.5, -1.5, 2.0]), np.array([1.0, 2.0, 3.0])])
def test_loops_whose_items_would_depend_on_a_tensor_run_eagerly(fn, reason, x):
    """The loop walked the list as it was before a tensor if appended to it (3 items where eager
    has 5), and the rest of an iter() iterator was taken at once (list(it) empty after the loop)."""
    with pytest.warns(tg.FallbackWarning, match=reason):
        got = tg.to_static(fn)(x)
    expected = fn(x)
    assert len(got) == len(expected)
    assert all(type(a) is type(b) and a == b for a, b in zip(got, expected))


def breaks_in_a_loop_over_a_constant_array(x):
    acc = x * 0
    for t in np.linspace(0, 1, 5):
        acc = acc + t * x
        if acc > 3:
            break
    return acc


@pytest.mark.parametrize("x", [2.0, 0.5, -1.0])
def test_a_tensor_break_in_a_loop_over_an_array_made_while_tracing(x):
    """It fell back, the array's iterator taken for one that runs code per item."""
    static = tg.to_static(breaks_in_a_loop_over_a_constant_array, fallback="error")
    got, expected = static(np.float64(x)), breaks_in_a_loop_over_a_constant_array(np.float64(x))
    assert type(got) is type(expected) and got == expected


def weighted_by_a_shorter_list(x, weights):
    total = 0.0
    for v, w in zip(x, weights):
        total += v * w
    return total


@pytest.mark.parametrize(
    "x, weights",
    [
        (np.array([0.5, -1.5, 2.0]), [1.0, 0.5]),
        (np.array([0.5]), (2, 3, 4)),
        (np.zeros(0), [1.0]),
        (np.array([1, 2, 3], dtype=np.int32), [7, -1, 2, 9]),
    ],
)
def test_zip_of_a_tensor_and_a_list_of_numbers(x, weights):
    """zip(x, [1.0, 0.5]) fell back (a tensor zipped with a list); the numbers are a constant
    read at the loop's index, Python numbers as eagerly, and the loop stops at the shorter."""
    static = tg.to_static(weighted_by_a_shorter_list, fallback="error")
    got, expected = static(x, weights), weighted_by_a_shorter_list(x, weights)
    assert type(got) is type(expected) and got == expected
