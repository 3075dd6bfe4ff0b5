"""The interpreter gives what the generated code gives: same values, classes, dtypes and errors."""

import numpy as np
import pytest
from executor_cases import CASES

from tograph import errors
from tograph.backend import codegen, interpreter
from tograph.ir import core, types
from tograph.ops import elementwise

WEAK_INT = types.TensorType(np.int64, (), weak=True)
WEAK_FLOAT = types.TensorType(np.float64, (), weak=True)


@pytest.mark.parametrize("name, make, reference, arg_sets", CASES, ids=[c[0] for c in CASES])
def test_same_results_as_generated_code(name, make, reference, arg_sets):
    graph = make()
    for args in arg_sets:
        got, expected = interpreter.interpret(graph, *args), codegen.execute(graph, *args)
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            assert type(a) is type(b)
            assert np.asarray(a).dtype == np.asarray(b).dtype
            np.testing.assert_array_equal(a, b)


def test_weak_results_stay_python_numbers():
    a, b, out = core.Var(WEAK_INT, "a"), core.Var(WEAK_INT, "b"), core.Var(WEAK_FLOAT)
    graph = core.Graph("f", (a, b), (core.Eqn(elementwise.divide_p, (a, b), {}, (out,)),), (out,))
    (out,) = interpreter.interpret(graph, 3, 2)
    assert type(out) is float and out == 1.5


def test_same_runtime_error_as_generated_code():
    loc = errors.SourceLocation("user.py", 3, 0, "    z = x + y\n", "f")
    vec = types.TensorType(np.float64, (None,))
    x, y, out = core.Var(vec, "x"), core.Var(vec, "y"), core.Var(vec)
    graph = core.Graph("f", (x, y), (core.Eqn(elementwise.add_p, (x, y), {}, (out,), loc),), (out,))
    raised = []
    for run in (interpreter.interpret, codegen.execute):
        with pytest.raises(ValueError) as info:
            run(graph, np.ones(3), np.ones(4))
        raised.append(info.value)
    assert raised[0].__notes__ == raised[1].__notes__
    assert (
        raised[0]
        .__notes__[0]
        .startswith(
            "tograph: user.py:3: while executing `t0:f64[None] = add x y`: ValueError: operands"
        )
    )
    assert errors.location_of(raised[0]) is loc and type(raised[0]) is ValueError
