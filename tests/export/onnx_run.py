"""Running an exported model in onnxruntime on a compiled case's inputs, beside tograph's run."""

import inspect

import numpy as np
import onnxruntime

from tograph.backend import codegen
from tograph.ir import types
from tograph.trace import signature

_OPTIONS = onnxruntime.SessionOptions()
_OPTIONS.log_severity_level = 3


def graph_inputs(cf, args, kwargs):
    """The graph's input values for a call, in order (as ``StaticFunction`` would pass them)."""
    bound, bound_kw, names = signature.bind(inspect.signature(cf.owner), args, kwargs)
    _, tensors = signature.make_signature(bound, bound_kw, names, cf.owner.input_spec)
    method_of = getattr(cf.owner.python_function, "__self__", None)
    bound_self = () if method_of is None else (method_of,)
    return tensors + cf.guard_inputs((bound, bound_kw, bound_self))  # attributes it reads


def run_both(model, cf, args, kwargs):
    """(tograph's outputs of the function's pure graph, onnxruntime's), each a list of arrays
    of the graph's types."""
    tensors = graph_inputs(cf, args, kwargs)
    graph = cf.functional_graph
    expected = [_as_typed(v, t) for v, t in zip(codegen.execute(graph, *tensors), graph.out_types)]
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), _OPTIONS, providers=["CPUExecutionProvider"]
    )
    feeds = {i.name: np.asarray(v) for i, v in zip(session.get_inputs(), tensors)}
    return expected, session.run(None, feeds)


def _as_typed(value, t):
    """An output as onnxruntime gives it: an array of its type, a list of them for a tensor list."""
    if isinstance(t, types.ListType):
        return [np.asarray(item, dtype=t.elem.dtype) for item in value]
    return np.asarray(value, dtype=types.tensor_type(t).dtype)
