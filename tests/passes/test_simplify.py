"""Algebraic simplification: exact identities only, never on values the graph hands out."""

import numpy as np
import pytest
from pass_harness import F64_3, check, cond, dedent, interpret, trace

from tograph.ir import types
from tograph.ops import elementwise, shape
from tograph.passes import dce, simplify
from tograph.trace import builder

SPECIALS = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5])
F64_6 = types.TensorType(np.float64, (6,))


def emit(prim, *args, **params):
    return builder.current().emit(prim, args, params)


def run_simplify(graph, *args):
    """The simplified graph, checked, with bit-identical results of the same types."""
    result = simplify.simplify_algebra(graph)
    check(result.graph)
    assert result.graph.in_types == graph.in_types and result.graph.out_types == graph.out_types
    for got, expected in zip(interpret(result.graph, *args), interpret(graph, *args)):
        assert type(got) is type(expected)
        assert np.asarray(got).tobytes() == np.asarray(expected).tobytes()
    return result


def test_identities_disappear_bit_for_bit():
    def fn(x):
        y = emit(elementwise.multiply_p, x, 1)
        y = emit(elementwise.divide_p, 1.0 * y, 1.0)
        y = emit(elementwise.subtract_p, y, 0.0)
        y = emit(elementwise.add_p, -0.0, y)
        y = emit(elementwise.negative_p, emit(elementwise.negative_p, y))
        return y + 2

    result = run_simplify(trace(fn, F64_6, hints=["x"]), SPECIALS)
    assert str(dce.eliminate_dead_code(result.graph).graph) == dedent("""
        graph f(x:f64[6]):
          t0:f64[6] = add x 2
          return t0
    """)


@pytest.mark.parametrize(
    "make, arg",
    [
        (lambda x: emit(elementwise.add_p, x, 0.0), SPECIALS),  # -0.0 + 0.0 is +0.0
        (lambda x: emit(elementwise.subtract_p, x, -0.0), SPECIALS),
        (lambda x: emit(elementwise.multiply_p, x.astype(np.float32), np.float64(1)), SPECIALS),
        (lambda x: emit(elementwise.multiply_p, x.astype(np.int8), 1.0), SPECIALS),
        (lambda x: emit(elementwise.multiply_p, x, np.ones(6)), SPECIALS),  # 1.0 array
        (lambda x: emit(elementwise.multiply_p, x.astype(np.complex128), 1), SPECIALS),
        (lambda x: emit(elementwise.multiply_p, x > 0, 1), SPECIALS),  # bool * 1 is int
        (lambda x: emit(elementwise.multiply_p, np.sum(x), 1), SPECIALS),  # a 0-d NumPy value
    ],
    ids=["x+0.0", "x-(-0.0)", "f32*1.0", "promotes", "array_one", "complex", "bool", "0d"],
)
@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # NaN cast and complex inf * 1
def test_inexact_or_type_changing_rewrites_stay(make, arg):
    graph = trace(lambda x: make(x) + 2, F64_6)
    result = run_simplify(graph, arg)
    assert not result.modified


def test_integer_zero_of_either_sign_is_an_identity():
    graph = trace(lambda x: emit(elementwise.add_p, x.astype(np.int64), 0) - 3, F64_3)
    result = run_simplify(graph, np.array([1.0, -2.0, 7.0]))
    assert [e.prim.name for e in result.graph.eqns] == ["astype", "subtract"]


def test_values_the_graph_returns_are_not_replaced(x3):
    graph = trace(lambda x: (emit(elementwise.multiply_p, x, 1), np.transpose(x)), F64_3)
    assert not run_simplify(graph, x3).modified


def test_view_chains_become_one_view():
    def fn(x):
        a = emit(shape.transpose_p, emit(shape.transpose_p, x, axes=(1, 2, 0)), axes=(2, 0, 1))
        b = emit(shape.transpose_p, emit(shape.transpose_p, x, axes=(1, 0, 2)), axes=(0, 2, 1))
        c = emit(shape.reshape_p, emit(shape.reshape_p, x, shape=(6, 4)), shape=(24,))
        d = emit(shape.matrix_transpose_p, emit(shape.matrix_transpose_p, x))
        return a + 1, b + 1, c + 1, d + 1

    graph = trace(fn, types.TensorType(np.float64, (2, 3, 4)), hints=["x"])
    result = run_simplify(graph, np.arange(24.0).reshape(2, 3, 4))
    assert str(dce.eliminate_dead_code(result.graph).graph) == dedent("""
        graph f(x:f64[2,3,4]):
          t0:f64[3,4,2] = transpose[axes=(1, 2, 0)] x
          t1:f64[24] = reshape[shape=(24,)] x
          t2:f64[2,3,4] = add x 1
          t3:f64[3,4,2] = add t0 1
          t4:f64[24] = add t1 1
          t5:f64[2,3,4] = add x 1
          return t2, t3, t4, t5
    """)


def test_rewrites_reach_into_branches(x3):
    def then(x):
        return emit(elementwise.multiply_p, x, 1) + 1

    graph = trace(lambda x: cond(np.sum(x) > 0, then, lambda x: x, x), F64_3)
    result = run_simplify(graph, x3)
    then_graph = result.graph.eqns[-1].params["then_graph"]
    assert [e.prim.name for e in then_graph.eqns] == ["add"]


def broadcast_then_combine(x, row):
    """``x`` (3x4) compared with, selected by and divided by broadcasts of a (3x1) ``row``."""
    wide = np.broadcast_to(row, (3, 4))
    hits = emit(elementwise.equal_p, x, wide)
    picked = emit(elementwise.where_p, hits, wide, 0)
    return emit(elementwise.divide_p, picked, np.broadcast_to(row + 1.0, (3, 4)))


def test_broadcast_operands_of_elementwise_ops_are_read_unbroadcast():
    f64 = np.float64
    graph = trace(
        broadcast_then_combine,
        types.TensorType(f64, (3, 4)),
        types.TensorType(f64, (3, 1)),
        hints=["x", "row"],
    )
    row = np.array([[1.5], [-0.0], [np.nan]])
    x = np.array([[1.5, 2.0, 1.5, np.inf], [0.0, -0.0, 1.0, 2.0], [np.nan, 1.0, 2.0, 3.0]])
    for args in [(x, row), (np.asfortranarray(x), row)]:  # results keep the layout too
        result = run_simplify(graph, *args)
        assert result.modified
        (got,), (expected,) = interpret(result.graph, *args), interpret(graph, *args)
        assert got.strides == expected.strides
    text = str(dce.eliminate_dead_code(result.graph).graph)
    assert "broadcast_to" not in text and "equal x row" in text


def test_broadcasts_with_run_time_dims_stay():
    f64 = np.float64
    graph = trace(
        lambda x, row: emit(elementwise.multiply_p, x, np.broadcast_to(row, x.shape)),
        types.TensorType(f64, (None, 4)),
        types.TensorType(f64, (1, 4)),
    )
    x = np.arange(8.0).reshape(2, 4)
    assert not run_simplify(graph, x, np.ones((1, 4))).modified


def test_a_graph_with_no_identity_in_sight_is_returned_itself(x3):
    """No literal 0 or 1 beside arithmetic, no rule's primitive, no broadcast: nothing to do."""
    graph = trace(lambda x: (x * 0.5 + 2.0) / 3.0 - np.tanh(x) * x, F64_3)
    result = run_simplify(graph, x3)
    assert result.graph is graph and not result.modified
