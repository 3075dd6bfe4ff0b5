"""Golden tests of the one printer: names, types, literals, params, nested graphs, locations."""

import textwrap

import numpy as np
import pytest

from tograph import errors
from tograph.ir import core, types
from tograph.ops import elementwise
from tograph.staging import control_flow
from tograph.trace import builder

F64 = types.TensorType(np.float64, ())
F64_3 = types.TensorType(np.float64, (3,))
WEAK_INT = types.TensorType(np.int64, (), weak=True)
LOC = errors.SourceLocation("user.py", 7)


def dedent(text):
    return textwrap.dedent(text).strip("\n")


def straight_graph():
    x, total, n = core.Var(F64_3, "x"), core.Var(F64, "sum"), core.Var(WEAK_INT, "n.0")
    t0, t1, t2, t3 = (
        core.Var(F64_3),
        core.Var(types.TensorType(np.float32, (3,))),
        core.Var(F64_3),
        core.Var(F64_3),
    )
    eqns = (
        core.Eqn(elementwise.add_p, (x, core.Lit.of(np.array([1.0, 2.0, 3.0]))), {}, (t0,), LOC),
        core.Eqn(
            elementwise.astype_p, (t0,), {"dtype": np.dtype(np.float32), "weak": False}, (t1,)
        ),
        core.Eqn(elementwise.multiply_p, (x, core.Lit.of(np.zeros(10))), {}, (t2,)),
        core.Eqn(elementwise.where_p, (core.Lit.of(np.True_), t2, core.Lit.of(-2)), {}, (t3,)),
    )
    return core.Graph("f", (x, total, n), eqns, (t1, t3, core.Lit.of(np.float32(0.5)), n))


def test_straight_line_names_types_literals_params():
    assert str(straight_graph()) == dedent("""
        graph f(x:f64[3], sum_1:f64[], n_0:i64[]~):
          t0:f64[3] = add x [1.0, 2.0, 3.0]:f64[3]
          t1:f32[3] = astype[dtype=f32, weak=False] t0
          t2:f64[3] = multiply x array<f64[10]>
          t3:f64[3] = where True:bool t2 -2
          return t1, t3, 0.5:f32, n_0
    """)


def test_locations_are_appended_on_request():
    assert core.print_graph(straight_graph(), locs=True).splitlines()[1] == (
        "  t0:f64[3] = add x [1.0, 2.0, 3.0]:f64[3]  # user.py:7"
    )


def test_format_eqn_uses_the_graph_names():
    graph = straight_graph()
    assert core.format_eqn(graph, graph.eqns[3]) == "t3:f64[3] = where True:bool t2 -2"
    with pytest.raises(ValueError, match="not part of graph f"):
        core.format_eqn(graph.replace(eqns=()), graph.eqns[0])


def nested_graph():
    """A while loop holding a cond: nested graphs two deep."""

    def f(x, n):
        def body(i, x):
            x = control_flow.cond(i > 2, lambda x: (-x,), lambda x: (x,), (x,), ("x",))[0]
            return i + 1, x

        return control_flow.while_loop(lambda i, x: i < n, body, (0, x), ("i", "x"))[1]

    b = builder.GraphBuilder("loop")
    with b.active():
        return b.finish(
            [f(b.add_input(F64_3, "x"), b.add_input(types.TensorType(np.int64, ()), "n"))]
        )


def test_nested_control_flow_prints_then_else_cond_body_in_reading_order():
    assert str(nested_graph()) == dedent("""
        graph loop(x:f64[3], n:i64[]):
          i:i64[]~, x_1:f64[3], x_identity:i64[] = while_loop[num_consts=1] n 0 x 0:i64
            cond(n_1:i64[], i_1:i64[]~, x_2:f64[3], x_identity_1:i64[]):
              t0:bool[] = less i_1 n_1
              return t0
            body(n_2:i64[], i_2:i64[]~, x_3:f64[3], x_identity_2:i64[]):
              t1:bool[]~ = greater i_2 2
              x_4:f64[3], x_identity_3:i64[] = cond t1 x_3 x_identity_2
                then(x_5:f64[3], x_identity_4:i64[]):
                  t2:f64[3] = negative x_5
                  return t2, -1:i64
                else(x_6:f64[3], x_identity_5:i64[]):
                  return x_6, x_identity_5
              t3:i64[]~ = add i_2 1
              return t3, x_4, x_identity_3
          return x_1
    """)


def test_equation_without_outputs_and_empty_graph():
    x = core.Var(F64, "x")
    graph = core.Graph("empty", (), (), ())
    assert str(graph) == "graph empty():\n  return"
    effect = core.Eqn(elementwise.exp_p, (x,), {}, ())
    assert str(core.Graph("g", (x,), (effect,), ())) == "graph g(x:f64[]):\n  exp x\n  return"


def test_namer_fresh_names_avoid_hints_builtins_and_each_other():
    namer = core.Namer()
    assert namer.name(core.Var(F64, "tanh")) == "tanh"
    assert [namer.fresh("tanh"), namer.fresh("tanh"), namer.fresh("len")] == [
        "tanh_1",
        "tanh_2",
        "len_1",
    ]
    assert namer.name(core.Var(F64, "tanh_1")) == "tanh_1_1"


def test_name_vars_gives_the_names_the_printed_graph_shows():
    """The code generator names values with ``name_vars`` alone; each equation's outputs must be
    named as its printed line names them (nested graphs' too)."""
    namer = core.Namer()
    graph = nested_graph()
    core.name_vars(graph, namer)
    for text, shown in core.print_lines(graph):
        if isinstance(shown, core.Eqn) and shown.outputs:
            declared = text.strip().split(" = ")[0].split(", ")
            assert [d.split(":")[0] for d in declared] == [namer.name(v) for v in shown.outputs]
