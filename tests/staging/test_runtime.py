"""The runtime of lowered code: ``if_stmt``, ``while_stmt`` and ``for_stmt`` run Python on Python
values and emit ``cond`` / ``while_loop`` on tensors; ``and_``, ``or_`` and ``if_exp`` keep
Python's laziness (the branch not taken is never evaluated, or is traced inside a ``cond``);
``setitem``, ``list_append``, ``assert_``, ``raise_`` and ``call``.

Graph results are run by the interpreter and compared with the same logic run as plain Python.
"""

import random
import textwrap

import numpy as np
import pytest

import tograph as tg
from tograph import errors
from tograph.backend import interpreter
from tograph.ir import types
from tograph.ops import lists
from tograph.staging import runtime as rt
from tograph.trace import builder as builder_mod

F64 = types.TensorType(np.float64, ())
I64 = types.TensorType(np.int64, ())
F64_3 = types.TensorType(np.float64, (3,))


def dedent(text):
    return textwrap.dedent(text).strip("\n")


def trace(fn, *in_types, names):
    """The graph of ``fn`` on symbolic inputs named ``names``."""
    b = builder_mod.GraphBuilder("g")
    with b.active():
        args = [b.add_input(t, n) for t, n in zip(in_types, names)]
        out = fn(*args)
        return b.finish(out if isinstance(out, tuple) else (out,))


def prims(graph):
    return [e.prim.name for e in graph.eqns]


class Log:
    """Records which lazily evaluated pieces ran."""

    def __init__(self):
        self.ran = []

    def __call__(self, name, value):
        def piece(*_):
            self.ran.append(name)
            return value

        return piece


# ---- if_stmt -----------------------------------------------------------------------------------


@pytest.mark.parametrize("test, branch", [(True, "then"), (1, "then"), (0, "else"), ([], "else")])
def test_if_on_a_python_value_runs_one_branch(test, branch):
    log = Log()
    out = rt.if_stmt(
        test, log("then", (1, "a")), log("else", (2, "b")), (0, ""), ("n", "s"), ("n", "s")
    )
    assert log.ran == [branch]
    assert out == ((1, "a") if branch == "then" else (2, "b"))


def test_if_returns_only_the_live_outputs():
    out = rt.if_stmt(
        True, lambda a, b, c: (a + 1, b, c * 2), None, (1, 2, 3), ("a", "b", "c"), ("c", "a")
    )
    assert out == (6, 2)


def test_if_on_an_unassigned_condition_is_an_error():
    with pytest.raises(errors.ConversionError, match="variable 'flag' is used in an if condition"):
        rt.if_stmt(rt.Undefined("flag"), None, None, (), (), ())


def test_if_on_a_tensor_emits_a_cond():
    def fn(x):
        def then(y):
            return (x * 2,)

        def orelse(y):
            return (y,)

        return rt.if_stmt(x > 0, then, orelse, (-1.0,), ("y",), ("y",))

    graph = trace(fn, F64, names=["x"])
    assert str(graph) == dedent("""
        graph g(x:f64[]):
          t0:bool[] = greater x 0
          y:i8[], y_1:f64[] = cond t0 x
            then(x_1:f64[]):
              t1:f64[] = multiply x_1 2
              return 29:i8, t1
            else(x_2:f64[]):
              return 3:i8, -1.0:f64
          return y_1
    """)
    for x in (-3.0, 2.5):
        assert interpreter.interpret(graph, np.float64(x)) == ((x * 2 if x > 0 else -1.0),)


# ---- while_stmt --------------------------------------------------------------------------------


def test_while_on_python_values_runs_python():
    log = []

    def body(i, total):
        log.append(i)
        return i + 1, total + i

    assert rt.while_stmt(lambda i, total: i < 4, body, (0, 0), ("i", "total")) == (4, 6)
    assert log == [0, 1, 2, 3]
    assert rt.while_stmt(lambda i: False, None, (9,), ("i",)) == (9,)


