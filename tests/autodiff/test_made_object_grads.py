"""Gradients through tensor loops that change an object made in the function (a filter, an
optimizer): the op carries its attributes, and the gradient graph differentiates through them;
checked against central finite differences (``gradcheck``)."""

import numpy as np
from gradcheck import assert_grads


class Smoother:
    def __init__(self, alpha):
        self.alpha = alpha
        self.level = 0.0
        self.steps = 0

    def update(self, x):
        self.steps += 1
        self.level = self.alpha * x + (1 - self.alpha) * self.level
        return self.level


class Momentum:
    def __init__(self, lr):
        self.lr = lr
        self.velocity = None

    def step(self, g):
        if self.velocity is None:
            self.velocity = g
        else:
            self.velocity = 0.5 * self.velocity + g
        return self.lr * self.velocity


def smoothed_squares(xs):
    smoother = Smoother(0.3)
    total = 0.0
    for x in xs:
        if x > 0:
            total = total + smoother.update(x * x)
        else:
            smoother.update(-x)
    return total + smoother.level * smoother.steps


def descent_with_momentum(w):
    opt = Momentum(0.1)
    while np.sum(w * w) > 0.2:
        w = w - opt.step(2.0 * w)
    if opt.velocity is None:
        return np.sum(w * w)
    return np.sum(w * w) + np.sum(opt.velocity)


def test_gradient_through_a_for_that_updates_an_object_made_in_the_function():
    assert_grads(smoothed_squares, np.array([0.5, -1.2, 2.0, 0.7]))


def test_gradient_through_a_while_whose_object_starts_without_a_velocity():
    assert_grads(descent_with_momentum, np.array([1.0, -0.5]))
