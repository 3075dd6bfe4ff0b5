"""0-d arrays and NumPy scalars run as eager code runs them: an operator of a 0-d array is the
ufunc's loop (uint8 wraps silently, a float division by zero warns "divide"), one of NumPy
scalars is their own arithmetic ("overflow encountered in scalar add", "scalar divide"), a ufunc
called by name is the loop on either; the values that are 0-d arrays in eager code (``astype``,
``np.array``, views, ``np.where``, ``np.zeros(())``) are arrays when returned, printed or asked
``type()``; and a variable that is a 0-d array on some paths of a loop or branch over tensors and
a NumPy scalar on others computes on each path as eager code does there.

Each case runs eagerly and compiled on copies of the same arguments and compares results (values,
dtypes, kinds), the arguments afterwards, and every warning (category and message)."""

import copy
import warnings

import numpy as np
import pytest
from tests.fuzz import execution, programs
from tests.semantics import eager_oracle

import tograph as tg

# A value of each dtype at which + - * and ** overflow (or wrap, for arrays).
_LARGE = {
    np.uint8: 200,
    np.int8: 100,
    np.int32: 2**30,
    np.int64: 2**62,
    np.float16: 60000.0,
    np.float32: 3e38,
    np.float64: 1e308,
}


def _outcome(fn, args):
    """(result or exception, the arguments afterwards, warnings, fallback warnings)."""
    copies = copy.deepcopy(args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*copies)
        except Exception as exc:  # noqa: BLE001 - the outcome to compare
            result = exc
    found = [(w.category, str(w.message)) for w in caught]
    fallbacks = [m for c, m in found if issubclass(c, tg.FallbackWarning)]
    others = [(c, m) for c, m in found if not issubclass(c, tg.FallbackWarning)]
    return result, copies, others, fallbacks


def _assert_as_eager(fn, *args, backend="numpy"):
    """Asserts the compiled ``fn`` gives eager's outcome, warnings included; returns them."""
    eager, eager_args, eager_warnings, _ = _outcome(fn, args)
    static = tg.to_static(fn, backend=backend)
    compiled, compiled_args, compiled_warnings, fallbacks = _outcome(static, args)
    assert not fallbacks, fallbacks
    assert type(eager) is type(compiled)
    assert eager_oracle.same(eager, compiled), f"eager gave {eager!r}, compiled {compiled!r}"
    assert eager_oracle.same(eager_args, compiled_args)
    assert compiled_warnings == eager_warnings
    return eager_warnings


def _values(kind):
    """A large value of each dtype, as a 0-d array or a NumPy scalar."""
    return [np.array(v, t) if kind == "array" else t(v) for t, v in _LARGE.items()]


