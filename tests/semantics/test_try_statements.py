"""``try``/``except``/``else``/``finally``: compiled where the exceptions are static Python's,
raised while tracing on a path the graph always takes; a fallback naming the operation and line
where the graph could raise, when it runs, into a handler or past a ``finally``; and tograph's own
errors never caught by the user's ``except Exception``. Each function is compared with its eager
run: result, exception, arguments afterwards and printed output. (PYTEST_DONT_REWRITE: the
functions' own ``assert`` messages are compared.)"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from tests.semantics.eager_oracle import assert_matches_eager

import tograph as tg


def _printed(capsys, fn, args):
    """What ``fn(*copies of args)`` prints (its exception, if any, is the oracle's business)."""
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(*copy.deepcopy(args))
        except Exception:  # noqa: BLE001, S110 - compared by assert_matches_eager
            pass
    return capsys.readouterr().out


def check(capsys, fn, *args, compiles=True):
    """``fn`` compiled (or not) matches its eager run, printing the same on two calls."""
    cf = assert_matches_eager(fn, *args, compiles=compiles)
    static = tg.to_static(fn)
    want = _printed(capsys, fn, args)
    assert _printed(capsys, static, args) == want
    assert _printed(capsys, static, args) == want
    return cf


# ---- exceptions of static Python, raised while tracing -----------------------------------------


def dict_key_error(x, table):
    x[0] = 5.0  # recorded before the raise: eager ran it
    try:
        scale = table["missing"]
        x[1] = -1.0
    except KeyError as err:
        print("caught", type(err).__name__, err)
        scale = 2.0
    return x * scale


def test_a_static_key_error_runs_the_handler_and_keeps_what_ran_before(capsys):
    cf = check(capsys, dict_key_error, np.arange(3.0), {"a": 1.0})
    assert "setitem" in str(cf.graph)


def division_else_finally(x, n):
    try:
        q = 10 // n
    except ZeroDivisionError:
        print("by zero")
        q = -1
    else:
        print("quotient", q)
        q += 1
    finally:
        print("finally")
    return x * q


@pytest.mark.parametrize("n", [0, 3])
def test_else_and_finally_run_in_eager_order(capsys, n):
    check(capsys, division_else_finally, np.arange(3.0), n)


def list_index_and_assert(x, items):
    try:
        first = items[5]
    except IndexError as err:
        print(err)
        first = 0
    total = 0.0
    for i in range(3):
        try:
            assert i != 1, f"skip {i}"
            total = total + x[i]
        except AssertionError as err:
            print("assert:", err)
    return total + first


def test_list_index_and_assertion_errors_are_caught_per_iteration(capsys):
    check(capsys, list_index_and_assert, np.arange(3.0), [1, 2])


def parse_tokens(tokens, x):
    good, bad = [], 0
    for token in tokens:
        try:
            good.append(float(token))
        except ValueError:
            bad += 1
    return x * sum(good), bad


def test_a_failing_float_conversion_is_counted(capsys):
    check(capsys, parse_tokens, ["3.5", "x", "1e3", ""], np.ones(2))


def raise_in_tensor_branch(x, limit):
    if x.sum() > 0:
        try:
            if limit < 1:
                raise ValueError("small limit")
            y = x * limit
        except ValueError as err:
            print("branch caught", err)
            y = -x
    else:
        y = x
    return y


@pytest.mark.parametrize("x", [np.arange(3.0), -np.arange(3.0)])
def test_a_static_raise_inside_a_tensor_branch_is_caught_there(capsys, x):
    check(capsys, raise_in_tensor_branch, x, 0)


def nested_reraise(x, key):
    try:
        try:
            v = {"a": 1.0}[key]
        except KeyError:
            print("inner")
            raise
        finally:
            print("inner finally")
    except LookupError as err:
        print("outer", repr(err))
        v = 0.5
    return x + v


@pytest.mark.parametrize("key", ["a", "b"])
def test_a_bare_raise_reaches_the_outer_handler(capsys, key):
    check(capsys, nested_reraise, np.arange(2.0), key)


def returns_and_jumps(x, table, keys):
    total = x * 0
    for key in keys:
        try:
            value = table[key]
        except KeyError:
            if key == "stop":
                break
            continue
        else:
            total = total + value
    try:
        return total * table["scale"]
    except KeyError:
        return total


@pytest.mark.parametrize("table", [{"a": 1.0, "b": 2.0}, {"a": 1.0, "scale": 3.0}])
def test_return_break_and_continue_inside_try(capsys, table):
    check(capsys, returns_and_jumps, np.arange(2.0), table, ["a", "zz", "b", "stop", "a"])


def static_raise_in_tensor_loop(x, word):
    while x.sum() > 1.0:
        try:
            x = x / int(word)
        except ValueError as err:
            print("not a number:", err)
            x = x / 2
    return x


@pytest.mark.parametrize("word", ["three", "4"])
def test_a_try_in_a_tensor_loop_body(capsys, word):
    check(capsys, static_raise_in_tensor_loop, np.array([3.0, 5.0]), word)


def uncaught(x, n):
    try:
        q = x / (1 // n)
    except KeyError:
        q = x
    return q


def test_an_exception_no_handler_catches_propagates_as_eager(capsys):
    check(capsys, uncaught, np.ones(2), 0, compiles=False)


# ---- what falls back ---------------------------------------------------------------------------


def solve_or_lstsq(a, b):
    try:
        return np.linalg.solve(a, b), "exact"
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(a, b, rcond=None)[0], "least squares"


@pytest.mark.parametrize("a", [np.eye(2), np.ones((2, 2))])
def test_an_operation_that_may_raise_at_run_time_falls_back_naming_it(capsys, a):
    cf = check(capsys, solve_or_lstsq, a, np.ones(2), compiles=False)
    line = solve_or_lstsq.__code__.co_firstlineno + 2
    assert f"try body with solve at line {line}" in cf.fallback


def tensor_raise(x):
    try:
        if x.sum() > 0:
            raise ValueError("positive")
        y = x
    except ValueError:
        y = -x
    return y


def test_a_raise_when_the_graph_runs_falls_back_when_caught(capsys):
    cf = check(capsys, tensor_raise, np.arange(3.0), compiles=False)
    assert "try body with raise" in cf.fallback


def tensor_raise_not_caught(x):
    try:
        if x.sum() > 5:
            raise ValueError("large")
        y = x * 2
    except KeyError:
        y = x
    return y


@pytest.mark.parametrize("x", [np.arange(3.0), np.arange(5.0)])
def test_a_raise_no_handler_catches_compiles(capsys, x):
    check(capsys, tensor_raise_not_caught, x)


def finally_after_product(x):
    try:
        y = x * 3
    finally:
        print("done")
    return y


def test_a_finally_after_an_operation_that_may_raise_falls_back(capsys):
    cf = check(capsys, finally_after_product, np.arange(3.0), compiles=False)
    assert "try/finally around multiply" in cf.fallback


def floating_error(x):
    try:
        y = np.log(x)
    except FloatingPointError:
        y = np.zeros_like(x)
    return y


def test_a_floating_point_handler_falls_back_and_matches_under_seterr(capsys):
    with np.errstate(all="raise"):
        cf = check(capsys, floating_error, -np.ones(2), compiles=False)
    assert "try body with log" in cf.fallback


def internal_error_inside(x):
    try:
        positive = bool(x.sum() > 0)
    except Exception:  # noqa: BLE001 - tograph's TracerError must not land here
        positive = None
    return positive


def missing_attribute(x):
    try:
        y = x.no_such_attribute
    except AttributeError:
        y = x
    return y


@pytest.mark.parametrize("fn", [internal_error_inside, missing_attribute])
def test_tographs_own_errors_are_not_the_users_to_catch(capsys, fn):
    check(capsys, fn, np.arange(3.0), compiles=False)


def raise_in_branch_trace(x, table):
    try:
        if x.sum() > 100:
            y = x * table["missing"]
        else:
            y = x
    except KeyError:
        y = -x
    return y


def test_an_exception_of_a_branch_being_traced_is_not_eagers(capsys):
    check(capsys, raise_in_branch_trace, np.arange(3.0), {}, compiles=False)


def jump_in_finally(x):
    for _ in range(2):
        try:
            x = x + 1
        finally:
            break  # noqa: B012 - the construct refused
    return x


def test_a_jump_out_of_finally_is_refused_at_its_line():
    with pytest.warns(tg.FallbackWarning, match="break inside finally"):
        assert np.array_equal(tg.to_static(jump_in_finally)(np.zeros(1)), np.ones(1))
