"""An array appended to a list that grows in a loop or branch over tensors (a tensor list), then
written in place: eager code's list holds the array itself, so the write changes the item too,
where the graph's list holds the array's value (a local list appended ``y`` then ``y[0] = ...``
gave each item's value at its append). Such a write, before the append in a later trip or after
it anywhere, runs eagerly; arrays appended and never written again still compile."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, outcome

import tograph as tg

X = np.array([4.0, 2.0, 1.5])


def written_after_the_append(x):
    out = []
    y = x * 1.0
    while x.sum() > 1.0:
        x = x * 0.5
        out.append(y)
        y[0] = x[0]
    return out


def written_before_the_append(x):
    out = []
    y = x * 1.0
    while x.sum() > 1.0:
        x = x * 0.5
        y[0] = x[0]
        out.append(y)
    return out


def written_after_the_loop(x):
    out = []
    y = x * 1.0
    while x.sum() > 1.0:
        x = x * 0.5
        y = x * 2.0
        out.append(y)
    y[1] = -1.0
    return out


def outer_array_written_after_the_loop(x):
    out = []
    y = x * 1.0
    while x.sum() > 1.0:
        x = x * 0.5
        out.append(y)
    y[1] = -1.0
    return out


def appended_in_a_branch_then_written(x):
    out = []
    y = x * 1.0
    if x[0] > 0:
        out.append(y)
    y += 1.0
    return out


@pytest.mark.parametrize(
    "fn",
    [
        written_after_the_append,
        written_before_the_append,
        written_after_the_loop,
        outer_array_written_after_the_loop,
        appended_in_a_branch_then_written,
    ],
)
def test_an_appended_array_written_in_place_runs_eagerly(fn):
    assert_matches_eager(fn, X, compiles=False)
    _, _, fallbacks = outcome(tg.to_static(fn), (X,))
    assert len(fallbacks) == 1 and "appended" in fallbacks[0], fallbacks


def new_array_each_trip(x):
    out = []
    while x.sum() > 1.0:
        x = x * 0.5
        out.append(x * 2.0)
    return out


def same_array_never_written(x):
    out = []
    y = x * 1.0
    while x.sum() > 1.0:
        x = x * 0.5
        out.append(y)
    return out, y + 1.0


def written_before_the_loop(x):
    out = []
    y = x * 1.0
    y[0] = 9.0
    for v in x:
        if v > 1.75:
            out.append(y)
    return out


@pytest.mark.parametrize(
    "fn", [new_array_each_trip, same_array_never_written, written_before_the_loop]
)
def test_an_appended_array_never_written_again_compiles(fn):
    assert_matches_eager(fn, X)
