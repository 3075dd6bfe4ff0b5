"""Regression tests for the defects of issue 10, section 2, each written from the user's side:
the function compiled gives what it gives eagerly (``eager_oracle``), by a graph or by a
fallback that names the construct and the line; never an error from inside the compiler."""

import linecache

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg
from tograph.backend import codegen
from tograph.lowering import convert
from tograph.passes import manager
from tograph.staging import build_graph

VEC = np.array([1.0, -2.0, 3.0])


def branchy(x):
    if x.sum() > 0:
        x = x * 2
    return x + 1


def _raise_inside(*_args, **_kwargs):
    raise KeyError("a bug in the compiler")


# ---- crash safety: an exception inside the compiler becomes a fallback with its reason -------


@pytest.mark.parametrize(
    "module, name",
    [
        (convert, "analyze"),
        (convert, "lower"),
        (build_graph, "build_graph"),
        (manager, "run_passes"),
        (codegen, "compile_graph"),
    ],
)
def test_an_exception_in_any_compiler_stage_falls_back(monkeypatch, module, name):
    monkeypatch.setattr(module, name, _raise_inside)
    cf = assert_matches_eager(branchy, VEC, compiles=False)
    assert "KeyError" in cf.fallback
    with pytest.raises(tg.ConversionError, match="a bug in the compiler"):
        tg.to_static(branchy, fallback="error")(VEC)


def _compiled_from_source(name, source):
    """A function defined by ``source`` in a file of its own (its source readable by inspect)."""
    filename = f"<defects {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - the test's own source
    return namespace[name]


def _elif_chain(arms):
    lines = ["def chain(x):", "    s = x.sum()"]
    for i in range(arms):
        lines += [f"    {'if' if i == 0 else 'elif'} s > {arms - i}:", f"        return x * {i}"]
    lines.append("    return x - 1")
    return _compiled_from_source("chain", "\n".join(lines) + "\n")


@pytest.mark.parametrize("arms, construct", [(120, "deeply nested"), (250, "nesting depth")])
def test_long_elif_chains_fall_back_naming_the_cause(arms, construct):
    chain = _elif_chain(arms)
    for value in (0.5, 60.5, 1000.0):
        cf = assert_matches_eager(chain, np.array([value]), compiles=False)
    assert "nested too deeply" in cf.fallback
    with pytest.warns(tg.FallbackWarning, match=construct):
        tg.to_static(chain)(VEC)


def halve_until_small(x):
    if x.sum() < 1:
        return x
    return halve_until_small(x / 2)


def test_recursion_ending_on_a_tensor_falls_back_at_the_recursive_call():
    cf = assert_matches_eager(halve_until_small, np.array([10.0]), compiles=False)
    assert "recursion" in cf.fallback
    first = halve_until_small.__code__.co_firstlineno
    assert any(f"test_defects.py:{first + k})" in cf.fallback for k in (1, 2, 3))


def test_fallback_error_mode_reports_the_recursion():
    with pytest.raises(tg.ConversionError, match="recursion too deep"):
        tg.to_static(halve_until_small, fallback="error")(np.array([10.0]))
