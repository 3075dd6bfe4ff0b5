"""Helpers for pass tests: build graphs with cond / while_loop equations, run and check them.

``cond`` and ``while_loop`` here emit the equations directly (every value an explicit operand), so
the expected graphs do not depend on how lowered code traces control flow.
"""

import textwrap

import numpy as np
import pytest

from tograph.backend import codegen
from tograph.ir import check as ir_check
from tograph.ir import types
from tograph.ops import control, lists
from tograph.trace import builder, tensor

F64 = types.TensorType(np.float64, ())
F64_3 = types.TensorType(np.float64, (3,))
I64 = types.TensorType(np.int64, ())
WEAK_I64 = types.TensorType(np.int64, (), weak=True)


def trace(fn, *in_types, hints=None):
    """The graph of ``fn`` applied to symbolic inputs of ``in_types``."""
    b = builder.GraphBuilder("f")
    with b.active():
        args = [b.add_input(t, h) for t, h in zip(in_types, hints or [None] * len(in_types))]
        out = fn(*args)
        return b.finish(out if isinstance(out, tuple) else (out,))


def _subgraph(label, fn, values):
    child = builder.current().child(label)
    with child.active():
        args = [
            child.add_input(_type(v), getattr(v, "graph_var", None) and v.graph_var.hint)
            for v in values
        ]
        out = fn(*args)
        graph = child.finish(out if isinstance(out, tuple) else (out,))
    if child.captures:
        raise ValueError("test branches and loops must take every value as an operand")
    return graph


def _type(value):
    return value.type if isinstance(value, tensor.Symbolic) else types.type_of(value)


def cond(pred, then_fn, else_fn, *operands):
    """A ``cond`` equation; the branches get ``operands`` as inputs."""
    then_graph = _subgraph("then", then_fn, operands)
    else_graph = _subgraph("else", else_fn, operands)
    params = {"then_graph": then_graph, "else_graph": else_graph}
    return builder.current().emit(control.cond_p, (pred, *operands), params)


def while_loop(cond_fn, body_fn, consts, carries):
    """A ``while_loop`` equation; cond and body get ``(*consts, *carries)`` as inputs."""
    values = (*consts, *carries)
    cond_graph = _subgraph("cond", cond_fn, values)
    body_graph = _subgraph("body", body_fn, values)
    params = {"cond_graph": cond_graph, "body_graph": body_graph, "num_consts": len(consts)}
    return builder.current().emit(control.while_loop_p, values, params)


def interpret(graph, *args):
    """The outputs of ``graph`` on ``args``, run by the executor."""
    return codegen.execute(graph, *args)


def check(graph):
    """The invariants every pass keeps: the IR checker's, and each list value pushed once."""
    ir_check.check_graph(graph)
    lists.check_single_push(graph)


def dedent(text):
    return textwrap.dedent(text).strip("\n")


@pytest.fixture
def x3():
    return np.array([0.5, -1.0, 2.0])
