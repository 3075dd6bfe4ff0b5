"""A ``return`` of a value that is not a number or tensor (a bare ``return``, ``return None``, a
string, an object) inside a loop over tensors: until it runs the return value is unset, and
where it ran it is that value, so the two join as that value; a function that returns another
such value elsewhere falls back naming both. Each case is compared with its eager run."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def _sift_down(a, root, end):
    while 2 * root + 1 <= end:
        child = 2 * root + 1
        if child + 1 <= end and a[child] < a[child + 1]:
            child += 1
        if a[root] < a[child]:
            a[root], a[child] = a[child], a[root]
            root = child
        else:
            return


def heapify(a):
    for start in range((len(a) - 2) // 2, -1, -1):
        _sift_down(a, start, len(a) - 1)


def find_or_none(a, x):
    i = 0
    while i < len(a):
        if a[i] > x:
            return None
        if a[i] == x:
            break
        i += 1
    return i


def first_negative_or_none(a):
    for v in a:
        if v < 0:
            return None
    return a.sum()


MARKER = object()


def marker_when_found(a):
    for v in a:
        if v == 2.0:
            return MARKER
    print("not found")
    return MARKER


def two_labels(a):
    for v in a:
        if v > 2.0:
            return "big"
    return "small"


@pytest.mark.parametrize(
    "fn, args",
    [
        (heapify, (np.array([1.0, 5.0, 3.0, 4.0, 2.0]),)),
        (heapify, (np.array([9, 1, 2]),)),
        (find_or_none, (np.array([1.0, 3.0, 5.0]), 3.0)),
        (find_or_none, (np.array([1.0, 3.0, 5.0]), 2.0)),
        (find_or_none, (np.array([1.0, 3.0, 5.0]), 9.0)),
        (first_negative_or_none, (np.array([1.0, -3.0]),)),
        (first_negative_or_none, (np.array([1.0, 3.0]),)),
        (marker_when_found, (np.array([1.0, 2.0]),)),
        (marker_when_found, (np.array([1.0, 3.0]),)),
    ],
)
def test_a_static_value_returned_in_a_tensor_loop_compiles_and_matches_eager(fn, args):
    assert_matches_eager(fn, *args)


def test_the_returned_object_is_the_very_object():
    assert tg.to_static(marker_when_found)(np.array([2.0])) is MARKER


@pytest.mark.parametrize("a", [np.array([1.0, 3.0]), np.array([1.0, 2.0]), np.array([])])
def test_two_labels_returned_in_a_tensor_loop_are_a_choice(a):
    assert_matches_eager(two_labels, a)
    assert tg.to_static(two_labels)(a) is two_labels(a)


OTHER = object()


def two_markers(a):
    for v in a:
        if v > 2.0:
            return MARKER
    return OTHER


def test_two_different_static_objects_fall_back_naming_both():
    cf = assert_matches_eager(two_markers, np.array([1.0, 3.0]), compiles=False)
    assert cf.fallback.count("object object at") == 2
