"""Tensor lists: tracing, type rules, kernels, the single-push check, concrete behaviour."""

import textwrap

import numpy as np
import pytest

import tograph as tg
from tograph import errors
from tograph.backend import codegen
from tograph.ir import core, types
from tograph.ops import lists
from tograph.trace import builder

F64_3 = types.TensorType(np.float64, (3,))


def trace(fn, *in_types, hints=None):
    """The graph of ``fn`` on symbolic inputs of ``in_types``."""
    b = builder.GraphBuilder("f")
    with b.active():
        args = [b.add_input(t, h) for t, h in zip(in_types, hints or [None] * len(in_types))]
        out = fn(*args)
        return b.finish(out if isinstance(out, tuple) else (out,))


def dedent(text):
    return textwrap.dedent(text).strip("\n")


def build_and_read(x):
    lst = lists.as_list([])
    lst = lists.push(lst, x)
    lst = lists.push(lst, x * 2)
    return lists.stack(lst), lists.length(lst), lst[-1]


def test_traced_graph_golden_and_results():
    graph = trace(build_and_read, F64_3, hints=["x"])
    assert str(graph) == dedent("""
        graph f(x:f64[3]):
          t0:list[?] = list_new[elem=None]
          t1:list[f64[3]] = list_push t0 x
          t2:f64[3] = multiply x 2
          t3:list[f64[3]] = list_push t1 t2
          t4:f64[None,3] = list_stack[elem=f64[3]] t3
          t5:i64[]~ = list_length t3
          t6:f64[3] = list_read t3 -1
          return t4, t5, t6
    """)
    lists.check_single_push(graph)
    x = np.array([1.0, 2.0, 3.0])
    stacked, length, last = codegen.execute(graph, x)
    np.testing.assert_array_equal(stacked, np.stack([x, x * 2]))
    assert length == 2 and type(length) is int
    np.testing.assert_array_equal(last, x * 2)


def test_each_run_gets_a_fresh_list():
    graph = trace(lambda x: lists.stack(lists.as_list([x])), F64_3)
    x = np.ones(3)
    first = codegen.execute(graph, x)[0]
    second = codegen.execute(graph, x)[0]
    assert first.shape == second.shape == (1, 3)


def test_empty_list_with_known_elem_stacks_to_zero_rows():
    graph = trace(lambda x: lists.stack(lists.new(F64_3)) + x, F64_3)
    (out,) = codegen.execute(graph, np.ones(3))
    assert out.shape == (0, 3) and out.dtype == np.float64


def test_empty_list_of_unknown_elem_shape_fails_at_run_time():
    elem = types.TensorType(np.float64, (None,))
    with pytest.raises(errors.ShapeError, match="empty list of elements of type f64\\[None\\]"):
        lists.list_stack_p.impl([], elem=elem)


def test_stacking_a_list_nothing_is_pushed_to_fails_when_tracing():
    with pytest.raises(errors.ShapeError, match="need at least one array to stack"):
        trace(lambda x: lists.stack(lists.new()), F64_3)


def test_push_joins_shapes_of_equal_dtype():
    four = types.TensorType(np.float64, (4,))
    graph = trace(lambda x, y: lists.stack(lists.as_list([x, y])), F64_3, four)
    assert graph.eqns[2].outputs[0].type == types.ListType(types.TensorType(np.float64, (None,)))
    assert graph.out_types == (types.TensorType(np.float64, (None, None)),)


@pytest.mark.parametrize(
    "value, error, message",
    [
        (
            np.ones(3, np.float32),
            errors.DTypeError,
            r"f32\[3\] onto list\[f64\[3\]\].*astype\(np.float64\)",
        ),
        (np.ones((2, 2)), errors.ShapeError, r"f64\[2,2\] onto list\[f64\[3\]\].*same rank"),
    ],
)
def test_push_of_a_mismatched_value_names_both_types(value, error, message):
    with pytest.raises(error, match=f"(?s){message}"):
        trace(lambda x: lists.push(lists.as_list([x]), value), F64_3)


def test_python_numbers_and_numpy_values_do_not_mix():
    with pytest.raises(errors.DTypeError, match=r"(?s)f64\[\] onto list\[f64\[\]~\].*np.float64"):
        trace(lambda x: lists.push(lists.as_list([1.0]), np.float64(2.0)), F64_3)


def test_weak_elements_stack_to_a_strong_array():
    graph = trace(lambda x: lists.stack(lists.as_list([1, 2])), F64_3)
    assert str(graph.eqns[1].outputs[0].type) == "list[i64[]~]"
    (out,) = codegen.execute(graph, np.ones(3))
    assert graph.out_types[0] == types.TensorType(np.int64, (None,))
    assert out.dtype == np.int64 and out.tolist() == [1, 2]


def test_read_needs_an_integer_scalar_index():
    with pytest.raises(errors.DTypeError, match="integer scalar, got f64"):
        trace(lambda x: lists.as_list([x])[1.0], F64_3)


def test_read_with_a_tensor_index():
    index_type = types.TensorType(np.int64, ())
    graph = trace(lambda x, i: lists.as_list([x, x + 1])[i], F64_3, index_type)
    out = codegen.execute(graph, np.zeros(3), np.int64(1))[0]
    np.testing.assert_array_equal(out, np.ones(3))


