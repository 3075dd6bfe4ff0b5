"""ufunc.reduce, ufunc.accumulate and ufunc.outer on tensors against NumPy: the ufuncs that map
to existing primitives and the generic ones, dtypes, axes, errors, tensor control flow."""

import numpy as np
import pytest
from loop_harness import assert_compiles_in_loop
from op_harness import check, trace

from tograph import errors
from tograph.ir import types
from tograph.ops import ufunc_methods

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4))
WITH_NAN = X.copy()
WITH_NAN[1, 2] = np.nan
ARRAYS = {
    "f64": X,
    "nan": WITH_NAN,
    "f32": X.astype(np.float32),
    "i8": RNG.integers(-5, 5, (3, 4)).astype(np.int8),
    "bool": X > 0,
}
UFUNCS = ["add", "multiply", *ufunc_methods.GENERIC]
pytestmark = pytest.mark.filterwarnings("ignore:divide by zero", "ignore:invalid value")


def numpy_refuses(fn, a):
    """Whether NumPy raises a TypeError for ``fn(a)``; if so, tracing must raise one too."""
    try:
        with np.errstate(all="ignore"):
            fn(a)
    except TypeError:
        with pytest.raises(TypeError):
            trace(fn, types.type_of(a))
        return True
    return False


@pytest.mark.parametrize("name", sorted(ARRAYS))
@pytest.mark.parametrize("ufunc", UFUNCS)
def test_reduce(ufunc, name):
    u, a = getattr(np, ufunc), ARRAYS[name]
    if numpy_refuses(lambda a: u.reduce(a), a):
        return
    check(lambda a: u.reduce(a), a)
    check(lambda a: u.reduce(a, axis=-1, keepdims=True), a)
    if ufunc not in ("subtract", "divide"):
        check(lambda a: (u.reduce(a, axis=None), u.reduce(a, axis=(0, 1))), a)
    check(lambda a: u.reduce(a, axis=1), a, unknown={0: [0, 1]})


@pytest.mark.parametrize("name", sorted(ARRAYS))
@pytest.mark.parametrize("ufunc", UFUNCS)
def test_accumulate(ufunc, name):
    u, a = getattr(np, ufunc), ARRAYS[name]
    if numpy_refuses(lambda a: u.accumulate(a), a):
        return
    check(lambda a: (u.accumulate(a), u.accumulate(a, axis=-1)), a)
    check(lambda a: u.accumulate(a, axis=1), a, unknown={0: [0, 1]})


def test_reduce_dtype_and_small_ints():
    a = ARRAYS["i8"]
    check(lambda a: (np.add.reduce(a), np.multiply.reduce(a, axis=1)), a)  # upcast, as np.sum
    check(lambda a: (np.add.reduce(a, dtype=np.float32), np.add.accumulate(a, dtype=np.int16)), a)
    check(lambda a: np.subtract.reduce(a, axis=0), a)  # no upcast


def test_reduce_errors():
    t = types.TensorType(np.float64, (2, 3))
    with pytest.raises(errors.ShapeError, match="not reorderable"):
        trace(lambda a: np.subtract.reduce(a, axis=None), t)
    with pytest.raises(errors.ShapeError, match="no identity"):
        trace(lambda a: np.fmax.reduce(a, axis=0), types.TensorType(np.float64, (0, 3)))
    a = np.arange(1.0, 7.0).reshape(2, 3)
    for fn in (
        lambda a: np.add.reduce(a, initial=1.0),
        lambda a: np.maximum.reduce(a, dtype=np.float32),
        lambda a: np.power.reduce(a),
        lambda a: np.add.reduceat(a, [0, 1], axis=1),
    ):
        assert "numpy_call" in str(check(fn, a))  # no rule: NumPy's own method


@pytest.mark.parametrize("name", sorted(ARRAYS))
@pytest.mark.parametrize("ufunc", ["add", "multiply", "maximum", "less", "arctan2", "equal"])
def test_outer(ufunc, name):
    u, a = getattr(np, ufunc), ARRAYS[name]
    if numpy_refuses(lambda a: u.outer(a[0], a), a):
        return
    check(lambda a: (u.outer(a[0], a), u.outer(a, a[:, 0]), u.outer(a[0, 0], a[1])), a)
    check(lambda a: u.outer(a[0], 2), a)
    check(lambda a: u.outer(a[:, 0], a[0]), a, unknown={0: [0, 1]})


def test_outer_of_python_numbers_promotes_like_arrays():
    f32 = ARRAYS["f32"]
    check(lambda a: (np.add.outer(2, a[0]), np.multiply.outer(a[0], 3)), f32)


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: np.add.reduce(a, axis=1),
        lambda a: np.maximum.reduce(a),
        lambda a: np.logaddexp.reduce(a, axis=0),
        lambda a: np.multiply.accumulate(a, axis=1),
        lambda a: np.minimum.accumulate(a),
        lambda a: np.subtract.outer(a[0], a[1]),
    ],
)
def test_in_a_tensor_loop(fn):
    assert_compiles_in_loop(fn, X)
