"""Graphs for the executor tests, each traced from a plain Python function that is its reference.

``CASES`` lists (name, graph builder, reference function, argument tuples): the graph is what
tograph builds for the function (traced on symbolic inputs, checked), the reference is the
function the lowered code stands for, run as plain Python + NumPy.
"""

import numpy as np

from tograph.ir import check, types
from tograph.staging import control_flow
from tograph.trace import builder

F64 = types.TensorType(np.float64, ())
I64 = types.TensorType(np.int64, ())
F64_4 = types.TensorType(np.float64, (4,))


def trace(fn, *in_types, names=None):
    """The checked graph of ``fn`` on symbolic inputs of ``in_types``, named after ``fn``."""
    b = builder.GraphBuilder(fn.__name__)
    with b.active():
        args = [b.add_input(t, hint=n) for t, n in zip(in_types, names or [None] * len(in_types))]
        out = fn(*args)
        graph = b.finish(out if isinstance(out, tuple) else (out,))
    check.check_graph(graph)
    return graph


def straight(x, y):
    return np.tanh(x * y - 1.5) ** -1.0, x / y


def collatz(n):
    def body(n, steps):
        n = control_flow.cond(
            n % 2 == 0, lambda n: (n // 2,), lambda n: (3 * n + 1,), (n,), ("n",)
        )[0]
        return n, steps + 1

    return control_flow.while_loop(lambda n, steps: n > 1, body, (n, 0), ("n", "steps"))


def collatz_python(n):
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps = steps + 1
    return n, steps


def fib(n):
    """Carries that swap: ``a, b = b, a + b``."""
    init = (0, np.int64(0), np.int64(1))
    body = lambda i, a, b: (i + 1, b, a + b)
    return control_flow.while_loop(lambda i, a, b: i < n, body, init, ("i", "a", "b"))[1:]


def fib_python(n):
    i, a, b = 0, np.int64(0), np.int64(1)
    while i < n:
        i, a, b = i + 1, b, a + b
    return a, b


def halve_until(x, lo, hi):
    """A condition of three equations, so the loop is ``while True:`` ... ``break``."""
    test = lambda x: (x > lo) & (x < hi)
    return control_flow.while_loop(test, lambda x: (x * 0.5,), (x,), ("x",))[0]


def halve_until_python(x, lo, hi):
    while (x > lo) & (x < hi):
        x = x * 0.5
    return x


def scaled_rows(x, k, n):
    """A loop in a cond in a loop; the innermost body reads k from three levels out."""

    def inner(row):
        return control_flow.while_loop(
            lambda j, r: j < n, lambda j, r: (j + 1, r * k), (0, row), ("j", "r")
        )[1]

    def outer_body(i, acc):
        acc = control_flow.cond(
            i % 2 == 0, lambda a: (inner(a),), lambda a: (a - k,), (acc,), ("acc",)
        )[0]
        return i + 1, acc

    return control_flow.while_loop(lambda i, a: i < 3, outer_body, (0, x), ("i", "acc"))[1]


def scaled_rows_python(x, k, n):
    i, acc = 0, x
    while i < 3:
        if i % 2 == 0:
            j = 0
            while j < n:
                j, acc = j + 1, acc * k
        else:
            acc = acc - k
        i += 1
    return acc


def _f64(v):
    return np.float64(v)


CASES = [
    (
        "straight",
        lambda: trace(straight, F64_4, F64, names=["x", "y"]),
        straight,
        [(np.arange(4.0), _f64(2.0))],
    ),
    (
        "collatz",
        lambda: trace(collatz, I64, names=["n"]),
        collatz_python,
        [(np.int64(27),), (np.int64(1),)],
    ),
    ("fib", lambda: trace(fib, I64, names=["n"]), fib_python, [(np.int64(10),), (np.int64(0),)]),
    (
        "halve_until",
        lambda: trace(halve_until, F64, F64, F64),
        halve_until_python,
        [(_f64(40.0), _f64(1.0), _f64(50.0)), (_f64(80.0), _f64(1.0), _f64(50.0))],
    ),
    (
        "scaled_rows",
        lambda: trace(scaled_rows, F64_4, F64, I64),
        scaled_rows_python,
        [(np.arange(4.0), _f64(1.5), np.int64(2)), (np.arange(4.0), _f64(1.5), np.int64(0))],
    ),
]
