"""Questions about a number that is a Python float on some paths and a NumPy scalar on others
(``h = 0.0`` raised by NumPy values in a branch or loop over tensors: a kind-tagged value).
``round(h, 3)`` rounds a Python float in decimal and returns a Python float, an ``np.float64`` in
binary and returns one, so it runs eagerly (it came back a NumPy float on the Python path);
``type(h)`` and ``isinstance(h, np.floating)``, whose answers depend on the path, run eagerly too,
while ``isinstance(h, float)``, true on every path, compiles. Printed, and in the message of an
exception raised in tensor control flow, ``repr(h)`` and ``f"{h!r}"`` show the kind of the path
taken (``0.0``, ``np.float64(0.2)``)."""

import math

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def entropy_rounded(p):
    h = 0.0
    for q in p:
        if q > 0:
            h -= q * math.log2(q)
    return round(h, 3)


def type_name(p):
    h = 0.0
    if p[0] > 0:
        h = p[0] * 2
    return type(h).__name__


def is_numpy_float(p):
    h = 0.0
    if p[0] > 0:
        h = p[0] * 2
    return isinstance(h, np.floating)


def is_float(p):
    h = 0.0
    if p[0] > 0:
        h = p[0] * 2
    return isinstance(h, float), h


ZEROS, POSITIVE = np.array([0.0, 0.0]), np.array([0.1, 0.2])


@pytest.mark.parametrize("fn", [entropy_rounded, type_name, is_numpy_float])
@pytest.mark.parametrize("p", [ZEROS, POSITIVE], ids=["python path", "numpy path"])
def test_a_question_whose_answer_depends_on_the_path_runs_eagerly(fn, p):
    cf = assert_matches_eager(fn, p, compiles=False)
    assert "a Python number on some paths and a NumPy scalar on others" in cf.fallback


@pytest.mark.parametrize("p", [ZEROS, POSITIVE], ids=["python path", "numpy path"])
def test_isinstance_true_on_every_path_compiles(p):
    assert_matches_eager(is_float, p)


def printed(p):
    h = 0.0
    if p[0] > 0:
        h = p[0] * 2
    print(f"{h!r} {h:.2f}", repr(h), str(h))
    if h > 0.3:
        raise ValueError(f"too big: {h!r}")
    return 1


@pytest.mark.parametrize(
    "p", [ZEROS, POSITIVE, np.array([0.5, 0.0])], ids=["python", "numpy", "raises"]
)
def test_repr_of_a_number_whose_kind_depends_on_the_path_prints_its_kind(p, capsys):
    static = tg.to_static(printed, fallback="error")
    outcomes = []
    for fn in (printed, static):
        try:
            result = fn(p)
        except ValueError as exc:
            result = str(exc)
        outcomes.append((result, capsys.readouterr().out))
    assert outcomes[0] == outcomes[1]


def second_largest(x):
    first = second = -math.inf
    for v in x:
        if v > first:
            first, second = v, first
        elif first > v > second:
            second = v
    return second if second != -math.inf else None


@pytest.mark.parametrize("x", [np.array([3.0, -1.5, 7.5]), np.array([2.0, 2.0])])
def test_such_a_number_or_none_falls_back_saying_what_it_is(x):
    cf = assert_matches_eager(second_largest, x, compiles=False)
    assert "a Python number on some paths, a NumPy scalar on others" in cf.fallback
    assert "Kinded" not in cf.fallback
