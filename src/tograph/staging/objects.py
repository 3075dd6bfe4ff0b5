"""Objects the function reads and writes through attributes (``self.m``, ``opt.t += 1``).

Stage: staging. While a graph is built, each user object reached from the call's arguments
(``trace.tensor.is_user_object``) stands behind a ``TracedObject``. Reading an attribute gives
the value the trace knows for it; the first read takes the real object's value: an array or
NumPy scalar becomes a graph input, a Python value stays static, a list or dict becomes a copy
(whose changes are written back, as an argument list's are), an object becomes another
``TracedObject``. Writing an attribute changes only that view, a ``Cell`` that branches and
loops carry as they carry arrays written in place. The real objects are never changed while
tracing, so an abandoned trace leaves nothing behind.

What the trace read becomes the call's guards (``Read``): at each call the same attributes are
looked up again, arrays and numbers are passed as graph inputs and static values must be as they
were (else another graph is traced). What it wrote becomes the call's epilogue (``Write``):
after the graph runs the attributes are set on the real objects. A Python number that the
function changes (a step counter) is read as a tensor instead, so that one graph serves every
value: the trace ends with ``Relift`` and runs again with that attribute ``lifted``.
"""

from __future__ import annotations

import dataclasses
import inspect
import types as pytypes
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import pytree, types
from tograph.ops import lists
from tograph.staging import carried
from tograph.trace import builder as builder_mod
from tograph.trace import containers, signature, tensor


@dataclasses.dataclass(frozen=True)
class Attr:
    """An attribute step (``.name``) of a path from the call's arguments, among item steps."""

    name: str


Path = tuple[Any, ...]


def resolve(root: Any, path: Path) -> Any:
    """The object at ``path`` from ``root``, the call's ``(args, kwargs, bound)``."""
    for key in path:
        root = getattr(root, key.name) if type(key) is Attr else root[key]
    return root


_MISSING = object()


# ---- what a read saw: the leaves of an attribute's value, checked at each call ---------------


_INT64_MIN, _INT64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)
# values of these exact types are leaves of every tree (``pytree.is_node`` need not be asked)
_NEVER_NODES = frozenset({np.ndarray, float, int, bool, str, type(None)})
# the types ``types.type_of`` gives every Python float and every int that fits in 64 bits
_WEAK_TYPES = {float: types.type_of(0.0), int: types.type_of(0)}


@dataclasses.dataclass(frozen=True)
class InputLeaf:
    """An array or number: a graph input of this type (a weak type for a Python number)."""

    type: types.TensorType
    layout: str | None
    array0d: bool

    def accepts(self, value: Any) -> bool:
        kind = type(value)
        if kind is np.ndarray:  # every call's case, told without making its type
            t = value.dtype
            return (
                t.kind in "biufc"
                and t == self.type.dtype
                and value.shape == self.type.shape
                and not self.type.weak
                and self.array0d == (value.ndim == 0)
                and self.layout == signature.layout_of(value)
            )
        if kind is float or kind is int:
            if kind is int and not _INT64_MIN <= value <= _INT64_MAX:
                return False  # no graph input holds it: the trace it asks for runs eagerly
            return (self.type, self.layout, self.array0d) == (_WEAK_TYPES[kind], "C", False)
        if not tensor.is_number(value):
            return False
        if isinstance(value, np.ndarray) and type(value) is not np.ndarray:
            return False
        layout = signature.layout_of(value)
        array0d = isinstance(value, np.ndarray) and value.ndim == 0
        return (types.type_of(value), layout, array0d) == (self.type, self.layout, self.array0d)


@dataclasses.dataclass(frozen=True)
class StaticLeaf:
    """A static value, baked into the graph: the same value is required at each call (the
    value is kept, so that an identity key stays its own)."""

    key: Any
    value: Any = dataclasses.field(compare=False)

    def accepts(self, value: Any) -> bool:
        return bool(signature.static_key(value) == self.key)


@dataclasses.dataclass(frozen=True, eq=False)
class ObjectLeaf:
    """An object, traced through its attributes: the very same object is required."""

    obj: Any

    def accepts(self, value: Any) -> bool:
        return value is self.obj


