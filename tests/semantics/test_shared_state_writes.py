"""Writes to state every call shares, reached through a local value: a class attribute through
``self.__class__`` or ``type(self)``, a function's attribute, ``setattr`` on a class. Run once
while the graph is built, the change would not happen on later calls, so the function falls back
naming the write; eager's counts are checked over repeated calls."""

import numpy as np
import pytest

import tograph as tg


class Counter:
    made = 0

    def __init__(self):
        self.v = 1.0

    def bump_through_class(self, x):
        self.__class__.made += 1
        return x * self.v

    def set_through_type(self, x):
        type(self).made = type(self).made + 2
        return x

    def set_with_builtin(self, x, name="made"):
        setattr(self.__class__, name, self.made + 3)
        return x


def helper(x):
    return x + 1


helper.calls = 0


def through_class(c, x):
    return c.bump_through_class(x)


def through_type(c, x):
    return c.set_through_type(x)


def with_builtin(c, x):
    return c.set_with_builtin(x)


def function_attribute(c, x):
    fn = helper
    fn.calls += 1
    return fn(x)


@pytest.mark.parametrize("fn", [through_class, through_type, with_builtin, function_attribute])
def test_shared_state_changes_on_every_call_as_eager(fn):
    def state():
        return Counter.made, helper.calls

    Counter.made, helper.calls = 0, 0
    expected = [fn(Counter(), np.ones(2)).tolist() for _ in range(3)], state()
    Counter.made, helper.calls = 0, 0
    static = tg.to_static(fn)
    with pytest.warns(tg.FallbackWarning, match="state (every call shares|that outlives)"):
        got = [static(Counter(), np.ones(2)).tolist() for _ in range(3)], state()
    assert got == expected
