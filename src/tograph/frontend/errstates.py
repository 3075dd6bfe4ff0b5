"""Which ``with`` statements convert: ``with np.errstate(...):`` around code that leaves at its end.

Stage: frontend (part of the fence). Input: a ``with`` statement. Output: None if lowering can
flatten it into the region's opening, its body and its closing (``lowering.errstates``), else
the reason it cannot. The callee is checked when the graph is built (``staging.errstates``):
here only its shape, ``<name>.errstate(keywords)`` or ``errstate(keywords)``, with no ``as``.
"""

from __future__ import annotations

from typing import Any

import gast

_NESTED = (gast.FunctionDef, gast.Lambda, gast.ClassDef)


def is_errstate(node: gast.With) -> bool:
    """Whether ``node`` reads ``with <name>.errstate(keywords):`` (one item, no ``as``)."""
    if len(node.items) != 1 or node.items[0].optional_vars is not None:
        return False
    call = node.items[0].context_expr
    if not isinstance(call, gast.Call) or call.args:
        return False
    func = call.func
    if isinstance(func, gast.Attribute):
        return func.attr == "errstate" and isinstance(func.value, gast.Name)
    return isinstance(func, gast.Name) and func.id == "errstate"


def refusal(node: gast.With) -> str | None:
    """Why the ``with`` statement ``node`` does not convert, or None if it does."""
    if not is_errstate(node):
        return "with statement (of the with statements only np.errstate(...) converts)"
    if _leaves(node.body, in_loop=False):
        return "return, break or continue leaving a with np.errstate(...) block"
    return None


def _leaves(stmts: list[Any], in_loop: bool) -> bool:
    """Whether a statement of ``stmts`` (or one nested in them) jumps out of them; ``in_loop``:
    they are inside a loop of the block, which its ``break`` and ``continue`` stay in."""
    for stmt in stmts:
        if isinstance(stmt, gast.Return) or (
            not in_loop and isinstance(stmt, (gast.Break, gast.Continue))
        ):
            return True
        if isinstance(stmt, _NESTED):
            continue
        for field, value in gast.iter_fields(stmt):
            if not isinstance(value, list):
                continue
            inner = [s for s in value if isinstance(s, gast.stmt)]
            inner += [s for h in value if isinstance(h, gast.AST) for s in _bodies(h)]
            looped = in_loop or (isinstance(stmt, (gast.For, gast.While)) and field == "body")
            if inner and _leaves(inner, looped):
                return True
    return False


def _bodies(node: gast.AST) -> list[Any]:
    """The statements of an ``except`` handler or ``case`` (not themselves statements)."""
    body = getattr(node, "body", None)
    if isinstance(node, gast.stmt) or not isinstance(body, list):
        return []
    return body
