"""Stage: build. The lowered function run once on symbolic tensors -> a ``Graph``.

Input: a lowered function and the call's arguments, already split by ``signature`` into tensor
leaves (graph inputs, typed by value or by ``input_spec``) and static values (baked in). Output:
``BuiltGraph``: the graph, and how a call's result and effects come out of its outputs:

* the result keeps the nesting of tuples, lists and dicts; a static result is returned as it is
  (a NumPy array made in the function is copied per call, as the function makes a new one);
* an argument array written in place (``trace.functional``) is written back into the caller's
  array after the graph runs (``write_backs``): the graph returns its final value;
* a result that is an argument array, or a view of one, is that array, or the same view of it,
  in the caller's memory (``AliasOut``), as NumPy's would be;
* any other array result that could share memory with an argument at run time (a kernel's view,
  where the function made a copy) is copied (``check_outputs``).
Requires: lowering.convert (the lowered function), staging.runtime (what it calls).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import core, pytree
from tograph.staging import carried
from tograph.trace import builder as builder_mod
from tograph.trace import functional, signature, tensor


@dataclasses.dataclass(frozen=True)
class AliasOut:
    """A result that is the caller's argument array ``slot`` itself, or a view of it: the view's
    steps (primitive, number of operands, params) are replayed on the caller's array, their
    operands being graph outputs ``operands``."""

    slot: int
    steps: tuple[tuple[Any, int, dict[str, Any]], ...]
    operands: tuple[int, ...]

    def replay(self, array: Any, outputs: Sequence[Any]) -> Any:
        """The view of ``array``: a NumPy view of a caller's array; of a tensor (the graph
        inlined in another trace), the view's value, which may not be written in place."""
        operands = iter(outputs[i] for i in self.operands)
        for prim, count, params in self.steps:
            args = [next(operands) for _ in range(count)]
            if isinstance(array, np.ndarray):
                array = prim.impl(array, *args, **params)
            else:
                array = prim.bind(array, *args, **params)
                if isinstance(array, tensor.SymbolicTensor):
                    functional.freeze(array, "a view of an argument returned by an inlined graph")
        return array

    def functional(
        self, argument: core.Atom, outputs: Sequence[core.Atom], eqns: list[core.Eqn]
    ) -> core.Atom:
        """The view as a graph value: its steps, taken of ``argument`` (the argument's final
        value) with operands among ``outputs``, appended to ``eqns`` as equations."""
        value = argument
        operands = iter(outputs[i] for i in self.operands)
        for prim, count, params in self.steps:
            args = (value, *(next(operands) for _ in range(count)))
            (out_type,) = prim.out_types([a.type for a in args], params)
            out = core.Var(out_type)
            eqns.append(core.Eqn(prim, args, dict(params), (out,)))
            value = out
        return value


@dataclasses.dataclass(frozen=True)
class Fresh:
    """A static result made in the function (a NumPy array): a copy per call."""

    value: Any


@dataclasses.dataclass(frozen=True)
class Copy:
    """Graph output ``index`` again, as another array (a copy made in the function)."""

    index: int


