"""Translating trees between Python's ``ast`` and ``gast``: gast's own translators, made faster.

Stage: frontend. Input: an ``ast`` tree (``to_gast``, ``parse``) or a gast tree (``to_ast``).
Output: the same tree as gast's ``ast_to_gast`` / ``gast_to_ast`` make it, node for node. The
translators are gast's (``gast.ast3``), whose methods for the nodes that differ between the two
forms are kept; only the generic part, which every other node goes through, is replaced: the
method for a node's class is found in a table, and each class's nodes are copied by a function
generated for its fields. ``parse`` goes further: the tree it translates is its own, fresh from
``ast.parse``, so each node that has fields becomes its gast twin in place (its class changed,
its children translated), where a copy would be made; the nodes without fields (contexts and
operators, which ``ast.parse`` shares between trees) are copied as before.
Conversion parses every function and compiles every lowered one, so on long functions the
translation was a large share of the time.
"""

from __future__ import annotations

import ast
from typing import Any

import gast
from gast import ast3

from tograph.frontend import nodes

_AST = ast.AST


class _Fast:
    """The generic part of gast's translators (``gast.astn``), with the same results."""

    target: Any  # the module whose node classes the translation makes
    methods: dict[type, Any]  # node class -> the translator's method for it (None: generic)
    copies: dict[type, Any]  # node class -> its generated copier (``_copier``)

    def visit(self, node: Any) -> Any:
        kind = node.__class__
        try:
            method = self.methods[kind]
        except KeyError:
            method = self.methods[kind] = nodes.visitor_method(type(self), kind)
        if method is None:
            return self.generic_visit(node)
        return method(self, node)

    def _visit(self, node: Any) -> Any:
        if isinstance(node, _AST):
            return self.visit(node)
        if isinstance(node, list):
            return [self._visit(n) for n in node]
        return node

    def generic_visit(self, node: Any) -> Any:
        kind = node.__class__
        try:
            copy = self.copies[kind]
        except KeyError:
            copy = self.copies[kind] = _copier(kind, getattr(self.target, kind.__name__, None))
        return copy(self, node)


def _copier(kind: type, cls: Any) -> Any:
    """A function ``copy(translator, node)`` for nodes of class ``kind``: a new node of class
    ``cls`` (None: the node is dropped) whose fields are the node's translated and whose
    location attributes are the node's, each only where the node has it. Generated per class,
    field by field: the generic loop over ``_fields`` was most of the translation's time."""
    if cls is None:
        return lambda translator, node: None
    lines = [
        "def copy(translator, node):",
        "    new = _new(_cls)",
        "    into = new.__dict__",
    ]
    for field in kind._fields:
        lines += [
            f"    value = _getattr(node, {field!r}, _MISSING)",
            "    if value is not _MISSING:",
            "        if isinstance(value, _AST):",
            "            value = translator.visit(value)",
            "        elif isinstance(value, list):",
            "            value = [translator._visit(item) for item in value]",
            f"        into[{field!r}] = value",
        ]
    for attribute in kind._attributes:
        lines += [
            f"    value = _getattr(node, {attribute!r}, _MISSING)",
            "    if value is not _MISSING:",
            f"        into[{attribute!r}] = value",
        ]
    lines.append("    return new")
    namespace = {"_new": cls.__new__, "_cls": cls, "_getattr": getattr, "_MISSING": _MISSING}
    namespace["_AST"] = _AST
    exec("\n".join(lines), namespace)  # noqa: S102 - generated above from the node's fields
    return namespace["copy"]


class _ToGast(_Fast, ast3.Ast3ToGAst):
    target = gast
    methods: dict[type, Any] = {}
    copies: dict[type, Any] = {}

    def visit_Name(self, node: Any) -> Any:
        """A name (the most common node) as gast has it: with no annotation or type comment."""
        new = _new_gast_name(gast.Name)
        into = new.__dict__
        into["id"], into["ctx"] = node.id, self.visit(node.ctx)
        into["annotation"] = into["type_comment"] = None
        _copy_location(node, into)
        return new


