"""Shrinking a failing program to a small one that fails the same way.

Greedy, statement by statement, in the style of delta debugging: in ``f``'s body it tries deleting
each statement, replacing an ``if``/``while``/``for``/``try`` by its body, dropping an ``else``, and
dropping values from a ``return``; an edit is kept when the program still fails the same way
(the caller's ``still_fails``). Passes repeat until none changes the program or time runs out.
"""

from __future__ import annotations

import ast
import time
from collections.abc import Callable, Iterator

_COMPOUND = (ast.If, ast.While, ast.For, ast.Try)


def _function(tree: ast.Module) -> ast.FunctionDef:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "f":
            return node
    raise ValueError("the program has no function f")


def _statements(fn: ast.FunctionDef) -> list[tuple[list[ast.stmt], int]]:
    """Every statement of ``fn``'s body, nested ones included, as (its block, its position),
    in source order (a statement before the statements inside it)."""
    found: list[tuple[list[ast.stmt], int]] = []

    def walk(block: list[ast.stmt]) -> None:
        for position, stmt in enumerate(block):
            found.append((block, position))
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner:
                    walk(inner)

    walk(fn.body)
    return found


def _edit(source: str, index: int, action: str) -> str | None:
    """``source`` with ``action`` applied to statement ``index`` of ``f``, or None if the
    action does not apply there."""
    tree = ast.parse(source)
    statements = _statements(_function(tree))
    if index >= len(statements):
        return None
    block, position = statements[index]
    stmt = block[position]
    if action == "delete":
        del block[position]
    elif action == "unwrap" and isinstance(stmt, _COMPOUND):
        block[position : position + 1] = stmt.body
    elif action == "drop else" and isinstance(stmt, _COMPOUND) and stmt.orelse:
        stmt.orelse = []
    elif action == "shorten return" and isinstance(stmt, ast.Return) and stmt.value is not None:
        if isinstance(stmt.value, ast.Tuple) and len(stmt.value.elts) > 1:
            stmt.value.elts.pop()
        else:
            stmt.value = None
    else:
        return None
    if not block:
        block.append(ast.Pass())
    edited = ast.unparse(tree) + "\n"
    try:
        compile(edited, "<shrunk>", "exec")
    except SyntaxError:  # a loop unwrapped around its break, say
        return None
    return edited


def candidates(source: str) -> Iterator[tuple[int, str]]:
    """``(index, action)`` of every edit to try on ``source``, last statements first (an edit
    there leaves the indices of earlier statements as they were)."""
    count = len(_statements(_function(ast.parse(source))))
    for action in ("delete", "unwrap", "drop else", "shorten return"):
        for index in reversed(range(count)):
            yield index, action


def shrink(source: str, still_fails: Callable[[str], bool], seconds: float = 60.0) -> str:
    """The smallest program found, within ``seconds``, for which ``still_fails`` holds."""
    deadline = time.monotonic() + seconds
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for index, action in candidates(source):
            if time.monotonic() >= deadline:
                break
            edited = _edit(source, index, action)
            if edited is not None and edited != source and still_fails(edited):
                source, changed = edited, True
    return source
