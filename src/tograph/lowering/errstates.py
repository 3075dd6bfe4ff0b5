"""``with np.errstate(...):`` flattened: the region's opening, the block's statements, its closing.

Stage: lowering, before the jumps (``lowering.jumps``). Input: a function whose fence allowed its
``with`` statements (``frontend.errstates``: ``with <name>.errstate(keywords):`` whose block
leaves only at its end). Output: the same function with each such statement replaced, in place,
by ``_t.errstate(<name>.errstate, keywords)``, the block, and ``_t.errstate_end()``, so that every
later step sees plain statements (a tensor ``if`` inside becomes a ``cond`` between the two), and
the graph holds the region as two equations around the block's (``staging.errstates``).
"""

from __future__ import annotations

from typing import Any

import gast

from tograph.lowering import templates
from tograph.lowering.canonicalize import RUNTIME


def flatten(tree: gast.FunctionDef, tree_nodes: list[Any]) -> bool:
    """Flattens the ``with np.errstate(...)`` statements of ``tree`` (all of whose nodes are
    ``tree_nodes``) and of the functions nested in it; returns whether there were any."""
    if not any(isinstance(n, gast.With) for n in tree_nodes):
        return False
    for node in tree_nodes:
        for field, value in gast.iter_fields(node):
            if isinstance(value, list) and any(isinstance(s, gast.With) for s in value):
                setattr(node, field, _flat(value))
    return True


def _flat(stmts: list[Any]) -> list[Any]:
    out: list[Any] = []
    for stmt in stmts:
        if not isinstance(stmt, gast.With):
            out.append(stmt)
            continue
        call = stmt.items[0].context_expr
        opening = templates.quote(f"{RUNTIME}.errstate(fn)", stmt, fn=call.func)[0]
        opening.value.keywords = call.keywords
        out += [opening, *_flat(stmt.body)]
        out += templates.quote(f"{RUNTIME}.errstate_end()", stmt.body[-1])
    return out
