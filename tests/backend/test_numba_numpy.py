"""NumPy's own kernels called from numba code (``numba_numpy``): an RNN's matrix products and
``tanh`` on numba against eager NumPy and the NumPy backend, bit for bit; the buffers loops reuse
for kernel results, never holding a value still read; each unary function on values that raise
NumPy's warnings; matrix products NumPy does not pass to ``dgemm`` as they are
(a dimension of 1, a non-contiguous argument, a Fortran-ordered constant) on NumPy; "auto"
picking numba for an RNN whose sequence is long but whose steps are small."""

import warnings

import numpy as np
import pytest

import tograph as tg
from tograph.backend import numba_code, numba_numpy


def rnn(xs, h0, wx, wh, b):
    h = h0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ wx + h @ wh + b)
    return np.sum(h * h), h


def rnn_inputs(seed, t=6, batch=3, d=4, hidden=5, scale=0.5):
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(t, batch, d)),
        rng.normal(size=(batch, hidden)),
        rng.normal(size=(d, hidden)) * scale,
        rng.normal(size=(hidden, hidden)) * scale,
        rng.normal(size=hidden),
    )


def run(fn, args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args)
    return result, [(w.category, str(w.message)) for w in caught]


def same_bits(got, expected):
    """``got`` is ``expected`` bit for bit: types, dtypes, signed zeros and NaN payloads."""
    if isinstance(expected, tuple):
        return len(got) == len(expected) and all(map(same_bits, got, expected))
    return (
        type(got) is type(expected)
        and got.dtype == expected.dtype
        and np.asarray(got).tobytes() == np.asarray(expected).tobytes()
    )


SPEC = [tg.TensorSpec((None, 3, 4)), None, None, None, None]
RNN = tg.to_static(rnn, input_spec=SPEC, fallback="error", backend="numba")
RNN_NUMPY = tg.to_static(rnn, input_spec=SPEC, fallback="error")


def test_helpers_cover_the_kernels_numba_code_calls():
    assert numba_numpy.UNARY == numba_code.NUMPY_UNARY
    for name in numba_code.NUMPY_KERNELS:
        assert callable(getattr(numba_numpy, numba_numpy.helper(name)))


def test_rnn_matches_eager_and_the_numpy_backend_bit_for_bit():
    """Sequences of several lengths (one compiled function), values large enough to saturate
    tanh, and NaN and inf (``inf - inf`` in a product raises NumPy's invalid flag: NumPy runs the
    call and warns as eager does). The steps' products and ``tanh`` are written into buffers the
    loop reuses."""
    cases = [rnn_inputs(seed, t=t, scale=scale) for seed, t, scale in RNN_CASES]
    cases[-1][0][2, 1, 0], cases[-2][0][1, 0, 0] = np.nan, np.inf
    for args in cases:
        cf = RNN.concrete(*args)
        assert (cf.backend, cf.backend_note) == ("numba", None)
        expected, expected_warnings = run(rnn, args)
        got, got_warnings = run(RNN, args)
        assert same_bits(got, expected)
        assert got_warnings == expected_warnings
        on_numpy, numpy_warnings = run(RNN_NUMPY, args)
        assert same_bits(on_numpy, expected)
        assert numpy_warnings == expected_warnings
    assert len(RNN.concrete_functions) == 1
    assert {"matmul", "tanh"} <= set(numba_numpy.ADDRESSES)
    source = numba_code.generate(cf.graph).source
    assert "matmul_f64_into(" in source and "tanh_f64_into(" in source


RNN_CASES = [(1, 6, 0.5), (2, 1, 0.5), (3, 9, 40.0), (4, 0, 0.5), (5, 4, 0.5), (6, 5, 0.5)]


def test_float32_rnn_runs_on_numpy_and_says_why():
    args = tuple(a.astype(np.float32) for a in rnn_inputs(7))
    cf = RNN.concrete(*args)
    assert cf.backend == "numpy"
    assert "NumPy's BLAS is called for float64 matrices" in cf.backend_note
    assert same_bits(RNN(*args), rnn(*args))


