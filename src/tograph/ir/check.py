"""The graph checker: the invariants every graph keeps, checked after building and after each pass.

Stage: any (a lint on the IR). Input: a ``Graph``. Output: nothing, or a ``MalformedGraphError``
(an ``InternalError``) that states the broken invariant and shows the printed IR around it.
Requires: nothing.

Invariants:
  * Every var is defined once (a graph input or one equation output) before it is used, in the
    graph that uses it: nested graphs are closed, they see only their own inputs and definitions.
  * Every equation's output types are what its primitive's type rule gives for its input types.
    The control-flow rules also check that the two ``cond`` branches take the same inputs and
    return compatible types, that a ``while_loop`` body returns values that fit its carries, and
    that its cond graph returns one bool scalar.
  * Every literal's value has the literal's type.

With checks enabled (``enable_checks()``, or the environment variable ``TOGRAPH_CHECKS=1``) the
compiler runs the checker on every graph it builds and after every pass that changes a graph,
as JAX does with ``jax_enable_checks``; the test suite turns them on.
"""

from __future__ import annotations

import os
from typing import NoReturn

from tograph import errors
from tograph.ir import core, types

_checks = os.environ.get("TOGRAPH_CHECKS", "") not in ("", "0")


def enable_checks(on: bool = True) -> None:
    """Turns checking every built and optimised graph on (or off)."""
    global _checks
    _checks = on


def checks_enabled() -> bool:
    return _checks


def check_if_enabled(graph: core.Graph, stage: str) -> None:
    """Checks ``graph`` when checks are on; ``stage`` (e.g. "after pass cse") prefixes a failure."""
    if not _checks:
        return
    try:
        check_graph(graph)
    except MalformedGraphError as exc:
        problem = exc.message.removesuffix(_BUG)
        raise MalformedGraphError(f"{stage}: {problem}", exc.window) from None


_WINDOW = 3
_BUG = ". This is a bug in tograph; please report it."


class MalformedGraphError(errors.InternalError):
    """A graph that breaks an invariant of the IR; ``window`` is the printed IR around the fault."""

    def __init__(self, problem: str, window: str):
        self.window = window
        super().__init__(problem)

    def _format(self) -> str:
        return f"{super()._format()}\n{self.window}"


def check_graph(graph: core.Graph) -> None:
    """Checks the invariants of ``graph`` and of every graph nested in it (module docstring).

    Raises:
      MalformedGraphError: the first broken invariant, with a window of the printed IR.
    """
    _Checker(graph).check(graph)


class _Checker:
    def __init__(self, root: core.Graph):
        self.root = root
        self.namer = core.Namer()
        self.lines = core.print_lines(root, namer=self.namer)

    def check(self, graph: core.Graph) -> None:
        defined: set[int] = set()
        for var in graph.inputs:
            self._define(var, defined, graph)
        for eqn in graph.eqns:
            for atom in eqn.inputs:
                self._use(atom, defined, eqn)
            for sub in eqn.subgraphs():
                self.check(sub)
            self._check_types(eqn)
            for var in eqn.outputs:
                self._define(var, defined, eqn)
        for atom in graph.outputs:
            self._use(atom, defined, graph, at_end=True)

    def _define(self, var: core.Var, defined: set[int], where: core.Eqn | core.Graph) -> None:
        if var.id in defined:
            self._fail(f"{self._name(var)} is defined twice", where)
        defined.add(var.id)

    def _use(
        self, atom: core.Atom, defined: set[int], where: core.Eqn | core.Graph, at_end: bool = False
    ) -> None:
        if isinstance(atom, core.Lit):
            value_type = types.type_of(atom.value)
            if not types.fits(value_type, atom.type):
                self._fail(
                    f"literal {atom.value!r} of type {value_type} is typed {atom.type}",
                    where,
                    at_end,
                )
        elif atom.id not in defined:
            self._fail(
                f"{self._name(atom)} is used before it is defined in this graph", where, at_end
            )

    def _check_types(self, eqn: core.Eqn) -> None:
        in_types = [a.type for a in eqn.inputs]
        try:
            expected = eqn.prim.out_types(in_types, eqn.params)
        except (errors.ToGraphError, TypeError, ValueError) as exc:
            detail = (
                exc.message.removesuffix(_BUG) if isinstance(exc, errors.ToGraphError) else str(exc)
            )
            self._fail(f"{eqn.prim.name} rejects its operands: {detail}", eqn)
        actual = tuple(v.type for v in eqn.outputs)
        if actual != tuple(expected):
            shown = _types_text(expected)
            self._fail(
                f"{eqn.prim.name} outputs are typed {_types_text(actual)}, its rule gives {shown}",
                eqn,
            )

    def _name(self, var: core.Var) -> str:
        return f"'{self.namer.name(var)}' ({var.type})"

    def _fail(self, problem: str, where: core.Eqn | core.Graph, at_end: bool = False) -> NoReturn:
        raise MalformedGraphError(problem, self._window(where, at_end))

    def _window(self, where: core.Eqn | core.Graph, at_end: bool) -> str:
        """The printed lines around ``where``: an equation, or a graph's header or return line."""
        found = [i for i, (_, shown) in enumerate(self.lines) if shown is where]
        index = found[-1] if at_end else found[0]
        lo, hi = max(index - _WINDOW, 0), min(index + _WINDOW + 1, len(self.lines))
        return "\n".join(("> " if i == index else "  ") + self.lines[i][0] for i in range(lo, hi))


def _types_text(ts: tuple[types.ValueType, ...]) -> str:
    return f"({', '.join(map(str, ts))})"
