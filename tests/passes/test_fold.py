"""Constant folding: literals of the output type; effects, lists, errors, big results left alone."""

import numpy as np
import pytest
from pass_harness import F64_3, check, dedent, interpret, trace

from tograph.ir import core
from tograph.ops import effects, elementwise, lists
from tograph.passes import fold
from tograph.trace import builder


def emit(prim, *args, **params):
    return builder.current().emit(prim, args, params)


def run_fold(graph, *args):
    result = fold.fold_constants(graph)
    check(result.graph)
    assert result.graph.in_types == graph.in_types and result.graph.out_types == graph.out_types
    for got, expected in zip(interpret(result.graph, *args), interpret(graph, *args)):
        np.testing.assert_array_equal(got, expected)
    return result


def test_folds_chains_of_constant_equations(x3):
    def fn(x):
        six = emit(elementwise.multiply_p, np.float64(2.0), np.float64(3.0))
        seven = emit(elementwise.add_p, six, 1.0)
        offsets = emit(elementwise.add_p, np.arange(3.0), 1.0)
        return x + seven, offsets * x

    graph = trace(fn, F64_3, hints=["x"])
    result = run_fold(graph, x3)
    assert result.modified
    assert str(result.graph) == dedent("""
        graph f(x:f64[3]):
          t0:f64[3] = add x 7.0:f64
          t1:f64[3] = multiply [1.0, 2.0, 3.0]:f64[3] x
          return t0, t1
    """)


def test_weak_results_become_python_scalars_and_strong_ones_numpy_values(x3):
    def fn(x):
        return (
            emit(elementwise.add_p, 2, 3),
            emit(elementwise.add_p, np.int32(2), 3),
            emit(elementwise.less_p, 1, 2.5),
        )

    result = run_fold(trace(fn, F64_3), x3)
    weak, strong, flag = result.graph.outputs
    assert isinstance(weak, core.Lit) and type(weak.value) is int and weak.type.weak
    assert type(strong.value) is np.int32 and not strong.type.weak
    assert flag.value is True and flag.type.weak
    assert str(result.graph).endswith("return 5, 5:i32, True")


def test_folded_arrays_are_read_only_copies(x3):
    source = np.arange(3.0)
    graph = trace(lambda x: emit(elementwise.positive_p, source) + x, F64_3)
    lit = run_fold(graph, x3).graph.eqns[0].inputs[0]
    assert isinstance(lit, core.Lit) and not lit.value.flags.writeable
    assert source.flags.writeable


@pytest.mark.parametrize(
    "prim, args",
    [
        (elementwise.divide_p, (np.float64(1.0), np.float64(0.0))),
        (elementwise.power_p, (np.int64(2), np.int64(-1))),
        (elementwise.power_p, (2, -1)),  # Python gives 0.5 where the type says weak i64
    ],
    ids=["warns", "raises", "result_does_not_fit_type"],
)
def test_equations_whose_kernel_fails_or_disagrees_stay(prim, args, x3):
    graph = trace(lambda x: (emit(prim, *args), x), F64_3)
    result = fold.fold_constants(graph)
    assert result.graph is graph and not result.modified


def test_effects_and_list_equations_stay(x3):
    def fn(x):
        effects.assert_(emit(elementwise.less_p, np.float64(1.0), np.float64(2.0)), "fine")
        return x

    graph = trace(fn, F64_3)
    folded = run_fold(graph, x3).graph
    assert [e.prim.name for e in folded.eqns] == ["assert"]
    assert isinstance(folded.eqns[0].inputs[0], core.Lit)

    def with_list(x):
        lst = lists.push(lists.new(), np.float64(1.0))
        return lists.stack(lst), x

    graph = trace(with_list, F64_3)
    assert fold.fold_constants(graph).graph is graph


def test_returned_arrays_are_computed_on_each_run(x3):
    def fn(x):
        offsets = emit(elementwise.add_p, np.arange(3.0), 1.0)
        return emit(elementwise.multiply_p, offsets, 2.0), x

    result = run_fold(trace(fn, F64_3, hints=["x"]), x3)
    assert str(result.graph).splitlines()[1:] == [
        "  t0:f64[3] = multiply [1.0, 2.0, 3.0]:f64[3] 2.0",
        "  return t0, x",
    ]
    first = interpret(result.graph, x3)[0]
    first += 1
    np.testing.assert_array_equal(interpret(result.graph, x3)[0], [2.0, 4.0, 6.0])


def test_large_results_are_not_folded(x3, monkeypatch):
    monkeypatch.setattr(fold, "MAX_ELEMENTS", 2)
    graph = trace(lambda x: emit(elementwise.add_p, np.arange(3.0), 1.0) + x, F64_3)
    assert fold.fold_constants(graph).graph is graph
