"""Stage: build. The lowered function run once on symbolic tensors -> a ``Graph``.

Input: a lowered function and the call's arguments, already split by ``signature`` into tensor
leaves (graph inputs, typed by value or by ``input_spec``) and static values (baked in). Output:
``BuiltGraph``: the graph, and how a call's result and effects come out of its outputs:

* the result keeps the nesting of tuples, lists and dicts; a static result is returned as it is
  (a NumPy array made in the function is copied per call, as the function makes a new one;
  static arrays that share memory, ``a`` and ``a.ravel()``, are copied as one);
* an argument array written in place (``trace.functional``) is written back into the caller's
  array after the graph runs (``write_backs``): the graph returns its final value;
* a result that is an argument array, or a view of one, is that array, or the same view of it,
  in the caller's memory (``AliasOut``), as NumPy's would be; one that is so on some paths of
  tensor control flow only is chosen by its identity tag when the graph runs (``Tagged``,
  ``staging.identity``);
* any other array result that could share memory with an argument at run time (a kernel's view,
  where the function made a copy) is copied (``check_outputs``);
* two results that are different arrays in eager code but may share memory in the graph (a copy
  elided beside a view, two computations CSE merged) are kept apart by a copy (``apart``);
* one array handed over in several places (``return v, v``; returned and stored in an argument)
  has one slot, made once per call: one object, as eager's; a list or dict made in the function
  and handed over twice is refused (the graph gives contents, which would make two containers).
Requires: lowering.convert (the lowered function), staging.runtime (what it calls).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
import inspect
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core, pytree
from tograph.ops import random as random_draws
from tograph.staging import carried, errstates, identity, objects, optional, runtime, text
from tograph.trace import builder as builder_mod
from tograph.trace import containers, functional, signature, tensor


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
class Tagged:
    """A result whose array depends on the path taken (``staging.identity``): where graph output
    ``tag`` (its identity code) is a key of ``choices``, the caller's argument or the view of it
    that the ``AliasOut`` gives; else the computed value, slot ``value``."""

    tag: int
    value: Any
    choices: tuple[tuple[int, AliasOut], ...]


@dataclasses.dataclass(frozen=True)
class Fresh:
    """A static result made in the function (a NumPy array): a copy per call."""

    value: Any

    def make(self, made: dict[int, Any], shared: frozenset[int]) -> Any:
        """This call's copy of ``value``. Static results that share memory (``a`` and
        ``a.ravel()``, or ``a`` twice: their ``id``s are in ``shared``) are made from one copy
        of their base per call (``made``: the call's copies so far, by ``id`` of the
        original), so they share it as eager's do."""
        value = self.value
        if id(value) not in shared:
            return value.copy()
        if id(value) in made:
            return made[id(value)]
        base = value
        while isinstance(base.base, np.ndarray):
            base = base.base
        if base is value or value.dtype.hasobject or not base.flags.forc:
            made[id(value)] = copy = value.copy(order="K")
            return copy
        if id(base) not in made:
            made[id(base)] = base.copy(order="K")
        buffer = made[id(base)]
        offset = value.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        view = np.ndarray(value.shape, value.dtype, buffer, offset, value.strides)
        view.flags.writeable = value.flags.writeable
        made[id(value)] = view
        return view


@dataclasses.dataclass(frozen=True)
class Copy:
    """Graph output ``index`` again, as another array (a copy made in the function)."""

    index: int


@dataclasses.dataclass(frozen=True)
class ArgRef:
    """A list, dict or object reached from the call's arguments: the caller's very object,
    found by the keys and attributes ``path`` (``objects.resolve``) from ``(args, kwargs,
    bound)``: the arguments bound to the parameters, defaults filled, and a bound method's
    object."""

    path: tuple[Any, ...]

    def resolve(self, arguments: Any) -> Any:
        return objects.resolve(arguments, self.path)


@dataclasses.dataclass(frozen=True)
class ContainerWrite:
    """A list or dict of the arguments that the function changes in place (``append``,
    ``d[k] = v``...): after the graph runs, the caller's container is given the contents the
    function left in it, a tree of result slots (or one slot, a tensor list's run-time items:
    a list grown in tensor control flow, ``containers.grown_lists``)."""

    target: ArgRef
    tree: pytree.TreeDef
    slots: tuple[Any, ...]


