"""build_graph: runs a (lowered) function once on symbolic inputs described by a signature, and
returns the graph with the recipe that rebuilds the Python result (nesting kept, static leaves
returned as they are). Results are compared with the plain function run on the same arguments."""

import collections
import inspect
import textwrap

import numpy as np
import pytest

from tograph import errors
from tograph.backend import interpreter
from tograph.staging import build_graph, carried
from tograph.trace import builder as builder_mod
from tograph.trace import signature

Stats = collections.namedtuple("Stats", "total count label")


def build(fn, *args, input_spec=None, **kwargs):
    names = list(fn.__code__.co_varnames[: len(args)])
    sig, tensors = signature.make_signature(args, kwargs, names, input_spec)
    return build_graph.build_graph(fn.__name__, fn, sig), tensors


def run(built, tensors):
    return built.unflatten(interpreter.interpret(built.graph, *tensors), tensors)


def scaled(x, factor, offset=0.0):
    return x * factor + offset


def summary(x, pair, label):
    a, b = pair
    return {"sum": Stats(np.sum(x * a), len(x), label), "rest": [b, x[0] - b, None]}


def test_graph_inputs_are_the_tensor_arguments_and_statics_are_baked_in():
    built, tensors = build(scaled, np.arange(3.0), 2.5, offset=1.0)
    assert str(built.graph) == textwrap.dedent("""\
        graph scaled(x:f64[3]):
          t0:f64[3] = multiply x 2.5
          t1:f64[3] = add t0 1.0
          return t1""")
    assert built.out_slots == (0,)
    got = run(built, tensors)
    np.testing.assert_array_equal(got, scaled(np.arange(3.0), 2.5, offset=1.0))


def test_keyword_and_nested_tensor_arguments_are_named_inputs():
    built, _ = build(scaled, np.ones(2), np.float32(2), offset=np.float64(3))
    assert [str(v.type) for v in built.graph.inputs] == ["f64[2]", "f32[]", "f64[]"]
    assert "graph scaled(x:f64[2], factor:f32[], offset:f64[]):" in str(built.graph)


def test_results_keep_their_nesting_and_static_leaves():
    x, pair = np.array([1.0, -2.0, 4.0]), (np.float64(0.5), np.float64(3.0))
    built, tensors = build(summary, x, pair, "stats")
    static = signature.Static
    assert [type(s) for s in built.out_slots] == [int, static, static, int, int, static]
    assert len(built.graph.outputs) == 3
    got = run(built, tensors)
    expected = summary(x, pair, "stats")
    assert type(got["sum"]) is Stats and got["sum"].label == "stats" and got["sum"].count == 3
    assert got["rest"][2] is None
    np.testing.assert_array_equal(got["sum"].total, expected["sum"].total)
    np.testing.assert_array_equal(got["rest"][:2], expected["rest"][:2])
    assert list(got) == list(expected) and type(got["rest"]) is list


def test_a_static_result_is_not_a_graph_output():
    def constant(x, n):
        return n * 2, "done"

    built, tensors = build(constant, np.ones(2), 21)
    assert built.graph.outputs == ()
    assert run(built, tensors) == (42, "done")


def test_the_same_tensor_returned_twice_is_one_output():
    def twice(x):
        y = x + 1
        return y, (y, x)

    built, tensors = build(twice, np.zeros(2))
    assert built.out_slots == (0, 0, build_graph.AliasOut(0, (), ()))
    assert len(built.graph.outputs) == 1
    a, (b, c) = run(built, tensors)
    np.testing.assert_array_equal(a, [1.0, 1.0])
    assert b is a  # the same array, as Python returns it
    assert c is tensors[0]  # the argument itself


def test_input_spec_gives_a_graph_for_every_size():
    built, _ = build(scaled, np.ones(3), 2.0, input_spec=[signature.TensorSpec((None,))])
    assert str(built.graph).startswith("graph scaled(x:f64[None]):")
    for n in (0, 5):
        got = built.unflatten(interpreter.interpret(built.graph, np.arange(float(n))))
        np.testing.assert_array_equal(got, np.arange(float(n)) * 2.0)


def test_returning_an_unassigned_variable_is_an_unbound_error():
    def maybe(x):
        return x, carried.Undefined("result")

    with pytest.raises(errors.UnboundVariableError) as info:
        build(maybe, np.ones(2))
    assert isinstance(info.value, UnboundLocalError)
    assert info.value.message == (
        "cannot access local variable 'result' where it is not associated with a value "
        "(it is returned, but not assigned on every path)"
    )
    assert builder_mod.current() is None


def test_errors_in_the_function_leave_no_builder_active():
    def broken(x):
        return x + np.ones(4)

    with pytest.raises(errors.ShapeError):
        build(broken, np.ones(3))
    assert builder_mod.current() is None


def test_unflatten_fills_slots_in_order():
    built, _ = build(summary, np.ones(2), (np.float64(1), np.float64(2)), "s")
    got = built.unflatten(("A", "B", "C"))
    assert got == {"sum": Stats("A", 2, "s"), "rest": ["B", "C", None]}


def _every_kind(a, b=1, /, c=2, *rest, d, e=3, **extra):
    return a


def _captured_by_a_closure(x, *args, k, **kw):
    return lambda: (x, args, k, kw)


@pytest.mark.parametrize(
    "fn",
    [
        scaled,
        summary,
        _every_kind,
        _captured_by_a_closure,
        lambda: 0,
        lambda *a: a,
        lambda **k: k,
        lambda a, /, *, b: a,
    ],
)
def test_parameters_read_from_the_code_are_those_inspect_gives(fn):
    for skip in (0, 1):
        expected = [(p.name, p.kind) for p in inspect.signature(fn).parameters.values()][skip:]
        assert build_graph._parameters(fn, skip) == expected
