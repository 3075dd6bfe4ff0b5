"""Where the user's code is: locations of converted code on the Python stack.

Converted functions are compiled from trees that keep the user's file name and line numbers, so a
frame running converted code already points at the user's line. The compiler registers those code
objects here; ``current_location()`` finds the innermost such frame while a graph is being built,
so every equation records the user line it came from. ``warn`` attributes a warning to the
user's line that called into tograph.
"""

from __future__ import annotations

import functools
import linecache
import os
import sys
import types
import warnings
import weakref
from collections.abc import Iterable
from typing import Any

import numpy as np

from tograph import errors

# Keyed by id: hashing a code object hashes all the code nested in it, and structurally equal code
# of two functions would compare equal. An entry goes with its code object (a conversion dropped
# from the cache), and a lookup checks that the entry's code is the very one asked about. A plain
# dict of weak references rather than a ``WeakValueDictionary``: every equation built looks up
# the frames above it here, and the latter's lookups run in Python.
_CONVERTED: dict[int, weakref.ref[types.CodeType]] = {}
# Per converted code object (by id, as above): its line number at each instruction (the byte
# offset ``f_lasti`` halved). ``frame.f_lineno`` finds the line by scanning the code's line table
# from its start, so on a long function every equation built paid for the whole function.
_LINES: dict[int, list[int | None]] = {}
# Per converted code object (by id, as above): the location of each of its lines met so far, with
# the ``linecache`` entry of its file they were read from (a new entry, the file read again, makes
# them stale). Every equation built on a line has its location: looked up once per line.
_LOCATIONS: dict[int, tuple[Any, dict[int | None, errors.SourceLocation]]] = {}
# Per file name: whether its code is plain user code (``_plain_user_file``). A dict read inline,
# as every equation built walks the frames above it.
_PLAIN: dict[str, bool] = {}
# The globals of the modules converted code came from, by file name, for the latest files.
_GLOBALS: dict[str, dict[str, Any]] = {}
_GLOBALS_KEPT = 256
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
# NumPy's and the standard library's directories: their frames are never the user's line.
_SYSTEM = tuple(
    os.path.dirname(os.path.abspath(m.__file__)) + os.sep
    for m in (np, os)
    if isinstance(getattr(m, "__file__", None), str)
)


def register(codes: Iterable[types.CodeType], globals_: dict[str, Any] | None = None) -> None:
    """Marks ``codes`` (and the code objects nested in them) as converted user code; with
    ``globals_``, the globals of the module they come from (``module_globals``)."""
    todo = list(codes)
    if globals_ is not None:
        for code in todo:
            _GLOBALS.pop(code.co_filename, None)  # the newest last, the oldest first out
            _GLOBALS[code.co_filename] = globals_
        while len(_GLOBALS) > _GLOBALS_KEPT:
            del _GLOBALS[next(iter(_GLOBALS))]
    while todo:
        code = todo.pop()
        key = id(code)
        _CONVERTED[key] = weakref.ref(code, functools.partial(_forget, key))
        todo.extend(c for c in code.co_consts if isinstance(c, types.CodeType))


def module_globals(filename: str) -> dict[str, Any] | None:
    """The globals of the module whose converted code has file name ``filename``, if any was
    converted lately (a generated graph shares its name and warning registry)."""
    return _GLOBALS.get(filename)


def _forget(key: int, ref: weakref.ref[types.CodeType]) -> None:
    """Drops the entry of a code object that is gone (unless the id has a newer entry)."""
    if _CONVERTED.get(key) is ref:
        del _CONVERTED[key]
        _LINES.pop(key, None)
        _LOCATIONS.pop(key, None)


def is_converted(code: types.CodeType) -> bool:
    ref = _CONVERTED.get(id(code))
    return ref is not None and ref() is code


def _location(code: types.CodeType, lineno: int | None) -> errors.SourceLocation:
    line = linecache.getline(code.co_filename, lineno)
    return _shared_location(code.co_filename, lineno, line, _user_function(code))


@functools.lru_cache(maxsize=4096)
def _shared_location(file: str, lineno: int, line: str, function: str) -> errors.SourceLocation:
    """One (immutable) location for equal fields: every equation built on a line has it."""
    return errors.SourceLocation(file, lineno, 0, line, function)


def location(file: str, lineno: int) -> errors.SourceLocation:
    """The location of line ``lineno`` of ``file`` (a warning's, say), with the line itself."""
    return errors.SourceLocation(file, lineno, 0, linecache.getline(file, lineno))


def _user_function(code: types.CodeType) -> str:
    """The user's function a converted code object belongs to (not the generated helper's name)."""
    return _function_name(getattr(code, "co_qualname", code.co_name), code.co_name)


