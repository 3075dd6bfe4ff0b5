"""Which variables a statement reads and writes, and which are live after it.

Input: gast statements of one function whose ``break``/``continue``/``return`` inside control flow
have already been turned into flags (``lowering.jumps``), so control only flows forward or around
loops. Output: ``annotate`` stores on every ``if``/``while``/``for`` node the set of variables live
after it (``node.live_out``), on an ``if`` also those live at the start of either branch
(``node.live_in_branches``), and returns the variables live at entry. Lowering uses these sets to
choose branch outputs and loop-carried variables: a variable is carried only if it is written in
the loop and live at the loop header or after the loop. In a ``try`` body, what the handlers and
the ``finally`` read is live after every statement, at any depth (an exception may come anywhere).
"""

from __future__ import annotations

from typing import Any

import gast

from tograph.frontend import names


def live_in(stmts: list[Any], live_out: set[str]) -> set[str]:
    """Variables live before ``stmts`` given those live after (no annotation)."""
    live = set(live_out)
    for stmt in reversed(stmts):
        live = _stmt(stmt, live, annotate=False)
    return live


def annotate(stmts: list[Any], live_out: set[str]) -> set[str]:
    """Like ``live_in``, and stores ``live_out`` on every compound statement inside ``stmts``."""
    live = set(live_out)
    for stmt in reversed(stmts):
        live = _stmt(stmt, live, annotate=True)
    return live


def annotate_function(fn: gast.FunctionDef) -> None:
    """``annotate`` of ``fn``'s body, where the variables that nested functions read
    (``names.captured``) are live everywhere: such a function may be called at any later point
    and sees their values then; so are the variables ``fn`` declares ``nonlocal``, which its
    caller sees. A function without control statements has nothing to annotate (nested
    functions are annotated on their own)."""
    controls = names.control_statements(fn.body)
    if not controls:
        return
    shared = names.nonlocals(fn)
    annotate(fn.body, shared)
    captured = names.captured(fn) | shared
    if not captured:
        return
    for stmt in controls:
        stmt.live_out |= captured
        for extra in ("live_in_branches", "live_header"):
            if hasattr(stmt, extra):
                getattr(stmt, extra).update(captured)


def _block(stmts: list[Any], live_out: set[str], annotate_: bool) -> set[str]:
    return annotate(stmts, live_out) if annotate_ else live_in(stmts, live_out)


def _stmt(stmt: Any, live: set[str], annotate: bool) -> set[str]:
    if isinstance(stmt, gast.If):
        body, orelse = _block(stmt.body, live, annotate), _block(stmt.orelse, live, annotate)
        if annotate:
            stmt.live_out = set(live)
            stmt.live_in_branches = body | orelse
        return names.reads(stmt.test) | body | orelse
    if isinstance(stmt, gast.While):
        return _while(stmt, live, annotate)
    if isinstance(stmt, gast.For):
        return _for(stmt, live, annotate)
    if isinstance(stmt, gast.Try):
        return _try(stmt, live, annotate)
    if isinstance(stmt, (gast.Return, gast.Raise)):
        return names.reads(stmt)
    if isinstance(stmt, gast.AugAssign):
        return live | names.reads(stmt) | names.targets(stmt.target)
    if isinstance(stmt, gast.FunctionDef):
        return (live - {stmt.name}) | names.reads(stmt)
    return (live - names.writes(stmt)) | names.reads(stmt)


def _while(stmt: gast.While, live: set[str], annotate: bool) -> set[str]:
    # Liveness is distributive, so the loop's fixed point needs no iteration: what is live at the
    # header is what is live at the exit plus what the body reads before writing.
    exit_live = live_in(stmt.orelse, live) | names.reads(stmt.test)
    header = exit_live | live_in(stmt.body, set())
    if annotate:
        _annotate_loop(stmt, live, header)
    return header


def _for(stmt: gast.For, live: set[str], annotate: bool) -> set[str]:
    extra_test = getattr(stmt, "extra_test", None)  # the break/return test added by lowering.jumps
    exit_live = live_in(stmt.orelse, live) | (
        names.reads(extra_test) if extra_test is not None else set()
    )
    header = exit_live | (live_in(stmt.body, set()) - names.targets(stmt.target))
    if annotate:
        _annotate_loop(stmt, live, header)
    return header | names.reads(stmt.iter)


def _try(stmt: gast.Try, live: set[str], annotate: bool) -> set[str]:
    # A handler (or the finally, when nothing catches) may start after any statement of the body,
    # at any depth: what they read is live all through the body, and at its start.
    final = _block(stmt.finalbody, live, annotate)
    after_else = _block(stmt.orelse, final, annotate)
    escape = set(final)
    for handler in stmt.handlers:
        caught = _block(handler.body, final, annotate)
        if handler.name is not None:
            caught.discard(handler.name.id)
        escape |= caught | (names.reads(handler.type) if handler.type is not None else set())
    body = _block(stmt.body, after_else | escape, annotate)
    if annotate:
        for inner in _controls_within(stmt.body):
            inner.live_out |= escape
            for extra in ("live_in_branches", "live_header"):
                if hasattr(inner, extra):
                    getattr(inner, extra).update(escape)
    return body | escape


def _controls_within(stmts: list[Any]) -> list[Any]:
    """The ``if``/``while``/``for`` statements at any depth of ``stmts``, not in nested
    functions (whose names are their own)."""
    found: list[Any] = []
    todo = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, (gast.FunctionDef, gast.Lambda)):
            continue
        if isinstance(node, (gast.If, gast.While, gast.For)):
            found.append(node)
        todo.extend(c for c in gast.iter_child_nodes(node) if isinstance(c, gast.stmt))
        if isinstance(node, gast.Try):
            todo.extend(s for h in node.handlers for s in h.body)
    return found


def _annotate_loop(stmt: Any, live: set[str], header: set[str]) -> None:
    stmt.live_out = set(live)
    stmt.live_header = set(header)
    annotate(stmt.body, header)
    annotate(stmt.orelse, live)
