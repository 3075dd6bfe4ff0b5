"""Which variables a statement reads and writes, and which are live after it.

Input: gast statements of one function whose ``break``/``continue``/``return`` inside control flow
have already been turned into flags (``lowering.jumps``), so control only flows forward or around
loops. Output: ``annotate`` stores on every ``if``/``while``/``for`` node the set of variables live
after it (``node.live_out``) and returns the variables live at entry. Lowering uses these sets to
choose branch outputs and loop-carried variables: a variable is carried only if it is written in
the loop and live at the loop header or after the loop.
"""

from __future__ import annotations

from typing import Any, Iterable

import gast

_SCOPES = (gast.FunctionDef, gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def reads(node: Any) -> set[str]:
    """Names loaded anywhere in ``node`` (nested scopes included: their free variables are read)."""
    return {n.id for n in gast.walk(node) if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}


def targets(target: Any) -> set[str]:
    if isinstance(target, gast.Name):
        return {target.id}
    if isinstance(target, (gast.Tuple, gast.List)):
        return set().union(*(targets(t) for t in target.elts)) if target.elts else set()
    if isinstance(target, gast.Starred):
        return targets(target.value)
    return set()  # attribute or subscript targets write no local name


def params(fn: Any) -> list[str]:
    """The parameter names of a ``def`` or ``lambda``, in order (``*args`` and ``**kw`` included)."""
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


def _walk_scope(node: Any) -> Iterable[Any]:
    """Nodes of ``node``, not descending into nested functions, lambdas or comprehensions."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        if not isinstance(current, _SCOPES):
            todo.extend(gast.iter_child_nodes(current))


def assigned(stmts: Iterable[Any]) -> set[str]:
    """Every local name bound anywhere in ``stmts``, compound statements included."""
    out: set[str] = set()
    for stmt in stmts:
        for node in _walk_scope(stmt):
            if isinstance(node, gast.stmt):
                out |= writes(node)
            elif isinstance(node, gast.NamedExpr):
                out |= targets(node.target)
    return out


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


def _block(stmts: list[Any], live_out: set[str], annotate_: bool) -> set[str]:
    return annotate(stmts, live_out) if annotate_ else live_in(stmts, live_out)


def _stmt(stmt: Any, live: set[str], annotate: bool) -> set[str]:
    if isinstance(stmt, gast.If):
        if annotate:
            stmt.live_out = set(live)
        return reads(stmt.test) | _block(stmt.body, live, annotate) | _block(stmt.orelse, live, annotate)
    if isinstance(stmt, gast.While):
        return _while(stmt, live, annotate)
    if isinstance(stmt, gast.For):
        return _for(stmt, live, annotate)
    if isinstance(stmt, (gast.Return, gast.Raise)):
        return reads(stmt)
    if isinstance(stmt, gast.AugAssign):
        return live | reads(stmt) | targets(stmt.target)
    if isinstance(stmt, gast.FunctionDef):
        return (live - {stmt.name}) | reads(stmt)
    return (live - writes(stmt)) | reads(stmt)


def _while(stmt: gast.While, live: set[str], annotate: bool) -> set[str]:
    # Liveness is distributive, so the loop's fixed point needs no iteration: what is live at the
    # header is what is live at the exit plus what the body reads before writing.
    exit_live = live_in(stmt.orelse, live) | reads(stmt.test)
    header = exit_live | live_in(stmt.body, set())
    if annotate:
        _annotate_loop(stmt, live, header)
    return header


def _for(stmt: gast.For, live: set[str], annotate: bool) -> set[str]:
    extra_test = getattr(stmt, "extra_test", None)  # the break/return test added by lowering.jumps
    exit_live = live_in(stmt.orelse, live) | (reads(extra_test) if extra_test is not None else set())
    header = exit_live | (live_in(stmt.body, set()) - targets(stmt.target))
    if annotate:
        _annotate_loop(stmt, live, header)
    return header | reads(stmt.iter)


def _annotate_loop(stmt: Any, live: set[str], header: set[str]) -> None:
    stmt.live_out = set(live)
    stmt.live_header = set(header)
    annotate(stmt.body, header)
    annotate(stmt.orelse, live)
