"""Calls of functions that set ``nonlocal`` variables: the values copied into the cells and back.

Stage: lowering, after the jumps (``lowering.jumps``) and before SSA. Input: a function whose
fence (``frontend.nonlocals``) allowed its ``nonlocal`` uses. Output: the same function in which
every statement using such a function ``g`` is preceded by ``_t.store_cells(g, names, values)``
and followed by ``names = _t.load_cells(g, names)`` (but at the top of the function, where a
statement using ``g`` also reads or binds what ``g`` sets: the variables are the cells there).
Control-flow lowering makes branches and loop bodies functions of their own that hold ``f``'s
variables as locals; the copies give ``g`` the block's current values and give the block what
``g`` set, so the analyses see the call as the read and write it is (the variables become
branch outputs and loop carries).
"""

from __future__ import annotations

from typing import Any

import gast

from tograph.frontend import names, nonlocals
from tograph.lowering import templates
from tograph.lowering.canonicalize import RUNTIME


def copy_around_calls(fn: gast.FunctionDef) -> None:
    """Brackets, in place, each statement of ``fn`` that uses a function of it setting
    ``nonlocal`` variables with the copies into that function's cells and back."""
    setters = nonlocals.writers(fn)
    if setters:
        fn.body = _block(fn.body, setters, False)


def _block(stmts: list[Any], setters: dict[str, frozenset[str]], in_block: bool) -> list[Any]:
    out: list[Any] = []
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.While, gast.For)):
            stmt.body = _block(stmt.body, setters, True)
            stmt.orelse = _block(stmt.orelse, setters, True)
            out.append(stmt)
            continue
        used = sorted(names.reads(stmt) & set(setters))
        if isinstance(stmt, gast.FunctionDef):
            used = []
        if not in_block and any(setters[name] & _names(stmt) for name in used):
            # at the top of the function its variables are the cells themselves: no copies,
            # which would take the place of what the statement reads or binds itself
            used = []
        for name in used:
            shared = sorted(setters[name])
            out += templates.quote(
                f"{RUNTIME}.store_cells({name}, cells, values)",
                stmt,
                cells=templates.strings_tuple(shared),
                values=templates.names_tuple(shared),
            )
        out.append(stmt)
        if isinstance(stmt, gast.Return):
            continue
        for name in used:
            shared = sorted(setters[name])
            out += templates.quote(
                f"values = {RUNTIME}.load_cells({name}, cells)",
                stmt,
                cells=templates.strings_tuple(shared),
                values=templates.names_tuple(shared, store=True),
            )
    return out


def _names(stmt: Any) -> set[str]:
    return {n.id for n in gast.walk(stmt) if isinstance(n, gast.Name)}
