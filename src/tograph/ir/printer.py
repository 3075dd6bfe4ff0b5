"""The one printer of graphs: deterministic, one equation per line, nested graphs indented.

Printed form::

    graph collatz(n:i64[]):
      steps:i64[], n_1:i64[] = while_loop[num_consts=0] 0 n
        cond(steps_1:i64[], n_2:i64[]):
          t0:bool[] = greater n_2 1
          return t0
        body(steps_2:i64[], n_3:i64[]):
          ...
      return steps

``out:type = prim[params sorted] args``; literals print as Python literals (``1``, ``2.0``) when
weak and with their type otherwise (``1.0:f32``). ``print_graph(g, locs=True)`` adds
``# file.py:LINE`` to each equation.
"""

from __future__ import annotations

import builtins
import keyword
import re
from typing import Any

import numpy as np

from tograph.ir import core, types


class Namer:
    """Unique, readable names: user hints first, ``t0, t1, ...`` for temporaries."""

    _RESERVED = set(dir(builtins)) | set(keyword.kwlist) | {"np"}

    def __init__(self) -> None:
        self._names: dict[int, str] = {}
        self._used: set[str] = set()
        self._temps = 0

    def name(self, var: core.Var) -> str:
        if var.id in self._names:
            return self._names[var.id]
        base = re.sub(r"\W", "_", var.hint) if var.hint else None
        if base and not base[0].isdigit():
            candidate, k = base, 0
            while candidate in self._used or candidate in self._RESERVED:
                k += 1
                candidate = f"{base}_{k}"
        else:
            candidate = f"t{self._temps}"
            while candidate in self._used:
                self._temps += 1
                candidate = f"t{self._temps}"
            self._temps += 1
        self._used.add(candidate)
        self._names[var.id] = candidate
        return candidate


def format_lit(lit: core.Lit) -> str:
    """A literal as printed: Python scalars bare, NumPy values with their type."""
    value = lit.value
    if types.is_python_scalar(value):
        return repr(value)
    arr = np.asarray(value)
    if arr.ndim == 0:
        return f"{arr.item()!r}:{types.dtype_name(arr.dtype)}"
    if arr.size <= 6:
        return f"{arr.tolist()!r}:{lit.type}"
    return f"array<{lit.type}>"


def format_param(value: Any) -> str:
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return types.dtype_name(value)
    if isinstance(value, types.TensorType):
        return str(value)
    if isinstance(value, np.ndarray):
        return f"array<{types.type_of(value)}>"
    return repr(value)


def print_graph(graph: core.Graph, locs: bool = False) -> str:
    """The canonical text of ``graph``; see module docstring."""
    namer = Namer()
    params = " ".join(_decl(namer, v) for v in graph.inputs)
    lines = [f"graph {graph.name}({params.replace(' ', ', ')}):"]
    _body(graph, namer, lines, "  ", locs)
    return "\n".join(lines)


def _decl(namer: Namer, var: core.Var) -> str:
    return f"{namer.name(var)}:{var.type}"


def _atom(namer: Namer, atom: core.Atom) -> str:
    return namer.name(atom) if isinstance(atom, core.Var) else format_lit(atom)


def _body(graph: core.Graph, namer: Namer, lines: list[str], indent: str, locs: bool) -> None:
    for eqn in graph.eqns:
        outs = ", ".join(_decl(namer, v) for v in eqn.outputs)
        plain = {k: v for k, v in sorted(eqn.params.items()) if not isinstance(v, core.Graph)}
        params = ", ".join(f"{k}={format_param(v)}" for k, v in plain.items())
        head = eqn.prim.name + (f"[{params}]" if params else "")
        args = " ".join(_atom(namer, a) for a in eqn.inputs)
        line = f"{indent}{outs} = {head} {args}".rstrip() if outs else f"{indent}{head} {args}".rstrip()
        if locs and eqn.loc is not None:
            line += f"  # {eqn.loc}"
        lines.append(line)
        for key in sorted(eqn.params):
            sub = eqn.params[key]
            if isinstance(sub, core.Graph):
                label = key.removesuffix("_graph")
                lines.append(f"{indent}  {label}({', '.join(_decl(namer, v) for v in sub.inputs)}):")
                _body(sub, namer, lines, indent + "    ", locs)
    lines.append(f"{indent}return {', '.join(_atom(namer, a) for a in graph.outputs)}".rstrip())