@dataclasses.dataclass(frozen=True)
class BuiltGraph:
    """A graph plus the recipe to turn its outputs into the function's Python result."""

    graph: core.Graph
    out_tree: pytree.TreeDef
    # per result leaf: a graph output index, signature.Static, Fresh or AliasOut
    out_slots: tuple[Any, ...]
    # (argument slot, graph output index): arrays to write back into the caller's arguments
    write_backs: tuple[tuple[int, int], ...] = ()
    # graph output indices whose arrays may share memory with an argument at run time
    check_outputs: frozenset[int] = frozenset()

    @property
    def plain(self) -> bool:
        """Whether the result is the graph's outputs alone (no write-back, alias or copy)."""
        return (
            not self.write_backs
            and not self.check_outputs
            and all(isinstance(s, (int, signature.Static)) for s in self.out_slots)
        )

    @property
    def keeps_arguments(self) -> bool:
        """Whether a call neither writes into its arguments nor returns one or a view of one."""
        return not self.write_backs and not any(isinstance(s, AliasOut) for s in self.out_slots)

    def checking(self, graph: core.Graph) -> BuiltGraph:
        """This recipe for ``graph`` (the optimised graph): its outputs that may share memory
        with an argument or a constant are checked and copied at run time."""
        sharing = _may_share_inputs(graph)
        check = frozenset(i for i, atom in enumerate(graph.outputs) if atom in sharing)
        return dataclasses.replace(self, graph=graph, check_outputs=check)

    def functional_graph(self) -> core.Graph:
        """The function as a pure graph: its outputs are the result's arrays in order (an
        argument returned, or a view of one, computed from the input), then the final value of
        each argument written in place. For exporters, which have no aliasing or write-back."""
        graph = self.graph
        eqns = list(graph.eqns)
        final: list[core.Atom] = list(graph.inputs)  # each argument as the call leaves it
        for arg, index in self.write_backs:
            final[arg] = graph.outputs[index]
        outputs: list[core.Atom] = []
        for slot in self.out_slots:
            if isinstance(slot, int):
                outputs.append(graph.outputs[slot])
            elif isinstance(slot, Copy):
                outputs.append(graph.outputs[slot.index])
            elif isinstance(slot, AliasOut):
                outputs.append(slot.functional(final[slot.slot], graph.outputs, eqns))
        outputs.extend(graph.outputs[index] for _, index in self.write_backs)
        return graph.replace(eqns=tuple(eqns), outputs=tuple(outputs))

    def unflatten_functional(self, outputs: Sequence[Any]) -> Any:
        """The Python result from the outputs of ``functional_graph()`` (arguments written in
        place are not written back: the caller decides what to do with their final values)."""
        values = iter(outputs)
        leaves = []
        for slot in self.out_slots:
            if isinstance(slot, signature.Static):
                leaves.append(slot.value)
            elif isinstance(slot, Fresh):
                leaves.append(slot.value.copy())
            else:
                leaves.append(next(values))
        return self.out_tree.unflatten(leaves)

    def unflatten(self, outputs: Sequence[Any], inputs: Sequence[Any] = ()) -> Any:
        """The Python result from the graph's outputs, after writing back into ``inputs``."""
        for slot, index in self.write_backs:
            np.copyto(inputs[slot], outputs[index])
        leaves = [self._leaf(s, outputs, inputs) for s in self.out_slots]
        return self.out_tree.unflatten(leaves)

    def _leaf(self, slot: Any, outputs: Sequence[Any], inputs: Sequence[Any]) -> Any:
        if isinstance(slot, int):
            value = outputs[slot]
            if slot in self.check_outputs and _shares_memory(value, inputs):
                return value.copy()
            return value
        if isinstance(slot, AliasOut):
            return slot.replay(inputs[slot.slot], outputs)
        if isinstance(slot, Fresh):
            return slot.value.copy()
        if isinstance(slot, Copy):
            value = outputs[slot.index]
            return value.copy() if isinstance(value, np.ndarray) else value
        return slot.value


def _shares_memory(value: Any, inputs: Sequence[Any]) -> bool:
    """Whether ``value`` shares memory with an argument, or is a read-only constant."""
    if not isinstance(value, np.ndarray):
        return False
    if not value.flags.writeable:
        return True
    return any(isinstance(a, np.ndarray) and np.may_share_memory(value, a) for a in inputs)


def build_graph(
    name: str,
    lowered: Callable[..., Any],
    sig: signature.Signature,
    outside: frozenset[int] = frozenset(),
) -> BuiltGraph:
    """Runs ``lowered`` on symbolic inputs described by ``sig`` and returns the graph it emits.

    Args:
      name: the graph's name.
      lowered: the lowered function.
      sig: the call's signature.
      outside: ``id`` of the objects that exist outside the function (its globals, closure
        values, static arguments): an array among them returned as a static result is returned
        itself, any other is copied per call.
    """
    builder = builder_mod.GraphBuilder(name)
    with builder.active():
        inputs = _inputs(builder, sig)
        args, kwargs = sig.rebuild(inputs)
        result = lowered(*args, **kwargs)
        leaves, out_tree = pytree.flatten(result)
        outputs: list[Any] = []
        slots = [_result_slot(leaf, inputs, outputs, outside) for leaf in leaves]
        write_backs = _write_backs(inputs, builder.inputs, outputs)
        graph = builder.finish(outputs)
    return BuiltGraph(graph, out_tree, tuple(slots), tuple(write_backs))


