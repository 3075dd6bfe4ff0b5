"""Calls from converted code: which callables are user code (converted, so a tensor ``if`` in them
becomes a ``cond``) and which run as they are (tograph, the standard library, installed packages,
builtins, already converted code); partials, bound methods, callable objects and ``@to_static``
functions; defaults; and user functions that cannot be converted."""

import dataclasses
import functools
import json
import textwrap

import astor
import numpy as np
import pytest

import tograph
from tograph import errors
from tograph.backend import interpreter
from tograph.ir import types
from tograph.lowering import convert
from tograph.staging import calls, carried, runtime
from tograph.trace import builder as builder_mod

F64 = types.TensorType(np.float64, ())


def relu(x, scale=1.0, *, shift=0.0):
    if x > 0:
        y = x * scale + shift
    else:
        y = 0.0 * x + shift
    return y


class Shifter:
    def __init__(self, k):
        self.k = k

    def shift(self, x):
        if x > self.k:
            return x - self.k
        return x

    def __call__(self, x):
        if x > 0:
            return x
        return -x

    @staticmethod
    def double(x):
        if x > 0:
            return 2 * x
        return x


def guarded(x):
    y = x
    del y  # a construct that cannot be converted
    return x + 1


def guarded_branch(x):
    y = x
    del y  # a construct that cannot be converted
    if x > 0:
        return x
    return -x


def guarded_generator(x):
    try:
        yield x
    finally:
        pass
    if x > 0:
        yield x


def call_traced(fn, *args, **kwargs):
    """Calls ``fn`` on a symbolic ``x:f64[]`` (first argument) as converted code would; returns the
    graph and what the call returned."""
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64, "x")
        out = calls.call_user(fn, (x, *args), kwargs, runtime)
        graph = b.finish([out])
    return graph


def prims(graph):
    return [e.prim.name for e in graph.eqns]


def value(graph, x):
    return interpreter.interpret(graph, np.float64(x))[0]


@pytest.mark.parametrize("x", [-2.0, 3.0])
def test_a_user_function_is_converted(x):
    graph = call_traced(relu)
    assert prims(graph) == ["greater", "cond"]
    assert value(graph, x) == relu(x)


@pytest.mark.parametrize("x", [-2.0, 3.0])
def test_defaults_and_keywords_reach_the_converted_function(x):
    graph = call_traced(relu, 2.0, shift=0.5)
    assert value(graph, x) == relu(x, 2.0, shift=0.5)
    graph = call_traced(relu, shift=-1.0)
    assert value(graph, x) == relu(x, shift=-1.0)


@pytest.mark.parametrize("x", [-2.0, 3.0])
def test_partials_are_unwrapped_with_their_arguments(x):
    inner = functools.partial(relu, scale=3.0, shift=1.0)
    outer = functools.partial(inner, shift=2.0)  # a call's keywords override the partial's
    graph = call_traced(outer)
    assert prims(graph) == ["greater", "cond"]
    assert value(graph, x) == outer(x)
    graph = call_traced(inner, shift=-5.0)
    assert value(graph, x) == inner(x, shift=-5.0)


def test_a_partial_with_leading_positional_arguments():
    def affine(a, x):
        if x > 0:
            return a * x
        return x

    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64, "x")
        out = calls.call_user(functools.partial(affine, 3.0), (x,), {}, runtime)
        graph = b.finish([out])
    assert prims(graph) == ["greater", "cond"]
    assert value(graph, 2.0) == 6.0 and value(graph, -2.0) == -2.0


@pytest.mark.parametrize("x", [0.5, 3.0])
def test_bound_methods_are_converted_with_their_object(x):
    obj = Shifter(1.0)
    graph = call_traced(obj.shift)
    assert prims(graph) == ["greater", "cond"]
    assert value(graph, x) == obj.shift(x)


@pytest.mark.parametrize("x", [-0.5, 3.0])
def test_callable_objects_convert_their_call_method(x):
    obj = Shifter(1.0)
    graph = call_traced(obj)
    assert prims(graph) == ["greater", "cond"]
    assert value(graph, x) == obj(x)


def test_static_methods_and_lambdas_are_converted():
    graph = call_traced(Shifter.double)
    assert prims(graph) == ["greater", "cond"]
    assert value(graph, 2.0) == 4.0 and value(graph, -2.0) == -2.0
    graph = call_traced(lambda v: v + 1 if v > 0 else v - 1)
    assert prims(graph) == ["greater", "cond"]
    assert value(graph, 2.0) == 3.0 and value(graph, -2.0) == -3.0


def test_a_to_static_function_is_converted_inline():
    compiled = tograph.to_static(relu)
    graph = call_traced(compiled)
    assert prims(graph) == ["greater", "cond"]
    assert value(graph, -1.0) == 0.0 and value(graph, 2.0) == 2.0


class NoisyWeights:
    """A class whose ``__init__`` draws, seeds a generator of its own and prints."""

    def __init__(self, n, seed):
        self.w = np.random.standard_normal(n)
        self.rng = np.random.default_rng(seed)
        print("made", n)

    def score(self, x):
        return self.w @ x + self.rng.normal()


def noisy_scores(x, seed):
    return NoisyWeights(len(x), seed).score(x)


@dataclasses.dataclass
class NoisyLayer:
    n: int
    scale: float = 1.0

    def __post_init__(self):
        self.w = self.scale * np.random.standard_normal(self.n)
        print("post init", self.n)


def noisy_layer_output(x):
    layer = NoisyLayer(len(x), scale=2.0)
    return layer.w @ x, sorted(vars(layer))


class ThresholdedInit:
    def __init__(self, x):
        if x > 0:
            self.level = x
        else:
            self.level = -x


