"""The truth of a list that grows in a loop over tensors (a tensor list): ``if basis:``,
``not basis``, ``bool(basis)``, ``x if basis else y`` and ``assert basis`` test whether it holds
an element when the graph runs, as Python tests a list; they compile, and agree with eager code
whether the loop appended or not."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager


def _kept_columns(a):
    basis = []
    for j in range(a.shape[1]):
        v = a[:, j].copy()
        if np.sum(v) > 1:
            basis.append(v / np.linalg.norm(v))
    if not basis:
        return np.zeros((a.shape[0], 0))
    return np.column_stack(basis)


def _truth_forms(a):
    kept = []
    for row in a:
        if row.sum() > 1:
            kept.append(row)
    label = 1 if kept else -1
    flags = (bool(kept), not kept)
    count = 0
    if kept:
        count += 1
    return label, flags, count


def _asserted(a):
    kept = []
    for row in a:
        if row.max() > 2:
            kept.append(row)
    assert kept, "no row above 2"
    return np.stack(kept)


@pytest.mark.parametrize("fn", [_kept_columns, _truth_forms, _asserted])
@pytest.mark.parametrize("a", [np.eye(2) * 3, np.eye(2), np.full((3, 2), 0.25)])
def test_the_truth_of_a_tensor_list_is_whether_it_holds_an_element(fn, a):
    assert_matches_eager(fn, a)


def _kept_equal_to_list(a):
    kept = [v for v in a if v > 0]
    return kept == [1.0, 3.0], kept != [1.0, 3.0]


def _two_filters_equal(a):
    return [v for v in a if v > 0] == [v for v in a if v > 0.5]


@pytest.mark.parametrize("fn", [_kept_equal_to_list, _two_filters_equal])
@pytest.mark.parametrize("a", [np.array([1.0, -2.0, 3.0]), np.array([1.0, 0.7, 3.0])])
def test_a_tensor_list_compared_with_eq_runs_eagerly(fn, a):
    """``==`` of a tensor list compared identities (the bug: ``[1.0, 3.0] == [1.0, 3.0]`` was
    False); which lists are equal is known when the graph runs only, so it falls back."""
    cf = assert_matches_eager(fn, a, compiles=False)
    assert cf.fallback is not None and "==" in str(cf.fallback)