@dataclasses.dataclass(frozen=True)
class Read:
    """A guard: attribute ``name`` of the object at ``owner`` held a value of structure ``tree``
    (None: no such attribute) whose leaves were as ``leaves`` say."""

    owner: Path
    name: str
    tree: pytree.TreeDef | None
    leaves: tuple[Any, ...]

    def inputs(self, root: Any) -> list[Any] | None:
        """The graph inputs this read gives for a call, or None if the object has changed."""
        value = getattr(resolve(root, self.owner), self.name, _MISSING)
        if self.tree is None or value is _MISSING:
            return [] if self.tree is None and value is _MISSING else None
        if self.tree.kind is None:  # a single value: the common case, without flattening
            if not self.leaves[0].accepts(value) or (
                type(value) not in _NEVER_NODES and pytree.is_node(value)
            ):
                return None
            return [value] if type(self.leaves[0]) is InputLeaf else []
        leaves, tree = pytree.flatten(value)
        if tree != self.tree:
            return None
        found = []
        for leaf, spec in zip(leaves, self.leaves):
            if not spec.accepts(leaf):
                return None
            if isinstance(spec, InputLeaf):
                found.append(leaf)
        return found


@dataclasses.dataclass(frozen=True)
class DistinctLists:
    """A guard: the list at ``grown`` (an attribute's list the graph grows as a tensor list,
    ``staging.attribute_lists``) is none of the lists and dicts at ``others`` (the others the
    trace read through the call's objects): the graph holds a copy of each, so one list
    reached two ways would part."""

    grown: Path
    others: tuple[Path, ...]

    def inputs(self, root: Any) -> list[Any] | None:
        """No graph input: ``[]`` when the list is apart from the others, else None."""
        mine = resolve(root, self.grown)
        return None if any(resolve(root, p) is mine for p in self.others) else []


@dataclasses.dataclass(frozen=True)
class Write:
    """An epilogue step: attribute ``name`` of the object at ``owner`` is set to the value of
    structure ``tree`` whose leaves are the result slots ``slots`` (``build_graph``)."""

    owner: Path
    name: str
    tree: pytree.TreeDef
    slots: tuple[Any, ...]


class Relift(Exception):
    """The trace changed Python numbers held by attributes: trace again reading them as
    tensors (``lifted``)."""

    def __init__(self, attributes: list[tuple[Path, str]]):
        super().__init__(attributes)
        self.attributes = attributes


# ---- the traced view of objects ------------------------------------------------------------


class Cell:
    """The value one attribute of one object has in the trace; branches and loops carry it (the
    interface of ``trace.functional.Storage``: ``current``, ``born``, ``set``, ``load``)."""

    __slots__ = ("owner", "name", "current", "original", "born")

    def __init__(self, owner: TracedObject, name: str, value: Any, born: Any):
        self.owner = owner
        self.name = name
        self.current = value
        self.original = value
        self.born = born

    @property
    def label(self) -> str:
        return f"{self.owner._tg_label}.{self.name}"

    def set(self, value: Any, note: bool = True) -> None:
        previous, self.current = self.current, value
        _follow_list(self, previous, value)
        if note:
            note_write(self, previous)

    def load(self, value: Any) -> None:
        self.set(value)


def _follow_list(cell: Cell, previous: Any, value: Any) -> None:
    """Makes ``value``, a tensor list an ``if`` or loop hands back for an attribute whose list
    it carried (``staging.attribute_lists``), stand for the caller's list as ``previous`` did,
    and records it as that list's latest version."""
    if (
        isinstance(value, lists.SymbolicList)
        and value.stands_for is None
        and isinstance(previous, lists.SymbolicList)
        and previous.stands_for is cell.original
    ):
        value.stands_for = cell.original
        containers.note_version(value)


def note_write(cell: Any, previous: Any) -> None:
    """Notes in the builder now current that ``cell`` held ``previous`` before a write (a branch
    or loop body traced there carries it: ``staging.subtrace``)."""
    builder = builder_mod.current()
    if builder is not None:
        builder.note_write(cell, previous)


