"""An exception raised in a tensor branch or loop with a message formatted from tensors
(``raise ValueError(f"no root near {x}")``) compiles: its text is made when the graph runs, as
eager makes it. Where the exception could not be rebuilt from its text (a class of the user's,
several arguments) or is raised on every call, the function runs eagerly with a reason."""

import copy
import warnings

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def newton_sqrt(c, x):
    for k in range(30):
        d = 2 * x
        if d == 0.0:
            raise ValueError(f"zero derivative at x={x!r} on step {k} ({d:.2f})")
        step = (x * x - c) / d
        x = x - step
        if abs(step) < 1e-12:
            return x
    raise RuntimeError("no convergence")


def checked_mean(values):
    if values.size == 0 or np.isnan(values).any():
        raise ValueError(f"bad input of shape {values.shape}: {values}")
    return values.mean()


class BracketError(Exception):
    pass


def custom_class(a, b):
    if a >= b:
        raise BracketError(f"empty bracket [{a}, {b}]")
    return b - a


def two_arguments(a, b):
    if a >= b:
        raise ValueError("empty bracket", f"[{a}, {b}]")
    return b - a


def always(x):
    raise ValueError(f"always {x}")


def assert_raises_as_eager(fn, *args, compiles=True):
    """The compiled function raises eager's exception class with eager's message, or returns
    what eager returns; with ``compiles``, without falling back."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outcomes = []
        for run in (fn, tg.to_static(fn)):
            try:
                outcomes.append(run(*copy.deepcopy(args)))
            except Exception as exc:  # noqa: BLE001 - the outcome compared
                outcomes.append(exc)
    eager, compiled = outcomes
    fell_back = [w for w in caught if issubclass(w.category, tg.FallbackWarning)]
    assert not fell_back if compiles else fell_back
    if not isinstance(eager, Exception):
        assert_matches_eager(fn, *args)
        return
    assert isinstance(compiled, type(eager)), f"eager raised {eager!r}, compiled {compiled!r}"
    assert str(compiled).splitlines()[0] == str(eager)


@pytest.mark.parametrize(
    "args",
    [
        (np.float64(2.0), np.float64(1.0)),
        (np.float64(2.0), np.float64(0.0)),
        (np.float32(2.0), np.float32(0.0)),
        (np.float64(2.0), np.float64(-0.0)),
    ],
)
def test_newton_raises_with_the_value_of_the_step_it_failed_on(args):
    assert_raises_as_eager(newton_sqrt, *args)


@pytest.mark.parametrize("x", [np.array([1.0, 2.0]), np.array([1.0, np.nan])])
def test_a_message_with_an_array_and_its_shape(x):
    assert_raises_as_eager(checked_mean, x)


@pytest.mark.parametrize("fn", [custom_class, two_arguments])
def test_an_exception_not_rebuilt_from_its_text_runs_eagerly(fn):
    args = (np.float64(3.0), np.float64(1.0))
    assert_raises_as_eager(fn, *args, compiles=False)
    fallback = tg.to_static(fn).concrete(*args).fallback
    assert "an exception's message" in fallback
    assert f"test_raise_messages.py:{fn.__code__.co_firstlineno + 2})" in fallback


@pytest.mark.parametrize("fn, x", [(always, np.float64(1.0)), (checked_mean, np.zeros((0, 2)))])
def test_an_exception_raised_on_every_call_runs_eagerly(fn, x):
    assert_raises_as_eager(fn, x, compiles=False)
    assert "an exception's message" in tg.to_static(fn).concrete(x).fallback


def raise_key_of_tensor(x, k):
    for i in range(len(x)):
        if i == k:
            raise KeyError(k)
    return x


def raise_value_of_tensor(x):
    if x[0] < 0:
        raise ValueError(x[0])
    return x


@pytest.mark.parametrize(
    "fn, args",
    [
        (raise_key_of_tensor, (np.arange(3.0), np.int64(1))),
        (raise_key_of_tensor, (np.arange(3.0), np.int64(7))),
        (raise_value_of_tensor, (-np.ones(2),)),
    ],
)
def test_an_exception_made_from_a_tensor_value_runs_eagerly(fn, args):
    """KeyError(k) of a tensor k was raised with the symbolic tensor in it, so its message showed
    the tracer where eager's shows np.int64(1)."""
    with pytest.warns(tg.FallbackWarning, match="made from a tensor value"):
        try:
            tg.to_static(fn)(*copy.deepcopy(args))
        except (KeyError, ValueError) as exc:
            compiled = exc
        else:
            compiled = None
    try:
        fn(*copy.deepcopy(args))
    except (KeyError, ValueError) as exc:
        assert type(compiled) is type(exc) and str(compiled) == str(exc)
    else:
        assert compiled is None
