"""``ConcreteFunction``: one traced signature of a ``to_static`` function, ready to run.

It holds every stage's printable output: ``code`` (lowered source), ``ssa``, ``types``, ``graph``
(after optimisation), and ``fallback`` (None when compiled, else why it runs eagerly); ``backend``
says which executor runs the graph ("numpy" or "numba") and ``backend_note`` why it is not numba
when numba was asked for. A call whose tensors include dask arrays runs the same graph on the
Dask backend (``backend.dask_exec``).
"""

from __future__ import annotations

import functools
import html
import inspect
import io
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.analysis import types as type_inference
from tograph.backend import backends, codegen, dask_exec, memory
from tograph.ir import check, core
from tograph.lowering import convert
from tograph.ops import random as random_draws
from tograph.passes import manager, totality
from tograph.staging import build_graph, tries
from tograph.trace import signature

# a try's handlers must not meet what the graph may raise when it runs (``staging.tries``)
tries.install(totality.is_total, totality.may_raise)


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
        backend: str = "numpy",
        gradient: bool = False,
    ):
        self._owner = owner
        self.signature = sig
        self._conversion = conversion
        self._built = built
        self._analysis = analysis
        self._inferred = inferred
        self.fallback = fallback
        # a FallbackWarning to give once an eager run succeeds (the reason is no error of the
        # plain function's own)
        self.pending_warning: str | None = None
        self.graph: core.Graph | None = None
        self.backend: str | None = None
        self.backend_note: str | None = None
        self._asked_backend = backend
        self._run: Callable[..., tuple[Any, ...]] | None = None
        self._recipe: build_graph.BuiltGraph | None = None
        self._functional: core.Graph | None = None  # the pure graph, for the dask backend
        if built is not None:
            check.check_if_enabled(built.graph, "after building")
            optimize = manager.optimize_gradient if gradient else manager.run_passes
            self.graph = optimize(built.graph).graph
            self._executable(self.graph)
            self._recipe = built.checking(self.graph)

    def _executable(self, graph: core.Graph) -> None:
        executable = backends.compile_graph(graph, self._asked_backend, self.compile_options)
        self._run, self.backend, self.backend_note = (
            executable.run,
            executable.backend,
            executable.note,
        )

    @classmethod
    def from_graph(
        cls,
        owner: Any,
        sig: signature.Signature,
        built: build_graph.BuiltGraph,
        backend: str = "numpy",
    ) -> ConcreteFunction:
        """A concrete function for a graph that is optimised already (a loaded one).

        The graph is compiled as it is, not optimised again; it has no source stages (``code``,
        ``ssa`` and ``types`` are empty).
        """
        made = cls(owner, sig, None, None, backend=backend)
        made._built = built
        made.graph = built.graph
        made._executable(built.graph)
        made._recipe = built.checking(built.graph)
        return made

    @property
    def compile_options(self) -> codegen.Options:
        """How the graph is compiled: fused and reusing buffers, for this signature's layouts."""
        return codegen.Options(c_inputs=tuple(lay == "C" for lay in self.signature.input_layouts))

    def memory_plan(self) -> memory.Plan | None:
        """The graph's memory plan (``tograph.backend.memory``): which elementwise results write
        into dead buffers, and the peak bytes of arrays alive at once (None for a fallback)."""
        if self.graph is None:
            return None
        return codegen.memory_plan(self.graph, self.compile_options)

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

    @functools.cached_property
    def _random_sources(self) -> list[Any]:
        """The generators from outside the function that the graph draws from."""
        return [] if self.graph is None else random_draws.sources_of(self.graph)

    @property
    def draws_random(self) -> bool:
        """Whether a call draws random numbers (``tograph.ops.random``): it is not pure."""
        return self.graph is not None and random_draws.draws(self.graph)

    def op_counts(self) -> dict[str, int]:
        return {} if self.graph is None else self.graph.op_counts()

    @property
    def functional_graph(self) -> core.Graph | None:
        """The optimised graph as a pure function (None for a fallback): its outputs are the
        result's arrays, arguments returned included, then the final values of the arguments
        the function writes in place. What an exporter without aliasing saves."""
        return None if self._recipe is None else self._recipe.functional_graph()

    @property
    def writes_arguments(self) -> bool:
        """Whether a call writes into argument arrays, lists or dicts (as the function writes
        them in place)."""
        return self._recipe is not None and self._recipe.writes_arguments

    def guard_inputs(self, root: Any) -> list[Any] | None:
        """The graph inputs this function reads from the objects of a call (``root`` is its
        ``(args, kwargs, bound)``), or None when the objects are not as they were when traced
        (another graph is needed)."""
        found: list[Any] = []
        for read in self._recipe.reads if self._recipe is not None else ():
            got = read.inputs(root)
            if got is None:
                return None
            found.extend(got)
        return found

    def run(
        self,
        tensors: list[Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        arguments: tuple[Any, Any, Any] | None = None,
    ) -> Any:
        """Runs the graph on a call's tensor leaves (or the eager fallback on the call).

        ``arguments`` is the call's ``(args, kwargs, bound)`` as ``_arguments`` makes it, when
        the caller has bound them already (else they are bound here, if the recipe needs them).

        A graph that writes into arguments runs them eagerly instead when two of them overlap
        in memory (a write through one would show in the other), and when it raises: the
        function then runs eagerly, so the arguments end as the failing function leaves them
        (the graph's own printing, held back until then, is dropped, and the generators it drew
        from are put back as they were).
        """
        if self._run is None or self._recipe is None:
            result = self._owner.python_function(*args, **kwargs)
            if self.pending_warning is not None:
                warning, self.pending_warning = self.pending_warning, None
                origin.warn(warning, errors.FallbackWarning)
            return result
        if dask_exec.takes(tensors):
            return self._run_dask(self._recipe, tensors, args, kwargs)
        recipe = self._recipe
        if arguments is None and recipe.needs_arguments:
            arguments = self._arguments(args, kwargs)
        if not recipe.writes_arguments:
            return recipe.unflatten(self._run(*tensors), tensors, arguments)
        if _overlapping(tensors, self.signature.input_twins):
            return self._owner.python_function(*args, **kwargs)
        held = io.StringIO()
        states = [(source, source.get_state()) for source in self._random_sources]
        try:
            shown, sys.stdout = sys.stdout, held  # contextlib.redirect_stdout, without its cost
            try:
                outputs = self._run(*tensors)
            finally:
                sys.stdout = shown
        except Exception:  # noqa: BLE001 - the eager run raises it again, with its effects
            for source, state in states:  # so that it draws the very numbers the graph drew
                source.set_state(state)
            return self._owner.python_function(*args, **kwargs)
        printed = held.getvalue()
        if printed:
            sys.stdout.write(printed)
        return recipe.unflatten(outputs, tensors, arguments)

    def _arguments(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, Any]:
        """The call's arguments bound to the parameters (defaults filled in), as the signature
        saw them, and the object a bound method has: where the lists, dicts and objects the
        result refers to or changes are found."""
        bound_args, bound_kwargs, _ = signature.bind(self._fn_signature, args, kwargs)
        fn = self._owner.python_function
        bound = (fn.__self__,) if isinstance(fn, types.MethodType) else ()
        return bound_args, bound_kwargs, bound

    @functools.cached_property
    def _fn_signature(self) -> inspect.Signature:
        return self._owner._signature

    def _run_dask(
        self,
        recipe: build_graph.BuiltGraph,
        tensors: list[Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> Any:
        """Runs the pure graph on dask arrays with the Dask backend (``backend.dask_exec``): the
        result's arrays are lazy dask arrays. A graph that writes into its arguments runs
        eagerly instead, with a warning: the backend writes into no dask array."""
        if recipe.writes_arguments or recipe.needs_arguments:
            origin.warn(
                f"{self._owner.__name__} runs eagerly on dask arrays: it changes or returns "
                "its arguments in place, which the dask backend does not do",
                errors.FallbackWarning,
            )
            return self._owner.python_function(*args, **kwargs)
        if self._functional is None:
            self._functional = recipe.functional_graph()
        return recipe.unflatten_functional(dask_exec.execute(self._functional, *tensors))

    def leaves_runner(self) -> Callable[[list[Any]], Any] | None:
        """Runs the graph on the call's tensor leaves, already in signature order; None when a
        call needs more than its leaves (it writes arguments back: see ``run``)."""
        run, recipe = self._run, self._recipe
        if run is None or recipe is None or recipe.writes_arguments or recipe.needs_arguments:
            return None
        if recipe.plain and recipe.out_slots == (0,) and recipe.out_tree.kind is None:
            return lambda leaves: run(*leaves)[0]
        if self._returns_outputs_tuple(recipe):
            return _tuple_runner(run, recipe)
        return lambda leaves: recipe.unflatten(run(*leaves), leaves)

    def _returns_outputs_tuple(self, recipe: build_graph.BuiltGraph) -> bool:
        """Whether the result is the tuple of the graph's outputs, in order (``return x, n``),
        but for copies of outputs that share an argument's or one another's memory
        (``_tuple_runner``)."""
        tree, slots = recipe.out_tree, recipe.out_slots
        return (
            tree.kind is tuple
            and all(child.kind is None for child in tree.children)
            and slots == tuple(range(len(slots)))
            and self.graph is not None
            and len(self.graph.outputs) == len(slots)
        )

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
        note = f" ({self.backend_note})" if self.backend_note else ""
        return f"<ConcreteFunction on {self.backend}{note}\n{self.graph}\n>"


def _tuple_runner(run: Callable[..., Any], recipe: build_graph.BuiltGraph) -> Callable[..., Any]:
    """Runs a graph whose result is the tuple of its outputs: the tuple ``run`` returns, unless
    an output that may share an argument's memory, or another output's (``recipe.apart``), is an
    array (``recipe.unflatten`` then copies it as it must): a scalar result, the loop case,
    skips the general path's work."""
    checked = tuple(sorted(set(recipe.check_outputs).union(*recipe.apart)))

    def runner(leaves: list[Any]) -> Any:
        outputs = run(*leaves)
        for k in checked:  # a loop, not any() over a generator: this is every call's path
            if isinstance(outputs[k], np.ndarray):
                return recipe.unflatten(outputs, leaves)
        return outputs

    return runner


def _overlapping(tensors: list[Any], twins: tuple[int | None, ...]) -> bool:
    """Whether two argument arrays (other than one array passed twice) share memory."""
    arrays = [(i, a) for i, a in enumerate(tensors) if isinstance(a, np.ndarray) and a.size]
    for k, (i, a) in enumerate(arrays):
        for j, b in arrays[k + 1 :]:
            same = a is b or (j < len(twins) and twins[j] == i)
            if not same and np.may_share_memory(a, b):
                return True
    return False
