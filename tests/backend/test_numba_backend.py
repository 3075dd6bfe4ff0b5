"""The numba backend against the NumPy backend and eager NumPy: values, dtypes, scalar kinds and
warnings, on the calls numba runs and on those it hands to NumPy (overflow, division by zero,
int64 wrap-around, 0-d arrays); graphs it cannot run exactly stay on NumPy and say why; "auto"
picks numba for small loops only; without numba, "numba" is an error and "auto" is NumPy.

Each compiled function is built once per module (numba compiles in 0.1-0.5 s, then its cache on
disk serves later runs)."""

import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from loop_programs import assert_same, shrink

import tograph as tg
from tograph.backend import backends, numba_code, numba_exec, numba_libm


def scale(v, k, n):
    """A float32 vector scaled in a loop by weak and strong scalars, then summed by index."""
    i = 0
    total = v[0] * 0
    while i < n:
        v = v * 0.5 + k
        if v[i % 3] > 1.0:
            total = total + v[i % 3]
        i = i + 1
    return v, total


def int_loop(k, n):
    i = 0
    while i < n:
        k = k * 3 + i
        i = i + 1
    return k, i


def counts(x, limit):
    i = 0
    hits = 0
    while i < x.shape[0]:
        if x[i] > limit or np.isnan(x[i]) == False:  # noqa: E712 - a tensor comparison
            hits = hits + 1
        i = i + 1
    return hits, x[0] / limit


def wave(x, n):
    i = 0
    while i < n:
        x = np.tanh(x)
        i = i + 1
    return x


STATIC = {
    fn: tg.to_static(fn, fallback="error", backend="numba")
    for fn in (shrink, scale, int_loop, counts)
}


def run(fn, args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args)
    return result, [(w.category, str(w.message)) for w in caught]


CASES = [
    (shrink, (np.float64(150.0),)),
    (shrink, (np.float64(np.nan),)),
    (shrink, (np.array(150.0),)),  # a 0-d array: numba's signature refuses it, NumPy runs
    (scale, (np.arange(4, dtype=np.float32), np.float32(0.25), np.int64(5))),
    (scale, (np.full(4, 3e38, np.float32), np.float32(3e38), np.int64(2))),  # overflow: NumPy
    (int_loop, (np.int64(2), np.int64(5))),
    (int_loop, (np.int64(2), np.int64(60))),  # int64 wraps with a warning: NumPy
    (int_loop, (5, np.int64(50))),  # a Python int never wraps: NumPy gives the big int
    (counts, (np.array([1.0, np.nan, 3.0]), np.float64(2.0))),
    (counts, (np.array([1.0, 2.0]), np.float64(0.0))),  # 1 / 0: inf and NumPy's warning
]


@pytest.mark.parametrize(
    "fn, args", CASES, ids=[f"{fn.__name__}{i}" for i, (fn, _) in enumerate(CASES)]
)
def test_matches_eager(fn, args):
    compiled = STATIC[fn]
    assert compiled.concrete(*args).backend == "numba"
    got, got_warnings = run(compiled, args)
    expected, expected_warnings = run(fn, args)
    assert_same(got, expected)
    assert got_warnings == expected_warnings


def test_an_op_without_exact_numba_form_keeps_numpy():
    cf = tg.to_static(wave, backend="numba").concrete(np.float64(1.0), np.int64(3))
    assert cf.backend == "numpy"
    assert "tanh of a scalar (NumPy's own kernel is called on arrays only)" in cf.backend_note
    assert "on numpy (numba: tanh" in repr(cf)
    assert_same(cf(np.float64(1.0), np.int64(3)), wave(np.float64(1.0), np.int64(3)))


def test_auto_picks_numba_for_small_loops_only():
    small = tg.to_static(shrink, backend="auto").concrete(np.float64(3.0))
    assert (small.backend, small.backend_note) == ("numba", None)

    def no_loop(x):
        return x * 2.0 + 1.0

    assert tg.to_static(no_loop, backend="auto").concrete(np.ones(3)).backend == "numpy"
    big = np.ones(10_000)
    assert tg.to_static(scale, backend="auto").concrete(big, 1.0, np.int64(2)).backend == "numpy"


def test_without_numba(monkeypatch):
    monkeypatch.setattr(numba_exec, "available", lambda: False)
    with pytest.raises(ImportError, match=r'pip install "tograph\[numba\]"'):
        tg.to_static(shrink, backend="numba")
    cf = tg.to_static(shrink, backend="auto").concrete(np.float64(3.0))
    assert (cf.backend, cf.backend_note) == ("numpy", None)


