"""A list comprehension filtered on tensors (``[i for i in range(n) if x[i] > t]``) compiles to a
loop whose filter is a cond around a list push, and matches the eager comprehension: values,
kinds, and the comprehension's variables not leaking into the function."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager


def indices_above(x, t):
    i = -1
    idx = [i for i in range(len(x)) if x[i] > t]
    return idx, i


def doubled_positives(x):
    x = [v * 2 for v in x if v > 0]
    return x


def lower_triangle_above(m, t):
    return [(i, j) for i in range(m.shape[0]) for j in range(i) if m[i, j] > t]


@pytest.mark.parametrize(
    "fn, args",
    [
        (indices_above, (np.array([1.0, 3.0, 2.0]), 1.5)),
        (indices_above, (np.array([1.0, 3.0, 2.0]), 5.0)),
        (doubled_positives, (np.array([1.0, -3.0, 2.0]),)),
        (doubled_positives, (np.arange(3),)),
        (lower_triangle_above, (np.arange(9.0).reshape(3, 3), 4.0)),
    ],
)
def test_a_filter_on_a_tensor_compiles_and_matches_eager(fn, args):
    cf = assert_matches_eager(fn, *args)
    assert "cond" in cf.op_counts()
