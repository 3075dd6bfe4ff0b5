"""Which 0-d values of a graph's loops the generated code keeps as Python numbers.

Stage: execute (planning for ``tograph.backend.python_scalars``). Input: a ``Graph``. Output: a
``ScalarPlan``: the variables held as Python ``float``/``int``/``bool`` instead of NumPy scalars,
the equations written as Python arithmetic, and the variables that may hold an *entry* value.
Requires: a graph that passes ``tograph.ir.check.check_graph``.

A NumPy scalar operation costs about 50-100 ns of boxing and dispatch; the same operation on
Python numbers about 15 ns. Inside ``while_loop`` bodies and conditions (at any depth, ``cond``
branches included), a strong 0-d ``float64``/``int64``/``bool`` value is *unboxed* when it is a
loop carry or constant, a branch operand or result, or the result of an operation Python computes
exactly as NumPy does (``SCALAR_OPS``: arithmetic, comparisons, logic) on unboxed, weak or literal
operands. The plan is the greatest such set: every candidate starts unboxed and is demoted until
the rules hold (a carry whose body result is computed by NumPy stays boxed, a ``bool`` carry
entering as a NumPy value stays boxed, a branch result must be unboxed in both branches).

A carry or constant that enters its loop as a NumPy value is unboxed into an *entry value*: a
``float``/``int`` subclass remembering the original object, so that boxing it again gives back
that very object (a 0-d array stays a 0-d array when the loop runs no iteration). Python
arithmetic on it gives plain numbers, which box to fresh NumPy scalars, as NumPy's operations give.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from tograph.ir import core, types
from tograph.ops import control, elementwise

# The primitives written as Python arithmetic, by kind (see ``python_scalars`` for each kind's
# guards and the dtypes it accepts).
SCALAR_OPS: dict[object, str] = {
    elementwise.add_p: "arith",
    elementwise.subtract_p: "arith",
    elementwise.multiply_p: "arith",
    elementwise.divide_p: "divide",
    elementwise.floor_divide_p: "floordiv",
    elementwise.mod_p: "floordiv",
    elementwise.negative_p: "unary",
    elementwise.abs_p: "unary",
    elementwise.less_p: "compare",
    elementwise.less_equal_p: "compare",
    elementwise.greater_p: "compare",
    elementwise.greater_equal_p: "compare",
    elementwise.equal_p: "compare",
    elementwise.not_equal_p: "compare",
    elementwise.logical_and_p: "logic",
    elementwise.logical_or_p: "logic",
    elementwise.logical_xor_p: "logic",
    elementwise.logical_not_p: "logic",
    elementwise.bitwise_and_p: "logic",
    elementwise.bitwise_or_p: "logic",
    elementwise.bitwise_xor_p: "logic",
    elementwise.invert_p: "logic",
}

F64, I64, BOOL = np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.bool_)
UNBOXABLE = (F64, I64, BOOL)


@dataclasses.dataclass
class ScalarPlan:
    """The result of ``plan``.

    Attributes:
      unboxed: ids of the variables held as Python numbers.
      scalar_eqns: the equations written as Python arithmetic (their results are unboxed).
      entries: ids of unboxed variables that may hold an entry value (see module docstring).
    """

    unboxed: set[int]
    scalar_eqns: set[int]
    entries: set[int]


def is_unboxable(t: types.ValueType) -> bool:
    """A strong 0-d float64, int64 or bool type."""
    return isinstance(t, types.TensorType) and t.shape == () and not t.weak and t.dtype in UNBOXABLE


def scalar_kind(eqn: core.Eqn) -> str | None:
    """The kind of Python arithmetic ``eqn`` is written as, or None (operand types aside)."""
    eqn = elementwise.as_operator(eqn)
    kind = SCALAR_OPS.get(eqn.prim)
    if kind is None or eqn.params or len(eqn.outputs) != 1:
        return None
    out = eqn.outputs[0].type
    if not is_unboxable(out):
        return None
    ins = [a.type for a in eqn.inputs]
    if not all(isinstance(t, types.TensorType) and t.shape == () for t in ins):
        return None
    dtypes = {types.tensor_type(t).dtype for t in ins}
    if not dtypes <= set(UNBOXABLE):
        return None
    return kind if _dtypes_fit(kind, out.dtype, dtypes) else None


def _dtypes_fit(kind: str, out: np.dtype, ins: set[np.dtype]) -> bool:
    if kind == "logic":
        return ins == {BOOL}
    if kind == "compare":
        return BOOL not in ins or ins == {BOOL}
    if kind == "floordiv":
        return out == I64 and ins == {I64}
    if kind == "divide":
        return out == F64 and BOOL not in ins
    return out in (F64, I64) and (out == F64 or F64 not in ins)


def plan(graph: core.Graph) -> ScalarPlan:
    """The greatest consistent set of unboxed variables of ``graph`` (see module docstring)."""
    return _Planner(graph).solve()


class _Planner:
    def __init__(self, graph: core.Graph):
        self.graph = graph
        self.unboxed: set[int] = set()
        self.scalar: dict[int, core.Eqn] = {}
        self.whiles: list[core.Eqn] = []
        self.conds: list[core.Eqn] = []
        for eqn in graph.eqns:
            self._collect(eqn, in_loop=False)

    def _candidate(self, var: core.Var) -> None:
        if is_unboxable(var.type):
            self.unboxed.add(var.id)

    def _collect(self, eqn: core.Eqn, in_loop: bool) -> None:
        if eqn.prim is control.while_loop_p:
            self.whiles.append(eqn)
            for var in eqn.outputs:
                self._candidate(var)
            for sub in (eqn.params["cond_graph"], eqn.params["body_graph"]):
                self._collect_graph(sub)
        elif eqn.prim is control.cond_p:
            if in_loop:
                self.conds.append(eqn)
                for var in eqn.outputs:
                    self._candidate(var)
            for sub in eqn.subgraphs():
                for inner in sub.eqns:
                    self._collect(inner, in_loop)
                if in_loop:
                    for var in sub.inputs:
                        self._candidate(var)
        elif in_loop and scalar_kind(eqn) is not None:
            self.scalar[id(eqn)] = eqn
            self._candidate(eqn.outputs[0])

    def _collect_graph(self, graph: core.Graph) -> None:
        for var in graph.inputs:
            self._candidate(var)
        for eqn in graph.eqns:
            self._collect(eqn, in_loop=True)

    def solve(self) -> ScalarPlan:
        changed = True
        while changed:
            changed = False
            for check in (self._scalar_rule, self._while_rule, self._cond_rule):
                changed |= check()
        scalar = {k for k, e in self.scalar.items() if e.outputs[0].id in self.unboxed}
        return ScalarPlan(set(self.unboxed), scalar, self._entries())

    def _is_u(self, atom: core.Atom) -> bool:
        return isinstance(atom, core.Var) and atom.id in self.unboxed

    def _demote(self, vars_: list[core.Var]) -> bool:
        found = [v for v in vars_ if v.id in self.unboxed]
        self.unboxed.difference_update(v.id for v in found)
        return bool(found)

    def _scalar_rule(self) -> bool:
        """An arithmetic result is unboxed only if its strong operands are."""
        changed = False
        for eqn in self.scalar.values():
            strong = [a for a in elementwise.as_operator(eqn).inputs if not _weak_or_literal(a)]
            if not all(self._is_u(a) for a in strong):
                changed |= self._demote(list(eqn.outputs))
        return changed

    def _while_rule(self) -> bool:
        """A carry is unboxed in its loop's condition, body and result alike, if the body's
        result is unboxed (or a literal) and its initial value can be unboxed."""
        changed = False
        for eqn in self.whiles:
            n = eqn.params["num_consts"]
            test, body = eqn.params["cond_graph"], eqn.params["body_graph"]
            for j in range(n):
                group = [test.inputs[j], body.inputs[j]]
                if not all(v.id in self.unboxed for v in group) or not self._enters(eqn.inputs[j]):
                    changed |= self._demote(group)
            for k, out in enumerate(eqn.outputs):
                group = [test.inputs[n + k], body.inputs[n + k], out]
                result = body.outputs[k]
                ok = all(v.id in self.unboxed for v in group)
                ok = ok and self._enters(eqn.inputs[n + k])
                ok = ok and (self._is_u(result) or _strong_literal(result))
                if not ok:
                    changed |= self._demote(group)
        return changed

    def _enters(self, atom: core.Atom) -> bool:
        """Whether a loop may unbox ``atom`` on entry (a NumPy bool has no entry value)."""
        if self._is_u(atom) or _strong_literal(atom):
            return True
        if not is_unboxable(atom.type):
            return False
        return types.tensor_type(atom.type).dtype != BOOL

    def _cond_rule(self) -> bool:
        """A branch input is unboxed only with its operand; a result only if both branches
        give it unboxed (or as a literal)."""
        changed = False
        for eqn in self.conds:
            branches = eqn.params["then_graph"], eqn.params["else_graph"]
            for b in branches:
                for a, v in zip(eqn.inputs[1:], b.inputs):
                    if v.id in self.unboxed and not self._is_u(a):
                        changed |= self._demote([v])
            for k, out in enumerate(eqn.outputs):
                results = [b.outputs[k] for b in branches]
                if out.id in self.unboxed and not all(
                    self._is_u(r) or _strong_literal(r) for r in results
                ):
                    changed |= self._demote([out])
        return changed

    def _entries(self) -> set[int]:
        """Unboxed variables that may hold an entry value: carries and constants entering
        boxed, and whatever they flow into without arithmetic (to a fixed point)."""
        entries: set[int] = set()

        def may(atom: core.Atom) -> bool:
            if not isinstance(atom, core.Var):
                return not _strong_literal(atom)
            return atom.id in entries or atom.id not in self.unboxed

        changed = True
        while changed:
            before = len(entries)
            for eqn in self.whiles:
                n = eqn.params["num_consts"]
                test, body = eqn.params["cond_graph"], eqn.params["body_graph"]
                for i, a in enumerate(eqn.inputs):
                    group = [test.inputs[i], body.inputs[i]]
                    group += [eqn.outputs[i - n]] if i >= n else []
                    if group[0].id in self.unboxed and (
                        may(a) or (i >= n and may(body.outputs[i - n]))
                    ):
                        entries.update(v.id for v in group)
            for eqn in self.conds:
                branches = eqn.params["then_graph"], eqn.params["else_graph"]
                for b in branches:
                    for a, v in zip(eqn.inputs[1:], b.inputs):
                        if v.id in self.unboxed and may(a):
                            entries.add(v.id)
                for k, out in enumerate(eqn.outputs):
                    if out.id in self.unboxed and any(
                        isinstance(b.outputs[k], core.Var) and b.outputs[k].id in entries
                        for b in branches
                    ):
                        entries.add(out.id)
            changed = len(entries) != before
        return entries


def _weak_or_literal(atom: core.Atom) -> bool:
    return isinstance(atom, core.Lit) or bool(getattr(atom.type, "weak", False))


def _strong_literal(atom: core.Atom) -> bool:
    """A NumPy scalar literal: unboxed to its Python value, boxed again to an equal scalar (a
    0-d array literal is no such thing: it enters a loop as an entry value)."""
    return (
        isinstance(atom, core.Lit)
        and is_unboxable(atom.type)
        and isinstance(atom.value, np.generic)
    )
