"""Stage: mutation analysis. Which local variables may hold concrete arrays written in place.

Input: a gast ``FunctionDef`` (jumps lowered) and the globals it resolves names in. Output:
``Mutation``: the assignments whose value may be a concrete NumPy array made right there
(``np.zeros(n)`` of a static ``n``, ``a * 2``, ``x.copy()``) that an in-place write may reach
later. Lowering wraps those values in ``_t.fresh``, which makes such an array a symbolic tensor at
once: its writes are then functionalized like any tensor's, in tensor control flow too, and its
aliases follow. A write that reaches a concrete array anyway (one read from a global, say) makes
the compiler fall back, at run time (``staging.runtime``): writing it once, while tracing, would
be wrong.

The analysis is flow-insensitive and conservative, in the style of a may-alias analysis: names
are joined into classes whenever one's value may share memory with another's (``a = b``,
``a = b[1:]``, ``a = b.T``, a call given ``b``, a container holding ``b``); a class is written
when any member is the target of ``x[i] = v``, ``x += v``, an in-place method, an ``out=``
argument, a mutating NumPy function or a call of unknown code. An array made here and stored
on an attribute (``self.buf = np.zeros(n)`` in ``__init__``) is lifted too, whatever this
function does with it: another method may write it in place.
Requires: lowering.jumps.
"""

from __future__ import annotations

import builtins
import dataclasses
import types as pytypes
from typing import Any

import gast
import numpy as np

from tograph.frontend import names, nodes

# Methods that write their array in place.
IN_PLACE_METHODS = frozenset(
    "sort fill put partition resize itemset setfield byteswap setflags".split()
)
# NumPy functions that write their first argument.
WRITERS = frozenset([np.copyto, np.put, np.place, np.putmask, np.fill_diagonal, np.put_along_axis])
# Methods whose result shares memory with their array (NumPy returns views).
_VIEW_METHODS = frozenset(
    "reshape ravel transpose view squeeze swapaxes diagonal __getitem__ flatten".split()
)
# NumPy functions whose result may share memory with an argument.
_VIEW_FUNCTIONS = frozenset(
    [
        np.asarray,
        np.asanyarray,
        np.reshape,
        np.ravel,
        np.transpose,
        np.swapaxes,
        np.moveaxis,
        np.squeeze,
        np.expand_dims,
        np.atleast_1d,
        np.atleast_2d,
        np.atleast_3d,
        np.flip,
        np.fliplr,
        np.flipud,
        np.rot90,
        np.broadcast_to,
        np.diagonal,
        np.real,
        np.imag,
        np.split,
        np.array_split,
        np.hsplit,
        np.vsplit,
        np.dsplit,
        np.matrix_transpose,
    ]
)


@dataclasses.dataclass(frozen=True)
class Mutation:
    """The bindings to lift: ``id`` of each ``Assign``/``AnnAssign``/``NamedExpr`` node (or
    ``For``: its iterable) whose value may be a concrete array that is written later."""

    fresh: frozenset[int]
    # Names whose arrays may be concrete ones from outside (a global, an unknown function's
    # result): their augmented assignments go through the runtime, which refuses to write a
    # concrete array in place.
    checked: frozenset[str] = frozenset()


