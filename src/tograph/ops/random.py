"""Random draws: an effect that draws from the user's generator each time the graph runs.

Stage: graph building (the ``random`` primitive). Input: a call of ``np.random.normal`` and its
legacy siblings, of a method of a ``np.random.Generator``, ``RandomState`` or ``random.Random``
(``ops.random_sources`` says which object), of ``random.random`` and the stdlib's other
functions, or ``np.random.default_rng(seed)`` made in the function. Output: one ``random``
equation per call, effectful so no pass removes, merges, folds or moves it, and every draw
happens in program order, only in the branch or loop trip that runs it. Printed form::

    t0:f64[3] = random[draw=np.random.normal(size=(3,))]
    t1:f64[None] = random[draw=rng.normal($0, 1.0, size=($1,))] mu n
    random[draw=default_rng(0)]
    t2:i64[] = random[draw=default_rng(0).integers(0, 10)]

``$k`` marks where the k-th tensor goes. An equation without a method makes the function's own
generator (``Local``); its draws then come from that run's generator. Building never draws from
the user's generators: the result types come from probing the method on a throwaway generator of
the same family and bit generator, with made-up arguments whose dims and integers differ between
probes (so a size taken from a tensor is an unknown dim). A draw has no VJP rule: its result is a
constant for autodiff, and differentiating through its parameters is an error (as on the tape).
``shuffle`` draws a shuffled copy and writes it into its argument in place (``trace.functional``),
as NumPy's would.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core, primitives, types
from tograph.ops import host_call, host_probe
from tograph.ops import random_sources as sources
from tograph.trace import builder as builder_mod
from tograph.trace import dispatch, functional, tensor


@dataclasses.dataclass(frozen=True)
class Draw:
    """One call on a source: ``method`` with static ``args``/``kwargs`` (``$k`` for the k-th
    tensor); ``method`` empty makes a ``Local`` source's generator. ``python`` lists the tensors
    that are Python numbers in eager code; ``shapes`` the result shapes the graph expects."""

    source: sources.Source
    method: str
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()
    python: tuple[int, ...] = ()
    shapes: tuple[tuple[int | None, ...], ...] = ()

    @functools.cached_property
    def static_parts(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The call's arguments when it takes no tensor (filled in once, not at every draw)."""
        return host_probe.call_parts((), self.args, self.kwargs)

    def __repr__(self) -> str:
        if not self.method:
            return self.source.label
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs]
        return f"{self.source.label}.{self.method}({', '.join(parts)})"


def _impl(*values: Any, draw: Draw) -> tuple[Any, ...]:
    if not draw.method:
        if not isinstance(draw.source, sources.Local):
            raise errors.InternalError(f"{draw!r} makes no generator. This is a bug")
        draw.source.make()
        return ()
    if values:
        values = tuple(_as_python(v) if i in draw.python else v for i, v in enumerate(values))
        positional, keywords = host_probe.call_parts(values, draw.args, draw.kwargs)
    else:
        positional, keywords = draw.static_parts
    outputs = _call(getattr(draw.source.target(), draw.method), draw.method, positional, keywords)
    for value, shape in zip(outputs, draw.shapes):
        got = np.shape(value)
        if len(got) != len(shape) or any(d is not None and d != g for d, g in zip(shape, got)):
            raise errors.ShapeError(f"{draw!r} drew shape {got} where the graph expects {shape}")
    return outputs


def _call(method: Any, name: str, positional: Any, keywords: Any) -> tuple[Any, ...]:
    """The results of a draw as a tuple; ``shuffle`` shuffles a copy and returns it."""
    if name == "shuffle":
        copy = np.array(positional[0], order="C", copy=True)
        method(copy, *positional[1:], **keywords)
        return (copy,)
    result = method(*positional, **keywords)
    return () if result is None else tuple(host_probe.leaves(result))


def _as_python(value: Any) -> Any:
    return value.item() if isinstance(value, (np.ndarray, np.generic)) else value


