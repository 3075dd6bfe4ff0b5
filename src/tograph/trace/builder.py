"""Graph building: a stack of ``GraphBuilder``s that symbolic tensors emit equations into.

A builder collects the equations of one graph. Control-flow ops open a child builder per branch or
loop body; a symbolic tensor of an enclosing builder used inside a child is *captured*: it becomes
an extra input of the child graph, and the control-flow op passes the outer value in. A builder
also notes the arrays written in place while it is current (``writes``), which a branch or loop
body passes out of its graph (``trace.functional``), and the equations a later trace repeats
(``retract``: a while loop's condition, evaluated once before it turned out to be a tensor),
which its graph leaves out unless later code reads their values.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core, types
from tograph.trace import context, functional, tensor


def current() -> GraphBuilder | None:
    """The builder that new equations go to, or None outside graph building."""
    found: GraphBuilder | None = context.current()
    return found


class GraphBuilder:
    """Collects the equations of one graph; see module docstring."""

    def __init__(self, name: str, parent: GraphBuilder | None = None):
        self.name = name
        self.parent = parent
        self.inputs: list[core.Var] = []
        self.eqns: list[core.Eqn] = []
        # (outer value as it was captured, a plain Symbolic; the inner input Var)
        self.captures: list[tuple[Any, core.Var]] = []
        self._captured: dict[int, core.Var] = {}
        # storages written while this builder was current: id -> (storage, value before)
        self.writes: dict[int, tuple[functional.Storage, Any]] = {}
        # on the root builder: the caller's lists and dicts, by id (``trace.containers``)
        self.containers: dict[int, Any] = {}
        # on the root builder: lists and dicts no change may reach, with the reason, by id
        self.frozen_containers: dict[int, tuple[Any, str]] = {}
        # on the root builder: those of ``containers`` bound to two names, by id
        self.shared_containers: dict[int, Any] = {}
        # in a branch or loop body: the copies of the caller's dicts it carries as its state,
        # and those of them it changed
        self.carried_containers: dict[int, Any] = {}
        self.changed_containers: dict[int, Any] = {}
        # on the root builder: the copies of the caller's lists that the function's own
        # parameters hold, by id, and the ids of those changed as tensor lists
        self.parameter_lists: dict[int, Any] = {}
        self.grown_lists: set[int] = set()
        # for the caller's lists carried as tensor lists, by id, the list and the tensor list
        # made in this builder that holds its latest contents
        self.list_versions: dict[int, tuple[Any, Any]] = {}
        # on the root builder: for a copy of one of ``containers``, by id, the copy and the
        # container it was copied from (``containers.derives_from``)
        self.copied_from: dict[int, tuple[Any, Any]] = {}
        # on the root builder: the inputs of branches and loop bodies standing for a variable
        # not set yet (a return value before the return), by id
        self.unset_inputs: dict[int, Any] = {}
        # on the root builder: outputs of control flow that are one array on every path that
        # sets them, by id, each with the one standing for its group (``staging.control_flow``)
        self.one_array: dict[int, tuple[Any, Any]] = {}
        # on a branch's or loop body's builder: the lists, dicts and sets from before it that
        # its function reaches through its closure, by id (``trace.containers``)
        self.outer_containers: dict[int, Any] = {}
        # the user objects made (by calling their class) while this builder was current, by id
        # (``staging.made_objects``)
        self.made_objects: dict[int, Any] = {}
        # on the root builder: the attributes of objects made in the function that tensor
        # control flow carries, by (id of the object, name) (``staging.made_objects``)
        self.attribute_cells: dict[tuple[int, str], Any] = {}
        # on the root builder: the cells of the attributes of the call's objects that hold a
        # copy of the caller's list, by id of the copy (``staging.attribute_lists``)
        self.attribute_lists: dict[int, Any] = {}
        # on the root builder: the entries of dicts from before tensor control flow that it
        # carries, by (id of the dict, key) (``staging.dict_items``)
        self.item_cells: dict[tuple[int, Any], Any] = {}
        # on the root builder: how many branches and loop bodies were traced for this graph
        self.traced_bodies = 0
        # on a loop body's or test's builder: the loop's key (``staging.loop_hints``); on it, or
        # on the root builder, how often each loop site was met in this trace so far
        self.loop_key: Any = None
        self.loops_met: dict[Any, int] = {}
        # on the root builder: what each loop learned while traced, by key (``staging.loop_hints``)
        self.loop_hints: dict[Any, Any] = {}
        # equations a later trace repeats, by id (``retract``)
        self.retracted: dict[int, core.Eqn] = {}

    @contextlib.contextmanager
    def active(self) -> Iterator[GraphBuilder]:
        """Makes this builder the current one for the duration of the block."""
        context.push(self)
        try:
            yield self
        finally:
            context.pop()

    def child(self, name: str) -> GraphBuilder:
        return GraphBuilder(name, parent=self)

    def root(self) -> GraphBuilder:
        """The builder of the function's own graph, which this one (a branch's or a loop
        body's, however nested) is part of."""
        builder = self
        while builder.parent is not None:
            builder = builder.parent
        return builder

    def add_input(self, type_: types.ValueType, hint: str | None = None) -> Any:
        """A new graph input; returns the symbolic tensor standing for it."""
        var = core.Var(type_, hint)
        self.inputs.append(var)
        return tensor.wrap(var, self)

    def note_write(self, storage: functional.Storage, previous: Any) -> None:
        """Notes that ``storage`` was written while this builder was current."""
        self.writes.setdefault(id(storage), (storage, previous))

    def atom(self, value: Any) -> core.Atom:
        """The IR operand for ``value``: a var of this graph (capturing if needed) or a literal."""
        if isinstance(value, tensor.SymbolicTensor):
            var, owner = functional.resolve(value)
            return var if owner is self else self._capture(tensor.wrap(var, owner))
        if isinstance(value, tensor.Symbolic):
            if value.builder is self:
                return value.graph_var
            return self._capture(value)
        if isinstance(value, tensor.TensorBase):
            return core.Lit.of(value.numpy())
        return core.Lit.of(value)

    def _capture(self, outer: Any) -> core.Var:
        """The input standing for ``outer`` (a plain Symbolic of an enclosing builder)."""
        key = outer.graph_var.id
        if key in self._captured:
            return self._captured[key]
        if self.parent is None:
            raise errors.TracerError(
                f"a tensor ({outer.graph_var.type}) from a graph that is no longer being built "
                "was used: "
                "a value computed inside a loop or branch over tensors was stored outside it",
                hint="values made in tensor control flow leave it only as variables of the "
                "function; "
                "storing them on an attribute (self.x = ...) or in a global does not carry them",
            )
        if outer.builder is not self.parent:
            self.parent._capture(outer)
        inner = core.Var(outer.graph_var.type, outer.graph_var.hint)
        self._captured[key] = inner
        self.captures.append((outer, inner))
        return inner

    def emit(
        self,
        prim: Any,
        args: Sequence[Any],
        params: dict[str, Any],
        loc: errors.SourceLocation | None = None,
        hints: Sequence[str | None] = (),
    ) -> Any:
        """Appends ``prim(*args, **params)``; returns its output symbolic tensor(s).

        ``hints`` name the outputs after the user's variables (the printer's names).
        """
        # A tensor of this graph that holds its own var (no in-place write or view since) is
        # its var: ``atom`` without the calls, for the operands of nearly every equation.
        inputs = tuple(
            [
                a._var
                if type(a) is _SYMBOLIC_TENSOR and a._storage is None and a._builder is self
                else self.atom(a)
                for a in args
            ]
        )
        in_types = [a.type for a in inputs]
        try:
            out_types = prim.out_types(in_types, params)
        except errors.ToGraphError as exc:  # a type rule's complaint, at the user's line
            raise exc.located(loc or origin.current_location()) from None
        if hints:
            names = list(hints) + [None] * (len(out_types) - len(hints))
            outputs = tuple([core.Var(t, h) for t, h in zip(out_types, names)])
        else:
            outputs = tuple([core.Var(t) for t in out_types])
        self.eqns.append(core.Eqn(prim, inputs, params, outputs, loc or origin.current_location()))
        results = tuple([tensor.wrap(v, self) for v in outputs])
        if prim.layout is not None:
            layout = "C" if prim.layout == "C" or _all_c_contiguous(args) else None
            for result in results:
                if isinstance(result, _SYMBOLIC_TENSOR):
                    tensor.set_layout(result, layout)
        result = results if prim.multiple_results else results[0]
        for a in args:  # only a SymbolicTensor has a kind tag (getattr of a number raises)
            if isinstance(a, _SYMBOLIC_TENSOR) and a.kind_tag is not None:
                _KIND_RULE[0](prim, args, in_types, params, result)
                break
        return result

    def retract(self, eqns: Sequence[core.Eqn]) -> None:
        """Marks ``eqns`` (of this builder) as repeated by a later trace: the graph leaves them
        out, effects and all, unless a later equation reads their values (a view of an array
        written before, which they brought up to date, say)."""
        self.retracted.update((id(e), e) for e in eqns)

    def finish(self, outputs: Sequence[Any]) -> core.Graph:
        """The built graph: explicit inputs, then captured inputs, then ``outputs``."""
        outs = tuple(self.atom(o) for o in outputs)
        inputs = tuple(self.inputs) + tuple(inner for _, inner in self.captures)
        return core.Graph(self.name, inputs, self.kept_eqns(outs), outs)

    def kept_eqns(self, outputs: tuple[core.Atom, ...]) -> tuple[core.Eqn, ...]:
        """The equations, without the retracted ones whose values nothing reads."""
        if not self.retracted:
            return tuple(self.eqns)
        read = {a for a in outputs if isinstance(a, core.Var)}
        kept = []
        for eqn in reversed(self.eqns):
            if id(eqn) in self.retracted and not any(v in read for v in eqn.outputs):
                continue
            kept.append(eqn)
            read.update(a for a in eqn.inputs if isinstance(a, core.Var))
        return tuple(reversed(kept))


_SYMBOLIC_TENSOR = tensor.SymbolicTensor


def _no_kind_rule(prim: Any, *rest: Any) -> None:
    raise errors.InternalError(f"{prim.name} of a kind-tagged value, but no kind rule is set")


# The rule for an operation on a scalar whose kind depends on the path (``staging.kinds``, above
# this layer, installs it): tags the result with its kind on each path, or refuses.
_KIND_RULE: list[Callable[..., None]] = [_no_kind_rule]


def set_kind_rule(rule: Callable[..., None]) -> None:
    """Installs ``staging.kinds``' rule for operations on kind-tagged values."""
    _KIND_RULE[0] = rule


def _all_c_contiguous(args: Sequence[Any]) -> bool:
    """Whether every array among ``args`` is known to be C-contiguous (scalars are)."""
    for a in args:
        if isinstance(a, tensor.SymbolicTensor):
            if a.layout != "C" and a.type.ndim > 1:
                return False
        elif isinstance(a, np.ndarray) and not a.flags.c_contiguous:
            return False
    return True