class _Classes:
    """Union-find over local names."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, name: str) -> str:
        self.parent.setdefault(name, name)
        while self.parent[name] != name:
            self.parent[name] = self.parent[self.parent[name]]
            name = self.parent[name]
        return name

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


class _Analysis:
    def __init__(self, tree: list[Any], globals_: dict[str, Any]):
        self.globals = globals_
        # The names bound anywhere in the tree, nested functions included: one name in two
        # scopes is one class, which is conservative (more values made tensors, never fewer).
        defs = nodes.of_class(tree, (gast.FunctionDef, gast.Lambda))
        self.locals = {p for d in defs for p in names.params(d)}
        self.locals |= {
            n.id for n in nodes.of_class(tree, (gast.Name,)) if isinstance(n.ctx, gast.Store)
        }
        self.classes = _Classes()
        self.written: set[str] = set()
        self.bindings: list[tuple[Any, set[str], Any]] = []  # (node, targets, value)
        # assignments of a value made here to an attribute (``self.buf = np.zeros(n)``): any
        # method may write it later, which no analysis of this function sees
        self.attribute_stores: set[int] = set()

    # ---- what an expression's value may share memory with -------------------------------
    def roots(self, expr: Any) -> set[str]:
        """Local names whose arrays the value of ``expr`` may share memory with."""
        if isinstance(expr, gast.Name):
            return {expr.id} if expr.id in self.locals else set()
        if isinstance(expr, (gast.Subscript, gast.Attribute, gast.Starred)):
            return self.roots(expr.value)
        if isinstance(expr, gast.Call):
            return self._call_roots(expr)
        if isinstance(expr, gast.IfExp):
            return self.roots(expr.body) | self.roots(expr.orelse)
        if isinstance(expr, gast.BoolOp):
            return set().union(*(self.roots(v) for v in expr.values))
        if isinstance(expr, (gast.Tuple, gast.List, gast.Set)):
            return set().union(set(), *(self.roots(e) for e in expr.elts))
        if isinstance(expr, gast.Dict):
            return set().union(set(), *(self.roots(v) for v in expr.values if v is not None))
        if isinstance(expr, gast.NamedExpr):
            return self.roots(expr.value)
        if isinstance(expr, gast.BinOp) and isinstance(expr.op, (gast.Add, gast.Mult)):
            return self.roots(expr.left) | self.roots(expr.right)  # list + list keeps the items
        if isinstance(expr, (gast.ListComp, gast.GeneratorExp, gast.SetComp, gast.DictComp)):
            return set().union(set(), *(self.roots(g.iter) for g in expr.generators))
        return set()

    def _call_roots(self, call: gast.Call) -> set[str]:
        target = self.resolve(call.func)
        args = [*call.args, *(k.value for k in call.keywords)]
        arg_roots = set().union(set(), *(self.roots(a) for a in args))
        if isinstance(call.func, gast.Attribute) and target is None:  # a method of a value
            method = call.func.attr
            if method in _VIEW_METHODS or method not in _FRESH_METHODS:
                return self.roots(call.func.value) | arg_roots
            return set()
        if target is not None and _is_numpy(target):
            return arg_roots if target in _VIEW_FUNCTIONS else set()
        return arg_roots  # unknown code may return what it was given

    def resolve(self, expr: Any) -> Any:
        """The object a global or dotted name refers to (None for locals and unknowns)."""
        if isinstance(expr, gast.Name):
            if expr.id in self.locals:
                return None
            if expr.id in self.globals:
                return self.globals[expr.id]
            return getattr(builtins, expr.id, None)
        if isinstance(expr, gast.Attribute):
            base = self.resolve(expr.value)
            return None if base is None else getattr(base, expr.attr, None)
        return None

    # ---- whether a value may be a concrete array made right here --------------------------
    def fresh(self, expr: Any) -> bool:
        """Whether ``expr`` may compute a new concrete NumPy array (from static values): a NumPy
        function that allocates, ``.copy()``/``.astype()``, arithmetic or a container over such
        values. Tensors' results are tensors already; other values need no lifting."""
        if isinstance(expr, gast.Call):
            target = self.resolve(expr.func)
            if target is not None:
                return _is_numpy(target) and target not in _VIEW_FUNCTIONS
            return isinstance(expr.func, gast.Attribute) and expr.func.attr in ("copy", "astype")
        if isinstance(expr, (gast.BinOp, gast.UnaryOp, gast.IfExp, gast.BoolOp)):
            return any(self.fresh(e) for e in nodes.children(expr) if isinstance(e, gast.expr))
        if isinstance(expr, (gast.List, gast.Tuple, gast.Set)):
            return any(self.fresh(e) for e in expr.elts)
        if isinstance(expr, gast.Dict):
            return any(self.fresh(v) for v in expr.values if v is not None)
        if isinstance(expr, (gast.ListComp, gast.GeneratorExp, gast.SetComp)):
            return self.fresh(expr.elt)
        if isinstance(expr, gast.DictComp):
            return self.fresh(expr.value)
        return False

    def outside(self, expr: Any) -> bool:
        """Whether ``expr`` may be a concrete array from outside the function: a global or
        closure value, an attribute, what unknown code returns."""
        if isinstance(expr, gast.Name):
            return expr.id not in self.locals
        if isinstance(expr, gast.Attribute):
            return True
        if isinstance(expr, (gast.Subscript, gast.Starred)):
            return self.outside(expr.value)
        if isinstance(expr, gast.Call):
            target = self.resolve(expr.func)
            if target is not None:
                return not (_is_numpy(target) or _is_builtin(target))
            return isinstance(expr.func, gast.Attribute) and self.outside(expr.func.value)
        return any(self.outside(e) for e in nodes.children(expr) if isinstance(e, gast.expr))

    # ---- walking the function ------------------------------------------------------------
    def run(self, tree: list[Any]) -> Mutation:
        for node in nodes.of_class(tree, _VISITED):  # the many nodes ``visit`` ignores left out
            self.visit(node)
        if not self.written:  # nothing is written in place here: only attributes may be
            return Mutation(frozenset(self.attribute_stores), frozenset())
        for _, bound, value in self.bindings:  # what shares memory, needed once something is
            roots = self.roots(value)
            for name in bound:
                for root in roots:
                    self.classes.union(name, root)
        written = {self.classes.find(n) for n in self.written}
        fresh, outside = set(), set()
        for node, targets, value in self.bindings:
            if any(self.classes.find(t) in written for t in targets):
                if self.fresh(value):
                    fresh.add(id(node))
                elif self.outside(value):
                    outside |= {self.classes.find(t) for t in targets}
        checked = {n for n in self.classes.parent if self.classes.find(n) in outside}
        return Mutation(frozenset(fresh | self.attribute_stores), frozenset(checked))

    def visit(self, node: Any) -> None:
        if isinstance(node, (gast.Assign, gast.AnnAssign)):
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
            if node.value is not None:
                self._bind(node, targets, node.value)
        elif isinstance(node, gast.For):
            self._bind(node, [node.target], node.iter)
        elif isinstance(node, gast.NamedExpr):
            self._bind(node, [node.target], node.value)
        elif isinstance(node, gast.AugAssign):
            self._write(node.target)
        elif isinstance(node, gast.Call):
            self._call(node)

    def _bind(self, node: Any, targets: list[Any], value: Any) -> None:
        if any(isinstance(t, gast.Attribute) for t in targets) and self.fresh(value):
            self.attribute_stores.add(id(node))
        bound: set[str] = set()
        for target in targets:
            self._write_through(target)
            bound |= names.targets(target)
        self.bindings.append((node, bound, value))

    def _write_through(self, target: Any) -> None:
        """``x[i] = v`` (or ``x.a[i] = v``) writes ``x``; tuple targets may hold such items."""
        if isinstance(target, gast.Subscript):
            self._write(target)
        elif isinstance(target, (gast.Tuple, gast.List)):
            for element in target.elts:
                self._write_through(element)
        elif isinstance(target, gast.Starred):
            self._write_through(target.value)

    def _write(self, target: Any) -> None:
        self.written |= self.roots(target)

    def _call(self, call: gast.Call) -> None:
        for keyword in call.keywords:
            if keyword.arg == "out":
                self._write(keyword.value)
        func = call.func
        target = self.resolve(func)
        if isinstance(func, gast.Attribute) and target is None:
            if func.attr in IN_PLACE_METHODS:
                self._write(func.value)
            elif func.attr == "at":  # np.add.at(x, ...)
                if call.args:
                    self._write(call.args[0])
            return
        if target in WRITERS and call.args:
            self._write(call.args[0])
        elif target is None or not (_is_numpy(target) or _is_builtin(target)):
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                self._write(arg)  # unknown code may write what it is given


