"""Symbolic tensors: operators (reflected ones included) emit the right primitives with NumPy 2's
weak typing of Python scalars; shape, size and len with unknown dims; conversions that need a
value raise ``TracerError`` with a hint; the value predicates the compiler asks.

Result types are compared with what NumPy gives on concrete arrays, and small graphs with their
printed form and, run by the interpreter, with NumPy's values.
"""

import operator
import textwrap

import numpy as np
import pytest

from tograph import eager, errors
from tograph.backend import interpreter
from tograph.ir import core, types
from tograph.ops import lists
from tograph.trace import builder as builder_mod
from tograph.trace import tensor

F64_3 = types.TensorType(np.float64, (3,))
I64_3 = types.TensorType(np.int64, (3,))
WEAK_INT = types.TensorType(np.int64, (), weak=True)

BINARY = [
    (operator.add, "add"),
    (operator.sub, "subtract"),
    (operator.mul, "multiply"),
    (operator.truediv, "divide"),
    (operator.floordiv, "floor_divide"),
    (operator.mod, "mod"),
    (operator.pow, "power"),
    (operator.and_, "bitwise_and"),
    (operator.or_, "bitwise_or"),
    (operator.xor, "bitwise_xor"),
    (operator.lshift, "left_shift"),
    (operator.rshift, "right_shift"),
]

# (operator, primitive of `x op 2`, primitive of `2 op x`, which Python turns into `x op' 2`)
COMPARISONS = [
    (operator.lt, "less", "greater"),
    (operator.le, "less_equal", "greater_equal"),
    (operator.gt, "greater", "less"),
    (operator.ge, "greater_equal", "less_equal"),
    (operator.eq, "equal", "equal"),
    (operator.ne, "not_equal", "not_equal"),
]


def dedent(text):
    return textwrap.dedent(text).strip("\n")


def trace(fn, *in_types):
    """The graph of ``fn`` on symbolic inputs ``x0, x1, ...`` of ``in_types``."""
    b = builder_mod.GraphBuilder("g")
    with b.active():
        args = [b.add_input(t, f"x{i}") for i, t in enumerate(in_types)]
        out = fn(*args)
        return b.finish(out if isinstance(out, tuple) else (out,))


def eqn_lines(graph):
    return [core.format_eqn(graph, e) for e in graph.eqns]


@pytest.mark.parametrize("op, prim", BINARY, ids=[p for _, p in BINARY])
def test_binary_operators_and_their_reflections(op, prim):
    graph = trace(lambda x: (op(x, 2), op(2, x)), I64_3)
    x = np.array([1, 5, 7])
    out = types.type_of(op(x, 2))  # i64[3], f64[3] for division
    assert eqn_lines(graph) == [f"t0:{out} = {prim} x0 2", f"t1:{out} = {prim} 2 x0"]
    got = interpreter.interpret(graph, x)
    for value, expected in zip(got, (op(x, 2), op(2, x))):
        np.testing.assert_array_equal(value, expected)
        assert value.dtype == expected.dtype


@pytest.mark.parametrize("op, prim, reflected", COMPARISONS, ids=[p for _, p, _ in COMPARISONS])
def test_comparisons_and_their_reflections(op, prim, reflected):
    graph = trace(lambda x: (op(x, 2), op(2, x)), I64_3)
    assert eqn_lines(graph) == [f"t0:bool[3] = {prim} x0 2", f"t1:bool[3] = {reflected} x0 2"]
    x = np.array([1, 2, 3])
    for value, expected in zip(interpreter.interpret(graph, x), (op(x, 2), op(2, x))):
        np.testing.assert_array_equal(value, expected)