class _ToAst(_Fast, ast3.GAstToAst3):
    target = ast
    methods: dict[type, Any] = {}
    copies: dict[type, Any] = {}

    def visit_Name(self, node: Any) -> Any:
        """A name as ``ast`` has it: its id and context only."""
        new = _new_ast_name(ast.Name)
        into = new.__dict__
        into["id"], into["ctx"] = node.id, self.visit(node.ctx)
        _copy_location(node, into)
        return new

    def visit_Assign(self, node: Any) -> Any:
        """An assignment as ``ast`` has it (gast's method, without the constructor's call)."""
        new = _new_ast_assign(ast.Assign)
        into = new.__dict__
        into["targets"] = [self._visit(target) for target in node.targets]
        into["value"] = self._visit(node.value)
        _copy_location(node, into)
        return new


class _ToGastInPlace(_ToGast):
    """``_ToGast`` for a tree no one else holds: nodes with fields are turned into gast nodes in
    place (see module docstring)."""

    methods: dict[type, Any] = {}
    copies: dict[type, Any] = {}

    def generic_visit(self, node: Any) -> Any:
        kind = node.__class__
        try:
            convert = self.copies[kind]
        except KeyError:
            target = getattr(gast, kind.__name__, None)
            make = _in_place if kind._fields and target is not None else _copier
            convert = self.copies[kind] = make(kind, target)
        return convert(self, node)

    def visit_Name(self, node: Any) -> Any:
        """A name as gast has it, in place: a context of its own, no annotation or comment."""
        node.__class__ = gast.Name
        node.ctx = self.visit(node.ctx)
        node.annotation = node.type_comment = None
        return node


def _in_place(kind: type, cls: Any) -> Any:
    """A function ``convert(translator, node)`` for nodes of class ``kind`` that makes ``node``
    a node of class ``cls`` and translates its fields in place (``_copier``'s result, without the
    copy)."""
    lines = ["def convert(translator, node):", "    node.__class__ = _cls"]
    for field in kind._fields:
        lines += [
            f"    value = _getattr(node, {field!r}, None)",
            "    if isinstance(value, _AST):",
            f"        node.{field} = translator.visit(value)",
            "    elif isinstance(value, list):",
            f"        node.{field} = [translator._visit(item) for item in value]",
        ]
    lines.append("    return node")
    namespace = {"_cls": cls, "_getattr": getattr, "_AST": _AST}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated above from the node's fields
    return namespace["convert"]


_new_gast_name, _new_ast_name, _new_ast_assign = (
    gast.Name.__new__,
    ast.Name.__new__,
    ast.Assign.__new__,
)


def _copy_location(node: Any, into: dict[str, Any]) -> None:
    """Puts in ``into`` the location ``ast.copy_location`` copies from ``node``: line and column
    where they are set, the end line and column where present (even as None)."""
    value = getattr(node, "lineno", None)
    if value is not None:
        into["lineno"] = value
    value = getattr(node, "col_offset", None)
    if value is not None:
        into["col_offset"] = value
    value = getattr(node, "end_lineno", _MISSING)
    if value is not _MISSING:
        into["end_lineno"] = value
    value = getattr(node, "end_col_offset", _MISSING)
    if value is not _MISSING:
        into["end_col_offset"] = value


_MISSING = object()


def to_gast(tree: Any) -> Any:
    """``gast.ast_to_gast(tree)``."""
    return _ToGast().visit(tree)


def to_ast(tree: Any) -> Any:
    """``gast.gast_to_ast(tree)``."""
    return _ToAst().visit(tree)


def parse(source: str) -> Any:
    """``gast.parse(source)``: the source's module as a gast tree."""
    return _ToGastInPlace().visit(ast.parse(source))