def test_while_runs_python_iterations_until_the_condition_is_a_tensor():
    def fn(y):
        return rt.while_stmt(lambda x: x < 10.0, lambda x: (x + y,), (1.0,), ("x",))

    graph = trace(fn, F64, names=["y"])
    assert str(graph) == dedent("""
        graph g(y:f64[]):
          t0:f64[] = add 1.0 y
          x:f64[] = while_loop[num_consts=1] y t0
            cond(y_1:f64[], x_1:f64[]):
              t1:bool[] = less x_1 10.0
              return t1
            body(y_2:f64[], x_2:f64[]):
              t2:f64[] = add x_2 y_2
              return t2
          return x
    """)
    for y in (0.5, 3.0, 20.0):
        x = 1.0
        while x < 10.0:
            x = x + y
        assert interpreter.interpret(graph, np.float64(y)) == (x,)


def test_while_on_an_unassigned_condition_is_an_error():
    with pytest.raises(errors.ConversionError, match="'c' is used in a while condition"):
        rt.while_stmt(lambda: rt.Undefined("c"), None, (), ())


def test_a_python_list_entering_a_tensor_loop_becomes_a_tensor_list():
    def fn(n):
        def body(i, acc):
            return i + 1, rt.list_append(acc, i * 2)

        i, acc = rt.while_stmt(lambda i, acc: i < n, body, (0, []), ("i", "acc"))
        return i, lists.stack(acc)

    graph = trace(fn, I64, names=["n"])
    assert "list_new" in prims(graph) and "list_stack" in prims(graph)
    i, stacked = interpreter.interpret(graph, np.int64(4))
    assert i == 4
    np.testing.assert_array_equal(stacked, [0, 2, 4, 6])


# ---- for_stmt ----------------------------------------------------------------------------------


def test_for_over_a_python_iterable_unrolls():
    seen = []

    def body(item, total):
        seen.append(item)
        return (total + item,)

    assert rt.for_stmt([3, 4, 5], None, body, (0,), ("total",)) == (12,)
    assert seen == [3, 4, 5]
    assert rt.for_stmt([], None, body, (7,), ("total",)) == (7,)


def test_for_with_a_python_break_flag_stops_like_python():
    def body(item, done, total):
        total = total + item
        return total >= 5, total

    out = rt.for_stmt(range(10), lambda done, total: not done, body, (False, 0), ("done", "total"))
    total = 0
    for item in range(10):
        total += item
        if total >= 5:
            break
    assert out == (True, total)


def test_for_over_an_unassigned_iterable_is_an_error():
    with pytest.raises(errors.ConversionError, match="'items' is used in a for loop"):
        rt.for_stmt(rt.Undefined("items"), None, None, (), ())


@pytest.mark.parametrize("n", [0, 1, 5])
def test_for_over_a_tensor_range_is_a_while_loop(n):
    def fn(n, x):
        return rt.for_stmt(rt.call(range, n), None, lambda k, x: (x + k,), (x,), ("x",))

    graph = trace(fn, I64, F64, names=["n", "x"])
    assert prims(graph)[-1] == "while_loop"
    x = 0.5
    for k in range(n):
        x = x + k
    assert interpreter.interpret(graph, np.int64(n), np.float64(0.5)) == (x,)


def test_for_over_a_tensor_walks_its_rows():
    def fn(x):
        return rt.for_stmt(x, None, lambda row, total: (total + row * row,), (0.0,), ("total",))

    graph = trace(fn, types.TensorType(np.float64, (None,)), names=["x"])
    for x in (np.array([1.0, -2.0, 3.0]), np.zeros(0)):
        total = 0.0
        for row in x:
            total = total + row * row
        assert interpreter.interpret(graph, x) == (total,)


@pytest.mark.parametrize("x", [-10.0, 0.0, 2.5, 10.0])
def test_a_break_flag_that_becomes_a_tensor_continues_as_a_while_loop(x):
    def fn(x):
        def body(i, done, x):
            x = x + i
            return x > 3.0, x

        return rt.for_stmt(range(4), lambda done, x: rt.not_(done), body, (False, x), ("done", "x"))

    graph = trace(fn, F64, names=["x"])
    assert prims(graph)[-1] == "while_loop"
    done, value = False, x
    for i in range(4):
        if done:
            break
        value = value + i
        done = value > 3.0
    assert interpreter.interpret(graph, np.float64(x)) == (done, value)