def test_matmul_unary_operators_and_arrays_on_the_left():
    m = np.array([[1.0, 2.0], [3.0, 4.0]])
    graph = trace(
        lambda x: (x @ m, m @ x, -x, +x, abs(x), ~(x > 1), m - x), F64_3.with_shape((2, 2))
    )
    assert str(graph) == dedent("""
        graph g(x0:f64[2,2]):
          t0:f64[2,2] = matmul x0 [[1.0, 2.0], [3.0, 4.0]]:f64[2,2]
          t1:f64[2,2] = matmul [[1.0, 2.0], [3.0, 4.0]]:f64[2,2] x0
          t2:f64[2,2] = negative x0
          t3:f64[2,2] = positive x0
          t4:f64[2,2] = abs x0
          t5:bool[2,2] = greater x0 1
          t6:bool[2,2] = invert t5
          t7:f64[2,2] = subtract [[1.0, 2.0], [3.0, 4.0]]:f64[2,2] x0
          return t0, t1, t2, t3, t4, t6, t7
    """)
    x = np.array([[0.5, -1.0], [2.0, 1.5]])
    expected = (x @ m, m @ x, -x, +x, abs(x), ~(x > 1), m - x)
    for value, want in zip(interpreter.interpret(graph, x), expected):
        np.testing.assert_array_equal(value, want)


@pytest.mark.parametrize(
    "array, other",
    [
        (np.ones(3, np.float32), 2.5),
        (np.ones(3, np.float32), 2),
        (np.ones(3, np.float32), np.float64(2.5)),
        (np.ones(3, np.int32), 2.5),
        (np.ones(3, np.int8), 3),
        (np.ones(3, np.int8), np.int64(3)),
        (np.ones(3, np.uint8), True),
        (np.ones(3, np.float16), 1j),
        (np.ones(3, np.int64), np.ones(3, np.float32)),
    ],
    ids=str,
)
@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.truediv, operator.lt])
def test_result_types_follow_numpy_weak_promotion(array, other, op):
    in_type = types.type_of(array)
    graph = trace(lambda x: (op(x, other), op(other, x)), in_type)
    expected = (op(array, other), op(other, array))
    assert graph.out_types == tuple(types.type_of(e) for e in expected)
    for value, want in zip(interpreter.interpret(graph, array), expected):
        np.testing.assert_array_equal(value, want)


def test_a_weak_scalar_stays_weak_under_operators_but_not_under_numpy_functions():
    graph = trace(lambda w: (w + 1, w * 2.5, np.add(w, 1), np.multiply(w, 2.5), 1 - w), WEAK_INT)
    assert [str(t) for t in graph.out_types] == ["i64[]~", "f64[]~", "i64[]", "f64[]", "i64[]~"]
    # Python: 7 + 1 is an int; NumPy: np.add(7, 1) is an np.int64
    assert [type(v) for v in interpreter.interpret(graph, 7)[:3]] == [int, float, np.int64]


def test_operators_refuse_operands_that_are_not_numbers_or_arrays():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        assert x.__add__("a") is NotImplemented
        assert x.__radd__(None) is NotImplemented
        with pytest.raises(TypeError):
            x + "a"
        with pytest.raises(TypeError):
            _ = x < object()
    assert b.eqns == []


def test_numpy_ufuncs_on_tensors_emit_their_primitives():
    graph = trace(lambda x: (np.exp(x), np.maximum(x, 0.0), np.sqrt(np.abs(x))), F64_3)
    assert eqn_lines(graph) == [
        "t0:f64[3] = exp x0",
        "t1:f64[3] = maximum x0 0.0",
        "t2:f64[3] = abs x0",
        "t3:f64[3] = sqrt t2",
    ]


def test_ufunc_methods_that_write_are_unsupported():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        with pytest.raises(errors.UnsupportedError, match="np.add.reduce is not") as info:
            np.add.reduce(x, out=np.empty(()))
        assert info.value.construct == "np.add.reduce"
        with pytest.raises(errors.UnsupportedError, match="np.spacing is not"):
            np.spacing(x, out=np.empty(3))
    assert b.eqns == []


