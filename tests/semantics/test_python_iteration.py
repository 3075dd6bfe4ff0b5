"""Python code that iterates tensors itself rather than in a for statement: generator
expressions and comprehensions over ``zip`` and ``enumerate`` of tensors of static length, and
``min``/``max`` of such a generator (with ``default=``). They run as Python runs them, one item
at a time; a sequence whose length is known only when the graph runs cannot be walked so, and
falls back naming the construct."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

X = np.array([3.0, 1.0, 2.0, 5.0, 4.0])
NAN = np.array([1.0, np.nan, 0.5])
F32 = np.array([2.5, -1.0], dtype=np.float32)


def largest_gap(x):
    return max((abs(a - b) for a, b in zip(x, x[1:])), default=0.0)


def smallest_weighted(x):
    return min(i * v for i, v in enumerate(x, 1))


def pairs_listed(x):
    return [a * b for a, b in zip(x, x[::-1])], sum(v for _, v in enumerate(x))


def max_of_empty_generator(x):
    return max((v for v in x[:0]), default=-1), min((v for v in x), default=None)


def max_of_array_with_default(x):
    return max(x, default=0.0)


@pytest.mark.parametrize(
    "fn",
    [
        largest_gap,
        smallest_weighted,
        pairs_listed,
        max_of_empty_generator,
        max_of_array_with_default,
    ],
)
@pytest.mark.parametrize("x", [X, NAN, F32, X[:1]])
def test_generators_over_zip_and_enumerate_of_tensors_run_as_python(fn, x):
    assert_matches_eager(fn, x)


def grown_then_summed(x):
    found = []
    for v in x:
        if v > 2:
            found.append(v)
    return sum(a * i for i, a in enumerate(found))


def test_a_generator_over_a_list_of_run_time_length_falls_back_naming_it():
    cf = assert_matches_eager(grown_then_summed, X, compiles=False)
    assert "iterated by Python code" in cf.fallback and "test_python_iteration.py:" in cf.fallback