def _operators(z):
    w = z - z
    out = (z + z, z * 4, 4 * z, z - (-z), -z, abs(-z), z**2, z**3, z / w, z // w, z % w)
    shifted = z << 3 if z.dtype.kind in "iu" else z
    return out, shifted, divmod(z, w), np.add(z, z), np.negative(z), np.power(z, 2)


def _in_place(z):
    z += z
    y = np.empty_like(z)
    np.multiply(z, 4, out=y)
    return z, y, y * 4


@pytest.mark.parametrize("kind", ["array", "scalar"])
@pytest.mark.parametrize("fn", [_operators, _in_place])
def test_operators_warn_as_eager(fn, kind):
    warned = set()
    for z in _values(kind):
        warned.update(m for _, m in _assert_as_eager(fn, z))
    # the cases do overflow: NumPy scalars warn "scalar ...", arrays the loop's own words
    assert any("overflow" in m for m in warned)
    assert any("scalar" in m for m in warned) == (kind == "scalar")


def _powers(z):
    return 2.0**z, z**z, np.float32(2) ** z, z**0.5, z**-1, z**2.0, z ** (z - z)


def _powers_on_paths(z, n):
    w = z
    if n > 1:
        w = z * 1
    return w**2, w**0.5, w**-1


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_powers_as_eager(dtype):
    # a 0-d array's ``** 2`` is NumPy's ``square`` ("overflow encountered in square")
    for z in [np.array(2000.0, dtype), dtype(2000.0), np.array(0.0, dtype), dtype(0.0)]:
        _assert_as_eager(_powers, z)
        for n in (0, 2):
            _assert_as_eager(_powers_on_paths, z, np.int64(n))


def _made_arrays(x):
    k = x[0]
    made = (
        np.array(k),
        np.asarray(k),
        k.astype(np.uint8),
        np.copy(k),
        x[..., 0],
        x[:1].reshape(()),
        np.squeeze(x[:1]),
        np.where(k > 0, k, k),
        np.full((), k),
        np.zeros((), x.dtype) + k,
        np.broadcast_to(k, ()),
    )
    kept = (k.copy(), k.astype(np.float32), np.reshape(k, ()), k.T)
    return [(y * 200, -y, y + y, type(y).__name__) for y in made + kept], made


@pytest.mark.parametrize(
    "x",
    [np.array([200, 3], np.uint8), np.array([100, -128], np.int8), np.array([60000.0, 1.0])],
    ids=["uint8", "int8", "float64"],
)
def test_values_that_are_0d_arrays_in_eager_code_are_arrays(x):
    _assert_as_eager(_made_arrays, x)


def _printed(z):
    y = z.astype(np.float32)
    print(repr(y), [y], y)
    return isinstance(y, np.ndarray), y[()], y.item()


@pytest.mark.parametrize("z", [np.array(2.5), np.float64(2.5)], ids=["array", "scalar"])
def test_printed_and_asked_as_eager(z, capsys):
    _assert_as_eager(_printed, z)
    eager, compiled = capsys.readouterr().out.splitlines()
    assert compiled == eager


def _errstate_raise(z):
    with np.errstate(over="raise"):
        y = z.astype(np.uint8) * 100
    return y


@pytest.mark.parametrize("z", [np.array(3.0), np.float64(3.0)], ids=["array", "scalar"])
def test_errstate_raise_as_eager(z):
    _assert_as_eager(_errstate_raise, z)


def _rebound_in_loop(z, n):
    i = 0
    while i < n:
        z = z * 3
        i += 1
    return z


def _written_in_loop(z, n):
    y = z.copy()
    for _ in range(n):
        y -= z * 7
    return y, y * 3


def _sum_from_zeros(v, n):
    total = np.zeros((), v.dtype)
    i = 0
    while i < n:
        total = total + v[0]
        total += v[0]
        i += 1
    return total, -total


def _joined_in_branch(z, n):
    w = z.astype(z.dtype)
    if n > 1:
        w = z * 1
    return w * 3, w - z, abs(-w), w


@pytest.mark.parametrize("n", [0, 1, 2])
@pytest.mark.parametrize("fn", [_rebound_in_loop, _written_in_loop, _joined_in_branch])
def test_0d_array_on_some_paths_of_tensor_control_flow(fn, n):
    for z in [np.array(200, np.uint8), np.array(2**62), np.float16(60000.0), np.array(1e308)]:
        _assert_as_eager(fn, z, np.int64(n))


@pytest.mark.parametrize("n", [0, 2])
def test_accumulator_started_as_a_0d_array(n):
    for v in [np.array([200], np.uint8), np.array([1e308])]:
        _assert_as_eager(_sum_from_zeros, v, np.int64(n))


def _widened(v, n):
    total = np.zeros((), np.uint8)
    i = 0
    while i < n:
        total = total + v[0]
        i += 1
    return total


@pytest.mark.parametrize("n", [0, 2])
def test_a_0d_array_constant_joined_with_another_dtype_comes_back_as_on_its_path(n):
    # a uint8 0-d array when the loop runs no trip, a float64 scalar after one
    _assert_as_eager(_widened, np.array([1.5]), np.int64(n))


def _grow(x, n):
    i = 0
    while i < n:
        x = x * 1e200
        i += 1
    return x


@pytest.mark.parametrize("backend", ["numpy", "numba"])
def test_loop_scalars_kept_as_python_numbers_warn_as_eager(backend):
    # the first trip multiplies the 0-d array (the loop's "multiply"), later ones the scalar
    for x, n in [(np.array(1e200), 1), (np.array(1.0), 2), (np.array(1.0), 3), (np.array(3.0), 0)]:
        _assert_as_eager(_grow, x, np.int64(n), backend=backend)


def test_gradients_through_0d_array_operators():
    def f(x):
        z = np.asarray(x[0])
        s = np.zeros(())
        i = 0
        while i < 2:
            s = s + z * x[1]
            i += 1
        return s**2 - z + np.asarray(x[1]) ** 2

    x = np.array([0.7, -1.3])
    grad = tg.grad(tg.to_static(f))(x)
    step = 1e-6
    numeric = [(f(x + step * e) - f(x - step * e)) / (2 * step) for e in np.eye(2)]
    np.testing.assert_allclose(grad, numeric, rtol=1e-6)


def test_fuzz_seed_5205_warns_as_eager(tmp_path):
    program = execution.load(programs.generate(5205, programs.ALL_FEATURES).source, tmp_path)
    for variant in (0, 1):
        _assert_as_eager(program.f, *program.make_args(variant))


def _numpy_scalar_on_the_left(z, x):
    y = z if x.sum() > 0 else z[()]
    return np.float32(2) ** y


def test_numpy_scalar_operator_of_a_0d_array_on_some_paths_runs_eagerly():
    # ``np.float32(2) ** y`` became a host call of np.power, which warned "overflow
    # encountered in power" on the path where eager's scalar arithmetic warns "... in scalar
    # power": it now runs eagerly, naming the construct.
    static = tg.to_static(_numpy_scalar_on_the_left)
    seen = []
    for x in [np.ones(1), -np.ones(1)]:
        args = (np.array(200, np.uint8), x)
        eager, _, eager_warnings, _ = _outcome(_numpy_scalar_on_the_left, args)
        compiled, _, compiled_warnings, fallbacks = _outcome(static, args)
        assert type(compiled) is type(eager)
        assert compiled_warnings == eager_warnings
        seen += fallbacks
    assert any("0-d array on some paths" in f for f in seen), seen
