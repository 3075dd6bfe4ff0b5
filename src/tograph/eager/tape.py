"""The tape users hold: a ``Recorder`` that watches values (``tograph.eager.recording``).

Stage: eager execution. Usage::

    with eager.Tape() as tape:
        x = tape.watch(np.array([1.0, 2.0]))
        y = np.exp(x).sum()
    tape.records  # [Record(exp ...), Record(sum ...)]

A value is watched when ``watch`` returned it or a recorded primitive computed it from a watched
value. Tapes nest; each records what involves its own watched values. Gradients replay the
records backwards through each primitive's ``vjp`` (``tograph.autodiff.tape``).
"""

from __future__ import annotations

from typing import Any

from tograph.eager import recording
from tograph.eager import tensor as tensor_mod

Record = recording.Record


class Tape(recording.Recorder):
    """Records primitives on watched eager values while active (a context manager)."""

    def watch(self, value: Any) -> Any:
        """Starts watching ``value`` (an array, a scalar or an eager tensor); returns the tensor."""
        if not isinstance(value, (tensor_mod.EagerTensor, tensor_mod.EagerList)):
            value = tensor_mod.EagerTensor(value)
        self.mark_watched(value)
        return value