def test_a_constructor_runs_converted_on_every_call(capsys):
    """__init__ draws, makes a generator and prints on every call, as eagerly (it ran once, while
    the graph was built, and the graph then reused its numbers)."""
    x = np.array([1.0, 2.0, -0.5])
    np.random.seed(3)
    expected = [noisy_scores(x, s) for s in (1, 1, 2)]
    eager_out = capsys.readouterr().out
    static = tograph.to_static(noisy_scores, fallback="error")
    np.random.seed(3)
    got = [static(x, s) for s in (1, 1, 2)]
    assert got == expected and capsys.readouterr().out == eager_out == "made 3\n" * 3


def test_a_dataclass_post_init_runs_converted_on_every_call(capsys):
    """The generated __init__ runs as it is, but its __post_init__ call reaches the converted
    one: it drew once, while the graph was built, and printed once."""
    x = np.array([1.0, 2.0, -0.5])
    np.random.seed(5)
    expected = [noisy_layer_output(x) for _ in range(3)]
    eager_out = capsys.readouterr().out
    static = tograph.to_static(noisy_layer_output, fallback="error")
    np.random.seed(5)
    got = [static(x) for _ in range(3)]
    assert got == expected and expected[0][1] == ["n", "scale", "w"]
    assert capsys.readouterr().out == eager_out == "post init 3\n" * 3


@pytest.mark.parametrize("x", [-2.0, 3.0])
def test_a_tensor_if_in_a_constructor_sets_the_made_object(x):
    graph = call_traced(lambda v: ThresholdedInit(v).level)
    assert "cond" in prims(graph)
    assert value(graph, x) == ThresholdedInit(x).level


def test_a_constructor_returning_a_value_raises_as_eagerly():
    class Odd:
        def __init__(self, x):
            return x

    with pytest.raises(TypeError, match="should return None"):
        Odd(1.0)
    with pytest.raises(TypeError, match="should return None"):
        tograph.to_static(lambda v: Odd(v))(np.float64(1.0))


def test_library_code_runs_as_it_is(monkeypatch):
    converted = []
    real = convert.convert
    monkeypatch.setattr(convert, "convert", lambda fn: converted.append(fn) or real(fn))
    assert calls.call_user(json.dumps, ([1, 2],), {}, runtime) == "[1, 2]"
    assert calls.call_user(textwrap.dedent, ("  a\n  b",), {}, runtime) == "a\nb"
    assert calls.call_user(carried.describe, (None,), {}, runtime) == "None"
    assert calls.call_user(len, ([1, 2],), {}, runtime) == 2
    assert calls.call_user(np.linspace, (0.0, 1.0, 3), {}, runtime).tolist() == [0.0, 0.5, 1.0]
    assert converted == []
    assert calls.call_user(relu, (2.0,), {}, runtime) == 2.0
    assert converted == [relu]
    made = calls.call_user(Shifter, (2.0,), {}, runtime)  # a class: its __init__ is user code
    assert isinstance(made, Shifter) and made.k == 2.0
    assert converted == [relu, Shifter.__init__]


def test_which_functions_are_user_code(monkeypatch):
    assert calls._is_user_code(relu)
    assert calls._is_user_code(Shifter.shift)
    assert not calls._is_user_code(carried.describe)  # tograph itself, wherever installed
    assert not calls._is_user_code(textwrap.dedent)  # the standard library
    assert not calls._is_user_code(astor.to_source)  # an installed package
    # ... unless the converted code calling it is that package's own
    monkeypatch.setattr(calls.origin, "current_module", lambda: "astor.code_gen")
    assert calls._is_user_code(astor.to_source)
    assert not calls._is_user_code(textwrap.dedent)
    monkeypatch.setattr(calls.origin, "current_module", lambda: "tograph.api")
    assert not calls._is_user_code(carried.describe)


def test_converted_code_is_not_converted_again(monkeypatch):
    lowered = convert.convert(relu).instantiate(relu, runtime)
    monkeypatch.setattr(convert, "convert", lambda fn: pytest.fail(f"converted {fn}"))
    graph = call_traced(lowered)
    assert prims(graph) == ["greater", "cond"]


def test_an_unconvertible_function_runs_as_it_is():
    graph = call_traced(guarded)
    assert prims(graph) == ["add"]
    assert value(graph, 1.5) == 2.5


def test_an_unconvertible_function_that_branches_on_a_tensor_says_why():
    with pytest.raises(errors.UnsupportedError) as info:
        call_traced(guarded_branch)
    assert info.value.message == (
        "guarded_branch could not be converted (del of a variable or attribute is not supported "
        "in converted functions) and does not run on tensors as it is: the truth value of tensor "
        "(bool[]) is only known when the graph runs"
    )
    assert info.value.construct == "del of a variable or attribute"
    assert info.value.loc.file == __file__  # where the unsupported construct is
    assert isinstance(info.value.__cause__, errors.TracerError)


def test_an_unconvertible_generator_says_why_when_iterated():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64, "x")
        gen = calls.call_user(guarded_generator, (x,), {}, runtime)
        assert next(gen) is x
        with pytest.raises(errors.UnsupportedError, match="guarded_generator could not be"):
            next(gen)


def test_unwrap():
    obj = Shifter(1.0)
    assert calls._unwrap(relu) == (relu, None)
    assert calls._unwrap(obj.shift) == (Shifter.shift, obj)
    assert calls._unwrap(obj) == (Shifter.__call__, obj)
    assert calls._unwrap(tograph.to_static(relu)) == (relu, None)
    assert calls._unwrap(len) == (None, None)
    assert calls._unwrap(Shifter) == (None, None)
    assert calls._unwrap([].append) == (None, None)
