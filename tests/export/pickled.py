"""Functions for the pickling tests, at the top level of an importable module."""

import numpy as np

import tograph as tg


@tg.to_static
def halve_until_small(x):
    while np.max(np.abs(x)) > 1.0:
        x = x / 2
    return x


def softplus(x):
    return np.log1p(np.exp(x))