def _rule(*in_types: types.ValueType, draw: Draw) -> tuple[types.TensorType, ...]:
    if not draw.method:
        return ()
    tensor_types = tuple(types.tensor_type(t) for t in in_types)
    return _probed(draw.source, draw.method, tensor_types, draw.args, draw.kwargs).types


random_p = primitives.Primitive(
    "random", _impl, _rule, multiple_results=True, effectful=True, layout="C"
)


# ---- the type probe -----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Probe:
    """A draw's method on throwaway generators (what ``host_probe`` calls ``fn``)."""

    key: tuple[str, Any]
    method: str

    @property
    def path(self) -> str:
        return f"random.{self.method}"

    @property
    def fn(self) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            method = getattr(sources.throwaway(self.key), self.method)
            if self.method == "choice" and isinstance(kwargs.get("p"), np.ndarray):
                # made-up probabilities must sum to 1, as choice checks
                kwargs["p"] = np.full_like(kwargs["p"], 1 / max(kwargs["p"].size, 1))
            outputs = _call(method, self.method, args, kwargs)
            return outputs[0] if len(outputs) == 1 else outputs

        return call

    def __repr__(self) -> str:
        return f"{self.key[0]}.{self.method}"


def _probe_values(in_types: Sequence[types.TensorType], k: int) -> list[Any]:
    """Arguments that most distributions accept: floats in (0, 1) increasing with position (a
    ``low`` below its ``high``), integers ``position + 1 + k`` (a size from a tensor differs
    between probes), unknown dims of size ``2 + k``."""
    values: list[Any] = []
    for i, t in enumerate(in_types):
        shape = tuple(2 + k if d is None else d for d in t.shape)
        if t.dtype.kind == "b":
            fill: Any = True
        elif t.dtype.kind in "iu":
            fill = i + 1 + k
        else:
            fill = (i + 1) / (len(in_types) + 1)
        value = np.full(shape, fill, dtype=t.dtype)
        values.append(value.item() if t.weak else value if t.ndim else value[()])
    return values


def _probed(
    source: sources.Source,
    method: str,
    in_types: tuple[types.TensorType, ...],
    args: tuple[Any, ...],
    kwargs: tuple[tuple[str, Any], ...],
) -> host_probe.Probed:
    probe = _Probe(source.probe_key(), method)
    return host_probe.result(probe, in_types, args, kwargs, _probe_values)


# ---- building -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class BoundDraw:
    """``source.method``, as user code holds it before calling it (``rng.normal``)."""

    source: sources.Source
    method: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return draw(self.source, self.method, args, kwargs)


class LocalGenerator:
    """What ``np.random.default_rng(seed)`` gives while a graph is built: its methods draw from
    the generator that each run of the graph makes; anything else falls back."""

    def __init__(self, source: sources.Local, loc: errors.SourceLocation | None):
        self._tg_source = source
        self.loc = loc  # where the function makes it

    def __getattr__(self, name: str) -> Any:
        source = self.__dict__.get("_tg_source")  # absent in a copy being made
        if source is None:
            raise AttributeError(name)
        if name in sources.METHODS[source.family]:
            return BoundDraw(source, name)
        raise _refuse(f"{source.label}.{name}", "is not a draw tograph compiles")

    def __repr__(self) -> str:
        return f"<{self._tg_source.label}, made in the function being traced>"


