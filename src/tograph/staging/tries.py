"""``try`` statements while a graph is built: the exceptions a trace may catch, and the equations
a ``try`` may not hold.

A ``try`` stays a Python ``try`` in the lowered code (``lowering.tries``), so an exception raised
while tracing reaches the user's handlers. That is eager's exception only when static Python
raised it on the path the graph always takes: the user's own code, or tograph raising on purpose
what eager raises there (a ``raise``, a failed static ``assert``, a list index out of range). An
exception that passed through anything else (a tensor branch or loop body being traced, a
primitive's type rule, library code run on tensors) or is tograph's own (``ToGraphError``: a
tensor where a Python value is needed, a construct that does not convert) is raised on, and the
function falls back. ``try_caught`` decides, from the exception's traceback.

What the graph does when it runs cannot reach the handlers: an equation recorded in the body that
may raise there an exception a handler catches (a tensor ``raise``, ``np.linalg.solve`` of a
singular matrix, floating-point errors under ``np.seterr(all="raise")``, warnings made errors)
falls back, naming it and its line; so does any equation that may raise before a ``finally``,
whose effects eager runs on the way out. Which equations may raise is the optimiser's knowledge
(``passes.totality``), which ``install`` hands in from above.
Requires: trace.builder (the graph being built), origin (converted code).
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core
from tograph.ir import types as ir_types
from tograph.ops import effects, indexing, reductions
from tograph.ops import elementwise as ew
from tograph.trace import builder as builder_mod

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# tograph's functions an eager exception may pass through: calls into converted code and the
# places that raise what eager raises (``allow_frames``)
_PLUMBING: set[types.CodeType] = set()
# The optimiser's tests (``install``): whether an equation can neither raise nor warn, and
# whether it may raise rather than only warn. Until installed, every equation may raise.
_tests: dict[str, Callable[[core.Eqn], bool]] = {
    "total": lambda eqn: False,
    "may_raise": lambda eqn: True,
}
# An exception class an equation may raise, and whether subclasses of it may come instead.
Raised = tuple[type[BaseException], bool]
_FLOATING = ((FloatingPointError, False), (Warning, False))


@dataclasses.dataclass(eq=False)  # each ``try`` being traced is its own, whatever its fields
class Region:
    """One ``try`` being traced: where its body started in the graph being built, and the
    classes its handlers catch (evaluated when needed, as Python evaluates them)."""

    builder: builder_mod.GraphBuilder | None
    start: int
    handlers: Callable[[], tuple[Any, ...]]
    has_finally: bool
    loc: errors.SourceLocation | None
    in_body: bool = True


_local = threading.local()


def _regions() -> list[Region]:
    found: list[Region] | None = getattr(_local, "regions", None)
    if found is None:
        found = _local.regions = []
    return found


def install(total: Callable[[core.Eqn], bool], may_raise: Callable[[core.Eqn], bool]) -> None:
    """Hands in the optimiser's tests of equations (``passes.totality``)."""
    _tests["total"], _tests["may_raise"] = total, may_raise


def allow_frames(*functions: Callable[..., Any]) -> None:
    """Marks tograph ``functions`` that an eager exception may pass through or come from."""
    _PLUMBING.update(f.__code__ for f in functions)  # type: ignore[attr-defined]


def try_begin(handlers: Callable[[], tuple[Any, ...]], has_finally: bool) -> Region:
    """Starts a ``try``: ``handlers`` gives the classes of its ``except`` clauses."""
    current = builder_mod.current()
    count = len(current.eqns) if current is not None else 0
    region = Region(current, count, handlers, has_finally, origin.current_location())
    _regions().append(region)
    return region


def try_body_end(region: Region) -> None:
    """The body ran to its end while tracing: nothing it recorded may reach a handler."""
    region.in_body = False
    _check(region, everything=False)


def try_caught(region: Region) -> None:
    """A handler caught the exception being handled: raises it on unless it is eager's."""
    exc = sys.exc_info()[1]
    if region.in_body:
        region.in_body = False
        _check(region, everything=False)
    if exc is not None and not eager_exception(exc):
        raise exc


def try_end(region: Region) -> None:
    """The ``try`` is left (its ``finally`` starts): with a ``finally``, nothing recorded since the
    ``try`` began may raise when the graph runs."""
    regions = _regions()
    if region in regions:
        regions.remove(region)
    if region.has_finally:
        _check(region, everything=True)


def observed() -> bool:
    """Whether a ``try`` body is being traced in the graph being built now (not in a branch or
    loop body inside it): a static ``raise`` there is raised at once, for its handlers."""
    current = builder_mod.current()
    return any(r.in_body and r.builder is current for r in _regions())


