"""Source maps from generated code back to the user's source lines.

The compiler registers, for each generated (lowered) module, which generated line came from which
user line. While a graph is built, ``current_location()`` finds the innermost frame running
generated code and returns the user's location, so each equation records where it came from.
"""

from __future__ import annotations

import sys

from tograph import errors

_MAPS: dict[str, dict[int, errors.SourceLocation]] = {}


def register(filename: str, line_map: dict[int, errors.SourceLocation]) -> None:
    """Records that lines of the generated file ``filename`` stand for the given user locations."""
    _MAPS[filename] = line_map


def lookup(filename: str, lineno: int) -> errors.SourceLocation | None:
    line_map = _MAPS.get(filename)
    return None if line_map is None else line_map.get(lineno)


def current_location() -> errors.SourceLocation | None:
    """The user location of the innermost generated-code frame on the stack, if any."""
    frame = sys._getframe(1)
    while frame is not None:
        line_map = _MAPS.get(frame.f_code.co_filename)
        if line_map is not None:
            loc = line_map.get(frame.f_lineno)
            if loc is not None:
                return loc
        frame = frame.f_back
    return None
