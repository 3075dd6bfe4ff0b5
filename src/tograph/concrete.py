"""``ConcreteFunction``: one traced signature of a ``to_static`` function, ready to run.

It holds every stage's printable output: ``code`` (lowered source), ``ssa``, ``types``, ``graph``
(after optimisation), and ``fallback`` (None when compiled, else why it runs eagerly).
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from typing import Any

from tograph.analysis import types as type_inference
from tograph.backend import codegen
from tograph.ir import check, core
from tograph.lowering import convert
from tograph.passes import manager
from tograph.staging import build_graph
from tograph.trace import signature


class ConcreteFunction:
    """See module docstring."""

    def __init__(
        self,
        owner: Any,
        sig: signature.Signature,
        conversion: convert.Conversion | None,
        built: build_graph.BuiltGraph | None,
        analysis: convert.Analysis | None = None,
        inferred: type_inference.Inference | None = None,
        fallback: str | None = None,
    ):
        self._owner = owner
        self.signature = sig
        self._conversion = conversion
        self._built = built
        self._analysis = analysis
        self._inferred = inferred
        self.fallback = fallback
        self.graph: core.Graph | None = None
        self._run: Callable[..., tuple[Any, ...]] | None = None
        if built is not None:
            check.check_if_enabled(built.graph, "after building")
            self.graph = manager.run_passes(built.graph).graph
            self._run = codegen.compile_graph(self.graph)

    @classmethod
    def from_graph(
        cls, owner: Any, sig: signature.Signature, built: build_graph.BuiltGraph
    ) -> ConcreteFunction:
        """A concrete function for a graph that is optimised already (a loaded one).

        The graph is compiled as it is, not optimised again; it has no source stages (``code``,
        ``ssa`` and ``types`` are empty).
        """
        made = cls(owner, sig, None, None)
        made._built = built
        made.graph = built.graph
        made._run = codegen.compile_graph(built.graph)
        return made

    @property
    def owner(self) -> Any:
        """The function this is one signature of (a ``StaticFunction`` or ``GradFunction``)."""
        return self._owner

    @property
    def built(self) -> build_graph.BuiltGraph | None:
        """The graph as built and how its outputs make the Python result (None for a fallback)."""
        return self._built

    @property
    def code(self) -> str | None:
        """The converted function as Python source (None for a fallback)."""
        return None if self._conversion is None else self._conversion.source

    @property
    def ssa(self) -> str | None:
        """The function in SSA form, with phi nodes at joins and loop headers."""
        return None if self._analysis is None else self._analysis.ssa.text

    @functools.cached_property
    def types(self) -> dict[str, str]:
        """Inferred type of every SSA variable: ``f64[3]``, ``i64[]``, ``int (static)``, ..."""
        if self._inferred is not None:
            return self._inferred.types
        if self._analysis is None:
            return {}
        fn = self._analysis.parsed.fn
        bound = (fn.__self__,) if hasattr(fn, "__self__") else ()
        form = self._analysis.ssa
        return type_inference.infer(form, fn, self.signature, fn.__globals__, bound).types

    def op_counts(self) -> dict[str, int]:
        return {} if self.graph is None else self.graph.op_counts()

    def run(self, tensors: list[Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Runs the graph on a call's tensor leaves (or the eager fallback on the call)."""
        if self._run is None:
            return self._owner.python_function(*args, **kwargs)
        return self._built.unflatten(self._run(*tensors))

    def leaves_runner(self) -> Callable[[list[Any]], Any]:
        """Runs the graph on the call's tensor leaves, already in signature order."""
        run, built = self._run, self._built
        if built.out_slots == (0,) and built.out_tree.kind is None:
            return lambda leaves: run(*leaves)[0]
        return lambda leaves: built.unflatten(run(*leaves))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._owner(*args, **kwargs)

    def _repr_svg_(self) -> str | None:
        """The graph drawn by Graphviz, for notebooks; None without a graph or a renderer."""
        return None if self.graph is None else core.view(self.graph, "svg")

    def _repr_html_(self) -> str:
        """The graph as SVG where Graphviz is installed, else as printed (notebooks)."""
        if self.graph is None:
            return f"<pre>{html.escape(repr(self))}</pre>"
        return str(core.view(self.graph, "html"))

    def __repr__(self) -> str:
        if self.graph is None:
            return f"<ConcreteFunction (eager fallback: {self.fallback})>"
        return f"<ConcreteFunction\n{self.graph}\n>"
