"""Judging a trial: do the compiled runs do what the eager runs did?

Each compiled call must match its eager call on: the result (values, dtypes, shapes, and exact
types: a Python ``int`` is not a ``np.int64``, a NumPy scalar not a 0-d array), the exception (type
and message), the printed output, the warnings (NumPy's floating-point ones: none more often than
eager's, though one may be missing where an unused computation was removed), the state of every
argument afterwards (arrays, lists, dicts, object attributes), and memory sharing: which result
arrays share memory with which argument arrays or with each other, and which are writeable; which
results and arguments are one object (an argument returned as it is, an argument array held in an
argument list, the same array passed twice); and across calls, which results share memory with
an earlier call's (a graph constant handed over on every call). A function that falls back must
say so with a ``FallbackWarning`` naming its line when the eager run succeeds.

A ``Verdict`` is one of ``compiled``, ``fell back``, ``differed`` or ``crashed`` (the compiled
call raised an error of tograph's own where eager did not), with a reason.
"""

from __future__ import annotations

import collections
import dataclasses
import pathlib
import re
import traceback
from typing import Any

import numpy as np

import tograph
from tograph import errors

from .execution import Run, Trial

STATUSES = ("compiled", "fell back", "differed", "crashed")
_TOGRAPH_DIR = str(pathlib.Path(tograph.__file__).parent)
_RTOL = {2: 1e-3, 4: 1e-5, 8: 1e-12}


@dataclasses.dataclass(frozen=True)
class Verdict:
    """The judgement of one program: its status, and the reason (fallback or difference)."""

    status: str
    reason: str = ""

    @property
    def failed(self) -> bool:
        return self.status in ("differed", "crashed")


def judge(trial: Trial) -> Verdict:
    """The verdict on ``trial``; see module docstring."""
    for number, (eager, compiled) in enumerate(trial.pairs):
        problem = compare_runs(eager, compiled)
        if problem is not None:
            status = "crashed" if is_internal(eager, compiled) else "differed"
            return Verdict(status, f"call {number}: {problem}")
    problem = _compare_sharing_across_calls(trial)
    if problem is not None:
        return Verdict("differed", problem)
    if not trial.fallbacks:
        return Verdict("compiled")
    silent = _silent_fallback(trial)
    if silent is not None:
        return Verdict("differed", silent)
    return Verdict("fell back", bucket(trial.fallbacks[0]))


def compare_runs(eager: Run, compiled: Run) -> str | None:
    """The first way ``compiled`` differs from ``eager``, or None."""
    if eager.exception is not None or compiled.exception is not None:
        problem = _compare_exceptions(eager.exception, compiled.exception)
    else:
        problem = difference(eager.value, compiled.value, "result")
    problem = problem or difference(eager.args, compiled.args, "args")
    if problem is None and eager.stdout != compiled.stdout:
        problem = f"printed {compiled.stdout!r}, eager printed {eager.stdout!r}"
    if problem is None:
        problem = _compare_warnings(eager.warned, compiled.warned, eager.exception is not None)
    return problem or _compare_sharing(eager, compiled) or _compare_identity(eager, compiled)


def _compare_warnings(eager: list[str], compiled: list[str], raised: bool) -> str | None:
    """A warning the compiled call gave more often than eager's. Two limits the README names:
    one eager gave is missing where dead code elimination removed an unused computation, and
    each may come twice in a call that raised (a graph that writes into its arguments and fails
    runs the function again eagerly)."""
    allowed = eager * 2 if raised else eager
    extra = collections.Counter(compiled) - collections.Counter(allowed)
    if extra or not set(compiled) <= set(eager):
        return f"warned {compiled}, more than eager's {eager}"
    return None


def _compare_exceptions(eager: BaseException | None, compiled: BaseException | None) -> str | None:
    if compiled is None:
        return f"did not raise; eager raised {_describe(eager)}"
    if eager is None:
        return f"raised {_describe(compiled)}; eager did not raise"
    if not isinstance(compiled, type(eager)):
        return f"raised {_describe(compiled)}; eager raised {_describe(eager)}"
    if str(eager) not in str(compiled):
        return f"raised {_describe(compiled)}; eager's message is {str(eager)!r}"
    return None


def _describe(exc: BaseException | None) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"


