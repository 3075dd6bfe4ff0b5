"""The one printer of graphs: deterministic, one equation per line, nested graphs indented.

Printed form::

    graph collatz(n:i64[]):
      n_1:i64[], steps:i64[]~ = while_loop[num_consts=0] n 0
        cond(n_2:i64[], steps_1:i64[]~):
          t0:bool[] = greater n_2 1
          return t0
        body(n_3:i64[], steps_2:i64[]~):
          t1:i64[] = mod n_3 2
          t2:bool[] = equal t1 0
          n_4:i64[] = cond t2 n_3
            then(n_5:i64[]):
              ...
            else(n_6:i64[]):
              ...
          t6:i64[]~ = add steps_2 1
          return n_4, t6
      return n_1, steps

``out:type = prim[params sorted] args``; literals print as Python literals (``1``, ``2.0``) when
weak and with their type otherwise (``1.0:f32``). Nested graphs follow their equation in reading
order (then, else, cond, body). ``print_graph(g, locs=True)`` adds ``# file.py:LINE`` to each
equation; ``print_lines`` gives the lines with the equation each shows (for windows of IR in
errors), ``format_eqn`` one equation as the printed graph names it.
"""

from __future__ import annotations

import builtins
import keyword
import re
from typing import Any

import numpy as np

from tograph.ir import core, types

PrintedLine = tuple[str, "core.Eqn | core.Graph"]


class Namer:
    """Unique, readable names: user hints first, ``t0, t1, ...`` for temporaries."""

    _RESERVED = set(dir(builtins)) | set(keyword.kwlist) | {"np"}

    def __init__(self) -> None:
        self._names: dict[int, str] = {}
        self._used: set[str] = set()
        self._temps = 0

    def name(self, var: core.Var) -> str:
        """The name of ``var``: its hint made unique, or the next free ``tN``."""
        if var.id in self._names:
            return self._names[var.id]
        base = re.sub(r"\W", "_", var.hint) if var.hint else None
        if base and not base[0].isdigit():
            candidate = self.fresh(base)
        else:
            candidate = f"t{self._temps}"
            while candidate in self._used:
                self._temps += 1
                candidate = f"t{self._temps}"
            self._temps += 1
            self._used.add(candidate)
        self._names[var.id] = candidate
        return candidate

    def fresh(self, base: str) -> str:
        """A new name starting with ``base`` that no var and no other ``fresh`` call has."""
        candidate, k = base, 0
        while candidate in self._used or candidate in self._RESERVED:
            k += 1
            candidate = f"{base}_{k}"
        self._used.add(candidate)
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
    return "\n".join(text for text, _ in print_lines(graph, locs))


def print_lines(
    graph: core.Graph, locs: bool = False, namer: Namer | None = None
) -> list[PrintedLine]:
    """The lines of ``print_graph(graph)``, each with the equation (or graph) it shows.

    A graph's header and ``return`` lines carry that graph; equation lines carry the equation.

    Args:
      graph: the graph to print.
      locs: append ``# file.py:LINE`` to each equation that has a location.
      namer: names to use; a fresh ``Namer`` by default. Passing one lets a caller (the code
        generator) reuse the printed names.
    """
    namer = namer or Namer()
    params = ", ".join(_decl(namer, v) for v in graph.inputs)
    lines: list[PrintedLine] = [(f"graph {graph.name}({params}):", graph)]
    _body(graph, namer, lines, "  ", locs)
    return lines


def format_eqn(graph: core.Graph, eqn: core.Eqn) -> str:
    """One equation of ``graph`` as ``print_graph(graph)`` shows it, without its nested graphs."""
    for text, shown in print_lines(graph):
        if shown is eqn:
            return text.strip()
    raise ValueError(f"equation {eqn.prim.name} is not part of graph {graph.name}")


def subgraph_params(eqn: core.Eqn) -> list[tuple[str, core.Graph]]:
    """The nested graphs of ``eqn`` in reading order: then, else, cond, body, others by name."""
    found = [(k, v) for k, v in eqn.params.items() if isinstance(v, core.Graph)]
    return sorted(found, key=lambda kv: (_SUBGRAPH_ORDER.get(kv[0], len(_SUBGRAPH_ORDER)), kv[0]))


_SUBGRAPH_ORDER = {"then_graph": 0, "else_graph": 1, "cond_graph": 2, "body_graph": 3}


def _decl(namer: Namer, var: core.Var) -> str:
    return f"{namer.name(var)}:{var.type}"


def _atom(namer: Namer, atom: core.Atom) -> str:
    return namer.name(atom) if isinstance(atom, core.Var) else format_lit(atom)


def _eqn_text(namer: Namer, eqn: core.Eqn) -> str:
    outs = ", ".join(_decl(namer, v) for v in eqn.outputs)
    plain = {k: v for k, v in sorted(eqn.params.items()) if not isinstance(v, core.Graph)}
    params = ", ".join(f"{k}={format_param(v)}" for k, v in plain.items())
    head = eqn.prim.name + (f"[{params}]" if params else "")
    args = " ".join(_atom(namer, a) for a in eqn.inputs)
    return f"{outs} = {head} {args}".rstrip() if outs else f"{head} {args}".rstrip()


def _body(
    graph: core.Graph, namer: Namer, lines: list[PrintedLine], indent: str, locs: bool
) -> None:
    for eqn in graph.eqns:
        line = indent + _eqn_text(namer, eqn)
        if locs and eqn.loc is not None:
            line += f"  # {eqn.loc}"
        lines.append((line, eqn))
        for key, sub in subgraph_params(eqn):
            label = key.removesuffix("_graph")
            lines.append(
                (f"{indent}  {label}({', '.join(_decl(namer, v) for v in sub.inputs)}):", sub)
            )
            _body(sub, namer, lines, indent + "    ", locs)
    lines.append(
        (f"{indent}return {', '.join(_atom(namer, a) for a in graph.outputs)}".rstrip(), graph)
    )
