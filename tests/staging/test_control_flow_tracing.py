"""cond and while_loop: tracing (types joined, captures, errors naming variables) and running.

Every traced graph is linted with ``check_graph`` and run with both executors (generated code
and the interpreter); results are compared with the same function run as plain Python.
"""

import collections
import inspect
import re
import textwrap

import numpy as np
import pytest

import tograph as tg
from tograph import errors, origin
from tograph.backend import codegen, interpreter
from tograph.ir import check, primitives, types
from tograph.ops import control
from tograph.staging import carried, choices, control_flow, optional, subtrace
from tograph.trace import builder

F64 = types.TensorType(np.float64, ())
F32 = types.TensorType(np.float32, ())
I64 = types.TensorType(np.int64, ())
BOOL = types.TensorType(np.bool_, ())
F64_3 = types.TensorType(np.float64, (3,))
WEAK_INT = types.TensorType(np.int64, (), weak=True)

cond, while_loop, Undefined = control_flow.cond, control_flow.while_loop, carried.Undefined


def _grow_rule(x):
    return x.with_shape((None if x.shape[0] is None else x.shape[0] + 1,))


# Test-only primitives: a shape-changing op and a list push, so these tests need no other op family.
grow_p = primitives.Primitive("test_control_grow", lambda x: np.append(x, x[-1:] * 2), _grow_rule)
push_p = primitives.Primitive(
    "test_control_push", lambda lst, x: [*lst, x], lambda lst, x: types.ListType(x)
)


def trace(fn, *in_types, names=None):
    """The checked graph of ``fn`` on symbolic inputs of ``in_types``."""
    b = builder.GraphBuilder(fn.__name__)
    with b.active():
        args = [b.add_input(t, hint=n) for t, n in zip(in_types, names or [None] * len(in_types))]
        out = fn(*args)
        graph = b.finish(out if isinstance(out, tuple) else (out,))
    check.check_graph(graph)
    return graph


def run_both(graph, *args):
    """Runs ``graph`` with generated code and with the interpreter; asserts they agree."""
    got = codegen.execute(graph, *args)
    again = interpreter.interpret(graph, *args)
    assert len(got) == len(again)
    for a, b in zip(got, again):
        assert type(a) is type(b)
        np.testing.assert_array_equal(a, b)
    return got


def assert_same(got, expected, same_class=True):
    """Values equal, with the same dtype and (unless told otherwise) the same Python/NumPy class.

    A loop that runs zero times leaves a Python float a Python float in plain Python, where the
    graph (whose carry is f64 from the body's result) gives np.float64: pass ``same_class=False``.
    """
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        assert type(a) is type(b) or not same_class, (a, b)
        assert np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_allclose(a, b)


def dedent(text):
    return textwrap.dedent(text).strip("\n")


# ---- cond ----------------------------------------------------------------------------------


def abs_plus(x, y):
    return cond(x > 0, lambda x, y: (x + y, y), lambda x, y: (-x, y * 2), (x, y), ("x", "y"))


def test_cond_golden_and_both_branches():
    graph = trace(abs_plus, F64, I64, names=["x", "y"])
    assert str(graph) == dedent("""
        graph abs_plus(x:f64[], y:i64[]):
          t0:bool[] = greater x 0
          x_1:f64[], y_1:i64[] = cond t0 x y
            then(x_2:f64[], y_2:i64[]):
              t1:f64[] = add x_2 y_2
              return t1, y_2
            else(x_3:f64[], y_3:i64[]):
              t2:f64[] = negative x_3
              t3:i64[] = multiply y_3 2
              return t2, t3
          return x_1, y_1
    """)
    for x in (-1.5, 2.0):
        args = (np.float64(x), np.int64(3))
        assert_same(run_both(graph, *args), abs_plus(*args))


def test_cond_static_predicate_runs_one_branch_only():
    calls = []
    out = cond(
        True,
        lambda a: (calls.append("then") or a + 1,),
        lambda a: calls.append("else"),
        (1,),
        ("a",),
    )
    assert out == (2,) and calls == ["then"]


def promote_in_one_branch(x, p):
    return cond(p, lambda x: (x.astype(np.float64),), lambda x: (x,), (x,), ("x",))