@dataclasses.dataclass(frozen=True)
class BuiltGraph:
    """A graph plus the recipe to turn its outputs into the function's Python result."""

    graph: core.Graph
    out_tree: pytree.TreeDef
    # per result leaf: a graph output index, signature.Static, Fresh, Copy, AliasOut, Tagged
    # or ArgRef
    out_slots: tuple[Any, ...]
    # (argument slot, graph output index): arrays to write back into the caller's arguments
    write_backs: tuple[tuple[int, int], ...] = ()
    # graph output indices whose arrays may share memory with an argument at run time
    check_outputs: frozenset[int] = frozenset()
    # argument lists and dicts changed in place, given their new contents after a call
    container_writes: tuple[ContainerWrite, ...] = ()
    # the object attributes the graph read: checked at each call, arrays passed as inputs
    reads: tuple[objects.Read | objects.DistinctLists, ...] = ()
    # the object attributes the function set, set on the objects after a call
    attr_writes: tuple[objects.Write, ...] = ()
    # ``id``s of the static arrays handed over that share memory with one another (``Fresh``)
    shared_statics: frozenset[int] = frozenset()
    # per graph output, the array it is in eager code (``_eager_array``): outputs of two such
    # arrays never share memory in eager code
    arrays: tuple[int, ...] = ()
    # groups of graph outputs, of two eager arrays or more, that may share memory in the
    # (optimised) graph: one elided copy (``x[:2].copy()`` beside ``x[::2]``), two computations
    # CSE merged; a group rather than its pairs, which number n * n for n views of one array
    apart: tuple[tuple[int, ...], ...] = ()
    # ``id``s of the graph's array literals that are objects outside the function (a global
    # array): a result that is one is handed over itself, as eager code does
    outside_literals: frozenset[int] = frozenset()
    # the graph's writeable array literals made by the function while traced (``checking``):
    # a result sharing memory with one is copied, since eager code makes it anew each call
    literals: tuple[np.ndarray, ...] = ()

    @property
    def plain(self) -> bool:
        """Whether the result is the graph's outputs alone (no write-back, alias or copy)."""
        return (
            not self.writes_arguments
            and not self.check_outputs
            and not self.apart
            and all(isinstance(s, (int, signature.Static)) for s in self.out_slots)
        )

    @functools.cached_property
    def writes_arguments(self) -> bool:
        """Whether a call writes into argument arrays, lists, dicts or objects (computed once:
        every call asks)."""
        return bool(self.write_backs or self.container_writes or self.attr_writes)

    @functools.cached_property
    def needs_arguments(self) -> bool:
        """Whether a call needs its arguments themselves (``unflatten``'s ``arguments``): the
        graph reads object attributes, or the result holds or changes a list, dict or object
        of the arguments (computed once: every call asks)."""
        return bool(self.container_writes or self.reads or self.attr_writes) or any(
            isinstance(s, ArgRef) for s in self.out_slots
        )

    @property
    def keeps_arguments(self) -> bool:
        """Whether a call neither writes into its arguments nor returns one or a view of one."""
        return not self.writes_arguments and not any(
            isinstance(s, (AliasOut, ArgRef, Tagged)) for s in self.out_slots
        )

    def checking(self, graph: core.Graph) -> BuiltGraph:
        """This recipe for ``graph`` (the optimised graph): its outputs that may share memory
        with an argument or a constant are checked and copied at run time."""
        sharing = _may_share_inputs(graph)
        check = frozenset(i for i, atom in enumerate(graph.outputs) if atom in sharing)
        apart = _apart_outputs(graph, self.arrays)
        literals = tuple(
            value for value in _array_literals(graph) if id(value) not in self.outside_literals
        )
        return dataclasses.replace(
            self, graph=graph, check_outputs=check, apart=apart, literals=literals
        )

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
            elif isinstance(slot, Tagged):  # the same values on every path
                value = slot.value
                outputs.append(graph.outputs[value if isinstance(value, int) else value.index])
        outputs.extend(graph.outputs[index] for _, index in self.write_backs)
        for write in self.container_writes:
            outputs.extend(graph.outputs[s] for s in write.slots if isinstance(s, int))
        for attr in self.attr_writes:
            outputs.extend(graph.outputs[s] for s in attr.slots if isinstance(s, int))
        return graph.replace(eqns=tuple(eqns), outputs=tuple(outputs))

    def unflatten_functional(self, outputs: Sequence[Any]) -> Any:
        """The Python result from the outputs of ``functional_graph()`` (arguments written in
        place are not written back: the caller decides what to do with their final values)."""
        values = iter(outputs)
        leaves: list[Any] = []
        made: dict[int, Any] = {}
        for slot in self.out_slots:
            if isinstance(slot, signature.Static):
                leaves.append(slot.value)
            elif isinstance(slot, Fresh):
                leaves.append(slot.make(made, self.shared_statics))
            else:
                leaves.append(next(values))
        return self.out_tree.unflatten(leaves)

    def unflatten(
        self,
        outputs: Sequence[Any],
        inputs: Sequence[Any] = (),
        arguments: Any = None,
        values_only: bool = False,
    ) -> Any:
        """The Python result from the graph's outputs, after writing back into ``inputs`` (the
        argument arrays) and into the argument lists, dicts and objects (``arguments``: the
        call's ``(args, kwargs, bound)``, needed when ``needs_arguments``). With
        ``values_only`` nothing is written: a graph inlined in another trace or run on a tape
        for a gradient takes its arguments as values."""
        made: dict[int, Any] = {}
        if values_only:
            return self.out_tree.unflatten(
                [self._leaf(s, outputs, inputs, arguments, made) for s in self.out_slots]
            )
        if self.apart:
            outputs = _kept_apart(outputs, self.apart, self.arrays)
        # an output that is an argument's array holds its value from before the call: copied
        # before the write-backs change that array (``c = y.copy(); y[0] = 0; return c``)
        if self.check_outputs:
            outputs = self._copied_apart_from(outputs, inputs, made)
        for slot, index in self.write_backs:
            np.copyto(inputs[slot], outputs[index])
        targets = [w.target.resolve(arguments) for w in self.container_writes]
        owners = [objects.resolve(arguments, w.owner) for w in self.attr_writes]
        for write, target in zip(self.container_writes, targets):
            contents = self._value(write.tree, write.slots, outputs, inputs, arguments, made)
            if isinstance(target, dict):
                target.clear()
                target.update(contents)
            else:
                target[:] = contents
        for attr, owner in zip(self.attr_writes, owners):
            setattr(
                owner,
                attr.name,
                self._value(attr.tree, attr.slots, outputs, inputs, arguments, made),
            )
        leaves = [self._leaf(s, outputs, inputs, arguments, made) for s in self.out_slots]
        return self.out_tree.unflatten(leaves)

    def _copied_apart_from(
        self, outputs: Sequence[Any], inputs: Sequence[Any], made: dict[int, Any]
    ) -> list[Any]:
        """``outputs`` with a copy of each checked one that shares memory with an argument or a
        constant; outputs that are one array in eager code (views of it) are made from one copy
        of their base (``Fresh.make``), so they still share memory with one another."""
        copied = [
            i
            for i in self.check_outputs
            if i < len(outputs) and _shares_memory(outputs[i], inputs, self.literals)
        ]
        if not copied:
            return list(outputs)
        # ``arrays`` is empty for a recipe that does not know them (a loaded one)
        known = len(self.arrays) == len(outputs)
        counts = collections.Counter(self.arrays[i] for i in copied) if known else {}
        outputs = list(outputs)
        for i in copied:
            value = outputs[i]
            if known and counts[self.arrays[i]] > 1:
                outputs[i] = Fresh(value).make(made, frozenset({id(value)}))
                outputs[i].flags.writeable = True  # a view of our own copy, not of a constant
            else:
                outputs[i] = value.copy()
        return outputs

    def _value(
        self,
        tree: pytree.TreeDef,
        slots: Sequence[Any],
        outputs: Sequence[Any],
        inputs: Sequence[Any],
        arguments: Any,
        made: dict[int, Any],
    ) -> Any:
        if tree.kind is None:  # a single value (an attribute set to an array): no tree to build
            return self._leaf(slots[0], outputs, inputs, arguments, made)
        return tree.unflatten([self._leaf(s, outputs, inputs, arguments, made) for s in slots])

    def _leaf(
        self,
        slot: Any,
        outputs: Sequence[Any],
        inputs: Sequence[Any],
        arguments: Any,
        made: dict[int, Any],
    ) -> Any:
        if isinstance(slot, int):
            value = outputs[slot]
            if slot in self.check_outputs and _shares_memory(value, inputs, self.literals):
                return value.copy()
            return value
        if isinstance(slot, (AliasOut, Tagged)):
            # a view made once per call for each slot: a slot handed over twice (``return v,
            # v``) gives one object; ``made`` keys it by the slot's ``id``
            if id(slot) not in made:
                if isinstance(slot, AliasOut):
                    made[id(slot)] = slot.replay(inputs[slot.slot], outputs)
                else:
                    made[id(slot)] = self._tagged(slot, outputs, inputs, arguments, made)
            return made[id(slot)]
        if isinstance(slot, Fresh):
            return slot.make(made, self.shared_statics)
        if isinstance(slot, Copy):
            value = outputs[slot.index]
            return value.copy() if isinstance(value, np.ndarray) else value
        if isinstance(slot, ArgRef):
            return slot.resolve(arguments)
        return slot.value

    def _tagged(
        self,
        slot: Tagged,
        outputs: Sequence[Any],
        inputs: Sequence[Any],
        arguments: Any,
        made: dict[int, Any],
    ) -> Any:
        tag = outputs[slot.tag]
        if isinstance(tag, tensor.Symbolic):  # inlined in another trace: its value, read-only
            value = self._leaf(slot.value, outputs, inputs, arguments, made)
            if isinstance(value, tensor.SymbolicTensor):
                functional.freeze(value, "an argument or a new array, by the path taken")
            return value
        for code, alias in slot.choices:
            if code == tag:
                return alias.replay(inputs[alias.slot], outputs)
        return self._leaf(slot.value, outputs, inputs, arguments, made)