def test_unknown_backend():
    with pytest.raises(ValueError, match="backend must be one of"):
        tg.to_static(shrink, backend="jax")
    assert backends.BACKENDS == ("numpy", "numba", "auto")


def test_numba_is_imported_only_when_a_graph_is_compiled_for_it(tmp_path):
    """Not for the NumPy backend, nor for graphs "auto" leaves on NumPy (no loop; tanh)."""
    script = tmp_path / "no_numba.py"
    script.write_text(
        "import sys\n"
        "import numpy as np\n"
        "import tograph as tg\n"
        "def shrink(x):\n"
        "    while x > 1.0:\n"
        "        x = x * 0.5\n"
        "    return x\n"
        "def twice(x):\n"
        "    return x * 2.0\n"
        "def wave(x, n):\n"
        "    for _ in range(n):\n"
        "        x = np.tanh(x)\n"
        "    return x\n"
        "tg.to_static(shrink)(np.float64(8.0))\n"
        "tg.to_static(twice, backend='auto')(np.float64(8.0))\n"
        "tg.to_static(wave, backend='auto')(np.float64(8.0), np.int64(2))\n"
        "print('numba' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_run_time_lengths_compile():
    """A vector of any length (``TensorSpec((None,))``): its length is read at run time."""
    spec = [tg.TensorSpec((None,)), None]
    compiled = tg.to_static(counts, input_spec=spec, backend="numba")
    for x in (np.array([1.0, np.nan, 3.0]), np.arange(7.0), np.array([0.5])):
        args = (x, np.float64(2.0))
        assert compiled.concrete(*args).backend == "numba"
        got, got_warnings = run(compiled, args)
        expected, expected_warnings = run(counts, args)
        assert_same(got, expected)
        assert got_warnings == expected_warnings
    assert len(compiled.concrete_functions) == 1


def branchy(x, n):
    """W3's loop: the branch each step takes depends on the vector's mean."""
    for _ in range(n):
        if np.mean(x) > 0.0:
            x = np.sin(x) - 0.3
        else:
            x = np.cos(x) * 0.9
    return x


def sums(x, col, row, n):
    """Float sums and means of 2-d values, of a broadcast one among them, carried in a loop."""
    total = np.sum(x) * 0.0
    for _ in range(n):
        x = x * 0.5 + col
        total = total + np.sum(x) + np.mean(col + row) - np.sum(x, axis=(0, 1))
    return x, total, np.mean(x)


def same_bits(got, expected):
    """``got`` is ``expected`` bit for bit: types, dtypes, signed zeros and NaN payloads."""
    if isinstance(expected, tuple):
        return len(got) == len(expected) and all(map(same_bits, got, expected))
    return (
        type(got) is type(expected)
        and got.dtype == expected.dtype
        and np.asarray(got).tobytes() == np.asarray(expected).tobytes()
    )


def test_float_means_sums_sin_and_cos_compile_bit_for_bit():
    """np.mean and np.sum in NumPy's pairwise order, sin and cos by the C library as NumPy's
    float64 ones (where ``numba_libm`` finds them the same here), over float64 and float32."""
    rng = np.random.default_rng(3)
    compiled = tg.to_static(branchy, fallback="error", backend="numba")
    for x in (rng.normal(size=1000), rng.normal(size=1000) * 1e16, np.full(1000, -0.0)):
        args = (x, np.int64(60))
        cf = compiled.concrete(*args)
        assert cf.backend == ("numba" if numba_libm.agrees("sin") else "numpy"), cf.backend_note
        assert same_bits(compiled(*args), branchy(*args))
    two_d = tg.to_static(sums, fallback="error", backend="numba")
    for dtype in (np.float64, np.float32):
        x = (rng.normal(size=(40, 30)) * rng.choice([1e8, 1.0], size=(40, 30))).astype(dtype)
        col, row = rng.normal(size=(40, 1)).astype(dtype), rng.normal(size=(1, 30)).astype(dtype)
        args = (x, col, row, np.int64(25))
        assert two_d.concrete(*args).backend == "numba"
        assert same_bits(two_d(*args), sums(*args))


def test_what_numba_cannot_sum_or_compute_as_numpy_keeps_numpy(monkeypatch):
    """float32 sin (NumPy's own SIMD kernel); a float sum beside a non-C-contiguous constant
    (NumPy sums values computed from it in its memory order); sin when the C library's is not
    NumPy's; the mean of an empty vector (NumPy warns) goes to NumPy at run time."""
    x32 = np.linspace(-1.0, 1.0, 50, dtype=np.float32)
    cf = tg.to_static(branchy, backend="numba").concrete(x32, np.int64(3))
    assert cf.backend == "numpy"
    assert cf.backend_note == "numba: sin of float32 (NumPy's own SIMD kernel); runs on NumPy"
    assert same_bits(cf(x32, np.int64(3)), branchy(x32, np.int64(3)))

    weights = np.linspace(1e-3, 1e16, 12).reshape(3, 4).T

    def weighted(x, n):
        for _ in range(n):
            x = x + np.sum(x * weights)
        return x

    x = np.full((4, 3), 0.25)
    cf = tg.to_static(weighted, backend="numba").concrete(x, np.int64(3))
    assert cf.backend == "numpy"
    assert "non-C-contiguous array constant" in cf.backend_note
    assert same_bits(cf(x, np.int64(3)), weighted(x, np.int64(3)))

    monkeypatch.setattr(numba_libm, "agrees", lambda name: False)
    x = np.linspace(-1.0, 1.0, 50)
    cf = tg.to_static(branchy, backend="numba").concrete(x, np.int64(3))
    assert cf.backend == "numpy"
    assert "cos: NumPy's float64 cos is not the C library's numba calls here" in cf.backend_note
    monkeypatch.undo()

    spec = [tg.TensorSpec((None,)), None]
    compiled = tg.to_static(branchy, input_spec=spec, backend="numba")
    for x in (np.empty(0), np.linspace(-1.0, 1.0, 7)):
        got, got_warnings = run(compiled, (x, np.int64(2)))
        expected, expected_warnings = run(branchy, (x, np.int64(2)))
        assert same_bits(got, expected)
        assert got_warnings == expected_warnings


def test_the_libm_check_is_borne_out_on_other_values():
    """Where ``numba_libm`` finds numba's float64 sin and cos NumPy's, they are on a fresh
    sample of 400,000 values too."""
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.normal(size=200_000) * 100, rng.uniform(-1e9, 1e9, 200_000)])
    for name in numba_libm.FUNCTIONS:
        if numba_libm.agrees(name):
            whole, each = numba_libm._COMPILED[name](x)
            expected = getattr(np, name)(x)
            assert whole.tobytes() == expected.tobytes() and each.tobytes() == expected.tobytes()


