"""``super()`` in methods of user classes compiles and matches eager: a method extending its
parent's, an ``__init__`` calling ``super().__init__`` (constructors are converted), the
two-argument form in a function nested in a method, tensor control flow around the call; a
function without a ``__class__`` cell raises RuntimeError as eagerly (compiled code used to
fail with "__class__ cell not found" and fall back, since the converted method called ``super``
from the runtime's frame)."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager


class Smoother:
    def __init__(self, alpha):
        self.alpha = alpha
        self.state = None

    def step(self, x):
        self.state = x if self.state is None else self.alpha * x + (1 - self.alpha) * self.state
        return self.state


class Clipped(Smoother):
    def __init__(self, alpha, limit):
        super().__init__(alpha)
        self.limit = limit

    def step(self, x):
        y = super().step(x)
        if y > self.limit:
            return self.limit + 0.0 * y
        return y

    def twice(self, x):
        def inner(v):
            return super(Clipped, self).step(v) + 1.0

        return inner(x)


def smooth_and_clip(xs, alpha, limit):
    f = Clipped(alpha, limit)
    out = [f.step(x) for x in xs]
    return np.array(out), f.state, f.twice(xs[0])


def loose_super(self):
    return super().step(1.0)


def calls_loose_super(x):
    obj = Clipped(0.5, 1.0)
    return loose_super(obj) + x


@pytest.mark.parametrize("alpha, limit", [(0.5, 1.0), (0.9, 10.0)])
def test_super_in_methods_and_constructors_matches_eager(alpha, limit):
    assert_matches_eager(smooth_and_clip, np.array([1.0, -2.0, 3.0, 0.5]), alpha, limit)


def test_super_without_a_class_cell_raises_as_eagerly():
    assert_matches_eager(calls_loose_super, np.float64(1.0), compiles=False)
