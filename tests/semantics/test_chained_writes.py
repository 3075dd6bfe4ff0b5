"""``x[i][j] = v``: a write into ``x[i]``, which is a view of ``x`` for a basic index (the write
shows in ``x``) and a copy for an advanced one (a list, a mask: ``x`` is left as it was), as
NumPy does; a container's item is written in place. Found by the random-program tester."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager


def into_a_fancy_copy(x, v):
    x[[0]][[0, 0]] -= v
    return x


def into_a_masked_copy(y):
    y[[0]][y[[0]] > 0] = 0
    return y


def into_a_slice(x, v):
    x[0:2][1] = v
    return x


def into_rows(m, v):
    m[1][2] = v
    m[0][m[0] > 0] = 0
    return m


def into_a_row_picked_by_a_tensor(m, k, v):
    m[k][1] = v
    return m


def into_views_of_views(m, v):
    m.T[0][1] = v
    m[..., 0][1:] += v
    return m


def into_a_list_item(lst, v):
    lst[0][1] = v
    return lst


def in_a_tensor_branch(m, v):
    if v > 0:
        m[1][0] = v
        m[[1]][0] = 99
    return m


@pytest.mark.parametrize(
    "fn, args",
    [
        (into_a_fancy_copy, (np.array([2.0, 0.5]), 1.0)),
        (into_a_masked_copy, (np.array([3, -1]),)),
        (into_a_slice, (np.arange(4.0), 9.0)),
        (into_rows, (np.arange(12.0).reshape(3, 4), 5.0)),
        (into_a_row_picked_by_a_tensor, (np.arange(6.0).reshape(3, 2), np.int64(2), 7.0)),
        (into_views_of_views, (np.arange(6.0).reshape(2, 3), 3.0)),
        (into_a_list_item, ([np.zeros(3), np.ones(2)], 4.0)),
        (in_a_tensor_branch, (np.zeros((2, 2)), 2.0)),
        (in_a_tensor_branch, (np.zeros((2, 2)), -2.0)),
    ],
    ids=lambda c: getattr(c, "__name__", ""),
)
def test_chained_item_writes_match_eager(fn, args):
    assert_matches_eager(fn, *args)
