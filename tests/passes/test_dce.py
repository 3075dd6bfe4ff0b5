"""Dead code elimination, including inside cond and while_loop, never dropping effects."""

import numpy as np
import pytest
from pass_harness import F64, F64_3, I64, check, cond, dedent, interpret, trace, while_loop

import tograph as tg
from tograph.ops import effects, lists
from tograph.passes import dce


def run_dce(graph, *args):
    """The graph after DCE, checked, with the same results as before."""
    result = dce.eliminate_dead_code(graph)
    check(result.graph)
    assert result.graph.in_types == graph.in_types and result.graph.out_types == graph.out_types
    for got, expected in zip(interpret(result.graph, *args), interpret(graph, *args)):
        np.testing.assert_array_equal(got, expected)
    return result


def test_drops_unused_equations_and_keeps_effects(capsys, x3):
    def fn(x, s):
        np.sin(x)
        shown = np.cos(x)
        effects.print_("cos", shown)
        effects.assert_(s > 0, "s must be positive")
        return np.exp(x)

    graph = trace(fn, F64_3, F64, hints=["x", "s"])
    result = run_dce(graph, x3, np.float64(1.0))
    assert result.modified
    assert str(result.graph) == dedent("""
        graph f(x:f64[3], s:f64[]):
          t0:f64[3] = cos x
          print[end='\\n', sep=' ', template=('cos', None)] t0
          t1:bool[] = greater s 0
          assert[message=('s must be positive',)] t1
          t2:f64[3] = exp x
          return t2
    """)
    assert capsys.readouterr().out.count("cos [") == 2


def test_a_graph_without_dead_code_is_returned_as_is():
    graph = trace(lambda x: np.exp(x) + 1, F64_3)
    result = dce.eliminate_dead_code(graph)
    assert result.graph is graph and not result.modified


def _two_output_cond(x, n):
    a = np.exp(x)
    y, _ = cond(n > 0, lambda x, a: (x + 1, a * 2), lambda x, a: (x - 1, np.cos(a)), x, a)
    return y


def test_unused_cond_outputs_and_operands_are_removed(x3):
    graph = trace(_two_output_cond, F64_3, I64, hints=["x", "n"])
    result = run_dce(graph, x3, np.int64(1))
    run_dce(graph, x3, np.int64(-1))
    assert str(result.graph) == dedent("""
        graph f(x:f64[3], n:i64[]):
          t0:bool[] = greater n 0
          t1:f64[3] = cond t0 x
            then(x_1:f64[3]):
              t2:f64[3] = add x_1 1
              return t2
            else(x_2:f64[3]):
              t3:f64[3] = subtract x_2 1
              return t3
          return t1
    """)


def test_an_unused_cond_is_removed_unless_a_branch_has_effects(capsys, x3):
    def fn(x, n, show):
        then = (lambda x: effects.print_("then", x) or (x,)) if show else (lambda x: (x * 2,))
        cond(n > 0, then, lambda x: (x,), x)
        return x

    quiet = run_dce(trace(lambda x, n: fn(x, n, False), F64_3, I64), x3, np.int64(1)).graph
    assert [e.prim.name for e in quiet.eqns] == []
    loud = trace(lambda x, n: fn(x, n, True), F64_3, I64)
    kept = run_dce(loud, x3, np.int64(1)).graph
    assert [e.prim.name for e in kept.eqns] == ["greater", "cond"]
    assert kept.eqns[1].outputs == ()
    capsys.readouterr()
    interpret(kept, x3, np.int64(1))
    assert capsys.readouterr().out.startswith("then [")


def _loop(x, n, c):
    def body(n, c, i, s, junk, acc):
        return i + 1, s + acc, junk * c, acc + 1.0

    return while_loop(lambda n, c, i, s, junk, acc: i < n, body, [n, c], [0, 0.0, x, 1.0])


def test_independent_unused_loop_carries_and_their_consts_are_removed(x3):
    graph = trace(lambda x, n, c: _loop(x, n, c)[1], F64_3, I64, F64, hints=["x", "n", "c"])
    result = run_dce(graph, x3, np.int64(4), np.float64(3.0))
    assert str(result.graph) == dedent("""
        graph f(x:f64[3], n:i64[], c:f64[]):
          t0:i64[]~, t1:f64[]~, t2:f64[]~ = while_loop[num_consts=1] n 0 0.0 1.0
            cond(n_1:i64[], t3:i64[]~, t4:f64[]~, t5:f64[]~):
              t6:bool[] = less t3 n_1
              return t6
            body(n_2:i64[], t7:i64[]~, t8:f64[]~, t9:f64[]~):
              t10:i64[]~ = add t7 1
              t11:f64[]~ = add t8 t9
              t12:f64[]~ = add t9 1.0
              return t10, t11, t12
          return t1
    """)