def test_cond_joins_dtypes_with_astype_in_the_branch_that_needs_it():
    graph = trace(promote_in_one_branch, F32, BOOL, names=["x", "p"])
    then_graph, else_graph = graph.eqns[0].params["then_graph"], graph.eqns[0].params["else_graph"]
    assert graph.out_types == (F64,)
    assert [e.prim.name for e in then_graph.eqns] == ["astype"]
    assert [e.prim.name for e in else_graph.eqns] == ["astype"]
    for p in (np.True_, np.False_):
        (out,) = run_both(graph, np.float32(1.5), p)
        assert out.dtype == np.float64 and out == 1.5


def python_numbers_in_branches(p):
    return cond(p, lambda n, k: (n + 1, k), lambda n, k: (n, k), (0, "same"), ("n", "k"))


def test_cond_weak_numbers_join_to_weak_and_static_values_stay_static():
    graph_builder = builder.GraphBuilder("g")
    with graph_builder.active():
        p = graph_builder.add_input(BOOL, "p")
        n, k = python_numbers_in_branches(p)
        assert k == "same"
        assert n.graph_var.type == WEAK_INT
        graph = graph_builder.finish([n])
    check.check_graph(graph)
    assert run_both(graph, np.True_) == (1,)
    assert type(run_both(graph, np.False_)[0]) is int


def test_cond_weak_and_strong_join_to_strong():
    def f(p, x):
        return cond(p, lambda v: (v,), lambda v: (1.0,), (x,), ("v",))[0]

    graph = trace(f, BOOL, F32)
    assert graph.out_types == (F32,)
    (out,) = run_both(graph, np.False_, np.float32(3.0))
    assert type(out) is np.float32 and out == 1.0


def test_cond_differing_dims_become_unknown():
    def f(p, x):
        return cond(p, lambda x: (grow_p.bind(x),), lambda x: (x,), (x,), ("x",))[0]

    graph = trace(f, BOOL, F64_3)
    assert graph.out_types == (types.TensorType(np.float64, (None,)),)
    x = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(run_both(graph, np.True_, x)[0], [1, 2, 3, 6])
    np.testing.assert_array_equal(run_both(graph, np.False_, x)[0], x)


def test_cond_pytrees_are_repacked():
    Pair = collections.namedtuple("Pair", "a b")

    def f(p, x):
        state = ({"u": x, "v": [x, 2]}, Pair(x, "tag"))
        return cond(
            p, lambda s: ((s[0], Pair(s[1].a * 2, "tag")),), lambda s: (s,), (state,), ("s",)
        )[0]

    b = builder.GraphBuilder("g")
    with b.active():
        p, x = b.add_input(BOOL, "p"), b.add_input(F64, "x")
        (d, pair) = f(p, x)
        assert isinstance(pair, Pair) and pair.b == "tag" and d["v"][1] == 2
        graph = b.finish([d["u"], pair.a])
    check.check_graph(graph)
    assert run_both(graph, np.True_, np.float64(3.0)) == (3.0, 6.0)


def test_cond_on_a_numeric_tensor_tests_its_truth():
    def f(n, x):
        return cond(n, lambda x: (x + 1.0,), lambda x: (x,), (x,), ("x",))[0]

    graph = trace(f, I64, F64)
    assert run_both(graph, np.int64(0), np.float64(1.0)) == (1.0,)
    assert run_both(graph, np.int64(-3), np.float64(1.0)) == (2.0,)


def nested(x, y, z):
    """cond inside cond; the inner branch reads z from two levels out (a capture)."""

    def outer_then(x):
        inner = cond(y > 0, lambda x: (x * z,), lambda x: (x - z,), (x,), ("x",))
        return inner

    return cond(x > 0, outer_then, lambda x: (x + 100.0,), (x,), ("x",))[0]


def nested_python(x, y, z):
    if x > 0:
        return x * z if y > 0 else x - z
    return x + 100.0


@pytest.mark.parametrize("x, y", [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0)])
def test_nested_cond_with_capture_from_two_levels_out(x, y):
    graph = trace(nested, F64, F64, F64, names=["x", "y", "z"])
    then_graph = graph.eqns[1].params["then_graph"]
    assert len(graph.eqns[1].inputs) == 4  # pred, x, and the captures y and z
    assert len(then_graph.inputs) == 3
    args = (np.float64(x), np.float64(y), np.float64(5.0))
    assert_same(run_both(graph, *args), (nested_python(*args),))


# ---- cond errors ---------------------------------------------------------------------------


def traced_with_symbolic_pred(fn):
    b = builder.GraphBuilder("g")
    with b.active():
        return fn(b.add_input(BOOL, "p"), b.add_input(F64_3, "x"))


