"""The NumPy executor with loop scalars kept as Python numbers, where that is exact.

Stage: execute. Input: a ``Graph``. Output: a function ``f(*inputs) -> tuple of outputs`` giving
what ``tograph.backend.codegen`` gives (values, dtypes, NumPy-vs-Python scalar kinds, warnings,
exceptions), faster on loops over 0-d values. ``scalar_plan.plan`` picks the values; this module
writes them: the code generator's writer with Python arithmetic for the planned equations,
unboxing where a value enters a loop and boxing where NumPy code reads it. For example::

    while (x_1 > 1.0):              # x_1 a Python float, entered as float64 (an entry value)
        x_1 = (x_1 * 0.995)
        n = (n + 1)
    return ((x_1.orig if type(x_1) is EntryFloat else float64(x_1)), n)

Python's arithmetic agrees with NumPy's on exact results only, so each operation that could
leave that ground is guarded, and redone by NumPy when it does:

* float64: a result that is not finite (overflow, inf - inf, 0 * inf, division by zero, which
  Python refuses) is recomputed by NumPy's own scalar operation on the boxed operands, which
  warns or raises (``np.errstate``) as the plain executor does and gives its inf or nan. The
  guard is left out where the operands cannot make one (``x * 0.995``, ``x + 1.0``, ``x / 2.0``).
  Underflow is the one condition no guard sees: when ``np.geterr()["under"]`` is not "ignore"
  the call runs the plain executor instead.
* int64: a result outside the int64 range (NumPy wraps it, with a warning) and a zero divisor
  (NumPy gives 0, with a warning) are redone by NumPy the same way.
* Comparisons of an int with a float compare ``float(i)``, as NumPy converts; Python compares
  exactly.
* ``array_or_scalar`` (a value that is a 0-d array on some paths) is written as its operator;
  the redone operation is ``array_or_scalar`` itself, which warns as the array or the NumPy
  scalar of the path taken.
Requires: a graph that passes ``tograph.ir.check.check_graph``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph.backend import codegen, scalar_plan
from tograph.ir import core, types
from tograph.ops import elementwise, errstates

_CACHE_SIZE = 512
_Entry = tuple[core.Graph, Callable[..., tuple[Any, ...]], str]
_CACHE: dict[tuple[int, codegen.Options], _Entry] = {}
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1
_PY = {scalar_plan.F64: float, scalar_plan.I64: int, scalar_plan.BOOL: bool}


class EntryFloat(float):
    """A float64 carry's value as it entered its loop; ``orig`` is the NumPy object it was."""

    orig: Any


class EntryInt(int):
    """An int64 carry's value as it entered its loop; ``orig`` is the NumPy object it was."""

    orig: Any


def enter_float(value: Any) -> EntryFloat:
    entry = EntryFloat(value)
    entry.orig = value
    return entry


def enter_int(value: Any) -> EntryInt:
    entry = EntryInt(value)
    entry.orig = value
    return entry


def _underflow_ignored() -> bool:
    return np.geterr()["under"] == "ignore"


def _watches_underflow(graph: core.Graph) -> bool:
    """Whether ``graph`` holds an ``np.errstate`` region that may watch underflow, which the
    check on entry (``_underflow_ignored``) does not see."""
    for eqn in graph.eqns:
        if eqn.prim is errstates.errstate_p and any(
            c in ("under", "all") and m != "ignore" for c, m in eqn.params["settings"]
        ):
            return True
        if any(_watches_underflow(g) for g in eqn.subgraphs()):
            return True
    return False


def compile_graph(
    graph: core.Graph, options: codegen.Options = codegen.DEFAULT
) -> Callable[..., tuple[Any, ...]]:
    """The function running ``graph`` (see module docstring), compiled once per graph object and
    ``options`` (``codegen.Options``); ``codegen.compile_graph(graph, options)`` itself when no
    value is worth unboxing."""
    return _compiled(graph, options)[0]


def source_of(graph: core.Graph, options: codegen.Options = codegen.DEFAULT) -> str:
    """The generated source of ``graph``'s function."""
    return _compiled(graph, options)[1]


def _compiled(
    graph: core.Graph, options: codegen.Options
) -> tuple[Callable[..., tuple[Any, ...]], str]:
    entry = _CACHE.get((id(graph), options))
    if entry is not None:
        return entry[1], entry[2]
    found = scalar_plan.plan(graph)
    if found.scalar_eqns and not _watches_underflow(graph):
        writer = _Writer(graph, found, _PlainOnFirstCall(graph, options), options)
        compiled = writer.compile()
        fn, source = compiled.fn, compiled.source
    else:
        fn, source = codegen.compile_graph(graph, options), codegen.source_of(graph, options)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[(id(graph), options)] = (graph, fn, source)
    return fn, source


