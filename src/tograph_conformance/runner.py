"""The conformance runner: checks every case (or those matching a pattern) and reports the results.

Stage: none (test harness). Input: the cases of ``conformance.cases``. Output: a ``Report`` (per
case: passed or the short reason it failed) and, from the command line, progress, a per-category
table and a final ``N passed, M failed`` line::

    python -m tograph_conformance [-k PATTERN] [-v]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from tograph_conformance import case as case_mod
from tograph_conformance import cases as cases_pkg
from tograph_conformance import check, compare

_CASE_TIMEOUT_SECONDS = 30.0


@dataclasses.dataclass(frozen=True)
class Result:
    """The outcome of one case: ``reason`` is None when it passed."""

    name: str
    category: str
    reason: str | None
    seconds: float

    @property
    def passed(self) -> bool:
        return self.reason is None


@dataclasses.dataclass
class Report:
    """The results of a run, in case order."""

    results: list[Result] = dataclasses.field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def failed(self) -> int:
        return len(self.results) - self.passed

    @property
    def ok(self) -> bool:
        return self.failed == 0

    def failures(self) -> list[Result]:
        return [r for r in self.results if not r.passed]

    def by_category(self) -> list[tuple[str, int, int]]:
        """``(category, passed, failed)`` per category, in the order categories first appear."""
        table: dict[str, list[int]] = {}
        for r in self.results:
            counts = table.setdefault(r.category, [0, 0])
            counts[0 if r.passed else 1] += 1
        return [(name, p, f) for name, (p, f) in table.items()]

    def summary(self) -> str:
        return f"{self.passed} passed, {self.failed} failed"

    def format(self) -> str:
        """The category table, the failures with their reasons, and the summary line."""
        rows = self.by_category()
        width = max([len("category")] + [len(name) for name, _, _ in rows])
        lines = [f"{'category':<{width}}  passed  failed"]
        lines += [f"{name:<{width}}  {p:>6}  {f:>6}" for name, p, f in rows]
        if self.failures():
            lines += ["", "failures:"]
            lines += [f"  {r.name} [{r.category}]: {r.reason}" for r in self.failures()]
        lines += ["", self.summary()]
        return "\n".join(lines)


def select(pattern: str | None = None) -> list[case_mod.Case]:
    """The cases whose name or category matches the regex ``pattern`` (all when None).

    Raises:
      ValueError: ``pattern`` is not a regular expression, or no case matches it (a run of
        nothing would pass, hiding a typo).
    """
    found = cases_pkg.all_cases()
    if pattern is None:
        return found
    try:
        regex = re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise ValueError(f"-k {pattern!r} is not a regular expression: {exc}") from None
    chosen = [c for c in found if regex.search(c.name) or regex.search(c.category)]
    if not chosen:
        raise ValueError(f"no conformance case or category matches -k {pattern!r}")
    return chosen


def run_case(case: case_mod.Case) -> Result:
    """Checks one case; any exception the check itself meets is a failure reason."""
    start = time.perf_counter()
    try:
        with _time_limit(_CASE_TIMEOUT_SECONDS):
            check.check_case(case)
        reason = None
    except check.CaseFailure as exc:
        reason = str(exc)
    except Exception as exc:  # noqa: BLE001 - a crash in one case must not stop the run
        reason = f"crashed: {compare.describe(exc)}"
    return Result(case.name, case.category, _one_line(reason), time.perf_counter() - start)


def _one_line(reason: str | None, limit: int = 300) -> str | None:
    if reason is None:
        return None
    text = " ".join(reason.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Stops a case that runs too long (a loop that never ends); only on the main thread."""
    usable = hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _Timeout(f"did not finish within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run(
    pattern: str | None = None, on_result: Callable[[Result, int, int], None] | None = None
) -> Report:
    """Runs the cases matching ``pattern`` (see ``select``).

    Args:
      pattern: a case-insensitive regex matched against case names and categories; None for all.
      on_result: called after each case with its result, the number done and the total.

    Returns:
      The ``Report`` of the run.
    """
    selected = select(pattern)
    report = Report()
    for done, case in enumerate(selected, start=1):
        result = run_case(case)
        report.results.append(result)
        if on_result is not None:
            on_result(result, done, len(selected))
    return report


class _Progress:
    """A bar on a terminal, else dots (``.`` pass, ``F`` fail); with -v a line per case."""

    def __init__(self, stream: TextIO, verbose: bool):
        self.stream = stream
        self.verbose = verbose
        self.tty = stream.isatty()

    def __call__(self, result: Result, done: int, total: int) -> None:
        if self.verbose:
            status = "PASS" if result.passed else "FAIL"
            self.stream.write(f"{status} {result.category}/{result.name} ({result.seconds:.2f}s)\n")
        elif self.tty:
            filled = 30 * done // total
            self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
            self.stream.write("\n" if done == total else "")
        else:
            self.stream.write("." if result.passed else "F")
            self.stream.write("\n" if done == total or done % 70 == 0 else "")
        self.stream.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status (1 when a case failed; a bad or unmatched
    ``-k`` exits with status 2, as argparse does)."""
    parser = argparse.ArgumentParser(
        prog="python -m tograph_conformance", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "-k", dest="pattern", help="only cases whose name or category matches this regex"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per case")
    options = parser.parse_args(argv)
    try:
        select(options.pattern)
    except ValueError as exc:
        parser.error(str(exc))
    report = run(options.pattern, _Progress(sys.stdout, options.verbose))
    print(report.format())
    return 0 if report.ok else 1
