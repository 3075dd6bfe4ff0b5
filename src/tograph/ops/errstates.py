"""NumPy's floating-point error state set for a region of a graph: ``with np.errstate(...)``.

Stage: build (ops). Input: the keywords of a ``with np.errstate(...)`` block in user code.
Output: two effectful equations with no outputs around the block's equations, which passes never
remove, merge or move (the equations between them that may warn stay between them: only those
that cannot warn are moved, ``passes.totality``)::

    errstate[settings=(('divide', 'ignore'), ('invalid', 'ignore'))]
    t0:f64[3] = divide x y
    errstate_end

The code generator writes the region as ``with np.errstate(**settings):`` around its lines
(``backend.codegen``), so an exception leaving it restores the caller's state as Python does;
other executors run the kernels, which keep the states they replace on a per-thread stack.
Settings name NumPy's categories (``all``, ``divide``, ``over``, ``under``, ``invalid``) and the
modes ``ignore``, ``warn`` and ``raise``; the others (``call``, ``print``, ``log``) need state a
graph does not hold and are refused when the block is traced (``staging.errstates``).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives

CATEGORIES = ("all", "divide", "over", "under", "invalid")
MODES = ("ignore", "warn", "raise")
Settings = tuple[tuple[str, str], ...]

_replaced = threading.local()  # .stack: the error states the regions now running replaced


def _stack() -> list[dict[str, str]]:
    stack = getattr(_replaced, "stack", None)
    if stack is None:
        stack = _replaced.stack = []
    return stack


def _begin_impl(*, settings: Settings) -> tuple[()]:
    _stack().append(np.seterr(**dict(settings)))
    return ()


def _begin_rule(*, settings: Settings) -> tuple[()]:
    for category, mode in settings:
        if category not in CATEGORIES or mode not in MODES:
            raise errors.InternalError(f"errstate: {category}={mode!r} is not a setting")
    return ()


def _end_impl() -> tuple[()]:
    np.seterr(**_stack().pop())
    return ()


def _end_rule() -> tuple[()]:
    return ()


errstate_p = primitives.Primitive(
    "errstate", _begin_impl, _begin_rule, multiple_results=True, effectful=True
)
errstate_end_p = primitives.Primitive(
    "errstate_end", _end_impl, _end_rule, multiple_results=True, effectful=True
)


def raises(settings: Settings) -> bool:
    """Whether a region with ``settings`` turns some floating-point warning into an error."""
    return any(mode == "raise" for _, mode in settings)


def region_end(eqns: Any, start: int) -> int:
    """The index of the ``errstate_end`` closing the region ``eqns[start]`` opens."""
    depth = 0
    for k in range(start, len(eqns)):
        prim: Any = eqns[k].prim
        depth += (prim is errstate_p) - (prim is errstate_end_p)
        if depth == 0:
            return k
    raise errors.InternalError("an errstate region is not closed in its graph. This is a bug")
