"""The VJPs of ``cond`` and ``while_loop``, whose nested graphs are split into two halves.

Stage: autodiff (``ControlRule``s registered on ``cond_p`` and ``while_loop_p``). Input: the
equation a ``vjp.Sweep`` differentiates. Output: in the forward phase, an equation of the same
kind that also saves what the backward half needs; in the backward phase, one more:

- ``cond``: the forward cond also returns each branch's residuals (zeros stand in for the other
  branch's); the backward pass is a ``cond`` on the same predicate over the branches' backward
  halves (``halves.split_graph``), giving the cotangents of the operands.
- ``while_loop``: the forward loop counts its iterations and pushes, on one stack per residual,
  the values its backward half needs (loop constants are read directly, not pushed); the
  backward pass is a ``while_loop`` running as many times that pops them, carries the carries'
  cotangents and adds up the constants'.

Both thread the stacks of loops nested in them (``vjp.Split`` slots) as extra operands.
Requires: tograph.autodiff.halves.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph.autodiff import activity, halves, vjp
from tograph.ir import core, types
from tograph.ops import control, lists, stacks
from tograph.staging import carried
from tograph.trace import builder as builder_mod

_COUNT = types.TensorType(np.dtype(np.int64), (), weak=True)


def _new_stacks(frame: vjp.Frame, elems: Sequence[types.TensorType]) -> list[int]:
    return [frame.new_stack(elem) for elem in elems]


def _take(values: list[Any], n: int) -> list[Any]:
    """The first ``n`` of ``values``, removed from it."""
    taken = values[:n]
    del values[:n]
    return taken


# ---- cond --------------------------------------------------------------------------------


@dataclasses.dataclass
class _CondState:
    parts: list[halves.Halves]
    stacks: list[list[int]]  # per branch, the enclosing frame's stacks for the branch's slots
    saved: list[list[Any]]  # per branch, the forward cond's outputs holding its residuals
    active_ops: list[bool]
    active_outs: list[bool]


class CondRule(vjp.ControlRule):
    """See module docstring."""

    def forward(self, sweep: vjp.Sweep, eqn: core.Eqn) -> Sequence[Any]:
        active_ops = [sweep.is_active(a) for a in eqn.inputs[1:]]
        active_outs = [v.id in sweep.active for v in eqn.outputs]
        out_types = [v.type for v in eqn.outputs]
        parts = [
            halves.split_graph(eqn.params[k], active_ops, active_outs, out_types, active_ops)
            for k in ("then_graph", "else_graph")
        ]
        stacks = [_new_stacks(sweep.frame, [s.elem for s in h.split.slots]) for h in parts]
        internal = [[r for r in h.residuals if r.input is None] for h in parts]
        then_graph, else_graph = (_forward_branch(k, parts, internal) for k in range(2))
        args = [sweep.read(a) for a in eqn.inputs]
        args += [sweep.frame.fwd_stack(s) for ss in stacks for s in ss]
        params = dict(eqn.params, then_graph=then_graph, else_graph=else_graph)
        outs = list(vjp.emit(sweep.frame.fwd, dataclasses.replace(eqn, params=params), args))
        primal = _take(outs, len(eqn.outputs))
        for s in (s for ss in stacks for s in ss):
            sweep.frame.set_fwd_stack(s, outs.pop(0))
        saved = [_take(outs, len(rs)) for rs in internal]
        sweep.aux[id(eqn)] = _CondState(parts, stacks, saved, active_ops, active_outs)
        return primal

    def backward(self, sweep: vjp.Sweep, eqn: core.Eqn) -> Sequence[Any]:
        state: _CondState = sweep.aux.pop(id(eqn))
        operands = eqn.inputs[1:]
        outs = [v for v, on in zip(eqn.outputs, state.active_outs) if on]
        used = sorted({r.input for h in state.parts for r in h.residuals if r.input is not None})
        saved = [*state.saved[0], *state.saved[1]]
        stacks = [s for ss in state.stacks for s in ss]
        args = [sweep.ct_or_zeros(v) for v in outs] + saved
        args += [sweep.read(operands[i]) for i in used] + [sweep.frame.bwd_stack(s) for s in stacks]
        branch_inputs = eqn.params["then_graph"].inputs
        in_types = [v.type for v in outs] + [carried.type_of(v) for v in saved]
        in_types += [branch_inputs[i].type for i in used]
        in_types += [types.ListType(s.elem) for h in state.parts for s in h.split.slots]
        then_graph, else_graph = (_backward_branch(k, state, used, in_types) for k in range(2))
        pred = sweep.read(eqn.inputs[0])
        results = list(
            control.cond_p.bind(pred, *args, then_graph=then_graph, else_graph=else_graph)
        )
        op_cts = iter(_take(results, sum(state.active_ops)))
        for s, value in zip(stacks, results):
            sweep.frame.set_bwd_stack(s, value)
        return [None] + [next(op_cts) if on else None for on in state.active_ops]


def _forward_branch(
    k: int, parts: list[halves.Halves], internal: list[list[halves.Residual]]
) -> core.Graph:
    """Branch ``k`` of the forward cond: its outputs, every branch's stacks and residuals."""
    h = parts[k]
    ins: list[core.Var] = list(h.inputs)
    slots: list[Any] = []
    for j, other in enumerate(parts):
        if j == k:
            ins += [s.fwd_in for s in h.split.slots]
            slots += [s.fwd_cur for s in h.split.slots]
        else:
            passed = [core.Var(types.ListType(s.elem), "stack") for s in other.split.slots]
            ins += passed
            slots += passed
    saved = [
        r.value if j == k else vjp.placeholder(r.var.type)
        for j, rs in enumerate(internal)
        for r in rs
    ]
    f = h.split.fwd
    with f.active():
        outs = [v if isinstance(v, core.Var) else f.atom(v) for v in [*h.outputs, *slots, *saved]]
    return core.Graph(f.name, tuple(ins), tuple(f.eqns), tuple(outs))