def reused_buffers(a, w, n):
    """Kernel results in loops, some of which must not be written into a buffer reused at the
    next step: ``a``'s value is handed on to ``prev`` (read two steps after it was computed),
    ``t`` to ``b`` through a branch, a row of ``u`` is kept as ``last``, and the inner loop's
    result as ``inner`` while the inner loop runs again."""
    prev, b, inner, total = a, a, a, a * 0.0
    last, rows = a[0] * 0.0, a[0] * 0.0
    for _ in range(n):
        new = np.tanh(a @ w)
        t = b @ w
        u = np.exp(b * 0.5)
        c = a
        for _ in range(n):
            c = np.tanh(c @ w)
        total = total + prev * new + b + inner
        rows = rows + last
        if np.sum(t) > 0.0:
            b = t
        else:
            b = np.tanh(t)
        last = u[0]
        prev, a, inner = a, new, c
    return total, rows


def test_loop_buffers_hold_only_values_dead_by_the_next_write():
    """Each of the four hand-ons above, were its value's buffer reused, would give other bits
    (a product written into the matrix it reads is harmless: the BLAS copies its operands)."""
    compiled = tg.to_static(reused_buffers, fallback="error", backend="numba")
    rng = np.random.default_rng(10)
    for n, low in [(4, 0.1), (3, -1.0), (1, 0.1), (0, 0.1)]:
        args = (rng.uniform(low, 1.0, size=(3, 3)), rng.uniform(low, 1.0, size=(3, 3)), np.int64(n))
        cf = compiled.concrete(*args)
        assert (cf.backend, cf.backend_note) == ("numba", None)
        expected = reused_buffers(*args)
        assert same_bits(compiled(*args), expected)
        assert same_bits(tg.to_static(reused_buffers)(*args), expected)
    assert "_into(" in numba_code.generate(cf.graph).source


def test_auto_picks_numba_for_a_long_sequence_of_small_steps():
    args = rnn_inputs(5, t=400)
    assert args[0].size > 4096
    compiled = tg.to_static(rnn, input_spec=SPEC, fallback="error", backend="auto")
    assert compiled.concrete(*args).backend == "numba"
    assert same_bits(compiled(*args), rnn(*args))


def unary_steps(x, n):
    """NumPy's kernels through numba_numpy: ``tanh`` (whose loop clears the flags) after ``exp``
    and ``log`` (whose loops raise them)."""
    total = x * 0.0
    for _ in range(n):
        total = total + np.exp(x) + np.log(x) + np.tanh(x)
        x = x * 0.5
    return total, x


def test_unary_kernels_match_eager_with_their_warnings():
    """On positive values the loop runs on numba; ``log`` of a negative value, ``exp`` of a
    large one raise NumPy's flags, and the call goes to NumPy, which warns as eager does (also
    where a later ``tanh``, whose loop clears the flags, ran after them)."""
    compiled = tg.to_static(unary_steps, fallback="error", backend="numba")
    rng = np.random.default_rng(8)
    cases = [
        rng.uniform(0.1, 3.0, size=7),
        np.array([0.5, 2.0, -1.0, 3.0]),
        np.array([1.0, 800.0, 0.25, 2.0]),
        np.array([0.0, 1.0, np.inf, np.nan]),
    ]
    for x in cases:
        args = (x, np.int64(3))
        assert compiled.concrete(*args).backend == "numba"
        got, got_warnings = run(compiled, args)
        expected, expected_warnings = run(unary_steps, args)
        assert same_bits(got, expected)
        assert got_warnings == expected_warnings


