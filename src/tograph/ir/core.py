"""The graph IR: ``Var``, ``Lit``, ``Eqn`` and ``Graph``.

A graph is a typed straight-line program; control flow lives in equations whose params hold
nested graphs (``cond`` branches, ``while_loop`` cond and body). Values are identified by object
identity; names are assigned by the printer, the second half of this module. Printed form::

    graph collatz(n:i64[]):
      n_1:i64[], steps:i64[]~ = while_loop[num_consts=0] n 0
        cond(n_2:i64[], steps_1:i64[]~):
          t0:bool[] = greater n_2 1
          return t0
        body(n_3:i64[], steps_2:i64[]~):
          t1:i64[] = mod n_3 2
          ...
          t6:i64[]~ = add steps_2 1
          return n_4, t6
      return n_1, steps

One equation per line, ``out:type = prim[params sorted] args``; literals print as Python literals
(``1``, ``2.0``) when weak and with their type otherwise (``1.0:f32``). Nested graphs follow their
equation in reading order (then, else, cond, body). ``print_graph(g, locs=True)`` adds
``# file.py:LINE`` to each equation; ``print_lines`` gives the lines with the equation each shows
(for windows of IR in errors), ``format_eqn`` one equation as the printed graph names it.
"""

from __future__ import annotations

import builtins
import dataclasses
import functools
import itertools
import keyword
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import types

_ids = itertools.count()


@dataclasses.dataclass(frozen=True, slots=True, eq=False, init=False)
class Var:
    """A value defined exactly once, by a graph input or an equation output.

    ``hint`` is the user's variable name, if known; the printer uses it to name the value.
    """

    type: types.ValueType
    hint: str | None
    id: int

    def __init__(self, type: types.ValueType, hint: str | None = None, id: int | None = None):
        # Through the slots' own setters: a frozen dataclass's generated ``__init__`` costs
        # twice as much, and tracing makes a Var per equation.
        set_type, set_hint, set_id = _VAR_SETTERS
        set_type(self, type)
        set_hint(self, hint)
        set_id(self, next(_ids) if id is None else id)

    def __repr__(self) -> str:
        return f"Var({self.hint or '_'}{self.id}:{self.type})"


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Lit:
    """A constant operand: a Python scalar (weak) or a NumPy scalar or array."""

    value: Any
    type: types.ValueType

    @staticmethod
    def of(value: Any) -> Lit:
        return Lit(value, types.type_of(value))

    def __repr__(self) -> str:
        return f"Lit({self.value!r}:{self.type})"


Atom = Var | Lit


@dataclasses.dataclass(frozen=True, slots=True, eq=False, init=False)
class Eqn:
    """One operation: ``outputs = prim[params](*inputs)`` at user source location ``loc``."""

    prim: Any  # primitives.Primitive; typed loosely to keep core free of the registry
    inputs: tuple[Atom, ...]
    params: dict[str, Any]
    outputs: tuple[Var, ...]
    loc: errors.SourceLocation | None

    def __init__(
        self,
        prim: Any,
        inputs: tuple[Atom, ...],
        params: dict[str, Any],
        outputs: tuple[Var, ...],
        loc: errors.SourceLocation | None = None,
    ):
        # Through the slots' own setters, as ``Var``: tracing makes an Eqn per equation.
        set_prim, set_inputs, set_params, set_outputs, set_loc = _EQN_SETTERS
        set_prim(self, prim)
        set_inputs(self, inputs)
        set_params(self, params)
        set_outputs(self, outputs)
        set_loc(self, loc)

    def subgraphs(self) -> Iterator[Graph]:
        """Nested graphs held in this equation's params, in param-name order."""
        if not self.params:  # most equations
            return iter(())
        keys = [key for key, value in self.params.items() if isinstance(value, Graph)]
        return iter([self.params[key] for key in sorted(keys)])


def _slot_setters(cls: type) -> tuple[Any, ...]:
    """The setters of a frozen dataclass's slots (which its ``__setattr__`` refuses), in field
    order."""
    slots: Mapping[str, Any] = vars(cls)
    return tuple(slots[field.name].__set__ for field in dataclasses.fields(cls))


_VAR_SETTERS = _slot_setters(Var)
_EQN_SETTERS = _slot_setters(Eqn)


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Graph:
    """A typed program: inputs, equations in topological order, outputs."""

    name: str
    inputs: tuple[Var, ...]
    eqns: tuple[Eqn, ...]
    outputs: tuple[Atom, ...]

    @property
    def in_types(self) -> tuple[types.ValueType, ...]:
        return tuple(v.type for v in self.inputs)

    @property
    def out_types(self) -> tuple[types.ValueType, ...]:
        return tuple(a.type for a in self.outputs)

    def op_counts(self) -> dict[str, int]:
        """How often each primitive occurs, counting equations inside nested graphs too."""
        counts: dict[str, int] = {}
        for eqn in self.walk():
            counts[eqn.prim.name] = counts.get(eqn.prim.name, 0) + 1
        return dict(sorted(counts.items()))

    def walk(self) -> Iterator[Eqn]:
        """Every equation, depth first, nested graphs' equations after their parent."""
        for eqn in self.eqns:
            yield eqn
            if eqn.params:  # (only params hold nested graphs; most equations have none)
                for sub in eqn.subgraphs():
                    yield from sub.walk()

    def replace(self, **changes: Any) -> Graph:
        return dataclasses.replace(self, **changes)

    def to_dot(self) -> str:
        """The graph in Graphviz's DOT language: a box per equation labelled with its printed
        line, nested graphs as clusters (``tograph.export.dot``; needs no Graphviz)."""
        return str(view(self, "dot"))

    def __str__(self) -> str:
        return print_graph(self)

    __repr__ = __str__