def _backward_branch(
    k: int, state: _CondState, used: list[int], in_types: list[types.ValueType]
) -> core.Graph:
    """Branch ``k`` of the backward cond: its backward half on its share of the operands."""
    h = state.parts[k]
    b = builder_mod.GraphBuilder(h.bwd.name)
    values = [b.add_input(t) for t in in_types]
    cts = _take(values, sum(state.active_outs))
    saved = [_take(values, len(s)) for s in state.saved]
    operands = dict(zip(used, _take(values, len(used))))
    stacks = [_take(values, len(ss)) for ss in state.stacks]
    mine = iter(saved[k])
    residuals = [operands[r.input] if r.input is not None else next(mine) for r in h.residuals]
    with b.active():
        outs = vjp.inline(h.bwd, [*cts, *stacks[k], *residuals])
        op_cts = _take(outs, sum(state.active_ops))
        slot_outs = [v for j, ss in enumerate(stacks) for v in (outs if j == k else ss)]
        return b.finish([*op_cts, *slot_outs])


# ---- while_loop --------------------------------------------------------------------------


@dataclasses.dataclass
class _WhileState:
    parts: halves.Halves
    carries: list[bool]  # carries whose cotangent the backward loop carries
    consts: list[bool]  # constants whose cotangent it adds up
    const_residuals: list[halves.Residual]
    held: list[tuple[halves.Residual, int, halves.Residual]]  # see _held_residuals
    stacks: list[int]  # the enclosing frame's stacks: the body's slots, then the pushed residuals
    elems: list[types.TensorType]  # their element types
    count: Any


