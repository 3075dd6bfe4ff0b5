"""What a Dask worker runs for ``f.map``: the function unpickled once, then batches of calls.

Stage: distribute (the worker's side). Input: the pickled function (one task, whose result, a
``Shipped``, each worker holds or fetches once and keeps for every batch it runs; each worker
process also keeps the last few functions it unpickled, for later maps) and batches of argument
tuples. Output: each batch's
results in order, or a ``MapError`` for the first call that raised, naming the item's position,
its arguments and the user's line: the graph's equation and line for a compiled call, else the
innermost frame of the traceback outside tograph, the standard library and installed packages.
"""

from __future__ import annotations

import collections
import hashlib
import linecache
import os
import pathlib
import pickle
import sysconfig
import types as pytypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import types

_DESCRIBED_LENGTH = 40  # longest text of one argument in an error message
_LIBRARIES = tuple(
    os.path.join(path, "")  # with a trailing separator: a prefix of the folder's files only
    for path in (
        pathlib.Path(__file__).resolve().parents[1],  # the tograph package
        *(sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")),
    )
)


_KEPT = 16  # functions each worker process keeps unpickled, the most recently shipped
_loaded: collections.OrderedDict[str, Any] = collections.OrderedDict()


class Shipped:
    """The mapped function on a worker, unpickled from its payload once per worker process.

    It pickles as the payload: a worker that fetches it from another unpickles the function with
    its graphs, where the function itself might pickle as a mere reference to its module.
    """

    def __init__(self, payload: bytes):
        self.payload = payload
        digest = hashlib.sha256(payload).hexdigest()
        fn = _loaded.pop(digest, None)
        if fn is None:
            fn = pickle.loads(payload)  # noqa: S301 - the caller's own function, sent by it
        _loaded[digest] = fn
        while len(_loaded) > _KEPT:
            _loaded.popitem(last=False)
        self.fn = fn

    def __reduce__(self) -> tuple[Any, ...]:
        return Shipped, (self.payload,)


def load_function(payload: bytes) -> Shipped:
    """The function ``payload`` holds (``export.pickling.with_graphs``), with its graphs."""
    return Shipped(payload)


class Results:
    """A batch's results, in order. It pickles as one blob: Dask would serialize a list item by
    item, which for thousands of small results costs far more than the calls themselves."""

    def __init__(self, values: list[Any]):
        self.values = values

    def __reduce__(self) -> tuple[Any, ...]:
        import cloudpickle  # a result's class may exist only in this process (a loaded namedtuple)

        return _unpickled_results, (cloudpickle.dumps(self.values),)


def _unpickled_results(blob: bytes) -> Results:
    return Results(pickle.loads(blob))  # noqa: S301 - results of the caller's own function


def run_batch(shipped: Shipped, start: int, calls: Sequence[tuple[Any, ...]]) -> Results:
    """The shipped function called on each call, whose items are numbered from ``start``.

    Raises:
      MapError: a call raised; it names the item and the user's line.
    """
    return Results([run_call(shipped.fn, start + k, call) for k, call in enumerate(calls)])


def run_call(fn: Any, index: int, call: tuple[Any, ...]) -> Any:
    """``fn(*call)`` for item ``index``; see ``run_batch``."""
    try:
        return fn(*call)
    except Exception as exc:  # noqa: BLE001 - any error of the user's call, reported as its item's
        error = item_error(fn, index, call, exc)
        raise error from error.__cause__


def item_error(fn: Any, index: int, call: tuple[Any, ...], exc: Exception) -> errors.MapError:
    """The ``MapError`` for ``exc``, raised by item ``index`` (``fn(*call)``)."""
    name = getattr(fn, "__name__", "f")
    text = exc.message if isinstance(exc, errors.ToGraphError) else str(exc)
    loc = errors.location_of(exc) or _user_location(exc.__traceback__)
    error = errors.MapError(
        f"{name}.map: item {index}, {name}({describe(call)}), raised {type(exc).__name__}: {text}",
        loc=loc,
        index=index,
    )
    error.__cause__ = _portable(exc)
    return error


def describe(call: tuple[Any, ...]) -> str:
    """The arguments of a call, short: arrays by type (``f64[3]``), other values by ``repr``."""
    parts = []
    for value in call:
        if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "biufc":
            text = str(types.type_of(value))
        else:
            text = repr(value)
        if len(text) > _DESCRIBED_LENGTH:
            text = text[: _DESCRIBED_LENGTH - 3] + "..."
        parts.append(text)
    return ", ".join(parts)


def _user_location(tb: pytypes.TracebackType | None) -> errors.SourceLocation | None:
    """The innermost frame of ``tb`` in the user's code (not a library's, not generated)."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not code.co_filename.startswith(("<", *_LIBRARIES)):
            line = linecache.getline(code.co_filename, tb.tb_lineno)
            found = errors.SourceLocation(code.co_filename, tb.tb_lineno, 0, line, code.co_name)
        tb = tb.tb_next
    return found


def _portable(exc: Exception) -> BaseException | None:
    """The exception to bring back as the cause: the kernel's own for tograph's error, the error
    itself otherwise, if it survives pickling."""
    cause = exc.__cause__ if isinstance(exc, errors.GraphRuntimeError) else exc
    try:
        pickle.loads(pickle.dumps(cause))
    except Exception:  # noqa: BLE001 - whatever pickling raises, the cause stays behind
        return None
    return cause
