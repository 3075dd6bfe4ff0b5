"""The graph IR: ``Var``, ``Lit``, ``Eqn`` and ``Graph``.

A graph is a typed straight-line program; control flow lives in equations whose params hold
nested graphs (``cond`` branches, ``while_loop`` cond and body). Values are identified by object
identity; names are assigned by the printer. Printed form (see ``printer.py``)::

    graph f(x:f64[3]):
      s:f64[] = sum[axis=None, keepdims=False] x
      p:bool[] = greater s 0.0
      return p
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any, Iterator

from tograph import errors
from tograph.ir import types

_ids = itertools.count()


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Var:
    """A value defined exactly once, by a graph input or an equation output.

    ``hint`` is the user's variable name, if known; the printer uses it to name the value.
    """

    type: types.TensorType
    hint: str | None = None
    id: int = dataclasses.field(default_factory=lambda: next(_ids))

    def __repr__(self) -> str:
        return f"Var({self.hint or '_'}{self.id}:{self.type})"


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Lit:
    """A constant operand: a Python scalar (weak) or a NumPy scalar or array."""

    value: Any
    type: types.TensorType

    @staticmethod
    def of(value: Any) -> Lit:
        return Lit(value, types.type_of(value))

    def __repr__(self) -> str:
        return f"Lit({self.value!r}:{self.type})"


Atom = Var | Lit


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Eqn:
    """One operation: ``outputs = prim[params](*inputs)`` at user source location ``loc``."""

    prim: Any  # primitives.Primitive; typed loosely to keep core free of the registry
    inputs: tuple[Atom, ...]
    params: dict[str, Any]
    outputs: tuple[Var, ...]
    loc: errors.SourceLocation | None = None

    def subgraphs(self) -> Iterator[Graph]:
        """Nested graphs held in this equation's params, in param-name order."""
        for key in sorted(self.params):
            value = self.params[key]
            if isinstance(value, Graph):
                yield value


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Graph:
    """A typed program: inputs, equations in topological order, outputs."""

    name: str
    inputs: tuple[Var, ...]
    eqns: tuple[Eqn, ...]
    outputs: tuple[Atom, ...]

    @property
    def in_types(self) -> tuple[types.TensorType, ...]:
        return tuple(v.type for v in self.inputs)

    @property
    def out_types(self) -> tuple[types.TensorType, ...]:
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
            for sub in eqn.subgraphs():
                yield from sub.walk()

    def replace(self, **changes: Any) -> Graph:
        return dataclasses.replace(self, **changes)

    def __str__(self) -> str:
        from tograph.ir import printer

        return printer.print_graph(self)

    __repr__ = __str__
