"""Reads of variables that hold a value on some paths only (``staging.optional``).

Stage: build (called by lowered code through the runtime). Input: the value of a variable that
may be unset, read by the user's code, or a value compared with ``None``. Output: the value, with
an equation that raises ``UnboundLocalError`` when the graph runs if the path taken left it unset
(raised at once when that is known now), exactly where eager raises it; ``x is None`` as a weak
bool known when the graph runs for a value that may be ``None``.
Requires: staging.optional, staging.control_flow (the check is a ``cond`` holding a ``raise``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import numpy as np

from tograph import errors, origin
from tograph.ops import effects, elementwise
from tograph.staging import carried, choices, control_flow, optional
from tograph.trace import tensor

_UNBOUND = "cannot access local variable '{}' where it is not associated with a value"


def read(value: Any, name: str) -> Any:
    """A read of the variable ``name``: its value, or ``UnboundLocalError`` where it is unset
    (at once if that is known now, else when the graph runs)."""
    if isinstance(value, optional.MaybeUnset):
        if tensor.is_symbolic(value.present):
            _check_present(value.present, name)
        elif not value.present:
            _unbound(name)
        return value.value
    if isinstance(value, carried.Undefined) and not isinstance(value, carried.Placeholder):
        _unbound(name)
    return value


def _unbound(name: str) -> NoReturn:
    raise errors.UnboundVariableError(_UNBOUND.format(name), origin.current_location())


def _check_present(present: Any, name: str) -> None:
    """An equation raising ``UnboundLocalError`` when the graph runs if ``present`` is false."""

    def missing() -> tuple[()]:
        effects.raise_(UnboundLocalError(_UNBOUND.format(name)))
        return ()

    control_flow.cond(present, lambda: (), missing, (), ())


def is_none(value: Any) -> Any:
    """``value is None``; for a value that may be None, a weak bool known when the graph runs."""
    if isinstance(value, choices.Choice):
        return choices.identical(value, None)
    if not isinstance(value, optional.MaybeNone):
        return value is None
    if not tensor.is_symbolic(value.present):
        return not value.present
    return _test(np.logical_not(value.present), value, present_if_true=False)


def is_not_none(value: Any) -> Any:
    """``value is not None``, decided as ``is_none`` decides."""
    if isinstance(value, choices.Choice):
        return choices.identical(value, None, negated=True)
    if not isinstance(value, optional.MaybeNone):
        return value is not None
    if not tensor.is_symbolic(value.present):
        return bool(value.present)
    return _test(value.present, value, present_if_true=True)


# recent tests of optionals against None (by id, with the test itself to confirm), for the ``if``,
# ``and``, ``or`` or conditional expression that branches on them: a few suffice
_tests = threading.local()
_KEEP = 32


def _recent() -> dict[int, tuple[Any, optional.Optional, bool]]:
    if not hasattr(_tests, "found"):
        _tests.found = {}
    found: dict[int, tuple[Any, optional.Optional, bool]] = _tests.found
    return found


def _remember(test: Any, value: optional.Optional, present_if_true: bool) -> None:
    found = _recent()
    found[id(test)] = (test, value, present_if_true)
    if len(found) > _KEEP:
        del found[next(iter(found))]


def _recall(test: Any) -> tuple[optional.Optional, bool] | None:
    entry = _recent().get(id(test))
    return None if entry is None or entry[0] is not test else (entry[1], entry[2])


def _test(flag: Any, value: optional.Optional, present_if_true: bool) -> Any:
    """``flag`` as a Python bool is in a graph (weak, as ``is`` gives one), remembered as a test
    of ``value``."""
    result = elementwise.astype_p.bind(flag, dtype=np.dtype(np.bool_), weak=True)
    _remember(result, value, present_if_true)
    return result


def implies(left: Any, result: Any, conjunction: bool) -> None:
    """Remembers ``result`` (of ``left and ...`` if ``conjunction``, else ``left or ...``) as a
    test of what ``left`` tests, where it keeps that meaning: ``x is not None and c`` true, or
    ``x is None or c`` false, means x is present."""
    recalled = _recall(left)
    if recalled is not None and recalled[1] == conjunction:
        _remember(result, *recalled)


def refine(
    test: Any, body: Callable[..., Any], orelse: Callable[..., Any], state: Sequence[Any]
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The branches of ``if test``; if ``test`` is ``x is None`` or ``x is not None`` on a value
    that may be None, in the branch where ``x`` is present it acts as its value (TorchScript's
    refinement), there and in the state passed at the same positions."""
    recalled = _recall(test)
    if recalled is None:
        return body, orelse
    known, present_if_true = recalled
    positions = [i for i, value in enumerate(state) if value is known]
    if present_if_true:
        return optional.assuming(body, known, positions), orelse
    return body, optional.assuming(orelse, known, positions)
