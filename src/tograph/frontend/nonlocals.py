"""Where ``nonlocal`` converts exactly: nested functions that set the converted one's variables.

Stage: frontend (part of the fence). Input: a parsed function's tree. Output: the functions
defined at the top of its body that declare ``nonlocal`` names (``writers``), and ``problem``,
the first use of ``nonlocal`` that conversion could not keep exact.

A writer ``g`` sets variables of the converted function ``f`` through the cells they share.
Lowering turns ``f``'s branches and loop bodies into functions holding those variables as their
own locals, so every statement calling ``g`` copies the variables into the cells before the call
and back after it (``lowering.nonlocals``). That is exact only where each use of ``g`` is a call
made within its statement: ``g`` is never stored, returned, or handed to code that may call it
later, nor called from another nested function; it is not called from a loop or branch header;
and the statement calling it does not itself read or bind what ``g`` sets (Python would read the
value from before or after the call, depending on the order of evaluation).
"""

from __future__ import annotations

from typing import Any

import gast

from tograph.frontend import names, nodes

# Builtins that call a function given to them before they return (``key=`` or an argument),
# and those that drain an iterator given to them (``map``/``filter`` of ``g`` inside them).
_CALLERS = frozenset({"sorted", "min", "max", "map", "filter"})
_DRAINERS = frozenset({"list", "tuple", "set", "sum", "sorted", "min", "max", "any", "all"})
_SCOPES = (gast.FunctionDef, gast.Lambda)
_COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def writers(fn: gast.FunctionDef) -> dict[str, frozenset[str]]:
    """The functions defined at the top of ``fn``'s body that declare ``nonlocal`` names, each
    with those names."""
    return {
        stmt.name: frozenset(names.nonlocals(stmt))
        for stmt in fn.body
        if isinstance(stmt, gast.FunctionDef) and names.nonlocals(stmt)
    }


def problem(fn: gast.FunctionDef, tree: list[Any]) -> tuple[str, Any] | None:
    """The first use of ``nonlocal`` in ``fn`` (all of whose nodes are ``tree``) that conversion
    would not keep exact, as a reason and its node; None if there is none."""
    found = writers(fn)
    allowed = {
        id(node)
        for stmt in fn.body
        if isinstance(stmt, gast.FunctionDef) and stmt.name in found
        for node in nodes.walk(stmt)
        if isinstance(node, gast.Nonlocal) and _owner(stmt, node)
    }
    for node in tree:
        if isinstance(node, gast.Nonlocal) and id(node) not in allowed:
            return (
                "a nonlocal statement is supported only in a function defined at the top of "
                "the converted one, which sets that function's variables",
                node,
            )
    return _misused(fn, found)


def _owner(fn: gast.FunctionDef, target: Any) -> bool:
    """Whether ``target`` belongs to ``fn``'s own scope (not to a function nested in it)."""
    return any(target is node for stmt in fn.body for node in _scope_nodes(stmt))


def _scope_nodes(node: Any) -> list[Any]:
    out = [node]
    for current in out:
        if current is not node and isinstance(current, (*_SCOPES, gast.ClassDef)):
            continue
        out.extend(nodes.children(current))
    return out


def _misused(fn: gast.FunctionDef, found: dict[str, frozenset[str]]) -> tuple[str, Any] | None:
    bound_before: set[str] = set(names.params(fn))
    for stmt in fn.body:
        if isinstance(stmt, gast.FunctionDef) and stmt.name in found:
            unbound = sorted(found[stmt.name] - bound_before)
            if unbound:
                return f"nonlocal '{unbound[0]}' not bound before {stmt.name}() is defined", stmt
        bound_before |= names.assigned([stmt])
    statements = _statements(fn.body, False)
    defined = [s.name for s, _ in statements if isinstance(s, gast.FunctionDef)]
    twice = sorted(name for name in found if defined.count(name) > 1)
    if twice:
        return f"{twice[0]}(), which sets nonlocal variables, defined twice", fn
    for stmt, in_block in statements:
        reason = _statement_problem(stmt, in_block, found)
        if reason is not None:
            return reason, stmt
    return None


def _statements(stmts: list[Any], in_block: bool | None) -> list[tuple[Any, bool | None]]:
    """``stmts`` and the statements of their blocks (not those of nested functions), each with
    whether it stands in a loop or branch; None in another block (``try``, ``match``), around
    whose statements lowering makes no copies. A ``with np.errstate(...)`` block is flattened
    into the statements around it (``lowering.errstates``): its statements stand where it does."""
    out: list[tuple[Any, bool | None]] = []
    for stmt in stmts:
        out.append((stmt, in_block))
        if isinstance(stmt, (gast.FunctionDef, gast.ClassDef)):
            continue
        if isinstance(stmt, gast.With):
            out += _statements(stmt.body, in_block)
            continue
        inner = True if isinstance(stmt, (gast.If, gast.While, gast.For)) else None
        for value in (v for _, v in gast.iter_fields(stmt) if isinstance(v, list)):
            out += _statements(_block_statements(value), None if in_block is None else inner)
    return out


