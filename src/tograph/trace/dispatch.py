"""Dispatch: from a primitive application or a NumPy call to the right kind of tensor.

``bind`` sends ``prim(*args)`` to the highest-priority traced class among the arguments (any class
with ``PRIORITY`` and ``bind_primitive``: tensors and tensor lists; symbolic ones emit an equation,
eager ones run and record on the tape) or, with none among them, runs the kernel directly; it is
what ``Primitive.bind`` calls.
``UFUNCS`` and ``FUNCTIONS`` map NumPy ufuncs and functions to handlers that the ops modules
register with ``implements``; tensors' operators, methods and NumPy protocols look their handlers
up there, keyed by the callable they stand for: ``operator.getitem``/``operator.setitem`` for
``x[i]`` and ``x[i] = v``, ``np.ndarray.sort`` and ``np.ndarray.fill`` for those in-place
methods, ``np.ufunc.__call__`` for a ufunc writing into ``out=``. ``UFUNC_METHODS`` holds the
handlers of ufunc methods other than a call (``np.add.reduce``, ``np.maximum.accumulate``,
``np.add.at``), keyed by ufunc and method name and registered with ``implements_method``.
``OVERRIDES`` holds handlers for callables NumPy does not dispatch on, registered with
``overrides``. A NumPy callable with no handler (or whose handler refuses the arguments) gets
one from the fallback that ``ops.host_call`` installs with ``set_fallback``: a host call when the
callable is pure, else none (the compiler falls back to eager).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives

UFUNCS: dict[Any, Callable[..., Any]] = {}
FUNCTIONS: dict[Any, Callable[..., Any]] = {}
# Callables that NumPy does not dispatch on (np.zeros(n), np.array([t, u]), np.arange(n), ...):
# converted
# code calls these handlers instead when any argument, however deeply nested, is a tensor.
OVERRIDES: dict[Any, Callable[..., Any]] = {}
UFUNC_METHODS: dict[tuple[Any, str], Callable[..., Any]] = {}
# Handlers of ufuncs called by name (``np.power(x, y)``, not ``x ** y``) where that differs on
# scalars: the ufunc's loop may round differently from the scalars' own arithmetic.
LOOPS: dict[Any, Callable[..., Any]] = {}
# fallback(callable, ufunc method or "") -> a handler, or None; see set_fallback.
_fallback: list[Callable[[Any, str], Callable[..., Any] | None]] = []


def set_fallback(fallback: Callable[[Any, str], Callable[..., Any] | None]) -> None:
    """Installs what finds a handler for a NumPy callable that has none of its own."""
    _fallback[:] = [fallback]


def fallback_handler(fn: Any, method: str = "") -> Callable[..., Any] | None:
    """The fallback's handler for ``fn`` (a ufunc's ``method``), if it has one."""
    return _fallback[0](fn, method) if _fallback else None


def overrides(*callables: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Registers a handler for a callable that NumPy does not dispatch to tensors."""

    def register(handler: Callable[..., Any]) -> Callable[..., Any]:
        for fn in callables:
            OVERRIDES[fn] = handler
        return handler

    return register


def implements(*numpy_callables: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Registers a handler for NumPy ufuncs or functions called with a tensor argument (one
    handler per callable: a second registration is a programming error)."""

    def register(handler: Callable[..., Any]) -> Callable[..., Any]:
        for fn in numpy_callables:
            table = UFUNCS if isinstance(fn, np.ufunc) else FUNCTIONS
            if fn in table:
                raise ValueError(f"{fn!r} already has a handler, {table[fn].__qualname__}")
            table[fn] = handler
        return handler

    return register


def implements_method(
    method: str, *ufuncs: np.ufunc
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Registers a handler for ``ufunc.<method>`` (``reduce``, ``accumulate``, ``outer``, ``at``)
    called with a tensor argument; the handler takes the ufunc first, then NumPy's arguments."""

    def register(handler: Callable[..., Any]) -> Callable[..., Any]:
        for ufunc in ufuncs:
            UFUNC_METHODS[ufunc, method] = functools.partial(handler, ufunc)
        return handler

    return register


def hashable(fn: Any) -> bool:
    """Whether ``fn`` can be looked up in the tables of handlers (a callable may be unhashable)."""
    try:
        hash(fn)
    except TypeError:
        return False
    return True


def is_numpy(obj: Any) -> bool:
    """Whether ``obj`` is NumPy's: a ufunc, a NumPy module, or a function or class from one."""

    name = obj.__name__ if isinstance(obj, type(np)) else getattr(obj, "__module__", None) or ""
    return isinstance(obj, np.ufunc) or (isinstance(name, str) and name.split(".")[0] == "numpy")


def bind(prim: Any, args: tuple[Any, ...], params: dict[str, Any]) -> Any:
    """Applies ``prim`` to ``args``; see module docstring."""
    owner = None
    for a in args:
        kind = type(a)
        if hasattr(kind, "bind_primitive") and (owner is None or kind.PRIORITY > owner.PRIORITY):
            owner = kind
    if owner is None:
        return prim.impl(*args, **params)
    return owner.bind_primitive(prim, args, params)


def numpy_name(fn: Any, method: str = "__call__") -> str:
    """How a user writes NumPy's callable ``fn``: ``np.linalg.qr``, ``np.fft.hfft``, ``np.add``,
    ``np.add.reduceat`` for a ufunc's ``method``; its public module path, from ``__module__``
    (a private module, ``numpy._core``, is left out)."""
    module = getattr(fn, "__module__", None) or "numpy"
    parts = [p for p in module.split(".")[1:] if not p.startswith("_")]
    if len(parts) != len(module.split(".")) - 1:
        parts = []
    name = getattr(fn, "__name__", None) or type(fn).__name__
    suffix = "" if method == "__call__" else f".{method}"
    return ".".join(["np", *parts, name]) + suffix


def unsupported(name: str, reason: str | None = None) -> errors.UnsupportedError:
    """The error for a NumPy function that has no primitive (the compiler falls back on it);
    ``reason``, if given, ends the message (it is what the fallback warning shows)."""
    return errors.UnsupportedError(
        f"NumPy function {name} is not supported on tensors" + (f": {reason}" if reason else ""),
        hint="tograph runs this function eagerly instead, or call it on static values",
        construct=name,
    )


primitives.set_binder(bind)
