"""Common subexpression elimination: by value for literals and params; never effects or lists."""

import dataclasses

import numpy as np
from pass_harness import F64_3, I64, check, cond, dedent, interpret, trace, while_loop

from tograph.ir import core, types
from tograph.ops import effects, lists
from tograph.passes import cse


def run_cse(graph, *args):
    result = cse.eliminate_common_subexpressions(graph)
    check(result.graph)
    assert result.graph.in_types == graph.in_types and result.graph.out_types == graph.out_types
    for got, expected in zip(interpret(result.graph, *args), interpret(graph, *args)):
        np.testing.assert_array_equal(got, expected)
    return result


def test_merges_identical_equations_and_compares_literals_by_type_and_value(x3):
    def fn(x):
        a, b = np.maximum(x, 0.0), np.maximum(x, 0.0)
        return a + b, x > 1, x > 1.0, x > 1, x > np.float32(1)

    graph = trace(fn, F64_3, hints=["x"])
    result = run_cse(graph, x3)
    assert result.modified
    assert str(result.graph) == dedent("""
        graph f(x:f64[3]):
          t0:f64[3] = maximum x 0.0
          t1:f64[3] = add t0 t0
          t2:bool[3] = greater x 1
          t3:bool[3] = greater x 1.0
          t4:bool[3] = greater x 1.0:f32
          return t1, t2, t3, t2, t4
    """)


def test_equations_that_may_warn_are_not_merged(x3):
    """Eager code warns on each evaluation: ``np.log(x)`` written twice warns twice."""

    def fn(x):
        return np.log(x) + np.log(x), x / 3 - x / 3

    result = run_cse(trace(fn, F64_3), x3)
    assert not result.modified
    names = [e.prim.name for e in result.graph.eqns]
    assert names.count("log") == 2 and names.count("divide") == 2
    merged = cse.eliminate_in_gradient(result.graph)  # a gradient graph has no eager warnings
    check(merged.graph)
    names = [e.prim.name for e in merged.graph.eqns]
    assert names.count("log") == 1 and names.count("divide") == 1


def test_params_are_compared_by_value(x3):
    def fn(x):
        a = x.astype(np.complex128)
        b = x.astype(np.dtype("complex128"))
        c = x.astype(np.clongdouble)
        return a, b, c

    result = run_cse(trace(fn, F64_3), x3)
    assert [e.prim.name for e in result.graph.eqns] == ["astype", "astype"]


def test_effects_and_list_operations_are_never_merged(capsys, x3):
    def fn(x):
        effects.print_(x)
        effects.print_(x)
        first = lists.stack(lists.push(lists.new(), x))
        second = lists.stack(lists.push(lists.new(), x))
        return first, second

    graph = trace(fn, F64_3)
    result = run_cse(graph, x3)
    assert result.graph is graph and not result.modified
    assert capsys.readouterr().out.count("\n") == 4


def test_nested_graphs_are_handled_on_their_own(x3):
    def body(n, i, s):
        return i + 1, np.maximum(s, 0.0) + np.maximum(s, 0.0)

    graph = trace(lambda x, n: while_loop(lambda n, i, s: i < n, body, [n], [0, x]), F64_3, I64)
    result = run_cse(graph, x3, np.int64(2))
    body_graph = result.graph.eqns[0].params["body_graph"]
    assert [e.prim.name for e in body_graph.eqns] == ["add", "maximum", "add"]


def test_nested_graphs_are_compared_by_identity(x3):
    def fn(x, n):
        p = n > 0
        (first,) = cond(p, lambda x: (np.maximum(x, 1.0),), lambda x: (x,), x)
        (again,) = cond(p, lambda x: (np.maximum(x, 1.0),), lambda x: (x,), x)
        return first, again

    graph = trace(fn, F64_3, I64)
    assert not run_cse(graph, x3, np.int64(1)).modified
    predicate, first = graph.eqns[0], graph.eqns[1]
    copy = dataclasses.replace(first, outputs=tuple(core.Var(v.type) for v in first.outputs))
    twice = graph.replace(
        eqns=(predicate, first, copy), outputs=(first.outputs[0], copy.outputs[0])
    )
    merged = run_cse(twice, x3, np.int64(1)).graph
    assert [e.prim.name for e in merged.eqns] == ["greater", "cond"]


@dataclasses.dataclass(frozen=True)
class _Param:
    items: tuple


def test_dataclass_params_compare_field_by_field_with_types():
    """A frozen dataclass's own equality says ``(True,) == (1,)`` and ``-0.0 == 0.0``."""
    assert cse.freeze(_Param((True,))) != cse.freeze(_Param((1,)))
    assert cse.freeze(_Param((-0.0,))) != cse.freeze(_Param((0.0,)))
    assert cse.freeze(_Param((1, slice(0, 2)))) == cse.freeze(_Param((1, slice(0, 2))))


def test_a_quiet_duplicate_nested_among_equations_that_may_warn_is_merged(x3):
    """Only a branch holds equations that can neither warn nor raise: CSE still looks there."""

    def fn(x, p):
        twice = lambda x: (np.maximum(x, 1.0) + np.maximum(x, 1.0),)  # noqa: E731
        (out,) = cond(p, twice, lambda x: (x,), x)
        return out / 3

    graph = trace(fn, F64_3, types.TensorType(np.dtype(bool), ()))
    result = run_cse(graph, x3, np.True_)
    assert result.modified
    then_graph = result.graph.eqns[0].params["then_graph"]
    assert [e.prim.name for e in then_graph.eqns] == ["maximum", "add"]


def test_a_graph_whose_equations_all_may_warn_is_returned_itself(x3):
    graph = trace(lambda x: (np.log(x) + np.log(x), x / 3 - x / 3), F64_3)
    result = run_cse(graph, x3)
    assert result.graph is graph and not result.modified
