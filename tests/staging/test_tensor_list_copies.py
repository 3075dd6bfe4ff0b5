"""``list(l)`` of a list grown in a loop over tensors (a tensor list, its length known only when
the graph runs): a new list of the same items, pushed in a loop (``runtime._copied_list``),
against the eager run: values, kinds, and which items are the same objects."""

import numpy as np
import pytest
from tests.semantics import eager_oracle

import tograph as tg


def _grown(x):
    grown = []
    i = 0
    while i < x.shape[0] and x[i].sum() > 0:
        grown.append(x[i] * 2)
        i += 1
    return grown


def copy_of_arrays(x):
    grown = _grown(x)
    return grown, list(grown)


def copy_then_grown(x):
    grown = []
    i = 0
    while i < x.shape[0] and x[i].sum() > 0:
        grown.append(float(x[i].sum()))
        i += 1
    copied = list(grown)
    copied.append(float(x[0, 0]))
    return len(grown), copied


@pytest.mark.parametrize("fn", [copy_of_arrays, copy_then_grown])
@pytest.mark.parametrize("first", [1.0, -5.0])
def test_copy_matches_eager(fn, first):
    x = np.arange(1.0, 7.0).reshape(3, 2)
    x[1, 0] = first
    eager_oracle.assert_matches_eager(fn, x)


def test_items_are_the_objects_of_the_list_copied():
    x = np.arange(1.0, 7.0).reshape(3, 2)
    grown, copied = tg.to_static(copy_of_arrays)(x)
    assert copied is not grown
    assert [a is b for a, b in zip(grown, copied)] == [True] * 3