def test_static_shape_size_ndim_dtype_and_len_are_python_values():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float32, (2, 3)), "x")
        assert x.shape == (2, 3) and all(type(d) is int for d in x.shape)
        assert x.size == 6 and type(x.size) is int
        assert x.ndim == 2 and x.dtype == np.float32 and len(x) == 2
        assert x.T.shape == (3, 2)
    assert [eqn.prim.name for eqn in b.eqns] == ["transpose"]  # only x.T emitted anything


def test_unknown_dims_are_scalar_tensors_computed_at_run_time():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float32, (None, 2)), "x")
        rows, cols = x.shape
        size = x.size
        graph = b.finish([rows, cols, size])
    assert cols == 2 and type(cols) is int
    assert isinstance(rows, tensor.SymbolicTensor) and isinstance(size, tensor.SymbolicTensor)
    assert str(graph) == dedent("""
        graph g(x:f32[None,2]):
          t0:i64[]~ = dim[axis=0] x
          t1:i64[]~ = size x
          return t0, 2, t1
    """)
    got = interpreter.interpret(graph, np.zeros((5, 2), np.float32))
    assert got == (5, 2, 10) and all(type(v) is int for v in got)


def test_len_of_an_unknown_first_dim_or_a_scalar_raises():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, (None, 3)), "x")
        s = b.add_input(types.TensorType(np.float64, ()), "s")
        assert len(x[0]) == 3
        with pytest.raises(errors.TracerError, match="first dimension is only known") as info:
            len(x)
        assert "x.shape[0]" in info.value.hint
        with pytest.raises(TypeError, match="0-d tensor"):
            len(s)


def test_iterating_a_tensor_indexes_its_first_axis():
    graph = trace(lambda x: tuple(x), types.TensorType(np.int64, (3, 2)))
    x = np.arange(6).reshape(3, 2)
    got = interpreter.interpret(graph, x)
    assert len(got) == 3 and [str(t) for t in graph.out_types] == ["i64[2]"] * 3
    for row, want in zip(got, x):
        np.testing.assert_array_equal(row, want)


@pytest.mark.parametrize(
    "convert, what",
    [
        (bool, "the truth value of tensor 'x' (f64[]) is only known when the graph runs"),
        (int, "int() needs a concrete value, but tensor 'x' (f64[])"),
        (float, "float() needs a concrete value, but tensor 'x' (f64[])"),
        (complex, "complex() needs a concrete value"),
        (operator.index, "use as a Python index needs a concrete value"),
        (lambda t: [1, 2][t], "use as a Python index needs a concrete value"),
        (lambda t: t.numpy(), "tensor 'x' (f64[]) has no value while the graph is being built"),
        (np.asarray, "has no value while the graph is being built"),
    ],
    ids=[
        "bool",
        "int",
        "float",
        "complex",
        "index",
        "list_index",
        "numpy",
        "asarray",
    ],
)
def test_conversions_that_need_a_value_raise_with_a_hint(convert, what):
    """(``t.item()`` and ``t.tolist()`` are weak scalars instead: tests/ops/test_scalars.py)"""
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, ()), "x")
        with pytest.raises(errors.TracerError) as info:
            convert(x)
    assert what in info.value.message
    assert info.value.hint
    assert "(hint: " in str(info.value)


def test_truth_value_of_an_unnamed_comparison_names_its_type():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        with pytest.raises(errors.TracerError, match=r"tensor \(bool\[3\]\)") as info:
            if x > 0:
                pass
    assert "cond/while_loop" in info.value.hint


def test_methods_emit_what_the_numpy_functions_emit():
    def both(x):
        return (
            x.sum(axis=0),
            x.mean(),
            x.max(axis=1, keepdims=True),
            x.reshape(3, 2),
            x.reshape((3, 2)),
            x.transpose(),
            x.transpose(1, 0),
            x.astype(np.int32),
            x.flatten(),
            x.ravel(),
            x.argmax(axis=1),
            x.cumsum(axis=0),
            x.clip(0.0, 1.0),
        )

    graph = trace(both, types.TensorType(np.float64, (2, 3)))
    x = np.array([[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]])
    expected = both(x)
    assert graph.out_types == tuple(types.type_of(e) for e in expected)
    for value, want in zip(interpreter.interpret(graph, x), expected):
        np.testing.assert_array_equal(value, want)


