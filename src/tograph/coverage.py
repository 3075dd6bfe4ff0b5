"""The NumPy coverage table: how each public callable of ``np``, ``np.linalg`` and ``np.fft`` and
each ndarray method or attribute behaves on tensors in a converted function.

Stage: reporting (no part of the pipeline). Input: NumPy's namespaces as installed and tograph's
dispatch tables. Output: one ``Row`` per name, of kind ``primitive`` (a handler emits dedicated
primitives), ``host call`` (a ``numpy_call`` equation runs NumPy itself), ``static`` (answered
from dtypes while the graph is built), ``method`` (an ndarray method or attribute that works on
tensors) or ``falls back`` (with the reason the converted function runs eagerly). ``EXCLUDED``
reasons (files, text, process-wide settings, datetime) mark rows left out of the percentage.
``python -m tograph.coverage`` prints the summary; ``--table`` adds every row.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import sys
from typing import Any

import numpy as np

from tograph import errors
from tograph import ops as _ops  # noqa: F401  (registers every handler)
from tograph.ir import types
from tograph.ops import host_api
from tograph.trace import builder as builder_mod
from tograph.trace import dispatch, tensor

KINDS = ("primitive", "host call", "static", "method", "falls back")
_ABSTRACT = "an abstract type (for isinstance and np.issubdtype; calling it is an error)"
_EXCEPTION = "an exception class"
_FILE_METHODS = frozenset({"tofile", "dump"})
_ABSTRACT_TYPES = (
    *(np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger, np.inexact),
    *(np.floating, np.complexfloating, np.flexible, np.character),
)
# Reasons for rows that are not numeric code: left out of the coverage percentage.
EXCLUDED = frozenset(
    {host_api.IMPURE["save"], host_api.IMPURE["array2string"], host_api.IMPURE["seterr"]}
    | {host_api.IMPURE["busday_count"], _ABSTRACT, _EXCEPTION}
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
    if path in host_api.STATIC_QUERIES:
        return Row(name, "static")
    reason = host_api.why_impure(path)
    if reason is None:
        return Row(name, "host call")
    if isinstance(fn, type) and issubclass(fn, BaseException):
        return Row(name, "falls back", _EXCEPTION)
    if fn in _ABSTRACT_TYPES:
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


def summary(table: list[Row]) -> str:
    """Counts by kind, for functions and methods, and the share that compiles."""
    lines = []
    for part, prefix in (("functions of np, np.linalg, np.fft", "np."), ("ndarray", "ndarray.")):
        mine = [r for r in table if r.name.startswith(prefix)]
        counts = collections.Counter(r.kind for r in mine)
        relevant = [r for r in mine if not r.excluded]
        compiled = sum(r.kind != "falls back" for r in relevant)
        shown = ", ".join(f"{counts[k]} {k}" for k in KINDS if counts[k])
        lines.append(
            f"{part}: {len(mine)} names: {shown}; {compiled} of the {len(relevant)} relevant "
            f"({100 * compiled / len(relevant):.1f}%) compile"
        )
    reasons = collections.Counter(r.reason for r in table if r.kind == "falls back")
    lines.append("falls back, by reason (* excluded as irrelevant):")
    lines.extend(
        f"  {n:4d}  {reason}{' *' if reason in EXCLUDED else ''}"
        for reason, n in reasons.most_common()
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Prints the summary (and with ``--table`` every row)."""
    parser = argparse.ArgumentParser(prog="python -m tograph.coverage", description=__doc__)
    parser.add_argument("--table", action="store_true", help="print every row too")
    options = parser.parse_args(argv)
    table = rows()
    if options.table:
        for row in table:
            print(f"{row.name:40s} {row.kind:11s} {row.reason}")
    print(summary(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