def _shares_memory(value: Any, inputs: Sequence[Any], literals: Sequence[np.ndarray] = ()) -> bool:
    """Whether ``value`` shares memory with an argument or one of ``literals``, or is a
    read-only constant."""
    if not isinstance(value, np.ndarray):
        return False
    if not value.flags.writeable:
        return True
    if any(np.may_share_memory(value, a) for a in literals):
        return True
    return any(isinstance(a, np.ndarray) and np.may_share_memory(value, a) for a in inputs)


def _array_literals(graph: core.Graph, writeable: bool = True) -> list[np.ndarray]:
    """The arrays among ``graph``'s literals, nested graphs' included; with ``writeable``, only
    those that can be written (a read-only one, a folded constant, is copied anyway)."""
    found: dict[int, np.ndarray] = {}

    def add(atoms: Sequence[core.Atom]) -> None:
        for atom in atoms:
            if isinstance(atom, core.Lit) and isinstance(atom.value, np.ndarray):
                if atom.value.flags.writeable or not writeable:
                    found.setdefault(id(atom.value), atom.value)

    def add_eqns(graph: core.Graph) -> None:  # in ``graph.walk()``'s order
        for eqn in graph.eqns:
            add(eqn.inputs)
            if eqn.params:  # (only params may hold nested graphs; most equations have none)
                subs = list(eqn.subgraphs())
                for sub in subs:
                    add(sub.outputs)
                for sub in subs:
                    add_eqns(sub)

    add(graph.outputs)
    add_eqns(graph)
    return list(found.values())


