"""Call signatures: which arguments are graph inputs (tensors), which are static; the cache key.

NumPy arrays and scalars are tensors, typed by their dtype and shape, or by an ``input_spec``
whose ``None`` dims make one graph serve every size. So are ``dask.array`` arrays, typed without
being computed: the graph is the same, and ``backend.dask_exec`` runs it on them. Python numbers,
strings, ``None`` and other objects are static: baked into the graph and part of the cache key
(objects by identity).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import types as pytypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import pytree, types
from tograph.trace import tensor


def layout_of(value: Any) -> str | None:
    """``"C"`` when ``value``'s memory is C-contiguous (a number's always is), else None: a strided
    1-d view is not, and NumPy copies it where it would return a view of a contiguous one."""
    flags = getattr(value, "flags", None)
    return "C" if flags is None or flags.c_contiguous else None


@dataclasses.dataclass(frozen=True)
class Static:
    """A static leaf of the arguments or results, passed through as it is."""

    value: Any


@dataclasses.dataclass(frozen=True)
class TensorSpec:
    """The type of a tensor argument: ``TensorSpec((None, 3), np.float32)``; None dims are dynamic.

    Args:
      shape: dims as ints or None (dynamic).
      dtype: NumPy dtype (anything ``np.dtype`` accepts); None takes the argument's dtype.
    """

    shape: tuple[int | None, ...]
    dtype: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(self.shape))
        if self.dtype is not None:
            object.__setattr__(self, "dtype", np.dtype(self.dtype))

    def type_for(self, value: Any, name: str) -> types.TensorType:
        """The graph input type for ``value``; raises a clear error if the value does not fit.

        A Python number given for a 0-d spec of its own dtype (or none) is a weak input: it
        keeps Python's meaning. For another shape or dtype it does not fit, as an array of
        another dtype does not.
        """
        actual = types.type_of(value)
        if actual.weak:
            if self.shape != () or (self.dtype is not None and self.dtype != actual.dtype):
                raise errors.ToGraphError(
                    f"argument '{name}' is a Python {type(value).__name__} but its input_spec is "
                    f"{types.TensorType(self.dtype or actual.dtype, self.shape)}",
                    hint="pass an array of that dtype and shape, or a Python "
                    f"{type(value).__name__} for a 0-d spec of dtype {actual.dtype} or None",
                )
            return actual
        dtype = self.dtype if self.dtype is not None else actual.dtype
        fits = (
            actual.dtype == dtype
            and actual.ndim == len(self.shape)
            and all(s is None or s == a for s, a in zip(self.shape, actual.shape))
        )
        if not fits:
            raise errors.ToGraphError(
                f"argument '{name}' is {actual.strong()} but its input_spec is "
                f"{types.TensorType(dtype, self.shape)}"
            )
        return types.TensorType(dtype, self.shape)


def static_key(value: Any) -> Any:
    """What identifies a static value in a cache key: numbers by type and bits, hashable
    values by equality, others by identity."""
    if isinstance(value, float):
        return (float, value.hex())
    if isinstance(value, complex):
        return (complex, value.real.hex(), value.imag.hex())
    if value is None or isinstance(value, (bool, int, complex, str, bytes)):
        return (type(value), value)
    try:
        hash(value)
    except TypeError:
        return ("id", id(value))
    if isinstance(value, (type, np.dtype)) or callable(value):
        return ("obj", value)
    return ("id", id(value))


@dataclasses.dataclass(frozen=True)
class Signature:
    """The argument layout of one call; see module docstring."""

    key: Any
    tree: pytree.TreeDef
    slots: tuple[Any, ...]  # per leaf: index of a tensor input, or Static
    input_types: tuple[types.TensorType, ...]
    input_names: tuple[str, ...]
    # per tensor input: "C" when the array is C-contiguous (a reshape of it is then a view)
    input_layouts: tuple[str | None, ...] = ()
    # per tensor input: whether it is a 0-d array (mutable) rather than a NumPy scalar
    input_array0d: tuple[bool, ...] = ()
    # per tensor input: the earlier input that is the very same array object, if any (a write
    # to one is a write to the other)
    input_twins: tuple[int | None, ...] = ()
    # why the call cannot be traced (e.g. an ndarray subclass), or None
    refuse: str | None = None

    def with_input_kinds(
        self,
        layouts: Sequence[str | None],
        array0d: Sequence[bool],
        twins: Sequence[int | None],
    ) -> Signature:
        """This signature for arguments of these kinds (layout, 0-d array or scalar, twin of
        an earlier argument): the one a call with such arrays makes."""
        tree, entries = self.key
        key = list(entries)
        for leaf, slot in enumerate(self.slots):
            if isinstance(slot, int):
                key[leaf] = (self.input_types[slot], layouts[slot], array0d[slot], twins[slot])
        return dataclasses.replace(
            self,
            key=(tree, tuple(key)),
            input_layouts=tuple(layouts),
            input_array0d=tuple(array0d),
            input_twins=tuple(twins),
        )

    def rebuild(self, tensors: Sequence[Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The call's ``(args, kwargs)`` with tensor leaves replaced by ``tensors``."""
        leaves = [tensors[s] if isinstance(s, int) else s.value for s in self.slots]
        args, kwargs = self.tree.unflatten(leaves)
        return tuple(args), kwargs


