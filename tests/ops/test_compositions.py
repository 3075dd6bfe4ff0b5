"""rot90, rollaxis, unstack, dsplit, linalg.diagonal, linalg.matrix_transpose, finfo and iinfo
against NumPy: values, dtypes, views written through, errors, inside tensor loops, gradients by
central differences."""

import warnings

import numpy as np
import pytest
from loop_harness import assert_compiles_in_loop

import tograph as tg

DTYPES = [np.float32, np.float64, np.int64, np.bool_, np.complex128]
TURNS = [(k, axes) for k in range(-1, 5) for axes in ((0, 1), (2, 0), (1, -1))]


def sample(dtype):
    values = np.arange(24.0).reshape(2, 3, 4) - 7.5
    return (values > 0) if dtype == np.bool_ else values.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_rearrangements_match_numpy(dtype):
    m = sample(dtype)
    assert_compiles_in_loop(lambda a: tuple(np.rot90(a, k, ax) for k, ax in TURNS), m)
    assert_compiles_in_loop(
        lambda a: tuple(np.rollaxis(a, ax, st) for ax in (0, 2, -1) for st in (0, 1, 3)), m
    )
    assert_compiles_in_loop(lambda a: (np.unstack(a), np.unstack(a, axis=-1)), m)
    assert_compiles_in_loop(lambda a: (np.dsplit(a, 2), np.dsplit(a, [1, 3])), m)
    assert_compiles_in_loop(lambda a: (np.linalg.diagonal(a), np.linalg.diagonal(a, offset=-1)), m)
    assert_compiles_in_loop(np.linalg.matrix_transpose, m)


def test_a_write_through_a_rotation_reaches_the_array():
    def rotated(a):
        b = a * 1
        r = np.rot90(b, 1, (1, 2))
        r[0, 0, 0] = -1.0
        return b, r.copy()  # a copy: views returned together from a tensor loop fall back

    def rolled(a):
        b = a * 1
        s = np.rollaxis(b, 2)
        s[1] += 10.0
        return b, s.copy()

    assert_compiles_in_loop(rotated, sample(np.float64))
    assert_compiles_in_loop(rolled, sample(np.float64))


@pytest.mark.parametrize(
    "program",
    [
        lambda a: np.rot90(a, 1, (0, 0)),
        lambda a: np.rot90(a, 1, (0, 3)),
        lambda a: np.rollaxis(a, 0, 5),
        lambda a: np.dsplit(a[0], 2),
        lambda a: np.finfo(a),
        lambda a: np.iinfo(a[0, 0, 0]),
    ],
    ids=["same_axes", "axis_out_of_range", "bad_start", "dsplit_2d", "finfo_array", "iinfo_f"],
)
def test_errors_are_numpys(program):
    m = sample(np.float64)
    with pytest.raises(Exception) as eager:
        program(m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tg.FallbackWarning)
        with pytest.raises(type(eager.value), match=str(eager.value).replace("(", r"\(")[:20]):
            tg.to_static(program)(m)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.uint32])
def test_finfo_and_iinfo_of_tensors(dtype):
    x = np.arange(3).astype(dtype)
    kind = np.finfo if np.dtype(dtype).kind == "f" else np.iinfo
    assert_compiles_in_loop(lambda a: (kind(a[0]).max, kind(a.dtype).min, kind(a[1]).bits), x)
    assert_compiles_in_loop(lambda a: (np.finfo(float(a[0])).eps, np.iinfo(int(a[1])).max), x)


def test_gradients_through_the_rearrangements():
    def loss(a):
        r = np.rot90(a, 3, (0, 2)) * np.arange(24.0).reshape(4, 3, 2)
        s = np.rollaxis(a, 2, 1)[:, 1] ** 2
        parts = np.unstack(a, axis=1)
        return np.sum(r) + np.sum(s) + np.sum(parts[2] * parts[0]) + np.sum(np.dsplit(a, 2)[1])

    x = np.random.default_rng(3).standard_normal((2, 3, 4))
    got = tg.grad(tg.to_static(loss, fallback="error"))(x)
    eps = 1e-6
    want = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        want[i] = (loss(x + e) - loss(x - e)) / (2 * eps)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