class _PlainOnFirstCall:
    """The plain executor of a graph, compiled when first called: only calls made with
    underflow not ignored need it, so most graphs never pay for a second compilation."""

    def __init__(self, graph: core.Graph, options: codegen.Options) -> None:
        self.graph, self.options = graph, options

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        return codegen.compile_graph(self.graph, self.options)(*args)


class _Writer(codegen._Writer):
    """The code generator's writer, with the planned values held as Python numbers."""

    def __init__(
        self,
        graph: core.Graph,
        plan: scalar_plan.ScalarPlan,
        plain: Callable[..., Any],
        options: codegen.Options,
    ) -> None:
        super().__init__(graph, options)
        self.plan = plan
        self.plain = plain
        self.scratch = self.namer.fresh("r")
        self.by_id = {id(e): e for e in graph.walk() if id(e) in plan.scalar_eqns}
        self.operands = {
            a.id for e in self.by_id.values() for a in e.inputs if isinstance(a, core.Var)
        }

    # ---- hooks of codegen._Writer ---------------------------------------------------------
    def prologue(self, params: Sequence[str], indent: str) -> None:
        check, plain = self.const(_underflow_ignored), self.const(self.plain)
        self.line(indent, f"if not {check}(): return {plain}({', '.join(params)})", None)

    def call(self, eqn: core.Eqn) -> str:
        if id(eqn) in self.by_id:
            return self._scalar(eqn)
        return super().call(eqn)

    def inlinable(self, graph: core.Graph, barriers: set[int], named: set[int]) -> set[int]:
        return super().inlinable(graph, barriers, named) - self.plan.unboxed - self.operands

    def expr(self, atom: core.Atom) -> str:
        text = super().expr(atom)
        if not self._unboxed(atom):
            return text
        box = self.const(types.tensor_type(atom.type).dtype.type)
        if atom.id not in self.plan.entries:  # type: ignore[union-attr]
            return f"{box}({text})"
        entry = self.const(EntryInt if atom.type.dtype == scalar_plan.I64 else EntryFloat)  # type: ignore[union-attr]
        return f"({text}.orig if type({text}) is {entry} else {box}({text}))"

    def condition(self, atom: core.Atom) -> str:
        return super().expr(atom) if self._unboxed(atom) else self.expr(atom)

    def read(self, atom: core.Atom, holder: core.Var | None, indent: str) -> str:
        if holder is None or holder.id not in self.plan.unboxed:
            return self.expr(atom)
        if self._unboxed(atom):
            return super().expr(atom)
        if isinstance(atom, core.Lit) and isinstance(atom.value, np.generic):
            return self._python_literal(atom.value)
        is_int = types.tensor_type(holder.type).dtype == scalar_plan.I64
        enter = enter_int if is_int else enter_float
        name = self.namer.fresh(f"{self.namer.name(holder)}_in")
        self.line(indent, f"{name} = {self.const(enter)}({self.expr(atom)})", None)
        return name

    def direct_outputs(
        self,
        graph: core.Graph,
        targets: Sequence[str],
        carried: Sequence[core.Var | None],
        holders: Sequence[core.Var | None],
    ) -> dict[int, str]:
        found = super().direct_outputs(graph, targets, carried, holders)
        unboxed = self.plan.unboxed
        kept = {}
        for out, holder in zip(graph.outputs, holders):
            if isinstance(out, core.Var) and out.id in found:
                same = holder is not None and (out.id in unboxed) == (holder.id in unboxed)
                if same:
                    kept[out.id] = found[out.id]
        return kept

    # ---- Python arithmetic ----------------------------------------------------------------
    def _unboxed(self, atom: core.Atom) -> bool:
        return isinstance(atom, core.Var) and atom.id in self.plan.unboxed

    def _python_literal(self, value: Any) -> str:
        value = value.item() if isinstance(value, (np.generic, np.ndarray)) else value
        if isinstance(value, float) and not np.isfinite(value):
            return self.const(value)
        text = repr(value)
        return f"({text})" if text.startswith("-") else text

    def _operand(self, atom: core.Atom, as_float: bool = False) -> str:
        is_int = types.tensor_type(atom.type).dtype.kind in "iub"
        if isinstance(atom, core.Lit):
            value = atom.value
            value = value.item() if isinstance(value, (np.generic, np.ndarray)) else value
            return self._python_literal(float(value) if as_float and is_int else value)
        text = codegen._Writer.expr(self, atom)
        return f"float({text})" if as_float and is_int else text

    def _scalar(self, eqn: core.Eqn) -> str:
        kind = scalar_plan.scalar_kind(eqn)
        out = types.tensor_type(eqn.outputs[0].type).dtype
        redo = f"{_PY[out].__name__}({super().call(eqn)})"
        eqn = elementwise.as_operator(eqn)
        if kind == "compare":
            return self._compare(eqn)
        if kind == "logic":
            return self._logic(eqn)
        if kind == "unary":
            (a,) = [self._operand(x) for x in eqn.inputs]
            text = f"(-{a})" if eqn.prim is elementwise.negative_p else f"abs({a})"
            return text if out == scalar_plan.F64 else self._int_guard(text, redo, True, True)
        both_int = kind == "divide" and all(
            types.tensor_type(a.type).dtype != scalar_plan.F64 for a in eqn.inputs
        )
        a, b = (self._operand(x, both_int) for x in eqn.inputs)
        symbol = _SYMBOLS[eqn.prim]
        text = f"{a} {symbol} {b}"
        if kind == "divide":
            return self._float_divide(eqn, text, b, redo)
        if kind == "floordiv":
            zero = "" if _literal(eqn.inputs[1], lambda v: v != 0) else f"{b} and "
            overflow = not _literal(eqn.inputs[1], lambda v: v != -1)
            r = self.scratch
            check = f"(({r} := {text}) <= {_INT_MAX})" if overflow else f"(({r} := {text}) or True)"
            return f"({r} if {zero}{check} else {redo})"
        if out == scalar_plan.F64:
            if _safe_float(eqn):
                return f"({text})"
            r = self.scratch
            return f"({r} if not ({r} := {text}) - {r} else {redo})"
        low, high = _int_bounds(eqn)
        return self._int_guard(text, redo, low, high)

    def _int_guard(self, text: str, redo: str, low: bool, high: bool) -> str:
        if not (low or high):
            return f"({text})"
        r = self.scratch
        lo, hi = (f"{_INT_MIN} <= " if low else ""), (f" <= {_INT_MAX}" if high else "")
        return f"({r} if {lo}({r} := {text}){hi} else {redo})"

    def _float_divide(self, eqn: core.Eqn, text: str, divisor: str, redo: str) -> str:
        if _literal(eqn.inputs[1], lambda v: abs(v) >= 1 and np.isfinite(v)):
            return f"({text})"
        r = self.scratch
        return f"({r} if {divisor} and not ({r} := {text}) - {r} else {redo})"

    def _compare(self, eqn: core.Eqn) -> str:
        floats = any(types.tensor_type(a.type).dtype == scalar_plan.F64 for a in eqn.inputs)
        a, b = (self._operand(x, floats) for x in eqn.inputs)
        return f"({a} {_SYMBOLS[eqn.prim]} {b})"

    def _logic(self, eqn: core.Eqn) -> str:
        args = [self._operand(x) for x in eqn.inputs]
        if len(args) == 1:
            return f"(not {args[0]})"
        symbol = _LOGIC[eqn.prim]
        return f"({args[0]} {symbol} {args[1]})"


