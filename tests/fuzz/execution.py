"""Running a generated program eagerly and under ``tograph.to_static``.

The program's source is written to a file of its own and imported from there, so ``inspect``
(and so tograph) reads the function's source as it does a user's. Each call gets fresh arguments
from the program's ``make_args(variant)``; the compiled function is called on the input sets in
``CALLS`` order, so the second call of a signature takes the cached (fast) path.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import io
import itertools
import os
import pathlib
import signal
import types
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import tograph as tg

CALLS = (0, 1, 0)  # the input set of each call
_files = itertools.count()


class Hang(BaseException):
    """A program ran past its time limit (a BaseException: no handler in tograph catches it)."""


class EagerHang(Hang):
    """The plain function itself ran past the time limit (a program whose arrays grow without
    bound): ``fallback`` is why tograph would not compile it, or None if it compiles."""

    def __init__(self, message: str, fallback: str | None):
        super().__init__(message)
        self.fallback = fallback


@dataclasses.dataclass
class Run:
    """One call: its result or exception, the arguments afterwards, output, fallbacks and other
    warnings (NumPy's floating-point ones), and for a compiled call, why the concrete function
    that served it fell back (or None)."""

    value: Any
    exception: BaseException | None
    args: tuple[Any, ...]
    stdout: str
    fallback_warnings: list[str]
    fallback: str | None = None
    warned: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Trial:
    """A program's eager and compiled runs, call by call, and why it fell back (if it did)."""

    path: pathlib.Path
    pairs: list[tuple[Run, Run]]
    fallbacks: list[str]


def load(source: str, directory: pathlib.Path) -> types.ModuleType:
    """Imports ``source`` from a new file in ``directory`` (never reused: ``linecache`` keeps
    the lines of every file it has read)."""
    path = directory / f"prog_{os.getpid()}_{next(_files)}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def call(fn: Callable[..., Any], args: tuple[Any, ...]) -> Run:
    """Calls ``fn(*args)``, recording what it returned or raised, printed and warned."""
    buffer = io.StringIO()
    value, exception = None, None
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(buffer):
        warnings.simplefilter("always")
        try:
            value = fn(*args)
        except Exception as exc:  # noqa: BLE001 - the outcome to compare
            exception = exc
    fallbacks = [str(w.message) for w in caught if issubclass(w.category, tg.FallbackWarning)]
    warned = [
        f"{w.category.__name__}: {w.message}"
        for w in caught
        if not issubclass(w.category, tg.FallbackWarning)
    ]
    return Run(value, exception, args, buffer.getvalue(), fallbacks, warned=warned)


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raises ``Hang`` in the block after ``seconds`` (on the main thread, where signals are)."""

    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _served_by(static: Any, args: tuple[Any, ...]) -> str | None:
    """The fallback reason of the concrete function ``static`` keeps for ``args``, or None."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            reason: str | None = static.concrete(*args).fallback
        except Exception:  # noqa: BLE001 - a trace that raised is the call's own outcome
            reason = None
    return reason


def _compile_only(static: Any, args: tuple[Any, ...]) -> str | None:
    """Why ``static`` falls back on ``args`` (traced within a time limit of its own, so that a
    slow trace is a hang too), or None if it compiles."""
    with time_limit(10.0), warnings.catch_warnings():
        warnings.simplefilter("ignore", tg.FallbackWarning)
        reason: str | None = static.concrete(*args).fallback
        return reason


def trial(source: str, directory: pathlib.Path, seconds: float = 30.0) -> Trial:
    """Runs the program in ``source`` eagerly and compiled on each input set of ``CALLS``.

    Raises:
      Hang: the program (eager or compiled, or tracing it) ran past ``seconds``.
    """
    with time_limit(seconds):
        module = load(source, directory)
        static = tg.to_static(module.f)
        pairs = []
        for variant in CALLS:
            try:
                eager = call(module.f, module.make_args(variant))
            except Hang as exc:
                args = module.make_args(variant)
                raise EagerHang(f"the eager run {exc}", _compile_only(static, args)) from None
            compiled = call(static, module.make_args(variant))
            compiled.fallback = _served_by(static, module.make_args(variant))
            pairs.append((eager, compiled))
        fallbacks = [cf.fallback for cf in static.concrete_functions if cf.fallback is not None]
    return Trial(pathlib.Path(module.__file__ or ""), pairs, fallbacks)
