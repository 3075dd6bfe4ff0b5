"""Translating trees between Python's ``ast`` and ``gast``: gast's own translators, made faster.

Stage: frontend. Input: an ``ast`` tree (``to_gast``, ``parse``) or a gast tree (``to_ast``).
Output: the same tree as gast's ``ast_to_gast`` / ``gast_to_ast`` make it, node for node. The
translators are gast's (``gast.ast3``), whose methods for the nodes that differ between the two
forms are kept; only the generic part, which every other node goes through, is replaced: the
method for a node's class is found in a table, and the fields are read without generators.
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
    classes: dict[type, Any]  # node class -> the target's class of that name (None: dropped)
    methods: dict[type, Any]  # node class -> the translator's method for it (None: generic)

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
            cls = self.classes[kind]
        except KeyError:
            cls = self.classes[kind] = getattr(self.target, kind.__name__, None)
        if cls is None:
            return None  # a node that is not part of the other form
        fields = {}
        for field in node._fields:
            try:
                value = getattr(node, field)
            except AttributeError:
                continue
            if isinstance(value, _AST):
                value = self.visit(value)
            elif isinstance(value, list):
                value = [self._visit(item) for item in value]
            fields[field] = value
        located = {}
        for attribute in node._attributes:
            try:
                located[attribute] = getattr(node, attribute)
            except AttributeError:
                pass
        return self.make(cls, fields, located)

    def make(self, cls: Any, fields: dict[str, Any], located: dict[str, Any]) -> Any:
        """A new node of class ``cls``: ``cls(**fields)``, then the ``located`` attributes set
        (an ``ast`` node's constructor takes them as keywords too)."""
        return cls(**fields, **located)


class _ToGast(_Fast, ast3.Ast3ToGAst):
    target = gast
    classes: dict[type, Any] = {}
    methods: dict[type, Any] = {}

    def make(self, cls: Any, fields: dict[str, Any], located: dict[str, Any]) -> Any:
        """The same node without the calls: a gast node's constructor puts its keyword fields
        in the instance's dict and does nothing else, and its attributes are plain too."""
        new = cls.__new__(cls)
        new.__dict__.update(fields)
        new.__dict__.update(located)
        return new

    def visit_Name(self, node: Any) -> Any:
        """A name (the most common node) as gast has it: with no annotation or type comment."""
        fields = {"id": node.id, "ctx": self._visit(node.ctx), "annotation": None}
        fields["type_comment"] = None
        return self.make(gast.Name, fields, _location(node))


class _ToAst(_Fast, ast3.GAstToAst3):
    target = ast
    classes: dict[type, Any] = {}
    methods: dict[type, Any] = {}

    def visit_Name(self, node: Any) -> Any:
        """A name as ``ast`` has it: its id and context only."""
        return self.make(ast.Name, {"id": node.id, "ctx": self._visit(node.ctx)}, _location(node))


def _location(node: Any) -> dict[str, Any]:
    """The location ``ast.copy_location`` copies from a name: line and column where they are
    set, the end line and column where present (even as None)."""
    located = {}
    for attribute in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        value = getattr(node, attribute, _MISSING)
        if value is not _MISSING and (value is not None or attribute.startswith("end_")):
            located[attribute] = value
    return located


_MISSING = object()


def to_gast(tree: Any) -> Any:
    """``gast.ast_to_gast(tree)``."""
    return _ToGast().visit(tree)


def to_ast(tree: Any) -> Any:
    """``gast.gast_to_ast(tree)``."""
    return _ToAst().visit(tree)


def parse(source: str) -> Any:
    """``gast.parse(source)``: the source's module as a gast tree."""
    return to_gast(ast.parse(source))