def build_graph(
    name: str,
    lowered: Callable[..., Any],
    sig: signature.Signature,
    outside: frozenset[int] = frozenset(),
    bound: tuple[Any, ...] = (),
    lifted: frozenset[tuple[Any, str]] = frozenset(),
) -> BuiltGraph:
    """Runs ``lowered`` on symbolic inputs described by ``sig`` and returns the graph it emits.

    Args:
      name: the graph's name.
      lowered: the lowered function.
      sig: the call's signature.
      outside: ``id`` of the objects that exist outside the function (its globals, closure
        values, static arguments): an array among them returned as a static result is returned
        itself, any other is copied per call.
      bound: the object of a bound method (``to_static(obj.method)``), passed first.
      lifted: attributes holding Python numbers to read as tensors (``objects.Relift``).

    Raises:
      objects.Relift: the function changes attributes holding Python numbers read as static.
    """
    builder = builder_mod.GraphBuilder(name)
    with builder.active():
        inputs = _inputs(builder, sig)
        args, kwargs = sig.rebuild(inputs)
        state = objects.ObjectState(builder, lifted, runtime.call)
        parameters = _parameters(lowered, len(bound))
        labels = _labels(parameters, len(args))
        args = tuple(state.traced(a, (0, i), labels[i]) for i, a in enumerate(args))
        kwargs = {k: state.traced(v, (1, k), k) for k, v in kwargs.items()}
        bound = tuple(state.traced(b, (2, i), "self") for i, b in enumerate(bound))
        refs = _ArgRefs((args, kwargs), state)
        _register_parameters(parameters, args, kwargs)
        with _static_warnings(), errstates.restored():
            result = lowered(*bound, *args, **kwargs)
        refs.add(state.copies)
        state.guard_grown_lists()
        grown = containers.grown_lists()
        for container, final in grown:
            refs.supersede(container, final)
        where = origin.definition(lowered)
        handed = [result, *(node for node, _ in refs.before)]
        handed += [cell.current for cell in state.changed()]
        _refuse_containers_handed_twice(handed, refs.known, where)
        result = optional.boxed(result, refs.known, where)
        inputs = [*inputs, *state.inputs]
        leaves, out_tree = pytree.flatten(result, refs.known)
        outputs: list[Any] = []
        published: list[Any] = []
        tensor_slots: dict[int, Any] = {}  # by ``id`` of a tensor handed over: its one slot

        def slot_of(leaf: Any) -> Any:
            published.append(leaf)
            found = refs.ref(leaf)
            if found is not None:
                return found
            if not isinstance(leaf, tensor.Symbolic):
                return _result_slot(leaf, inputs, outputs, outside, where)
            # one array handed over twice (``return v, v``, or returned and stored in an
            # argument) is one object, as eager's is: one slot, made once per call
            if id(leaf) not in tensor_slots:
                tensor_slots[id(leaf)] = _result_slot(leaf, inputs, outputs, outside, where)
            return tensor_slots[id(leaf)]

        def slots_of(value: Any) -> tuple[pytree.TreeDef, tuple[Any, ...]]:
            values, tree = pytree.flatten(optional.boxed(value, refs.known, where), refs.known)
            return tree, tuple(slot_of(v) for v in values)

        slots = [slot_of(leaf) for leaf in leaves]
        write_backs = _write_backs(inputs, builder.inputs, outputs)
        container_writes = [
            ContainerWrite(ref, tree, tuple(slot_of(leaf) for leaf in contents))
            for ref, tree, contents in refs.changed()
        ]
        for container, final in grown:
            tree = pytree.flatten(final)[1]
            published.append(final)
            slot = _value_slot(final, outputs, outside)
            container_writes.append(ContainerWrite(refs.ref(container), tree, (slot,)))
        attr_writes = [
            objects.Write(cell.owner._tg_path, cell.name, *slots_of(cell.current))
            for cell in state.changed()
        ]
        lift = state.to_lift()
        if lift:
            raise objects.Relift(lift)
        _refuse_path_aliases(published, inputs)
        _refuse_views_of_0d_arrays(published, inputs, where)
        graph = builder.finish(outputs)
    return BuiltGraph(
        graph,
        out_tree,
        tuple(slots),
        tuple(write_backs),
        container_writes=tuple(container_writes),
        reads=tuple(state.reads),
        attr_writes=tuple(attr_writes),
        shared_statics=_sharing_statics(published),
        arrays=tuple(_eager_array(leaf) for leaf in outputs),
        outside_literals=frozenset(
            id(value) for value in _array_literals(graph) if id(value) in outside
        ),
    )


