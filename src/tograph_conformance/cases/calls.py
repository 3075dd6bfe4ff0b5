"""Conformance cases: calls to other user functions (with control flow of their own), methods
using ``self`` attributes, lambdas, closures, nested functions, recursion on static values,
default and keyword arguments, ``*args`` / ``**kwargs``, callable objects, decorated functions."""

import functools

import numpy as np

import tograph as tg
from tograph_conformance.case import Case, Registry, kw

CASES = Registry("calls")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])


def soft_threshold(v, t):
    if v > t:
        return v - t
    if v < -t:
        return v + t
    return v * 0.0


def poly(x, coeffs, shift=0.0):
    out = 0.0 * x
    for c in coeffs:
        out = out * x + c
    return out + shift


def square(v):
    return v * v


cube = lambda v: v * v * v  # noqa: E731 - a module-level lambda is the point of the case


@CASES.case(args=[(f64(2.0),), (f64(-2.0),), (f64(0.1),)], expect_ops={"cond"})
def call_helper_with_branches(x):
    return soft_threshold(x, 0.5) * 2


@CASES.case(args=[(VEC,)], expect_ops={"while_loop", "cond"})
def call_helper_in_loop(x):
    out = np.zeros_like(x)
    for i, v in enumerate(x):
        out[i] = soft_threshold(v, 1.0)
    return out


@CASES.case(args=[(VEC,)])
def call_with_default_argument(x):
    return poly(x, [1.0, -2.0, 0.5])


@CASES.case(args=[(VEC,)])
def call_with_keyword_argument(x):
    return poly(x, coeffs=(2.0, 1.0), shift=-1.0)


@CASES.case(args=[(VEC,)])
def call_module_lambda(x):
    return cube(x) - square(x)


@CASES.case(args=[(f64(3.0),), (f64(-3.0),)], expect_ops={"cond"})
def local_lambda_with_condition(x):
    reflect = lambda v: v if v > 0 else -2 * v  # noqa: E731
    return reflect(x) + 1


@CASES.case(args=[(VEC, np.int64(3))], expect_ops={"while_loop"})
def nested_function_in_loop(x, n):
    def step(v):
        return 0.5 * v + 1.0

    for _ in range(n):
        x = step(x)
    return x


@CASES.case(args=[(VEC, f64(0.9))])
def nested_function_closes_over_local(x, decay):
    scale = decay * 2

    def damp(v):
        if scale > 1:
            return v * scale
        return v

    return damp(x) + damp(x[::-1])


def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@CASES.case(args=[(VEC, 4), (VEC, 0)], forbid_ops={"cond"})
def recursion_on_static_value(x, n):
    return x * factorial(n)