class WhileRule(vjp.ControlRule):
    """See module docstring."""

    def forward(self, sweep: vjp.Sweep, eqn: core.Eqn) -> Sequence[Any]:
        n, body = eqn.params["num_consts"], eqn.params["body_graph"]
        ins = [sweep.is_active(a) for a in eqn.inputs]
        varied = ins[:n] + activity.varied_carries(eqn, ins)
        carries = _ct_carries(body, n, varied, [v.id in sweep.active for v in eqn.outputs])
        body_active = activity.active_vars(body, varied, carries)
        consts = [v.id in body_active for v in body.inputs[:n]]
        carry_types = [v.type for v in body.inputs[n:]]
        h = halves.split_graph(body, varied, carries, carry_types, consts + carries)
        held = _held_residuals(h, n)
        rebuilt = {id(out) for out, _, _ in held}
        const_res = [r for r in h.residuals if r.input is not None and r.input < n]
        pushed = [r for r in h.residuals if r not in const_res and id(r) not in rebuilt]
        fwd_body = _forward_body(h, pushed)
        cond = eqn.params["cond_graph"]
        extra = tuple(core.Var(v.type) for v in fwd_body.inputs[len(body.inputs) :])
        fwd_cond = cond.replace(inputs=cond.inputs + extra)
        elems = [s.elem for s in h.split.slots] + [types.tensor_type(r.var.type) for r in pushed]
        stacks = _new_stacks(sweep.frame, elems)
        args = [sweep.read(a) for a in eqn.inputs] + [sweep.frame.fwd_stack(s) for s in stacks]
        params = dict(eqn.params, cond_graph=fwd_cond, body_graph=fwd_body)
        outs = list(vjp.emit(sweep.frame.fwd, dataclasses.replace(eqn, params=params), args + [0]))
        for s, value in zip(stacks, outs[len(eqn.outputs) : -1]):
            sweep.frame.set_fwd_stack(s, value)
        state = _WhileState(h, carries, consts, const_res, held, stacks, elems, outs[-1])
        sweep.aux[id(eqn)] = state
        return outs[: len(eqn.outputs)]

    def backward(self, sweep: vjp.Sweep, eqn: core.Eqn) -> Sequence[Any]:
        state: _WhileState = sweep.aux.pop(id(eqn))
        n, body = eqn.params["num_consts"], eqn.params["body_graph"]
        const_ins = [r.input for r in state.const_residuals if r.input is not None]
        acc_vars = [v for v, on in zip(body.inputs[:n], state.consts) if on]
        consts = [sweep.read(eqn.inputs[i]) for i in const_ins]
        cts = [sweep.ct_or_zeros(v) for v, on in zip(eqn.outputs, state.carries) if on]
        acc_like = [sweep.rule_arg(a) for a, on in zip(eqn.inputs, state.consts) if on]
        accs = [vjp.fit(vjp.zeros(v.type, like), v.type) for v, like in zip(acc_vars, acc_like)]
        held = [sweep.read(eqn.outputs[j]) for _, j, _ in state.held]
        in_types = [body.inputs[i].type for i in const_ins]
        in_types += [v.type for v, on in zip(body.inputs[n:], state.carries) if on]
        in_types += [v.type for v in acc_vars] + [body.inputs[n + j].type for _, j, _ in state.held]
        in_types += [types.ListType(e) for e in state.elems] + [_COUNT]
        bwd_body = _backward_body(state, in_types, [len(consts), len(cts), len(accs), len(held)])
        bwd_body, hoisted, extra = halves.hoist_invariants(bwd_body, len(consts))
        env = {v.id: c for v, c in zip(bwd_body.inputs, consts)}
        for e in hoisted:
            args = [env[a.id] if isinstance(a, core.Var) else a.value for a in e.inputs]
            env.update(zip((v.id for v in e.outputs), vjp.emit(sweep.frame.bwd, e, args)))
        consts += [env[v.id] for v in extra]
        stacks = [sweep.frame.bwd_stack(s) for s in state.stacks]
        outs = list(
            control.while_loop_p.bind(
                *consts,
                *cts,
                *accs,
                *held,
                *stacks,
                state.count,
                cond_graph=_count_down(bwd_body.in_types),
                body_graph=bwd_body,
                num_consts=len(consts),
            )
        )
        carry_cts, acc_outs = iter(_take(outs, len(cts))), iter(_take(outs, len(accs)))
        for s, value in zip(state.stacks, outs[len(held) :]):
            sweep.frame.set_bwd_stack(s, value)
        const_cts = [next(acc_outs) if on else None for on in state.consts]
        return const_cts + [next(carry_cts) if on else None for on in state.carries]