def difference(expected: Any, actual: Any, path: str) -> str | None:
    """Where ``actual`` first differs from ``expected`` (exact types, dtypes, shapes, values)."""
    if type(actual) is not type(expected):
        return f"{path}: {_kind(actual)} != {_kind(expected)}"
    if isinstance(expected, (np.ndarray, np.generic)):
        return _array_difference(expected, actual, path)
    if isinstance(expected, (list, tuple)):
        if len(actual) != len(expected):
            return f"{path}: length {len(actual)} != {len(expected)}"
        pairs = zip(expected, actual)
        return _first(difference(e, a, f"{path}[{i}]") for i, (e, a) in enumerate(pairs))
    if isinstance(expected, dict):
        if list(actual) != list(expected):
            return f"{path}: keys {list(actual)} != {list(expected)}"
        return _first(difference(expected[k], actual[k], f"{path}[{k!r}]") for k in expected)
    if isinstance(expected, (bool, int, float, complex, str)) or expected is None:
        same = expected == actual or (expected != expected and actual != actual)
        return None if same else f"{path}: {actual!r} != {expected!r}"
    if hasattr(expected, "__dict__"):
        return difference(vars(expected), vars(actual), f"{path}.__dict__")
    return None if expected == actual else f"{path}: {actual!r} != {expected!r}"


def _first(problems: Any) -> str | None:
    return next((p for p in problems if p is not None), None)


def _kind(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"array {value.dtype}{value.shape}"
    if isinstance(value, np.generic):
        return f"NumPy {value.dtype} scalar {value!r}"
    return f"{type(value).__name__} {value!r}"[:80]


def _array_difference(expected: Any, actual: Any, path: str) -> str | None:
    if actual.dtype != expected.dtype:
        return f"{path}: dtype {actual.dtype} != {expected.dtype}"
    if np.shape(actual) != np.shape(expected):
        return f"{path}: shape {np.shape(actual)} != {np.shape(expected)}"
    if expected.dtype.kind in "fc":
        rtol = _RTOL.get(expected.dtype.itemsize, 1e-12)
        same = np.allclose(actual, expected, rtol=rtol, atol=rtol * 1e-3, equal_nan=True)
    else:
        same = np.array_equal(actual, expected)
    return None if same else f"{path}: values {actual!r} != {expected!r}"


def leaves(value: Any, path: str, depth: int = 0) -> list[tuple[str, np.ndarray]]:
    """The arrays inside ``value`` (containers and object attributes), with their paths."""
    if isinstance(value, np.ndarray):
        return [(path, value)]
    if depth > 4:
        return []
    if isinstance(value, (list, tuple)):
        return [leaf for i, v in enumerate(value) for leaf in leaves(v, f"{path}[{i}]", depth + 1)]
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in leaves(v, f"{path}[{k!r}]", depth + 1)]
    if hasattr(value, "__dict__") and not callable(value):
        return leaves(vars(value), f"{path}.__dict__", depth + 1)
    return []


def sharing(run: Run) -> tuple[list[str], set[tuple[int, int]], list[bool]]:
    """The result's and arguments' arrays (paths), the pairs of them that share memory, and
    whether each is writeable."""
    found = leaves(run.value, "result") + leaves(run.args, "args")
    pairs = {
        (i, j)
        for i, (_, a) in enumerate(found)
        for j, (_, b) in enumerate(found[i + 1 :], i + 1)
        if np.shares_memory(a, b)
    }
    return [p for p, _ in found], pairs, [a.flags.writeable for _, a in found]


def _compare_sharing(eager: Run, compiled: Run) -> str | None:
    if eager.exception is not None:
        return None
    paths, expected, writeable = sharing(eager)
    compiled_paths, actual, compiled_writeable = sharing(compiled)
    if paths != compiled_paths:
        return f"arrays at {compiled_paths}, eager's at {paths}"
    for i, j in sorted(expected ^ actual):
        said = "shares" if (i, j) in actual else "does not share"
        return f"{paths[i]} {said} memory with {paths[j]}, unlike eager"
    for path, want, have in zip(paths, writeable, compiled_writeable):
        if want != have:
            return f"{path}: writeable {have}, eager's {want}"
    return None


def objects(value: Any, path: str, depth: int = 0) -> list[tuple[str, Any]]:
    """The mutable objects inside ``value`` and ``value`` itself (arrays, lists, dicts, objects
    with attributes), with their paths: what a caller can hold on to and see change."""
    if isinstance(value, np.ndarray):
        return [(path, value)]
    if depth > 4:
        return []
    found: list[tuple[str, Any]] = []
    if isinstance(value, (list, dict)) or hasattr(value, "__dict__") and not callable(value):
        found.append((path, value))
    if isinstance(value, (list, tuple)):
        items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
    elif isinstance(value, dict):
        items = [(f"{path}[{k!r}]", v) for k, v in value.items()]
    elif hasattr(value, "__dict__") and not callable(value):
        items = [(f"{path}.{k}", v) for k, v in vars(value).items()]
    else:
        items = []
    return found + [leaf for p, v in items for leaf in objects(v, p, depth + 1)]


