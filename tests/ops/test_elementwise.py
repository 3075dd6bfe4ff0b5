"""Elementwise primitives against NumPy: values, dtypes (NumPy 2 / NEP 50), weak Python scalars,
broadcasting with unknown dims, and clear errors."""

import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import check, out_type

import tograph as tg
from tograph import errors
from tograph.ir import types
from tograph.ops import elementwise

DTYPES = [
    np.bool_,
    np.int8,
    np.uint8,
    np.int32,
    np.int64,
    np.float16,
    np.float32,
    np.float64,
    np.complex128,
]
PY_SCALARS = [True, 3, 2.5, 1 + 2j]

OPERATORS = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "floor_divide": operator.floordiv,
    "mod": operator.mod,
    "power": operator.pow,
    "less": operator.lt,
    "greater_equal": operator.ge,
    "equal": operator.eq,
    "not_equal": operator.ne,
    "bitwise_and": operator.and_,
    "bitwise_xor": operator.xor,
    "left_shift": operator.lshift,
}

UFUNCS_2 = [
    np.maximum,
    np.minimum,
    np.arctan2,
    np.logical_and,
    np.logical_or,
    np.logical_xor,
    np.add,
    np.hypot,
    np.logaddexp,
    np.fmax,
    np.fmin,
]
UFUNCS_1 = [
    np.negative,
    np.abs,
    np.sign,
    np.exp,
    np.log,
    np.log1p,
    np.expm1,
    np.sqrt,
    np.square,
    np.sin,
    np.cos,
    np.tan,
    np.tanh,
    np.arctan,
    np.sinh,
    np.cosh,
    np.floor,
    np.ceil,
    np.isnan,
    np.isfinite,
    np.logical_not,
    np.isinf,
    np.log2,
    np.log10,
    np.exp2,
    np.arcsin,
    np.arccos,
    np.arcsinh,
    np.arccosh,
    np.arctanh,
    np.reciprocal,
    np.cbrt,
    np.deg2rad,
    np.radians,
    np.rad2deg,
    np.degrees,
    np.trunc,
    np.rint,
]


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.uniform(0.5, 3.0, size=shape)
    if np.dtype(dtype).kind == "b":
        return values > 1.5
    if np.dtype(dtype).kind == "c":
        return (values + 1j * rng.uniform(0.5, 3.0, size=shape)).astype(dtype)
    return values.astype(dtype)


def numpy_accepts(fn, *args):
    try:
        with np.errstate(all="ignore"):
            fn(*args)
    except (TypeError, ValueError, OverflowError, np.exceptions.DTypePromotionError):
        return False
    return True


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(sorted(OPERATORS)),
    st.sampled_from(DTYPES),
    st.sampled_from(DTYPES + PY_SCALARS),
    st.sampled_from([(), (3,), (2, 3)]),
)
def test_operators_match_numpy(name, dtype, other, shape):
    fn = OPERATORS[name]
    x = sample(shape, dtype)
    y = other if not isinstance(other, type) else sample(shape[-1:], other, seed=1)
    if not numpy_accepts(fn, x, y):
        with pytest.raises((errors.DTypeError, TypeError)):
            out_type(fn, types.type_of(x), types.type_of(y))
        return
    with np.errstate(all="ignore"):
        check(fn, x, y)


@pytest.mark.parametrize("ufunc", UFUNCS_1, ids=lambda u: u.__name__)
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.bool_])
def test_unary_ufuncs_match_numpy(ufunc, dtype):
    x = sample((2, 3), dtype)
    if not numpy_accepts(ufunc, x):
        with pytest.raises((errors.DTypeError, TypeError)):
            out_type(ufunc, types.type_of(x))
        return
    with np.errstate(all="ignore"):
        check(ufunc, x)


@pytest.mark.parametrize("ufunc", UFUNCS_2, ids=lambda u: u.__name__)
@pytest.mark.parametrize(
    "dtypes", [(np.float32, np.float64), (np.int32, np.float32), (np.int8, np.uint8)]
)
def test_binary_ufuncs_broadcast_and_promote(ufunc, dtypes):
    x, y = sample((4, 1), dtypes[0]), sample((3,), dtypes[1], seed=2)
    check(ufunc, x, y)


@pytest.mark.parametrize("scalar", [2, 2.5, True])
def test_weak_python_scalars_keep_the_array_dtype(scalar):
    x32 = sample((3,), np.float32)
    assert out_type(lambda x: x * scalar, types.type_of(x32)).dtype == np.float32
    check(lambda x: x * scalar + scalar, x32)


