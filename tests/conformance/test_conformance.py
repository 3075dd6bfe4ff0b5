"""The conformance suite as pytest cases (one per case, ids = case names), plus checks that the
harness itself notices wrong results, missing fallbacks and missing errors."""

import copy

import numpy as np
import pytest

import tograph_conformance as conformance
from tograph_conformance import case as case_mod
from tograph_conformance import check, compare, gradient, runner

CASES = conformance.all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case):
    result = runner.run_case(case)
    if not result.passed:
        pytest.fail(result.reason, pytrace=False)


# ---- the harness itself ----------------------------------------------------------------------


def test_at_least_170_uniquely_named_cases():
    names = [c.name for c in CASES]
    assert len(names) >= 170
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(
    "expected, actual, message",
    [
        (3, np.int64(3), "NumPy int64 scalar != Python int 3"),
        (np.float32(1.0), np.float64(1.0), "dtype float64 != float32"),
        (np.zeros(3), np.zeros(4), "shape"),
        ((1, 2), [1, 2], "result: list != tuple"),
        ({"a": 1}, {"b": 1}, "keys"),
        (np.array([1.0, 2.0]), np.array([1.0, 2.5]), r"values \[1. 2.5\] != \[1. 2.\]"),
        ([np.ones(2), (1.0, None)], [np.ones(2), (1.0, "x")], r"result\[1\]\[1\]"),
    ],
)
def test_compare_values_reports_differences(expected, actual, message):
    with pytest.raises(compare.Mismatch, match=message):
        compare.compare_values(expected, actual)


def test_compare_values_tells_every_scalar_kind_apart():
    """A Python number, a NumPy scalar and a 0-d array of one value are three kinds, wherever
    they are: in a result, nested in containers, in an argument after the call."""
    kinds = [2.0, np.float64(2.0), np.array(2.0), np.float32(2.0)]
    for expected in kinds:
        compare.compare_values({"k": (1, [expected])}, {"k": (1, [expected])})
        for actual in kinds:
            if actual is not expected:
                with pytest.raises(compare.Mismatch, match=r"result\['k'\]\[1\]\[0\]"):
                    compare.compare_values({"k": (1, [expected])}, {"k": (1, [actual])})
    eager = compare.Outcome(None, arguments=([1.0], {}))
    with pytest.raises(compare.Mismatch, match=r"arguments afterwards\[0\]\[0\]: NumPy"):
        compare.compare_outcomes(eager, compare.Outcome(None, arguments=([np.float64(1.0)], {})))


@pytest.mark.parametrize(
    "eager, compiled, message",
    [
        (compare.Outcome(1, stdout="a\n"), compare.Outcome(1, stdout=""), "printed ''"),
        (compare.Outcome(exception=AssertionError("neg")), compare.Outcome(1), "did not raise"),
        (compare.Outcome(1), compare.Outcome(exception=ValueError("v")), "raised ValueError"),
        (
            compare.Outcome(exception=AssertionError("neg")),
            compare.Outcome(exception=RuntimeError("neg")),
            "raised RuntimeError",
        ),
    ],
)
def test_compare_outcomes_reports_output_and_exceptions(eager, compiled, message):
    with pytest.raises(compare.Mismatch, match=message):
        compare.compare_outcomes(eager, compiled)


def _off_by_one(fn):
    """A stand-in for to_static whose results are wrong: what the checker exists to catch."""

    def wrong(*args):
        return fn(*args) + 1.0

    return wrong


def test_wrong_value_is_a_failure(monkeypatch):
    monkeypatch.setattr(check.tg, "to_static", _off_by_one)
    bad = case_mod.Case("wrong", "self", _double, ((np.zeros(2),),))
    with pytest.raises(check.CaseFailure, match="values"):
        check.check_case(bad)


def _double(x):
    return x * 2


def _add_one(x):
    return x + 1


def test_forbidden_op_is_a_failure():
    bad = case_mod.Case(
        "forbid", "self", _double, ((np.ones(2),),), forbid_ops=frozenset({"multiply"})
    )
    with pytest.raises(check.CaseFailure, match="forbidden"):
        check.check_case(bad)


def test_missing_fallback_is_a_failure():
    bad = case_mod.Case(
        "nofallback", "self", _double, ((np.ones(2),),), expect="fallback", error="x", at="x * 2"
    )
    with pytest.raises(check.CaseFailure, match="no FallbackWarning"):
        check.check_case(bad)


def test_missing_error_is_a_failure():
    bad = case_mod.Case(
        "noerror", "self", _add_one, ((np.ones(2),),), expect="error", error="x", at="x + 1"
    )
    with pytest.raises(check.CaseFailure, match="did not raise"):
        check.check_case(bad)


def _cube_sum(x):
    return np.sum(x * x * x)


def test_wrong_gradient_is_a_failure(monkeypatch):
    """A gradient off by a factor of two (what a wrong VJP rule would give) is caught by the
    finite differences of the eager function; the right one passes."""
    good = case_mod.Case("cube", "self", _cube_sum, ((np.array([0.5, -2.0]),),), grad=(0,))
    check.check_case(good)
    real_grad = gradient.tg.grad

    def doubled(fn, argnums):
        inner = real_grad(fn, argnums)
        return lambda *args: tuple(2.0 * g for g in inner(*args))

    monkeypatch.setattr(gradient.tg, "grad", doubled)
    with pytest.raises(check.CaseFailure, match="gradient by argument 0"):
        check.check_case(good)


def test_gradients_are_checked_only_on_match_cases():
    with pytest.raises(ValueError, match="only a match case"):
        case_mod.Case(
            "g", "self", _cube_sum, ((np.ones(2),),), expect="error", error="x", at="x", grad=(0,)
        )


def test_line_of_skips_decorators_and_requires_one_hit():
    registry = case_mod.Registry("self")

    @registry.case(args=[(1.0,)], expect="error", error="y", at="return y")
    def fn(x):
        y = x
        return y

    assert registry.cases[0].expected_line() == fn.__code__.co_firstlineno + 3
    with pytest.raises(ValueError, match="on 0 lines"):
        case_mod.line_of(fn, "no such text")


def test_run_selects_by_pattern_and_reports():
    report = runner.run("^abs_by_branch$")
    assert [r.name for r in report.results] == ["abs_by_branch"]
    assert report.format().splitlines()[-1] == report.summary() == "1 passed, 0 failed"
    assert report.by_category() == [("branches", 1, 0)]


def test_main_exit_status_and_summary_line(capsys):
    status = runner.main(["-k", "^(abs_by_branch|ternary_static)$"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.splitlines()[-1] == "2 passed, 0 failed"


def test_keyword_inputs_survive_the_copy_made_for_each_call():
    args, kwargs = case_mod.split(copy.deepcopy(case_mod.kw(1, scale=2.0)))
    assert args == (1,) and kwargs == {"scale": 2.0}


@pytest.mark.parametrize("pattern, message", [("zzz", "no conformance case"), ("(", "regular")])
def test_a_pattern_that_selects_nothing_is_an_error_with_status_2(capsys, pattern, message):
    with pytest.raises(SystemExit) as info:
        runner.main(["-k", pattern])
    assert info.value.code == 2 and message in capsys.readouterr().err
