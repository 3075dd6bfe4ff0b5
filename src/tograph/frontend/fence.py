"""The supported subset: rejects constructs that cannot become a graph, naming them and their line.

Input: a parsed function. Output: nothing, or ``UnsupportedError`` for the first unsupported
construct (``try``, ``with``, ``yield``, ``async``, ``global``/``nonlocal``, ``del``, ``class``,
``match``). The caller (``api``) turns that error into an eager fallback.
"""

from __future__ import annotations

import gast

from tograph import errors
from tograph.frontend import parse

_UNSUPPORTED: dict[type, str] = {
    gast.Try: "try/except",
    gast.With: "with statement",
    gast.AsyncWith: "async with",
    gast.AsyncFor: "async for",
    gast.AsyncFunctionDef: "async def",
    gast.Await: "await",
    gast.Yield: "yield",
    gast.YieldFrom: "yield from",
    gast.Global: "global statement",
    gast.Nonlocal: "nonlocal statement",
    gast.Delete: "del statement",
    gast.ClassDef: "class definition",
    gast.Match: "match statement",
}
if hasattr(gast, "TryStar"):
    _UNSUPPORTED[gast.TryStar] = "try/except*"


def check_supported(parsed: parse.ParsedFunction, tree: gast.FunctionDef) -> None:
    """Raises ``UnsupportedError`` naming the first construct of ``tree`` tograph cannot convert."""
    for node in gast.walk(tree):
        construct = _UNSUPPORTED.get(type(node))
        if construct is not None:
            raise errors.UnsupportedError(
                f"{construct} is not supported in converted functions",
                loc=parsed.loc(node),
                hint="the function runs eagerly instead",
                construct=construct,
            )

