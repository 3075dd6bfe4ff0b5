"""A plain evaluator of graphs, for debugging the code generator and the kernels.

Stage: execute. Input: a ``Graph`` and concrete input values. Output: the tuple of output values,
the same as ``codegen.execute`` gives. Equations run one at a time: ``cond`` and ``while_loop``
evaluate their nested graphs recursively, every other primitive calls its kernel (``impl``).
Requires: a graph that passes ``tograph.ir.check.check_graph``.

Values of weak type are kept as Python scalars, as in generated code: a kernel's NumPy scalar
result for a weak output is turned back into the Python number it stands for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.backend import codegen
from tograph.ir import core, types
from tograph.ops import control


def interpret(graph: core.Graph, *args: Any) -> tuple[Any, ...]:
    """Runs ``graph`` on ``args`` equation by equation; returns the tuple of its outputs.

    Raises:
      Exception: what a kernel raised, noted as ``codegen.runtime_error`` does.
    """
    return Interpreter(graph).run(graph, args)


class Interpreter:
    """Evaluates the graphs nested in one root graph (named as printed in error messages).

    ``cond``, ``while_loop`` and the other primitives each have a method, which an executor for
    other array types overrides (``backend.dask_exec``).
    """

    def __init__(self, root: core.Graph):
        self.root = root

    def run(self, graph: core.Graph, args: Sequence[Any]) -> tuple[Any, ...]:
        if len(args) != len(graph.inputs):
            raise TypeError(f"graph {graph.name} takes {len(graph.inputs)} inputs, got {len(args)}")
        env = {var.id: value for var, value in zip(graph.inputs, args)}
        for eqn in graph.eqns:
            values = [self._read(env, a) for a in eqn.inputs]
            try:
                results = self.eval_eqn(eqn, values)
            except errors.GraphRuntimeError:
                raise
            except Exception as exc:
                error = codegen.runtime_error(self.root, eqn, exc)
                if error is exc:
                    raise
                raise error from exc
            for var, value in zip(eqn.outputs, results):
                env[var.id] = _as_weak(value) if _is_weak(var.type) else value
        return tuple(self._read(env, a) for a in graph.outputs)

    def eval_eqn(self, eqn: core.Eqn, values: Sequence[Any]) -> Sequence[Any]:
        if eqn.prim is control.cond_p:
            return self.cond(eqn, values)
        if eqn.prim is control.while_loop_p:
            return self.while_loop(eqn, values)
        return self.primitive(eqn, values)

    def cond(self, eqn: core.Eqn, values: Sequence[Any]) -> tuple[Any, ...]:
        pred, *operands = values
        branch = eqn.params["then_graph"] if pred else eqn.params["else_graph"]
        return self.run(branch, operands)

    def while_loop(self, eqn: core.Eqn, values: Sequence[Any]) -> tuple[Any, ...]:
        num_consts = eqn.params["num_consts"]
        consts, carries = tuple(values[:num_consts]), tuple(values[num_consts:])
        while self.run(eqn.params["cond_graph"], consts + carries)[0]:
            carries = self.run(eqn.params["body_graph"], consts + carries)
        return carries

    def primitive(self, eqn: core.Eqn, values: Sequence[Any]) -> Sequence[Any]:
        result = eqn.prim.impl(*values, **eqn.params)
        return tuple(result) if eqn.prim.multiple_results else (result,)

    def _read(self, env: dict[int, Any], atom: core.Atom) -> Any:
        if isinstance(atom, core.Lit):
            return atom.value
        try:
            return env[atom.id]
        except KeyError:
            raise errors.InternalError(f"{atom} is used before it is defined") from None


def _is_weak(t: types.ValueType) -> bool:
    return isinstance(t, types.TensorType) and t.weak


def _as_weak(value: Any) -> Any:
    """The Python number standing for a weak value (kernels may return a NumPy scalar)."""
    return value.item() if isinstance(value, (np.generic, np.ndarray)) else value
