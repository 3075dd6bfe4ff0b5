"""Pickling compiled functions: pickle and cloudpickle carry graphs in the saved format.

Stage: export. Input: a ``StaticFunction``, ``ConcreteFunction`` or ``LoadedFunction`` being
pickled. Output: what rebuilds it, registered with ``copyreg`` (which both picklers consult) when
``tograph`` is imported, so the classes themselves know nothing of pickling:

* a ``StaticFunction`` defined at the top level of an importable module pickles by reference, as
  a plain function does, and unpickles to that module's object;
* any other ``StaticFunction`` (a closure, a lambda, one from ``__main__``, which ``cloudpickle``
  sends by value) pickles as its Python function, options, and the graphs of every signature
  compiled so far in ``tograph.save``'s format: unpickled where the source is not available (a
  worker process), those signatures still run compiled; others are traced on first use;
* a ``ConcreteFunction`` or ``LoadedFunction`` pickles as its saved file and unpickles as
  ``tograph.load`` would load it (a concrete function then belongs to a ``LoadedFunction``);
* ``with_graphs(fn)`` pickles a ``StaticFunction`` with its graphs even where it could go by
  reference (what ``f.map`` sends to Dask workers).

The graphs inside a pickle are never unpickled themselves: ``tograph.loads`` reads them.
"""

from __future__ import annotations

import copyreg
import sys
from collections.abc import Callable, Sequence
from typing import Any

from tograph import api, concrete, errors
from tograph.export import serialize, signatures


def _reduce_static(fn: api.StaticFunction) -> Any:
    qualname = _importable_name(fn)
    if qualname is not None:
        return qualname  # by reference: pickle finds the object at module.qualname
    graphs = _saved_graphs(fn.concrete_functions)
    state = (fn.python_function, fn.input_spec, fn.fallback_mode, graphs, fn.backend)
    return _rebuild_static, state


def _importable_name(fn: api.StaticFunction) -> str | None:
    """``fn``'s qualified name if it is the object its module holds under that name."""
    module = getattr(fn, "__module__", None)
    qualname = str(getattr(fn, "__qualname__", ""))
    found = module not in (None, "__main__") and _lookup(module, qualname) is fn
    return qualname if found else None


class _WithGraphs:
    """Pickles as the function it holds, with its graphs, even where pickle would refer to it."""

    def __init__(self, fn: api.StaticFunction):
        self.fn = fn

    def __reduce__(self) -> Any:
        if isinstance(self.fn, serialize.LoadedFunction):
            return _reduce_loaded(self.fn)
        if _importable_name(self.fn) is not None:  # the module's object, given graphs it lacks
            return _add_graphs, (self.fn, _saved_graphs(self.fn.concrete_functions))
        return _reduce_static(self.fn)


def with_graphs(fn: api.StaticFunction) -> Any:
    """An object that pickles as ``fn`` carrying the graphs of every signature it has compiled:
    for a process that should run those graphs rather than trace ``fn`` again
    (``tograph.distributed`` sends it to Dask workers). A function at the top level of an
    importable module unpickles as that module's object, with the graphs added to those it has
    (and its source at hand for new signatures); any other as a copy, as pickle makes it."""
    return _WithGraphs(fn)


def _add_graphs(static: api.StaticFunction, graphs: bytes | None) -> api.StaticFunction:
    _install_graphs(static, graphs)
    return static


def _lookup(module: str, qualname: str) -> Any:
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return found


def _saved_graphs(functions: Sequence[concrete.ConcreteFunction]) -> bytes | None:
    """The saved file of the signatures that can be saved (the rest will be traced again)."""
    saveable = []
    for cf in functions:
        try:
            serialize.saves(cf)
        except errors.ExportError:
            continue
        saveable.append(cf)
    return serialize.pack_functions(saveable) if saveable else None


def _rebuild_static(
    python_function: Callable[..., Any],
    input_spec: Any,
    fallback: str,
    graphs: bytes | None,
    backend: str = "numpy",
) -> api.StaticFunction:
    static = api.StaticFunction(python_function, input_spec, fallback, backend)
    _install_graphs(static, graphs)
    return static


def _install_graphs(static: api.StaticFunction, graphs: bytes | None) -> None:
    """Gives ``static`` the saved graphs of the signatures it has not compiled itself."""
    if graphs is None:
        return
    for cf in serialize.loads(graphs).concrete_functions:
        if cf.signature.key in static._cache:  # noqa: SLF001
            continue
        built = signatures.built_of(cf)
        rebuilt = concrete.ConcreteFunction.from_graph(static, cf.signature, built, static.backend)
        static._add(rebuilt)  # noqa: SLF001 - traced already, elsewhere


def _reduce_concrete(cf: concrete.ConcreteFunction) -> Any:
    return _load_concrete, (serialize.saves(cf),)


def _load_concrete(blob: bytes) -> concrete.ConcreteFunction:
    return serialize.loads(blob).concrete_functions[0]


def _reduce_loaded(fn: serialize.LoadedFunction) -> Any:
    return serialize.loads, (serialize.saves(fn),)


copyreg.pickle(api.StaticFunction, _reduce_static)
copyreg.pickle(concrete.ConcreteFunction, _reduce_concrete)
copyreg.pickle(serialize.LoadedFunction, _reduce_loaded)
