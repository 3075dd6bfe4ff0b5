"""``with np.errstate(...)`` while a graph is built: the region's equations and the trace's state.

Stage: staging (the runtime ``_t`` calls these). Lowering flattens the block into
``_t.errstate(np.errstate, **keywords)``, the body, and ``_t.errstate_end()``
(``lowering.errstates``). ``errstate`` checks that the callee is NumPy's own ``errstate`` and that
the keywords are settings a graph can hold (NumPy's categories, not ``call=``, with the modes
``ignore``, ``warn`` and ``raise``), emits the ``errstate`` equation (``ops.errstates``) and sets
the same state for the Python code the trace runs (static values computed inside the block then
warn or raise as eagerly); ``errstate_end`` closes both. ``restored`` puts back the state a trace
began with, whatever stopped it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ops import errstates
from tograph.trace import builder as builder_mod

_traced = threading.local()  # .open: the states the regions being traced replaced


def _open() -> list[dict[str, str]]:
    found = getattr(_traced, "open", None)
    if found is None:
        found = _traced.open = []
    return found


def errstate(fn: Any, **keywords: Any) -> None:
    """Opens the region of ``with fn(**keywords):`` where ``fn`` is ``np.errstate``."""
    if fn is not np.errstate:
        raise errors.UnsupportedError(
            f"with {getattr(fn, '__qualname__', fn)!s}(...): of the with statements only "
            "np.errstate(...) converts",
            loc=origin.current_location(),
            construct="with statement",
        )
    other = [k for k in keywords if k not in errstates.CATEGORIES]
    if other:  # ``call=``, which ``np.seterr`` does not take, or a name NumPy does not know
        raise errors.UnsupportedError(
            f"np.errstate({other[0]}=...): only the settings "
            f"{', '.join(errstates.CATEGORIES)} convert",
            loc=origin.current_location(),
            construct="np.errstate mode",
        )
    replaced = np.seterr(**keywords)  # NumPy's own error for a mode it does not know
    odd = [(k, v) for k, v in keywords.items() if type(v) is not str or v not in errstates.MODES]
    if odd:
        np.seterr(**replaced)
        raise errors.UnsupportedError(
            f"np.errstate({odd[0][0]}={odd[0][1]!r}): only 'ignore', 'warn' and 'raise' convert",
            loc=origin.current_location(),
            construct="np.errstate mode",
        )
    _open().append(replaced)
    current = builder_mod.current()
    if current is not None:
        current.emit(errstates.errstate_p, (), {"settings": tuple(keywords.items())})


def errstate_end() -> None:
    """Closes the innermost region ``errstate`` opened."""
    current = builder_mod.current()
    if current is not None:
        current.emit(errstates.errstate_end_p, (), {})
    np.seterr(**_open().pop())


@contextlib.contextmanager
def restored() -> Iterator[None]:
    """Runs a trace, then puts back the error state (and open regions) it began with."""
    depth, state = len(_open()), np.geterr()
    try:
        yield
    finally:
        del _open()[depth:]
        np.seterr(**state)
