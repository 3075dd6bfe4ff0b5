"""``with np.errstate(...)`` blocks: the graph holds the region, and its warnings and
``FloatingPointError``s are eager's, inside and outside the block, under the caller's own
``np.seterr`` too. Each program runs eagerly and compiled on the same inputs; the results (or
exceptions), the warnings (category and text, in order) and NumPy's error state afterwards must
be the same, and the function must have compiled. Other ``with`` statements, and blocks a graph
cannot hold, fall back naming the construct."""

import contextlib
import warnings

import numpy as np
import pytest
from eager_oracle import same

import tograph as tg
from tograph.backend import codegen


def safe_divide(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = a / b
        logs = np.log(a)
    return ratio, logs, a / b


def raise_inside(a, b):
    with np.errstate(all="raise"):
        out = a / b
    return out


def raise_in_tensor_branch(a, b):
    with np.errstate(divide="raise"):
        if a[0] > 0:
            out = a / b
        else:
            out = a * 2.0
    return out


def nested_regions(a, b):
    with np.errstate(all="ignore"):
        x = a / b
        with np.errstate(divide="warn"):
            y = a / b
        z = np.sqrt(a - 5.0)
    return x, y, z


def ignore_in_tensor_loop(a, b):
    total = a * 0.0
    i = 0
    while np.sum(total) < 4.0 and i < 4:
        with np.errstate(divide="ignore", over="ignore"):
            total = total + np.where(b != 0, a / b, 1.0)
        i += 1
    return total, i


def static_log_of_zero(a):
    with np.errstate(divide="ignore"):
        floor = np.log(0.0)
    return np.maximum(a, floor)


def unused_warning_raises(a):
    with np.errstate(divide="raise"):
        np.log(a)
    return a + 1.0


def overflow_ignored(a):
    with np.errstate(over="ignore"):
        big = np.exp(a * 1000.0)
    return big, np.exp(a * 1000.0)


def underflow_watched(a):
    with np.errstate(under="warn"):
        tiny = a * 1e-300 * 1e-300
    return tiny


A = np.array([0.0, 2.0, -1.0])
B = np.array([0.0, 0.0, 1.0])
PROGRAMS = [
    (safe_divide, (A, B)),
    (raise_inside, (A, B)),
    (raise_inside, (A + 1.0, B + 1.0)),
    (raise_in_tensor_branch, (A + 1.0, B)),
    (raise_in_tensor_branch, (A - 1.0, B)),
    (nested_regions, (A, B)),
    (ignore_in_tensor_loop, (A + 1.0, B)),
    (static_log_of_zero, (A,)),
    (unused_warning_raises, (A,)),
    (unused_warning_raises, (A + 1.0,)),
    (overflow_ignored, (A,)),
    (underflow_watched, (A,)),
]
CALLER_STATES = [{}, {"all": "raise"}, {"all": "ignore"}, {"divide": "raise", "invalid": "ignore"}]


def run(fn, args, caller_state):
    """(result or exception, warnings as (category, text), error state afterwards)."""
    with warnings.catch_warnings(record=True) as caught, np.errstate(**caller_state):
        warnings.simplefilter("always")
        try:
            result = fn(*[np.copy(a) for a in args])
        except Exception as exc:  # noqa: BLE001 - the outcome to compare
            result = exc
        state = np.geterr()
    shown = [(w.category.__name__, str(w.message)) for w in caught]
    return result, shown, state


@pytest.mark.parametrize("caller_state", CALLER_STATES, ids=lambda s: str(s) or "default")
@pytest.mark.parametrize(("fn", "args"), PROGRAMS, ids=[p[0].__name__ for p in PROGRAMS])
def test_errstate_block_matches_eager(fn, args, caller_state):
    eager = run(fn, args, caller_state)
    static = tg.to_static(fn)
    compiled = run(static, args, caller_state)
    again = run(static, args, caller_state)  # the graph's own run (the first one traced too)
    for got in (compiled, again):
        assert type(got[0]) is type(eager[0]) and same(got[0], eager[0]), (got[0], eager[0])
        if isinstance(eager[0], Exception):
            assert str(got[0]).startswith(str(eager[0])), (got[0], eager[0])
        assert got[1] == eager[1]
        assert got[2] == eager[2]
    with np.errstate(**caller_state):
        assert static.concrete(*args).fallback is None


def test_the_graph_holds_the_region_and_the_code_runs_it_as_a_with_block():
    cf = tg.to_static(safe_divide).concrete(A, B)
    graph = str(cf.graph)
    assert "errstate[settings=(('divide', 'ignore'), ('invalid', 'ignore'))]" in graph
    assert graph.index("errstate_end") < graph.rindex("divide")  # the last divide is outside
    source = codegen.source_of(cf.graph, cf.compile_options)
    assert "with errstate(divide='ignore', invalid='ignore'):" in source


def my_context():
    return contextlib.nullcontext()


def other_with(a):
    with my_context():
        out = a + 1.0
    return out


def returns_inside(a):
    with np.errstate(divide="ignore"):
        return np.log(a)


def calls_back(a):
    with np.errstate(divide="call"):
        out = np.log(a)
    return out


def sets_a_callback(a):
    with np.errstate(call=print):
        out = np.log(a)
    return out


class _NotNumPy:
    errstate = staticmethod(lambda **kw: contextlib.nullcontext())


def errstate_named_alike(a):
    np_ = _NotNumPy
    with np_.errstate(divide="ignore"):
        out = a + 1.0
    return out


FALLBACKS = [
    (other_with, "only np.errstate(...) converts"),
    (returns_inside, "return, break or continue leaving"),
    (calls_back, "only 'ignore', 'warn' and 'raise' convert"),
    (sets_a_callback, "np.errstate(call=...): only the settings all, divide"),
    (errstate_named_alike, "only np.errstate(...) converts"),
]


@pytest.mark.parametrize(("fn", "reason"), FALLBACKS, ids=[p[0].__name__ for p in FALLBACKS])
def test_other_with_statements_fall_back_naming_them(fn, reason):
    a = np.array([1.0, 2.0])
    with warnings.catch_warnings(record=True) as caught, np.errstate(call=print):
        warnings.simplefilter("always")
        compiled = tg.to_static(fn)(a)
        eager = fn(a)
    messages = [str(w.message) for w in caught if issubclass(w.category, tg.FallbackWarning)]
    assert messages and reason in messages[0], messages
    assert same(compiled, eager)
