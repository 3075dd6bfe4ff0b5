"""The conformance corpus compiled once: every input set of every case that compiles to a graph.

The export tests draw from it (save/load round trips, ONNX), as the conformance tests draw from
the cases themselves.
"""

import contextlib
import copy
import dataclasses
import functools
import io
import warnings
from typing import Any

import tograph as tg
import tograph_conformance as conformance
from tograph.ir import primitives
from tograph_conformance import case as case_mod


@dataclasses.dataclass(frozen=True)
class Compiled:
    """One input set of one case, with the concrete function it compiled to."""

    case: conformance.Case
    number: int
    inputs: tuple[Any, ...]
    cf: tg.ConcreteFunction

    @property
    def id(self) -> str:
        return f"{self.case.name}[{self.number}]"

    def arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """A fresh copy of the input set (a function may update arrays in place)."""
        return case_mod.split(copy.deepcopy(self.inputs))


@functools.cache
def compiled() -> tuple[Compiled, ...]:
    """Every (case, input set) whose concrete function has a graph, in corpus order."""
    found = []
    for case in conformance.all_cases():
        if case.expect != "match":
            continue
        static = tg.to_static(case.fn)
        for number, inputs in enumerate(case.args):
            args, kwargs = case_mod.split(copy.deepcopy(inputs))
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                try:
                    cf = static.concrete(*args, **kwargs)
                except Exception:  # noqa: BLE001 - a case that raises while compiling has no graph
                    continue
            if cf.graph is not None:
                found.append(Compiled(case, number, inputs, cf))
    return tuple(found)


def tograph_primitives() -> set[str]:
    """The names of tograph's own primitives (tests register others of their own)."""
    return {
        name
        for name, prim in primitives.REGISTRY.items()
        if prim.type_rule.__module__.startswith("tograph.")
    }


def ids(entries: tuple[Compiled, ...]) -> list[str]:
    return [e.id for e in entries]
