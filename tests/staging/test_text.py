"""f-strings in converted code: ``formatted`` renders a static field as Python does and keeps a
tensor field for run time; ``fstring`` joins static text or makes a ``TensorText``, which has no
text while the graph is built; ``message_parts`` splits a message for print and assert. Printed
text is compared with Python's own f-strings on the same values."""

import textwrap

import numpy as np
import pytest

import tograph as tg
from tograph import errors
from tograph.backend import interpreter
from tograph.ir import types
from tograph.ops import effects
from tograph.staging import text
from tograph.trace import builder as builder_mod

# ast.FormattedValue's conversion codes
NONE, STR, REPR, ASCII = -1, ord("s"), ord("r"), ord("a")


@pytest.mark.parametrize(
    "value, conversion, spec, expected",
    [
        (3.14159, NONE, ".2f", f"{3.14159:.2f}"),
        (3.14159, NONE, "", f"{3.14159}"),
        (42, NONE, ">6", f"{42:>6}"),
        (42, NONE, "#x", f"{42:#x}"),
        ("a", REPR, "", f"{'a'!r}"),
        ("é", ASCII, "", f"{'é'!a}"),
        ("é", STR, "^5", f"{'é'!s:^5}"),
        (None, NONE, "", f"{None}"),
        ([1, 2], REPR, ">10", f"{[1, 2]!r:>10}"),
        (np.float32(0.1), NONE, "", f"{np.float32(0.1)}"),
        (np.float32(0.1), REPR, "", f"{np.float32(0.1)!r}"),
        (np.arange(3), NONE, "", f"{np.arange(3)}"),
        (np.float64(2.5), NONE, "08.3f", f"{np.float64(2.5):08.3f}"),
    ],
)
def test_a_static_field_renders_as_python_does(value, conversion, spec, expected):
    assert text.formatted(value, conversion, spec) == expected


def test_a_static_field_with_a_bad_spec_raises_as_python_does():
    with pytest.raises(ValueError):
        text.formatted("abc", NONE, ".2f")


def test_a_tensor_field_is_kept_with_its_slot():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, ()), "x")
        field = text.formatted(x, REPR, ".3")
    assert isinstance(field, effects.Formatted)
    assert field.value is x
    assert field.slot == effects.FormatSlot(".3", "r")
    assert b.eqns == []


def test_fstring_of_static_parts_is_a_string():
    assert text.fstring("a", "b", "c") == "abc"
    assert text.fstring() == ""
    assert text.fstring("x = ", text.formatted(1.5, NONE, ".1f")) == "x = 1.5"


def test_fstring_with_a_tensor_field_is_tensor_text():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, ()), "x")
        field = text.formatted(x, NONE, "")
        message = text.fstring("x = ", field, "!")
    assert isinstance(message, text.TensorText)
    assert message.parts == ("x = ", field, "!")
    assert text.message_parts(message) == ("x = ", field, "!")


def test_tensor_text_has_no_text_while_the_graph_is_built():
    message = text.TensorText(["x = ", effects.Formatted(None, effects.FormatSlot())])
    with pytest.raises(errors.UnsupportedError, match="text exists only when the graph") as info:
        str(message)
    assert "assert messages" in info.value.hint
    assert info.value.construct == "string of a tensor"
    uses = [
        lambda: f"{message}",
        lambda: message == "x = 1",
        lambda: bool(message),
        lambda: len(message),
        lambda: message + "!",
        lambda: message.upper(),
        lambda: {message: 1},
    ]
    for use in uses:
        with pytest.raises(errors.UnsupportedError):
            use()


def test_a_returned_tensor_string_falls_back_naming_the_line_that_made_it():
    """Returned, the text is refused after the function's code has run: the reason still names
    the f-string's line (it once named none), and the eager result is given."""

    def report(x):
        i = int(np.argmax(x))
        label = f"best x[{i}]"
        return i, label

    x = np.array([0.5, 2.0, 1.0])
    with pytest.warns(tg.FallbackWarning) as caught:
        got = tg.to_static(report)(x)
    assert got == report(x)
    line = report.__code__.co_firstlineno + 2
    assert f"test_text.py:{line})" in str(caught[0].message)
    assert "string formatted from a tensor is returned" in str(caught[0].message)


def test_message_parts():
    assert text.message_parts(None) == ()
    assert text.message_parts("plain") == ("plain",)
    assert text.message_parts(3) == (3,)


@pytest.mark.parametrize(
    "value, conversion, spec",
    [
        (np.float64(3.14159), NONE, ".2f"),
        (np.float64(3.14159), REPR, ""),
        (np.arange(3), NONE, ""),
        (np.int64(255), NONE, "#06x"),
        (np.float32(0.1), STR, ">12"),
    ],
)
def test_tensor_text_prints_at_run_time_as_the_f_string_would(value, conversion, spec, capsys):
    in_type = types.type_of(value)
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(in_type, "x")
        message = text.fstring("x = ", text.formatted(x, conversion, spec), ";")
        effects.print_(*text.message_parts(message), sep="")
        graph = b.finish([])
    conv = {NONE: "", STR: "!s", REPR: "!r"}[conversion]
    python = eval(f'f"x = {{value{conv}:{spec}}};"', {"value": value})
    assert capsys.readouterr().out == ""  # nothing printed while building
    interpreter.interpret(graph, value)
    assert capsys.readouterr().out == python + "\n"


def test_printed_graph_of_a_tensor_f_string():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, (2,)), "x")
        message = text.fstring("mean ", text.formatted(x.mean(), NONE, ".3f"), " of ", "x")
        effects.print_(*text.message_parts(message), sep="")
        graph = b.finish([])
    assert str(graph) == textwrap.dedent("""\
        graph g(x:f64[2]):
          t0:f64[] = mean[axis=None, dtype=None, keepdims=False] x
          print[end='\\n', sep='', template=('mean ', {:.3f}, ' of ', 'x')] t0
          return""")
