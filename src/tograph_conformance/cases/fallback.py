"""Conformance cases that must fall back to eager execution with a ``FallbackWarning`` whose reason
names the construct and its ``file:line``: try/except, with (but np.errstate), generators,
global writes, nonlocal where it cannot be exact, del, class and match statements, NumPy
functions that are not pure (text, callbacks)."""

import warnings

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("fallback")

f64 = np.float64
VEC = np.array([0.5, 1.5, 2.0, 3.25])
SYM = np.array([[2.0, 1.0], [1.0, 3.0]])
_CALL_COUNT = 0


@CASES.case(args=[(VEC,)], expect="fallback", error="try", at="try:")
def try_except_block(x):
    try:
        y = np.log(x)
    except FloatingPointError:
        y = x
    return y * 2


@CASES.case(args=[(VEC,)], expect="fallback", error="with", at="with warnings.catch_warnings")
def with_statement(x):
    with warnings.catch_warnings():  # of the with statements only np.errstate(...) converts
        y = 1.0 / x
    return y


def _positive_items(x):
    for v in x:
        if v > 0:
            yield v


@CASES.case(
    args=[(VEC,)],
    expect="fallback",
    error="yield|generator|_positive_items",
    at="yield v",
    at_fn=_positive_items,
)
def generator_called_inside(x):
    total = 0.0
    for v in _positive_items(x):
        total = total + v
    return total


@CASES.case(args=[(VEC,)], expect="fallback", error="global", at="global _CALL_COUNT")
def global_write(x):
    global _CALL_COUNT
    _CALL_COUNT += 1
    return x * 2


@CASES.case(args=[(VEC,)], expect="fallback", error="del", at="del scratch")
def del_statement(x):
    scratch = x * 2
    y = scratch + 1
    del scratch
    return y


@CASES.case(args=[(VEC,)], expect="fallback", error="array2string", at="np.array2string(x")
def numpy_text_formatting(x):
    text = np.array2string(x, precision=2)
    return text, np.sum(x)


@CASES.case(args=[(SYM,)], expect="fallback", error="vectorize", at="np.vectorize(abs)")
def numpy_callback_function(a):
    ordered = np.vectorize(abs)(a)
    if ordered[0, 0] > ordered[1, 1]:
        return ordered[0]
    return ordered[1]


@CASES.case(args=[(VEC,)], expect="fallback", error="nonlocal", at="while bump")
def nonlocal_in_nested_function(x):
    calls = 0

    def bump():
        nonlocal calls
        calls += 1
        return calls

    while bump() < 3:  # a loop test calling it: the copies in and out have no statement to go
        x = x * 2
    return x, calls


@CASES.case(args=[(VEC,)], expect="fallback", error="class", at="class Box:")
def class_inside_function(x):
    class Box:
        scale = 3.0

    return x * Box.scale


@CASES.case(
    args=[(VEC, "double"), (VEC, "neg")], expect="fallback", error="match", at="match mode:"
)
def match_statement(x, mode):
    match mode:
        case "double":
            y = x * 2
        case _:
            y = -x
    return y


@CASES.case(args=[(VEC,)], expect="fallback", error="try", at="try:")
def try_finally_in_loop(x):
    total = 0.0 * x[0]
    for v in x:
        try:
            total = total + np.sqrt(v)
        finally:
            total = total + 1
    return total


# A generator made in the function and handed out: the graph makes it anew on each run.
@CASES.case(args=[(VEC,)], expect="fallback", error="outlives the call", at="rng = np.random")
def generator_made_and_returned(x):
    rng = np.random.default_rng(0)
    return x + rng.normal(size=x.shape), rng


@CASES.case(args=[(VEC,)], expect="fallback", error="is not a draw", at="rng.spawn(")
def generator_spawned(x):
    rng = np.random.default_rng(0)
    children = rng.spawn(2)
    return x * len(children)


@CASES.case(
    args=[(VEC,), (-VEC,)],
    expect="fallback",
    error="made before an if or loop over tensors",
    at='d["pos"].append(v)',
)
def append_to_a_list_a_dict_holds_in_tensor_loop(x):
    d = {"pos": [], "neg": []}
    for v in x:
        if v >= 0:
            d["pos"].append(v)
    return len(d["pos"])


@CASES.case(
    args=[(VEC,), (-VEC,)],
    expect="fallback",
    error="known by two names",
    at="p.append(v)",
)
def append_to_a_list_stored_in_a_dict(x):
    p = []
    d = {"pos": p}
    for v in x:
        p.append(v)
    return len(d["pos"]), len(p)
