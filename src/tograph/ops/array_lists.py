"""NumPy calls on Python lists and tuples that hold tensors: ``np.sum([1, a * a, 2])``,
``np.max([t, 0.5])``, ``np.maximum([t, 1], 0)``.

Stage: graph building (converted code calls ``call`` for a NumPy callable whose arguments hold
symbolic tensors). Input: the callable and its arguments. Output: its result, with each list or
tuple that NumPy would turn into an array stacked into one tensor first, as ``np.array`` stacks it
(Python numbers promoted as NumPy promotes them), so the call reaches the callable's handler and
its gradient flows. Which arguments NumPy turns into arrays is NumPy's own dispatcher's answer:
the call is tried once on stand-in objects that only record which of them the dispatcher hands to
``__array_function__`` (a list of arrays for ``np.concatenate`` is a sequence of arrays, not one
array; a shape tuple is not an array at all). A NumPy function that does not dispatch on its
arguments (``np.hanning(n)``, ``np.tri(n)``) with a tensor among them runs as a host call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tograph.ops import creation
from tograph.trace import dispatch, tensor


class _Found(Exception):  # noqa: N818  (a signal, not an error)
    """Raised by a stand-in's ``__array_function__``: the dispatcher's relevant types."""

    def __init__(self, relevant: Any):
        super().__init__()
        self.relevant = relevant


class _StandIn:
    """Stands for a tensor or a container in a dispatch probe; iterates like its container."""

    def __init__(self, items: list[Any]):
        self._items = items

    def __array_function__(self, func: Any, relevant: Any, args: Any, kwargs: Any) -> Any:
        raise _Found(relevant)

    def __iter__(self) -> Any:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: Any) -> Any:
        return self._items[index]


def _stand_in(value: Any, made: dict[type, Any]) -> Any:
    """``value`` with every tensor and every container holding one replaced by a stand-in of a
    class of its own (``made`` maps each class to the container it stands for)."""
    if tensor.is_tensor(value):
        return type("_Tensor", (_StandIn,), {})([])
    if isinstance(value, (list, tuple)) and tensor.contains_tensor(value):
        kind = type("_Container", (_StandIn,), {})
        made[kind] = value
        return kind([_stand_in(item, made) for item in value])
    return value


def _array_containers(fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """The containers among the arguments that NumPy's dispatcher of ``fn`` treats as arrays."""
    made: dict[type, Any] = {}
    probe_args = [_stand_in(a, made) for a in args]
    probe_kwargs = {k: _stand_in(v, made) for k, v in kwargs.items()}
    try:
        fn(*probe_args, **probe_kwargs)
    except _Found as found:
        return [made[kind] for kind in found.relevant if kind in made]
    except Exception:  # noqa: BLE001  (the dispatcher refused stand-ins: nothing to stack)
        return []
    return []


def _stacked(value: Any, chosen: list[Any]) -> Any:
    if any(value is c for c in chosen):
        return creation.array(value)
    return value


def _holds_tensors(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and tensor.contains_tensor(value)


def call(fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``fn(*args, **kwargs)`` for a NumPy callable: see module docstring."""
    dispatched = isinstance(fn, np.ufunc) or hasattr(fn, "_implementation")
    if dispatched and not any(_holds_tensors(a) for a in (*args, *kwargs.values())):
        return fn(*args, **kwargs)
    if isinstance(fn, np.ufunc):
        chosen = [a for a in args if _holds_tensors(a)]
    elif hasattr(fn, "_implementation"):  # NumPy dispatches it with __array_function__
        chosen = _array_containers(fn, args, kwargs)
    else:
        host: Callable[..., Any] | None = dispatch.fallback_handler(fn)
        return fn(*args, **kwargs) if host is None else host(*args, **kwargs)
    args = tuple(_stacked(a, chosen) for a in args)
    kwargs = {k: _stacked(v, chosen) for k, v in kwargs.items()}
    return fn(*args, **kwargs)