def test_a_carry_another_carry_needs_is_kept(x3):
    graph = trace(lambda x, n, c: _loop(x, n, c)[2], F64_3, I64, F64)
    result = run_dce(graph, x3, np.int64(2), np.float64(3.0))
    loop = result.graph.eqns[0]
    assert len(loop.outputs) == 2 and loop.params["num_consts"] == 2
    assert [str(v.type) for v in loop.outputs] == ["i64[]~", "f64[3]"]


def test_a_carry_an_effect_in_the_body_uses_is_kept(capsys, x3):
    def body(n, i, s):
        effects.print_("s =", s)
        return i + 1, s * 2

    graph = trace(lambda x, n: while_loop(lambda n, i, s: i < n, body, [n], [0, x])[0], F64_3, I64)
    result = run_dce(graph, x3, np.int64(2))
    assert not result.modified
    assert capsys.readouterr().out.count("s =") == 4


def test_dead_code_inside_nested_graphs_is_removed(x3):
    def body(n, i, s):
        np.sin(s)
        return i + 1, s * 2

    graph = trace(lambda x, n: while_loop(lambda n, i, s: i < n, body, [n], [0, x]), F64_3, I64)
    result = run_dce(graph, x3, np.int64(3))
    body_graph = result.graph.eqns[0].params["body_graph"]
    assert [e.prim.name for e in body_graph.eqns] == ["add", "multiply"]


def test_unused_tensor_lists_are_dropped(x3):
    def fn(x):
        lists.push(lists.as_list([x]), x)
        return x

    graph = trace(fn, F64_3)
    assert run_dce(graph, x3).graph.eqns == ()


def test_an_unused_list_carried_through_a_loop_is_removed(x3):
    def fn(x, n):
        def body(n, i, acc):
            return i + 1, lists.push(acc, x_in_body(acc))

        def x_in_body(acc):
            return lists.read(acc, -1) * 2

        i, acc = while_loop(lambda n, i, acc: i < n, body, [n], [0, lists.as_list([x])])
        return i, lists.stack(acc)

    graph = trace(fn, F64_3, I64)
    stacked = interpret(graph, x3, np.int64(2))[1]
    np.testing.assert_array_equal(stacked, [x3, 2 * x3, 4 * x3])
    counter_only = graph.replace(outputs=graph.outputs[:1])
    pruned = run_dce(counter_only, x3, np.int64(2)).graph
    assert [e.prim.name for e in pruned.eqns] == ["while_loop"]
    assert [e.prim.name for e in pruned.eqns[0].params["body_graph"].eqns] == ["add"]


def test_an_unused_cond_whose_branch_may_raise_stays(x3):
    """``if ...: v = x[n]`` with ``v`` unused raises IndexError eagerly when ``n`` is out of
    range: the cond stays, with no outputs (it was dropped, and the call returned a value)."""

    def fn(x, n):
        cond(n > 0, lambda x, n: (x[n],), lambda x, n: (x[0],), x, n)
        return np.floor(x)

    graph = trace(fn, F64_3, I64)
    kept = run_dce(graph, x3, np.int64(1)).graph
    assert [e.prim.name for e in kept.eqns] == ["greater", "cond", "floor"]
    assert kept.eqns[1].outputs == ()
    with pytest.raises(IndexError, match="index 5 is out of bounds"):
        interpret(kept, x3, np.int64(5))


def _dead_store_of_a_python_number(b, d):
    v = b.astype(np.uint8)
    v[0] = d["a"]  # -3.0 raises OverflowError in eager; v is never read


def _dead_store_at_a_run_time_index(x, k):
    y = x.copy()
    y[k] = 1.0  # IndexError where k is out of range


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (_dead_store_of_a_python_number, (np.ones(2), {"a": -3.0})),
        (_dead_store_of_a_python_number, (np.ones(2), {"a": float("nan")})),
        (_dead_store_at_a_run_time_index, (np.ones(3), np.int64(5))),
    ],
)
def test_an_unused_item_store_that_may_raise_is_kept(fn, args):
    with pytest.raises(Exception) as eager:
        fn(*args)
    with pytest.raises(type(eager.value), match=str(eager.value)):
        tg.to_static(fn, fallback="error")(*args)
