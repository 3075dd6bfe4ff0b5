"""An array whose dtype changes on one path only (a branch not taken, a loop run zero times)
keeps its own dtype eagerly; a graph would give the promoted dtype on every path, so the function
runs eagerly instead, with the reason."""

import warnings

import numpy as np
import pytest

import tograph as tg


def add_half_if(v, c):
    if c > 0:
        v = v + 0.5
    return v


def add_in_loop(v, n):
    i = 0
    while i < n:
        v = v + 2.5
        i += 1
    return v


def halve_while_large(v):
    while v.sum() > 100:
        v = v * 0.5
    return v


@pytest.mark.parametrize(
    "fn, args",
    [
        (add_half_if, (np.arange(3), np.int64(0))),
        (add_half_if, (np.arange(3), np.int64(1))),
        (add_in_loop, (np.arange(3), np.int64(0))),
        (add_in_loop, (np.arange(3), np.int64(2))),
        (halve_while_large, (np.arange(3, dtype=np.int32),)),
        (halve_while_large, (np.arange(30, dtype=np.int32),)),
    ],
)
def test_dtype_changed_on_one_path_matches_eager(fn, args):
    expected = fn(*args)
    with pytest.warns(tg.FallbackWarning, match="dtype would depend on the path taken"):
        got = tg.to_static(fn)(*args)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_same_dtype_on_every_path_still_compiles():
    static = tg.to_static(add_half_if)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        for c in (np.int64(0), np.int64(1)):
            np.testing.assert_array_equal(static(np.arange(3.0), c), add_half_if(np.arange(3.0), c))
    assert static.concrete(np.arange(3.0), np.int64(0)).fallback is None
