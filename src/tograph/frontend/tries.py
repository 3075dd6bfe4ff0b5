"""The ``try`` statements tograph converts, and their blocks in source order.

Stage: frontend. Input: one ``try`` node of a parsed function. Output: ``refusal`` names what
keeps it from converting (or None); ``blocks`` lists its statement lists. A ``try`` converts as a
Python ``try`` in the lowered code (``lowering.tries``). A jump out of its ``finally`` (``return``,
or a ``break``/``continue`` of a loop around it), which discards the exception being raised, and a
name bound by ``except ... as name`` that the function uses outside its handler, which Python
unbinds at the handler's end, are refused; jumps out of the other blocks become flags
(``lowering.jumps``).
"""

from __future__ import annotations

from typing import Any

import gast

from tograph.frontend import nodes

_SCOPES = (gast.FunctionDef, gast.Lambda)


def blocks(node: Any) -> list[list[Any]]:
    """The statement lists of a ``try``: its body, each handler's, ``else`` and ``finally``."""
    return [node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody]


def refusal(node: Any, function: Any) -> tuple[str, Any] | None:
    """What in the ``try`` ``node`` of ``function`` cannot convert, and where; None if nothing."""
    for stmt in node.finalbody:
        jump = _jump_out(stmt, in_loop=False)
        if jump is not None:
            return f"{type(jump).__name__.lower()} inside finally", jump
    for handler in node.handlers:
        if handler.name is not None and _used_outside(handler, function):
            return (
                f"exception name '{handler.name.id}' used outside its except clause",
                handler,
            )
    return None


def _jump_out(node: Any, in_loop: bool) -> Any:
    """A ``return`` in ``node``, or a ``break``/``continue`` not inside a loop within it."""
    if isinstance(node, gast.Return) or (
        isinstance(node, (gast.Break, gast.Continue)) and not in_loop
    ):
        return node
    if isinstance(node, _SCOPES):
        return None
    inner = in_loop or isinstance(node, (gast.For, gast.While))
    for child in nodes.children(node):
        if isinstance(node, (gast.For, gast.While)) and child in node.orelse:
            found = _jump_out(child, in_loop)  # a loop's else is outside the loop
        else:
            found = _jump_out(child, inner)
        if found is not None:
            return found
    return None


def _used_outside(handler: Any, function: Any) -> bool:
    """Whether the name ``handler`` binds is read or bound anywhere in ``function`` but in the
    handlers binding that name (each an ``except ... as name`` of its own)."""
    name = handler.name.id
    binders = [
        h
        for h in nodes.walk(function)
        if isinstance(h, gast.ExceptHandler) and h.name is not None and h.name.id == name
    ]
    inside = {id(n) for h in binders for stmt in h.body for n in nodes.walk(stmt)}
    inside.update(id(h.name) for h in binders)
    return any(
        isinstance(n, gast.Name) and n.id == name and id(n) not in inside
        for n in nodes.walk(function)
    )
