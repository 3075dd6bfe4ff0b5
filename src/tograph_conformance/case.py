"""The conformance case format: a user function, its input sets, and what compiling it must give.

Stage: none (test harness). Input: functions written in the case modules, registered with
``Registry.case``. Output: ``Case`` records that ``conformance.check`` verifies. A case module reads
like a corpus of ordinary user code::

    CASES = Registry("branches")

    @CASES.case(args=[(np.float64(2.0),), (np.float64(-1.0),)], expect_ops={"cond"})
    def sign_step(x):
        if x > 0:
            return x - 1
        return x + 1
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Callable, Iterable
from typing import Any

from tograph import errors

EXPECTATIONS = ("match", "fallback", "error")
_DEF = re.compile(r"^\s*(async\s+)?def\s")


class Inputs(tuple):
    """An input set with keyword arguments: ``Inputs(args, kwargs)`` is ``fn(*args, **kwargs)``."""

    kwargs: dict[str, Any]

    def __new__(cls, args: Iterable[Any], kwargs: dict[str, Any] | None = None) -> Inputs:
        made = super().__new__(cls, tuple(args))
        made.kwargs = dict(kwargs or {})
        return made


def kw(*args: Any, **kwargs: Any) -> Inputs:
    """An input set that passes keyword arguments: ``kw(x, steps=3)``."""
    return Inputs(args, kwargs)


def split(inputs: tuple[Any, ...]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The positional and keyword arguments of one input set."""
    return tuple(inputs), dict(getattr(inputs, "kwargs", {}))


@dataclasses.dataclass(frozen=True)
class Case:
    """One conformance case.

    Attributes:
      name: unique case name (the pytest id).
      category: the group it is reported under (the case module).
      fn: the user function to compile with ``tograph.to_static``.
      args: the input sets; each a tuple of positional arguments (or ``kw(...)``).
      expect_ops: primitive names that must occur in ``cf.op_counts()`` for every input set.
      forbid_ops: primitive names that must not occur there (e.g. control flow on static values).
      expect: "match" (compiled equals eager), "fallback" (runs eagerly with a FallbackWarning)
        or "error" (raises ``error_type`` while converting).
      error: for "fallback" and "error", a regex the reason or message must match.
      at: for "fallback" and "error", a snippet of the one source line the reason or message must
        point at (``file:LINE``); found in ``at_fn`` (default ``fn``) with ``inspect``.
      at_fn: the function whose source holds ``at``, when it is not ``fn``.
      error_type: for "error", the exception class expected.
      grad: for "match", the positional arguments (float arrays or scalars) to differentiate the
        function's float scalar result by: ``tograph.grad`` must compile too and agree with
        central finite differences of the eager function.
    """

    name: str
    category: str
    fn: Callable[..., Any]
    args: tuple[tuple[Any, ...], ...]
    expect_ops: frozenset[str] = frozenset()
    forbid_ops: frozenset[str] = frozenset()
    expect: str = "match"
    error: str | None = None
    at: str | None = None
    at_fn: Callable[..., Any] | None = None
    error_type: type[BaseException] = errors.ConversionError
    grad: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.expect not in EXPECTATIONS:
            raise ValueError(f"case {self.name}: unknown expect {self.expect!r}")
        if not self.args:
            raise ValueError(f"case {self.name}: needs at least one input set")
        if self.expect != "match" and (self.error is None or self.at is None):
            raise ValueError(f"case {self.name}: a {self.expect} case needs `error` and `at`")
        if self.grad and self.expect != "match":
            raise ValueError(f"case {self.name}: only a match case can check gradients")

    def expected_line(self) -> int:
        """The absolute line number of the ``at`` snippet in its function's source file."""
        return line_of(self.at_fn or self.fn, self.at or "")

    def expected_file(self) -> str:
        """The file the ``at`` line is in."""
        return (self.at_fn or self.fn).__code__.co_filename


def line_of(fn: Callable[..., Any], snippet: str) -> int:
    """The line of ``fn``'s source file holding ``snippet``; it must occur on exactly one line.

    Raises:
      ValueError: the snippet is on no line, or on several, of the function (after its decorators).
    """
    lines, first = inspect.getsourcelines(fn)
    heads = [i for i, text in enumerate(lines) if _DEF.match(text)]
    start = heads[0] if heads else 0  # skip decorator lines: they may quote the snippet
    hits = [first + i for i, text in enumerate(lines) if i >= start and snippet in text]
    if len(hits) != 1:
        raise ValueError(f"{snippet!r} is on {len(hits)} lines of {fn.__qualname__}, not on one")
    return hits[0]


class Registry:
    """The cases of one category, collected by the ``case`` decorator in definition order."""

    def __init__(self, category: str):
        self.category = category
        self.cases: list[Case] = []

    def case(
        self,
        args: Iterable[tuple[Any, ...]],
        *,
        name: str | None = None,
        expect_ops: Iterable[str] = (),
        forbid_ops: Iterable[str] = (),
        **options: Any,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers the decorated function as a case (see ``Case``); returns it unchanged."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.add(
                Case(
                    name or fn.__name__,
                    self.category,
                    fn,
                    tuple(args),
                    frozenset(expect_ops),
                    frozenset(forbid_ops),
                    **options,
                )
            )
            return fn

        return register

    def add(self, case: Case) -> None:
        """Registers a case built by hand (e.g. for a lambda or a bound method)."""
        if case.category != self.category:
            raise ValueError(f"case {case.name} is in {case.category}, not {self.category}")
        self.cases.append(case)