def test_round_of_a_scalar_is_a_python_int_and_with_digits_a_tensor():
    graph = trace(lambda s: (round(s), round(s, 1), np.round(s)), types.TensorType(np.float64, ()))
    assert [str(t) for t in graph.out_types] == ["i64[]~", "f64[]", "f64[]"]
    s = np.float64(2.675)
    got = interpreter.interpret(graph, s)
    expected = (round(s), round(s, 1), np.round(s))
    assert [type(v) for v in got] == [type(e) for e in expected]
    assert list(got) == list(expected)


def test_tensors_refuse_hashing_and_repr_names_them():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        y = x + 1
        with pytest.raises(TypeError, match="unhashable type: 'numpy.ndarray'"):
            hash(x)  # as NumPy refuses an array
        with pytest.raises(errors.UnsupportedError, match="hashed"):
            {y.sum(): "total"}  # a NumPy scalar hashes by value, which a graph value has not
    assert repr(x) == "<SymbolicTensor tensor 'x' (f64[3])>"
    assert repr(y) == "<SymbolicTensor tensor (f64[3])>"


def test_wrap_makes_a_symbolic_list_for_a_list_type():
    b = builder_mod.GraphBuilder("g")
    var = core.Var(types.ListType(types.TensorType(np.float64, ())))
    assert isinstance(tensor.wrap(var, b), lists.SymbolicList)
    assert isinstance(tensor.wrap(core.Var(F64_3), b), tensor.SymbolicTensor)


# ---- value predicates --------------------------------------------------------------------------


def symbolic_values():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        return b.add_input(F64_3, "x"), lists.new()


def test_is_symbolic_and_is_tensor():
    t, lst = symbolic_values()
    e = eager.EagerTensor(np.ones(3))
    assert [tensor.is_symbolic(v) for v in (t, lst, e, np.ones(3), 1.0)] == [
        True,
        True,
        False,
        False,
        False,
    ]
    assert [tensor.is_tensor(v) for v in (t, lst, e, np.ones(3), 1.0)] == [
        True,
        False,
        True,
        False,
        False,
    ]


def test_contains_tensor_looks_into_lists_and_tuples():
    t, _ = symbolic_values()
    e = eager.EagerTensor(np.ones(3))
    assert tensor.contains_tensor(t) and tensor.contains_tensor(e)
    assert tensor.contains_tensor([1, (2.0, [e])])
    assert tensor.contains_tensor((None, t))
    assert not tensor.contains_tensor([1, (2.0, [np.ones(3)])])
    assert not tensor.contains_tensor([])


def test_contains_symbolic_looks_into_dicts_too():
    t, lst = symbolic_values()
    assert tensor.contains_symbolic({"a": [1, {"b": (t,)}]})
    assert tensor.contains_symbolic([lst])
    assert not tensor.contains_symbolic({"a": [eager.EagerTensor(np.ones(3)), np.ones(2)]})


@pytest.mark.parametrize(
    "value, array_value, number",
    [
        (np.ones(3), True, True),
        (np.float32(1.5), True, True),
        (np.array([True]), True, True),
        (np.arange(3, dtype=np.uint16), True, True),
        (np.complex64(1j), True, True),
        (np.array(["a"]), False, False),
        (np.array([object()]), False, False),
        (np.datetime64("2024-01-01"), False, False),
        (np.str_("a"), False, False),
        (1, False, True),
        (2.5, False, True),
        (True, False, True),
        (1j, False, True),
        ("1", False, False),
        (None, False, False),
        ([1.0, 2.0], False, False),
    ],
    ids=repr,
)
def test_is_array_value_and_is_number(value, array_value, number):
    assert tensor.is_array_value(value) is array_value
    assert tensor.is_number(value) is number
