"""Conformance cases: random draws (``np.random``'s functions, a ``Generator`` or ``RandomState``
passed in or made in the function, the ``random`` module) happen when the graph runs, in program
order, only on the branch taken and once per loop trip, from the very generator eager code draws
from. The checker seeds NumPy's and Python's global generators before every call and compares
their states afterwards, and compares generators among the arguments by their states."""

import random

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("random")

VEC = np.array([0.5, -1.5, 2.0, 3.25])


@CASES.case(args=[(VEC,)], expect_ops={"random"})
def legacy_global_noise(x):
    noise = np.random.normal(0.0, 0.1, size=x.shape)
    pick = np.random.randint(0, len(x))
    return x + noise, pick, np.random.rand()


@CASES.case(args=[(VEC,)], expect_ops={"random"})
def seeded_inside(x):
    np.random.seed(7)
    first = np.random.uniform(size=x.shape)
    np.random.seed(7)
    return first - np.random.uniform(size=x.shape)


@CASES.case(args=[(VEC, np.random.default_rng(1))], expect_ops={"random"})
def dropout_with_generator_argument(x, rng):
    keep = rng.random(x.shape) > 0.3
    return np.where(keep, x / 0.7, 0.0)


@CASES.case(args=[(VEC, np.random.default_rng(2))], expect_ops={"random"})
def shuffle_argument_in_place(x, rng):
    rng.shuffle(x)
    return x[0] * 2


@CASES.case(args=[(np.int64(200),)], expect_ops={"random", "while_loop"})
def monte_carlo_pi(n):
    rng = np.random.default_rng(0)
    inside = 0
    for _ in range(n):
        point = rng.uniform(-1.0, 1.0, size=2)
        if point @ point <= 1.0:
            inside += 1
    return 4.0 * inside / n


@CASES.case(
    args=[(VEC, np.random.default_rng(3)), (-VEC, np.random.default_rng(3))],
    expect_ops={"random", "cond"},
)
def draw_only_on_taken_branch(x, rng):
    if x.sum() > 0:
        shift = rng.normal()
    else:
        shift = rng.exponential(2.0)
    return x + shift, rng.integers(0, 100)


@CASES.case(args=[(VEC,)], expect_ops={"random", "while_loop"})
def random_walk_until_far(x):
    position = 0
    steps = 0
    while abs(position) < 3 and steps < 100:
        position += np.random.choice([-1, 1])
        steps += 1
    return x * position, steps


@CASES.case(args=[(np.float64(2.0),), (1.5,)], expect_ops={"random"})
def stdlib_random_kinds(scale):
    return random.random() * scale, random.gauss(0.0, 1.0), random.randint(1, 6)
