"""Loop-invariant code motion: total equations leave loops and branches; nothing else moves."""

import numpy as np
import pytest
from pass_harness import F64_3, I64, check, cond, interpret, trace, while_loop

from tograph.ir import core, types
from tograph.ops import effects, elementwise
from tograph.passes import licm, manager, totality

F64_33 = types.TensorType(np.float64, (3, 3))


def run_licm(graph, *args):
    """The graph after LICM, checked, with bit-identical results."""
    result = licm.hoist_loop_invariants(graph)
    check(result.graph)
    assert result.graph.in_types == graph.in_types and result.graph.out_types == graph.out_types
    for got, expected in zip(interpret(result.graph, *args), interpret(graph, *args)):
        assert type(got) is type(expected)
        np.testing.assert_array_equal(got, expected)
    return result


def _loop(w, x, n):
    """``x = tanh(w.T @ x) + max(w[0], 0)`` n times: the transpose, row and maximum invariant,
    the print of the trip count an effect."""

    def body(w, n, i, x):
        effects.print_("step", i)
        t = np.tanh(np.transpose(w) @ x) + np.maximum(w[0], 0.0)
        return i + 1, t

    return while_loop(lambda w, n, i, x: i < n, body, (w, n), (0, x))[1]


def test_total_invariant_equations_leave_the_loop_and_effects_stay(capsys):
    graph = trace(_loop, F64_33, F64_3, I64, hints=["w", "x", "n"])
    w, x = np.arange(9.0).reshape(3, 3) / 10, np.array([0.5, -1.0, 2.0])
    result = run_licm(graph, w, x, np.int64(3))
    assert result.modified
    outer = [e.prim.name for e in result.graph.eqns]
    assert outer == ["transpose", "getitem", "maximum", "while_loop"]
    body = result.graph.eqns[-1].params["body_graph"]
    assert [e.prim.name for e in body.eqns] == ["print", "matmul", "tanh", "add", "add"]
    assert result.graph.eqns[-1].params["num_consts"] == 4  # w, n, the transpose, the maximum
    assert capsys.readouterr().out.count("step") == 6  # 3 per run, before and after


def test_arithmetic_stays_in_a_loop_that_may_not_run():
    """``1 / w`` would divide by zero (an error under np.errstate) although the loop never runs."""

    def fn(w, x, n):
        body = lambda w, n, i, x: (i + 1, x + 1.0 / w)  # noqa: E731
        return while_loop(lambda w, n, i, x: i < n, body, (w, n), (0, x))[1]

    graph = trace(fn, F64_3, F64_3, I64)
    with np.errstate(all="raise"):
        result = run_licm(graph, np.zeros(3), np.ones(3), np.int64(0))
    assert result.graph is graph and not result.modified


def test_branches_share_their_common_total_equations():
    def fn(w, x, p):
        return cond(
            p > 0,
            lambda w, x: x + np.transpose(w)[0],
            lambda w, x: x - np.transpose(w)[0] * 2.0,
            w,
            x,
        )

    graph = trace(fn, F64_33, F64_3, I64)
    w, x = np.arange(9.0).reshape(3, 3), np.array([1.0, np.nan, -0.0])
    for p in (1, -1):
        result = run_licm(graph, w, x, np.int64(p))
    assert [e.prim.name for e in result.graph.eqns] == ["greater", "transpose", "getitem", "cond"]
    for key in ("then_graph", "else_graph"):
        names = [e.prim.name for e in result.graph.eqns[-1].params[key].eqns]
        assert "transpose" not in names and "getitem" not in names


def test_an_equation_in_one_branch_only_stays():
    graph = trace(
        lambda w, x, p: cond(p > 0, lambda w, x: x + np.transpose(w)[0], lambda w, x: x, w, x),
        F64_33,
        F64_3,
        I64,
    )
    result = licm.hoist_loop_invariants(graph)
    assert result.graph is graph


@pytest.mark.parametrize("n", [0, 2])
def test_nested_loops_move_outwards_round_by_round(n):
    def fn(w, x, n):
        def outer_body(w, n, i, x):
            return i + 1, _loop(w, x, n)

        return while_loop(lambda w, n, i, x: i < n, outer_body, (w, n), (0, x))[1]

    graph = trace(fn, F64_33, F64_3, I64)
    w, x = np.eye(3), np.array([0.5, -1.0, 2.0])
    optimized = manager.run_passes(graph, (licm.hoist_loop_invariants,)).graph
    check(optimized)
    assert [e.prim.name for e in optimized.eqns][:3] == ["transpose", "getitem", "maximum"]
    args = (w, x, np.int64(n))
    for got, expected in zip(interpret(optimized, *args), interpret(graph, *args)):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype, moves", [(np.float32, False), (np.float64, True)])
def test_a_comparison_whose_python_number_overflows_in_the_cast_stays(dtype, moves):
    """``w < 1e300`` on float32 converts 1e300 to float32, which overflows (a warning, an error
    under np.errstate) although the loop never runs; on float64 it cannot, and moves."""

    def fn(w, x, n):
        body = lambda w, n, i, x: (i + 1, x + (w < 1e300))  # noqa: E731
        return while_loop(lambda w, n, i, x: i < n, body, (w, n), (0, x))[1]

    graph = trace(fn, types.TensorType(dtype, (3,)), F64_3, I64)
    with np.errstate(all="raise"):
        result = run_licm(graph, np.zeros(3, dtype), np.ones(3), np.int64(0))
    assert result.modified is moves


@pytest.mark.parametrize(
    "dtype, weak, total",
    [
        (np.float32, np.float64, False),
        (np.float16, np.int64, False),
        (np.float64, np.float64, True),
        (np.float64, np.int64, True),
        (np.int64, np.int64, True),
        (np.int8, np.int64, False),
    ],
)
def test_a_run_time_python_number_is_total_only_into_a_wide_dtype(dtype, weak, total):
    """A Python number known only at run time may not fit a narrow dtype (``maximum`` and ``==``
    convert it first)."""
    graph = trace(
        lambda w, y: (np.maximum(w, y), w == y),
        types.TensorType(dtype, (3,)),
        types.TensorType(weak, (), weak=True),
    )
    assert [totality.is_total(e) for e in graph.eqns] == [total and dtype != np.int64, total]


def test_literal_number_totality_tells_equal_numbers_of_other_types_apart():
    """``x < 300`` converts 300 to int8, which overflows; ``x < 300.0`` compares in float64: the
    remembered answer for one must not serve the other, though ``300 == 300.0``."""
    i8 = types.TensorType(np.int8, (3,))
    x = core.Var(i8, "x")

    def less(number):
        out = core.Var(elementwise.less_p.out_types([i8, core.Lit.of(number).type], {})[0])
        return core.Eqn(elementwise.less_p, (x, core.Lit.of(number)), {}, (out,))

    assert [totality.is_total(less(n)) for n in (300, 300.0, 300, 100)] == [
        False,
        True,
        False,
        True,
    ]
