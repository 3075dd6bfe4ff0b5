"""The numba backend against the NumPy backend and eager NumPy: values, dtypes, scalar kinds and
warnings, on the calls numba runs and on those it hands to NumPy (overflow, division by zero,
int64 wrap-around, 0-d arrays); graphs it cannot run exactly stay on NumPy and say why; "auto"
picks numba for small loops only; without numba, "numba" is an error and "auto" is NumPy.

Each compiled function is built once per module (numba compiles in 0.1-0.5 s, then its cache on
disk serves later runs)."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
from loop_programs import assert_same, shrink

import tograph as tg
from tograph.backend import backends, numba_exec


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
        x = np.sin(x)
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
    assert "sin has no exact numba form" in cf.backend_note
    assert "on numpy (numba: sin" in repr(cf)
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
    """Not for the NumPy backend, nor for graphs "auto" leaves on NumPy (no loop; sin)."""
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
        "        x = np.sin(x)\n"
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
