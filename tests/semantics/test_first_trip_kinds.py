"""A loop over a tensor of static length that surely runs, whose body turns a Python number into
a NumPy scalar (``area = 0.0`` summing ``float32`` items, an alpha-beta tracker started at
``0.0``): its first iteration runs outside the loop (its first three, one by one, while kinds
still change: a Goertzel recurrence's ``s2 = s1``), so the loop carries the NumPy kind alone and
what follows compiles, where carrying both kinds would make ``area / 2`` of a Python float and a
``float32`` depend on the path. ``zip`` of tensors of static lengths has a static length too."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

F32 = np.array([0.5, 1.25, -2.0, 3.5], dtype=np.float32)


def centroid_by_zip(xs, weights):
    area = 0.0
    moment = 0.0
    for x, w in zip(xs, weights):
        area += w
        moment += x * w
    return moment / area, area


def tracker(zs, alpha, beta):
    x, v = 0.0, 0.0
    for z in zs:
        x_pred = x + v
        r = z - x_pred
        x = x_pred + alpha * r
        v = v + beta * r
    return x * 2, v


def with_break(xs):
    total = 0
    for x in xs:
        if x < 0:
            break
        total += x
    return total / 3


def goertzel(samples, coeff):
    s1 = 0.0
    s2 = 0.0
    for x in samples:
        s = x + coeff * s1 - s2
        s2 = s1
        s1 = s
    return s2**2 + s1**2 - coeff * s1 * s2


def third_order_delay(xs):
    d1, d2, d3 = 0.0, 0.0, 0.0
    for x in xs:
        d1, d2, d3 = x * 0.5, d1, d2
    return d3 / 2, d2**2


@pytest.mark.parametrize(
    "fn, args",
    [
        (goertzel, (F32, 1.25)),
        (goertzel, (F32.astype(np.float64), -0.5)),
        (third_order_delay, (F32,)),
        (centroid_by_zip, (F32, F32[::-1].copy())),
        (centroid_by_zip, (F32.astype(np.float64), F32)),
        (tracker, (F32, 0.5, 0.1)),
        (tracker, (F32.astype(np.int32), 0.5, 0.1)),
    ],
)
def test_a_loop_that_surely_runs_carries_the_kind_its_first_trip_gives(fn, args):
    cf = assert_matches_eager(fn, *args)
    assert "while_loop" in cf.op_counts()


@pytest.mark.parametrize("xs", [F32, F32[:0], np.array([-1.0, 2.0], dtype=np.float32)])
def test_a_loop_that_may_end_early_or_not_run_still_agrees(xs):
    assert_matches_eager(with_break, xs, compiles=False)