@pytest.mark.parametrize("x", [-10.0, 0.0, 2.5])
def test_a_break_flag_over_a_python_list_guards_each_remaining_item(x):
    def fn(x):
        def body(item, done, x):
            x = x + item
            return x > 3.0, x

        return rt.for_stmt(
            [1.0, 2.0, 4.0], lambda done, x: rt.not_(done), body, (False, x), ("done", "x")
        )

    graph = trace(fn, F64, names=["x"])
    assert prims(graph).count("cond") == 2  # the items after the first
    done, value = False, x
    for item in [1.0, 2.0, 4.0]:
        if done:
            break
        value = value + item
        done = value > 3.0
    assert interpreter.interpret(graph, np.float64(x)) == (done, value)


def test_a_variable_starting_as_none_takes_its_type_from_a_first_iteration_in_python():
    def fn(x):
        def body(item, best):
            return (item if best is None else np.maximum(best, item),)

        return rt.for_stmt(x, None, body, (None,), ("best",))

    graph = trace(fn, F64_3, names=["x"])
    assert str(graph) == dedent("""
        graph g(x:f64[3]):
          t0:f64[] = getitem[index=[0]] x
          loop_index:i64[]~, best:f64[] = while_loop[num_consts=1] x 1 t0
            cond(x_1:f64[3], loop_index_1:i64[]~, best_1:f64[]):
              t1:bool[]~ = less loop_index_1 3
              return t1
            body(x_2:f64[3], loop_index_2:i64[]~, best_2:f64[]):
              t2:i64[]~ = add loop_index_2 1
              t3:f64[] = getitem[index=[$0]] x_2 loop_index_2
              t4:f64[] = maximum best_2 t3
              return t2, t4
          return best
    """)
    x = np.array([2.0, 7.0, -1.0])
    assert interpreter.interpret(graph, x) == (max(x),)


# ---- expressions -------------------------------------------------------------------------------


@pytest.mark.parametrize("left", [0, 3, "", "a", None, [], [0]])
@pytest.mark.parametrize("right", [0, "b"])
def test_and_or_not_on_python_values_are_pythons(left, right):
    log = Log()
    assert rt.and_(log("l", left), log("r", right)) == (left and right)
    assert log.ran == (["l", "r"] if left else ["l"])
    log = Log()
    assert rt.or_(log("l", left), log("r", right)) == (left or right)
    assert log.ran == (["l"] if left else ["l", "r"])
    assert rt.not_(left) is (not left)


def test_and_or_on_a_tensor_trace_the_right_side_inside_a_cond():
    def fn(x):
        return rt.and_(lambda: x > 0, lambda: x < 5), rt.or_(lambda: x < 0, lambda: x > 5)

    graph = trace(fn, F64, names=["x"])
    assert prims(graph) == ["greater", "cond", "less", "cond"]
    then, orelse = graph.eqns[1].params["then_graph"], graph.eqns[1].params["else_graph"]
    assert [e.prim.name for e in then.eqns] == ["less"]  # right() only where it is evaluated
    assert orelse.eqns == ()
    for x in (-1.0, 0.0, 3.0, 5.0, 7.0):
        x = np.float64(x)
        assert interpreter.interpret(graph, x) == ((x > 0) and (x < 5), (x < 0) or (x > 5))


@pytest.mark.parametrize("shape", [(), (1,), (1, 1)])
def test_not_of_a_tensor_is_a_python_bool(shape):
    graph = trace(lambda x: rt.not_(x), types.TensorType(np.int64, shape), names=["x"])
    assert "logical_not" in prims(graph) and str(graph.outputs[0].type) == "bool[]~"
    for x in (np.zeros(shape, np.int64), np.full(shape, 2)):
        (got,) = interpreter.interpret(graph, x)
        assert type(got) is bool and got == (not x)


def test_not_of_an_array_with_several_elements_raises_as_eager():
    with pytest.raises(ValueError, match="truth value of an array with more than one element"):
        trace(lambda x: rt.not_(x), types.TensorType(np.int64, (3,)), names=["x"])


@pytest.mark.parametrize("test", [True, False, 0, "x"])
def test_if_exp_on_a_python_value_evaluates_one_side(test):
    log = Log()
    assert rt.if_exp(test, log("body", 1), log("orelse", 2)) == (1 if test else 2)
    assert log.ran == (["body"] if test else ["orelse"])


