"""``np.diagonal``, ``x.diagonal()`` and ``np.diag`` of a 2-d array are read-only views, as in
NumPy: a later write to the array shows in the diagonal, a write to the diagonal raises, and a
returned diagonal shares the argument's memory; against eager. Writes through a complex array's
real or imaginary part (views in NumPy, not followed), or to the array after taking one, fall
back."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, outcome

import tograph as tg

M = np.arange(12.0).reshape(3, 4)


def _written_after(m):
    d = np.diagonal(m)
    m[0, 0] = 100.0
    return d, d.sum()


def _diag_written_after(m, k):
    d = np.diag(m, k)
    m += 1.0
    return d


def _written_through(m):
    d = m.diagonal(1)
    d[0] = 5.0
    return d


@pytest.mark.parametrize(
    ("fn", "args"),
    [(_written_after, (M,)), (_diag_written_after, (M, 1)), (_diag_written_after, (M, -1))],
)
def test_the_diagonal_follows_writes_to_the_array(fn, args):
    assert_matches_eager(fn, *args)


def test_a_write_to_the_diagonal_raises_as_eager():
    eager, _, _ = outcome(_written_through, (M,))
    compiled, _, _ = outcome(tg.to_static(_written_through), (M,))
    assert type(compiled) is type(eager) is ValueError
    assert str(compiled) == str(eager)


def _returns_the_diagonal(m):
    return np.diagonal(m)


def test_a_returned_diagonal_is_a_view_of_the_argument():
    m = M.copy()
    d = tg.to_static(_returns_the_diagonal)(m)
    assert np.shares_memory(d, m) and not d.flags.writeable
    m[1, 1] = -7.0
    assert d[1] == -7.0


def _real_part_written(z):
    re = z.real
    re[0] = 10.0
    return z


def _array_written_after_its_imaginary_part(z):
    im = np.imag(z)
    z[0] = 5j
    return im


@pytest.mark.parametrize("fn", [_real_part_written, _array_written_after_its_imaginary_part])
def test_writes_through_complex_parts_fall_back(fn):
    """NumPy's parts of a complex array are views of it; the graph's are not followed."""
    z = np.array([1 + 2j, 3 - 1j])
    cf = assert_matches_eager(fn, z, compiles=False)
    assert "real or imaginary part" in cf.fallback
