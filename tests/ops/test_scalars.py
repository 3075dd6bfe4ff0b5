"""Python scalars from tensors (``float(t)``, ``int``, ``complex``, ``bool``, ``t.item()``,
``t.tolist()``, ``round(t)``, ``math.*``) and ndarray methods and attributes on tensors: the
same values and Python-vs-NumPy kinds as eager, inside tensor loops with nothing falling back;
what a graph cannot do falls back naming the reason, never an AttributeError."""

import math
import warnings

import numpy as np
import pytest
from loop_harness import assert_compiles_in_loop

import tograph as tg

DTYPES = (np.float32, np.float64, np.int64, np.bool_, np.complex128)


def sample(dtype):
    values = np.array([1.5, 0.0, 2.25, 3.0])
    if np.dtype(dtype).kind == "c":
        return (values + 0.5j).astype(dtype)
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_item_tolist_and_casts_are_python_scalars(dtype):
    x = sample(dtype)
    assert_compiles_in_loop(lambda a: a[2].item(), x)
    assert_compiles_in_loop(lambda a: a.item(3), x)
    assert_compiles_in_loop(lambda a: a.reshape(2, 2).item(1, 0), x)
    # (tuples: a Python list carried through a tensor loop would become a tensor list)
    assert_compiles_in_loop(lambda a: tuple(a.tolist()), x)
    assert_compiles_in_loop(lambda a: tuple(map(tuple, a.reshape(2, 2).tolist())), x)
    assert_compiles_in_loop(lambda a: complex(a[0]), x)
    if dtype is not np.complex128:
        assert_compiles_in_loop(lambda a: (float(a[0]), int(a[2]), bool(a[1])), x)
    if dtype not in (np.complex128, np.bool_):
        assert_compiles_in_loop(lambda a: round(a[2]), x)


@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.int64))
def test_math_functions_of_0d_tensors(dtype):
    x = sample(dtype)
    assert_compiles_in_loop(lambda a: math.sqrt(a[2]) + math.exp(a[1]), x)
    assert_compiles_in_loop(lambda a: (math.floor(a[0]), math.isnan(a[3]), math.hypot(a[0], 2)), x)
    assert_compiles_in_loop(lambda a: math.atan2(a[0], a[3]) * math.pi, x)


def test_math_isclose_with_keyword_tolerances_compiles():
    """``math.isclose``'s tolerances are keyword-only: given as Python numbers or tensors they
    reach ``math.isclose`` by name when the graph runs (a NumPy scalar is turned to a float)."""
    x = np.array([1.0, 1.0 + 1e-7, 0.25, 3.0], dtype=np.float32)
    assert_compiles_in_loop(lambda a: math.isclose(a[0], a[1], rel_tol=1e-6), x)
    assert_compiles_in_loop(lambda a: math.isclose(a[0], a[1], rel_tol=1e-9), x.astype(float))
    assert_compiles_in_loop(lambda a: math.isclose(a[0], 1.2, abs_tol=a[2]), x.astype(float))
    assert_compiles_in_loop(lambda a: math.isclose(a[3], a[0], rel_tol=a[2], abs_tol=0.5), x)


def test_math_functions_whose_domain_excludes_one_half_compile():
    """The type of ``math.acosh(t)`` is found with a probe inside its domain (it is not 0.5)."""
    x = np.array([1.5, 3.0, 2.0, 4.0])
    assert_compiles_in_loop(lambda a: math.acosh(a[1]) + math.acosh(a[3]), x)


def test_a_math_domain_error_is_raised_when_the_graph_runs():
    f = tg.to_static(lambda a: math.sqrt(a[0]), fallback="error")
    assert f(np.array([4.0])) == 2.0
    with pytest.raises(ValueError, match="math domain error"):
        f(np.array([-1.0]))


