"""Which names a piece of syntax reads and binds: the facts every analysis of a gast tree needs.

Stage: frontend. Input: gast nodes of one function. Output: sets of local names (``reads``,
``writes``, ``assigned``, ``targets``, ``captured``), a function's parameter names
(``params``) and the names it declares ``nonlocal`` (``nonlocals``). Nested
functions, lambdas and comprehensions are their own scopes: their bindings are not the
enclosing block's, but the names they read are read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import gast

from tograph.frontend import nodes, tries

# Methods that change a list, dict, set or deque in place.
CONTAINER_MUTATORS = frozenset(
    "append extend insert pop remove clear sort reverse update setdefault popitem add discard "
    "appendleft popleft extendleft rotate".split()
)

_SCOPES = (
    gast.FunctionDef,
    gast.Lambda,
    gast.ListComp,
    gast.SetComp,
    gast.DictComp,
    gast.GeneratorExp,
)


def reads(node: Any) -> set[str]:
    """Names loaded anywhere in ``node`` (nested scopes included: their free variables are read)."""
    return {
        n.id for n in nodes.walk(node) if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)
    }


def targets(target: Any) -> set[str]:
    if isinstance(target, gast.Name):
        return {target.id}
    if isinstance(target, (gast.Tuple, gast.List)):
        return set().union(*(targets(t) for t in target.elts)) if target.elts else set()
    if isinstance(target, gast.Starred):
        return targets(target.value)
    return set()  # attribute or subscript targets write no local name


def params(fn: Any) -> list[str]:
    """The parameter names of a ``def`` or ``lambda`` in order, ``*args`` and ``**kw`` included."""
    args = fn.args
    names = [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]
    return names + [a.id for a in (args.vararg, args.kwarg) if a is not None]


def writes(stmt: Any) -> set[str]:
    """Local names that ``stmt`` itself binds (not counting statements nested inside it)."""
    if isinstance(stmt, gast.Assign):
        return set().union(*(targets(t) for t in stmt.targets))
    if isinstance(stmt, (gast.AugAssign, gast.AnnAssign)):
        return targets(stmt.target)
    if isinstance(stmt, gast.For):
        return targets(stmt.target)
    if isinstance(stmt, (gast.FunctionDef, gast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (gast.Import, gast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    return set()


def _walk_scope(node: Any) -> list[Any]:
    """Nodes of ``node``, not descending into nested functions, lambdas or comprehensions."""
    out = [node]
    append = out.append
    for current in out:  # the list grows while it is read
        if isinstance(current, _SCOPES):
            continue
        for field in current._fields:  # nodes.children, inline: the analyses call this a lot
            value = getattr(current, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, gast.AST):
                        append(item)
            elif isinstance(value, gast.AST):
                append(value)
    return out


def assigned(stmts: Iterable[Any]) -> set[str]:
    """Every local name bound anywhere in ``stmts``, compound statements included, and by ``:=``
    in comprehensions (which binds in the enclosing function, PEP 572)."""
    out: set[str] = set()
    for stmt in stmts:
        out |= _bound_by(_walk_scope(stmt))
    return out


def function_locals(fn: Any, tree: list[Any]) -> set[str]:
    """The local names of ``fn``: its parameters and ``assigned(fn.body)``. ``tree`` holds every
    node of ``fn`` (``nodes.walk(fn)``); without nested scopes, and with no ``:=`` outside the
    body (a default value's binds in the enclosing function), the body's nodes are the tree's
    but ``fn``'s header, so no walk of the body's own is needed."""
    found = set(params(fn))
    body = tree[1:]
    if nodes.of_class(body, _SCOPES):
        return found | assigned(fn.body)
    header = nodes.walk(fn.args) + [n for d in fn.decorator_list for n in nodes.walk(d)]
    header += nodes.walk(fn.returns) if fn.returns is not None else []
    if any(isinstance(n, _BINDERS) for n in header):
        return found | assigned(fn.body)
    return found | _bound_by(nodes.of_class(body, _BINDERS))


def _bound_by(found: Iterable[Any]) -> set[str]:
    """The names the nodes ``found`` bind themselves (not counting nodes below them)."""
    out: set[str] = set()
    for node in found:
        if not isinstance(node, _BINDERS):  # one test for the many nodes that bind nothing
            continue
        if isinstance(node, gast.stmt):
            out |= writes(node)
        elif isinstance(node, gast.NamedExpr):
            out |= targets(node.target)
        elif isinstance(node, _COMPREHENSIONS):
            out |= _comprehension_walrus(node)
    return out


_COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_BINDERS = (gast.stmt, gast.NamedExpr, *_COMPREHENSIONS)


def _comprehension_walrus(node: Any) -> set[str]:
    """The names ``:=`` binds inside a comprehension (and comprehensions nested in it)."""
    out: set[str] = set()
    todo = nodes.children(node)
    while todo:
        current = todo.pop()
        if isinstance(current, gast.NamedExpr):
            out |= targets(current.target)
        if not isinstance(current, (gast.FunctionDef, gast.Lambda)):
            todo.extend(nodes.children(current))
    return out


def nonlocals(fn: Any) -> set[str]:
    """The names ``fn``'s own ``nonlocal`` statements declare (not those of functions in it)."""
    return {
        name
        for stmt in fn.body
        for node in _walk_scope(stmt)
        if isinstance(node, gast.Nonlocal)
        for name in node.names
    }


def captured(fn: Any) -> set[str]:
    """The local variables of ``fn`` that functions and lambdas nested in it read or declare
    ``nonlocal``: such a function sees (or sets) their values when it is called, which may be
    anywhere after."""
    found: set[str] = set()
    for node in _walk_scope_children(fn):
        if isinstance(node, gast.FunctionDef):
            shared = nonlocals(node)
            found |= (reads(node) - set(params(node)) - (assigned(node.body) - shared)) | shared
        elif isinstance(node, gast.Lambda) and not getattr(node, "called_at_once", False):
            found |= reads(node.body) - set(params(node))
    if not found:
        return found  # no nested function reads anything: the function's names need no walk
    return found & (assigned(fn.body) | set(params(fn)))


def _walk_scope_children(fn: Any) -> Iterable[Any]:
    """The nodes of ``fn``'s body, nested functions and lambdas included but not their insides."""
    for stmt in fn.body:
        yield from _walk_scope(stmt)


def control_statements(stmts: list[Any]) -> list[Any]:
    """The ``if``, ``while`` and ``for`` statements of ``stmts`` in source order (pre-order), not
    those of nested functions, those in ``try`` blocks included: the numbering that analysis and
    lowering share."""
    found: list[Any] = []
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.While, gast.For)):
            found.append(stmt)
            found.extend(control_statements(stmt.body))
            found.extend(control_statements(stmt.orelse))
        elif isinstance(stmt, gast.Try):
            for block in tries.blocks(stmt):
                found.extend(control_statements(block))
    return found