def _inputs(builder: builder_mod.GraphBuilder, sig: signature.Signature) -> list[Any]:
    """The graph inputs, as tensors of the arguments' kinds (array or scalar, layout); inputs
    that are the very same array share one storage, so a write to one is a write to all."""
    inputs = [builder.add_input(t, hint) for t, hint in zip(sig.input_types, sig.input_names)]
    for i, value in enumerate(inputs):
        if isinstance(value, tensor.SymbolicTensor):
            if i < len(sig.input_layouts):
                value.layout = sig.input_layouts[i]
                value.array0d = sig.input_array0d[i]
    for i, twin in enumerate(sig.input_twins):
        if twin is not None:
            first, second = functional.storage_of(inputs[twin]), functional.storage_of(inputs[i])
            first.twins.append(second)
            second.twins.append(first)
    return inputs


def _result_slot(leaf: Any, inputs: list[Any], outputs: list[Any], outside: frozenset[int]) -> Any:
    """Where one leaf of the result comes from (see ``BuiltGraph.out_slots``)."""
    if isinstance(leaf, carried.Undefined):
        raise errors.UnboundVariableError(
            f"cannot access local variable '{leaf.name}' where it is not associated with a "
            "value (it is returned, but not assigned on every path)"
        )
    if isinstance(leaf, tensor.SymbolicTensor):
        alias = _alias_of_input(leaf, inputs, outputs)
        if alias is not None:
            return alias
    if isinstance(leaf, tensor.Symbolic):
        for index, earlier in enumerate(outputs):
            if earlier is not leaf and earlier.graph_var is leaf.graph_var:
                return Copy(index)  # another array holding the same value (``y.copy()``)
        outputs.append(leaf)
        return len(outputs) - 1
    if isinstance(leaf, np.ndarray) and id(leaf) not in outside:
        return Fresh(leaf)
    return signature.Static(leaf)


def _alias_of_input(leaf: Any, inputs: list[Any], outputs: list[Any]) -> AliasOut | None:
    """The ``AliasOut`` for a result that is an argument array or a view of it, if it is one."""
    storage = leaf._storage
    for slot, value in enumerate(inputs):
        same = value is leaf or (storage is not None and value._storage is storage)
        if not same or not value.is_array:
            continue
        steps, operands = [], []
        for step in leaf._path if value is not leaf else ():
            steps.append((step.prim, len(step.operands), step.params))
            for operand in step.operands:
                outputs.append(operand)
                operands.append(len(outputs) - 1)
        return AliasOut(slot, tuple(steps), tuple(operands))
    return None


def _write_backs(
    inputs: list[Any], originals: Sequence[core.Var], outputs: list[Any]
) -> list[tuple[int, int]]:
    """(slot, output) for each argument array written in place: its final value is an output."""
    found = []
    written: set[int] = set()
    for slot, (value, original) in enumerate(zip(inputs, originals)):
        storage = getattr(value, "_storage", None)
        if storage is None or storage.current.graph_var is original or id(storage) in written:
            continue
        written.update(id(s) for s in (storage, *storage.twins))
        outputs.append(storage.current)
        found.append((slot, len(outputs) - 1))
    return found


def _may_share_inputs(graph: core.Graph) -> set[core.Atom]:
    """The values of ``graph`` that may share memory with its inputs (or its constants) at run
    time: the inputs, literals, and what view-returning kernels and control flow make of them."""
    sharing: set[Any] = set(graph.inputs)
    for eqn in graph.eqns:
        operands = [a for a in eqn.inputs if a in sharing or isinstance(a, core.Lit)]
        if eqn.prim.views and eqn.inputs and eqn.inputs[0] in operands:
            sharing.update(eqn.outputs)
        elif list(eqn.subgraphs()) and operands:
            sharing.update(eqn.outputs)
    sharing.update(a for a in graph.outputs if isinstance(a, core.Lit))
    return sharing
