"""Functions defined in the converted function that set its variables through ``nonlocal``:
counters, accumulators and memos, called at the top, inside ``if``/``while``/``for`` over tensors
(where the variables become branch outputs and loop carries), and through ``sorted(key=...)``
and ``map``. Each program is compared with its eager run (``eager_oracle``); uses that cannot
stay exact (the function stored, returned, called from another function or a loop header, a
``nonlocal`` of a function outside the compiled one) fall back, naming the construct."""

import warnings

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def counter_at_top(x):
    n = 0

    def step():
        nonlocal n
        n += 1
        return n * 2

    a = step()
    b = step()
    return x * a + b, n


def accumulate_in_tensor_if(x):
    count = 0
    total = 0.0

    def add(i):
        nonlocal count, total
        count += 1
        total = total + x[i]

    for i in range(x.shape[0]):
        if x[i] > 0:
            add(i)
    return count, total


def accumulate_in_tensor_while(x):
    steps = 0
    acc = x * 0

    def advance(v):
        nonlocal steps, acc
        steps += 1
        acc = acc + v
        return steps * 2

    while np.sum(acc) < 10:
        last = advance(x)
    return steps, acc, last


def setter_branches_on_tensor(x):
    hits = 0
    big = 0.0

    def look(v):
        nonlocal hits, big
        if v > 1:
            hits += 1
            big = big + v
        return v * 2

    out = [look(v) for v in x]
    return hits, big, out


def through_sorted_key(x):
    calls = 0

    def key(v):
        nonlocal calls
        calls += 1
        return -v

    order = sorted([x[0], x[1], x[2]], key=key)
    return calls, order


def through_drained_map(x):
    seen = 0

    def scale(v):
        nonlocal seen
        seen += 1
        return v * seen

    return sum(map(scale, x)), seen


def reader_and_setter(x):
    n = 1

    def bump():
        nonlocal n
        n = n * 3

    def get():
        return n + x

    bump()
    first = get()
    bump()
    return first, get()


def setter_in_for_over_tensor_rows(x):
    best = x[0]
    moves = 0

    def offer(row):
        nonlocal best, moves
        if np.sum(row) > np.sum(best):
            best = row
            moves += 1

    for row in x:
        offer(row)
    return best, moves


PROGRAMS = [
    (counter_at_top, (np.arange(3.0),)),
    (accumulate_in_tensor_if, (np.array([1.0, -2.0, 3.0, 0.5]),)),
    (accumulate_in_tensor_if, (np.array([-1.0, -2.0]),)),
    (accumulate_in_tensor_while, (np.array([1.5, 2.0]),)),
    (setter_branches_on_tensor, (np.array([0.5, 2.0, 3.0]),)),
    (through_sorted_key, (np.array([0.5, 2.0, -3.0]),)),
    (through_drained_map, (np.array([1.0, 2.0, 4.0]),)),
    (reader_and_setter, (np.arange(2.0),)),
    (setter_in_for_over_tensor_rows, (np.array([[1.0, 2.0], [0.0, 5.0], [9.0, -1.0]]),)),
]


@pytest.mark.parametrize(("fn", "args"), PROGRAMS, ids=[p[0].__name__ for p in PROGRAMS])
def test_nonlocal_matches_eager(fn, args):
    assert_matches_eager(fn, *args)


def returns_the_setter(x):
    n = 0

    def step():
        nonlocal n
        n += 1
        return n

    step()
    return x + n, step


def stores_the_setter(x):
    n = 0

    def step():
        nonlocal n
        n += 1

    steps = [step]
    steps[0]()
    return x + n


def setter_called_from_another_function(x):
    n = 0

    def step():
        nonlocal n
        n += 1

    def twice():
        step()
        step()

    if x[0] > 0:
        twice()
    return n


def setter_in_loop_header(x):
    n = 0

    def step():
        nonlocal n
        n += 1
        return n

    while step() < x[0]:
        pass
    return n


def block_reads_what_setter_sets(x):
    n = 0

    def step():
        nonlocal n
        n += 1
        return n

    if x[0] > 0:
        n = step() + n
    return n