def test_variable_set_in_one_branch_only_is_carried_with_a_present_flag():
    (y,) = traced_with_symbolic_pred(
        lambda p, x: cond(p, lambda y: (x,), lambda y: (y,), (Undefined("y"),), ("y",))
    )
    assert isinstance(y, optional.MaybeUnset)
    assert str(y.present.graph_var.type) == "bool[]"
    assert str(y.value.graph_var.type) == "f64[3]"


def test_none_in_one_branch_and_unset_in_the_other_is_an_error_at_the_user_line():
    def user_function(p, x):
        return cond(p, lambda y: (None,), lambda y: (y,), (Undefined("y"),), ("y",))

    origin.register([user_function.__code__])
    with pytest.raises(errors.ConversionError) as info:
        traced_with_symbolic_pred(user_function)
    assert (
        info.value.message
        == "variable 'y' is set only in the if-branch; cond needs it in both branches"
    )
    assert "initialise 'y' before the if" in str(info.value)
    assert info.value.loc.line == user_function.__code__.co_firstlineno + 1


def test_static_values_that_are_not_constants_must_agree():
    with pytest.raises(
        errors.ConversionError, match=r"variable 'fn' is function len in the if-branch but"
    ):
        traced_with_symbolic_pred(
            lambda p, x: cond(p, lambda m: (len,), lambda m: (abs,), (None,), ("fn",))
        )


def test_two_constants_become_a_choice_carried_as_an_index():
    (mode,) = traced_with_symbolic_pred(
        lambda p, x: cond(p, lambda m: ("a",), lambda m: ("b",), (None,), ("mode",))
    )
    assert isinstance(mode, choices.Choice)
    assert mode.options.values == ("a", "b")
    assert str(mode.index.graph_var.type) == "i32[]"


def test_tensor_in_one_branch_and_none_in_the_other_is_optional():
    (v,) = traced_with_symbolic_pred(
        lambda p, x: cond(p, lambda v: (x,), lambda v: (None,), (None,), ("v",))
    )
    assert isinstance(v, optional.MaybeNone)
    assert str(v.value.graph_var.type) == "f64[3]"


def test_string_in_one_branch_and_none_in_the_other_is_a_choice():
    (v,) = traced_with_symbolic_pred(
        lambda p, x: cond(p, lambda v: ("a",), lambda v: (None,), (None,), ("v",))
    )
    assert isinstance(v, choices.Choice)
    assert v.options.values == ("a", None)


def test_structure_must_agree():
    with pytest.raises(
        errors.ConversionError,
        match=r"variable 's' is a tuple of 2 in the if-branch but a tuple of 3",
    ):
        traced_with_symbolic_pred(
            lambda p, x: cond(p, lambda s: ((x, x),), lambda s: ((x, x, x),), ((x, x),), ("s",))
        )


def test_rank_must_agree():
    with pytest.raises(
        errors.ShapeError, match=r"variable 'v\[1\]' is f64\[3\] in the if-branch but f64\[\]"
    ):
        traced_with_symbolic_pred(
            lambda p, x: cond(p, lambda v: ((1, x),), lambda v: ((1, x.sum()),), ((1, x),), ("v",))
        )


def test_non_scalar_condition():
    def f(p, x):
        return cond(x, lambda: (), lambda: (), (), ())

    with pytest.raises(errors.ShapeError, match=r"condition of an if must be a scalar"):
        traced_with_symbolic_pred(f)


# ---- while_loop ----------------------------------------------------------------------------


def count_loop(x, n):
    i, x = while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 0.5 + 1.0), (0, x), ("i", "x"))
    return i, x


def count_python(x, n):
    i = 0
    while i < n:
        i, x = i + 1, x * 0.5 + 1.0
    return i, x


def test_while_golden_and_weak_counter():
    graph = trace(count_loop, F64, I64, names=["x", "n"])
    assert str(graph) == dedent("""
        graph count_loop(x:f64[], n:i64[]):
          i:i64[]~, x_1:f64[] = while_loop[num_consts=1] n 0 x
            cond(n_1:i64[], i_1:i64[]~, x_2:f64[]):
              t0:bool[] = less i_1 n_1
              return t0
            body(n_2:i64[], i_2:i64[]~, x_3:f64[]):
              t1:i64[]~ = add i_2 1
              t2:f64[] = multiply x_3 0.5
              t3:f64[] = add t2 1.0
              return t1, t3
          return i, x_1
    """)
    for n in (0, 1, 7):  # 0: a zero-trip loop
        args = (np.float64(3.0), np.int64(n))
        assert_same(run_both(graph, *args), count_python(*args))