def power(x, n):
    if n == 0:
        return np.ones_like(x)
    half = power(x, n // 2)
    if n % 2 == 0:
        return half * half
    return half * half * x


@CASES.case(args=[(VEC, 5), (VEC, 8)], forbid_ops={"cond"})
def recursive_tensor_function(x, n):
    return power(x, n)


@CASES.case(args=[(VEC,), kw(VEC, steps=2), kw(VEC, steps=4, rate=0.5)])
def keyword_only_arguments(x, *, steps=3, rate=0.1):
    for _ in range(steps):
        x = x - rate * x
    return x


@CASES.case(args=[(VEC,), (VEC, VEC * 2), (VEC, VEC, VEC)])
def varargs_sum(*arrays):
    total = np.zeros_like(arrays[0])
    for a in arrays:
        total = total + a
    return total


def weighted(**terms):
    out = 0.0
    for name in sorted(terms):
        out = out + terms[name] * len(name)
    return out


@CASES.case(args=[(VEC,)])
def call_with_kwargs_dict(x):
    return weighted(alpha=x, b=x * 2)


def apply_twice(fn, x):
    return fn(fn(x))


@CASES.case(args=[(VEC,)])
def function_as_argument(x):
    return apply_twice(square, x) + apply_twice(lambda v: v + 1, x)


@CASES.case(args=[(VEC, square), (VEC, np.tanh)])
def function_passed_in(x, fn):
    return fn(x) * 2


class Smoother:
    def __init__(self, alpha, steps):
        self.alpha = alpha
        self.steps = steps

    def smooth(self, x):
        y = x[0] * 0.0
        for v in x:
            y = self.alpha * v + (1 - self.alpha) * y
        return y

    def run(self, x):
        if self.steps > 1:
            return self.smooth(x) + self.smooth(x[::-1])
        return self.smooth(x)

    def __call__(self, x):
        out = x
        for _ in range(self.steps):
            out = self.smooth(out) + out * 0.5
        return out

    @staticmethod
    def clip(x):
        if x > 1.0:
            x = x * 0 + 1.0
        return x

    @tg.to_static
    def decorated(self, x):
        total = x[0] * 0
        for v in x:
            if v > 0:
                total = total + v * self.alpha
        return total


_SMOOTHER = Smoother(0.3, 2)


def _method_cases():
    loop = frozenset({"while_loop"})
    yield Case("bound_method_self_attributes", "calls", _SMOOTHER.run, ((VEC,),), loop)


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def call_method_of_global_object(x):
    return _SMOOTHER.run(x)


@CASES.case(args=[(VEC,)])
def call_callable_object(x):
    return _SMOOTHER(x)


@CASES.case(args=[(f64(3.0),), (f64(0.5),)], expect_ops={"cond"})
def call_static_method(x):
    return Smoother.clip(x) * 2


@CASES.case(args=[(VEC,)], expect_ops={"while_loop", "cond"})
def call_decorated_method(x):
    return _SMOOTHER.decorated(x) + 1


@tg.to_static
def _decorated_helper(x):
    while x > 1.0:
        x = x / 3
    return x


@CASES.case(args=[(f64(30.0),), (f64(0.2),)], expect_ops={"while_loop"})
def call_to_static_function(x):
    return _decorated_helper(x) + 1


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def call_functools_partial(x):
    shrink = functools.partial(soft_threshold, t=0.25)
    total = 0.0 * x[0]
    for v in x:
        total = total + shrink(v)
    return total


def make_scaler(factor, offset):
    def scale(x):
        if factor > 1:
            x = x * factor
        return x + offset

    return scale


@CASES.case(args=[(VEC,)])
def call_closure_from_factory(x):
    double = make_scaler(2.0, 1.0)
    return double(x) + make_scaler(0.5, 0.0)(x)


def _pairs(n):
    for i in range(n):
        yield i, i + 1


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def generator_over_static_values(x):
    out = x
    for a, b in _pairs(3):
        out = out * a + b
    return out


@CASES.case(args=[(VEC,)])
def assert_isinstance_of_tensor(x):
    assert isinstance(x, np.ndarray), "expected an array"
    return x * 2


def _closure_case():
    threshold = f64(1.0)

    def above(x):
        count = 0
        for v in x:
            if v > threshold:
                count += 1
        return count

    return above


def _extra_cases():
    yield from _method_cases()
    loop = frozenset({"while_loop"})
    yield Case("closure_over_tensor_constant", "calls", _closure_case(), ((VEC,),), loop)
    yield Case("closure_as_top_level", "calls", make_scaler(3.0, -1.0), ((VEC,),))


for _extra in _extra_cases():
    CASES.add(_extra)


def _halve_n_times(n, x):
    while n > 0:
        x = x * 0.5
        n -= 1
    return x


@CASES.case(args=[(f64(8.0), np.int64(3)), (f64(8.0), np.int64(0)), (f64(1.0), 2)])
def helper_with_tensor_while_called_twice(x, n):
    y = _halve_n_times(n, x)
    if y < 1:
        y = _halve_n_times(1, y)
    return y


def _walk(x, depth):
    if depth == 0:
        return x
    if x.sum() > 0:
        return _walk(x - 1, depth - 1)
    return _walk(x + 2, depth - 1)


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def static_depth_recursion_with_tensor_branches(x):
    return _walk(x, 3)
