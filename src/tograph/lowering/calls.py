"""Calls from converted code to user functions: converted on the fly, recursively and cached.

A plain Python function, method, lambda or callable object written by the user is converted with
``lowering.convert`` and its lowered twin runs in place, emitting into the graph being built.
Library code (NumPy, the standard library, installed packages) runs as it is: on static values it
is evaluated while the graph is built, and NumPy dispatches tensors to tograph's primitives. A
user function that cannot be converted also runs as it is, which works unless it branches on a
tensor (then the enclosing function falls back, naming it).
"""

from __future__ import annotations

import inspect
import os
import sys
import sysconfig
import types
from typing import Any, Callable

from tograph import errors, origin

_LIBRARY_DIRS = tuple(
    os.path.normcase(os.path.realpath(p))
    for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], sys.prefix}
)
_TOGRAPH_DIR = os.path.normcase(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))


def _is_user_code(fn: types.FunctionType) -> bool:
    filename = os.path.normcase(os.path.realpath(fn.__code__.co_filename))
    if filename.startswith(_TOGRAPH_DIR):
        return False
    return not filename.startswith(_LIBRARY_DIRS)


def _converted(fn: types.FunctionType) -> Callable[..., Any] | None:
    """The lowered twin of user function ``fn``, or None to call ``fn`` as it is."""
    if origin.is_converted(fn.__code__) or not _is_user_code(fn):
        return None
    from tograph.lowering import convert

    try:
        return convert.convert(fn).instantiate(fn)
    except errors.UnsupportedError:
        return None


def call_user(fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Calls ``fn(*args, **kwargs)``, converting it first if it is user code."""
    target, bound_self = _unwrap(fn)
    if target is not None:
        lowered = _converted(target)
        if lowered is not None:
            lowered = _with_defaults(lowered, target)
            return lowered(bound_self, *args, **kwargs) if bound_self is not None else lowered(*args, **kwargs)
    return fn(*args, **kwargs)


def _unwrap(fn: Any) -> tuple[types.FunctionType | None, Any]:
    """The Python function behind ``fn`` and the object bound to it, if any."""
    if isinstance(fn, types.FunctionType):
        return fn, None
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        return fn.__func__, fn.__self__
    static = getattr(fn, "__tograph_python_function__", None)
    if static is not None:
        return static, getattr(fn, "__self__", None)
    if not isinstance(fn, type) and not inspect.isroutine(fn):
        call = getattr(type(fn), "__call__", None)
        if isinstance(call, types.FunctionType):
            return call, fn
    return None, None


def _with_defaults(lowered: Callable[..., Any], original: types.FunctionType) -> Callable[..., Any]:
    lowered.__defaults__ = original.__defaults__
    lowered.__kwdefaults__ = original.__kwdefaults__
    return lowered