@pytest.mark.parametrize("name", numba_code.NUMPY_UNARY)
def test_each_unary_loop_found_is_numpys(name):
    """Every loop numba_numpy offers is found here and gives NumPy's bits on a fresh sample
    (the helpers call each the same way as ``tanh``, ``exp`` and ``log`` above)."""
    assert numba_numpy.agrees(name)
    rng = np.random.default_rng(12)
    x = np.concatenate([rng.normal(size=3000) * 4, rng.uniform(0.0, 50.0, 3000)])
    loop = numba_numpy._LOOP_CTYPE(numba_numpy.ADDRESSES[name])
    out = np.empty_like(x)
    frame = np.array([x.ctypes.data, out.ctypes.data, x.size, 8, 8], np.intp)
    with np.errstate(all="ignore"):
        loop(frame.ctypes.data, frame.ctypes.data + 16, frame.ctypes.data + 24, None)
        assert out.tobytes() == getattr(np, name)(x).tobytes()


def outer_steps(a, b, n):
    for _ in range(n):
        a = np.tanh(a @ b)
    return a


def test_matrix_products_numpy_does_not_pass_to_gemm_stay_on_numpy():
    """A static dimension of 1 (NumPy calls gemv) keeps NumPy; a run-time one, a transposed
    argument, and a Fortran-ordered constant too, with NumPy's bits."""
    row, square = np.full((1, 3), 0.5), np.eye(3) * 0.9
    cf = tg.to_static(outer_steps, backend="numba").concrete(row, square, np.int64(2))
    assert cf.backend == "numpy"
    assert "a dimension below 2" in cf.backend_note
    assert same_bits(cf(row, square, np.int64(2)), outer_steps(row, square, np.int64(2)))

    spec = [tg.TensorSpec((None, 3)), None, None]
    compiled = tg.to_static(outer_steps, input_spec=spec, fallback="error", backend="numba")
    rng = np.random.default_rng(9)
    for a in (rng.normal(size=(4, 3)), rng.normal(size=(1, 3)), rng.normal(size=(3, 4)).T):
        args = (a, rng.normal(size=(3, 3)), np.int64(3))
        assert compiled.concrete(*args).backend == "numba"
        assert same_bits(compiled(*args), outer_steps(*args))

    weights = rng.normal(size=(3, 3)).T

    def fixed_weights(a, n):
        for _ in range(n):
            a = np.tanh(a @ weights)
        return a

    a = rng.normal(size=(4, 3))
    cf = tg.to_static(fixed_weights, backend="numba").concrete(a, np.int64(3))
    assert cf.backend == "numpy"
    assert "non-C-contiguous array constant" in cf.backend_note
    assert same_bits(cf(a, np.int64(3)), fixed_weights(a, np.int64(3)))


def test_a_kernel_not_found_or_differing_keeps_numpy(monkeypatch):
    """A kernel not found here, or a dgemm differing from ``np.matmul`` on one of the graph's
    own shapes (each static shape a graph multiplies is checked)."""
    args = rnn_inputs(6)
    graph = tg.to_static(rnn).concrete(*args).graph
    assert numba_code.generate(graph).matmul_shapes == {(3, 4, 5), (3, 5, 5)}
    assert all(numba_numpy.matmul_agrees(*shape) for shape in [(3, 4, 5), (3, 5, 5)])

    monkeypatch.setattr(numba_numpy, "agrees", lambda name: name != "matmul")
    cf = tg.to_static(rnn, backend="numba").concrete(*args)
    assert cf.backend == "numpy"
    assert "matmul: NumPy's own float64 matmul kernel is not found" in cf.backend_note
    assert same_bits(cf(*args), rnn(*args))
    monkeypatch.undo()

    monkeypatch.setattr(numba_numpy, "matmul_agrees", lambda m, n, p: n != 5)
    cf = tg.to_static(rnn, backend="numba").concrete(*args)
    assert cf.backend == "numpy"
    assert "the dgemm found differs from np.matmul on (3, 5) @ (5, 5)" in cf.backend_note
    assert same_bits(cf(*args), rnn(*args))


@pytest.mark.parametrize("name", ["arctan2", "isnan", "add"])
def test_ufuncs_without_a_unary_float64_loop_are_not_read_as_kernels(name):
    """A binary ufunc, or one giving bools from float64, has no ``d->d`` loop to call."""
    assert numba_numpy._loop_address(name) is None