def _ct_carries(body: core.Graph, n: int, varied: list[bool], outputs: list[bool]) -> list[bool]:
    """The carries whose cotangent flows around the backward loop (a fixed point over the body)."""
    carries = list(outputs)
    while True:
        found = activity.active_vars(body, varied, carries)
        grown = [c or v.id in found for c, v in zip(carries, body.inputs[n:])]
        if grown == carries:
            return carries
        carries = grown


def _held_residuals(h: halves.Halves, n: int) -> list[tuple[halves.Residual, int, halves.Residual]]:
    """Residuals that are a carry's new value while the carry's old value is a residual too.

    Such a residual (say the new ``h`` of an RNN step) is not pushed: the backward loop holds
    the carry's final value and, each iteration, takes the old value it pops as the new value of
    the iteration before. Returns (new-value residual, carry index, old-value residual) triples.
    """
    olds = {r.input - n: r for r in h.residuals if r.input is not None and r.input >= n}
    found = []
    for r in h.residuals:
        for j, out in enumerate(h.outputs):
            if (
                r.input is None
                and j in olds
                and getattr(out, "graph_var", None) is r.value.graph_var
            ):
                found.append((r, j, olds[j]))
                break
    return found


def _forward_body(h: halves.Halves, pushed: list[halves.Residual]) -> core.Graph:
    """The forward loop's body: the body's forward half, pushes of the residuals, a counter."""
    f = h.split.fwd
    stacks = [f.add_input(types.ListType(types.tensor_type(r.var.type)), "stack") for r in pushed]
    count = f.add_input(_COUNT, "count")
    with f.active():
        after = [lists.push(s, r.value) for s, r in zip(stacks, pushed)]
        return f.finish([*h.outputs, *(s.fwd_cur for s in h.split.slots), *after, count + 1])


def _backward_body(
    state: _WhileState, in_types: list[types.ValueType], sizes: list[int]
) -> core.Graph:
    """One backward iteration: pop the residuals, run the body's backward half, add up.

    ``sizes`` are the numbers of constants, carried cotangents, accumulators and held values.
    """
    h = state.parts
    b = builder_mod.GraphBuilder("body")
    values = [b.add_input(t) for t in in_types]
    consts, cts, accs, held = (_take(values, k) for k in sizes)
    slots, pushed, count = _take(values, len(h.split.slots)), values[:-1], values[-1]
    with b.active():
        popped = [stacks.list_pop_p.bind(s) for s in pushed]
        tops = iter(top for _, top in popped)
        value_of = {id(r): c for r, c in zip(state.const_residuals, consts)}
        value_of.update((id(out), v) for (out, _, _), v in zip(state.held, held))
        value_of.update((id(r), next(tops)) for r in h.residuals if id(r) not in value_of)
        outs = vjp.inline(h.bwd, [*cts, *slots, *(value_of[id(r)] for r in h.residuals)])
        const_cts, carry_cts = _take(outs, sizes[2]), _take(outs, sizes[1])
        new_accs = [vjp.add(acc, ct, acc.graph_var.type) for acc, ct in zip(accs, const_cts)]
        new_held = [value_of[id(old)] for _, _, old in state.held]
        rest = [lst for lst, _ in popped]
        return b.finish([*carry_cts, *new_accs, *new_held, *outs, *rest, count - 1])


def _count_down(in_types: Sequence[types.ValueType]) -> core.Graph:
    """The backward loop's condition: its last carry, the iteration count, is positive."""
    test = builder_mod.GraphBuilder("cond")
    count = [test.add_input(t) for t in in_types][-1]
    with test.active():
        return test.finish([count > 0])


# The vjp slot holds rule functions, and these two ControlRules.
control.cond_p.vjp = CondRule()  # type: ignore[assignment]
control.while_loop_p.vjp = WhileRule()  # type: ignore[assignment]