def test_if_exp_on_a_tensor_is_a_cond():
    graph = trace(lambda x: rt.if_exp(x > 1, lambda: x * 10, lambda: -x), F64, names=["x"])
    assert str(graph) == dedent("""
        graph g(x:f64[]):
          t0:bool[] = greater x 1
          expression_value:f64[] = cond t0 x
            then(x_1:f64[]):
              t1:f64[] = multiply x_1 10
              return t1
            else(x_2:f64[]):
              t2:f64[] = negative x_2
              return t2
          return expression_value
    """)
    for x in (0.5, 2.0):
        assert interpreter.interpret(graph, np.float64(x)) == ((x * 10 if x > 1 else -x),)


def test_if_exp_on_an_unassigned_test_is_an_error():
    with pytest.raises(errors.ConversionError, match="'t' is used in a conditional expression"):
        rt.if_exp(rt.Undefined("t"), None, None)


# ---- statements on values ----------------------------------------------------------------------


def test_setitem_on_python_containers_is_in_place():
    items, table = [1, 2, 3], {"a": 1}
    rt.setitem(items, 1, 9)
    rt.setitem(table, "b", 2)
    assert items == [1, 9, 3] and table == {"a": 1, "b": 2}
    with pytest.raises(errors.ConversionError, match="'v' is used in an item assignment"):
        rt.setitem(rt.Undefined("v"), 0, 1)


def test_setitem_refuses_a_numpy_array_it_does_not_track():
    array = np.zeros(3)
    with pytest.raises(errors.UnsupportedError, match="does not track"):
        rt.setitem(array, slice(1, None), 5.0)
    np.testing.assert_array_equal(array, np.zeros(3))


def test_setitem_of_a_tensor_into_a_python_list_stores_it():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64, "x")
        items = [1.0, 2.0]
        rt.setitem(items, 0, x)
        assert items[0] is x
        table = {}
        rt.setitem(table, "k", x)
        assert table["k"] is x


def test_setitem_on_a_tensor_writes_it_in_place():
    def fn(x, i):
        rt.setitem(x, i, 7.0)
        return x

    graph = trace(fn, F64_3, I64, names=["x", "i"])
    x = np.array([1.0, 2.0, 3.0])
    expected = x.copy()
    expected[2] = 7.0
    np.testing.assert_array_equal(interpreter.interpret(graph, x, np.int64(2))[0], expected)
    np.testing.assert_array_equal(x, [1.0, 2.0, 3.0])  # the caller's array is untouched


def test_list_append():
    items = [1]
    assert rt.list_append(items, 2) is items and items == [1, 2]
    with pytest.raises(errors.ConversionError, match="'acc' is used in an append"):
        rt.list_append(rt.Undefined("acc"), 1)

    def fn(x):
        acc = rt.list_append(lists.new(), x)
        acc = rt.list_append(acc, x + 1)
        return lists.stack(acc)

    graph = trace(fn, F64, names=["x"])
    assert prims(graph) == ["list_new", "list_push", "add", "list_push", "list_stack"]
    np.testing.assert_array_equal(interpreter.interpret(graph, np.float64(2.0))[0], [2.0, 3.0])


def test_assert_on_python_values_raises_at_once_with_a_lazy_message():
    log = Log()
    rt.assert_(True, log("message", "never"))
    assert log.ran == []
    with pytest.raises(AssertionError) as info:
        rt.assert_(0, log("message", "x must be positive"))
    assert info.value.args == ("x must be positive",)
    with pytest.raises(AssertionError) as info:
        rt.assert_([], lambda: None)
    assert info.value.args == ()


def test_assert_on_a_tensor_is_checked_when_the_graph_runs():
    def fn(x):
        rt.assert_(x > 0, lambda: rt.fstring("x is ", rt.formatted(x, -1, ""), "!"))
        return x

    graph = trace(fn, F64, names=["x"])
    assert prims(graph) == ["greater", "assert"]
    assert interpreter.interpret(graph, np.float64(1.0)) == (1.0,)
    with pytest.raises(AssertionError, match="x is -2.0!"):
        interpreter.interpret(graph, np.float64(-2.0))


def test_raise_outside_tensor_control_flow_raises_now():
    with pytest.raises(KeyError):
        rt.raise_(KeyError)
    with pytest.raises(ValueError, match="bad"):
        rt.raise_(ValueError("bad"))
    b = builder_mod.GraphBuilder("g")
    with b.active(), pytest.raises(ValueError, match="top level"):
        rt.raise_(ValueError("top level"))


