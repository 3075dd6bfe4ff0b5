"""Lowering step 3a: reads of variables that may be unbound, and tests against ``None``, made
runtime calls, so that values present on some paths only (``staging.optional``) read as eager.

Input: a gast ``FunctionDef`` after ``lowering.canonicalize``. Output, in two steps around the
lowering of control flow: ``mark`` rewrites ``x is None`` / ``x is not None`` as
``_t.is_none(x)`` / ``_t.is_not_none(x)`` (decided when the graph runs for a value that is
``None`` on some paths) and marks the function's own reads of names (``rewrite_none_tests``
only rewrites, for a function without control statements); ``guard`` then makes each
marked read of a variable that may be unbound ``_t.read(x, 'x')``, which raises
``UnboundLocalError`` where eager does. Reads that lowering adds (the state passed to branches
and loops) are not marked: passing an unset variable along is no error.
Requires: lowering.canonicalize; lowering.control_flow calls both steps.
"""

from __future__ import annotations

from typing import Any

import gast

from tograph.frontend import nodes
from tograph.lowering import templates
from tograph.lowering.canonicalize import RUNTIME

_MARK = "tograph_reader"


class _NoneTests(nodes.Transformer):
    """Rewrites ``is None`` tests; nested functions' bodies are left to their own lowering, but
    their defaults and decorators, which run in this function when the ``def`` runs, are this
    function's reads (``def g(c=v)`` raises here if ``v`` is unbound)."""

    def visit_FunctionDef(self, node: gast.FunctionDef) -> Any:
        args = node.args
        args.defaults = [self.visit(d) for d in args.defaults]
        args.kw_defaults = [None if d is None else self.visit(d) for d in args.kw_defaults]
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        return node

    def visit_Compare(self, node: gast.Compare) -> Any:
        self.generic_visit(node)
        if len(node.ops) != 1 or not isinstance(node.ops[0], (gast.Is, gast.IsNot)):
            return node
        left, right = node.left, node.comparators[0]
        if _is_none(left):
            left, right = right, left
        if not _is_none(right):
            return node
        fn = "is_none" if isinstance(node.ops[0], gast.Is) else "is_not_none"
        func = gast.Attribute(value=templates.name(RUNTIME), attr=fn, ctx=gast.Load())
        return templates.set_location(gast.Call(func=func, args=[left], keywords=[]), node)


class _Mark(_NoneTests):
    """Rewrites ``is None`` tests and marks reads with the owner's key."""

    def __init__(self, key: int):
        self.key = key

    def visit_Name(self, node: gast.Name) -> Any:
        if isinstance(node.ctx, gast.Load):
            setattr(node, _MARK, self.key)
        return node


def _is_none(node: Any) -> bool:
    return isinstance(node, gast.Constant) and node.value is None


class _Guard(nodes.Transformer):
    def __init__(self, key: int, names: set[str]):
        self.key, self.names = key, names

    def visit_Name(self, node: gast.Name) -> Any:
        if getattr(node, _MARK, None) != self.key or node.id not in self.names:
            return node
        call = templates.quote_expr(f"{RUNTIME}.read(x, {node.id!r})", node, x=node)
        setattr(call.args[0], _MARK, None)  # guarded already
        return call


def mark(fn: gast.FunctionDef) -> int:
    """Rewrites ``fn``'s tests against ``None`` and marks its reads; returns the marks' key."""
    key = id(fn)
    fn.body = [_Mark(key).visit(stmt) for stmt in fn.body]
    return key


def rewrite_none_tests(fn: gast.FunctionDef) -> None:
    """Rewrites ``fn``'s tests against ``None``, marking no reads: what a function without
    control statements needs (no variable of its can be unbound on some paths only)."""
    fn.body = [_NoneTests().visit(stmt) for stmt in fn.body]


def guard(fn: gast.FunctionDef, key: int, names: set[str]) -> None:
    """Makes the reads marked with ``key`` of the variables ``names`` guarded reads."""
    if names:
        _Guard(key, names).visit(fn)
