"""print and assert: immediate on static values, effectful equations on symbolic ones."""

import textwrap

import numpy as np
import pytest

from tograph import errors
from tograph.backend import codegen
from tograph.ir import types
from tograph.ops import effects
from tograph.trace import builder

F64_3 = types.TensorType(np.float64, (3,))


def trace(fn, *in_types):
    b = builder.GraphBuilder("f")
    with b.active():
        args = [b.add_input(t, f"x{i}" if i else "x") for i, t in enumerate(in_types)]
        out = fn(*args)
        return b.finish(out if isinstance(out, tuple) else (out,))


def failed_assertion(graph, *args):
    """The AssertionError the graph's assert raised: eager's class itself, noted by the executor."""
    with pytest.raises(AssertionError) as info:
        codegen.execute(graph, *args)
    assert type(info.value) is AssertionError
    assert info.value.__notes__[-1].startswith("tograph: ")
    return info.value


def test_print_of_static_values_prints_at_once(capsys):
    effects.print_("loss", 1.5, np.arange(2), sep="|", end="!\n")
    assert capsys.readouterr().out == "loss|1.5|[0 1]!\n"


def test_traced_print_is_one_effectful_equation():
    graph = trace(lambda x: effects.print_("loss", x, 3) or x, F64_3)
    assert str(graph) == textwrap.dedent("""\
        graph f(x:f64[3]):
          print[end='\\n', sep=' ', template=('loss', None, '3')] x
          return x""")
    eqn = graph.eqns[0]
    assert eqn.prim.effectful and eqn.outputs == ()


@pytest.mark.parametrize(
    "values, kwargs",
    [
        (("loss", "X", 3), {}),
        (("X", "X", [1, 2]), {"sep": ", ", "end": ""}),
        (("X",), {"sep": None, "end": None}),
        ((), {}),
    ],
)
def test_traced_print_prints_what_python_prints(capsys, values, kwargs):
    x = np.array([0.5, 1.0, 2.0])
    expected_values = [x if v == "X" else v for v in values]
    print(*expected_values, **kwargs)
    expected = capsys.readouterr().out

    def fn(t):
        effects.print_(*[t if v == "X" else v for v in values], **kwargs)
        return t

    graph = trace(fn, F64_3)
    codegen.execute(graph, x)
    assert capsys.readouterr().out == expected


def test_print_rejects_a_non_string_separator_like_python():
    with pytest.raises(TypeError, match="sep must be None or a string, not int"):
        effects.print_(1, sep=3)


def test_print_of_static_values_while_building_prints_on_every_run(capsys):
    graph = trace(lambda x: effects.print_("step", 1) or x, F64_3)
    assert capsys.readouterr().out == ""
    assert graph.eqns[0].params["template"] == ("step", "1") and graph.eqns[0].inputs == ()
    codegen.execute(graph, np.ones(3))
    codegen.execute(graph, np.ones(3))
    assert capsys.readouterr().out == "step 1\nstep 1\n"


def test_static_false_assert_while_building_raises_only_when_run():
    never, always = False, True
    graph = trace(lambda x: effects.assert_(never, "never ", 2) or x, F64_3)
    assert graph.eqns[0].inputs[0].value is False
    assert str(failed_assertion(graph, np.ones(3))) == "never 2"
    assert trace(lambda x: effects.assert_(always, "fine") or x, F64_3).eqns == ()


def test_static_assert_acts_at_once():
    effects.assert_(np.True_, "never shown")
    with pytest.raises(AssertionError, match="^x must be positive$"):
        effects.assert_(False, "x must be positive")
    with pytest.raises(AssertionError) as info:
        effects.assert_(0)
    assert info.value.args == ()
    with pytest.raises(AssertionError) as info:
        effects.assert_(0, {"k": 1})
    assert info.value.args == ({"k": 1},)


def test_traced_assert_checks_when_the_graph_runs():
    def fn(x):
        effects.assert_(x > 0, "x is ", x, "!")
        return x

    graph = trace(fn, types.TensorType(np.float64, ()))
    assert str(graph) == textwrap.dedent("""\
        graph f(x:f64[]):
          t0:bool[] = greater x 0
          assert[message=('x is ', None, '!')] t0 x
          return x""")
    codegen.execute(graph, np.float64(2.0))
    assert str(failed_assertion(graph, np.float64(-1.5))) == "x is -1.5!"


def test_traced_assert_without_message():
    graph = trace(lambda x: effects.assert_(x > 0) or x, types.TensorType(np.float64, ()))
    assert graph.eqns[-1].params["message"] is None
    assert failed_assertion(graph, np.float64(-1.0)).args == ()


def test_static_false_assert_with_a_symbolic_message_fails_when_run():
    graph = trace(lambda x: effects.assert_(False, "got ", x) or x, F64_3)
    assert graph.eqns[0].inputs[0].value is False
    assert str(failed_assertion(graph, np.array([1.0, 2.0, 3.0]))) == "got [1. 2. 3.]"


def test_assert_on_an_array_of_several_elements_is_ambiguous():
    with pytest.raises(
        errors.ShapeError, match=r"(?s)more than one element \(bool\[3\]\).*a.all\(\)"
    ):
        trace(lambda x: effects.assert_(x > 0) or x, F64_3)