def test_raise_in_a_tensor_branch_raises_when_that_branch_runs():
    def fn(x):
        def then():
            rt.raise_(ValueError("negative"))
            return ()

        rt.if_stmt(x < 0, then, lambda: (), (), (), ())
        return x

    graph = trace(fn, F64, names=["x"])
    assert interpreter.interpret(graph, np.float64(1.0)) == (1.0,)
    with pytest.raises(ValueError, match="negative"):
        interpreter.interpret(graph, np.float64(-1.0))


# ---- call --------------------------------------------------------------------------------------


def test_call_uses_the_builtin_handlers():
    assert rt.call(len, [1, 2, 3]) == 3
    assert rt.call(max, 2, 5) == 5
    graph = trace(
        lambda n: rt.call(max, n, 1), types.TensorType(np.int64, (), weak=True), names=["n"]
    )
    assert interpreter.interpret(graph, 0) == (1,)


def test_call_routes_numpy_constructors_of_tensors_to_their_overrides():
    graph = trace(lambda n: rt.call(np.zeros, n), I64, names=["n"])
    np.testing.assert_array_equal(interpreter.interpret(graph, np.int64(4))[0], np.zeros(4))
    assert rt.call(np.zeros, 2).tolist() == [0.0, 0.0]  # static arguments: NumPy itself

    def pair(x):
        return rt.call(np.array, [x, x * 2])

    graph = trace(pair, F64, names=["x"])
    np.testing.assert_array_equal(interpreter.interpret(graph, np.float64(1.5))[0], [1.5, 3.0])


def test_call_stacks_tensor_lists_passed_to_numpy():
    def fn(x):
        acc = lists.push(lists.push(lists.new(), x), x * 3)
        return rt.call(np.mean, acc)

    graph = trace(fn, F64, names=["x"])
    assert "list_stack" in prims(graph)
    assert interpreter.interpret(graph, np.float64(2.0)) == (np.mean([2.0, 6.0]),)


@pytest.mark.parametrize(
    "fn",
    [
        np.random.get_state,
        np.random.default_rng(0).spawn,
        np.random.RandomState(0).tomaxint,
        random.sample,
        np.random.Generator,
        np.random.PCG64,
    ],
    ids=[
        "np.random.get_state",
        "Generator.spawn",
        "RandomState.tomaxint",
        "random.sample",
        "np.random.Generator",
        "np.random.PCG64",
    ],
)
def test_random_calls_that_are_not_draws_are_unsupported(fn):
    def calls():
        rt.call(fn)
        return np.float64(0.0)

    with pytest.raises(errors.UnsupportedError, match="is not a draw tograph compiles") as info:
        trace(calls, names=[])
    assert info.value.construct == "random number generation"


def test_making_a_generator_is_allowed():
    assert isinstance(rt.call(np.random.default_rng, 0), np.random.Generator)
    assert isinstance(rt.call(random.Random, 0), random.Random)


def test_call_converts_user_functions():
    def sign(x):
        if x > 0:
            return 1.0
        return -1.0

    graph = trace(lambda x: rt.call(sign, x), F64, names=["x"])
    assert "cond" in prims(graph)
    assert interpreter.interpret(graph, np.float64(-3.0)) == (-1.0,)
    assert rt.call(sign, 2.0) == 1.0


def test_call_of_an_unhashable_callable():
    class Unhashable:
        __hash__ = None

        def __call__(self, v):
            return v + 1

    assert rt.call(Unhashable(), 1) == 2


def _prints_in_its_condition(x):
    while print("test") or x.sum() < 3:
        x = x + 1
    return x


def test_a_while_condition_with_an_effect_acts_once_per_test(capsys):
    """Regression: the condition's first evaluation (to see whether it is a tensor) printed once
    more, before the loop, than eager code does."""
    expected = _prints_in_its_condition(np.zeros(2))
    eager_output = capsys.readouterr().out
    got = tg.to_static(_prints_in_its_condition, fallback="error")(np.zeros(2))
    assert capsys.readouterr().out == eager_output
    assert np.array_equal(got, expected)


