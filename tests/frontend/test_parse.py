"""parse: functions, lambdas and methods become gast trees on the user's lines; fence names what
it rejects."""

import inspect
import textwrap

import gast
import numpy as np
import pytest

import tograph as tg
from tograph import errors
from tograph.frontend import fence, parse


def plain(x):
    y = x + 1
    return y


class Holder:
    def method(self, x):
        return x * 2


def test_function_tree_keeps_file_lines():
    parsed, tree = parse.parse_function(plain)
    first = inspect.getsourcelines(plain)[1]
    assert isinstance(tree, gast.FunctionDef) and tree.name == "plain"
    assert tree.lineno == first and tree.body[0].lineno == first + 1
    assert parsed.loc(tree.body[1]).source_line.strip() == "return y"


def test_each_tree_call_gives_a_fresh_tree():
    parsed, first = parse.parse_function(plain)
    assert parsed.tree() is not first and gast.dump(parsed.tree()) == gast.dump(first)


def test_method_and_indented_source():
    _, tree = parse.parse_function(Holder.method)
    assert [a.id for a in tree.args.args] == ["self", "x"]


def test_lambda_becomes_a_def_returning_its_body():
    double = lambda v: v * 2  # noqa: E731
    _, tree = parse.parse_function(double)
    assert (
        isinstance(tree.body[0], gast.Return) and tree.lineno == inspect.getsourcelines(double)[1]
    )


def test_lambdas_sharing_a_line_are_told_apart_by_their_columns():
    pair = (lambda v: v + 1, lambda v: v - 1)
    table = {"a": lambda v: v * 2, "b": lambda v: v / 2}
    nested = lambda v: (lambda v: v * 10)(v) + 1  # noqa: E731
    default = lambda v, f=lambda v: v - 3: f(v) * 2  # noqa: E731
    inner = (lambda v: lambda v: v * 10)(0)
    x = np.array([1.0, -2.0])
    for fn in [*pair, *table.values(), nested, default, inner]:
        compiled = tg.to_static(fn, fallback="error")
        np.testing.assert_array_equal(compiled(x), fn(x))
    assert parse.parse_function(pair[1])[0].source == "(lambda v: v - 1)"
    assert parse.parse_function(table["a"])[0].source == "(lambda v: v * 2)"


def test_without_column_positions_two_lambdas_on_a_line_are_ambiguous(monkeypatch):
    monkeypatch.setattr(parse, "_body_start", lambda code: None)
    pair = (lambda v: v + 1, lambda v: v - 1)
    with pytest.raises(errors.UnsupportedError, match="cannot tell which lambda"):
        parse.parse_function(pair[0])


def test_source_not_available():
    namespace = {}
    exec("def made(x):\n    return x\n", namespace)  # noqa: S102
    with pytest.raises(errors.UnsupportedError, match="source of made is not available") as info:
        parse.parse_function(namespace["made"])
    assert info.value.construct == "source not available"
    with pytest.raises(errors.UnsupportedError, match="not a Python function"):
        parse.parse_function(np.exp)


def uses_with(x):
    with open(x) as f:
        y = f.read()
    return y


def returns_from_errstate(x):
    with np.errstate(all="ignore"):
        return x / 0


def closure_in_loop(x):
    fs = []
    for i in range(3):
        fs.append(lambda v: v * i)
    return fs


def default_bound_in_loop(x):
    fs = []
    for i in range(3):
        fs.append(lambda v, k=i: v * k)
    return fs


def closure_called_in_a_loop_that_assigns_its_variable(x):
    i = 0

    def get():
        return i

    while x > 0:
        x = x - 1
        i = i + 1
        y = get()
    return i, y


def closure_called_after_the_loop(x):
    i = 0
    get = lambda: i  # noqa: E731 - a lambda bound to a name is the case under test
    while x > 0:
        x = x - 1
        i = i + 1
    return get()


def deletes_a_variable(x):
    y = x + 1
    del y
    return x


def declares_a_global(x):
    global COUNTER
    return x


@pytest.mark.parametrize(
    "fn, construct, text",
    [
        (uses_with, "with statement", "with open"),
        (returns_from_errstate, "return, break or continue leaving", "with np.errstate"),
        (deletes_a_variable, "del of a variable", "del y"),
        (declares_a_global, "global statement", "global COUNTER"),
        (closure_in_loop, "closure over variable 'i'", "lambda v: v * i"),
        (
            closure_called_in_a_loop_that_assigns_its_variable,
            "closure 'get' over variable 'i'",
            "while x > 0",
        ),
    ],
)
def test_fence_names_construct_and_line(fn, construct, text):
    parsed, tree = parse.parse_function(fn)
    with pytest.raises(errors.UnsupportedError) as info:
        fence.check_supported(parsed, gast.walk(tree))
    lines, first = inspect.getsourcelines(fn)
    line = first + next(i for i, src in enumerate(lines) if text in src)
    assert construct in info.value.construct and info.value.loc.line == line


@pytest.mark.parametrize("fn", [default_bound_in_loop, closure_called_after_the_loop])
def test_fence_accepts_closures_that_see_the_current_value(fn):
    parsed, tree = parse.parse_function(fn)
    fence.check_supported(parsed, gast.walk(tree))


@pytest.mark.parametrize("x", [np.float64(23.0), np.float64(1.0)])
def test_closure_over_a_loop_variable_matches_eager(x):
    static = tg.to_static(closure_called_after_the_loop)
    assert static(x) == closure_called_after_the_loop(x)
    assert static.concrete(x).fallback is None
    with pytest.warns(tg.FallbackWarning, match="closure 'get'"):
        result = tg.to_static(closure_called_in_a_loop_that_assigns_its_variable)(x)
    assert result == closure_called_in_a_loop_that_assigns_its_variable(x)


def test_lambda_among_other_arguments_and_in_a_dict():
    table = {
        "double": lambda v: v * 2,
        "neg": lambda w: -w,
    }
    assert parse.parse_function(table["double"])[0].source == "(lambda v: v * 2)"
    assert parse.parse_function(table["neg"])[0].source == "(lambda w: -w)"
    scaled = tg.to_static(lambda x: x * 3.0, fallback="error")
    assert scaled(np.float64(2.0)) == 6.0


def _decorated(fn):
    return fn


@_decorated
def _decorated_with_trailing_comment(x):
    y = x + 1
    return y
    # a comment inside the block


def _closing_bracket_dedented(x):
    return np.add(
        x,
        1,
    )


class _Holder:
    def method(self, x):
        def inner(y):
            return y * 2

        return inner(x)


@pytest.mark.parametrize(
    "fn",
    [_decorated_with_trailing_comment, _closing_bracket_dedented, _Holder.method],
    ids=["decorated", "dedented_bracket", "method_with_nested_def"],
)
def test_source_found_without_inspect_is_inspects(fn):
    parsed, _ = parse.parse_function(fn)
    lines, first = inspect.getsourcelines(fn)
    assert parsed.source == textwrap.dedent("".join(lines))
    assert parsed.line_offset == first - 1
