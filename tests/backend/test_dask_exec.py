"""The Dask backend: a compiled function called on dask arrays gives, once computed, what the
NumPy backend gives on the same data; it stays lazy except at its synchronisation points.

These run on dask's synchronous scheduler (one thread, no cluster): the cluster tests are in
``tests/distributed``.
"""

import dask
import dask.array as da
import numpy as np
import pytest
from dask.callbacks import Callback

import tograph as tg
from tograph.ir import pytree

RNG = np.random.default_rng(0)
X = RNG.standard_normal((6, 4))
M = RNG.standard_normal((4, 4)) + 4 * np.eye(4)
IDX = np.arange(24, dtype=np.int32).reshape(6, 4)


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


class Computes(Callback):
    """Counts the dask computations started while it is active (the synchronisation points)."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def _start(self, dsk):
        self.count += 1


def chunked(a, chunks=2):
    return da.from_array(a, chunks=chunks)


def assert_matches_numpy(fn, *args, exact=True, chunks=2):
    """``fn`` on dask versions of ``args``, computed, equals ``fn`` on ``args`` (NumPy backend):
    same leaf types and dtypes, values bit for bit (``exact``) or to rounding."""
    expected = fn(*args)
    lazy = fn(*(chunked(a, chunks) if isinstance(a, np.ndarray) else a for a in args))
    (got,) = dask.compute(lazy)
    got_leaves, got_tree = pytree.flatten(got)
    want_leaves, want_tree = pytree.flatten(expected)
    assert got_tree == want_tree
    for g, w in zip(got_leaves, want_leaves):
        assert type(g) is type(w), (g, w)
        if isinstance(w, (np.ndarray, np.generic)):
            assert g.dtype == w.dtype and np.shape(g) == np.shape(w)
            if exact:
                np.testing.assert_array_equal(g, w)
            else:
                eps = 64 * np.finfo(w.dtype).eps  # chunk-order rounding
                np.testing.assert_allclose(g, w, rtol=eps, atol=eps)
        else:
            assert g == w
    return lazy


@tg.to_static
def elementwise(x, k):
    y = np.exp(-np.abs(x)) * 3.0 + k
    z = np.where(y > 2, np.sqrt(y), np.floor(y * 10) / 10)
    return np.clip(z, 0.5, 2.5), (x > 0) & (y < 3), (x * 100).astype(np.int16) // 7 % 5


@tg.to_static
def exact_reductions(x, i):
    return (
        np.max(x, axis=0),
        np.min(x),
        np.argmax(x, axis=1),
        np.argmin(x),
        np.any(x > 1.5, axis=1),
        np.all(x > -3),
        np.sum(i, axis=0),
        np.prod(i[:2, :2] + 1),
        np.cumsum(i, axis=1),
    )


@tg.to_static
def float_reductions(x):
    return np.sum(x), np.mean(x, axis=0), np.var(x, axis=1, ddof=1), np.std(x), np.cumsum(x)


@tg.to_static
def products(x, m):
    return x @ m, np.dot(x, m), np.einsum("ij,jk->ik", x, m), np.tensordot(x, m, axes=1)


@tg.to_static
def rearranged(x):
    a = (np.expand_dims(x, 0).squeeze(0)[::-1, 1:3].T * 1.0).reshape(-1)
    b = np.concatenate([a, a[:3]])
    c = np.stack([x[:, 0], x[:, 1]], axis=1)
    d = x[[0, 2, 5]][:, ::2]
    e = x[x[:, 0] > 0.0]
    f, g = np.split(x, [2], axis=0)
    return a, b, c, d, e, f, g, np.flip(x, 1), np.broadcast_to(x[0], (3, 4)) * 1.0


@tg.to_static
def halve_until_small(x):
    steps = 0
    while np.max(np.abs(x)) > 0.25:
        x = x / 2
        steps += 1
    if np.sum(x) > 0:
        x = -x
    return x, steps


@tg.to_static
def straight_line(x, m):
    return np.tanh(x @ m).sum(axis=0) - np.max(x)


@tg.to_static
def inverted(m):
    return np.linalg.inv(m) @ m


@tg.to_static
def shout(x):
    print("largest", np.max(x), "at", np.argmax(x))
    return x + 1


@tg.to_static
def scale_in_place(x):
    x *= 2
    return np.sum(x)


def test_elementwise_kernels_run_per_block_exactly():
    assert_matches_numpy(elementwise, X, 1)
    assert_matches_numpy(elementwise, X.astype(np.float32), 1.5)  # weak scalars keep float32


def test_exact_reductions_are_bit_for_bit():
    assert_matches_numpy(exact_reductions, X, IDX)


def test_float_reductions_and_products_agree_to_rounding():
    assert_matches_numpy(float_reductions, X, exact=False)
    assert_matches_numpy(float_reductions, X.astype(np.float32), exact=False)
    assert_matches_numpy(products, X, M, exact=False)


def test_indexing_joins_and_reshapes_move_data_exactly():
    assert_matches_numpy(rearranged, X)
    assert_matches_numpy(rearranged, X, chunks=(5, 3))


def test_a_data_dependent_loop_syncs_at_each_test():
    with Computes() as computes:
        lazy = assert_matches_numpy(halve_until_small, X * 8)
    trips = lazy[1]
    assert type(trips) is int and trips > 1
    # per loop test: the persist of the carries with the predicate, then the predicate's fetch;
    # one computation for the if, then the final compute
    assert computes.count == 2 * (trips + 1) + 1 + 1


def test_a_call_without_control_flow_builds_one_lazy_graph():
    x = chunked(X)
    with Computes() as computes:
        lazy = straight_line(x, M)
    assert computes.count == 0 and isinstance(lazy, da.Array)
    np.testing.assert_allclose(lazy.compute(), straight_line(X, M), rtol=1e-12)
    assert straight_line.concrete(x, M) is straight_line.concrete(X, M)  # one graph for both


def test_a_kernel_without_chunked_form_runs_on_a_single_chunk():
    assert_matches_numpy(inverted, M, exact=False, chunks=-1)


def test_a_kernel_without_chunked_form_on_several_chunks_is_an_error_naming_it():
    with pytest.raises(tg.ToGraphError, match=r"(?s)inv has no chunked form.*rechunk") as info:
        inverted(chunked(M))
    assert info.value.loc is not None and info.value.loc.line > 0
    assert "np.linalg.inv(m)" in str(info.value)


def test_print_shows_the_computed_value(capsys):
    expected = shout(X)
    numpy_out = capsys.readouterr().out
    got = shout(chunked(X)).compute()
    assert capsys.readouterr().out == numpy_out
    np.testing.assert_array_equal(got, expected)


def test_a_function_writing_its_argument_runs_eagerly_with_a_warning():
    x = chunked(X.copy())
    with pytest.warns(tg.FallbackWarning, match="changes or returns its arguments"):
        total = scale_in_place(x)
    np.testing.assert_allclose(total.compute(), np.sum(X * 2))


def test_an_argument_of_unknown_shape_is_a_clear_error():
    x = chunked(X)
    masked = x[x[:, 0] > 0]
    with pytest.raises(tg.ToGraphError, match=r"argument 'x' is a dask array of unknown shape"):
        straight_line(masked, M)
