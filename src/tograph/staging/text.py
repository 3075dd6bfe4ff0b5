"""f-strings whose fields hold tensors: their text exists only when the graph runs.

``fstring`` returns a plain string when every field is static, else a ``TensorText`` whose parts
(strings, and tensors with their format spec) ``print`` and ``assert`` turn into a run-time
template; ``str``/``repr``/``format`` of a tensor are such f-strings too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tograph import errors, origin
from tograph.ops import effects
from tograph.trace import tensor


class TensorText:
    """An f-string (or ``str()``) with tensors in it: printable, or usable as an assert message,
    at run time. Any other use needs its text while the graph is built, which it has not: that
    is refused, and the function runs eagerly."""

    def __init__(self, parts: Sequence[Any]):
        self.parts = tuple(parts)

    def refuse(self, use: str = "used as a string") -> errors.UnsupportedError:
        """The error for a use of this text other than printing it."""
        return errors.UnsupportedError(
            f"a string formatted from a tensor is {use}, but its text exists only when the graph "
            "runs",
            loc=origin.current_location(),
            hint="inside compiled functions such strings can be printed or used as assert messages",
            construct="string of a tensor",
        )

    def __str__(self) -> str:
        raise self.refuse()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # protocols probed with getattr (copy, pickle) are absent
            raise AttributeError(name)
        raise self.refuse(f"used as a string (.{name})")

    def _refused(self, *args: Any) -> Any:
        raise self.refuse()

    __repr__ = __format__ = __bool__ = __len__ = __iter__ = __getitem__ = __contains__ = _refused
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _refused  # type: ignore[assignment]
    __add__ = __radd__ = __mul__ = __rmul__ = __mod__ = _refused


def formatted(value: Any, conversion: int, spec: str) -> Any:
    """One f-string field ``{value!conversion:spec}`` (conversion as in ``ast.FormattedValue``)."""
    conv = {-1: "", 115: "s", 114: "r", 97: "a"}[conversion]
    slot = effects.FormatSlot(spec, conv)
    if effects.holds_symbolic(value):  # a list, tuple or dict of tensors: their reprs
        if spec:
            raise TypeError(
                f"unsupported format string passed to {type(value).__name__}.__format__"
            )
        return TensorText(effects.container_parts(value))
    return effects.Formatted(value, slot) if tensor.is_symbolic(value) else slot.render(value)


def fstring(*parts: Any) -> Any:
    """The text of an f-string, or a ``TensorText`` when a field holds a tensor."""
    if all(isinstance(p, str) for p in parts):
        return "".join(parts)
    return TensorText([q for p in parts for q in message_parts(p)])


def convert(value: Any, conversion: int, spec: str = "") -> Any:
    """``str(value)`` (conversion 115), ``repr(value)`` (114) or ``format(value, spec)`` (-1):
    the f-string ``{value!conversion:spec}``."""
    return fstring(formatted(value, conversion, spec))


def message_parts(message: Any) -> tuple[Any, ...]:
    if message is None:
        return ()
    return message.parts if isinstance(message, TensorText) else (message,)
