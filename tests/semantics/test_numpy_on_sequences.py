"""A NumPy function given a tuple or list that holds tensors, reached through an item, an
attribute, a call's result or a loop variable (``np.sum(cols[0])``, ``np.mean(self.hist)``,
``np.max(helper(x))``): the call goes through the runtime, which stacks the items, as NumPy
makes one array of them. Called directly, NumPy would ask each tensor for its value while the
graph is built, and the function fell back."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager


class History:
    def __init__(self):
        self.hist = []


def pair_of(x):
    return x[0], x[1] * 2


def mean_of_an_attribute(obj, x):
    obj.hist = [x[0], x[1]]
    return np.mean(obj.hist), np.std(obj.hist)


def max_of_a_call(x):
    return np.max(pair_of(x)), np.argmin(pair_of(x))


def sum_of_an_item(x):
    cols = list(zip(*x))
    return [np.sum(c) for c in cols], np.prod(cols[-1])


def sums_over_loop_targets(x):
    pairs = [(x[0], x[1]), (x[1], x[2])]
    out = []
    for p in pairs:
        out.append(np.sum(p))
    return out, [np.mean(q) for q in pairs]


def stack_of_a_dict_item(x):
    d = {"a": [x[0], x[1]]}
    return np.stack(d["a"]), np.mean(d["a"])


def ufunc_of_a_repeated_tuple(x):
    t = (x[0], x[-1]) * 2
    return np.sqrt(t), np.add(t, 1.0)


CASES = [
    (mean_of_an_attribute, (History(), np.array([1.0, 4.0, 2.0]))),
    (max_of_a_call, (np.array([3.0, -1.0, 0.5]),)),
    (sum_of_an_item, (np.arange(6.0).reshape(3, 2),)),
    (sum_of_an_item, (np.arange(6, dtype=np.int32).reshape(2, 3),)),
    (sums_over_loop_targets, (np.array([1.0, 2.0, 4.0]),)),
    (stack_of_a_dict_item, (np.array([[1.0, 2.0], [3.0, 5.0]]),)),
    (ufunc_of_a_repeated_tuple, (np.array([4.0, 9.0, 16.0]),)),
]


@pytest.mark.parametrize(("fn", "args"), CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_numpy_on_a_sequence_of_tensors_compiles_and_matches_eager(fn, args):
    assert_matches_eager(fn, *args)