def draw(source: sources.Source, method: str, args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
    """``source.method(*args, **kwargs)``: an equation while a graph is built, else the draw."""
    current = builder_mod.current()
    if current is None:
        return getattr(source.target(), method)(*args, **kwargs)
    name = f"{source.label}.{method}"
    if kwargs.get("out") is not None:
        raise _refuse(name, "writes into out=")
    if method == "shuffle" and not (args and _is_array_tensor(args[0])):
        raise _refuse(name, "shuffles something that is not an array made or taken by the function")
    if any(getattr(leaf, "kind_tag", None) is not None for leaf in _leaves((args, kwargs))):
        raise _refuse(name, "takes a number that is a Python or NumPy scalar depending on the path")
    tensors: list[Any] = []
    arg_template = host_call.template(tuple(args), tensors)
    kw_template = tuple((k, host_call.template(v, tensors)) for k, v in kwargs.items())
    in_types = tuple(types.tensor_type(t.type) for t in tensors)
    probed = _probed(source, method, in_types, arg_template, kw_template)
    params = Draw(
        source,
        method,
        arg_template,
        kw_template,
        tuple(i for i, t in enumerate(in_types) if t.weak),
        tuple(t.shape for t in probed.types),
    )
    outs = current.emit(random_p, tensors, {"draw": params})
    for out, is_array in zip(outs, probed.array0d):
        if isinstance(out, tensor.SymbolicTensor):
            out.array0d = is_array
    if method == "shuffle":
        functional.assign(args[0], outs[0])
        return None
    return probed.tree.unflatten(list(outs)) if outs else None


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _is_array_tensor(value: Any) -> bool:
    return isinstance(value, tensor.SymbolicTensor) and value.is_array


def make_local(family: str, seed: Any = None) -> Any:
    """``np.random.default_rng(seed)`` (or ``RandomState``, ``random.Random``) in the function:
    an equation that makes the generator on each run, and the object its draws are called on."""
    current = builder_mod.current()
    if current is None:
        return sources.MAKERS[family](seed)
    if not _static_seed(seed):
        name = sources.MAKER_NAMES[family]
        raise _refuse(f"{name}(seed)", "takes a seed known only when the graph runs")
    source = sources.Local(family, seed)
    current.emit(random_p, (), {"draw": Draw(source, "")})
    return LocalGenerator(source, origin.current_location())


def _static_seed(seed: Any) -> bool:
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        return True
    return isinstance(seed, (tuple, list)) and all(_static_seed(s) and s is not None for s in seed)


_MAKERS = {maker: family for family, maker in sources.MAKERS.items()}


def handler(fn: Any) -> Callable[..., Any] | None:
    """What a call of ``fn`` becomes when it draws random numbers or makes a generator; None
    when it does neither.

    Raises:
      UnsupportedError: ``fn`` belongs to ``np.random`` or ``random`` but is none of the draws
        and makers compiled here (``get_state``, ``spawn``, ``random.sample`` ...).
    """
    if isinstance(fn, BoundDraw):
        return fn
    if not dispatch.hashable(fn):
        return None
    if fn in _MAKERS:
        return functools.partial(make_local, _MAKERS[fn])
    source = sources.source_of(fn)
    name = getattr(fn, "__name__", "")
    if source is None:
        module = getattr(fn, "__module__", None) or ""
        owner = getattr(fn, "__self__", None)
        if module == "random" or module.startswith("numpy.random") or sources.is_generator(owner):
            raise _refuse(getattr(fn, "__qualname__", name), "is not a draw tograph compiles")
        return None
    if isinstance(source, sources.NumpyGlobal):
        name = sources.ALIASES.get(name, name)
    if name not in sources.METHODS[source.family]:
        raise _refuse(f"{source.label}.{name}", "is not a draw tograph compiles")
    return BoundDraw(source, name)


def _refuse(name: str, why: str) -> errors.UnsupportedError:
    return errors.UnsupportedError(
        f"{name} {why}", loc=origin.current_location(), construct="random number generation"
    )


def sources_of(graph: core.Graph) -> list[sources.Source]:
    """The sources outside the function that ``graph`` draws from, nested graphs included."""
    found: dict[int, sources.Source] = {}
    for eqn in graph.walk():
        if eqn.prim is random_p and not isinstance(eqn.params["draw"].source, sources.Local):
            found.setdefault(id(eqn.params["draw"].source.target()), eqn.params["draw"].source)
    return list(found.values())


def draws(graph: core.Graph) -> bool:
    """Whether ``graph`` (or a graph nested in it) has a ``random`` equation."""
    return any(eqn.prim is random_p for eqn in graph.walk())