_TOGRAPH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@contextlib.contextmanager
def _static_warnings() -> Iterator[None]:
    """Refuses a trace in which the function's Python code warned (``np.float64(1) / 0``, a NumPy
    call on static values): that code runs once, while the graph is built, so eager's warning
    would not come again on later calls, and a branch the call does not take warns too. tograph's
    own warnings (a nested function's fallback) pass on."""
    caught: list[tuple[warnings.WarningMessage, errors.SourceLocation | None]] = []

    def record(message: Any, category: Any, filename: str, lineno: int, *rest: Any) -> None:
        # where the user's code was when tograph's own code warned for it (a call it made)
        where = origin.current_location() if filename.startswith(_TOGRAPH_DIR) else None
        caught.append((warnings.WarningMessage(message, category, filename, lineno), where))

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = record
        yield
    for w, _ in caught:
        if issubclass(w.category, (errors.FallbackWarning, errors.RetracingWarning)):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    for w, where in caught:
        if not issubclass(w.category, (errors.FallbackWarning, errors.RetracingWarning)):
            raise errors.UnsupportedError(
                f"{w.category.__name__} '{w.message}' raised by Python code while the graph was "
                "built: it would not be raised again each time the graph runs",
                loc=where or origin.location(w.filename, w.lineno),
                construct="a warning raised while building",
            )


def _sharing_statics(published: list[Any]) -> frozenset[int]:
    """The ``id``s of the NumPy arrays among ``published`` that may share memory with another
    one of them (or are handed over twice)."""
    arrays = [leaf for leaf in published if isinstance(leaf, np.ndarray)]
    found: set[int] = set()
    for i, a in enumerate(arrays):
        for b in arrays[i + 1 :]:
            if a is b or np.may_share_memory(a, b):
                found.update((id(a), id(b)))
    return frozenset(found)


def _parameters(lowered: Callable[..., Any], skip: int) -> list[tuple[str, Any]]:
    """The name and kind (an ``inspect.Parameter`` kind) of each parameter of ``lowered`` after
    the first ``skip``, in ``inspect.signature``'s order, read from its code object: the lowered
    function is the conversion's own (no decorator, no ``__signature__``), and its signature
    would also build the defaults and annotations that nothing here reads."""
    code = lowered.__code__
    names, kinds = code.co_varnames, inspect.Parameter
    positional, posonly, kwonly = code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount
    found = [(name, kinds.POSITIONAL_ONLY) for name in names[:posonly]]
    found += [(name, kinds.POSITIONAL_OR_KEYWORD) for name in names[posonly:positional]]
    rest = positional + kwonly  # *args and **kwargs are named after the keyword-only ones
    if code.co_flags & inspect.CO_VARARGS:
        found.append((names[rest], kinds.VAR_POSITIONAL))
        rest += 1
    found += [(name, kinds.KEYWORD_ONLY) for name in names[positional : positional + kwonly]]
    if code.co_flags & inspect.CO_VARKEYWORDS:
        found.append((names[rest], kinds.VAR_KEYWORD))
    return found[skip:]


def _labels(parameters: list[tuple[str, Any]], count: int) -> list[str]:
    """How messages name the positional arguments: the parameters' names where known."""
    names = [name for name, _ in parameters]
    return [names[i] if i < len(names) else f"argument {i}" for i in range(count)]


