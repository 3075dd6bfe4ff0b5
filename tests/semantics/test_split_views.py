"""The pieces of ``np.split``, ``np.array_split``, ``np.hsplit``, ``np.vsplit`` and ``np.dsplit``
are views of the array, as in NumPy: a write through a piece reaches the array and the other way
round, against eager. Sections of a dimension known only at run time fall back once a piece or
the array is written."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def _write_through_a_piece(x):
    first, second = np.split(x, 2)
    first[0] = 5.0
    second += 1.0
    return x


def _write_the_array_after_splitting(x):
    t = x * 2.0
    parts = np.array_split(t, 3)
    t[0] = -1.0
    return parts


def _pieces_in_a_loop(x, n):
    for piece in np.split(x, [1, 3]):
        if piece.sum() > n:
            piece *= 2.0
    return x


def _hsplit_and_vsplit(m):
    left, right = np.hsplit(m, 2)
    top, bottom = np.vsplit(m, [1])
    left[0, 0] = 7.0
    bottom -= 1.0
    return m, right, top


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (_write_through_a_piece, (np.arange(4.0),)),
        (_write_the_array_after_splitting, (np.arange(6.0),)),
        (_pieces_in_a_loop, (np.arange(5.0), np.float64(1.0))),
        (_pieces_in_a_loop, (np.arange(5.0), np.float64(100.0))),
        (_hsplit_and_vsplit, (np.arange(16.0).reshape(4, 4),)),
    ],
)
def test_pieces_are_views_of_the_array(fn, args):
    assert_matches_eager(fn, *args)


def _first_half_written(x):
    half = np.split(x, 2)[0]
    half[0] = 9.0
    return x


def test_sections_of_a_runtime_dimension_fall_back_when_written():
    static = tg.to_static(_first_half_written, input_spec=[tg.TensorSpec((None,))])
    with pytest.warns(tg.FallbackWarning, match="known only when the graph runs"):
        got = static(np.arange(4.0))
    np.testing.assert_array_equal(got, _first_half_written(np.arange(4.0)))