def top_statement_reads_what_comprehension_setter_sets(x):
    """The filtered list is built before the statement (``lowering.comprehensions``), so the
    statement would read ``n`` after the calls (the bug: 8 for eager's 6)."""
    n = 1

    def step(v):
        nonlocal n
        n += 1
        return v

    r = n + sum([step(v) for v in [1, 2, 3] if v > 1])
    return x + r, n


def reader_called_after_setter_in_block(x):
    n = 0

    def step():
        nonlocal n
        n += 1

    def get():
        return n * x

    out = x
    if x[0] > 0:
        step()
        out = get()
    return out


_COUNT = 0


def _bump_global():
    global _COUNT
    _COUNT += 1
    return _COUNT


def _make_counter():
    count = 0

    def counter():
        nonlocal count
        count += 1
        return count

    return counter


_counter = _make_counter()


def calls_outside_counter(x):
    return x * _counter()


def calls_global_bumper(x):
    return x * _bump_global()


FALLBACKS = [
    (returns_the_setter, "passed on"),
    (stores_the_setter, "passed on"),
    (setter_called_from_another_function, "another function"),
    (setter_in_loop_header, "header"),
    (block_reads_what_setter_sets, "also uses 'n'"),
    (top_statement_reads_what_comprehension_setter_sets, "also uses 'n'"),
    (reader_called_after_setter_in_block, "closure 'get'"),
]


def fallback_messages(fn, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args)
    return result, [str(w.message) for w in caught if issubclass(w.category, tg.FallbackWarning)]


@pytest.mark.parametrize(("fn", "reason"), FALLBACKS, ids=[p[0].__name__ for p in FALLBACKS])
def test_inexact_nonlocal_falls_back_naming_it(fn, reason):
    x = np.array([2.0, 1.0])
    compiled, messages = fallback_messages(tg.to_static(fn), x.copy())
    assert messages and reason in messages[0], messages
    eager = fn(x.copy())
    if fn is returns_the_setter:  # the returned functions differ; each counts on from 1
        assert compiled[1]() == eager[1]() == 2
        compiled, eager = compiled[0], eager[0]
    np.testing.assert_equal(compiled, eager)


@pytest.mark.parametrize("fn", [calls_outside_counter, calls_global_bumper])
def test_function_setting_outside_variables_is_never_traced_as_is(fn):
    """Run as it is while tracing, it would count once; the caller falls back and counts each
    call, as eagerly (the bug: every graph run returned the count of the trace)."""
    x = np.array([1.0, 2.0])
    static = tg.to_static(fn)
    first, messages = fallback_messages(static, x)
    second, _ = fallback_messages(static, x)
    assert messages and "runs eagerly" in messages[0]
    np.testing.assert_array_equal(second - first, x)


def setter_stored_inside_errstate_block(x):
    n = 0

    def step():
        nonlocal n
        n += 1

    with np.errstate(divide="ignore"):
        later = step
    later()
    return x + n


def test_a_use_inside_a_with_block_is_checked_as_one_beside_it():
    """The block is flattened into the statements around it, so the setter stored there escapes
    as it would beside it (the fence once looked only into if, while and for blocks)."""
    x = np.array([1.0, 2.0])
    compiled, messages = fallback_messages(tg.to_static(setter_stored_inside_errstate_block), x)
    assert messages and "passed on" in messages[0], messages
    np.testing.assert_array_equal(compiled, setter_stored_inside_errstate_block(x))


def counts_inside_errstate_block(x):
    n = 0

    def step(v):
        nonlocal n
        n += 1
        return v / x[0]

    with np.errstate(divide="ignore"):
        if x[1] > 0:
            y = step(x)
        else:
            y = x
    return y, n


@pytest.mark.parametrize("x", [np.array([0.0, 2.0]), np.array([1.0, -2.0])])
def test_setter_called_in_a_tensor_branch_inside_an_errstate_block(x):
    assert_matches_eager(counts_inside_errstate_block, x)
