"""Stage 1, parse: a Python function object -> its gast tree with everything needed to convert it.

Input: a function, method or lambda. Output: ``ParsedFunction`` holding its source, file and line
offset, whose ``tree()`` gives a fresh gast ``FunctionDef`` (lambdas are turned into an equivalent
``def``) with every ``lineno`` absolute in the user's file. Each stage that rewrites a tree gets
its own by calling ``tree()`` again, which is cheaper than copying one.
Raises ``UnsupportedError`` when the source cannot be found (builtins, ``exec``'d code, REPL).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import linecache
import re
import textwrap
from collections.abc import Callable
from typing import Any

import gast

from tograph import errors
from tograph.frontend import translate


@dataclasses.dataclass(frozen=True)
class ParsedFunction:
    """A function's tree and environment; see module docstring."""

    fn: Callable[..., Any]
    source: str  # the function's dedented source, parseable on its own
    line_offset: int  # added to the source's line numbers to get the file's
    filename: str
    source_lines: tuple[str, ...]  # the user's whole file, for locations

    @property
    def name(self) -> str:
        return str(self.fn.__code__.co_name)

    def tree(self) -> gast.FunctionDef:
        """A new gast tree of the function, with the user's line numbers."""
        # Blank lines in front put every node on its line in the file, with no pass over the tree.
        module = translate.parse("\n" * self.line_offset + self.source)
        return _find_function(module, self.fn)

    @property
    def freevars(self) -> tuple[str, ...]:
        return self.fn.__code__.co_freevars

    def loc(self, node: Any) -> errors.SourceLocation:
        """The user's source location of ``node``."""
        return location(self.filename, self.source_lines, node, self.name)


def location(
    filename: str, lines: tuple[str, ...], node: Any, function: str = ""
) -> errors.SourceLocation:
    lineno = getattr(node, "lineno", 0) or 0
    text = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
    return errors.SourceLocation(
        filename, lineno, getattr(node, "col_offset", 0) or 0, text, function
    )


def parse_function(fn: Callable[..., Any]) -> tuple[ParsedFunction, gast.FunctionDef]:
    """Parses ``fn``'s source; returns it with a first tree (``ParsedFunction.tree()`` makes more).

    Raises:
      UnsupportedError: no source is available for ``fn``.
    """
    code = code_of(fn)
    quick = _quick_source(code) if fn.__name__ != "<lambda>" else None
    if quick is not None:
        parsed = ParsedFunction(
            fn,
            textwrap.dedent("".join(quick)),
            code.co_firstlineno - 1,
            code.co_filename,
            tuple(linecache.getlines(code.co_filename)),
        )
        try:
            return parsed, parsed.tree()
        except (SyntaxError, errors.UnsupportedError):
            pass  # lines the code objects do not cover: inspect finds the whole block
    try:
        # The code's own lines: ``getsourcelines(fn)`` would follow ``__wrapped__`` and give a
        # ``functools.wraps`` wrapper the source of the function it wraps.
        lines, first_line = inspect.getsourcelines(code)
    except (OSError, TypeError) as exc:
        raise errors.UnsupportedError(
            f"the source of {fn.__qualname__} is not available ({exc})",
            construct="source not available",
        ) from None
    filename = code.co_filename
    file_lines = tuple(linecache.getlines(filename)) or tuple(lines)
    if code.co_name == "<lambda>":
        source, offset = _lambda_source("".join(lines), first_line, code)
        parsed = ParsedFunction(fn, source, offset, filename, file_lines)
        return parsed, parsed.tree()
    parsed = ParsedFunction(
        fn, textwrap.dedent("".join(lines)), first_line - 1, filename, file_lines
    )
    try:
        return parsed, parsed.tree()
    except SyntaxError:
        raise errors.UnsupportedError(
            f"the source of {fn.__qualname__} could not be parsed", construct="unparsable source"
        ) from None


def _quick_source(code: Any) -> list[str] | None:
    """The lines of a ``def`` (decorators included) found from its code objects' line numbers,
    without ``inspect``'s tokenizing: from ``co_firstlineno`` to the last line any of its code
    runs on, then the more indented lines that follow (a trailing comment, a closing bracket).
    None when the file's lines are unknown; the caller falls back to ``inspect`` when these do
    not parse."""
    lines = linecache.getlines(code.co_filename)
    first = code.co_firstlineno
    if not lines or not 0 < first <= len(lines):
        return None
    last = _last_line(code)
    head = lines[first - 1]
    indent = len(head) - len(head.lstrip())
    while last < len(lines):
        text = lines[last]
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        last += 1
    while last > first and not lines[last - 1].strip():
        last -= 1
    return lines[first - 1 : last]


