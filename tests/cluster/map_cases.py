"""Functions the cluster tests run on workers, in an importable module (as a user's would be)."""

import numpy as np

import tograph as tg


@tg.to_static
def newton_sqrt(a):
    x = a
    steps = 0
    while np.max(np.abs(x * x - a)) > 1e-10:
        x = 0.5 * (x + a / x)
        steps += 1
    return x, steps


@tg.to_static
def decay_steps(x):
    """A W1-like scalar loop: about 10 microseconds of Python per trip."""
    steps = 0
    while x > 1.0:
        x = x * 0.999 + 0.0001
        steps += 1
    return steps


@tg.to_static
def checked_log(x):
    if np.min(x) <= 0:
        raise ValueError("checked_log needs positive values")
    return np.log(x)


@tg.to_static
def scale_in_place(x):
    x *= 2.0
    return np.sum(x)


@tg.to_static
def shrink_until_small(x):
    trips = 0
    while np.max(np.abs(x)) > 0.5:
        x = np.where(np.abs(x) > 0.5, x / 3, x)
        trips += 1
    return x, trips, np.argmax(x)
