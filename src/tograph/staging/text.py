"""f-strings whose fields hold tensors: their text exists only when the graph runs.

``fstring`` returns a plain string when every field is static, else a ``TensorText`` whose parts
(strings, and tensors with their format spec) ``print`` and ``assert`` turn into a run-time
template; ``str``/``repr``/``format`` of a tensor are such f-strings too, and so is
``"template" % values`` (``percent_format``) where a conversion's format spec says the same, and
``"template".format(...)`` (``str_format``), whose replacement fields are f-string fields.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from typing import Any

from tograph import errors, origin
from tograph.ops import effects
from tograph.trace import tensor


class TensorText:
    """An f-string (or ``str()``) with tensors in it: printable, or usable as an assert message,
    at run time. Any other use needs its text while the graph is built, which it has not: that
    is refused, and the function runs eagerly, naming the line that uses it (or, for one
    returned, the line that made it)."""

    def __init__(self, parts: Sequence[Any]):
        self.parts = tuple(parts)
        self.made_at = origin.current_location()

    def refuse(self, use: str = "used as a string") -> errors.UnsupportedError:
        """The error for a use of this text other than printing it."""
        return errors.UnsupportedError(
            f"a string formatted from a tensor is {use}, but its text exists only when the graph "
            "runs",
            loc=origin.current_location() or self.made_at,
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


# One conversion of a printf-style template: ``%(key)flags width .precision length type``.
_CONVERSION = re.compile(
    r"%(?P<key>\([^)]*\))?(?P<flags>[#0\- +]*)(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d*))?"
    r"[hlL]?(?P<type>.?)"
)


def percent_format(template: str, values: Any) -> Any:
    """``template % values``; a ``TensorText`` when a value holds a tensor. Each conversion of
    a tensor is the f-string field that formats alike (``%-8s`` is ``{v!s:<8}``, ``%+.2f`` of
    a real number is ``{v:+.2f}``); one that has no such field (``%d`` of a float, ``%c``,
    ``%(key)s``, ``*`` widths) or a count of values that does not match is refused, and the
    function runs eagerly, where Python formats (or rejects) it."""
    items = values if type(values) is tuple else (values,)
    if not any(tensor.is_symbolic(v) or effects.holds_symbolic(v) for v in items):
        return template % values
    parts: list[Any] = []
    taken, end = 0, 0
    for match in _CONVERSION.finditer(template):
        parts.append(template[end : match.start()])
        end = match.end()
        if match["type"] == "%" and not (match["key"] or match["flags"] or match["width"]):
            parts.append("%")
            continue
        if match["key"] is not None or "*" in (match["width"] or "") + (match["precision"] or ""):
            raise _refused_template("a mapping key or a * width")
        if taken == len(items):
            raise _refused_template("fewer values than conversions")
        value, spec = items[taken], _field_spec(match, items[taken])
        taken += 1
        if isinstance(spec, tuple):
            parts.append(formatted(value, *spec))
        else:
            parts.append(match.group(0) % (value,))
    if taken != len(items):
        raise _refused_template("more values than conversions")
    parts.append(template[end:])
    return fstring(*(p for p in parts if not isinstance(p, str) or p))


def is_str_format(fn: Any) -> bool:
    """Whether ``fn`` is the ``format`` method bound to a string (``"{} {}".format``)."""
    return type(getattr(fn, "__self__", None)) is str and getattr(fn, "__name__", "") == "format"


def str_format(template: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``template.format(*args, **kwargs)``; a ``TensorText`` when a field holds a tensor. Each
    replacement field is the f-string field with the same conversion and spec, its value found
    as ``str.format`` finds it (automatic or explicit numbering, keywords, ``.attr``, ``[key]``);
    a spec with nested fields (``{:{width}}``) is refused."""
    formatter = string.Formatter()
    parts: list[Any] = []
    automatic: int | None = 0
    for literal, field, spec, conversion in formatter.parse(template):
        if literal:
            parts.append(literal)
        if field is None:
            continue
        if field == "" or field[0] in ".[":
            if automatic is None:
                raise ValueError("cannot switch from manual field specification to automatic")
            field, automatic = f"{automatic}{field}", automatic + 1
        elif field.partition(".")[0].partition("[")[0].isdigit():
            if automatic:
                raise ValueError("cannot switch from automatic field numbering to manual")
            automatic = None
        if spec and "{" in spec:
            raise errors.UnsupportedError(
                "str.format() with a nested replacement field in a format spec, where a value "
                "is a tensor",
                loc=origin.current_location(),
                construct="str.format of a tensor",
            )
        value = formatter.get_field(field, args, kwargs)[0]
        parts.append(formatted(value, ord(conversion) if conversion else -1, spec or ""))
    return fstring(*parts)


def _field_spec(match: re.Match[str], value: Any) -> tuple[int, str] | None:
    """The f-string conversion and format spec of ``match`` applied to ``value`` (None for a
    value that is known now: Python formats it)."""
    if not (tensor.is_symbolic(value) or effects.holds_symbolic(value)):
        return None
    kind, flags = match["type"], match["flags"]
    width, precision = match["width"] or "", match["precision"]
    if kind in "sra" and kind:
        align = ("<" if "-" in flags else ">") if width else ""
        cut = "" if precision is None else f".{precision or 0}"
        return ord(kind), f"{align}{width}{cut}"
    dtype = getattr(getattr(value, "type", None), "dtype", None)
    if not tensor.is_symbolic(value) or value.ndim != 0 or dtype is None:
        raise _refused_template(f"%{kind} of a value that is not a number")
    real = dtype.kind in "fiu"
    if kind in "eEfFgG" and real or kind in "dixXo" and dtype.kind in "iu" and precision is None:
        sign = "+" if "+" in flags else " " if " " in flags else ""
        fill = "<" if "-" in flags else "0" if "0" in flags and width else ""
        alternate = "#" if "#" in flags else ""
        digits = "" if precision is None else f".{precision or 0}"
        code = "d" if kind in "iu" else kind
        if fill == "0":
            return -1, f"{sign}{alternate}0{width}{digits}{code}"
        return -1, f"{fill}{sign}{alternate}{width}{digits}{code}"
    raise _refused_template(f"%{kind} of a tensor of dtype {dtype}")


def _refused_template(what: str) -> errors.UnsupportedError:
    return errors.UnsupportedError(
        f"printf-style formatting (template % values) with {what}, where a value is a tensor",
        loc=origin.current_location(),
        construct="% formatting of a tensor",
    )
