"""f-strings whose fields hold tensors: their text exists only when the graph runs.

``fstring`` returns a plain string when every field is static, else a ``TensorText`` whose parts
(strings, and tensors with their format spec) ``print`` and ``assert`` turn into a run-time
template.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tograph import errors
from tograph.ops import effects
from tograph.trace import tensor


class TensorText:
    """An f-string with tensors in it: printable, or usable as an assert message, at run time."""

    def __init__(self, parts: Sequence[Any]):
        self.parts = tuple(parts)

    def __str__(self) -> str:
        raise errors.TracerError(
            "an f-string of a tensor has no text while the graph is built",
            hint="inside compiled functions such strings can be printed or used as assert messages",
        )


def formatted(value: Any, conversion: int, spec: str) -> Any:
    """One f-string field ``{value!conversion:spec}`` (conversion as in ``ast.FormattedValue``)."""
    conv = {-1: "", 115: "s", 114: "r", 97: "a"}[conversion]
    slot = effects.FormatSlot(spec, conv)
    return effects.Formatted(value, slot) if tensor.is_symbolic(value) else slot.render(value)


def fstring(*parts: Any) -> Any:
    """The text of an f-string, or a ``TensorText`` when a field holds a tensor."""
    if all(isinstance(p, str) for p in parts):
        return "".join(parts)
    return TensorText(parts)


def message_parts(message: Any) -> tuple[Any, ...]:
    if message is None:
        return ()
    return message.parts if isinstance(message, TensorText) else (message,)