@pytest.mark.parametrize(
    "use, error, message",
    [
        (len, errors.TracerError, "lists.length"),
        (iter, errors.TracerError, "lists.stack"),
        (np.stack, errors.TracerError, "lists.stack"),
        (np.array, errors.TracerError, "lists.stack"),
        (bool, errors.TracerError, "length"),
        (lambda lst: lst[1:], errors.UnsupportedError, "slicing"),
        (lambda lst: lst.append(1.0), errors.TracerError, "lists.push"),
    ],
)
def test_python_list_operations_explain_the_tensor_list_api(use, error, message):
    def fn(x):
        use(lists.as_list([x]))
        return x

    with pytest.raises(error, match=message):
        trace(fn, F64_3)


def test_push_onto_a_python_list_while_tracing_makes_a_tensor_list():
    graph = trace(lambda x: lists.stack(lists.push([np.zeros(3)], x)), F64_3)
    assert [e.prim.name for e in graph.eqns] == ["list_new", "list_push", "list_push", "list_stack"]
    out = codegen.execute(graph, np.ones(3))[0]
    np.testing.assert_array_equal(out, [np.zeros(3), np.ones(3)])


def test_concrete_lists_act_like_python_lists():
    lst = lists.as_list([1.0, 2.0])
    assert lst == [1.0, 2.0] and type(lst) is list
    lst = lists.push(lst, 3.0)
    assert lists.length(lst) == 3
    assert lists.read(lst, -1) == 3.0
    np.testing.assert_array_equal(lists.stack(lst), np.array([1.0, 2.0, 3.0]))


def test_as_list_returns_a_tensor_list_unchanged():
    def fn(x):
        lst = lists.as_list([x])
        assert lists.as_list(lst) is lst
        return x

    trace(fn, F64_3)


def _graph_with_pushes(second_push_input):
    """x -> list pushed twice; ``second_push_input`` picks which list the second push uses."""
    lst0 = core.Var(types.ListType(None))
    lst1 = core.Var(types.ListType(F64_3))
    lst2 = core.Var(types.ListType(F64_3))
    x = core.Var(F64_3, "x")
    eqns = (
        core.Eqn(lists.list_new_p, (), {"elem": None}, (lst0,)),
        core.Eqn(lists.list_push_p, (lst0, x), {}, (lst1,)),
        core.Eqn(
            lists.list_push_p, ({"old": lst0, "new": lst1}[second_push_input], x), {}, (lst2,)
        ),
    )
    return core.Graph("g", (x,), eqns, (lst2,))


def test_single_push_check_accepts_threaded_lists():
    lists.check_single_push(_graph_with_pushes("new"))


def test_single_push_check_rejects_a_list_pushed_twice():
    with pytest.raises(errors.InternalError, match="list_push t0 x` is used again by `t2:list"):
        lists.check_single_push(_graph_with_pushes("old"))


def test_single_push_check_rejects_a_pushed_list_returned():
    graph = _graph_with_pushes("new")
    graph = graph.replace(outputs=(graph.eqns[1].inputs[0],))
    with pytest.raises(errors.InternalError, match="used again as an output of graph g"):
        lists.check_single_push(graph)


def test_list_primitives_emit_readable_code():
    class Ctx:
        def const(self, value):
            return "c0"

    eqn = _graph_with_pushes("new").eqns[0]
    assert lists.list_new_p.emit(Ctx(), eqn, []) == "[]"
    assert lists.list_length_p.emit(Ctx(), eqn, ["l"]) == "len(l)"
    assert lists.list_read_p.emit(Ctx(), eqn, ["l", "i"]) == "l[i]"


def queue_of_recent_values(x):
    queue = []
    for v in x:
        queue.append(v)
        if len(queue) > 2:
            queue.pop(0)
    return queue


def test_a_list_method_a_tensor_list_lacks_falls_back_naming_it_and_its_line():
    x = np.array([1.0, 2.0, 3.0])
    static = tg.to_static(queue_of_recent_values)
    with pytest.warns(tg.FallbackWarning):
        assert static(x) == queue_of_recent_values(x)
    reason = static.concrete(x).fallback
    line = queue_of_recent_values.__code__.co_firstlineno + 5
    assert "list.pop() of a list that grows in a loop over tensors" in reason
    assert f"test_lists.py:{line})" in reason


def _collected(x, k, n):
    """Fuzz seed 986: a list appended in a tensor loop under a tensor if, handed to NumPy."""
    acc = []
    if k > 5:
        for i in range(n):
            acc.append(np.int64(x[i]))
    return np.array(acc), np.array(acc, dtype=np.float32), np.sum(acc), np.mean(x[: len(acc)])


@pytest.mark.parametrize("k, n", [(1, 3), (9, 3), (9, 0)])
def test_numpy_makes_an_empty_list_a_float64_array_in_graphs_too(k, n):
    """``np.array([])`` is float64 of shape (0,) whatever the list would hold: so is an empty
    tensor list NumPy is given (it was the elements' dtype, a silent difference)."""
    import warnings

    import tograph as tg

    x = np.arange(4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the mean of an empty slice, both sides
        want = _collected(x, np.int64(k), np.int64(n))
        got = tg.to_static(_collected, fallback="error")(x, np.int64(k), np.int64(n))
    for g, w in zip(got, want, strict=True):
        assert type(g) is type(w) and g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