def _block_statements(items: list[Any]) -> list[Any]:
    """The statements of one list field of a statement: a block, or ``except`` handlers' and
    ``case`` clauses' blocks (none for a field of expressions)."""
    found = [item for item in items if isinstance(item, gast.stmt)]
    for item in items:
        body = None if isinstance(item, gast.stmt) else getattr(item, "body", None)
        if isinstance(body, list):
            found += [s for s in body if isinstance(s, gast.stmt)]
    return found


def _statement_problem(
    stmt: Any, in_block: bool | None, found: dict[str, frozenset[str]]
) -> str | None:
    if isinstance(stmt, gast.FunctionDef):
        used = names.reads(stmt) & set(found)
        if used:
            return f"{sorted(used)[0]}(), which sets nonlocal variables, used in another function"
        return None
    parts = _own_parts(stmt)
    parents: dict[int, Any] = {}
    for part in parts:
        for node in nodes.walk(part):
            for child in nodes.children(node):
                parents[id(child)] = node
    for part in parts:
        for node in nodes.walk(part):
            if isinstance(node, gast.Name) and node.id in found:
                reason = _use_problem(stmt, in_block, node, parents, found)
                if reason is not None:
                    return reason
    return None


def _own_parts(stmt: Any) -> list[Any]:
    """The parts of ``stmt`` that are not statements of its blocks (a loop's header, ...)."""
    return [
        value
        for field, value in gast.iter_fields(stmt)
        if field not in ("body", "orelse") and isinstance(value, gast.AST)
    ] + [
        item
        for field, value in gast.iter_fields(stmt)
        if field not in ("body", "orelse") and isinstance(value, list)
        for item in value
        if isinstance(item, gast.AST)
    ]


def _use_problem(
    stmt: Any,
    in_block: bool | None,
    name: gast.Name,
    parents: dict[int, Any],
    found: dict[str, frozenset[str]],
) -> str | None:
    """Why the use ``name`` of a writer in ``stmt`` is not exact, or None."""
    writer = name.id
    if not isinstance(name.ctx, gast.Load):
        return f"{writer}(), which sets nonlocal variables, bound again"
    if isinstance(stmt, (gast.If, gast.While, gast.For)):
        return f"{writer}(), which sets nonlocal variables, called in a loop or branch header"
    if in_block is None:
        return f"{writer}(), which sets nonlocal variables, called in a try or match block"
    # at the top of ``f`` its variables are the cells themselves; in a block, copies of them.
    # A comprehension may be built before its statement (``lowering.comprehensions``), which
    # then reads what ``g`` set inside it, even at the top, where eager read it before.
    touched = {n.id for n in nodes.walk(stmt) if isinstance(n, gast.Name)} & found[writer]
    if (in_block or _in_comprehension(name, parents)) and touched:
        return (
            f"a statement calling {writer}() also uses '{sorted(touched)[0]}', which "
            f"{writer}() sets"
        )
    node: Any = name
    parent = parents.get(id(node))
    while parent is not None and not isinstance(parent, gast.stmt):
        if isinstance(parent, _SCOPES):
            return f"{writer}(), which sets nonlocal variables, used in a nested function"
        if isinstance(parent, gast.GeneratorExp) and not _drained(parent, parents):
            return f"{writer}(), which sets nonlocal variables, called by a generator"
        node, parent = parent, parents.get(id(parent))
    if _called_at_once(name, parents):
        return None
    return f"{writer}(), which sets nonlocal variables, stored or passed on"


def _in_comprehension(name: gast.Name, parents: dict[int, Any]) -> bool:
    """Whether ``name`` stands inside a comprehension of its statement."""
    parent = parents.get(id(name))
    while parent is not None and not isinstance(parent, gast.stmt):
        if isinstance(parent, _COMPREHENSIONS):
            return True
        parent = parents.get(id(parent))
    return False


def _called_at_once(name: gast.Name, parents: dict[int, Any]) -> bool:
    """Whether ``name`` is called where it stands, or handed to a builtin that calls it before
    returning (``sorted(key=...)``, ``map``/``filter`` drained by ``list``, ``sum``, ...)."""
    parent = parents.get(id(name))
    if isinstance(parent, gast.Call) and parent.func is name:
        return True
    if isinstance(parent, gast.keyword) and parent.arg == "key":
        parent = parents.get(id(parent))
        return isinstance(parent, gast.Call) and _builtin(parent) in ("sorted", "min", "max")
    if not (isinstance(parent, gast.Call) and parent.args and parent.args[0] is name):
        return False
    called = _builtin(parent)
    if called in ("map", "filter"):
        return _drained(parent, parents)
    return False


def _drained(node: Any, parents: dict[int, Any]) -> bool:
    """Whether the iterator ``node`` makes is the first argument of a builtin that drains it."""
    parent = parents.get(id(node))
    return (
        isinstance(parent, gast.Call)
        and bool(parent.args)
        and parent.args[0] is node
        and _builtin(parent) in _DRAINERS
    )


def _builtin(call: gast.Call) -> str | None:
    """The name of the builtin ``call`` calls, if it is one that calls or drains (else None)."""
    func = call.func
    return func.id if isinstance(func, gast.Name) and func.id in _CALLERS | _DRAINERS else None
