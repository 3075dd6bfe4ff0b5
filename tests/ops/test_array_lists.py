"""NumPy calls on Python lists and tuples holding tensors compile: the containers NumPy turns
into arrays are stacked (Python numbers promoted as NumPy promotes them), others are left alone,
and NumPy functions that do not dispatch run as host calls. Compared with eager NumPy inside
tensor loops (nothing falls back), and gradients with central differences."""

import numpy as np
import pytest
from loop_harness import assert_compiles_in_loop

import tograph as tg
from tograph.ops import array_lists

DTYPES = (np.float32, np.float64, np.int64, np.complex128)


def sample(dtype):
    return (
        (np.arange(1, 5) * 0.75).astype(dtype)
        if np.dtype(dtype).kind != "c"
        else (np.arange(1, 5) * (0.5 + 1j)).astype(dtype)
    )


@pytest.mark.parametrize("dtype", DTYPES)
def test_reductions_of_lists_mixing_tensors_and_numbers(dtype):
    x = sample(dtype)
    assert_compiles_in_loop(lambda a: np.sum([1, a[0] * a[1], 2]), x)
    assert_compiles_in_loop(lambda a: np.mean((a[0], a[1])), x)
    assert_compiles_in_loop(lambda a: np.prod([a, a + 1], axis=0), x)
    if dtype is not np.complex128:
        assert_compiles_in_loop(lambda a: np.max([a[0], 0.5]), x)
        assert_compiles_in_loop(lambda a: np.maximum([a[0], 1], 0), x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_arrays_and_sequences_of_arrays(dtype):
    x = sample(dtype)
    assert_compiles_in_loop(lambda a: np.array([[a[0], 0], [0, a[0]]]), x)
    assert_compiles_in_loop(lambda a: np.concatenate([a, [1.0]]), x)  # a sequence of arrays
    assert_compiles_in_loop(lambda a: np.reshape(a, (a.shape[0] // 2, 2)), x)  # a shape
    assert_compiles_in_loop(lambda a: np.dot([a[0], a[1]], [[1, 2], [3, 4]]), x)


def test_a_list_of_arrays_passed_by_name():
    def welch_like(a):
        segments = []
        for start in range(0, 3, 2):
            segments.append(a[start : start + 2] ** 2)
        rows = [a[:2], a[2:]]
        return np.mean(segments, axis=0), np.max(rows), np.median(tuple(rows), axis=1)

    assert_compiles_in_loop(welch_like, np.array([0.5, -1.0, 2.0, 3.0]))
    assert_compiles_in_loop(welch_like, np.array([1, 4, 2, 7]))


def test_a_list_of_numpy_scalars_passed_as_an_argument():
    def returns(closes):
        return np.diff(closes) / closes[0], np.sin(closes), np.mean(closes)

    assert_compiles_in_loop(returns, list(np.array([44.3, 44.1, 45.0])))
    assert_compiles_in_loop(returns, list(np.array([3, 1, 2], dtype=np.int32)))


def test_a_list_for_a_host_call_and_a_function_that_does_not_dispatch():
    x = np.array([3.0, 1.0, 2.0, 1.0])
    assert_compiles_in_loop(lambda a: np.lexsort([a, -a]), x)
    n = np.int64(5)
    assert_compiles_in_loop(lambda n: np.hanning(n), n)
    assert_compiles_in_loop(lambda n: np.tri(n, 3), n)


def test_dispatch_probe_picks_the_containers_numpy_makes_arrays():
    def chosen(fn, *args, **kwargs):
        return array_lists._array_containers(fn, args, kwargs)

    tensor_like = tg.eager.EagerTensor(np.ones(2))
    held = [tensor_like, 1.0]
    assert chosen(np.sum, held) == [held]
    assert chosen(np.concatenate, held) == []  # each item is an array
    shape = (tensor_like, 2)
    assert chosen(np.reshape, np.ones(4), shape) == []
    assert chosen(np.average, np.ones(2), weights=held) == [held]


def test_gradient_flows_through_a_stacked_list():
    def loss(a):
        return np.sum([1.0, a[0] * a[1], 2.0]) + np.max([a[2], 0.5]) * 3.0

    x = np.array([0.3, -1.2, 2.0])
    got = tg.grad(tg.to_static(loss, fallback="error"))(x)
    eps = 1e-6
    want = [(loss(x + eps * e) - loss(x - eps * e)) / (2 * eps) for e in np.eye(3)]
    np.testing.assert_allclose(got, want, rtol=1e-6)
