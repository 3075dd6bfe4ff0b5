"""Python scalar kinds under to_static: a result is a Python number where eager code keeps one,
a NumPy scalar or a 0-d array where NumPy makes one, also when the data decides which; and a
function whose kinds tograph cannot follow falls back, naming why. Each case is compared with its
eager run (``eager_oracle``: values, dtypes, kinds and the arguments afterwards)."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg

X32 = np.array([0.25, 1.0, -2.0], np.float32)
NAN = float("nan")


def round_of_float(x):
    return round(float(x[0]), 2), round(x[0], 2), round(bool(x[1]), 1), round(int(x[1]), -1)


def round_to_int(x):
    return round(float(x[0])), round(x[0])


@pytest.mark.parametrize("first", [2.675, 0.125, -1.005, 1e300, NAN])
def test_round_of_a_python_float_rounds_in_decimal_as_python_does(first):
    x = np.array([first, 17.0])
    assert_matches_eager(round_of_float, x)
    if first == first and abs(first) < 1e18:
        assert_matches_eager(round_to_int, x)


def round_of_a_0d_array(x):
    return round(np.asarray(x.sum()), 1)


def round_of_a_numpy_bool(x):
    return round(x[0] > 0, 1)


@pytest.mark.parametrize("fn", [round_of_a_0d_array, round_of_a_numpy_bool])
def test_round_of_what_has_no_round_raises_as_eager_does(fn):
    assert_matches_eager(fn, np.ones(2), compiles=False)


def min_max_with_python_numbers(x):
    return min(x[0], 0.5), max(0.5, x[1]), min(x[1], x[0], 2), max([x[0], 1, x[2]])


@pytest.mark.parametrize(
    "x",
    [X32, X32 * 4, np.array([NAN, 0.5, NAN], np.float32), np.array([0.5, 0.5, 2.0]), -X32],
    ids=["float32", "larger", "nan", "ties", "negated"],
)
def test_min_and_max_return_the_item_python_picks(x):
    assert_matches_eager(min_max_with_python_numbers, x)


def min_max_of_vector(x):
    return min(x), max(x)


@pytest.mark.parametrize(
    "x",
    [
        np.array([3.0, NAN, 1.0, 1.0]),
        np.array([NAN, 3.0, 1.0]),
        np.array([0.0, -0.0]),
        np.array([-0.0, 0.0]),
        np.array([np.inf, NAN]),
        np.array([5, 1, 5], np.int32),
    ],
)
def test_min_of_a_vector_skips_nan_after_the_first_item_as_python_does(x):
    assert_matches_eager(min_max_of_vector, x)


def min_of_rows(x):
    return min(x)


def test_min_of_a_matrix_falls_back_naming_min():
    cf = assert_matches_eager(min_of_rows, np.array([[1.0, 2.0]]), compiles=False)
    assert "min() of arrays" in cf.fallback


def for_else_return(x):
    for v in x:
        if v > 10:
            return v
    else:
        return -1.0


@pytest.mark.parametrize("x", [X32, X32 * 100, np.array([], np.float32)])
def test_a_return_on_the_for_else_path_is_a_python_float(x):
    assert_matches_eager(for_else_return, x)


def ternaries(x):
    a = x[0] if x[1] > 0 else 0.5
    c = 3 if x[2] > 0 else True
    if x[2] > 0:
        e = a
    else:
        e = np.float32(7)
    return a, c, e, not x[2] > 0


@pytest.mark.parametrize("x", [X32, -X32, np.array([1.0, -1.0, 1.0], np.float32)])
def test_values_an_if_joins_keep_each_branch_kind(x):
    assert_matches_eager(ternaries, x)


def ternary(x):
    return x[0] if x[1] > 0 else 0.5


@pytest.mark.parametrize("x", [np.array([0.25, 1.0]), np.array([0.25, -1.0])])
def test_a_saved_graph_keeps_the_kinds(tmp_path, x):
    static = tg.to_static(ternary)
    static(x)
    tg.save(static, tmp_path / "f.tograph")
    loaded = tg.load(tmp_path / "f.tograph")
    got, expected = loaded(x), ternary(x)
    assert type(got) is type(expected) and got == expected


def test_grad_of_a_result_of_either_kind():
    grad = tg.grad(tg.to_static(ternary))
    np.testing.assert_array_equal(grad(np.array([0.25, 1.0])), [1.0, 0.0])
    np.testing.assert_array_equal(grad(np.array([0.25, -1.0])), [0.0, 0.0])


def plus_argument(x, n):
    return x * 2 + n


def plus_big_constant(x):
    return x[0] + 2**64


def big_int_or_element(x):
    return 2**63 if x[0] > 0 else x[0]


@pytest.mark.parametrize(
    "fn, args",
    [
        (plus_argument, (np.ones(2), 2**70)),
        (plus_big_constant, (np.ones(2),)),
        (big_int_or_element, (np.ones(2),)),
        (big_int_or_element, (-np.ones(2),)),
    ],
    ids=["argument", "constant", "ternary", "ternary_else"],
)
def test_a_python_int_beyond_64_bits_falls_back_naming_it(fn, args):
    cf = assert_matches_eager(fn, *args, compiles=False)
    assert "does not fit in 64 bits" in cf.fallback


def sums_of_python_numbers(x):
    floats, ints = [], []
    for v in x:
        floats.append(float(v))
        ints.append(int(v > 0))
    return sum(floats), sum(floats, 0.5), sum(ints), sum(x), sum(floats) / len(floats)


@pytest.mark.parametrize("x", [np.array([1.5, 2.25, -0.5]), np.array([0.1, 0.2])])
def test_sum_of_a_list_of_python_numbers_is_a_python_number(x):
    assert_matches_eager(sums_of_python_numbers, x)


def point_one_or_float32(x):
    y = 0.1 if x[0] > 0 else x[0]
    return y


def half_or_float32(x):
    if x[0] > 0:
        y = 0.5
    else:
        y = x[0]
    return y


def test_a_python_number_joined_with_float32_comes_back_exactly():
    for x in (X32, -X32):
        assert_matches_eager(point_one_or_float32, x)
        assert_matches_eager(half_or_float32, x)


def sum_of_large(x):
    large = []
    for v in x:
        if v > 100:
            large.append(float(v))
    return sum(large), sum(large, 0.5)


@pytest.mark.parametrize("x", [np.array([1.0, 2.0]), np.array([1.0, 200.0, 300.0])])
def test_sum_of_an_empty_tensor_list_is_its_start(x):
    assert_matches_eager(sum_of_large, x)


def imaginary_parts(x):
    s = x[0]
    return s.imag, np.imag(s), float(s).imag, int(s).imag, bool(s).imag, x.imag


def imaginary_part_of_a_0d_array(a):
    return a.imag, np.imag(a)


@pytest.mark.parametrize(
    "x", [np.array([1.5, -2.0]), np.array([3, 4], dtype=np.int8), np.array([True, False])]
)
def test_the_imaginary_part_of_a_real_number_is_of_its_kind(x):
    # a NumPy scalar's is a NumPy scalar, a Python number's a Python number (a bool's the int 0):
    # they came back as 0-d arrays
    assert_matches_eager(imaginary_parts, x)


def test_the_imaginary_part_of_a_0d_array_is_a_0d_array():
    assert_matches_eager(imaginary_part_of_a_0d_array, np.array(1.5))