_SYMBOLS = {
    elementwise.add_p: "+",
    elementwise.subtract_p: "-",
    elementwise.multiply_p: "*",
    elementwise.divide_p: "/",
    elementwise.floor_divide_p: "//",
    elementwise.mod_p: "%",
    elementwise.less_p: "<",
    elementwise.less_equal_p: "<=",
    elementwise.greater_p: ">",
    elementwise.greater_equal_p: ">=",
    elementwise.equal_p: "==",
    elementwise.not_equal_p: "!=",
}
# On Python bools ``&``, ``|`` and ``^`` give bools, as NumPy's logical functions do.
_LOGIC = {
    elementwise.logical_and_p: "&",
    elementwise.logical_or_p: "|",
    elementwise.logical_xor_p: "^",
    elementwise.bitwise_and_p: "&",
    elementwise.bitwise_or_p: "|",
    elementwise.bitwise_xor_p: "^",
}


def _literal(atom: core.Atom, test: Callable[[Any], bool]) -> bool:
    """Whether ``atom`` is a literal whose value passes ``test``."""
    return isinstance(atom, core.Lit) and bool(test(atom.value))


def _safe_float(eqn: core.Eqn) -> bool:
    """Whether a float64 add, subtract or multiply cannot overflow or make a NaN from numbers:
    one operand a literal small enough (|c| <= 1e290 to add, 0 < |c| <= 1 to multiply)."""
    lits = [a.value for a in eqn.inputs if isinstance(a, core.Lit)]
    if len(lits) != 1 or not np.isfinite(lits[0]):
        return False
    if eqn.prim is elementwise.multiply_p:
        return 0 < abs(lits[0]) <= 1
    return abs(lits[0]) <= 1e290


def _int_bounds(eqn: core.Eqn) -> tuple[bool, bool]:
    """Which int64 bounds an add or subtract with a literal can cross: (low, high)."""
    a, b = eqn.inputs
    if eqn.prim is elementwise.multiply_p:
        return True, True
    if isinstance(b, core.Lit):
        step = b.value if eqn.prim is elementwise.add_p else -b.value
        return step < 0, step > 0
    if isinstance(a, core.Lit) and eqn.prim is elementwise.add_p:
        return a.value < 0, a.value > 0
    return True, True
