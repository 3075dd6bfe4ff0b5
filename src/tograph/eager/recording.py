"""Recording primitives on the active tapes: ``Record``, the tape stack and ``Recorder``.

Stage: eager execution. Input: each primitive an ``EagerTensor`` runs (``record``). Output:
``Record``s, in order, of the applications that involve a watched value, kept by every active
``Recorder`` that watches one of the inputs. ``tograph.eager.tape.Tape`` is the recorder users
hold; this module knows nothing of eager tensors, so they can record without a cycle.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import TYPE_CHECKING, Any

from tograph import errors, origin

if TYPE_CHECKING:
    from typing_extensions import Self

_state = threading.local()


def _active() -> list[Recorder]:
    if not hasattr(_state, "tapes"):
        _state.tapes = []
    tapes: list[Recorder] = _state.tapes
    return tapes


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Record:
    """One recorded application: ``outputs = prim[params](*inputs)``, values as they were passed."""

    prim: Any
    inputs: tuple[Any, ...]
    params: dict[str, Any]
    outputs: tuple[Any, ...]
    # the user's line, kept for a primitive without a gradient rule (differentiating is an error)
    loc: errors.SourceLocation | None = None


class Recorder:
    """Records primitives on watched values while active (a context manager).

    A *strict* recorder (the default) refuses ``float()`` of a value it watches, which would drop
    out of the gradient without a trace; a lenient one lets it give a constant (``GradientTape``,
    as TensorFlow's does).
    """

    strict = True

    def __init__(self) -> None:
        self.records: list[Record] = []
        self._watched: dict[int, Any] = {}  # id -> value; holding the value keeps its id unique

    def __enter__(self) -> Self:
        _active().append(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        tapes = _active()
        if not tapes or tapes[-1] is not self:
            raise errors.InternalError("eager tapes were exited out of order")
        tapes.pop()

    def mark_watched(self, value: Any) -> None:
        self._watched[id(value)] = value

    def is_watched(self, value: Any) -> bool:
        """Whether ``value`` was watched or computed from a watched value on this tape."""
        return self._watched.get(id(value)) is value

    def _record(
        self, prim: Any, inputs: tuple[Any, ...], params: dict[str, Any], outputs: tuple[Any, ...]
    ) -> None:
        if not any(self.is_watched(v) for v in inputs):
            return
        loc = origin.caller_location() if prim.vjp is None else None
        self.records.append(Record(prim, inputs, params, outputs, loc))
        for out in outputs:
            self._watched[id(out)] = out


def record(
    prim: Any, inputs: tuple[Any, ...], params: dict[str, Any], outputs: tuple[Any, ...]
) -> None:
    """Adds the application to every active tape that watches one of ``inputs``."""
    for tape in _active():
        tape._record(prim, inputs, params, outputs)


def watched_by_active_tape(values: Any, strict_only: bool = False) -> bool:
    """Whether any of ``values`` is watched by an active tape (with ``strict_only``: by an active
    strict tape)."""
    tapes = [t for t in _active() if t.strict or not strict_only]
    return any(tape.is_watched(v) for tape in tapes for v in values)
