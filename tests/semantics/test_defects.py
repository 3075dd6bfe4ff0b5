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


# ---- `is` on values that are Python bools or numbers in eager code ---------------------------


def loop_while_flag_is_false(x):
    flag = False
    n = 0
    while flag is False:
        n += 1
        if x.sum() < n:
            flag = True
    return n


def loop_while_flag_is_not_true(x):
    flag = False
    n = 0
    while flag is not True:
        n += 1
        flag = bool(x.sum() < n) or flag
    return n, flag


def flags_compared_by_identity(x):
    hit = False
    if x.max() > 2:
        hit = True
    return hit is True, hit is not False, hit is None, not hit, (x.sum() > 0) is True


def weak_number_identity(x):
    count = 0
    if x.sum() > 0:
        count = 1
    return count == 1 and count is not None, count is int("0")


@pytest.mark.parametrize(
    "fn", [loop_while_flag_is_false, loop_while_flag_is_not_true, flags_compared_by_identity]
)
@pytest.mark.parametrize("x", [np.array([4.5]), np.array([-1.0, 3.0]), VEC])
def test_identity_of_python_bools_compares_their_values(fn, x):
    assert_matches_eager(fn, x)


def test_identity_of_numbers_falls_back():
    for x in (VEC, -VEC):
        cf = assert_matches_eager(weak_number_identity, x, compiles=False)
    assert "'is' between numbers" in cf.fallback


# ---- chained comparisons evaluate each operand once ------------------------------------------


def announced(v):
    print("evaluating", v.shape)
    return v.sum()


def chained_with_effects(x):
    return 0 < announced(x) < 10 < announced(x * 4)


@pytest.mark.parametrize("x", [VEC, -VEC, np.array([5.0])])
def test_chained_comparison_evaluates_each_operand_once(x, capsys):
    assert_matches_eager(chained_with_effects, x)
    printed = capsys.readouterr().out.splitlines()
    half = len(printed) // 2
    assert printed[:half] == printed[half:] and half in (1, 2)