def test_two_weak_values_follow_python():
    weak_int = types.TensorType(np.int64, (), weak=True)
    assert str(out_type(lambda i: i + 1, weak_int)) == "i64[]~"
    assert str(out_type(lambda i: i / 2, weak_int)) == "f64[]~"
    assert str(out_type(lambda i: i < 3, weak_int)) == "bool[]~"
    # A NumPy function of a Python number returns a NumPy scalar: strong.
    assert str(out_type(lambda i: np.add(i, 1), weak_int)) == "i64[]"
    assert str(out_type(lambda i: np.exp(i), weak_int)) == "f64[]"
    check(lambda i, j: (i + j, i * 2.5, -i, abs(i), i // 2), 7, 3)


def test_where_clip_and_astype():
    x = sample((2, 3), np.float32)
    check(lambda x: np.where(x > 1.5, x, 0.0), x)
    check(lambda x: np.where(x > 1.5, x, np.float64(0.0)), x)
    check(lambda x: np.clip(x, 1.0, 2.0), x)
    check(lambda x: np.clip(x, None, 2.0), x)
    check(lambda x: x.astype(np.int16), x)
    check(lambda x: np.add(x, 1, dtype=np.float64), x)
    check(lambda x: np.round(x, 1), x)


def test_unknown_dims_broadcast():
    a = types.TensorType(np.float64, (None, 3))
    b = types.TensorType(np.float64, (4, 1))
    assert out_type(lambda x, y: x + y, a, b).shape == (4, 3)
    c = types.TensorType(np.float64, (None,))
    assert out_type(lambda x, y: x * y, c, types.TensorType(np.float64, (5,))).shape == (5,)


def test_incompatible_shapes_name_both():
    a = types.TensorType(np.float64, (2, 3))
    b = types.TensorType(np.float64, (4,))
    with pytest.raises(
        errors.ShapeError,
        match=r"operands of add could not be broadcast together with shapes \(2, 3\), \(4,\)",
    ):
        out_type(lambda x, y: x + y, a, b)


def test_ufuncs_without_a_primitive_are_host_calls():
    x = np.array([1.0, -2.0, 3.5])
    for fn in (lambda x: np.add.reduceat(x, [0, 2]), np.spacing, np.frexp, np.fabs):
        assert "numpy_call" in str(check(fn, x))
    with pytest.raises(errors.UnsupportedError, match=r"np\.spacing.*out="):
        out_type(lambda x: np.spacing(x, out=np.zeros(3)), types.type_of(x))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("zero", [0, 0.0, False, -0.0, np.int64(0), np.float64(0.0)])
def test_where_between_an_array_and_zero_is_numpys_bit_for_bit(dtype, zero):
    """The ReLU-gradient shortcut of ``where`` (bits kept or cleared) equals ``np.where``, in
    layout too (a Fortran-ordered or strided mask or array)."""
    rng = np.random.default_rng(0)
    g = rng.normal(size=(5, 7)).astype(dtype)
    g[0, :4] = [np.nan, -np.inf, -0.0, np.inf]
    mask = rng.normal(size=(5, 7)) > 0
    cases = [(mask, g, zero), (mask, zero, g), (mask[:, :1], g, zero), (mask[0], g, zero)]
    layouts = [(np.asfortranarray(mask), g, zero), (mask, np.asfortranarray(g), zero)]
    strided = [(mask[:, ::2], g[:, ::2], zero), (mask[::-1], zero, g)]
    for args in cases + layouts + strided + [(mask, g[0], zero)]:
        got, expected = elementwise.where_p.impl(*args), np.where(*args)
        assert type(got) is type(expected) and got.dtype == expected.dtype
        assert got.shape == expected.shape and got.strides == expected.strides
        assert got.tobytes() == expected.tobytes()


# Scalars whose own arithmetic rounds differently from the ufunc's loop (found by a search over
# random values): np.power(x, y) of NumPy or Python scalars runs the loop, x ** y does not.
LOOP_DIFFERS = [
    ("power", np.float64(26.8068817812729), np.float64(-0.9390942455043737)),
    ("power", np.float32(0.1707905), np.float32(0.2640656)),
    ("multiply", np.complex64(0.041279994 + 1.0752631j), np.complex64(1.7115564 - 0.04856105j)),
    ("multiply", 3.25 + 1.5j, -20 / 7 - 3j),
    ("power", 2.7, 8 / 7 + 0.1),
    ("absolute", np.complex128(0.04602315123217759 + 1.1600960959262534j), None),
    ("absolute", np.complex64(0.08274939 + 1.986133j), None),
]


@pytest.mark.parametrize("name, x, y", LOOP_DIFFERS, ids=lambda v: str(v)[:12])
def test_a_ufunc_called_by_name_on_scalars_runs_the_loop_and_an_operator_does_not(name, x, y):
    ufunc = getattr(np, name)
    pyop = {"power": operator.pow, "multiply": operator.mul, "absolute": operator.abs}[name]
    args = (x,) if y is None else (x, y)

    def both(a, *rest):
        return ufunc(a, *rest), pyop(a, *rest)

    eager = both(*args)
    assert not np.array_equal(eager[0], eager[1])  # the loop and the scalars' own arithmetic
    got = tg.to_static(both, fallback="error")(*args)
    assert [type(g) for g in got] == [type(e) for e in eager]
    np.testing.assert_array_equal(got, eager)


def test_a_numpy_scalar_constant_times_a_tensor_is_the_scalars_operator():
    w = np.complex128(-1.3203576973127746 - 2.2218791473272623j)

    def rotate(z):
        return w * z, z * w

    z = np.complex128(8.782396657312704 + 1.1788409796929469j)
    got, eager = tg.to_static(rotate, fallback="error")(z), rotate(z)
    np.testing.assert_array_equal(got, eager)
    assert [type(g) for g in got] == [type(e) for e in eager]
