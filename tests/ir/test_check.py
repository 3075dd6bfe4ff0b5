"""The graph checker accepts what tracing builds and rejects each kind of malformed graph."""

import textwrap

import numpy as np
import pytest

from tograph.ir import check, core, types
from tograph.ops import elementwise
from tograph.staging import control_flow
from tograph.trace import builder

F64 = types.TensorType(np.float64, ())
I64 = types.TensorType(np.int64, ())
BOOL = types.TensorType(np.bool_, ())


def trace(fn, *in_types, names=None):
    b = builder.GraphBuilder("f")
    with b.active():
        args = [b.add_input(t, hint=n) for t, n in zip(in_types, names or [None] * len(in_types))]
        out = fn(*args)
        return b.finish(out if isinstance(out, tuple) else (out,))


def looped(x, n):
    def body(i, x):
        x = control_flow.cond(x > 10.0, lambda x: (x - n,), lambda x: (x * 2.0,), (x,), ("x",))[0]
        return i + 1, x

    return control_flow.while_loop(lambda i, x: i < n, body, (0, x), ("i", "x"))[1]


def replace_param(eqn, **params):
    return core.Eqn(eqn.prim, eqn.inputs, {**eqn.params, **params}, eqn.outputs, eqn.loc)


def with_eqn(graph, index, eqn):
    return graph.replace(eqns=graph.eqns[:index] + (eqn,) + graph.eqns[index + 1 :])


def test_traced_graphs_pass():
    check.check_graph(trace(looped, F64, I64, names=["x", "n"]))


def test_use_before_definition_shows_the_window():
    x, y, z = core.Var(F64, "x"), core.Var(F64, "y"), core.Var(F64, "z")
    eqns = (
        core.Eqn(elementwise.negative_p, (y,), {}, (z,)),
        core.Eqn(elementwise.exp_p, (x,), {}, (y,)),
    )
    with pytest.raises(check.MalformedGraphError) as info:
        check.check_graph(core.Graph("g", (x,), eqns, (z,)))
    first = "'y' (f64[]) is used before it is defined in this graph. "
    assert str(info.value) == first + textwrap.dedent("""\
        This is a bug in tograph; please report it.
          graph g(x:f64[]):
        >   z:f64[] = negative y
            y:f64[] = exp x
            return z""")


def test_var_defined_twice():
    x, y = core.Var(F64, "x"), core.Var(F64, "y")
    eqns = (
        core.Eqn(elementwise.exp_p, (x,), {}, (y,)),
        core.Eqn(elementwise.exp_p, (y,), {}, (y,)),
    )
    with pytest.raises(check.MalformedGraphError, match=r"'y' \(f64\[\]\) is defined twice"):
        check.check_graph(core.Graph("g", (x,), eqns, (y,)))


def test_undefined_output():
    x = core.Var(F64, "x")
    with pytest.raises(check.MalformedGraphError, match=r"'t0' \(f64\[\]\) is used before") as info:
        check.check_graph(core.Graph("g", (x,), (), (core.Var(F64),)))
    assert info.value.window.splitlines()[-1] == ">   return t0"


def test_subgraphs_are_closed():
    graph = trace(looped, F64, I64, names=["x", "n"])
    loop = graph.eqns[0]
    body = loop.params["body_graph"]
    outer_x = graph.inputs[0]
    leaky = body.replace(outputs=(body.outputs[0], outer_x))
    with pytest.raises(
        check.MalformedGraphError,
        match=r"'x' \(f64\[\]\) is used before it is defined in this graph",
    ):
        check.check_graph(with_eqn(graph, 0, replace_param(loop, body_graph=leaky)))


def test_output_type_differs_from_the_rule():
    x, y = core.Var(F64, "x"), core.Var(types.TensorType(np.float32, ()), "y")
    eqn = core.Eqn(elementwise.exp_p, (x,), {}, (y,))
    with pytest.raises(
        check.MalformedGraphError,
        match=r"exp outputs are typed \(f32\[\]\), its rule gives \(f64\[\]\)",
    ):
        check.check_graph(core.Graph("g", (x,), (eqn,), (y,)))


def test_cond_branches_with_different_signatures():
    graph = trace(
        lambda p, x: control_flow.cond(p, lambda x: (x + 1.0,), lambda x: (x,), (x,), ("x",)),
        BOOL,
        F64,
    )
    eqn = graph.eqns[0]
    other = trace(lambda x: x, types.TensorType(np.float32, ()))
    with pytest.raises(
        check.MalformedGraphError,
        match="cond rejects its operands: cond branches take different inputs",
    ):
        check.check_graph(with_eqn(graph, 0, replace_param(eqn, else_graph=other)))


def test_while_body_output_must_fit_the_carry():
    graph = trace(looped, F64, I64, names=["x", "n"])
    loop = graph.eqns[0]
    body = loop.params["body_graph"]
    wrong = body.replace(
        outputs=(body.outputs[0], core.Lit(np.float32(1), types.TensorType(np.float32, ())))
    )
    with pytest.raises(
        check.MalformedGraphError, match="while_loop body outputs do not fit the carries"
    ):
        check.check_graph(with_eqn(graph, 0, replace_param(loop, body_graph=wrong)))


def test_while_cond_must_return_a_bool_scalar():
    graph = trace(looped, F64, I64, names=["x", "n"])
    loop = graph.eqns[0]
    test = loop.params["cond_graph"]
    wrong = test.replace(outputs=(test.inputs[0],))
    with pytest.raises(
        check.MalformedGraphError,
        match=r"while_loop cond must return one bool scalar, got \(i64\[\]\)",
    ):
        check.check_graph(with_eqn(graph, 0, replace_param(loop, cond_graph=wrong)))


def test_literal_with_a_wrong_type():
    x, y = core.Var(F64, "x"), core.Var(F64, "y")
    lit = core.Lit(1.0, F64)  # a Python float is weak: f64[]~
    eqn = core.Eqn(elementwise.add_p, (x, lit), {}, (y,))
    with pytest.raises(
        check.MalformedGraphError, match=r"literal 1.0 of type f64\[\]~ is typed f64\[\]"
    ):
        check.check_graph(core.Graph("g", (x,), (eqn,), (y,)))
