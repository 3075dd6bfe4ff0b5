"""The Dask backend: a graph run on ``dask.array`` arrays, lazily, one dask graph per call.

Stage: execute. Input: a ``Graph`` (a concrete function's ``functional_graph``) and its input
values, some of them ``dask.array.Array``s. Output: the tuple of output values, the same as
``codegen.execute`` would give on the computed arrays: a value that depends on a dask input is a
lazy dask array (``.compute()`` gives NumPy's value), any other a NumPy value or Python number.
Each equation becomes ``dask.array`` operations (``backend.dask_ops``), so the whole call builds
one dask graph, which the caller computes or persists, on a ``dask.distributed`` cluster or the
local threads, in memory or out of core.

Synchronisation points: a graph needs a concrete value wherever its control depends on the data,
and there the backend computes it (on the default scheduler: the active ``Client`` if any):

* ``cond``: the predicate, when it is a dask value;
* ``while_loop``: the predicate, before every trip. The carried dask arrays are persisted with it
  (kept computed, on a cluster in the workers' memory, which spills to disk), and the loop's dask
  constants once before the first trip, so each trip starts from computed chunks instead of
  recomputing the loop from its start;
* ``print``, ``assert``: their dask operands, so they print and test values as NumPy's backend
  does;
* a Python number computed from a dask array (``int(x.sum())``), as Python would.

Requires: a graph that passes ``tograph.ir.check.check_graph``; ``dask[array]`` installed.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from tograph.backend import dask_ops, interpreter
from tograph.ir import core, types


def takes(values: Sequence[Any]) -> bool:
    """Whether the Dask backend should run a call on ``values`` (one of them is a dask array):
    never while ``dask.array`` is not imported, which every dask array's module needs."""
    return "dask.array" in sys.modules and any(types.is_dask_array(v) for v in values)


def execute(graph: core.Graph, *args: Any) -> tuple[Any, ...]:
    """Runs ``graph`` on ``args`` (dask arrays among them); returns the tuple of its outputs.

    Raises:
      GraphRuntimeError: an equation failed, or has no chunked form for its operands; the
        message names the equation, ``loc`` the user line.
    """
    return _DaskInterpreter(graph).run(graph, args)


class _DaskInterpreter(interpreter.Interpreter):
    """The interpreter with dask operands: chunked forms, and computed control decisions."""

    def cond(self, eqn: core.Eqn, values: Sequence[Any]) -> tuple[Any, ...]:
        pred, *operands = values
        branch = eqn.params["then_graph"] if _concrete(pred) else eqn.params["else_graph"]
        return self.run(branch, operands)

    def while_loop(self, eqn: core.Eqn, values: Sequence[Any]) -> tuple[Any, ...]:
        num_consts = eqn.params["num_consts"]
        consts = _persisted(values[:num_consts])
        carries = tuple(values[num_consts:])
        test, body = eqn.params["cond_graph"], eqn.params["body_graph"]
        while True:
            (pred,) = self.run(test, consts + carries)
            if types.is_dask_array(pred):
                *kept, pred = _persisted((*carries, pred))
                carries = tuple(kept)
            if not _concrete(pred):
                return carries
            carries = self.run(body, consts + carries)

    def primitive(self, eqn: core.Eqn, values: Sequence[Any]) -> Sequence[Any]:
        if eqn.prim.effectful:
            return super().primitive(eqn, [_concrete(v) for v in values])
        if not takes(values):
            return super().primitive(eqn, values)
        outputs = dask_ops.run(eqn, values)
        return tuple(
            _concrete(value) if _is_weak(var.type) else value
            for value, var in zip(outputs, eqn.outputs)
        )


def _is_weak(t: types.ValueType) -> bool:
    return isinstance(t, types.TensorType) and t.weak


def _concrete(value: Any) -> Any:
    """``value`` computed if it is a dask array (a synchronisation point), else itself."""
    if not types.is_dask_array(value):
        return value
    return value.compute()


def _persisted(values: Sequence[Any]) -> tuple[Any, ...]:
    """``values`` with their dask arrays persisted together (their chunks computed and kept)."""
    import dask

    lazy = [i for i, v in enumerate(values) if types.is_dask_array(v)]
    if not lazy:
        return tuple(values)
    out = list(values)
    for i, done in zip(lazy, dask.persist(*(values[i] for i in lazy))):
        out[i] = done
    return tuple(out)
