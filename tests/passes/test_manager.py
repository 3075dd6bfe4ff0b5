"""The pass manager: fixed point, iteration cap, signature check."""

import numpy as np
import pytest
from pass_harness import F64_3, I64, check, cond, dedent, interpret, trace

from tograph import errors, passes
from tograph.ops import effects, elementwise
from tograph.passes import manager
from tograph.trace import builder


def _program(x, n):
    b = builder.current()
    six = b.emit(elementwise.multiply_p, (np.float64(2.0), np.float64(3.0)), {})
    six_again = b.emit(elementwise.multiply_p, (np.float64(2.0), np.float64(3.0)), {})
    a, b_ = np.maximum(x, six), np.maximum(x, six_again)
    _, kept = cond(n > 0, lambda a, b: (np.sin(a), b * 2), lambda a, b: (np.cos(a), b), a, b_)
    effects.print_("n =", n)
    return kept + a


def test_default_passes_reach_a_fixed_point(capsys, x3):
    graph = trace(_program, F64_3, I64, hints=["x", "n"])
    result = manager.run_passes(graph)
    check(result.graph)
    assert result.modified
    assert str(result.graph) == dedent("""
        graph f(x:f64[3], n:i64[]):
          t0:f64[3] = maximum x 6.0:f64
          t1:bool[] = greater n 0
          t2:f64[3] = cond t1 t0
            then(t3:f64[3]):
              t4:f64[3] = multiply t3 2
              return t4
            else(t5:f64[3]):
              return t5
          print[end='\\n', sep=' ', template=('n =', None)] n
          t6:f64[3] = add t2 t0
          return t6
    """)
    for n in (np.int64(1), np.int64(-1)):
        np.testing.assert_array_equal(interpret(result.graph, x3, n)[0], interpret(graph, x3, n)[0])
    assert capsys.readouterr().out == "n = 1\nn = 1\nn = -1\nn = -1\n"
    again = manager.run_passes(result.graph)
    assert again.graph is result.graph and not again.modified


def test_the_iteration_count_is_capped():
    calls = []

    def restless(graph):
        calls.append(graph)
        return passes.PassResult(graph, True)

    graph = trace(lambda x: x + 1, F64_3)
    result = manager.run_passes(graph, passes=[restless, restless], max_iterations=3)
    assert len(calls) == 6 and result.modified


def test_the_pass_that_changed_the_graph_last_is_not_run_again_on_it():
    """Each pass reaches its own fixed point in one run: after the last change, the other passes
    leaving the graph as it is ends the iteration."""
    ran = []

    def named(name, changes):
        def run(graph):
            ran.append(name)
            if changes:
                changes.pop()
                return passes.PassResult(graph.replace(), True)
            return passes.PassResult(graph, False)

        run.__name__ = name
        return run

    graph = trace(lambda x: x + 1, F64_3)
    result = manager.run_passes(graph, [named("a", []), named("b", [1]), named("c", [])])
    assert ran == ["a", "b", "c", "a"] and result.modified and result.graph is not graph
    ran.clear()
    result = manager.run_passes(graph, [named("a", []), named("b", []), named("c", [])])
    assert ran == ["a", "b", "c"] and not result.modified and result.graph is graph


def test_a_pass_that_changes_the_signature_is_a_bug():
    def drop_output(graph):
        return passes.PassResult(graph.replace(outputs=graph.outputs[:1]), True)

    graph = trace(lambda x: (x + 1, x * 2), F64_3)
    with pytest.raises(
        errors.InternalError,
        match=r"drop_output changed the signature.*\(f64\[3\]\) -> \(f64\[3\]\)",
    ):
        manager.run_passes(graph, passes=[drop_output])
