"""Small helpers to build gast trees from source templates, keeping user source locations.

``quote("x = f(y)", x=..., y=...)`` parses the template and substitutes names: a string renames, an
AST node replaces the name, a list of statements splices into the body. Every node made here gets
the location of ``origin`` so later errors point at the user's line.
"""

from __future__ import annotations

import copy
import textwrap
from typing import Any

import gast

from tograph.frontend import nodes, translate


def name(id_: str, store: bool = False) -> gast.Name:
    return gast.Name(
        id=id_, ctx=gast.Store() if store else gast.Load(), annotation=None, type_comment=None
    )


def names_tuple(ids: list[str] | tuple[str, ...], store: bool = False) -> gast.Tuple:
    return gast.Tuple(
        elts=[name(i, store) for i in ids], ctx=gast.Store() if store else gast.Load()
    )


def strings_tuple(items: list[str] | tuple[str, ...]) -> gast.Tuple:
    return gast.Tuple(elts=[gast.Constant(value=s, kind=None) for s in items], ctx=gast.Load())


def set_location(tree: Any, origin: Any) -> Any:
    """Gives every node of ``tree`` without a line the location of ``origin``.

    A located node below the root is user code or was located when it was made, and so is all
    of it: the walk does not enter it (nested rewrites would otherwise walk the same code again).
    """
    if origin is None:
        return tree
    todo = [tree]
    while todo:
        node = todo.pop()
        if node is not tree and getattr(node, "lineno", None) is not None:
            continue
        locate_node(node, origin)
        todo.extend(nodes.children(node))
    return tree


def locate_node(node: Any, origin: Any) -> Any:
    """Gives ``node`` alone (not its children) the location of ``origin`` if it has none."""
    if "lineno" in node._attributes and getattr(node, "lineno", None) is None:
        # Generated code stands on the origin's first line: CPython places method calls at
        # their attribute's end line, so a multi-line end would move errors to the wrong line.
        node.lineno = node.end_lineno = origin.lineno
        node.col_offset = node.end_col_offset = getattr(origin, "col_offset", 0)
    return node


class _Substitute(nodes.Transformer):
    def __init__(self, subs: dict[str, Any]):
        self.subs = subs

    def visit_Name(self, node: gast.Name) -> Any:
        if node.id not in self.subs:
            return node
        value = self.subs[node.id]
        if isinstance(value, list):
            return node
        if isinstance(value, str):
            return gast.Name(id=value, ctx=node.ctx, annotation=None, type_comment=None)
        value = copy.deepcopy(value)
        if isinstance(value, (gast.Name, gast.Tuple, gast.List, gast.Attribute, gast.Subscript)):
            _set_ctx(value, node.ctx)
        return value

    def visit_FunctionDef(self, node: gast.FunctionDef) -> Any:
        if node.name in self.subs and isinstance(self.subs[node.name], str):
            node.name = self.subs[node.name]
        self.generic_visit(node)
        node.body = self._splice(node.body)
        return node

    def generic_visit(self, node: Any) -> Any:
        super().generic_visit(node)
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                setattr(node, field, self._splice(stmts))
        return node

    def _splice(self, stmts: list[Any]) -> list[Any]:
        out: list[Any] = []
        for stmt in stmts:
            if (
                isinstance(stmt, gast.Expr)
                and isinstance(stmt.value, gast.Name)
                and isinstance(self.subs.get(stmt.value.id), list)
            ):
                out.extend(self.subs[stmt.value.id])  # spliced statements are used once: no copy
            elif isinstance(stmt, list):
                out.extend(stmt)
            else:
                out.append(stmt)
        return out


def _set_ctx(node: Any, ctx: Any) -> None:
    node.ctx = type(ctx)()
    if isinstance(node, (gast.Tuple, gast.List)):
        for elt in node.elts:
            _set_ctx(elt, ctx)


def quote(template: str, origin: Any = None, **subs: Any) -> list[Any]:
    """Statements parsed from ``template`` with ``subs`` substituted; see module docstring."""
    module = translate.parse(textwrap.dedent(template))
    for node in nodes.walk(module):
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = None
    body = [_Substitute(subs).visit(stmt) for stmt in module.body]
    for stmt in body:
        set_location(stmt, origin)
    return body


def quote_expr(template: str, origin: Any = None, **subs: Any) -> Any:
    """One expression parsed from ``template`` with ``subs`` substituted."""
    (stmt,) = quote(template, origin, **subs)
    return stmt.value
