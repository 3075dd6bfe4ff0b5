"""The NumPy coverage table: how each public callable of ``np``, ``np.linalg`` and ``np.fft`` and
each ndarray method or attribute behaves on tensors in a converted function.

Stage: reporting (no part of the pipeline). Input: NumPy's namespaces as installed and tograph's
dispatch tables. Output: one ``Row`` per name, of kind ``primitive`` (a handler emits dedicated
primitives), ``host call`` (a ``numpy_call`` equation runs NumPy itself), ``static`` (answered
from dtypes while the graph is built), ``method`` (an ndarray method or attribute that works on
tensors) or ``falls back`` (with the reason the converted function runs eagerly). ``EXCLUDED``
reasons (files, text, process-wide settings, datetime) mark rows left out of the percentage.
``python -m tograph.coverage`` prints the summary; ``--table`` adds every row.

With another array library (``jax.numpy`` when it is importable, or ``--against MODULE``) the
table also says, for each row, whether that library has the same name (``np.linalg.qr`` as
``linalg.qr``, ``ndarray.any`` as an attribute of its ``ndarray``), and the summary counts both
over the same relevant rows. Having a name is all that is asked of the other library, so its
count is an upper bound of what it covers.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import importlib
import sys
from typing import Any

import numpy as np

from tograph import errors
from tograph import ops as _ops  # noqa: F401  (registers every handler)
from tograph.ir import types
from tograph.ops import host_api
from tograph.staging import numpy_callbacks
from tograph.trace import builder as builder_mod
from tograph.trace import dispatch, tensor

KINDS = ("primitive", "host call", "static", "method", "falls back")
_ABSTRACT = "a type for isinstance and np.issubdtype only (calling it is an error)"
_EXCEPTION = "an exception class"
_FILE_METHODS = frozenset({"tofile", "dump"})
_UNCALLABLE_TYPES = (
    *(np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger, np.inexact),
    *(np.floating, np.complexfloating, np.flexible, np.character, np.flatiter, np.ufunc),
)
# Reasons for rows that are not numeric code on array values: left out of the percentage.
EXCLUDED = frozenset(
    {host_api.IMPURE["save"], host_api.IMPURE["array2string"], host_api.IMPURE["seterr"]}
    | {host_api.IMPURE["busday_count"], host_api.IMPURE["shares_memory"]}
    | {tensor.MEMORY, tensor.SERIALIZES, _ABSTRACT, _EXCEPTION}
)


@dataclasses.dataclass(frozen=True)
class Row:
    """One public name: ``np.median``, ``ndarray.any``; its kind and, when it falls back, why."""

    name: str
    kind: str
    reason: str = ""

    @property
    def excluded(self) -> bool:
        return self.reason in EXCLUDED


def _function_row(path: str, fn: Any) -> Row:
    name = f"np.{path}"
    if fn in dispatch.UFUNCS or fn in dispatch.FUNCTIONS or fn in dispatch.OVERRIDES:
        return Row(name, "primitive")
    if fn in numpy_callbacks.HANDLERS:
        return Row(name, "primitive")
    if path in host_api.STATIC:
        return Row(name, "static")
    reason = host_api.why_impure(path)
    if reason is None:
        return Row(name, "host call")
    if isinstance(fn, type) and issubclass(fn, BaseException):
        return Row(name, "falls back", _EXCEPTION)
    if fn in _UNCALLABLE_TYPES:
        return Row(name, "falls back", _ABSTRACT)
    return Row(name, "falls back", reason)


def _method_row(name: str, x: tensor.TensorBase) -> Row:
    label = f"ndarray.{name}"
    if name in _FILE_METHODS:
        return Row(label, "falls back", host_api.IMPURE["save"])
    refusal = getattr(getattr(type(x), name, None), "refusal", None)
    if refusal is not None:
        return Row(label, "falls back", refusal)
    try:
        getattr(x, name)
    except errors.UnsupportedError as exc:
        return Row(label, "falls back", str(exc))
    except AttributeError:
        return Row(label, "falls back", "missing (an AttributeError)")
    return Row(label, "method")


def rows() -> list[Row]:
    """Every row of the table: NumPy's functions by name, then ndarray's methods."""
    found = [_function_row(path, fn) for path, fn in host_api.public_callables().items()]
    b = builder_mod.GraphBuilder("coverage")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, (2, 2)), "x")
        methods = sorted(n for n in dir(np.ndarray) if not n.startswith("_"))
        found.extend(_method_row(name, x) for name in methods)
    return found


def has_name(module: Any, row: Row) -> bool:
    """Whether another array library ``module`` (``jax.numpy``) has the row's name."""
    owner, _, name = row.name.rpartition(".")
    if owner == "ndarray":
        return hasattr(getattr(module, "ndarray", None), name)
    for space in owner.split(".")[1:]:
        module = getattr(module, space, None)
    return hasattr(module, name)


def _share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({100 * part / whole:.1f}%)"


def summary(table: list[Row], other: Any = None) -> str:
    """Counts by kind, for functions and methods, and the share that compiles; with another
    library ``other``, how many of the same relevant names it has."""
    lines = []
    for part, prefix in (("functions of np, np.linalg, np.fft", "np."), ("ndarray", "ndarray.")):
        mine = [r for r in table if r.name.startswith(prefix)]
        counts = collections.Counter(r.kind for r in mine)
        relevant = [r for r in mine if not r.excluded]
        compiled = sum(r.kind != "falls back" for r in relevant)
        shown = ", ".join(f"{counts[k]} {k}" for k in KINDS if counts[k])
        everything = sum(r.kind != "falls back" for r in mine)
        lines.append(
            f"{part}: {len(mine)} names: {shown}; {_share(compiled, len(relevant))} relevant "
            f"names compile ({_share(everything, len(mine))} counting the excluded too)"
        )
        if other is not None:
            theirs = sum(has_name(other, r) for r in relevant)
            lines.append(
                f"  against {other.__name__}: tograph covers {compiled}, {other.__name__} covers "
                f"{theirs} of the same {len(relevant)} relevant names"
            )
    reasons = collections.Counter(r.reason for r in table if r.kind == "falls back")
    lines.append("falls back, by reason (* excluded as irrelevant):")
    lines.extend(
        f"  {n:4d}  {reason}{' *' if reason in EXCLUDED else ''}"
        for reason, n in reasons.most_common()
    )
    return "\n".join(lines)


def _other_library(name: str | None) -> Any:
    """The library to compare with: ``name``, or ``jax.numpy`` if it can be imported."""
    try:
        return importlib.import_module(name or "jax.numpy")
    except ImportError:
        if name is not None:
            raise
        return None


def main(argv: list[str] | None = None) -> int:
    """Prints the summary (and with ``--table`` every row)."""
    parser = argparse.ArgumentParser(prog="python -m tograph.coverage", description=__doc__)
    parser.add_argument("--table", action="store_true", help="print every row too")
    parser.add_argument(
        "--against", metavar="MODULE", help="compare with this library (default: jax.numpy)"
    )
    options = parser.parse_args(argv)
    table = rows()
    other = _other_library(options.against)
    if options.table:
        for row in table:
            mark = "" if other is None else ("has it  " if has_name(other, row) else "lacks it")
            print(f"{row.name:40s} {row.kind:11s} {mark} {row.reason}".rstrip())
    print(summary(table, other))
    return 0


if __name__ == "__main__":
    sys.exit(main())
