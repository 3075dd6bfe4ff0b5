"""GraphBuilder: inputs, operands (vars, literals, captures), ``emit`` with output hints and
located type errors, ``finish``, and the errors for a tensor that escapes the graph it belongs to.

Graphs are compared with their canonical printed form and run against NumPy.
"""

import textwrap

import numpy as np
import pytest

from tograph import eager, errors
from tograph.backend import interpreter
from tograph.ir import check, core, primitives, types
from tograph.ops import elementwise
from tograph.trace import builder as builder_mod
from tograph.trace import tensor

F64_3 = types.TensorType(np.float64, (3,))
I64 = types.TensorType(np.int64, ())
LOC = errors.SourceLocation("user.py", 7, 4, "    z = x + w\n", "f")


def _split_rule(x):
    half = x.with_shape((None,))
    return half, half


# A test-only primitive with two results, so multiple outputs need no particular op family.
split_p = primitives.Primitive(
    "test_builder_split",
    lambda x: (x[: len(x) // 2], x[len(x) // 2 :]),
    _split_rule,
    multiple_results=True,
)


def outers(b):
    """The graph values of the outer tensors ``b`` captured, in order."""
    return [outer.graph_var for outer, _ in b.captures]


def dedent(text):
    return textwrap.dedent(text).strip("\n")


def test_add_input_returns_a_symbolic_tensor_of_this_builder():
    b = builder_mod.GraphBuilder("g")
    x = b.add_input(F64_3, "x")
    n = b.add_input(I64)
    assert isinstance(x, tensor.SymbolicTensor)
    assert x.builder is b and x.type == F64_3 and n.type == I64
    assert [v.hint for v in b.inputs] == ["x", None]
    assert b.atom(x) is b.inputs[0]
    assert str(b.finish([n, x])) == dedent("""
        graph g(x:f64[3], t0:i64[]):
          return t0, x
    """)


def test_atom_of_constants_is_a_literal_with_weak_or_strong_type():
    b = builder_mod.GraphBuilder("g")
    py, np_scalar, array = b.atom(1.5), b.atom(np.float32(2)), b.atom(np.arange(3))
    assert all(isinstance(a, core.Lit) for a in (py, np_scalar, array))
    assert py.value == 1.5 and str(py.type) == "f64[]~"
    assert str(np_scalar.type) == "f32[]"
    assert str(array.type) == "i64[3]"
    assert b.atom(True).type == types.TensorType(np.bool_, (), weak=True)


def test_atom_of_an_eager_tensor_is_its_value():
    b = builder_mod.GraphBuilder("g")
    lit = b.atom(eager.EagerTensor(np.arange(3.0)))
    assert isinstance(lit, core.Lit) and str(lit.type) == "f64[3]"
    np.testing.assert_array_equal(lit.value, [0.0, 1.0, 2.0])


def test_operators_emit_into_the_active_builder():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        y = x * 2 + 1
        graph = b.finish([y])
    assert isinstance(y, tensor.SymbolicTensor) and y.builder is b
    assert str(graph) == dedent("""
        graph g(x:f64[3]):
          t0:f64[3] = multiply x 2
          t1:f64[3] = add t0 1
          return t1
    """)
    check.check_graph(graph)
    x0 = np.array([1.0, -2.0, 0.5])
    np.testing.assert_array_equal(interpreter.interpret(graph, x0)[0], x0 * 2 + 1)


def test_emit_names_outputs_after_hints_and_records_the_location():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        total = b.emit(elementwise.add_p, [x, 1], {}, loc=LOC, hints=["total"])
        graph = b.finish([total])
    assert isinstance(total, tensor.SymbolicTensor)
    assert str(graph) == dedent("""
        graph g(x:f64[3]):
          total:f64[3] = add x 1
          return total
    """)
    assert graph.eqns[0].loc == LOC


def test_emit_of_a_multiple_result_primitive_returns_a_tuple_and_pads_hints():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, (4,)), "x")
        out = b.emit(split_p, [x], {}, hints=["head"])
        graph = b.finish(list(out))
    assert isinstance(out, tuple) and len(out) == 2
    assert str(graph) == dedent("""
        graph g(x:f64[4]):
          head:f64[None], t0:f64[None] = test_builder_split x
          return head, t0
    """)
    head, tail = interpreter.interpret(graph, np.arange(4.0))
    np.testing.assert_array_equal(head, [0.0, 1.0])
    np.testing.assert_array_equal(tail, [2.0, 3.0])