# The nodes ``_Analysis.visit`` looks at.
_VISITED = (gast.Assign, gast.AnnAssign, gast.For, gast.NamedExpr, gast.AugAssign, gast.Call)

# Methods whose result is a new array (or a Python value), never a view.
_FRESH_METHODS = frozenset(
    "copy astype sum mean prod max min std var any all argmax argmin argsort cumsum cumprod "
    "dot round clip conj conjugate tolist item nonzero repeat take compress trace ptp".split()
)


def _is_numpy(obj: Any) -> bool:
    module = obj.__name__ if isinstance(obj, pytypes.ModuleType) else getattr(obj, "__module__", "")
    return isinstance(obj, np.ufunc) or str(module or "").split(".")[0] == "numpy"


def _is_builtin(obj: Any) -> bool:
    return isinstance(obj, (pytypes.BuiltinFunctionType, type)) and (
        getattr(obj, "__module__", None) == "builtins"
    )


def analyze(
    fn: gast.FunctionDef, globals_: dict[str, Any], tree: list[Any] | None = None
) -> Mutation:
    """The wrapping each binding of ``fn`` needs; see module docstring.

    Args:
      fn: the function.
      globals_: the globals its names resolve in.
      tree: every node of ``fn`` (``frontend.nodes.walk(fn)``), if the caller has walked it.
    """
    tree = nodes.walk(fn) if tree is None else tree
    return _Analysis(tree, globals_).run(tree)
