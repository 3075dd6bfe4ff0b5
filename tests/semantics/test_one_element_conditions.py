"""Conditions on arrays of one element (Paddle-style counters of shape ``(1,)``): NumPy takes the
truth of such an array from its one element, so ``while i < n`` and ``if s > 1`` on them compile
to a while_loop and a cond on that element. Before, the tests were refused as not scalar, an
``and`` that a ``break`` adds to the loop's test could not merge a flag with such an array, and
``i += 1`` on an array made here passed for a Python value in type inference (so an ``if`` on
it stayed Python and met a tensor): each fell back."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager


def counts_with_array_bound(n):
    i = np.zeros(1, dtype=np.int64)
    s = np.zeros(1)
    while i < n:
        s = s + i * 0.5
        i = i + 1
    if s > 1:
        s = -s
    return s, i


def counts_in_place_and_breaks(x):
    i = np.zeros(1, dtype=np.int32)
    while i < 10:
        i += 1
        if i > 5:
            break
        x = x + i
    return x, i


def stops_on_flag_or_array(x, limit):
    done = False
    k = np.zeros((1, 1))
    while not done and k < limit:
        k = k + x
        done = bool(x > 2.0) or False
    return k


@pytest.mark.parametrize("n", [np.array([4]), np.array([0]), np.array([[2]])])
def test_a_while_on_a_one_element_array_compiles(n):
    cf = assert_matches_eager(counts_with_array_bound, n)
    assert "while_loop" in cf.op_counts() and "cond" in cf.op_counts()


@pytest.mark.parametrize("x", [np.zeros(1), np.full(1, 3.0)])
def test_break_from_a_while_on_an_array_updated_in_place(x):
    cf = assert_matches_eager(counts_in_place_and_breaks, x)
    assert "while_loop" in cf.op_counts()


@pytest.mark.parametrize("x", [np.float64(0.5), np.float64(3.0)])
def test_and_of_a_tensor_flag_and_a_one_element_array(x):
    assert_matches_eager(stops_on_flag_or_array, x, np.array([[2.0]]))


def test_an_array_of_several_elements_is_still_refused():
    """NumPy raises for the truth of two elements: so does the compiled function (eagerly)."""
    assert_matches_eager(counts_with_array_bound, np.array([1, 2]), compiles=False)