def eager_exception(exc: BaseException) -> bool:
    """Whether ``exc``, caught while tracing, is the exception eager raises there (see module
    docstring): not tograph's own, and raised by converted code or code it called directly,
    through tograph only where it calls converted code or raises on purpose."""
    if isinstance(exc, errors.ToGraphError):
        return False
    tb = exc.__traceback__
    codes: list[types.CodeType] = []
    while tb is not None:
        codes.append(tb.tb_frame.f_code)
        tb = tb.tb_next
    ours = [_inside_tograph(code) for code in codes]
    for callee, caller_ours, callee_ours in zip(codes[1:], ours, ours[1:]):
        if callee_ours and callee not in _PLUMBING:
            return False
        if caller_ours and not callee_ours and not origin.is_converted(callee):
            return False  # library code run by tograph (on tensors, maybe)
    # Python's own TypeError or AttributeError in user code may be about a tensor standing for
    # an array (``hash``, a missing attribute): eager's would name the array's type
    raised_by_python = len(codes) > 0 and not ours[-1]
    return not (raised_by_python and isinstance(exc, (TypeError, AttributeError)))


def _inside_tograph(code: types.CodeType) -> bool:
    return code.co_filename.startswith(_PACKAGE) and not origin.is_converted(code)


def _check(region: Region, everything: bool) -> None:
    """Falls back if an equation recorded since ``region`` began may raise when the graph runs
    an exception its handlers catch (any exception, with ``everything``), naming the innermost
    such equation."""
    if region.builder is None:
        return
    handlers = () if everything else _handler_classes(region)
    for eqn in region.builder.eqns[region.start :]:
        for inner in (eqn, *(e for graph in eqn.subgraphs() for e in graph.walk())):
            if next(inner.subgraphs(), None) is not None:
                continue  # a cond or loop raises what the equations it runs raise
            raised = _raised_by(inner)
            if raised == [] or not (everything or raised is None or _catches(handlers, raised)):
                continue
            where = f" at line {inner.loc.line}" if inner.loc is not None else ""
            what = "try/finally around" if everything else "try body with"
            raise errors.UnsupportedError(
                f"{what} {inner.prim.name}{where}, which may raise when the graph runs",
                loc=region.loc,
                hint="the handlers would have to run when the graph runs",
                construct="try around an operation that may raise when the graph runs",
            )


def _handler_classes(region: Region) -> tuple[type[BaseException], ...] | None:
    """The classes the handlers catch, flattened; None when they cannot be told (all)."""
    try:
        given = region.handlers()
    except Exception:  # noqa: BLE001 - a handler class Python cannot evaluate yet: any
        return None
    found: list[type[BaseException]] = []
    todo = list(given)
    while todo:
        item = todo.pop()
        if isinstance(item, tuple):
            todo.extend(item)
        elif isinstance(item, type) and issubclass(item, BaseException):
            found.append(item)
        else:
            return None
    return tuple(found)


def _catches(handlers: tuple[type[BaseException], ...] | None, raised: list[Raised]) -> bool:
    if handlers is None:
        return True
    return any(
        issubclass(cls, h) or (not exact and issubclass(h, cls))
        for cls, exact in raised
        for h in handlers
    )


def _raised_by(eqn: core.Eqn) -> list[Raised] | None:
    """The exceptions ``eqn`` (one with no nested graph) may raise when the graph runs: none
    (``[]``), some classes, or any (None). A warning may be made an error, a floating-point
    error may raise."""
    prim = eqn.prim
    if prim is effects.print_p:
        return []
    if prim in (effects.raise_p, effects.raise_if_p):
        return [(type(eqn.params["exception"]), True)]
    if prim is effects.assert_p:
        return [(AssertionError, True)]
    if prim is effects.warn_p:
        return [(Warning, False)]
    if _tests["total"](eqn):
        return []
    if prim is indexing.setitem_p and not _static_write(eqn):
        return None
    if prim.effectful or _tests["may_raise"](eqn) or prim not in _WARN_ONLY:
        return None
    static = all(
        isinstance(a.type, ir_types.TensorType) and a.type.is_static_shape
        for a in (*eqn.inputs, *eqn.outputs)
    )
    return list(_FLOATING) if static else None


def _static_write(eqn: core.Eqn) -> bool:
    """Whether a ``setitem`` writes at a static index (checked against the static shapes while
    tracing) a value that can at most warn in the cast: not a Python integer into a narrower
    integer array (NumPy's OverflowError)."""
    target, value = (ir_types.tensor_type(a.type) for a in eqn.inputs[:2])
    narrowing = value.weak and value.dtype.kind in "iu" and target.dtype.kind in "iu"
    return len(eqn.inputs) == 2 and not (narrowing and target.dtype != np.int64)


# Primitives that, on operands and results of static shapes, can at most warn (where
# ``passes.totality`` finds they cannot raise): an empty axis to reduce is refused while tracing.
_WARN_ONLY = frozenset(
    {
        *ew.UFUNCS,
        *reductions.ALL,
        indexing.setitem_p,
    }
)
