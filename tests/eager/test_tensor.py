"""Eager tensors compute at once and agree with NumPy in value, dtype and Python-scalar-ness."""

import operator

import numpy as np
import pytest

from tograph import eager, errors
from tograph.ir import types
from tograph.ops import lists, reductions  # noqa: F401  (registers np.sum & co.)

E = eager.EagerTensor

VALUES = [
    np.linspace(-1.0, 1.0, 5),
    np.arange(4, dtype=np.float32),
    np.arange(6).reshape(2, 3),
    np.int64(3),
    2.5,
    7,
]

FUNCTIONS = {
    "exp": np.exp,
    "sin": np.sin,
    "negative": np.negative,
    "times_2": lambda a: a * 2,
    "one_minus": lambda a: 1 - a,
    "square": lambda a: a**2,
    "third": lambda a: a / 3,
    "floordiv": lambda a: a // 2,
    "abs": abs,
    "greater": lambda a: a > 0.5,
    "where": lambda a: np.where(a > 0.5, a, 0.0),
    "maximum": lambda a: np.maximum(a, 0.25),
    "sqrt_abs": lambda a: np.sqrt(np.abs(a)),
    "times_f32": lambda a: a * np.float32(1.5),
}


def assert_same(got, expected):
    """Same value, same dtype, and a Python scalar exactly when NumPy gives one."""
    assert isinstance(got, E)
    np.testing.assert_array_equal(got.numpy(), expected)
    assert np.asarray(got.numpy()).dtype == np.asarray(expected).dtype
    assert types.is_python_scalar(got.numpy()) == types.is_python_scalar(expected)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("value", VALUES, ids=lambda v: str(types.type_of(v)))
def test_elementwise_results_equal_numpy(name, value):
    fn = FUNCTIONS[name]
    assert_same(fn(E(value)), fn(value))


@pytest.mark.parametrize(
    "a, b",
    [
        (np.ones((2, 3), np.float32), np.arange(1, 4)),
        (np.arange(3), 2.5),
        (np.float32(2.0), 3),
        (4, 2),
        (True, 2),
    ],
)
@pytest.mark.parametrize(
    "op", [operator.add, operator.mul, operator.sub, operator.truediv, operator.lt]
)
def test_binary_results_equal_numpy(a, b, op):
    assert_same(op(E(a), E(b)), op(a, b))
    assert_same(op(E(a), b), op(a, b))


def test_array_operations_equal_numpy():
    x = np.arange(6.0).reshape(2, 3)
    y = np.linspace(0.0, 1.0, 6).reshape(3, 2)
    assert_same(E(x).sum(axis=0), x.sum(axis=0))
    assert_same(E(x).mean(), x.mean())
    assert_same(E(x) @ E(y), x @ y)
    assert_same(E(x)[1, ::2], x[1, ::2])
    assert_same(E(x)[E(np.int64(0))], x[0])
    assert_same(E(x).T.reshape(6), x.T.reshape(6))
    assert_same(np.concatenate([E(x), x]), np.concatenate([x, x]))


def test_iteration_gives_eager_rows():
    x = np.arange(6.0).reshape(2, 3)
    rows = list(E(x))
    assert len(rows) == 2
    for got, expected in zip(rows, x):
        assert_same(got, expected)
    assert_same(sum(E(np.arange(4))), np.int64(6))


def test_concrete_conversions():
    assert bool(E(np.array([2.0]))) and not bool(E(0.0))
    assert int(E(np.float64(3.7))) == 3
    assert float(E(np.int32(2))) == 2.0
    assert complex(E(1.5)) == 1.5 + 0j
    assert operator.index(E(np.int64(4))) == 4
    assert [10, 20, 30][E(np.int64(1))] == 20
    assert len(E(np.zeros((4, 2)))) == 4
    assert E(np.arange(3)).tolist() == [0, 1, 2]
    assert E(np.float32(0.5)).item() == 0.5
    assert f"{E(np.float64(2.0)):.2f}" == "2.00"
    assert str(E(np.arange(3))) == "[0 1 2]"
    assert repr(E(1.5)) == "EagerTensor(1.5)"
    with pytest.raises(TypeError, match="unsized"):
        len(E(np.float64(1.0)))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(E(np.arange(3)))


def test_lists_to_python_values_become_arrays():
    assert_same(E([1.0, 2.0]) * 2, np.array([1.0, 2.0]) * 2)
    assert np.asarray(E(np.arange(3))).tolist() == [0, 1, 2]


def test_weak_results_stay_python_scalars():
    n = E(3) + E(4)
    assert n.numpy() == 7 and type(n.numpy()) is int and n.type.weak
    scaled = n * np.ones(2, np.float32)
    assert scaled.dtype == np.float32


def test_numpy_functions_without_a_primitive_run_on_values():
    assert_same(np.spacing(E(np.ones(2))), np.spacing(np.ones(2)))
    assert_same(np.fmod(E(np.arange(4)), 3), np.fmod(np.arange(4), 3))


def test_eager_lists():
    x = E(np.arange(3.0))
    lst = lists.as_list([x, x * 2])
    assert isinstance(lst, eager.EagerList) and str(lst.type) == "list[f64[3]]"
    assert len(lst) == 2
    assert_same(lst[1], np.arange(3.0) * 2)
    assert_same(lists.stack(lst), np.stack([np.arange(3.0), np.arange(3.0) * 2]))
    n = lists.length(lst)
    assert n.numpy() == 2 and type(n.numpy()) is int
    assert [v.numpy().tolist() for v in lst] == [[0.0, 1.0, 2.0], [0.0, 2.0, 4.0]]


def test_eager_list_type_mismatch_names_both_types():
    with pytest.raises(errors.DTypeError, match=r"i64\[3\] onto list\[f64\[3\]\]"):
        lists.push(lists.as_list([E(np.zeros(3))]), E(np.arange(3)))


def test_unwrap_nested_results():
    x = E(np.arange(2))
    lst = lists.as_list([x])
    tree = {"a": (x, [x * 2, 3]), "b": lst, "c": "text"}
    out = eager.unwrap(tree)
    assert type(out["a"]) is tuple and type(out["a"][0]) is np.ndarray
    assert out["a"][1][0].tolist() == [0, 2] and out["a"][1][1] == 3
    assert type(out["b"]) is list and out["b"][0].tolist() == [0, 1]
    assert out["c"] == "text"
