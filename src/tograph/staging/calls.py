"""Calls from converted code to user functions: converted on the fly, recursively and cached.

A plain Python function, method, lambda or callable object written by the user is converted with
``lowering.convert`` and its lowered twin runs in place, emitting into the graph being built. A
class called to make a plain object (``object.__new__``, no metaclass of its own) has its
``__init__`` converted so: the object is made and recorded as made here
(``staging.made_objects``), then initialised, so that the draws, prints and other effects of
``__init__`` happen on every call rather than once while the graph is built; a dataclass's
generated ``__init__`` (which has no source) runs as it is but calls ``__post_init__`` converted.
Library code runs as it is: tograph itself, the standard library (but for the few functions of
it that sort their data, ``statistics.median``), and installed packages other than the caller's
own (a package's code calling its own helpers is user code wherever it is installed). On static
values library code is evaluated while the graph is built, and NumPy dispatches tensors to
tograph's primitives. A user function that cannot be converted also runs as it is, which works
unless it branches on a tensor (then the enclosing function falls back, naming it), but for one
setting variables outside itself (``global``, or ``nonlocal`` of a function that is not the
caller's own), which would set them once, while the graph is built: the caller falls back. A list
given to a converted function that changes that parameter in place is marked as known by two
names (``trace.containers``), so that such a change inside tensor control flow falls back rather
than happening once while the graph is built; a dict so given is marked as one whose identity
matters, so that the function's own tensor control flow refills it, and a change to it inside
the caller's goes through its entries' cells (``staging.dict_items``).
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import inspect
import os
import statistics
import sysconfig
import types
from collections.abc import Callable
from typing import Any

from tograph import caching, errors, origin
from tograph.frontend import fence, nodes
from tograph.lowering import canonicalize, convert
from tograph.ops import lists
from tograph.staging import choices, made_objects
from tograph.trace import containers

_LIBRARY_DIRS = tuple(
    os.path.normcase(os.path.realpath(sysconfig.get_paths()[kind]))
    for kind in ("stdlib", "purelib", "platlib")
)


def _top_package(module: str) -> str:
    return module.partition(".")[0]


# Standard-library functions written in Python that sort their data: converted as user code
# is, so that their ``sorted`` of tensor values compiles (``staging.ordering``).
_CONVERTED_LIBRARY = frozenset(
    f.__code__ for f in (statistics.median, statistics.median_low, statistics.median_high)
)


def _is_user_code(fn: types.FunctionType) -> bool:
    if fn.__code__ in _CONVERTED_LIBRARY:
        return True
    package = _top_package(getattr(fn, "__module__", None) or "")
    if package == "tograph":
        return False
    filename = os.path.normcase(os.path.realpath(fn.__code__.co_filename))
    if not filename.startswith(_LIBRARY_DIRS):
        return True
    caller = origin.current_module()
    return bool(package) and caller is not None and _top_package(caller) == package


def converts(fn: Any) -> bool:
    """Whether ``call_user`` runs ``fn`` as converted code: user code, or code converted already."""
    if isinstance(fn, functools.partial):
        return converts(fn.func)
    target, _ = _unwrap(fn)
    return target is not None and (origin.is_converted(target.__code__) or _is_user_code(target))


def call_user(
    fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any], runtime: types.ModuleType
) -> Any:
    """Calls ``fn(*args, **kwargs)``, converting it first if it is user code.

    ``runtime`` is the module that converted code calls as ``_t`` (``staging.runtime``).
    """
    if isinstance(fn, functools.partial):
        return call_user(fn.func, fn.args + args, {**fn.keywords, **kwargs}, runtime)
    if _init_converts(fn):
        return _construct(fn, args, kwargs, runtime)
    target, bound_self = _unwrap(fn)
    if target is None or origin.is_converted(target.__code__) or not _is_user_code(target):
        return fn(*args, **kwargs)
    try:
        conversion = convert.convert(target)
        lowered = _with_defaults(conversion.instantiate(target, runtime), target)
    except errors.UnsupportedError as exc:
        if exc.construct in fence.SETS_OUTSIDE:
            raise  # run as it is, it would set its variables once, while the graph is built
        return _call_unconverted(fn, target, exc, args, kwargs)
    _lend_containers(target, conversion, bound_self, args, kwargs)
    return (
        lowered(bound_self, *args, **kwargs) if bound_self is not None else lowered(*args, **kwargs)
    )


def _init_converts(cls: Any) -> bool:
    """Whether calling ``cls`` makes a plain object and runs a Python ``__init__``, which is
    then converted as any user function is: run as it is, its random draws, prints and other
    effects would happen once, while the graph is built, and never again."""
    return (
        isinstance(cls, type)
        and type(cls) in (type, abc.ABCMeta)
        and cls.__new__ is object.__new__
        and isinstance(cls.__init__, types.FunctionType)
    )


def _construct(
    cls: type, args: tuple[Any, ...], kwargs: dict[str, Any], runtime: types.ModuleType
) -> Any:
    """``cls(*args, **kwargs)``: a new object, recorded as made here before its converted
    ``__init__`` runs (so that tensor control flow in it may set its attributes)."""
    obj = object.__new__(cls)
    made_objects.note_made(obj)
    post_init = getattr(cls, "__post_init__", None)
    own = getattr(obj, "__dict__", None)
    if not (dataclasses.is_dataclass(cls) and isinstance(post_init, types.FunctionType)):
        result = call_user(types.MethodType(cls.__init__, obj), args, kwargs, runtime)
    elif type(own) is not dict:
        raise errors.UnsupportedError(
            f"a dataclass with __slots__ and a __post_init__ ({cls.__name__}) made in the "
            "function: its generated __init__ would run __post_init__ unconverted, once, while "
            "the graph is built",
            loc=origin.current_location(),
            construct="dataclass __post_init__",
        )
    else:
        # the generated __init__ has no source to convert: it runs as it is, and finds the
        # converted __post_init__ in the object's own __dict__ (which comes before the class's)
        def converted_post_init(*post_args: Any, **post_kwargs: Any) -> Any:
            bound = types.MethodType(post_init, obj)
            return call_user(bound, post_args, post_kwargs, runtime)

        own["__post_init__"] = converted_post_init
        try:
            result = call_user(types.MethodType(cls.__init__, obj), args, kwargs, runtime)
        finally:
            own.pop("__post_init__", None)
    if result is not None:
        raise TypeError(f"__init__() should return None, not '{type(result).__name__}'")
    return obj


def _lend_containers(
    target: types.FunctionType,
    conversion: convert.Conversion,
    bound_self: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> None:
    """Marks the lists given to a function that changes those parameters in place as known by
    two names (``trace.containers``): a change inside tensor control flow, which would happen once
    while the graph is built, then falls back. A dict so given is marked as one whose identity
    matters: the function's own tensor control flow refills it, and the caller's carries its
    entries (``staging.dict_items``). A tensor list (one that grows in a
    loop or branch over tensors) given so is refused outright: it is a value, and the change
    would reach the function's name for it, not the caller's."""
    given = [*args, *kwargs.values()]
    if not any(type(v) in (list, dict) or isinstance(v, lists.SymbolicList) for v in given):
        return
    try:
        bound = inspect.signature(target).bind(
            *(() if bound_self is None else (bound_self,)), *args, **kwargs
        )
    except TypeError:
        return  # the call itself raises TypeError, as eagerly
    changed = _changed_parameters(target.__code__, conversion)
    for name, value in bound.arguments.items():
        if name not in changed:
            continue
        if isinstance(value, lists.SymbolicList):
            raise errors.UnsupportedError(
                f"a list that grows in a loop or branch over tensors (a tensor list) is passed to "
                f"{target.__name__}(), which changes its parameter '{name}' in place: the "
                "change would not reach the caller's list",
                loc=origin.current_location(),
                construct="tensor list changed by a called function",
            )
        if type(value) is dict:
            containers.register(value)
        elif type(value) is list:
            containers.register_shared(value)


_changed: caching.LRU[types.CodeType, frozenset[str]] = caching.LRU(1024)


def _changed_parameters(code: types.CodeType, conversion: convert.Conversion) -> frozenset[str]:
    """The names a converted function changes in place as lists or dicts (cached per code)."""
    found = _changed.get(code)
    if found is None:
        found = frozenset(canonicalize.changed_in_place(nodes.walk(conversion.parsed.tree())))
        _changed.setdefault(code, found)
    return found


def _call_unconverted(
    fn: Any,
    target: types.FunctionType,
    reason: errors.UnsupportedError,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """Runs a user function that could not be converted; if tensors trip it up, says why. A
    choice passed to it is refused with the reason (``staging.choices``)."""
    if choices.holds((args, kwargs)):
        raise reason
    try:
        result = fn(*args, **kwargs)
    except errors.TracerError as exc:
        raise _not_convertible(target, reason, exc) from exc
    if inspect.isgenerator(result):
        return _explained_generator(result, target, reason)
    return result


def _explained_generator(
    gen: Any, target: types.FunctionType, reason: errors.UnsupportedError
) -> Any:
    try:
        return (yield from gen)
    except errors.TracerError as exc:
        raise _not_convertible(target, reason, exc) from exc


def _not_convertible(
    target: types.FunctionType, reason: errors.UnsupportedError, exc: errors.TracerError
) -> errors.UnsupportedError:
    return errors.UnsupportedError(
        f"{target.__qualname__} could not be converted ({reason.message}) and does not run on "
        f"tensors as it is: {exc.message}",
        loc=reason.loc,
        construct=reason.construct,
    )


def _unwrap(fn: Any) -> tuple[types.FunctionType | None, Any]:
    """The Python function behind ``fn`` and the object bound to it, if any."""
    if isinstance(fn, types.FunctionType):
        return fn, None
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        return fn.__func__, fn.__self__
    static = getattr(fn, "__tograph_python_function__", None)
    if static is not None:
        return static, getattr(fn, "__self__", None)
    if not isinstance(fn, type) and not inspect.isroutine(fn) and callable(fn):
        call = type(fn).__call__
        if isinstance(call, types.FunctionType):
            return call, fn
    return None, None


def _with_defaults(lowered: Callable[..., Any], original: types.FunctionType) -> Callable[..., Any]:
    lowered.__defaults__ = original.__defaults__
    lowered.__kwdefaults__ = original.__kwdefaults__
    return lowered