@functools.lru_cache(maxsize=1024)
def _function_name(qualname: str, name: str) -> str:
    parts = qualname.split(".<locals>.")
    return parts[1] if len(parts) > 1 else name


def current_location() -> errors.SourceLocation | None:
    """The user location of the innermost converted-code frame on the stack, if any; or, when
    that frame called plain user code (a helper run as it is, a library's Python function), the
    line of the innermost such frame, where eager code would warn or raise."""
    frame = sys._getframe(1)
    inner = None
    while frame is not None:
        code = frame.f_code
        key = id(code)
        ref = _CONVERTED.get(key)  # is_converted, inline: every equation built asks
        if ref is not None and ref() is code:
            if inner is not None:
                return _location(inner.f_code, inner.f_lineno)
            return _converted_location(key, code, _line_of(key, frame))
        if inner is None:
            plain = _PLAIN.get(code.co_filename)
            if plain is None:
                plain = _PLAIN[code.co_filename] = _plain_user_file(code.co_filename)
            if plain:
                inner = frame
        frame = frame.f_back
    return None


def _converted_location(
    key: int, code: types.CodeType, lineno: int | None
) -> errors.SourceLocation:
    """``_location(code, lineno)`` of the converted code object whose id is ``key``, made once
    per line while ``linecache`` holds the same lines of its file."""
    entry = linecache.cache.get(code.co_filename)
    known = _LOCATIONS.get(key)
    if known is None or known[0] is not entry:
        known = _LOCATIONS[key] = (entry, {})
    found = known[1].get(lineno)
    if found is None:
        found = known[1][lineno] = _location(code, lineno)
    return found


def _plain_user_file(filename: str) -> bool:
    """Whether code of ``filename`` is the user's (or a library's) rather than tograph's,
    NumPy's or the standard library's."""
    path = os.path.abspath(filename) if not filename.startswith("<") else filename
    return not path.startswith((_PACKAGE, "<tograph ", "<frozen ", *_SYSTEM))


def _line_of(key: int, frame: types.FrameType) -> int | None:
    """``frame.f_lineno`` of a converted frame whose code has id ``key``, read from the code's
    table of lines per instruction (made on first use)."""
    lines = _LINES.get(key)
    if lines is None:
        lines = _LINES[key] = _line_table(frame.f_code)
    index = frame.f_lasti // 2
    if 0 <= index < len(lines):
        return lines[index]
    return frame.f_lineno


def _line_table(code: types.CodeType) -> list[int | None]:
    """The line of each two-byte instruction of ``code`` (``co_lines``, which maps byte offsets
    to lines exactly as ``f_lineno`` does)."""
    lines: list[int | None] = [None] * (len(code.co_code) // 2)
    for start, end, line in code.co_lines():
        lines[start // 2 : end // 2] = [line] * (end // 2 - start // 2)
    return lines


def caller_location() -> errors.SourceLocation | None:
    """The innermost frame of code that is neither tograph's nor NumPy's: the user's line that
    led to the present call, in eager code too."""
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__") or ""
        if module.partition(".")[0] not in ("tograph", "numpy"):
            return _location(frame.f_code, frame.f_lineno)
        frame = frame.f_back
    return None


def current_module() -> str | None:
    """The module name of the innermost converted-code frame on the stack, if any."""
    frame = sys._getframe(1)
    while frame is not None:
        if is_converted(frame.f_code):
            return frame.f_globals.get("__name__")
        frame = frame.f_back
    return None


def definition(fn: Any) -> errors.SourceLocation:
    """The location of ``fn``'s ``def`` line."""
    return _location(fn.__code__, fn.__code__.co_firstlineno)


def traceback_location(tb: types.TracebackType | None) -> errors.SourceLocation | None:
    """The innermost converted-code frame of a traceback (where a build-time error arose)."""
    found = None
    while tb is not None:
        if is_converted(tb.tb_frame.f_code):
            found = _location(tb.tb_frame.f_code, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _inside_tograph(code: types.CodeType) -> bool:
    """Whether ``code`` is tograph's own (its package, or a graph it generated)."""
    return code.co_filename.startswith((_PACKAGE, "<tograph "))


def warn(message: str, category: type[Warning]) -> None:
    """Warns, attributed to the innermost frame outside tograph: the user's line that called a
    compiled function (or, while a graph is built, the converted user line making the call), so
    the warning names the user's file and line rather than tograph's."""
    level, frame = 1, sys._getframe(0)
    while frame.f_back is not None and _inside_tograph(frame.f_code):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