def _register_parameters(
    parameters: list[tuple[str, Any]], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """Marks the argument lists that the function's own named ``parameters`` hold
    (``containers.register_parameter``): not those reached through ``*args`` or ``**kwargs``."""
    named = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    for (_, kind), value in zip(parameters, args):
        if kind not in named:
            break
        containers.register_parameter(value)
    keywords = {name for name, kind in parameters if kind is not inspect.Parameter.VAR_KEYWORD}
    for name, value in kwargs.items():
        if name in keywords:
            containers.register_parameter(value)


class _ArgRefs:
    """The lists and dicts the lowered function is given (copies of the caller's, holding
    tensors, as arguments or as attributes of objects), with their contents before it runs:
    those it changes in place are written back into the caller's containers, and one it
    returns is the caller's; and the objects (their ``TracedObject`` views), which stand for
    the caller's."""

    def __init__(self, arguments: tuple[Any, Any], state: objects.ObjectState):
        self.state = state
        self.paths: dict[int, tuple[Any, ...]] = {}
        self.before: list[tuple[Any, Any]] = []
        for path, node in pytree.nodes(arguments):
            if len(path) >= 2 and type(node) in (list, dict):
                containers.register(node)
                self.add([(node, path, objects.contents(node))])

    def add(self, found: Sequence[tuple[Any, tuple[Any, ...], Any]]) -> None:
        """Adds containers, each with its path and its contents before the function ran."""
        for node, path, before in found:
            if id(node) not in self.paths:
                self.paths[id(node)] = path
                self.before.append((node, before))

    def supersede(self, container: Any, final: Any) -> None:
        """Makes ``final``, the tensor list holding the final contents of ``container`` (an
        argument list), stand for the caller's list; ``container`` itself is stale."""
        self.paths[id(final)] = self.paths[id(container)]
        self.before = [(node, before) for node, before in self.before if node is not container]

    def known(self, value: Any) -> bool:
        return id(value) in self.paths or type(value) is objects.TracedObject

    def ref(self, value: Any) -> ArgRef | None:
        if type(value) is objects.TracedObject:
            return ArgRef(value._tg_path)
        path = self.paths.get(id(value))
        return None if path is None else ArgRef(path)

    def changed(self) -> list[tuple[ArgRef, pytree.TreeDef, list[Any]]]:
        """Each container whose contents changed: its reference, and its contents' structure
        and leaves (the argument containers among them left as leaves)."""
        found = []
        for node, before in self.before:
            if not _same_contents(node, before):
                contents = dict(node) if type(node) is dict else list(node)
                leaves, tree = pytree.flatten(optional.boxed(contents, self.known), self.known)
                found.append((ArgRef(self.paths[id(node)]), tree, leaves))
        return found


def _same_contents(node: Any, before: Any) -> bool:
    """Whether a list or dict holds the very objects it held before, in the same order."""
    if type(node) is dict:
        return list(node) == list(before) and all(node[k] is before[k] for k in node)
    return len(node) == len(before) and all(a is b for a, b in zip(node, before))


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


def _result_slot(
    leaf: Any,
    inputs: list[Any],
    outputs: list[Any],
    outside: frozenset[int],
    where: errors.SourceLocation,
) -> Any:
    """Where one leaf of the result comes from (see ``BuiltGraph.out_slots``); ``where`` is the
    function's ``def`` line, named by the error of a leaf no path assigns."""
    if isinstance(leaf, carried.Undefined):
        raise errors.UnboundVariableError(
            f"cannot access local variable '{leaf.name}' where it is not associated with a "
            "value (it is returned, but not assigned on every path)",
            loc=where,
        )
    if isinstance(leaf, tensor.SymbolicTensor):
        tag, steps = _identity_of(leaf)
        if tag is not None:
            return _tagged_slot(leaf, tag, steps, inputs, outputs, outside)
        alias = _alias_of_input(leaf, inputs, outputs)
        if alias is not None:
            return alias
    return _value_slot(leaf, outputs, outside)


def _value_slot(leaf: Any, outputs: list[Any], outside: frozenset[int]) -> Any:
    """The slot of a leaf that is no argument: a graph output, a copy of one, or a static."""
    if isinstance(leaf, tensor.Symbolic):
        for index, earlier in enumerate(outputs):
            if earlier is not leaf and earlier.graph_var is leaf.graph_var:
                return Copy(index)  # another array holding the same value (``y.copy()``)
        outputs.append(leaf)
        return len(outputs) - 1
    if isinstance(leaf, np.ndarray) and id(leaf) not in outside:
        return Fresh(leaf)
    if isinstance(leaf, text.TensorText):
        raise leaf.refuse("returned")
    if isinstance(leaf, random_draws.LocalGenerator):
        raise errors.UnsupportedError(
            f"{leaf!r} outlives the call (returned or stored): the graph makes that generator "
            "anew on each run and has no object to give back",
            loc=leaf.loc,
            construct="generator made in the function",
        )
    if tensor.is_user_object(leaf) and tensor.contains_symbolic(tensor.attribute_values(leaf)):
        raise errors.UnsupportedError(
            f"the result holds a {type(leaf).__name__} made in the function whose attributes are "
            "tensors: a graph returns arrays, lists and dicts, not new objects",
            loc=origin.current_location(),
            construct="object made in the function",
        )
    return signature.Static(leaf)


def _identity_of(leaf: Any) -> tuple[Any, tuple[Any, ...]]:
    """The identity tag of ``leaf`` (``staging.identity``) and the view steps taken of the tagged
    array to make it; (None, ()) for an array that is itself."""
    if leaf.identity is not None:
        return leaf.identity, ()
    if leaf._storage is not None and leaf._storage.identity is not None:
        return leaf._storage.identity, leaf._path
    return None, ()


def _tagged_slot(
    leaf: Any,
    tag: Any,
    steps: tuple[Any, ...],
    inputs: list[Any],
    outputs: list[Any],
    outside: frozenset[int],
) -> Any:
    """The slot of a result whose array is, by its identity ``tag``, an argument (or a view of
    one, then ``steps``) on some paths: an ``AliasOut`` where the tag is known now, else a
    ``Tagged`` choosing when the graph runs."""
    found = identity.registry(leaf.builder)
    static = identity.is_static(tag)
    if (static and tag == identity.UNKNOWN) or (not static and found.unknown is not None):
        identity.refuse_unknown(leaf.builder)
    codes = [int(tag)] if static else range(len(found.entries))
    choices = []
    for code in codes:
        if code < 0:
            continue
        entry = found.entries[code]
        alias = _alias_of_input(entry.array, inputs, outputs)
        if alias is not None:
            choices.append((code, _extended(alias, (*entry.steps, *steps), outputs)))
    if static:
        return choices[0][1] if choices else _value_slot(leaf, outputs, outside)
    if not choices:
        return _value_slot(leaf, outputs, outside)
    value = _value_slot(leaf, outputs, outside)
    outputs.append(tag)
    return Tagged(len(outputs) - 1, value, tuple(choices))


def _extended(alias: AliasOut, steps: tuple[Any, ...], outputs: list[Any]) -> AliasOut:
    """``alias`` then the view ``steps`` (``functional.ViewStep``), their operands outputs."""
    if not steps:
        return alias
    more, operands = list(alias.steps), list(alias.operands)
    for step in steps:
        more.append((step.prim, len(step.operands), step.params))
        for operand in step.operands:
            outputs.append(operand)
            operands.append(len(outputs) - 1)
    return AliasOut(alias.slot, tuple(more), tuple(operands))


def _refuse_path_aliases(published: list[Any], inputs: list[Any]) -> None:
    """Refuses to hand the caller an array that shares memory with another array handed over
    (or, for a reshape, with an argument) on some paths or memory layouts only
    (``Storage.path_aliases``): the graph's value is a copy, so eager's sharing would be lost."""
    arrays = [leaf for leaf in published if isinstance(leaf, tensor.SymbolicTensor)]
    for leaf in arrays:
        for outer in leaf._storage.path_aliases if leaf._storage is not None else ():
            beside = any(
                other is not leaf
                and (
                    other is outer
                    or other._storage is not None
                    and other._storage is outer._storage
                )
                for other in arrays
            )
            argument = leaf._storage.alias_argument and _alias_of_input(outer, inputs, [])
            if beside or argument:
                raise errors.UnsupportedError(
                    "a result may or may not share memory with an argument or another result: "
                    f"{leaf._storage.frozen}",
                    loc=leaf._storage.alias_loc,
                    construct="path-dependent alias returned",
                )


def _refuse_containers_handed_twice(
    values: list[Any], known: Callable[[Any], bool], where: errors.SourceLocation
) -> None:
    """Refuses a list or dict made in the function that is handed over twice (``return l, l``,
    or returned and stored in an argument): the graph hands over contents, from which a call
    would make two containers where eager code has one object. ``values``: the result, the
    argument containers and the attribute values set; ``known``: the argument containers,
    handed back as themselves."""
    seen: set[int] = set()  # the containers met (a tuple may be met again: it holds no cycle)
    pending = list(values)
    while pending:
        value = pending.pop()
        if not isinstance(value, (list, dict, tuple)):
            continue
        if not isinstance(value, tuple):
            if id(value) in seen and known(value):
                continue
            if id(value) in seen:
                raise errors.UnsupportedError(
                    f"a {type(value).__name__} made in the function is handed over twice "
                    "(returned twice, or returned and stored in an argument): the graph "
                    "would give two copies of it where eager code gives one object",
                    loc=where,
                    construct="container handed over twice",
                )
            seen.add(id(value))
        pending.extend(value.values() if isinstance(value, dict) else value)


def _refuse_views_of_0d_arrays(
    published: list[Any], inputs: list[Any], where: errors.SourceLocation
) -> None:
    """Refuses to hand the caller a view of a 0-d array made in the function (``y[None]``) beside
    that array or another view of it: the graph holds a 0-d value as a NumPy scalar, of which
    a view is a copy, so eager's sharing would be lost."""
    arrays = [leaf for leaf in published if isinstance(leaf, tensor.SymbolicTensor)]
    for leaf in arrays:
        storage = leaf._storage
        if storage is None or not leaf._path or storage.current.ndim != 0:
            continue
        beside = any(
            other._storage is storage and other.graph_var is not leaf.graph_var for other in arrays
        )
        if beside and _alias_of_input(leaf, inputs, []) is None:
            raise errors.UnsupportedError(
                "a view of a 0-d array made in the function is returned (or stored) beside that "
                "array or another view of it: the graph holds a 0-d value as a NumPy scalar, so "
                "the two would not share memory as they do in eager code",
                loc=where,
                construct="view of a 0-d array returned",
            )


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


def _eager_array(leaf: Any) -> int:
    """Which array a graph output is in eager code: its storage's (a view shares its base's), or
    its own. Two outputs of different arrays never share memory in eager code."""
    storage = getattr(leaf, "_storage", None)
    return id(storage) if storage is not None else id(leaf)


def _apart_outputs(graph: core.Graph, arrays: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The groups of ``graph``'s outputs, of different eager ``arrays``, whose values may share
    memory when it runs: each is, or views, a value the others view (``_view_roots``)."""
    if len(arrays) != len(graph.outputs) or len(arrays) < 2:
        return ()  # (one output makes no group)
    roots = _view_roots(graph)
    sharing: dict[core.Var, list[int]] = {}  # each root: the outputs that may be its memory
    for index, atom in enumerate(graph.outputs):
        if isinstance(atom, core.Var):
            for root in roots.get(atom, frozenset()):
                sharing.setdefault(root, []).append(index)
    groups = {
        tuple(indices) for indices in sharing.values() if len({arrays[i] for i in indices}) > 1
    }
    return tuple(sorted(groups))


def _view_roots(graph: core.Graph) -> dict[core.Var, frozenset[core.Var]]:
    """For each value of ``graph``, the values whose memory it may be (itself, or what a
    view-returning kernel or control flow took it from)."""
    roots: dict[core.Var, frozenset[core.Var]] = {v: frozenset({v}) for v in graph.inputs}
    for eqn in graph.eqns:
        operands = [roots.get(a, frozenset()) for a in eqn.inputs if isinstance(a, core.Var)]
        if eqn.prim.views and eqn.inputs and isinstance(eqn.inputs[0], core.Var):
            found = roots.get(eqn.inputs[0], frozenset())
        elif list(eqn.subgraphs()):
            found = frozenset().union(*operands)
        else:
            found = frozenset()
        for out in eqn.outputs:
            roots[out] = found | {out}
    return roots


def _kept_apart(
    outputs: Sequence[Any], groups: Sequence[tuple[int, ...]], arrays: Sequence[int]
) -> list[Any]:
    """``outputs`` with a copy of one of each pair of a group, of two eager arrays, that shares
    memory at run time: of the output whose eager array fewer outputs are (a copy in eager
    code, not a view others share). Only the group's arrays are paired (scalars share none)."""
    outputs = list(outputs)
    for group in groups:
        found = [k for k in group if isinstance(outputs[k], np.ndarray)]
        for n, j in enumerate(found):
            for i in found[:n]:
                a, b = outputs[i], outputs[j]
                if arrays[i] != arrays[j] and np.may_share_memory(a, b):
                    k = i if arrays.count(arrays[i]) < arrays.count(arrays[j]) else j
                    outputs[k] = outputs[k].copy()
    return outputs


def _may_share_inputs(graph: core.Graph) -> set[core.Atom]:
    """The values of ``graph`` that may share memory with its inputs (or its constants) at run
    time: the inputs, literals, and what view-returning kernels and control flow make of them."""
    sharing: set[Any] = set(graph.inputs)
    for eqn in graph.eqns:
        operands = [a for a in eqn.inputs if a in sharing or isinstance(a, core.Lit)]
        if eqn.prim.views and eqn.inputs and eqn.inputs[0] in operands:
            sharing.update(eqn.outputs)
        elif list(eqn.subgraphs()) and (
            operands or any(_array_literals(sub, writeable=False) for sub in eqn.subgraphs())
        ):
            sharing.update(eqn.outputs)
    sharing.update(a for a in graph.outputs if isinstance(a, core.Lit))
    return sharing