def test_python_and_numpy_scalars_become_weak_and_strong_carries():
    def f(n):
        return while_loop(
            lambda a, b: a < n, lambda a, b: (a + 1, b * 2), (0, np.float32(1)), ("a", "b")
        )

    graph = trace(f, I64)
    assert graph.out_types == (WEAK_INT, F32)
    assert_same(run_both(graph, np.int64(3)), (3, np.float32(8)))


def test_carry_dtype_promotes_and_init_gets_astype():
    def f(x):
        return while_loop(lambda x: x < 10, lambda x: (x * 1.5,), (x,), ("x",))

    graph = trace(f, I64)
    assert graph.eqns[0].prim.name == "astype"
    assert graph.out_types == (F64,)
    assert_same(run_both(graph, np.int64(2)), (np.float64(2 * 1.5**4),))


def test_weak_carry_made_strong_by_the_body():
    def f(x):
        return while_loop(lambda s: s < 5, lambda s: (s + x,), (0,), ("s",))

    graph = trace(f, F32)
    assert graph.out_types == (F32,)
    assert_same(run_both(graph, np.float32(2)), (np.float32(6),))


def test_shape_changing_carry_gets_unknown_dims():
    def f(x, n):
        return while_loop(lambda x: x.sum() < n, lambda x: (grow_p.bind(x),), (x,), ("x",))

    graph = trace(f, F64_3, F64)
    assert graph.out_types == (types.TensorType(np.float64, (None,)),)
    x = np.array([1.0, 1.0, 1.0])
    expected = x
    while expected.sum() < 40:
        expected = np.append(expected, expected[-1:] * 2)
    (out,) = run_both(graph, x, np.float64(40))
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(run_both(graph, x, np.float64(0))[0], x)


def test_list_carry_gets_its_element_type_from_the_body():
    def f(x, n):
        lst_var = builder.current().add_input(types.ListType(None), hint="acc")
        acc, _ = while_loop(
            lambda a, i: i < n,
            lambda a, i: (push_p.bind(a, x * i), i + 1),
            (lst_var, 0),
            ("acc", "i"),
        )
        return acc

    b = builder.GraphBuilder("g")
    with b.active():
        x, n = b.add_input(F64_3, "x"), b.add_input(I64, "n")
        acc = f(x, n)
        graph = b.finish([acc])
    check.check_graph(graph)
    assert graph.out_types == (types.ListType(F64_3),)
    x = np.arange(3.0)
    (out,) = run_both(graph, x, np.int64(3), [])
    np.testing.assert_array_equal(np.stack(out), [x * 0, x * 1, x * 2])


def nested_loops(x, n):
    """A triangle of loops; the inner body reads x and n from two levels out."""

    def outer_body(i, total):
        _, total = while_loop(
            lambda j, t: j < i, lambda j, t: (j + 1, t + x * j + n), (0, total), ("j", "t")
        )
        flip = cond(total > 100.0, lambda t: (t * 0.5,), lambda t: (t,), (total,), ("total",))[0]
        return i + 1, flip

    return while_loop(lambda i, t: i < n, outer_body, (0, 0.0), ("i", "total"))[1]


def nested_loops_python(x, n):
    i, total = 0, 0.0
    while i < n:
        j = 0
        while j < i:
            j, total = j + 1, total + x * j + n
        total = total * 0.5 if total > 100.0 else total
        i += 1
    return total


@pytest.mark.parametrize("n", [0, 1, 6])
def test_nested_loops_with_cond_and_two_level_captures(n):
    graph = trace(nested_loops, F64, I64, names=["x", "n"])
    assert graph.eqns[0].params["num_consts"] == 2
    args = (np.float64(1.5), np.int64(n))
    assert_same(run_both(graph, *args), (nested_loops_python(*args),), same_class=n == 6)


def test_constant_false_condition_returns_the_initial_values():
    b = builder.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64, "x")
        (result,) = while_loop(lambda x: False, lambda x: (x + 1,), (x,), ("x",))
    assert result is x and b.eqns == []


def test_constant_true_condition_loops_until_broken_from_the_outside():
    def f(x):
        return while_loop(lambda x: True, lambda x: (x + 1,), (x,), ("x",))

    graph = trace(f, F64)
    assert "while True:" in codegen.source_of(graph)


