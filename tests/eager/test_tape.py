"""The tape records exactly the primitives applied to watched values, in order."""

import sys

import numpy as np
import pytest

from tograph import eager, errors
from tograph.autodiff import tape as tape_grad
from tograph.ops import lists, reductions  # noqa: F401  (registers np.sum & co.)


def prim_names(tape):
    return [r.prim.name for r in tape.records]


def test_records_watched_computations_in_order():
    with eager.Tape() as tape:
        x = tape.watch(np.array([1.0, 2.0]))
        y = np.exp(x)
        z = (y * 2).sum()
    assert prim_names(tape) == ["exp", "multiply", "sum"]
    first, second, third = tape.records
    assert first.inputs == (x,) and first.outputs == (y,)
    assert second.inputs[0] is y and second.inputs[1] == 2
    assert third.outputs == (z,) and third.params["axis"] is None
    np.testing.assert_allclose(z.numpy(), (np.exp([1.0, 2.0]) * 2).sum())


def test_indexing_and_iteration_are_recorded():
    with eager.Tape() as tape:
        x = tape.watch(np.arange(3.0))
        total = sum(x)
        first = x[0]
    assert prim_names(tape) == ["getitem", "add", "getitem", "add", "getitem", "add", "getitem"]
    assert total.numpy() == 3.0 and tape.is_watched(first)


def test_values_not_derived_from_watched_ones_are_not_recorded():
    with eager.Tape() as tape:
        x = tape.watch(np.ones(2))
        c = eager.EagerTensor(np.arange(2.0))
        d = np.sin(c) + 1
        y = x * d
    assert prim_names(tape) == ["multiply"]
    assert tape.is_watched(y) and not tape.is_watched(d)


def test_nothing_is_recorded_outside_the_context():
    tape = eager.Tape()
    x = tape.watch(np.ones(2))
    np.exp(x)
    with tape:
        np.cos(x)
    np.sin(x)
    assert prim_names(tape) == ["cos"]


def test_nested_tapes_record_their_own_watched_values():
    with eager.Tape() as outer:
        x = outer.watch(np.ones(2))
        with eager.Tape() as inner:
            y = inner.watch(np.full(2, 3.0))
            a = x * 2
            b = y + a
        c = a - 1
    assert prim_names(outer) == ["multiply", "add", "subtract"]
    assert prim_names(inner) == ["add"]
    assert inner.records[0].outputs == (b,)
    assert outer.is_watched(c) and not inner.is_watched(c)


def test_watch_keeps_eager_tensors_and_wraps_arrays():
    tape = eager.Tape()
    value = np.arange(3.0)
    x = tape.watch(value)
    assert isinstance(x, eager.EagerTensor) and x.numpy() is value
    assert tape.watch(x) is x and tape.is_watched(x)
    assert not tape.is_watched(eager.EagerTensor(value))


def test_list_operations_are_recorded():
    with eager.Tape() as tape:
        x = tape.watch(np.arange(3.0))
        lst = lists.as_list([x, x + 1])
        s = lists.stack(lst)
    assert prim_names(tape) == ["add", "list_push", "list_push", "list_stack"]
    assert tape.records[-1].outputs == (s,)
    np.testing.assert_array_equal(s.numpy(), [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]])


def test_a_host_call_is_recorded_and_its_gradient_is_an_error_at_its_line():
    with eager.Tape() as tape:
        x = tape.watch(np.ones(2))
        line = sys._getframe().f_lineno + 1
        y = np.sum(np.spacing(x) * x)
        unwatched = np.spacing(eager.EagerTensor(np.ones(2)))
    assert prim_names(tape) == ["numpy_call", "multiply", "sum"]
    assert isinstance(unwatched, eager.EagerTensor)
    np.testing.assert_array_equal(unwatched.numpy(), np.spacing(np.ones(2)))
    with pytest.raises(errors.UnsupportedError, match=r"differentiate np\.spacing") as info:
        tape_grad.backward(tape, y, [x])
    assert info.value.loc.line == line


def test_tapes_must_exit_in_order():
    outer, inner = eager.Tape(), eager.Tape()
    outer.__enter__()
    inner.__enter__()
    with pytest.raises(errors.InternalError, match="out of order"):
        outer.__exit__(None, None, None)
    inner.__exit__(None, None, None)
    outer.__exit__(None, None, None)
