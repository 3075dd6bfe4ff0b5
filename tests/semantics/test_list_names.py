"""A list changed through a second name inside or after tensor control flow. A helper that
appends to, or assigns an item of, a list given to it, called in an ``if`` or loop over tensors,
changed the Python list once while the graph was built (per branch traced) instead of once per
trip when the graph runs; and a tensor list (one grown in such a loop or branch) given a second
name (``out = r``) and appended through it lost the change for the other name. Both run eagerly
now, naming the construct; a helper that only reads the list still compiles."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, outcome

import tograph as tg

X = np.array([1.5, -2.0, 3.25, 0.5, -0.25])


def _append(lst, v):
    lst.append(v)


def _bump(counts, k):
    counts[k] += 1


def _total(lst):
    return sum(lst)


def appends_through_a_helper(x):
    out = [0]
    for v in x:
        if v > 0:
            _append(out, 1)
    return out


def counts_through_a_helper(x):
    counts = [0, 0]
    for v in x:
        if v > 0:
            _bump(counts, 0)
        else:
            _bump(counts, 1)
    return counts


def second_name_after_a_branch(x):
    r = [0.5]
    if x[0] > 0:
        r.append(7.0)
    out = r
    out.append(1.0)
    return r


def reads_through_a_helper(x):
    seen = [1, 2]
    total = 0
    for v in x:
        if v > 0:
            total += _total(seen)
    return total


@pytest.mark.parametrize(
    "fn, construct",
    [
        (appends_through_a_helper, "change of an argument list or dict inside tensor control flow"),
        (counts_through_a_helper, "change of an argument list or dict inside tensor control flow"),
        (second_name_after_a_branch, "tensor list known by two names"),
    ],
)
@pytest.mark.parametrize("x", [X, -X])
def test_a_list_changed_through_a_second_name_runs_eagerly(fn, construct, x):
    assert_matches_eager(fn, x, compiles=False)
    _, _, fallbacks = outcome(tg.to_static(fn), (x,))
    assert len(fallbacks) == 1 and construct in fallbacks[0], fallbacks


def test_a_helper_that_only_reads_the_list_compiles():
    assert_matches_eager(reads_through_a_helper, X)
