"""Objects made in the function (``opt = Adam(0.1)``): plain Python objects, changed as the
trace runs, whose attributes tensor control flow carries.

Stage: staging. Calling a class while a graph is built makes a real object (its ``__init__``
runs as plain Python), recorded as made in the builder current then (``note_made``). Setting an
attribute of it where it was made just sets it. Setting one inside a tensor ``if`` or loop that
the object is older than goes through an ``AttributeCell``: the value still lives in the object
(later reads are plain attribute reads), but the write is noted in the branch's or body's
builder as an array written in place is, so ``staging.control_flow`` carries the attribute as
state of the op (each trace is undone once recorded, a loop loads the carried value into the
object before each trace) and sets the op's result on the object afterwards, so that the object
holds after the op what eager code leaves in it. An attribute that the op may leave unset, a
class whose ``__setattr__`` is its own, an attribute that is a descriptor of the class (a
property, a slot) and an object made by code the compiler did not see fall back. So does a
change that bypasses the cell (code that runs unconverted, such as a method named like an array
method: ``subtrace`` compares the objects' attributes before and after each trace), and the
builtins ``setattr`` and ``delattr`` on objects the function neither made nor was given.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

import functools
import inspect
import types as pytypes
from typing import Any

from tograph import errors, origin
from tograph.staging import carried, objects, optional
from tograph.trace import builder as builder_mod
from tograph.trace import tensor

_CONSTRUCT = "attribute of an object made in the function set in tensor control flow"
_GONE = object()


class AttributeCell:
    """Attribute ``name`` of ``obj``, an object made in the builder ``born``, as tensor control
    flow carries it (the interface of ``trace.functional.Storage``: ``current``, ``born``,
    ``set``, ``load``): its value is the object's own, ``missing`` while it has none."""

    __slots__ = ("obj", "name", "born", "missing")

    def __init__(self, obj: Any, name: str, born: builder_mod.GraphBuilder):
        self.obj = obj
        self.name = name
        self.born = born
        self.missing = carried.Undefined(self.label)

    @property
    def label(self) -> str:
        return f"{type(self.obj).__name__}.{self.name}"

    @property
    def current(self) -> Any:
        return self.obj.__dict__.get(self.name, self.missing)

    def set(self, value: Any, note: bool = True) -> None:
        """Gives the object ``value`` (``missing``: none); one that exists on some paths only
        (an op's result) falls back: eager's object has it on those paths only."""
        if isinstance(value, optional.MaybeUnset):
            raise errors.UnsupportedError(
                f"attribute '{self.name}' of an object of class {type(self.obj).__name__} made "
                "in the function is set inside an if or loop over tensors on some paths only: "
                "whether the object has it is known only when the graph runs",
                loc=origin.current_location(),
                hint=f"give '{self.name}' a value before the if or loop (in __init__)",
                construct=_CONSTRUCT,
            )
        previous = self.current
        if isinstance(value, carried.Undefined):
            self.obj.__dict__.pop(self.name, None)
        else:
            self.obj.__dict__[self.name] = value
        if note:
            objects.note_write(self, previous)

    def load(self, value: Any) -> None:
        self.set(value)


def note_made(obj: Any) -> None:
    """Records ``obj``, just made by calling its class, as made where the code now runs (the
    function's body, or a branch or loop body over tensors)."""
    builder = builder_mod.current()
    if builder is not None and tensor.is_user_object(obj) and type(obj) is not objects.TracedObject:
        builder.made_objects[id(obj)] = obj


def set_attribute(value: Any, owner: Any, name: str) -> None:
    """``owner.name = value`` in converted code. The call's arguments' objects are
    ``TracedObject`` views, whose attributes the control flow carries; an object made in the
    function is set directly, through its ``AttributeCell`` inside a tensor ``if`` or loop that
    it is older than (see module docstring)."""
    builder = builder_mod.current()
    if builder is not None:
        _refuse_shared(owner, name)
    if (
        builder is None
        or builder.parent is None
        or type(owner) is objects.TracedObject
        or not tensor.is_user_object(owner)
    ):
        setattr(owner, name, value)
        return
    born = _maker(owner, builder)
    if born is builder:
        setattr(owner, name, value)
        return
    _check_plain(owner, name, born)
    cell(owner, name, born).set(value)


_SHARED = (type, pytypes.ModuleType, pytypes.FunctionType, pytypes.MethodType, functools.partial)


def _refuse_shared(owner: Any, name: Any) -> None:
    """Refuses setting an attribute of a class, module or function (``self.__class__.count +=
    1``): state every call shares, which would change once, while the graph is built."""
    if isinstance(owner, _SHARED):
        raise errors.UnsupportedError(
            f"assignment to attribute {name!r} of the {type(owner).__name__} "
            f"{getattr(owner, '__qualname__', getattr(owner, '__name__', ''))!s}, state every call "
            "shares: it would change once, while the graph is built",
            loc=origin.current_location(),
            construct="write to state outside the function",
        )


