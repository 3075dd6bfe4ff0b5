"""The supported subset: rejects constructs that cannot become a graph, naming them and their line.

Input: a parsed function. Output: nothing, or ``UnsupportedError`` for the first unsupported
construct (``with`` but ``with np.errstate(...)`` (``frontend.errstates``), ``yield``, ``async``,
``global``, ``del``, ``class``, ``match``, ``try/except*``, a ``try`` that ``frontend.tries``
refuses, and ``nonlocal`` where ``frontend.nonlocals`` finds it inexact). The caller (``api``)
turns that error into an eager fallback.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import gast

from tograph import errors
from tograph.frontend import errstates, names, nonlocals, parse, tries


def _written(block: Any, setters: dict[str, frozenset[str]]) -> set[str]:
    """The variables ``block`` assigns, or sets through a function declaring them ``nonlocal``."""
    body = block.body + block.orelse
    written = names.assigned(body) | (
        names.targets(block.target) if isinstance(block, gast.For) else set()
    )
    if setters:
        called = set().union(set(), *(names.reads(stmt) for stmt in body)) & set(setters)
        written |= set().union(set(), *(setters[name] for name in called))
    return written


def _closure_over_block_variable(
    block: Any, setters: dict[str, frozenset[str]]
) -> tuple[str | None, Any]:
    """A function defined in ``block`` that reads a variable ``block`` assigns, if any.

    Lowering turns branches and loop bodies into functions, so such a closure would see the value
    of its own iteration, where Python's late binding sees the variable's final value.
    """
    body = block.body + block.orelse
    functions = [
        node
        for stmt in body
        for node in gast.walk(stmt)
        if isinstance(node, (gast.Lambda, gast.FunctionDef))
    ]
    if functions:  # what the block assigns is only needed then (nested blocks: no quadratic walk)
        written = _written(block, setters)
        for node in functions:
            captured = _free_reads(node) & written
            if captured:
                name = sorted(captured)[0]
                return f"closure over variable '{name}', which its enclosing block assigns", node
    return None, block


def _closure_called_in_block(
    block: Any, closures: dict[str, set[str]], setters: dict[str, frozenset[str]]
) -> tuple[str | None, Any]:
    """A function defined before ``block`` and used in it that reads a variable ``block`` assigns.

    Lowering makes that variable a local of the branch or loop body function, so the closure
    would read the value from before the block where Python reads the current one.
    """
    body = block.body + block.orelse
    written = _written(block, setters)
    used = set().union(set(), *(names.reads(stmt) for stmt in body))
    for name in sorted(used & set(closures)):
        captured = closures[name] & written
        if captured:
            variable = sorted(captured)[0]
            return (
                f"closure '{name}' over variable '{variable}', which a block calling it assigns",
                block,
            )
    return None, block


def _closures(nodes: list[Any]) -> dict[str, set[str]]:
    """The functions defined in the function (``def`` or a name bound to a ``lambda``), each with
    the names it reads from outside itself."""
    found: dict[str, set[str]] = {}
    for node in nodes[1:]:
        if isinstance(node, gast.FunctionDef):
            found[node.name] = _free_reads(node)
        elif isinstance(node, gast.Assign) and isinstance(node.value, gast.Lambda):
            for target in node.targets:
                for name in names.targets(target):
                    found[name] = _free_reads(node.value)
    return found


def _free_reads(fn: Any) -> set[str]:
    """Names a ``def`` or ``lambda`` reads that are neither its parameters nor its own locals."""
    body = fn.body if isinstance(fn.body, list) else [fn.body]
    local = names.assigned(body) if isinstance(fn.body, list) else set()
    return set().union(*(names.reads(b) for b in body)) - set(names.params(fn)) - local


NONLOCAL = "nonlocal statement"
# Constructs that set variables outside the function: it must not run unconverted either while a
# graph is built, as the variables would be set once, while tracing (``staging.calls``).
SETS_OUTSIDE = frozenset({NONLOCAL, "global statement"})

_UNSUPPORTED: dict[type, str] = {
    gast.With: "with statement",
    gast.AsyncWith: "async with",
    gast.AsyncFor: "async for",
    gast.AsyncFunctionDef: "async def",
    gast.Await: "await",
    gast.Yield: "yield",
    gast.YieldFrom: "yield from",
    gast.Global: "global statement",
    gast.ClassDef: "class definition",
    gast.Match: "match statement",
}
if hasattr(gast, "TryStar"):
    _UNSUPPORTED[gast.TryStar] = "try/except*"


def check_supported(parsed: parse.ParsedFunction, nodes: Iterable[Any]) -> None:
    """Raises ``UnsupportedError`` naming the first construct tograph cannot convert.

    Args:
      parsed: the function, for locations.
      nodes: every node of its tree (``gast.walk(tree)``, or a list of it made once for all).
    """
    nodes = list(nodes)
    kinds = set(map(type, nodes[1:]))
    # Blocks are checked for closures only when the function defines any (the checks walk each
    # nested block again, which deep nesting would make quadratic).
    defines = gast.Lambda in kinds or gast.FunctionDef in kinds
    if not defines and kinds.isdisjoint((gast.Delete, gast.Nonlocal, gast.Try, *_UNSUPPORTED)):
        return  # nothing below could be refused: no need to look at each node
    closures = _closures(nodes)
    setters = nonlocals.writers(nodes[0]) if gast.Nonlocal in kinds else {}
    misused = nonlocals.problem(nodes[0], nodes) if gast.Nonlocal in kinds else None
    if misused is not None:
        reason, node = misused
        _refuse(parsed, NONLOCAL, node, reason)
    for node in nodes:
        construct = _UNSUPPORTED.get(type(node))
        if isinstance(node, gast.With):
            construct = errstates.refusal(node)
        if isinstance(node, gast.Delete) and not all(
            isinstance(t, gast.Subscript) for t in node.targets
        ):
            construct = "del of a variable or attribute"
        if isinstance(node, gast.Try):
            construct, node = tries.refusal(node, nodes[0]) or (None, node)
        if defines and construct is None and isinstance(node, (gast.If, gast.For, gast.While)):
            construct, node = _closure_over_block_variable(node, setters)
        if closures and construct is None and isinstance(node, (gast.If, gast.For, gast.While)):
            construct, node = _closure_called_in_block(node, closures, setters)
        if construct is not None:
            _refuse(parsed, construct, node)


def _refuse(
    parsed: parse.ParsedFunction, construct: str, node: Any, reason: str | None = None
) -> None:
    raise errors.UnsupportedError(
        reason or f"{construct} is not supported in converted functions",
        loc=parsed.loc(node),
        hint="the function runs eagerly instead",
        construct=construct,
    )
