"""Builtins called from converted code: each handler gives what the builtin gives on static
values (it is the builtin), and on tensors emits graph ops whose run-time values, dtypes and
Python-scalar-ness match the builtin applied to the concrete values."""

import builtins
import io
import math

import numpy as np
import pytest

from tograph.backend import interpreter
from tograph.ir import types
from tograph.ops import lists, scalars
from tograph.staging import builtin_calls, iterables, text
from tograph.trace import builder as builder_mod
from tograph.trace import tensor

H = builtin_calls.HANDLERS
F64 = types.TensorType(np.float64, ())
WEAK_INT = types.TensorType(np.int64, (), weak=True)


def run(fn, *values):
    """Traces ``fn`` on symbolic stand-ins of ``values``, runs the graph on ``values``."""
    b = builder_mod.GraphBuilder("g")
    with b.active():
        args = [b.add_input(types.type_of(v), f"x{i}") for i, v in enumerate(values)]
        out = fn(*args)
        graph = b.finish(out if isinstance(out, tuple) else (out,))
    got = interpreter.interpret(graph, *values)
    return got if isinstance(out, tuple) else got[0]


def assert_same(got, expected):
    """Equal values of the same class (Python int vs np.int64 ...) and dtype."""
    assert type(got) is type(expected), (got, expected)
    np.testing.assert_array_equal(got, expected)
    assert np.asarray(got).dtype == np.asarray(expected).dtype


def test_every_builtin_has_a_handler():
    names = {"range", "len", "int", "float", "bool", "complex", "min", "max", "sum", "any"}
    names |= {"all", "print", "isinstance", "enumerate", "zip", "type", "str", "repr", "format"}
    names |= {"setattr", "delattr"}
    math_functions = {getattr(math, n) for n in scalars.MATH_FUNCTIONS}
    assert set(H) == {getattr(builtins, n) for n in names} | math_functions


@pytest.mark.parametrize(
    "fn, args",
    [
        (range, (2, 9, 3)),
        (len, ([1, 2, 3],)),
        (len, (np.ones((4, 2)),)),
        (int, ("ff", 16)),
        (int, (2.9,)),
        (int, ()),
        (float, ("1.5",)),
        (bool, ([],)),
        (min, (3, 1.5)),
        (max, ([1, 5, 2],)),
        (max, (np.float32(1), 2)),
        (sum, ([1, 2, 3], 10)),
        (sum, (np.arange(3.0),)),
        (any, ([0, 0, 1],)),
        (all, (np.array([True, False]),)),
        (isinstance, (3, (int, float))),
    ],
)
def test_static_arguments_get_the_builtin_itself(fn, args):
    got = H[fn](*args)
    expected = fn(*args)
    assert type(got) is type(expected) and got == expected


def test_static_max_with_keywords_is_the_builtin():
    assert H[max]([1, -5, 2], key=abs) == -5
    assert H[min]([], default=7) == 7


def test_static_enumerate_and_zip_are_pythons():
    assert list(H[enumerate]("ab", 1)) == [(1, "a"), (2, "b")]
    assert list(H[zip]([1, 2], "ab")) == [(1, "a"), (2, "b")]


def test_range_of_a_tensor_is_a_tensor_range():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        n = b.add_input(WEAK_INT, "n")
        r = H[range](1, n, 2)
        nested = H[range](n)
    assert isinstance(r, iterables.TensorRange) and (r.start, r.step) == (1, 2) and r.stop is n
    assert isinstance(nested, iterables.TensorRange) and nested.stop is n


@pytest.mark.parametrize("n", [0, 1, 7])
def test_len_of_tensors(n):
    assert H[len](np.ones((n, 2))) == n
    got = run(lambda x: H[len](x), np.ones((n, 2)))  # static first dim: a Python int
    assert_same(got, n)
    b = builder_mod.GraphBuilder("g")
    with b.active():
        d = b.add_input(types.TensorType(np.float64, (None, 2)), "d")
        length = H[len](d)
        lst = lists.as_list([np.float64(1.0)] * 3)
        list_length = H[len](lst)
        graph = b.finish([length, list_length])
    assert [str(t) for t in graph.out_types] == ["i64[]~", "i64[]~"]
    assert_same(interpreter.interpret(graph, np.ones((n, 2))), (n, 3))


@pytest.mark.parametrize("value", [2.7, -2.7, 0.0, 1e10])
def test_int_float_bool_of_a_tensor_are_weak_python_numbers(value):
    x = np.float64(value)
    got = run(lambda t: (H[int](t), H[float](t), H[bool](t)), x)
    for g, e in zip(got, (int(x), float(x), bool(x))):
        assert_same(g, e)
    assert_same(run(lambda t: H[float](t), np.int32(3)), 3.0)


@pytest.mark.parametrize(
    "values",
    [
        (np.float64(2.5), np.float64(-1.0)),
        (np.float64(2.5), 3),
        (np.float32(1.5), np.float64(0.5)),
        (np.int64(4), np.int64(9), np.int64(-2)),
    ],
    ids=repr,
)
def test_min_max_of_tensors_match_python_values(values):
    got = run(lambda *ts: (H[max](*ts), H[min](*ts)), *values)
    np.testing.assert_array_equal(got, (max(values), min(values)))