def test_a_branch_on_a_converted_scalar_is_a_cond():
    def clipped(a):
        v = float(np.sum(a))
        if v > 3:
            return v - 3
        return v

    f = tg.to_static(clipped, fallback="error")
    for x in (np.array([1.0, 4.0]), np.array([0.5, 1.0])):
        got = f(x)
        assert type(got) is float and got == clipped(x)
    assert "cond" in f.concrete(np.array([1.0, 4.0])).op_counts()


def test_item_of_a_tensor_of_several_values_is_numpys_error():
    f = tg.to_static(lambda a: a.item(), fallback="silent")
    with pytest.raises(ValueError, match="size 1"):
        f(np.ones(3))


@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.int64, np.complex128))
def test_methods_are_the_numpy_functions(dtype):
    m = sample(dtype).reshape(2, 2)
    assert_compiles_in_loop(lambda a: (a.any(), a.all(axis=0), a.swapaxes(0, 1)), m)
    assert_compiles_in_loop(lambda a: (a.sum(0, keepdims=True), a.cumsum(1), a.mT, a.T), m)
    assert_compiles_in_loop(lambda a: (a.flat[3], a.nbytes, a.itemsize, a.device), m)
    assert_compiles_in_loop(lambda a: (a.std(ddof=1), a.var(axis=1), a.conjugate()), m)
    assert_compiles_in_loop(lambda a: (a.ravel(), a.flatten(), a.squeeze(), a.copy()), m)
    assert_compiles_in_loop(lambda a: divmod(a.real, 2), m)
    if dtype is not np.complex128:
        assert_compiles_in_loop(lambda a: (a.argpartition(1), a.clip(min=1), a.round(1)), m)
        assert_compiles_in_loop(lambda a: np.sort(a.ravel()).searchsorted(2), m)


@pytest.mark.parametrize("dtype", (np.float64, np.int64))
def test_in_place_methods_write_the_array(dtype):
    def partition(a):
        b = a[::-1] * 1
        b.partition(1)
        return b, a

    def put_wrap(a):
        b = a * 1
        b.put([0, -1, 5], [7, 8], mode="wrap")
        return b

    def put_clip(a):
        b = a * 1
        np.put(b, [[0], [7]], 9, mode="clip")
        return b

    x = sample(dtype)
    assert_compiles_in_loop(partition, x)
    assert_compiles_in_loop(put_wrap, x)
    assert_compiles_in_loop(put_clip, x)


@pytest.mark.parametrize(
    "action, reason",
    [
        (lambda a: setattr(a, "shape", (2, 2)), "setting .shape"),
        (lambda a: a.view(np.int8), "another size"),
        (lambda a: a.strides, "memory"),
        (lambda a: a.tobytes(), "bytes"),
        (lambda a: a.flat.__setitem__(0, 1.0), "x.flat"),
    ],
)
def test_what_a_graph_cannot_do_falls_back_with_a_reason(action, reason):
    def program(a):
        action(a)
        return a

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tg.to_static(program)(np.ones(4))
    (warning,) = [w for w in caught if issubclass(w.category, tg.FallbackWarning)]
    assert reason in str(warning.message)
    assert "AttributeError" not in str(warning.message)


def test_every_ndarray_method_and_attribute_exists_on_tensors():
    public = {n for n in dir(np.ndarray) if not n.startswith("_")}
    assert public - set(dir(tg.eager.EagerTensor)) == set()


@pytest.mark.parametrize(
    "kind", (np.float16, np.float32, np.int8, np.uint16, np.bool_, np.complex64)
)
def test_numpy_scalar_types_convert_as_eager(kind):
    x = sample(np.float64)
    assert_compiles_in_loop(lambda a: (kind(a[2]), kind(a), kind(np.sum(a))), x)
    assert_compiles_in_loop(lambda a: kind(float(a[3])) * 2, x)


def test_a_numpy_scalar_type_raises_numpys_overflow_error():
    f = tg.to_static(lambda a: np.int8(int(a[0])), fallback="error")
    assert f(np.array([100.0])) == np.int8(100)
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        f(np.array([300.0]))
