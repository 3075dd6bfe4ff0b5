"""Activity analysis: only values both depending on a differentiated input and needed by the
differentiated output get cotangents."""

import numpy as np

import tograph as tg
from tograph.autodiff import activity
from tograph.ir import core


def graph_of(fn, *args):
    return tg.to_static(fn, fallback="error").concrete(*args).graph


def hints(graph, ids):
    return sorted(v.hint or "?" for e in graph.eqns for v in e.outputs if v.id in ids)


def test_straight_line():
    def f(x, y):
        a = np.sin(x)
        b = np.cos(y)
        c = a * 2.0
        n = np.argmax(x)
        return c + n, b

    graph = graph_of(f, np.ones(3), np.ones(3))
    active = activity.active_vars(graph, [True, False], [True, False])
    # a (sin x) and c, and the output; not b (cos y: not varied, not useful), not the argmax
    names = {e.prim.name for e in graph.eqns if any(v.id in active for v in e.outputs)}
    assert names == {"sin", "multiply", "add"}
    assert graph.inputs[0].id in active and graph.inputs[1].id not in active


def test_loop_carries_reach_a_fixed_point():
    def f(x, w, n):
        a = x
        b = x * 0.0
        c = np.zeros(3)
        for i in range(n):
            c = c + 1.0  # never depends on x or w
            b = a * w  # varied through a, one iteration later than a
            a = np.sin(a)
        return np.sum(b) + np.sum(c)

    graph = graph_of(f, np.ones(3), np.ones(3), np.int64(2))
    loop = next(e for e in graph.eqns if e.prim.name == "while_loop")
    varied = activity.varied(graph, [False, True, False])
    carries = activity.varied_carries(
        loop, [isinstance(a, core.Var) and a.id in varied for a in loop.inputs]
    )
    body = loop.params["body_graph"]
    n = loop.params["num_consts"]
    kinds = dict(zip((v.hint for v in body.inputs[n:]), carries))
    assert kinds["b"] and not kinds["a"] and not kinds["c"]
    useful = activity.useful_inputs(loop, [v.hint == "b" for v in loop.outputs])
    by_name = dict(zip((v.hint for v in body.inputs), useful))
    # b is needed (its initial value leaves the loop if it runs zero times), a for b, not c
    assert by_name["a"] and by_name["b"] and by_name["w"] and not by_name["c"]


def test_differentiable_types():
    from tograph.ir import types

    assert activity.differentiable(types.TensorType(np.float32, (3,)))
    assert not activity.differentiable(types.TensorType(np.int64, (3,)))
    assert not activity.differentiable(types.TensorType(np.bool_, ()))
    assert activity.differentiable(types.ListType(types.TensorType(np.float64, ())))
    assert not activity.differentiable(types.ListType(None))
