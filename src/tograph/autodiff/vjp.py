"""Reverse-mode differentiation of a graph: Graph -> gradient Graph.

Stage: autodiff. Input: a graph, the inputs to differentiate with respect to and the scalar
output to differentiate. Output: one ordinary graph (printable, optimizable, executable) that
computes that output and then the gradients. Requires: a VJP rule on every primitive met on the
way (``rules``, ``array_rules``; ``control_flow`` for ``cond`` and ``while_loop``).

A ``Sweep`` runs over the equations twice. The *forward* phase copies them into the forward
builder; the *backward* phase walks them in reverse and calls each primitive's rule on the
cotangents of its outputs, emitting into the backward builder. Only *active* values (see
``activity``) get cotangents. Where the two phases live is a *frame*:

- ``Joint``: one builder for both (the top-level gradient graph); the backward half reads
  forward values directly.
- ``Split``: a forward graph F and a backward graph B (the halves of a loop body or cond branch).
  B is built as a child of F, so each forward value B uses is *captured*: captures are the
  *residuals* that the enclosing ``cond``/``while_loop`` rule hands from F to B (pushed on stacks
  for loops; see ``halves``).

Nested loops keep their stacks (tensor lists) as extra carries threaded through every enclosing
loop and branch (``new_stack``), so one stack holds the values of all iterations of all enclosing
loops, popped in reverse order. Rules see a list operand as its length at that point of the
forward pass (lists are appended in place, so the list itself is not what it was by then).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff import activity
from tograph.ir import core, types
from tograph.ops import complex_parts, creation, elementwise, lists, stacks
from tograph.ops import shape as shape_ops
from tograph.trace import builder as builder_mod
from tograph.trace import tensor


class ControlRule:
    """The VJP of a primitive with nested graphs: it takes part in both phases of a sweep."""

    def forward(self, sweep: Sweep, eqn: core.Eqn) -> Sequence[Any]:
        """Emits the forward computation of ``eqn``; returns its output values."""
        raise NotImplementedError

    def backward(self, sweep: Sweep, eqn: core.Eqn) -> Sequence[Any]:
        """Emits the backward computation; returns the cotangents of ``eqn.inputs`` (or None)."""
        raise NotImplementedError


# ---- frames ----------------------------------------------------------------------------------


class Joint:
    """Forward and backward halves in one builder; stacks are made by ``list_new``."""

    def __init__(self, builder: builder_mod.GraphBuilder):
        self.fwd = self.bwd = builder
        self._stacks: list[Any] = []

    def new_stack(self, elem: types.TensorType) -> int:
        with self.fwd.active():
            self._stacks.append(lists.new(elem))
        return len(self._stacks) - 1

    def fwd_stack(self, k: int) -> Any:
        return self._stacks[k]

    def set_fwd_stack(self, k: int, value: Any) -> None:
        self._stacks[k] = value

    bwd_stack, set_bwd_stack = fwd_stack, set_fwd_stack


@dataclasses.dataclass
class Slot:
    """A stack threaded through a split graph: its inputs and current values in F and in B."""

    elem: types.TensorType
    fwd_in: core.Var
    fwd_cur: Any
    bwd_in: core.Var
    bwd_cur: Any


class Split:
    """A forward builder F and a backward builder B (F's child); stacks are extra inputs."""

    def __init__(self, name: str):
        self.fwd = builder_mod.GraphBuilder(f"{name}_fwd")
        self.bwd = self.fwd.child(f"{name}_bwd")
        self.slots: list[Slot] = []

    def new_stack(self, elem: types.TensorType) -> int:
        f = self.fwd.add_input(types.ListType(elem), "stack")
        b = self.bwd.add_input(types.ListType(elem), "stack")
        self.slots.append(Slot(elem, f.graph_var, f, b.graph_var, b))
        return len(self.slots) - 1

    def fwd_stack(self, k: int) -> Any:
        return self.slots[k].fwd_cur

    def set_fwd_stack(self, k: int, value: Any) -> None:
        self.slots[k].fwd_cur = value

    def bwd_stack(self, k: int) -> Any:
        return self.slots[k].bwd_cur

    def set_bwd_stack(self, k: int, value: Any) -> None:
        self.slots[k].bwd_cur = value


Frame = Joint | Split


# ---- the sweep -------------------------------------------------------------------------------


class Sweep:
    """The forward and backward phases over one graph in one frame; see module docstring.

    Args:
      frame: where the two phases emit.
      active: ids of the graph's vars that get cotangents (``activity.active_vars``).
      replay: recorded values by var id (an eager tape): the forward phase makes them inputs
        instead of computing them again.
    """

    def __init__(self, frame: Frame, active: set[int], replay: Mapping[int, Any] | None = None):
        self.frame = frame
        self.active = active
        self.replay = replay
        self.replayed: list[Any] = []
        self.primal: dict[int, Any] = {}
        self.lengths: dict[int, Any] = {}
        self.cts: dict[int, Any] = {}
        self.aux: dict[
            int, Any
        ] = {}  # per equation: what a ControlRule's forward leaves for backward

    # ---- forward ------------------------------------------------------------------------
    def forward(self, graph: core.Graph, inputs: Sequence[Any]) -> None:
        with self.frame.fwd.active():
            for var, value in zip(graph.inputs, inputs):
                self._bind(var, value)
            for eqn in graph.eqns:
                for var, value in zip(eqn.outputs, self._forward_eqn(eqn)):
                    self._bind(var, value)

    def _forward_eqn(self, eqn: core.Eqn) -> Sequence[Any]:
        if isinstance(eqn.prim.vjp, ControlRule):
            return eqn.prim.vjp.forward(self, eqn)
        if self.replay is not None:
            self.replayed.extend(self.replay[v.id] for v in eqn.outputs)
            return [self.frame.fwd.add_input(v.type, v.hint) for v in eqn.outputs]
        return emit(self.frame.fwd, eqn, [self.read(a) for a in eqn.inputs])

    def _bind(self, var: core.Var, value: Any) -> None:
        self.primal[var.id] = value
        if isinstance(var.type, types.ListType) and activity.differentiable(var.type):
            self.lengths[var.id] = lists.length(value)

    def read(self, atom: core.Atom) -> Any:
        """The forward value of ``atom``."""
        return atom.value if isinstance(atom, core.Lit) else self.primal[atom.id]

    def rule_arg(self, atom: core.Atom) -> Any:
        """What a rule sees for ``atom``: its forward value, or its length if it is a list."""
        if isinstance(atom.type, types.ListType):
            return self.lengths.get(atom.id) if isinstance(atom, core.Var) else None
        return self.read(atom)

    def is_active(self, atom: core.Atom) -> bool:
        return isinstance(atom, core.Var) and atom.id in self.active

    # ---- backward -----------------------------------------------------------------------
    def backward(self, graph: core.Graph, out_cts: Sequence[Any]) -> None:
        with self.frame.bwd.active():
            for atom, ct in zip(graph.outputs, out_cts):
                self.accumulate(atom, ct)
            for eqn in reversed(graph.eqns):
                if not any(v.id in self.cts for v in eqn.outputs):
                    continue
                if not any(self.is_active(a) for a in eqn.inputs):
                    continue
                for atom, ct in zip(eqn.inputs, self._backward_eqn(eqn)):
                    self.accumulate(atom, ct)

    def _backward_eqn(self, eqn: core.Eqn) -> Sequence[Any]:
        rule = eqn.prim.vjp
        if rule is None:
            # a host call names the NumPy function it runs (numpy_call[fn=np.median]), a random
            # draw its call (random[draw=rng.normal($0)]): its parameters get no gradient
            label = eqn.prim.name
            if "fn" in eqn.params:
                label = f"{eqn.params['fn']!r} (run as {eqn.prim.name}, with no VJP)"
            elif "draw" in eqn.params:
                label = f"the random draw {eqn.params['draw']!r} with respect to its parameters"
            raise errors.UnsupportedError(
                f"tograph cannot differentiate {label}: it has no gradient rule",
                loc=eqn.loc,
                construct=f"gradient of {eqn.prim.name}",
            )
        if isinstance(rule, ControlRule):
            return rule.backward(self, eqn)
        cts = [self.cts.get(v.id) for v in eqn.outputs]
        outs = [self.rule_arg(v) for v in eqn.outputs]
        args = [self.rule_arg(a) for a in eqn.inputs]
        result: Sequence[Any]
        if eqn.prim.multiple_results:
            result = rule(tuple(cts), *args, out=tuple(outs), **eqn.params)
        else:
            result = rule(cts[0], *args, out=outs[0], **eqn.params)
        if len(result) != len(eqn.inputs):
            raise errors.InternalError(
                f"the gradient rule of {eqn.prim.name} returned {len(result)} cotangents for "
                f"{len(eqn.inputs)} inputs"
            )
        return result

    def accumulate(self, atom: core.Atom, ct: Any) -> None:
        """Adds ``ct`` to the cotangent of ``atom`` (ignored unless ``atom`` is active)."""
        if ct is None or not isinstance(atom, core.Var) or atom.id not in self.active:
            return
        ct = fit(ct, atom.type)
        old = self.cts.get(atom.id)
        self.cts[atom.id] = ct if old is None else add(old, ct, atom.type)

    def ct_or_zeros(self, var: core.Var) -> Any:
        """The cotangent of ``var``, or zeros of its type (emitted in the current builder)."""
        found = self.cts.get(var.id)
        return found if found is not None else zeros(var.type, self.rule_arg(var))


# ---- values ----------------------------------------------------------------------------------


def emit(builder: builder_mod.GraphBuilder, eqn: core.Eqn, args: Sequence[Any]) -> tuple[Any, ...]:
    """``eqn`` applied to ``args`` in ``builder``; its outputs as a tuple."""
    out = builder.emit(eqn.prim, args, eqn.params, eqn.loc)
    return tuple(out) if eqn.prim.multiple_results else (out,)


def inline(graph: core.Graph, args: Sequence[Any]) -> list[Any]:
    """Emits ``graph``'s equations on ``args`` into the current builder; returns its outputs."""
    current = builder_mod.current()
    if current is None:
        raise errors.InternalError("inline needs a graph being built")
    env: dict[int, Any] = {v.id: a for v, a in zip(graph.inputs, args)}

    def read(atom: core.Atom) -> Any:
        return atom.value if isinstance(atom, core.Lit) else env[atom.id]

    for eqn in graph.eqns:
        env.update(
            (v.id, out)
            for v, out in zip(eqn.outputs, emit(current, eqn, [read(a) for a in eqn.inputs]))
        )
    return [read(a) for a in graph.outputs]


def add(a: Any, b: Any, t: types.ValueType) -> Any:
    """The sum of two cotangents of a value of type ``t``."""
    if isinstance(t, types.ListType):
        return stacks.list_add_p.bind(a, b)
    return fit(a + b, t)


def zeros(t: types.ValueType, like: Any) -> Any:
    """Zeros of type ``t``; ``like`` gives the run-time dims (the length, for a list)."""
    if isinstance(t, types.ListType):
        return stacks.list_holes_p.bind(like, elem=t.elem)
    if t.weak:
        return t.dtype.type(0).item()
    dims = [like.shape[i] for i, d in enumerate(t.shape) if d is None]
    return creation.full_p.bind(0, *dims, shape=t.shape, dtype=t.dtype)


def placeholder(t: types.ValueType) -> Any:
    """A value that fits type ``t``, to stand for a residual the other cond branch computes."""
    if isinstance(t, types.ListType):
        raise errors.InternalError(f"no placeholder for a residual of type {t}")
    if t.weak:
        return t.dtype.type(0).item()
    return np.zeros(tuple(0 if d is None else d for d in t.shape), t.dtype)


def fit(ct: Any, t: types.ValueType) -> Any:
    """``ct`` converted to the dtype, weakness and (if it is less specific) the shape of ``t``."""
    if isinstance(t, types.ListType):
        return ct
    if t.dtype.kind != "c" and complex_parts.is_complex(ct):
        # A real value's cotangent is the real part (see complex_rules: x = Re x as a complex).
        ct = complex_parts.real(ct) if isinstance(ct, tensor.TensorBase) else np.real(ct)
    if not isinstance(ct, tensor.TensorBase):
        value = np.asarray(ct, dtype=t.dtype)
        if t.weak:
            return value.item()
        return (
            np.broadcast_to(value, [d for d in t.shape if d is not None])
            if t.is_static_shape
            else value
        )
    have = ct.type
    if (have.dtype, have.weak) != (t.dtype, t.weak):
        ct = elementwise.astype_p.bind(ct, dtype=t.dtype, weak=t.weak)
    if types.fits(ct.type, t):
        return ct
    if ct.type.ndim != t.ndim:
        raise errors.InternalError(f"a cotangent of type {ct.type} for a value of type {t}")
    shape = [ct.shape[i] if d is None else d for i, d in enumerate(t.shape)]
    return shape_ops.reshape(ct, shape)


def seed(t: types.TensorType) -> Any:
    """The cotangent of the differentiated output: one, of its type."""
    return t.dtype.type(1).item() if t.weak else t.dtype.type(1)


# ---- the gradient graph ----------------------------------------------------------------------


@dataclasses.dataclass
class Gradient:
    """A gradient graph: the differentiated output (unless it is None), then one gradient per input.

    ``replayed`` holds, for a graph of tape records, the recorded values that the graph takes as
    its extra inputs (after the original inputs).
    """

    graph: core.Graph
    replayed: list[Any]


def gradient(
    graph: core.Graph,
    wrt: Sequence[int],
    output: int | None,
    name: str,
    replay: Mapping[int, Any] | None = None,
) -> Gradient:
    """The gradient graph of ``graph.outputs[output]`` with respect to the inputs ``wrt``.

    Args:
      graph: the graph to differentiate.
      wrt: indices of the inputs to differentiate with respect to.
      output: index of the scalar output to differentiate; None for a constant one (the
        gradients are zeros).
      name: the gradient graph's name.
      replay: recorded values by var id (a tape's graph); see ``Sweep``.

    Raises:
      UnsupportedError: a primitive on the way has no gradient rule.
    """
    builder = builder_mod.GraphBuilder(name)
    inputs = [builder.add_input(v.type, v.hint) for v in graph.inputs]
    useful = [j == output for j in range(len(graph.outputs))]
    active = activity.active_vars(graph, [i in wrt for i in range(len(graph.inputs))], useful)
    sweep = Sweep(Joint(builder), active, replay)
    sweep.forward(graph, inputs)
    seeds = [
        seed(types.tensor_type(a.type)) if on else None for a, on in zip(graph.outputs, useful)
    ]
    sweep.backward(graph, seeds)
    with builder.active():
        grads = [fit(sweep.ct_or_zeros(graph.inputs[i]), graph.inputs[i].type) for i in wrt]
        value = [] if output is None else [sweep.read(graph.outputs[output])]
        return Gradient(builder.finish(value + grads), sweep.replayed)
