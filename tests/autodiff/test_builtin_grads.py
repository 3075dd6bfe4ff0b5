"""Gradients through Python's min and max of tensors, which pick one item as Python does (a
select, or the index of the extreme element): checked against central finite differences."""

import numpy as np
import pytest
from gradcheck import assert_grads


def pairwise(x):
    return min(x[0], x[1] * 2.0, 3.0) + max(x[2], 0.5) * x[0]


def of_vector(x):
    return max(x) * 2.0 - min(x * x)


@pytest.mark.parametrize("x", [np.array([0.3, 1.2, -0.7]), np.array([5.0, 0.1, 2.0])])
def test_min_and_max_of_numbers(x):
    assert_grads(pairwise, x)


@pytest.mark.parametrize("x", [np.array([0.3, 1.2, -0.7, 2.5]), np.array([-3.0, 0.4, 1.0])])
def test_min_and_max_of_a_vector(x):
    assert_grads(of_vector, x)