def identities(run: Run) -> tuple[list[str], set[tuple[int, int]]]:
    """The result's and arguments' mutable objects (paths) and the pairs of them that are one
    object: a result that is an argument itself (``return x``, not a view of it), a list that
    holds an argument array, the same array passed twice."""
    found = objects(run.value, "result") + objects(run.args, "args")
    pairs = {
        (i, j)
        for i, (_, a) in enumerate(found)
        for j, (_, b) in enumerate(found[i + 1 :], i + 1)
        if a is b
    }
    return [p for p, _ in found], pairs


def _compare_identity(eager: Run, compiled: Run) -> str | None:
    if eager.exception is not None:
        return None
    paths, expected = identities(eager)
    compiled_paths, actual = identities(compiled)
    if paths != compiled_paths:
        return f"objects at {compiled_paths}, eager's at {paths}"
    for i, j in sorted(expected ^ actual):
        said = "is" if (i, j) in actual else "is not"
        return f"{paths[i]} {said} the same object as {paths[j]}, unlike eager"
    return None


def _results_across_calls(runs: list[Run]) -> set[tuple[int, int, int, int]]:
    """The pairs of result arrays of two different calls that share memory, as (call, array,
    call, array): only a global, or an object the calls share, is handed over twice."""
    found = [leaves(run.value, "result") if run.exception is None else [] for run in runs]
    return {
        (i, k, j, m)
        for i, j in ((i, j) for i in range(len(runs)) for j in range(i + 1, len(runs)))
        for k, (_, a) in enumerate(found[i])
        for m, (_, b) in enumerate(found[j])
        if np.shares_memory(a, b)
    }


def _compare_sharing_across_calls(trial: Trial) -> str | None:
    """Whether a call's result shares memory with another call's where eager's do not (a graph
    constant handed over on every call), or the other way round."""
    expected = _results_across_calls([eager for eager, _ in trial.pairs])
    actual = _results_across_calls([compiled for _, compiled in trial.pairs])
    for i, k, j, m in sorted(expected ^ actual):
        said = "shares" if (i, k, j, m) in actual else "does not share"
        return f"result array {k} of call {i} {said} memory with result array {m} of call {j}"
    return None


def is_internal(eager: Run, compiled: Run) -> bool:
    """Whether the compiled call raised an error of tograph's own where eager did not raise it."""
    exc = compiled.exception
    if exc is None or (eager.exception is not None and isinstance(exc, type(eager.exception))):
        return False
    if isinstance(exc, errors.ToGraphError) and not isinstance(exc, errors.GraphRuntimeError):
        return True
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].filename.startswith(_TOGRAPH_DIR)


def _silent_fallback(trial: Trial) -> str | None:
    """A problem with how a fallback was announced: a concrete function that fell back served a
    call that ran eagerly, and none of the calls it served warned; or a reason that does not
    name the program's file and line. (A fallback whose calls all raise, as eager's do, needs
    no warning.)"""
    served: dict[str, list[tuple[Run, Run]]] = {}
    for eager, compiled in trial.pairs:
        if compiled.fallback is not None:
            served.setdefault(compiled.fallback, []).append((eager, compiled))
    for reason, pairs in served.items():
        ran = any(eager.exception is None for eager, _ in pairs)
        if ran and not any(compiled.fallback_warnings for _, compiled in pairs):
            return f"fell back without a FallbackWarning: {reason}"
    for reason in trial.fallbacks:
        if not re.search(rf"{re.escape(trial.path.name)}:\d+", reason):
            return f"fallback reason names no line of the program: {reason}"
    return None


def bucket(reason: str) -> str:
    """A fallback reason without its location and the program's own names, for counting."""
    text = re.sub(r"\s*\([^()]*\.py:\d+\)", "", reason.splitlines()[0])
    text = re.sub(r"\b(v|c|i|j|acc|k|t|p|e)\d+\b", r"\1#", text)
    text = re.sub(r"0x[0-9a-f]+", "0x#", text)
    return text[:120]