def setattr_call(owner: Any, name: Any, value: Any) -> None:
    """The builtin ``setattr(owner, name, value)`` called by converted code: as ``owner.name =
    value`` for an object the function was given or made (``set_attribute``); refused for any
    other user object (a global, a closure's, one made by code the compiler did not see), whose
    change would happen once, while the graph is built, instead of on every call."""
    builder = builder_mod.current()
    if builder is not None:
        _refuse_shared(owner, name)
    if (
        builder is None
        or type(name) is not str
        or type(owner) is objects.TracedObject
        or not tensor.is_user_object(owner)  # a tensor's own setattr refuses what it must
    ):
        setattr(owner, name, value)
    elif _maker(owner, builder) is not None:
        set_attribute(value, owner, name)
    else:
        raise errors.UnsupportedError(
            f"setattr() of attribute '{name}' of a {type(owner).__name__} that the function "
            "neither made nor was given (a global, a closure variable, or an object made by "
            "code tograph did not convert): the change would happen once, while the graph is "
            "built",
            loc=origin.current_location(),
            construct="write to state outside the function",
        )


def delattr_call(owner: Any, name: Any) -> None:
    """The builtin ``delattr(owner, name)`` called by converted code: done on an object made
    where the code now runs; refused inside a tensor ``if`` or loop the object is older than
    (no op carries a deletion) and on objects the function did not make."""
    builder = builder_mod.current()
    if builder is not None:
        _refuse_shared(owner, name)
    if (
        builder is None
        or type(name) is not str
        or type(owner) is objects.TracedObject
        or not tensor.is_user_object(owner)
    ):
        delattr(owner, name)
    elif _maker(owner, builder) is builder:
        delattr(owner, name)
    else:
        raise errors.UnsupportedError(
            f"delattr() of attribute '{name}' of a {type(owner).__name__} that the function did "
            "not make, or made before the if or loop over tensors that deletes it",
            loc=origin.current_location(),
            construct="del of an attribute",
        )


def attributes_before(builder: builder_mod.GraphBuilder) -> list[tuple[Any, dict[str, Any]]]:
    """The objects made in ``builder`` and the builders around it, each with its attributes
    now: what a branch or loop body traced next must leave them as (``refuse_hidden_changes``)."""
    found = []
    current: builder_mod.GraphBuilder | None = builder
    while current is not None:
        for obj in current.made_objects.values():
            attributes = getattr(obj, "__dict__", None)
            if type(attributes) is dict:
                found.append((obj, dict(attributes)))
        current = current.parent
    return found


def refuse_hidden_changes(before: list[tuple[Any, dict[str, Any]]]) -> None:
    """Refuses an attribute of an object made before a branch or loop body that the trace,
    once undone, left changed: code that tograph did not convert (a method named like an array
    method, ``x.mean()``, which runs as it is; a C function) set it directly, not through its
    ``AttributeCell``, so the change happened once, while the graph was built."""
    for obj, attributes in before:
        now = obj.__dict__
        for name in [*attributes, *now]:
            if attributes.get(name, _GONE) is not now.get(name, _GONE):
                raise errors.UnsupportedError(
                    f"attribute '{name}' of an object of class {type(obj).__name__} made in the "
                    "function is changed inside an if or loop over tensors by code that tograph "
                    "did not convert (a method named like an array method, such as mean or var, "
                    "runs as it is): the change would happen once, while the graph is built",
                    loc=origin.current_location(),
                    construct=_CONSTRUCT,
                )


def cell(obj: Any, name: str, born: builder_mod.GraphBuilder) -> AttributeCell:
    """The one cell of attribute ``name`` of ``obj`` for the graph being built."""
    root = born
    while root.parent is not None:
        root = root.parent
    key = (id(obj), name)
    found = root.attribute_cells.get(key)
    if found is None or found.obj is not obj:
        found = root.attribute_cells[key] = AttributeCell(obj, name, born)
    return found


def _maker(obj: Any, builder: builder_mod.GraphBuilder) -> builder_mod.GraphBuilder | None:
    """The builder ``obj`` was made in: ``builder`` or one around it; None if none made it."""
    found: builder_mod.GraphBuilder | None = builder
    while found is not None:
        if found.made_objects.get(id(obj)) is obj:
            return found
        found = found.parent
    return None


def _check_plain(obj: Any, name: str, born: builder_mod.GraphBuilder | None) -> None:
    """Refuses a write that an ``AttributeCell`` cannot carry exactly."""
    cls = type(obj)
    reason = None
    if born is None:
        reason = "an object the function did not make by calling its class here"
    elif cls.__setattr__ is not object.__setattr__:
        reason = f"class {cls.__name__} defines __setattr__"
    elif not isinstance(getattr(obj, "__dict__", None), dict):
        reason = f"an object of class {cls.__name__} has no __dict__ (it has __slots__)"
    elif hasattr(inspect.getattr_static(cls, name, None), "__set__"):
        reason = f"'{name}' is a descriptor of class {cls.__name__} (a property or a slot)"
    if reason is not None:
        raise errors.UnsupportedError(
            f"assignment to attribute '{name}' of an object of class {cls.__name__} inside an "
            f"if or loop over tensors that the object is older than, which tograph cannot carry "
            f"through the if or loop: {reason}",
            loc=origin.current_location(),
            construct=_CONSTRUCT,
        )
