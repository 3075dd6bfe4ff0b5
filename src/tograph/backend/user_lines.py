"""Generated code that runs at the user's lines: warnings and tracebacks name the user's source.

A NumPy kernel that warns (``invalid value encountered in log``) attributes the warning to the
Python frame that called it. Eager code's frame is the user's function, so the warning prints as
``model.py:12: RuntimeWarning: ...`` followed by that line of ``model.py``, and the default filter
shows it once per line of the user's module. The executor's frame is a generated function, so
without this module the same warning would name ``<tograph f #0>:4`` and print a generated line.

``relocate`` rewrites a compiled code object's file name and line table (the format CPython 3.11
and later document in ``Objects/locations.md``) so that every instruction of a line generated for
an equation carries that equation's user line, without columns (which belong to the generated
text). The bytecode is unchanged, so ``generated_line`` finds the generated line of an instruction
in the original code object, which an error report needs to name the failing equation.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Mapping

# The line table's entry kinds used here: an entry covers up to 8 code units.
_NO_COLUMNS = 13  # a signed line delta, no columns
_NO_LOCATION = 15  # no line at all
_MAX_UNITS = 8

SUPPORTED = sys.version_info >= (3, 11)  # 3.10 has another line table format


def relocate(
    code: types.CodeType, filename: str, first_line: int, lines: Mapping[int, int]
) -> types.CodeType:
    """``code`` (and the code nested in it) with ``filename`` and each generated line ``g`` of
    ``lines`` replaced by ``lines[g]``; instructions of other lines have no line."""
    consts = tuple(
        relocate(c, filename, first_line, lines) if isinstance(c, types.CodeType) else c
        for c in code.co_consts
    )
    table = bytearray()
    previous = first_line
    for start, end, line in code.co_lines():
        target = None if line is None else lines.get(line)
        units = (end - start) // 2
        while units > 0:
            n = min(units, _MAX_UNITS)
            units -= n
            if target is None:
                table.append(0x80 | _NO_LOCATION << 3 | (n - 1))
            else:
                table.append(0x80 | _NO_COLUMNS << 3 | (n - 1))
                _signed_varint(target - previous, table)
                previous = target
    return code.replace(
        co_filename=filename,
        co_firstlineno=first_line,
        co_linetable=bytes(table),
        co_consts=consts,
    )


def originals(original: types.CodeType, relocated: types.CodeType) -> dict[int, types.CodeType]:
    """Each relocated code object's id -> the original it came from (nested code included)."""
    found = {id(relocated): original}
    for a, b in zip(original.co_consts, relocated.co_consts, strict=True):
        if isinstance(a, types.CodeType) and isinstance(b, types.CodeType):
            found.update(originals(a, b))
    return found


def generated_line(original: types.CodeType, offset: int) -> int | None:
    """The line of ``original`` holding the instruction at byte ``offset`` (a frame's lasti)."""
    for start, end, line in original.co_lines():
        if start <= offset < end:
            return line
    return None


def _signed_varint(value: int, out: bytearray) -> None:
    """Appends ``value`` as the line table's signed varint (sign in the lowest bit)."""
    value = (-value << 1) | 1 if value < 0 else value << 1
    while value >= 64:
        out.append(0x40 | (value & 63))
        value >>= 6
    out.append(value)