def test_min_max_of_python_numbers_stay_python_numbers():
    got = run(lambda w: (H[max](w, 1), H[min](w, 1), H[max]([w, 3, 2])), 5)
    assert_same(got, (5, 1, 5))
    b = builder_mod.GraphBuilder("g")
    with b.active():
        w = b.add_input(WEAK_INT, "w")
        s = b.add_input(F64, "s")
        assert H[max](w, 1).type == WEAK_INT
        assert H[max](s, 1).type == F64  # a NumPy value makes a NumPy result


def test_max_of_one_tensor_reduces_its_first_axis():
    x = np.array([3.0, -1.0, 7.5])
    assert_same(run(lambda t: H[max](t), x), max(x))
    assert_same(run(lambda t: H[min](t), x), min(x))


@pytest.mark.parametrize("start", [0, 10, 2.5])
def test_sum_of_a_tensor_adds_along_its_first_axis(start):
    x = np.arange(6.0).reshape(3, 2)
    got = run(lambda t: H[sum](t, start), x)
    np.testing.assert_array_equal(got, sum(x, start))
    assert got.dtype == sum(x, start).dtype


SEQUENTIAL = [
    np.random.default_rng(3).standard_normal(40),  # np.sum's pairwise order rounds differently
    np.random.default_rng(4).standard_normal(40).astype(np.float32),
    np.array([100, 100], dtype=np.int8),  # np.sum widens to int64; Python's additions wrap
    np.array([-0.0, -0.0]),  # 0 + -0.0 is 0.0
    np.array([True, False, True]),
]


@pytest.mark.parametrize("x", SEQUENTIAL, ids=lambda x: f"{x.dtype}[{len(x)}]")
@pytest.mark.parametrize("start", [0, 0.5])
def test_sum_adds_one_item_at_a_time_as_python_does(x, start):
    with np.errstate(over="ignore"):
        expected = sum(x, start)
    got = run(lambda t: H[sum](t, start), x)
    assert type(got) is type(expected) and got.tobytes() == expected.tobytes(), (got, expected)


def test_sum_of_a_tensor_list_stacks_it():
    def fn(s):
        lst = lists.push(lists.push(lists.new(), s), s * 2)
        return H[sum](lst)

    assert_same(run(fn, np.float64(1.5)), np.float64(4.5))


@pytest.mark.parametrize(
    "x",
    [np.array([0.0, 0.0, 0.0]), np.array([0.0, 2.0, 0.0]), np.array([1.0, 2.0, 3.0])],
    ids=repr,
)
def test_any_all_of_tensor_items_are_python_bools(x):
    got = run(lambda t: (H[any](t), H[all](t), H[any]([t[0], False]), H[all]((t[1], 1))), x)
    assert got == (any(x), all(x), any([x[0], False]), all((x[1], 1)))
    assert all(type(v) is bool for v in got)


def test_print_outside_a_graph_prints_at_once(capsys):
    H[print]("a", 1, sep="-", end="!\n")
    assert capsys.readouterr().out == "a-1!\n"


def test_print_to_a_file_prints_while_building():
    out = io.StringIO()
    b = builder_mod.GraphBuilder("g")
    with b.active():
        H[print]("static", 2, file=out)
    assert out.getvalue() == "static 2\n" and b.eqns == []


@pytest.mark.parametrize("sep, end", [(" ", "\n"), (", ", "."), (None, None), ("", "\n")])
def test_print_in_a_graph_prints_what_python_prints_when_it_runs(sep, end, capsys):
    x0, s0 = np.array([1.5, -2.0]), np.float64(0.25)
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x, s = b.add_input(types.type_of(x0), "x"), b.add_input(F64, "s")
        message = text.fstring("s=", text.formatted(s, -1, ".1f"), "!")
        H[print]("x:", x, message, 3, sep=sep, end=end)
        graph = b.finish([])
    assert capsys.readouterr().out == ""  # nothing while building
    assert [e.prim.name for e in graph.eqns] == ["print"]
    expected = io.StringIO()
    print("x:", x0, f"s={s0:.1f}!", 3, sep=sep, end=end, file=expected)
    interpreter.interpret(graph, x0, s0)
    assert capsys.readouterr().out == expected.getvalue()


def test_isinstance_of_a_tensor():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, (3,)), "x")
        assert H[isinstance](x, np.ndarray)
        assert H[isinstance](x, (str, np.ndarray))
        assert H[isinstance](x, tensor.TensorBase)
        assert not H[isinstance](x, (str, list))
        assert not H[isinstance](x, int)
        total = b.add_input(types.TensorType(np.float64, ()), "total")
        assert H[isinstance](total, np.floating) and not H[isinstance](total, np.ndarray)
        count = b.add_input(types.TensorType(np.int64, (), weak=True), "count")
        assert H[isinstance](count, int) and not H[isinstance](count, np.integer)
    assert b.eqns == []


def test_enumerate_and_zip_of_tensors_are_tensor_iterables():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, (3,)), "x")
        n = b.add_input(WEAK_INT, "n")
        assert isinstance(H[enumerate](x), iterables.TensorEnumerate)
        assert isinstance(H[enumerate](H[range](n), 1), iterables.TensorEnumerate)
        assert isinstance(H[zip](x, range(3)), iterables.TensorZip)
        assert isinstance(H[zip](range(2), x), iterables.TensorZip)
        assert not isinstance(H[zip](range(2), [x, x]), iterables.TensorIterable)