def test_emit_locates_a_type_rule_error_at_the_given_line():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        with pytest.raises(errors.ShapeError) as info:
            b.emit(elementwise.add_p, [x, np.zeros(4)], {}, loc=LOC)
    assert info.value.loc == LOC
    assert str(info.value).startswith("user.py:7, in f: ")
    assert "(3,), (4,)" in str(info.value)
    assert b.eqns == []  # nothing was appended


def test_finish_orders_inputs_explicit_then_captured_and_keeps_literal_outputs():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        y = x * 2
        body = b.child("body")
        with body.active():
            a = body.add_input(F64_3, "a")
            r = a + x + y + x  # x is captured once, however often it is used
            graph = body.finish([r, 2.0, x])
    assert body.parent is b and body.name == "body"
    assert str(graph) == dedent("""
        graph body(a:f64[3], x:f64[3], t0:f64[3]):
          t1:f64[3] = add a x
          t2:f64[3] = add t1 t0
          t3:f64[3] = add t2 x
          return t3, 2.0, x
    """)
    assert outers(body) == [x.graph_var, y.graph_var]
    assert [inner for _, inner in body.captures] == list(graph.inputs[1:])
    assert b.captures == []  # the parent captured nothing
    assert [e.prim.name for e in b.eqns] == ["multiply"]  # the child's equations stay its own


def test_a_grandchild_capture_is_captured_by_the_builders_in_between():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        mid = b.child("mid")
        with mid.active():
            inner = mid.child("inner")
            with inner.active():
                q = inner.add_input(F64_3, "q")
                inner_graph = inner.finish([q - x])
            assert outers(mid) == [x.graph_var]
            # the grandchild's operand for x is the middle builder's capture of it
            assert mid.atom(x) is mid.captures[0][1]
            mid_graph = mid.finish([])
    assert outers(inner) == [x.graph_var]
    assert str(inner_graph) == dedent("""
        graph inner(q:f64[3], x:f64[3]):
          t0:f64[3] = subtract q x
          return t0
    """)
    assert mid_graph.inputs == (mid.captures[0][1],)


def test_a_tensor_of_a_finished_graph_cannot_be_used_in_another():
    first = builder_mod.GraphBuilder("first")
    with first.active():
        x = first.add_input(F64_3, "x")
        first.finish([x])
    other = builder_mod.GraphBuilder("other")
    with other.active():
        with pytest.raises(errors.TracerError, match="no longer being built") as info:
            x + 1
    assert "f64[3]" in info.value.message
    assert "self.x = ..." in info.value.hint
    assert other.eqns == []


def test_a_tensor_made_in_a_child_cannot_be_used_in_its_parent():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        body = b.child("body")
        with body.active():
            inside = x + 1
        with pytest.raises(errors.TracerError, match="stored outside it"):
            inside * 2


def test_a_tensor_used_after_every_graph_is_built_is_an_error():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
    with pytest.raises(errors.TracerError, match="used in add after its graph was built"):
        x + 1
    assert b.eqns == []


def test_current_is_the_innermost_active_builder():
    b = builder_mod.GraphBuilder("g")
    assert builder_mod.current() is None
    with b.active():
        assert builder_mod.current() is b
        with b.child("c").active() as c:
            assert builder_mod.current() is c
    assert builder_mod.current() is None