def squared_wave(x, n):
    for _ in range(n):
        x = np.square(np.sin(x)) - 0.5
    return x


def test_a_value_used_once_is_written_into_its_user():
    """numba fuses ``np.sin(x) - 0.3`` into one loop when it is one expression; a value the user
    names twice (``square``'s ``x * x``) keeps its name, so it is computed once."""
    x = np.linspace(-1.0, 1.0, 50)
    source = numba_code.generate(tg.to_static(branchy).concrete(x, np.int64(3)).graph).source
    assert re.search(r"= \(np\.sin\(\w+\) - np\.float64\(0\.3\)\)\n", source), source
    compiled = tg.to_static(squared_wave, fallback="error", backend="numba")
    cf = compiled.concrete(x, np.int64(4))
    source = numba_code.generate(cf.graph).source
    assert re.search(r"(\w+) = np\.sin\(\w+\)\n.*\(\1 \* \1\)", source, re.DOTALL), source
    assert cf.backend == "numba"
    assert same_bits(compiled(x, np.int64(4)), squared_wave(x, np.int64(4)))


def helper_names(x, n):
    """Variables named as the compiled module's helpers and constants."""
    mean_float, add_i64, const_0 = x * 0.5, n, np.array([1.0, 2.0, 3.0])
    for _ in range(n):
        sum_stack = np.sum(mean_float) + np.mean(const_0)
        mean_float = mean_float + sum_stack * 1e-3
        add_i64 = add_i64 + 1
    return mean_float, add_i64


def test_values_named_as_helpers_do_not_hide_them():
    x = np.linspace(-1.0, 1.0, 200)
    compiled = tg.to_static(helper_names, fallback="error", backend="numba")
    assert compiled.concrete(x, np.int64(5)).backend == "numba"
    assert same_bits(compiled(x, np.int64(5)), helper_names(x, np.int64(5)))