def bind(
    fn_sig: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any], list[str]]:
    """Arguments normalised to (positional, keyword-only) with defaults, plus positional names."""
    bound = fn_sig.bind(*args, **kwargs)
    bound.apply_defaults()
    names = []
    for param in fn_sig.parameters.values():
        if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            names.append(param.name)
        elif param.kind == param.VAR_POSITIONAL:
            names.extend(
                f"{param.name}_{i}" for i in range(len(bound.arguments.get(param.name, ())))
            )
    return tuple(bound.args), dict(bound.kwargs), names


def binding_error(fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> TypeError | None:
    """The ``TypeError`` Python raises when ``fn`` is called with these arguments, in its own
    words (``f() missing 1 required positional argument: 'x'``; a bound method counts its
    ``self``), if it raises one: a stub of ``fn``'s signature and name is called, not ``fn``."""
    target = fn.__func__ if inspect.ismethod(fn) else fn
    if inspect.ismethod(fn):
        args = (fn.__self__, *args)
    try:
        fn_sig = inspect.signature(target, follow_wrapped=False)
    except (TypeError, ValueError):
        return None
    params = tuple((p.name, p.kind, p.default is not p.empty) for p in fn_sig.parameters.values())
    shared = _stub(params)
    stub = pytypes.FunctionType(shared.__code__, {}, "stub", shared.__defaults__)
    stub.__kwdefaults__ = shared.__kwdefaults__
    stub.__qualname__ = getattr(target, "__qualname__", "stub")
    try:
        stub(*args, **kwargs)
    except TypeError as error:
        return error
    return None


@functools.lru_cache(maxsize=256)
def _stub(params: tuple[tuple[str, Any, bool], ...]) -> Any:
    """A function that takes ``params`` (name, kind, whether it has a default) and does nothing."""
    text: list[str] = []
    for n, (name, kind, has_default) in enumerate(params):
        if (
            kind == inspect.Parameter.KEYWORD_ONLY
            and not any(k == inspect.Parameter.VAR_POSITIONAL for _, k, _ in params[:n])
            and "*" not in text
        ):
            text.append("*")
        if kind == inspect.Parameter.VAR_POSITIONAL:
            text.append(f"*{name}")
        elif kind == inspect.Parameter.VAR_KEYWORD:
            text.append(f"**{name}")
        else:
            text.append(f"{name}=None" if has_default else name)
        if kind == inspect.Parameter.POSITIONAL_ONLY and (
            n + 1 == len(params) or params[n + 1][1] != inspect.Parameter.POSITIONAL_ONLY
        ):
            text.append("/")
    namespace: dict[str, Any] = {}
    exec(f"def stub({', '.join(text)}):\n    pass", namespace)  # noqa: S102 (names only)
    return namespace["stub"]


def _repeats_a_container(values: Any) -> bool:
    """Whether one list or dict object occurs twice in ``values`` (an argument passed twice,
    or inside another argument, or a container holding itself), looking into the attributes of
    the user objects among them too (``o.hist is l``, or two objects holding one list)."""
    seen: set[int] = set()
    objects: set[int] = set()
    pending = [values]
    while pending:
        node = pending.pop()
        if type(node) in (list, dict):
            if id(node) in seen:
                return True
            seen.add(id(node))
        if isinstance(node, dict):
            pending.extend(node.values())
        elif isinstance(node, (list, tuple)):
            pending.extend(node)
        elif tensor.is_user_object(node) and id(node) not in objects:
            objects.add(id(node))  # an object reached twice holds its lists once
            pending.extend(getattr(node, "__dict__", {}).values())
    return False


def make_signature(
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    names: list[str],
    input_spec: Sequence[Any] | None,
) -> tuple[Signature, list[Any]]:
    """The signature of a call and its tensor leaves (the graph's input values), in order."""
    leaves, tree = pytree.flatten((list(args), kwargs))
    leaf_names = _leaf_names(args, kwargs, names)
    spec_of = _spec_per_leaf(args, kwargs, input_spec)
    slots: list[Any] = []
    key: list[Any] = []
    in_types: list[types.TensorType] = []
    in_names: list[str] = []
    layouts: list[str | None] = []
    array0d: list[bool] = []
    twins: list[int | None] = []
    tensors: list[Any] = []
    seen: dict[int, int] = {}  # id of an array leaf -> its first input
    refuse = None
    for i, leaf in enumerate(leaves):
        spec = spec_of.get(i)
        if tensor.is_array_value(leaf) and type(leaf) is not np.ndarray and not _scalar(leaf):
            refuse = f"argument '{leaf_names[i]}' is a {type(leaf).__name__}, a subclass of ndarray"
        chunked = _dask_tensor(leaf, leaf_names[i])
        if (
            chunked
            or tensor.is_array_value(leaf)
            or (spec is not None and types.is_python_scalar(leaf))
        ):
            t = spec.type_for(leaf, leaf_names[i]) if spec is not None else types.type_of(leaf)
            # a dask array is never written in place: its layout is that of the arrays it makes
            layout = "C" if chunked else layout_of(leaf)
            is_array0d = isinstance(leaf, np.ndarray) and leaf.ndim == 0
            twin = seen.get(id(leaf)) if isinstance(leaf, np.ndarray) else None
            seen.setdefault(id(leaf), len(tensors))
            twins.append(twin)
            slots.append(len(tensors))
            key.append((t, layout, is_array0d, twin))
            in_types.append(t)
            in_names.append(leaf_names[i])
            layouts.append(layout)
            array0d.append(is_array0d)
            tensors.append(leaf)
        else:
            slots.append(Static(leaf))
            key.append(static_key(leaf))
    if _repeats_a_container((args, kwargs)):
        refuse = (
            "one list or dict is passed more than once (or holds itself, or is held by an "
            "argument's attribute too): a change through one reference must show through the "
            "others, which the graph's copies of them do not"
        )
        key.append(("repeated container",))
    sig = Signature(
        (tree, tuple(key)),
        tree,
        tuple(slots),
        tuple(in_types),
        tuple(in_names),
        tuple(layouts),
        tuple(array0d),
        tuple(twins),
        refuse,
    )
    return sig, tensors


def _dask_tensor(value: Any, name: str) -> bool:
    """Whether ``value`` is a dask array the graph takes as a tensor input (a numeric one)."""
    if not types.is_dask_array(value) or value.dtype.kind not in "biufc":
        return False
    if any(np.isnan(n) for n in value.shape):
        raise errors.ToGraphError(
            f"argument '{name}' is a dask array of unknown shape {value.shape}",
            hint=f"call {name}.compute_chunk_sizes() first",
        )
    return True


def _scalar(value: Any) -> bool:
    return isinstance(value, np.generic)


def _leaf_names(args: tuple[Any, ...], kwargs: dict[str, Any], names: list[str]) -> list[str]:
    out: list[str] = []
    for i, value in enumerate(args):
        _name_leaves(value, names[i] if i < len(names) else f"arg{i}", out)
    for key, value in kwargs.items():
        _name_leaves(value, key, out)
    return out


def _name_leaves(value: Any, base: str, out: list[str]) -> None:
    leaves, _ = pytree.flatten(value)
    if len(leaves) == 1 and not isinstance(value, (list, tuple, dict)):
        out.append(base)
    else:
        out.extend(f"{base}_{j}" for j in range(len(leaves)))


def _spec_per_leaf(
    args: tuple[Any, ...], kwargs: dict[str, Any], input_spec: Sequence[Any] | None
) -> dict[int, TensorSpec]:
    if not input_spec:
        return {}
    out: dict[int, TensorSpec] = {}
    position = 0
    for i, value in enumerate(args):
        count = len(pytree.flatten(value)[0])
        spec = input_spec[i] if i < len(input_spec) else None
        if isinstance(spec, TensorSpec):
            if count != 1:
                raise errors.ToGraphError(
                    f"input_spec[{i}] is a TensorSpec but argument {i} is a {type(value).__name__}"
                )
            out[position] = spec
        position += count
    return out
