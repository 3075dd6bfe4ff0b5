"""Stage: build. The lowered function run once on symbolic tensors -> a ``Graph``.

Input: a lowered function and the call's arguments, already split by ``signature`` into tensor
leaves (graph inputs, typed by value or by ``input_spec``) and static values (baked in). Output:
``BuiltGraph``: the graph, and how to rebuild the Python result from its outputs (same nesting of
tuples, lists and dicts; static results returned as they are).
Requires: lowering.convert (the lowered function), lowering.runtime (what it calls).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from tograph import errors
from tograph.ir import core, pytree
from tograph.staging import carried
from tograph.trace import builder as builder_mod
from tograph.trace import signature, tensor


@dataclasses.dataclass(frozen=True)
class BuiltGraph:
    """A graph plus the recipe to turn its outputs into the function's Python result."""

    graph: core.Graph
    out_tree: pytree.TreeDef
    out_slots: tuple[
        Any, ...
    ]  # per result leaf: an int (graph output index) or signature.Static(value)

    def unflatten(self, outputs: tuple[Any, ...]) -> Any:
        leaves = [outputs[s] if isinstance(s, int) else s.value for s in self.out_slots]
        return self.out_tree.unflatten(leaves)


def build_graph(name: str, lowered: Callable[..., Any], sig: signature.Signature) -> BuiltGraph:
    """Runs ``lowered`` on symbolic inputs described by ``sig`` and returns the graph it emits."""
    builder = builder_mod.GraphBuilder(name)
    with builder.active():
        symbolic = [builder.add_input(t, hint) for t, hint in zip(sig.input_types, sig.input_names)]
        args, kwargs = sig.rebuild(symbolic)
        result = lowered(*args, **kwargs)
        leaves, out_tree = pytree.flatten(result)
        outputs: list[Any] = []
        slots: list[Any] = []
        for leaf in leaves:
            if isinstance(leaf, tensor.Symbolic):
                slots.append(len(outputs))
                outputs.append(leaf)
            elif isinstance(leaf, carried.Undefined):
                raise errors.UnboundVariableError(
                    f"cannot access local variable '{leaf.name}' where it is not associated with a "
                    "value (it is returned, but not assigned on every path)"
                )
            else:
                slots.append(signature.Static(leaf))
        graph = builder.finish(outputs)
    return BuiltGraph(graph, out_tree, tuple(slots))
