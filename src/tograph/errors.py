"""User-facing errors and source locations.

Every error a user can meet is a ``ToGraphError`` subclass. Errors tied to user code carry a
``SourceLocation`` and print the offending line with a caret, so a message reads like a Python
traceback of the user's own function, never of generated code.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class SourceLocation:
    """Where a construct is in the user's source: ``file:line`` plus the line itself."""

    file: str
    line: int
    col: int = 0
    source_line: str = ""
    function: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def excerpt(self) -> str:
        """The source line with a caret under the column, or '' if the source is unknown."""
        if not self.source_line:
            return ""
        text = self.source_line.rstrip()
        indent = len(text) - len(text.lstrip())
        stripped = text.lstrip()
        caret = " " * max(self.col - indent, 0) + "^"
        return f"    {stripped}\n    {caret}"


class ToGraphError(Exception):
    """Base class of every tograph error; carries an optional source location."""

    def __init__(self, message: str, loc: SourceLocation | None = None, hint: str | None = None):
        self.message = message
        self.loc = loc
        self.hint = hint
        super().__init__(self._format())

    def located(self, loc: SourceLocation | None) -> ToGraphError:
        """This error, placed at ``loc`` if it has no location yet (for a re-raise)."""
        if self.loc is None and loc is not None:
            self.loc = loc
            self.args = (self._format(),)
        return self

    def _format(self) -> str:
        text = self.message
        if self.loc is not None:
            where = f"{self.loc}" + (f", in {self.loc.function}" if self.loc.function else "")
            text = f"{where}: {text}"
            excerpt = self.loc.excerpt()
            if excerpt:
                text += "\n" + excerpt
        if self.hint:
            text += f"\n  (hint: {self.hint})"
        return text


class ShapeError(ToGraphError, ValueError):
    """Operands whose shapes do not fit the operation (matmul, broadcasting, reshape, ...)."""


class IndexingError(ShapeError, IndexError):
    """An index that does not fit the indexed array: out of bounds, too many indices, bad mask."""


class DTypeError(ToGraphError, TypeError):
    """Operands whose dtypes do not fit the operation, or a loop variable changing dtype."""


class TracerError(ToGraphError, TypeError):
    """A tensor used where a concrete Python value is needed (``bool(t)``, ``int(t)``, ...)."""


class UnsupportedError(ToGraphError):
    """A construct or NumPy function that tograph cannot put in a graph (leads to fallback)."""

    def __init__(
        self,
        message: str,
        loc: SourceLocation | None = None,
        hint: str | None = None,
        construct: str = "",
    ):
        self.construct = construct
        super().__init__(message, loc, hint)


class ConversionError(ToGraphError):
    """The function cannot be converted, and the problem is in the user's code."""


class UnboundVariableError(ConversionError, UnboundLocalError):
    """A variable read (or returned) where it may not have been assigned, as Python would report."""


def locate(exc: BaseException, loc: SourceLocation | None) -> None:
    """Records the user's line where a graph raised ``exc`` (an exception of the user's code or
    of a kernel, raised as itself), for ``location_of``."""
    exc.__dict__["_tograph_loc"] = loc


def located_by_graph(exc: BaseException) -> bool:
    """Whether a graph raised ``exc`` and recorded where (``locate``)."""
    return "_tograph_loc" in exc.__dict__


def location_of(exc: BaseException) -> SourceLocation | None:
    """The user's line an error belongs to: a ``ToGraphError``'s ``loc``, or where a graph
    raised it (``locate``)."""
    if isinstance(exc, ToGraphError):
        return exc.loc
    return getattr(exc, "_tograph_loc", None)


class GraphRuntimeError(ToGraphError, RuntimeError):
    """tograph's own error while executing a graph, located at the user's source line (errors of
    the user's code and of kernels are raised as themselves: ``backend.codegen.runtime_error``)."""


class ExportError(ToGraphError):
    """A graph that cannot be saved or exported: an op or value the target format cannot hold."""


class LoadError(ToGraphError):
    """A file ``tograph.load`` refuses: not a tograph file, damaged, or of another version."""


class MapError(ToGraphError):
    """One call of ``f.map`` failed: the error names the item, and the user's line where known.

    ``index`` is the item's position in the mapped iterable; ``__cause__`` is the exception the
    call raised when it could be brought back from the worker. It pickles with its fields, since
    it is raised in a worker process and re-raised in the caller's.
    """

    def __init__(
        self,
        message: str,
        loc: SourceLocation | None = None,
        hint: str | None = None,
        index: int | None = None,
    ):
        self.index = index
        super().__init__(message, loc, hint)

    def __reduce__(self) -> tuple[object, ...]:
        fields = None if self.loc is None else dataclasses.astuple(self.loc)
        return _rebuild_map_error, (self.message, fields, self.hint, self.index, self.__cause__)


def _rebuild_map_error(
    message: str,
    loc_fields: tuple[str, int, int, str, str] | None,
    hint: str | None,
    index: int | None,
    cause: BaseException | None,
) -> MapError:
    loc = None if loc_fields is None else SourceLocation(*loc_fields)
    error = MapError(message, loc, hint, index)
    error.__cause__ = cause
    return error


class InternalError(ToGraphError):
    """A broken invariant inside tograph. This is a bug."""

    def __init__(self, message: str, loc: SourceLocation | None = None, hint: str | None = None):
        super().__init__(f"{message}. This is a bug in tograph; please report it.", loc, hint)


class FallbackWarning(UserWarning):
    """A function (or part of it) runs eagerly because it could not be converted to a graph."""


class RetracingWarning(UserWarning):
    """A function keeps being traced again for new argument types or static values."""