# ---- other views -------------------------------------------------------------------------------

# Graphviz views (DOT, SVG, notebook HTML) are written by tograph.export.dot, which installs them
# when tograph is imported: this module depends on nothing above it.
_VIEWS: dict[str, Callable[[Graph], Any]] = {}


def set_view(kind: str, writer: Callable[[Graph], Any]) -> None:
    """Installs ``writer`` as the ``kind`` view of graphs (``"dot"``, ``"svg"``, ``"html"``)."""
    _VIEWS[kind] = writer


def view(graph: Graph, kind: str) -> Any:
    """``graph`` shown as ``kind`` by the installed writer (``tograph.export.dot``)."""
    writer = _VIEWS.get(kind)
    if writer is None:
        raise errors.InternalError(f"no {kind!r} view of graphs is installed")
    return writer(graph)


# ---- the printed form --------------------------------------------------------------------------

PrintedLine = tuple[str, "Eqn | Graph"]


class Namer:
    """Unique, readable names: user hints first, ``t0, t1, ...`` for temporaries."""

    _RESERVED = set(dir(builtins)) | set(keyword.kwlist) | {"np"}

    def __init__(self) -> None:
        self._names: dict[int, str] = {}
        self._used: set[str] = set()
        self._temps = 0

    def name(self, var: Var) -> str:
        """The name of ``var``: its hint made unique, or the next free ``tN``."""
        if var.id in self._names:
            return self._names[var.id]
        base = _identifier_base(var.hint) if var.hint else None
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


@functools.lru_cache(maxsize=4096)
def _identifier_base(hint: str) -> str:
    """``hint`` with each character that cannot be in an identifier made ``_``."""
    return re.sub(r"\W", "_", hint)


def format_lit(lit: Lit) -> str:
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


def print_graph(graph: Graph, locs: bool = False) -> str:
    """The canonical text of ``graph``; see module docstring."""
    return "\n".join(text for text, _ in print_lines(graph, locs))


def print_lines(graph: Graph, locs: bool = False, namer: Namer | None = None) -> list[PrintedLine]:
    """The lines of ``print_graph(graph)``, each with the equation (or graph) it shows.

    A graph's header and ``return`` lines carry that graph; equation lines carry the equation.

    Args:
      graph: the graph to print.
      locs: append ``# file.py:LINE`` to each equation that has a location.
      namer: names to use; a fresh ``Namer`` by default. Passing one lets a caller (the code
        generator) reuse the printed names.
    """
    namer = namer or Namer()
    name_vars(graph, namer)
    params = ", ".join(_decl(namer, v) for v in graph.inputs)
    lines: list[PrintedLine] = [(f"graph {graph.name}({params}):", graph)]
    _body(graph, namer, lines, "  ", locs)
    return lines


def name_vars(graph: Graph, namer: Namer) -> None:
    """Names every var of ``graph`` in ``namer`` as ``print_lines`` shows them, without the text:
    inputs, then each equation's outputs and operands followed by its nested graphs' (in
    reading order), then the outputs."""
    for var in graph.inputs:
        namer.name(var)
    _name_body(graph, namer)


def _name_body(graph: Graph, namer: Namer) -> None:
    for eqn in graph.eqns:
        for var in eqn.outputs:
            namer.name(var)
        for atom in eqn.inputs:
            if isinstance(atom, Var):
                namer.name(atom)
        for _, sub in subgraph_params(eqn):
            for var in sub.inputs:
                namer.name(var)
            _name_body(sub, namer)
    for atom in graph.outputs:
        if isinstance(atom, Var):
            namer.name(atom)


def format_eqn(graph: Graph, eqn: Eqn) -> str:
    """One equation of ``graph`` as ``print_graph(graph)`` shows it, without its nested graphs."""
    for text, shown in print_lines(graph):
        if shown is eqn:
            return text.strip()
    raise ValueError(f"equation {eqn.prim.name} is not part of graph {graph.name}")


def subgraph_params(eqn: Eqn) -> list[tuple[str, Graph]]:
    """The nested graphs of ``eqn`` in reading order: then, else, cond, body, others by name."""
    found = [(k, v) for k, v in eqn.params.items() if isinstance(v, Graph)]
    if len(found) < 2:  # (nearly every equation: nothing to sort)
        return found
    return sorted(found, key=lambda kv: (_SUBGRAPH_ORDER.get(kv[0], len(_SUBGRAPH_ORDER)), kv[0]))


_SUBGRAPH_ORDER = {"then_graph": 0, "else_graph": 1, "cond_graph": 2, "body_graph": 3}


def _decl(namer: Namer, var: Var) -> str:
    return f"{namer.name(var)}:{var.type}"


def _atom(namer: Namer, atom: Atom) -> str:
    return namer.name(atom) if isinstance(atom, Var) else format_lit(atom)


def _eqn_text(namer: Namer, eqn: Eqn) -> str:
    outs = ", ".join(_decl(namer, v) for v in eqn.outputs)
    plain = {k: v for k, v in sorted(eqn.params.items()) if not isinstance(v, Graph)}
    params = ", ".join(f"{k}={format_param(v)}" for k, v in plain.items())
    head = eqn.prim.name + (f"[{params}]" if params else "")
    args = " ".join(_atom(namer, a) for a in eqn.inputs)
    return f"{outs} = {head} {args}".rstrip() if outs else f"{head} {args}".rstrip()


def _body(graph: Graph, namer: Namer, lines: list[PrintedLine], indent: str, locs: bool) -> None:
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