class _Truthy:
    """A user object whose truth is its own: ``__bool__`` prints and tests a tensor; ``__len__``
    disagrees with it (Python asks ``__bool__`` first)."""

    def __init__(self, x):
        self.x = x
        self.items = [1, 2, 3]

    def __bool__(self):
        print("bool", self.x.shape)
        return bool(self.x.sum() > 0)

    def __len__(self):
        print("len")
        return len(self.items)


def _truth_uses(o, x):
    a = x + 1 if o else x - 1
    if o and x.max() > 1:
        a = a * 2
    n = 0
    while o and n < 3:
        n += 1
        o.x = o.x - 1
    return a, n, bool(o), not o


def _truth_of_made(x):
    return _truth_uses(_Truthy(x), x)


@pytest.mark.parametrize("x", [np.array([1.0, 2.0]), np.array([-1.0, 0.5]), np.array([5.0, 5.0])])
@pytest.mark.parametrize("fn", [_truth_uses, _truth_of_made])
def test_a_user_objects_truth_is_its_converted_bool_each_call(fn, x, capsys, recwarn):
    """``if o``, ``o and ...``, ``while o``, ``bool(o)`` and ``not o`` call the class's own
    ``__bool__`` (not ``__len__``) as converted code: its print happens when the graph runs, each
    call, and is not printed once more while the graph is built (an object made in the function
    printed ``bool <SymbolicTensor ...>`` and then fell back)."""
    args = (_Truthy(x), x) if fn is _truth_uses else (x,)
    want = fn(*args)
    eager_out = capsys.readouterr().out
    args = (_Truthy(x), x) if fn is _truth_uses else (x,)
    got = tg.to_static(fn)(*args)
    assert capsys.readouterr().out == eager_out
    assert [type(v) for v in got] == [type(v) for v in want]
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:] == want[1:]
    assert not [w for w in recwarn if issubclass(w.category, tg.FallbackWarning)]


class _Computed:
    """Attributes it does not hold are computed, with a print."""

    def __init__(self, x):
        self.x = x

    def __getattr__(self, name):
        print("getattr", name)
        return 5


def _reads_computed(g, x):
    return x + g.zz


def _makes_computed(x):
    g = _Computed(x)
    return g.x + g.zz


@pytest.mark.parametrize("fn", [_reads_computed, _makes_computed])
def test_a_class_that_computes_attributes_runs_eagerly(fn, capsys):
    """A read that reaches ``__getattr__`` ran it once while the graph was built (an object made
    in the function: later calls printed nothing), or at each call for the layout probes and the
    guards (an argument: ``getattr dtype``, ``getattr shape``, ``getattr zz`` twice); the function
    now runs eagerly, naming the class."""
    x = np.array([1.0, 2.0])
    args = (_Computed(1), x) if fn is _reads_computed else (x,)
    want = fn(*args)
    eager_out = capsys.readouterr().out
    static = tg.to_static(fn)
    with pytest.warns(tg.FallbackWarning, match="__getattr__"):
        got = static(*args)
    for _ in range(2):
        np.testing.assert_array_equal(got, want)
        assert capsys.readouterr().out == eager_out
        got = static(*args)


class _Running:
    """A running count whose ``mean`` (named like an array method) prints and tests it."""

    def __init__(self):
        self.k = 0

    def mean(self):
        print("mean", self.k)
        return max(self.k, 1)


def _counts_then_means(o, x):
    for v in x:
        if v > 0:
            o.k += 1
    return o.mean()


@pytest.mark.parametrize("x", [np.array([1.0, 2.0, -3.0]), np.array([-1.0, -2.0, -3.0])])
def test_an_argument_objects_method_named_like_an_array_method_is_converted(x, capsys, recwarn):
    """``o.mean()`` of an object passed in ran as plain Python while the graph was built: it
    printed ``mean <SymbolicTensor ...>`` and fell back on ``max`` of a tensor count."""
    eager_o = _Running()
    want = _counts_then_means(eager_o, x)
    eager_out = capsys.readouterr().out
    static = tg.to_static(_counts_then_means)
    for _ in range(2):
        o = _Running()
        assert static(o, x) == want
        assert type(o.k) is type(eager_o.k) and o.k == eager_o.k
        assert capsys.readouterr().out == eager_out
    assert not [w for w in recwarn if issubclass(w.category, tg.FallbackWarning)]