class TracedObject:
    """Stands for a user object while a graph is built: attribute reads and writes go to the
    trace's view of it (``ObjectState``), methods run converted with it as ``self``."""

    __slots__ = ("_tg_state", "_tg_obj", "_tg_path", "_tg_label", "_tg_cells")

    def __init__(self, state: ObjectState, obj: Any, path: Path, label: str):
        object.__setattr__(self, "_tg_state", state)
        object.__setattr__(self, "_tg_obj", obj)
        object.__setattr__(self, "_tg_path", path)
        object.__setattr__(self, "_tg_label", label)
        object.__setattr__(self, "_tg_cells", {})

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # noqa: D105 - isinstance(self, UserClass) holds
        return type(self._tg_obj)

    def __getattr__(self, name: str) -> Any:
        return self._tg_state.read(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        self._tg_state.write(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise errors.UnsupportedError(
            f"del of attribute '{name}' of {self._tg_label}",
            loc=origin.current_location(),
            construct="del of an attribute",
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._tg_state.call_method(self, "__call__", args, kwargs)

    def __len__(self) -> int:
        result: int = self._tg_state.call_method(self, "__len__", (), {})
        return result

    def __getitem__(self, key: Any) -> Any:
        return self._tg_state.call_method(self, "__getitem__", (key,), {})

    def __setitem__(self, key: Any, value: Any) -> None:
        self._tg_state.call_method(self, "__setitem__", (key, value), {})

    def __iter__(self) -> Iterator[Any]:
        result: Iterator[Any] = self._tg_state.call_method(self, "__iter__", (), {})
        return result

    def __repr__(self) -> str:
        return f"<traced {self._tg_label}: {type(self._tg_obj).__name__}>"


class ObjectState:
    """The traced view of the objects reached from one call's arguments; see module docstring.

    Args:
      builder: the root builder of the graph being built.
      lifted: (owner path, name) of the attributes holding Python numbers to read as tensors.
      call: how converted code calls a function (``staging.runtime.call``), for methods.
    """

    def __init__(
        self,
        builder: builder_mod.GraphBuilder,
        lifted: frozenset[tuple[Path, str]],
        call: Callable[..., Any],
    ):
        self.builder = builder
        self.lifted = lifted
        self.call = call
        self.proxies: dict[int, TracedObject] = {}
        self.reads: list[Read | DistinctLists] = []
        self.inputs: list[Any] = []  # the graph inputs the reads made, in order
        self.cells: list[Cell] = []
        # lists and dicts read from attributes: (the copy, its path, its contents before)
        self.copies: list[tuple[Any, Path, Any]] = []

    def traced(self, value: Any, path: Path, label: str) -> Any:
        """``value`` (from the arguments) with its user objects replaced by their views."""
        if tensor.is_user_object(value):
            return self._proxy(value, path, label)
        if type(value) in (list, tuple, dict) or pytree.is_node(value):
            items = value.items() if type(value) is dict else enumerate(value)
            new = {k: self.traced(v, (*path, k), f"{label}[{k!r}]") for k, v in items}
            if type(value) is dict:
                value.update(new)
            elif type(value) is list:
                value[:] = list(new.values())
            else:
                value = pytree.rebuild(value, list(new.values()))
        return value

    def real(self, value: Any) -> Any:
        """The object a view stands for (``value`` itself if it is none)."""
        return value._tg_obj if type(value) is TracedObject else value

    def _proxy(self, obj: Any, path: Path, label: str) -> TracedObject:
        found = self.proxies.get(id(obj))
        if found is None:
            found = self.proxies[id(obj)] = TracedObject(self, obj, path, label)
        return found

    # ---- reads and writes --------------------------------------------------------------------
    def read(self, proxy: TracedObject, name: str) -> Any:
        cell = proxy._tg_cells.get(name)
        if cell is not None:
            value = cell.current
            if isinstance(value, carried.Undefined):
                raise AttributeError(
                    f"'{type(proxy._tg_obj).__name__}' object has no attribute '{name}'"
                )
            return value
        obj = proxy._tg_obj
        special = self._class_attribute(proxy, name)
        if special is not _MISSING:
            return special
        if tensor.computes_attributes(type(obj)) and name not in getattr(obj, "__dict__", {}):
            raise errors.UnsupportedError(
                f"attribute '{name}' of {proxy._tg_label}, whose class "
                f"{type(obj).__name__} computes attributes (__getattr__ or __getattribute__)",
                loc=origin.current_location(),
                construct="attribute computed by __getattr__",
            )
        try:
            raw = getattr(obj, name)
        except AttributeError:
            self.reads.append(Read(proxy._tg_path, name, None, ()))
            raise
        value = self._take(raw, (*proxy._tg_path, Attr(name)), f"{proxy._tg_label}.{name}")
        cell = Cell(proxy, name, value, self.builder)
        proxy._tg_cells[name] = cell
        self.cells.append(cell)
        if type(value) is list:
            self.builder.attribute_lists[id(value)] = cell
        return value

    def _class_attribute(self, proxy: TracedObject, name: str) -> Any:
        """A method of the object's class bound to the view, a property's value computed on the
        view; ``_MISSING`` for an attribute that is a stored value."""
        try:
            found = inspect.getattr_static(proxy._tg_obj, name)
        except AttributeError:
            return _MISSING
        if name in getattr(proxy._tg_obj, "__dict__", {}):
            return _MISSING
        if isinstance(found, pytypes.FunctionType):
            return pytypes.MethodType(found, proxy)
        if isinstance(found, staticmethod):
            return found.__func__
        if isinstance(found, classmethod):
            return pytypes.MethodType(found.__func__, type(proxy._tg_obj))
        if isinstance(found, property):
            if found.fget is None:
                raise AttributeError(f"property '{name}' has no getter")
            return self.call(found.fget, proxy)
        if hasattr(type(found), "__get__") and not _is_slot(found):
            raise errors.UnsupportedError(
                f"attribute '{name}' of {proxy._tg_label} is computed by a descriptor "
                f"({type(found).__name__})",
                loc=origin.current_location(),
                construct="descriptor attribute",
            )
        return _MISSING

    def write(self, proxy: TracedObject, name: str, value: Any) -> None:
        if isinstance(inspect.getattr_static(proxy._tg_obj, name, None), property):
            raise errors.UnsupportedError(
                f"assignment to property '{name}' of {proxy._tg_label}",
                loc=origin.current_location(),
                construct="property setter",
            )
        cell = proxy._tg_cells.get(name)
        if cell is not None and is_grown_list(cell):
            raise errors.UnsupportedError(
                f"assignment to attribute '{name}' of {proxy._tg_label}, whose list grew inside "
                "an if or loop over tensors: the caller's list is given what the graph holds for "
                "it, which another value bound to the attribute would part from",
                loc=origin.current_location(),
                construct="attribute list rebound after it grew in tensor control flow",
            )
        if cell is None:
            obj = proxy._tg_obj
            if hasattr(obj, name) and name in getattr(obj, "__dict__", {name: None}):
                self.read(proxy, name)
                cell = proxy._tg_cells[name]
            else:
                missing = carried.Undefined(f"{proxy._tg_label}.{name}")
                cell = Cell(proxy, name, missing, self.builder)
                proxy._tg_cells[name] = cell
                self.cells.append(cell)
        cell.set(value)

    def call_method(
        self, proxy: TracedObject, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        method = inspect.getattr_static(type(proxy._tg_obj), name, None)
        if not isinstance(method, pytypes.FunctionType):
            raise TypeError(f"'{type(proxy._tg_obj).__name__}' object has no {name}")
        return self.call(pytypes.MethodType(method, proxy), *args, **kwargs)

    def _take(self, raw: Any, path: Path, label: str) -> Any:
        """The traced value of an attribute's real value ``raw`` (see module docstring); notes
        the read."""
        leaves, tree = pytree.flatten(raw)
        specs: list[Any] = []
        taken: list[Any] = []
        lifted = (path[:-1], path[-1].name) in self.lifted
        for leaf, keys, shown in zip(leaves, tree.key_paths(), tree.paths(label)):
            if tensor.is_user_object(leaf):
                specs.append(ObjectLeaf(leaf))
                taken.append(self._proxy(leaf, path + keys, shown))
            elif tensor.is_array_value(leaf) or (lifted and types.is_python_scalar(leaf)):
                spec = _input_spec(leaf)
                specs.append(spec)
                made = self.builder.add_input(spec.type, label.rsplit(".", 1)[-1])
                if isinstance(made, tensor.SymbolicTensor):
                    made.layout, made.array0d = spec.layout, spec.array0d
                self.inputs.append(made)
                taken.append(made)
            else:
                specs.append(StaticLeaf(signature.static_key(leaf), leaf))
                taken.append(leaf)
        self.reads.append(Read(path[:-1], path[-1].name, tree, tuple(specs)))
        value = tree.unflatten(taken)
        for item_path, node in pytree.nodes(value):
            if type(node) in (list, dict):
                containers.register(node)
                self.copies.append((node, path + item_path, contents(node)))
        return value

    # ---- after the trace -----------------------------------------------------------------------
    def changed(self) -> Iterator[Cell]:
        """The cells whose final value is not the one the trace started from (a list that grew
        as a tensor list is still the one the attribute holds: its contents are written back,
        ``containers.grown_lists``)."""
        for cell in self.cells:
            if is_grown_list(cell):
                continue
            if cell.current is not cell.original and not (
                isinstance(cell.current, carried.Undefined)
                and isinstance(cell.original, carried.Undefined)
            ):
                yield cell

    def guard_grown_lists(self) -> None:
        """Refuses a list grown as a tensor list (``staging.attribute_lists``) that another
        list or dict read through the call's objects is too (``a.hist is b.hist``): each was
        read as a copy of its own, so the change would not show through the other; and guards
        each later call of the graph against it (``DistinctLists``)."""
        owners = {proxy._tg_path: proxy._tg_obj for proxy in self.proxies.values()}
        paths = list(dict.fromkeys(path for _, path, _ in self.copies))
        for cell in self.cells:
            if not is_grown_list(cell):
                continue
            mine = (*cell.owner._tg_path, Attr(cell.name))
            others = tuple(p for p in paths if p != mine)
            real = _resolve_from(owners, mine)
            if any(_resolve_from(owners, p) is real for p in others):
                raise errors.UnsupportedError(
                    f"{cell.label} grows inside an if or loop over tensors and is a list the "
                    "function reads through another attribute too: the change would not show "
                    "through the other",
                    loc=origin.current_location(),
                    construct="attribute list known by two names",
                )
            self.reads.append(DistinctLists(mine, others))

    def to_lift(self) -> list[tuple[Path, str]]:
        """Attributes read as static Python numbers that the trace changed."""
        found = []
        for cell in self.changed():
            if types.is_python_scalar(cell.original) and not (
                types.is_python_scalar(cell.current)
                and signature.static_key(cell.current) == signature.static_key(cell.original)
            ):
                found.append((cell.owner._tg_path, cell.name))
        return found


# ---- helpers ------------------------------------------------------------------------------


def _resolve_from(owners: dict[Path, Any], path: Path) -> Any:
    """The object at ``path`` (one read through an attribute), found from the nearest object
    in ``owners`` (real objects by the path of their view) it is read through."""
    for cut in range(len(path) - 1, -1, -1):
        if type(path[cut]) is Attr and path[:cut] in owners:
            return resolve(owners[path[:cut]], path[cut:])
    return None


def is_grown_list(cell: Cell) -> bool:
    """Whether ``cell`` holds a tensor list standing for the list the attribute held on entry
    (``staging.attribute_lists``)."""
    value = cell.current
    return isinstance(value, lists.SymbolicList) and value.stands_for is cell.original


def contents(container: Any) -> Any:
    """A shallow copy of a list's or dict's contents, to tell later whether it changed."""
    return dict(container) if type(container) is dict else list(container)


def _input_spec(value: Any) -> InputLeaf:
    layout = signature.layout_of(value)
    array0d = isinstance(value, np.ndarray) and value.ndim == 0
    return InputLeaf(types.type_of(value), layout, array0d)


def _is_slot(found: Any) -> bool:
    return type(found).__name__ == "member_descriptor"
