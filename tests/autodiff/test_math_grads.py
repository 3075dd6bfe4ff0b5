"""Gradients through the ``math`` module's functions of tensor scalars (``math_call``), and of a
list of Python numbers built in a loop, against central differences."""

import math

import numpy as np
import pytest
from gradcheck import assert_grads

import tograph as tg
from tograph import errors

ONE_ARGUMENT = {
    "sqrt": 1.7,
    "cbrt": 1.7,
    "exp": 0.3,
    "exp2": 0.3,
    "expm1": 0.3,
    "log": 1.7,
    "log1p": 0.3,
    "log10": 1.7,
    "log2": 1.7,
    "sin": 0.3,
    "cos": 0.3,
    "tan": 0.3,
    "sinh": 0.3,
    "cosh": 0.3,
    "tanh": 0.3,
    "asin": 0.3,
    "acos": 0.3,
    "atan": 0.3,
    "asinh": 0.3,
    "acosh": 1.7,
    "atanh": 0.3,
    "erf": 0.3,
    "erfc": 0.3,
    "fabs": -0.3,
    "degrees": 0.3,
    "radians": 0.3,
}


@pytest.mark.parametrize("name", sorted(ONE_ARGUMENT))
def test_math_function_of_an_element(name):
    fn = getattr(math, name)

    def f(x):
        return fn(x[0] * x[1]) * 2.0

    assert_grads(f, np.array([ONE_ARGUMENT[name], 1.0]), tape=False)


@pytest.mark.parametrize("name", ["atan2", "hypot", "pow", "log"])
def test_math_function_of_two_elements(name):
    fn = getattr(math, name)

    def f(x):
        return fn(x[0], x[1])

    assert_grads(f, np.array([1.3, 2.1]), tape=False)


def test_piecewise_constant_math_functions_pass_no_gradient():
    def f(x):
        return math.floor(x[0]) * x[1] + math.ceil(x[1])

    assert_grads(f, np.array([1.3, 2.4]), tape=False)


def test_black_scholes_vega_through_math_erf():
    def call_price(sigma):
        d1 = (math.log(100.0 / 95.0) + (0.02 + 0.5 * sigma**2) * 0.5) / (sigma * math.sqrt(0.5))
        d2 = d1 - sigma * math.sqrt(0.5)
        cdf1 = 0.5 * (1.0 + math.erf(d1 / math.sqrt(2.0)))
        cdf2 = 0.5 * (1.0 + math.erf(d2 / math.sqrt(2.0)))
        return 100.0 * cdf1 - 95.0 * math.exp(-0.02 * 0.5) * cdf2

    assert_grads(call_price, np.float64(0.25), tape=False)


def test_a_math_function_without_a_derivative_is_named():
    def f(x):
        return math.gamma(x[0])

    with pytest.raises(errors.UnsupportedError, match=r"math\.gamma"):
        tg.grad(tg.to_static(f))(np.array([2.5]))


def test_a_list_of_python_floats_appended_in_a_loop():
    """The list's cotangent holds Python numbers' cotangents (weak), as its forward list does."""

    def volatility_sum(returns):
        var = returns[0] ** 2
        vols = [float(np.sqrt(var))]
        for r in returns[1:]:
            var = 0.9 * var + 0.1 * r * r
            vols.append(math.sqrt(var))
        return np.sum(np.array(vols))

    assert_grads(volatility_sum, np.array([0.01, 0.02, -0.01, 0.03]), tape=False)