def _last_line(code: Any) -> int:
    """The last source line of ``code`` and of the code objects nested in it."""
    last = max((line for _, _, line in code.co_lines() if line is not None), default=0)
    for const in code.co_consts:
        if hasattr(const, "co_lines"):
            last = max(last, _last_line(const))
    return max(last, code.co_firstlineno)


def code_of(fn: Callable[..., Any]) -> Any:
    """``fn``'s code object.

    Raises:
      UnsupportedError: ``fn`` has none (a builtin, a ufunc, a class): no source to convert.
    """
    code = getattr(fn, "__code__", None)
    if code is None:
        raise errors.UnsupportedError(
            f"{fn!r} is not a Python function, so there is no source to convert",
            construct="non-Python callable",
        )
    return code


def _lambda_source(text: str, first_line: int, code: Any) -> tuple[str, int]:
    """The lambda expression of ``code`` cut out of the lines holding it, and its line offset.

    The lines may hold more than the lambda (a call's other arguments, the rest of a dict, other
    lambdas), so each ``lambda`` keyword's candidate is the longest text from it that parses as
    a lambda with ``code``'s parameters. Where the code's instructions are, in columns too
    (``co_positions``), picks out the lambda whose body they are: the nearest keyword before
    them; without positions (Python 3.10) a lambda must be alone on its line.
    """
    params = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    body = _body_start(code)
    found = []
    for match in re.finditer(r"\blambda\b", text):
        line = first_line + text.count("\n", 0, match.start())
        line_start = text.rfind("\n", 0, match.start()) + 1
        column = len(text[line_start : match.start()].encode("utf-8"))
        candidate = _longest_lambda(text, match.start(), params)
        if candidate is not None and (body is None or (line, column) < body):
            found.append((candidate, line, column))
    if body is not None and found:
        candidate, line, _ = max(found, key=lambda f: (f[1], f[2]))
        return f"({candidate})", line - 1
    on_line = [f for f in found if f[1] == code.co_firstlineno]
    if len(on_line) != 1:
        raise errors.UnsupportedError(
            f"cannot tell which lambda on line {code.co_firstlineno} is this one",
            construct="ambiguous lambda",
        )
    candidate, line, _ = on_line[0]
    return f"({candidate})", line - 1


def _longest_lambda(text: str, start: int, params: tuple[str, ...]) -> str | None:
    """The longest text from ``start`` that parses as a lambda taking ``params``, if any."""
    for end in range(len(text), start, -1):
        candidate = text[start:end]
        try:
            expr = ast.parse(f"({candidate})", mode="eval").body
        except SyntaxError:
            continue
        if isinstance(expr, ast.Lambda):
            names = tuple(a.arg for a in expr.args.args + expr.args.kwonlyargs)
            return candidate if names == params else None
    return None


def _body_start(code: Any) -> tuple[int, int] | None:
    """The first (line, column in bytes) of a lambda's body instructions, if Python says."""
    positions = getattr(code, "co_positions", None)
    if positions is None:
        return None
    starts = [
        (line, column)
        for line, _, column, end in positions()
        if line is not None and column is not None and end  # RESUME and the like: no span
    ]
    return min(starts) if starts else None


def _find_function(module: Any, fn: Callable[..., Any]) -> gast.FunctionDef:
    name = fn.__code__.co_name
    if name != "<lambda>":
        first = module.body[0] if module.body else None
        candidates = (
            [first]
            if isinstance(first, gast.FunctionDef) and first.name == name
            else gast.walk(module)
        )
        for node in candidates:
            if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)) and node.name == name:
                if isinstance(node, gast.AsyncFunctionDef):
                    raise errors.UnsupportedError(f"async function {name}", construct="async def")
                node.decorator_list = []
                return node
        raise errors.UnsupportedError(
            f"cannot find the definition of {fn.__qualname__}", construct="source not found"
        )
    lam = module.body[0].value  # the source is the lambda alone (``_lambda_source``)
    ret = gast.Return(value=lam.body)
    gast.copy_location(ret, lam.body)
    node = gast.FunctionDef(
        name="lambda_",
        args=lam.args,
        body=[ret],
        decorator_list=[],
        returns=None,
        type_comment=None,
        type_params=[],
    )
    return gast.copy_location(node, lam)
