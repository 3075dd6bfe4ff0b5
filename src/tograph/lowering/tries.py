"""Lowering step 4: each ``try`` statement gets the runtime's checks (``staging.tries``).

Input: a gast ``FunctionDef`` after ``control_flow`` (a ``try`` stays a Python ``try`` there, its
blocks lowered inside). Output: the same function where ::

    try:                              try_1 = _t.try_begin(lambda: (ValueError,), False)
        body                          try:
    except ValueError:         ->         body
        handler                           _t.try_body_end(try_1)
                                      except ValueError:
                                          _t.try_caught(try_1)
                                          handler
                                      finally:
                                          _t.try_end(try_1)

so that the handlers see only exceptions eager raises while tracing, and the function falls back
when the graph could raise, when it runs, where a handler or a ``finally`` would have to act.
It runs last, so the new name is a local of whatever function the ``try`` ends up in, never a
branch output or loop carry. Requires: lowering.control_flow.
"""

from __future__ import annotations

import itertools
from typing import Any

import gast

from tograph import errors
from tograph.frontend import nodes
from tograph.lowering import templates
from tograph.lowering.canonicalize import RUNTIME


def add_checks(fn: gast.FunctionDef) -> gast.FunctionDef:
    """Rewrites every ``try`` in ``fn`` (nested functions included) as the module docstring
    shows, in place, and returns ``fn``."""
    found = [n for n in nodes.walk(fn) if isinstance(n, gast.Try)]
    if not found:
        return fn
    taken = {n.id for n in nodes.walk(fn) if isinstance(n, gast.Name)}
    counter = itertools.count(1)
    for node in found:
        name = next(f"try_{i}" for i in counter if f"try_{i}" not in taken)
        begin = _begin(node, name)
        _rewrite(node, name)
        owner = _owner_block(fn, node)
        index = next(i for i, stmt in enumerate(owner) if stmt is node)
        owner.insert(index, begin)
    return fn


def _begin(node: gast.Try, name: str) -> Any:
    classes = [
        h.type if h.type is not None else templates.name("BaseException") for h in node.handlers
    ]
    handlers = gast.Tuple(elts=classes, ctx=gast.Load())
    return templates.quote(
        f"{name} = {RUNTIME}.try_begin(lambda: handlers, {bool(node.finalbody)})",
        node,
        handlers=handlers,
    )[0]


def _rewrite(node: gast.Try, name: str) -> None:
    if node.handlers:
        node.body = node.body + templates.quote(f"{RUNTIME}.try_body_end({name})", node)
    for handler in node.handlers:
        handler.body = templates.quote(f"{RUNTIME}.try_caught({name})", handler) + handler.body
    node.finalbody = templates.quote(f"{RUNTIME}.try_end({name})", node) + node.finalbody


def _owner_block(fn: gast.FunctionDef, node: gast.Try) -> list[Any]:
    """The statement list holding ``node``."""
    for parent in nodes.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and any(stmt is node for stmt in block):
                return block
    raise errors.InternalError("a try statement outside every statement list. This is a bug")
