"""Walking gast trees: every node of a tree, as a list, in ``gast.walk``'s order.

Stage: frontend. Input: a gast (or ast) node. Output: ``walk`` gives the node and all nodes below
it breadth first, children in field order (what ``gast.walk`` yields, as one list); ``children``
gives a node's direct children (``gast.iter_child_nodes``); ``walk_structure`` also records
every field's value, so that ``same_structure`` can tell later whether rewrites in place changed
anything at all; ``of_class`` picks a walked list's nodes of some classes. ``Transformer`` is
``gast.NodeTransformer`` with the same results, dispatching through a table of visitor methods
per class. All read the fields directly rather than through generators: the conversion walks
trees many times, and on long functions the generator machinery of ``ast`` was a large part of
its cost.
"""

from __future__ import annotations

import ast
import itertools
import operator
from typing import Any

import gast

_AST = ast.AST


def walk(root: Any) -> list[Any]:
    """``root`` and every node below it, in the order ``gast.walk(root)`` yields them."""
    out = [root]
    append = out.append
    for node in out:  # the list grows while it is read: breadth first
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, _AST):
                        append(item)
            elif isinstance(value, _AST):
                append(value)
    return out


def of_class(walked: list[Any], classes: tuple[type, ...]) -> list[Any]:
    """The nodes of ``walked`` that are instances of ``classes``, in order. The class test is made
    once per class present, and the list is filtered at C speed: the analyses pick a few kinds
    of node out of every node of a function, where a test per node was much of their time."""
    kinds = set(map(type, walked))
    wanted = {kind for kind in kinds if issubclass(kind, classes)}
    if wanted == kinds:
        return list(walked)
    return list(itertools.compress(walked, map(wanted.__contains__, map(type, walked))))


def walk_structure(root: Any) -> tuple[list[Any], list[Any]]:
    """``walk(root)`` and the tree's structure: the value of each field of each node, in walk's
    order, a list's items between two markers. A tree whose structure holds, item for item, the
    very same objects is the same tree: a node, list item or value replaced in place shows."""
    out = [root]
    append = out.append
    structure: list[Any] = []
    record, extend = structure.append, structure.extend
    for node in out:
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                record(_LIST)
                extend(value)
                record(_END)
                for item in value:
                    if isinstance(item, _AST):
                        append(item)
            else:
                record(value)
                if isinstance(value, _AST):
                    append(value)
    return out, structure


# Around a list field's items in a structure, so that an item moved between lists shows.
_LIST, _END = object(), object()


def same_structure(root: Any, structure: list[Any]) -> bool:
    """Whether ``root``'s tree is, object for object, the one ``structure`` was recorded from
    (``walk_structure``): no rewrite since has added, removed, moved or replaced anything."""
    now = walk_structure(root)[1]
    return len(now) == len(structure) and all(map(operator.is_, now, structure))


def children(node: Any) -> list[Any]:
    """The direct children of ``node``, in the order ``gast.iter_child_nodes(node)`` yields them."""
    out = []
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            out.extend(item for item in value if isinstance(item, _AST))
        elif isinstance(value, _AST):
            out.append(value)
    return out


class Transformer(gast.NodeTransformer):
    """``gast.NodeTransformer``, faster: ``visit`` finds ``visit_<Class>`` in a table kept per
    transformer class, and ``generic_visit`` reads the fields without ``ast.iter_fields``. What a
    visitor returns means what it means there: a node replaces, None deletes, a list splices."""

    def visit(self, node: Any) -> Any:
        """Calls ``visit_<Class>`` for ``node``'s class if this transformer has one, else
        ``generic_visit``."""
        kind = node.__class__
        table = _visitor_tables.get(type(self))
        if table is None:
            table = _visitor_tables[type(self)] = {}
        try:
            method = table[kind]
        except KeyError:
            method = table[kind] = _visitor(type(self), kind)
        if method is None:
            return self.generic_visit(node)
        if method is _UNCHANGED:
            return node
        return method(self, node)

    def generic_visit(self, node: Any) -> Any:
        """Visits ``node``'s children, putting what each visit returns in its place."""
        for field in node._fields:
            try:
                old = getattr(node, field)
            except AttributeError:
                continue
            if isinstance(old, list):
                new: list[Any] = []
                for value in old:
                    if isinstance(value, _AST):
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, _AST):
                            new.extend(value)
                            continue
                    new.append(value)
                old[:] = new
            elif isinstance(old, _AST):
                replacement = self.visit(old)
                if replacement is None:
                    delattr(node, field)
                else:
                    setattr(node, field, replacement)
        return node


# For each transformer class, its visitor method by node class (None: generic_visit).
_visitor_tables: dict[type, dict[type, Any]] = {}
# In a table: the node is its own result (a leaf, such as ``Load`` or ``Add``, that the
# transformer neither visits nor has its own generic_visit for).
_UNCHANGED = object()


def _visitor(transformer: type, kind: type) -> Any:
    """What ``transformer`` does with a node of class ``kind``: its ``visit_<Class>``, else
    None (``generic_visit``), or ``_UNCHANGED`` where that is all ``generic_visit`` would do
    (a leaf, a constant), or ``_visit_name`` for a name whose context the transformer leaves."""
    method = visitor_method(transformer, kind)
    if method is not None or transformer.generic_visit is not Transformer.generic_visit:
        return method
    if not kind._fields or kind is gast.Constant:  # no field of a constant holds a node
        return _UNCHANGED
    if kind is gast.Name and all(_visitor(transformer, c) is _UNCHANGED for c in _CONTEXTS):
        return _visit_name
    return None


_CONTEXTS = (gast.Load, gast.Store, gast.Del, gast.Param)


def _visit_name(transformer: Transformer, node: Any) -> Any:
    """``generic_visit`` of a name, whose context the transformer leaves as it is: only an
    annotation (a parameter's) may hold nodes to visit. Names are the commonest nodes."""
    if getattr(node, "annotation", None) is None:
        return node
    return transformer.generic_visit(node)


_DEPRECATED_CONSTANTS = ("visit_Num", "visit_Str", "visit_Bytes", "visit_NameConstant")
_DEPRECATED_CONSTANTS += ("visit_Ellipsis",)


def visitor_method(visitor: type, kind: type) -> Any:
    """The ``visit_<Class>`` method of the ``ast.NodeVisitor`` class ``visitor`` for nodes of
    class ``kind``; None where visiting is ``generic_visit`` (``ast.NodeVisitor.visit_Constant``
    is, unless a deprecated constant visitor such as ``visit_Num`` is defined)."""
    method = getattr(visitor, "visit_" + kind.__name__, None)
    if method is getattr(ast.NodeVisitor, "visit_Constant", None) and not any(
        hasattr(visitor, name) for name in _DEPRECATED_CONSTANTS
    ):
        return None
    return method
