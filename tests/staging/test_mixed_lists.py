"""Python lists whose items no one tensor list can hold (arrays of two ranks or dtypes), carried
through a tensor ``if`` or loop item by item (``runtime._tensor_lists``), and in-place writes to
the arrays they hold (``t[0][1:] /= 2``, ``t[1] -= v``), which set no item of the list."""

import numpy as np
import pytest
from tests.semantics import eager_oracle

import tograph as tg


def writes_items_in_if(x, ts):
    if x.sum() > 0:
        ts[0][1:] /= 2
        ts[1] -= x[0]
    else:
        ts[1][0] = ts[0][:2]
    return ts[0].sum() + ts[1].sum()


def writes_items_in_while(x, ts):
    c = 0
    while c < 3 and ts[0].sum() < 10:
        c += 1
        ts[0] *= 2
        ts[1][:, 0] += 1
    return c


def reads_items_in_if(x, ts):
    y = x
    if x.sum() > 0:
        y = ts[0] * 2 + ts[1][0, 0]
    return y


def _mixed():
    return [np.array([1.0, -2.0, 3.0]), np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)]


def _outcome(fn, x, ts):
    held = list(ts)
    result = fn(x, ts)
    return result, ts, [a is b for a, b in zip(held, ts)]


@pytest.mark.parametrize("fn", [writes_items_in_if, writes_items_in_while, reads_items_in_if])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_compiles_as_eager(fn, sign):
    x = sign * np.array([1.0, 2.0, 0.5])
    eager = _outcome(fn, x.copy(), _mixed())
    static = tg.to_static(fn)
    compiled = _outcome(static, x.copy(), _mixed())
    assert eager_oracle.same(eager[0], compiled[0]), (eager[0], compiled[0])
    assert eager_oracle.same(eager[1], compiled[1]), (eager[1], compiled[1])
    assert eager[2] == compiled[2], "the list holds the caller's own arrays"
    assert static.concrete(x, _mixed()).fallback is None


def appends_in_if(x, ts):
    if x.sum() > 0:
        ts.append(x)
    return len(ts)


def test_growing_one_falls_back():
    cf = eager_oracle.assert_matches_eager(appends_in_if, np.ones(3), _mixed(), compiles=False)
    assert "arrays of two ranks or dtypes" in str(cf.fallback)