def test_static_values_pass_through_a_loop():
    def f(n):
        i, label, fn = while_loop(
            lambda i, s, f: i < n, lambda i, s, f: (f(i) + 1, s, f), (-3, "x", abs), ("i", "s", "f")
        )
        assert (label, fn) == ("x", abs)
        return i

    graph = trace(f, I64)
    assert run_both(graph, np.int64(4)) == (4,)


# ---- while_loop errors ---------------------------------------------------------------------


def traced_loop(body, init, names=("v",)):
    b = builder.GraphBuilder("g")
    with b.active():
        n = b.add_input(I64, "n")
        return while_loop(lambda *v: n > 0, body, init, names)


def test_variable_first_set_in_the_loop_body_may_be_unset_after():
    (v,) = traced_loop(lambda v: (1.0,), (Undefined("v"),))
    assert isinstance(v, optional.MaybeUnset)
    assert str(v.value.graph_var.type) == "f64[]~"


def test_function_changed_by_the_body():
    with pytest.raises(
        errors.ConversionError, match=r"variable 'v' is function len before the loop but"
    ):
        traced_loop(lambda v: (abs,), (len,))


def test_constant_changed_by_the_body_is_a_choice_of_both():
    (v,) = traced_loop(lambda v: ("b",), ("a",))
    assert isinstance(v, choices.Choice)
    assert v.options.values == ("a", "b")
    assert str(v.index.graph_var.type) == "i32[]"


def test_rank_change_in_the_body():
    with pytest.raises(
        errors.ShapeError, match=r"variable 'v' is f64\[\] before the loop but f64\[3\]"
    ):
        traced_loop(lambda v: (np.ones(3),), (np.float64(0),))


def test_impossible_type_change_names_the_variable():
    b = builder.GraphBuilder("g")
    with b.active():
        lst = b.add_input(types.ListType(None), "acc")
        with pytest.raises(
            errors.DTypeError, match=r"variable 'acc' is list\[\?\] before the loop but i64\[\]~"
        ):
            while_loop(lambda a: True, lambda a: (1,), (lst,), ("acc",))


def test_retracing_is_capped(monkeypatch):
    monkeypatch.setattr(control_flow, "_MAX_LOOP_TRACES", 1)
    with pytest.raises(
        errors.DTypeError, match=re.escape("types of loop variables 'v' keep changing")
    ):
        traced_loop(lambda v: (v * 0.5,), (np.int64(1),))


def test_structure_change_in_the_body():
    with pytest.raises(
        errors.ConversionError, match=r"variable 'v' is a list of 0 before the loop but a list of 1"
    ):
        traced_loop(lambda v: ([1.0],), ([],))


# ---- primitives on concrete values ---------------------------------------------------------


def test_primitives_run_on_concrete_values():
    graph = trace(count_loop, F64, I64)
    eqn = graph.eqns[0]
    out = control.while_loop_p.bind(np.int64(3), 0, np.float64(1.0), **eqn.params)
    assert_same(out, count_python(np.float64(1.0), np.int64(3)))
    branches = trace(abs_plus, F64, I64).eqns[1].params
    assert control.cond_p.bind(np.False_, np.float64(-2.0), np.int64(1), **branches) == (2.0, 2)


def _refine(lo, hi, depth):
    """Adaptive refinement: each level recurses twice inside a branch on a tensor, so tracing
    it builds 2**depth branches however soon the recursion would end."""
    mid = (lo + hi) / 2
    if depth == 0:
        return mid
    if abs(hi - lo) > 0.1:
        return _refine(lo, mid, depth - 1) + _refine(mid, hi, depth - 1)
    return mid


def test_a_trace_that_grows_without_bound_falls_back_naming_the_branch(monkeypatch):
    monkeypatch.setattr(subtrace, "MAX_TRACED_BODIES", 60)

    def integrate(lo, hi):
        return _refine(lo, hi, 30)

    static = tg.to_static(integrate)
    cheap = (np.float64(0.0), np.float64(0.05))
    with pytest.warns(tg.FallbackWarning) as caught:
        assert static(*cheap) == integrate(*cheap)
    reason = str(caught[0].message)
    lines, first = inspect.getsourcelines(_refine)
    line = first + next(i for i, text in enumerate(lines) if "abs(hi - lo)" in text)
    assert "branches and loop bodies over tensors" in reason
    assert f"test_control_flow_tracing.py:{line})" in reason
