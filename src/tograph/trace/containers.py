"""Python lists and dicts whose identity matters: the caller's, and those with two names.

Stage: trace. The function is traced on copies of the caller's lists and dicts (holding tensors
where the caller's hold arrays); what it leaves in a copy at the end is written into the
caller's container after each call (``staging.build_graph``). That is exact for changes made
where the code runs once per call. A change made inside an ``if`` or loop over tensors would
happen on some paths or some number of times only, which a Python container cannot record (the
control flow carries copies of lists as values), so it is refused (``check_write``) and the
function runs eagerly; the same holds for a local list or dict bound to two names (``b = a``),
where a change through one name must show through the other. A variable that holds the
caller's container on some paths of an ``if`` or loop over tensors and another on others is
``freeze``-d: a later change of it falls back. Branches and loop bodies read such
a container as a copy that is marked too (``register_copies``), and a tensor list made from one
(to be read by tensor indices) remembers it (``SymbolicList.stands_for``).
"""

from __future__ import annotations

from typing import Any

from tograph import errors, origin
from tograph.trace import context

_MUTATORS = frozenset(
    "append extend insert pop remove clear sort reverse update setdefault popitem "
    "__setitem__ __delitem__ __iadd__ __imul__ __ior__".split()
)


def _root(builder: Any) -> Any:
    while builder.parent is not None:
        builder = builder.parent
    return builder


def _registry(builder: Any) -> dict[int, Any]:
    """The root builder's registry of the caller's containers."""
    found: dict[int, Any] = _root(builder).containers
    return found


def register(container: Any) -> None:
    """Marks ``container`` (a list or dict) as one whose identity matters, in the graph being
    built."""
    builder = context.current()
    if builder is not None:
        _registry(builder)[id(container)] = container


def register_copies(originals: Any, copies: Any) -> None:
    """Marks the lists and dicts in ``copies`` (a pytree rebuilt from ``originals``, as a branch
    or loop body gets its variables) whose counterparts in ``originals`` are marked."""
    builder = context.current()
    if builder is None:
        return
    registry = _registry(builder)
    if not registry:
        return
    pending = [(originals, copies)]
    while pending:
        original, copy = pending.pop()
        if type(original) is not type(copy) or not isinstance(original, (list, tuple, dict)):
            continue
        if type(original) in (list, dict) and id(original) in registry:
            registry[id(copy)] = copy
        if isinstance(original, dict):
            pending.extend((original[k], copy[k]) for k in original if k in copy)
        else:
            pending.extend(zip(original, copy))


def is_registered(value: Any) -> bool:
    """Whether ``value`` is a list or dict whose identity matters (``register``)."""
    builder = context.current()
    return builder is not None and id(value) in _registry(builder)


def freeze(container: Any, reason: str) -> None:
    """Refuses every later change of ``container`` (a list or dict) for ``reason``."""
    builder = context.current()
    if builder is not None:
        _root(builder).frozen_containers[id(container)] = (container, reason)


def check_write(container: Any, what: str) -> None:
    """Refuses ``what``, an in-place change of ``container``, if it is frozen, or if it is the
    caller's and the code runs inside control flow over tensors (see module docstring)."""
    builder = context.current()
    if builder is None:
        return
    frozen = _root(builder).frozen_containers.get(id(container))
    if frozen is not None and frozen[0] is container:
        raise errors.UnsupportedError(
            f"{what}: {frozen[1]}",
            loc=origin.current_location(),
            construct="change of an argument list or dict rebound on some paths",
        )
    if builder.parent is None or id(container) not in _registry(builder):
        return
    raise errors.UnsupportedError(
        f"{what} changes a {type(container).__name__} passed to the function or known by two "
        "names, inside an if or loop over tensors: whether (or how often) it happens is known "
        "only when the graph runs",
        loc=origin.current_location(),
        construct="change of an argument list or dict inside tensor control flow",
    )


def is_mutator(fn: Any) -> bool:
    """Whether ``fn`` is a bound method of a list or dict that changes it in place."""
    owner = getattr(fn, "__self__", None)
    return type(owner) in (list, dict) and getattr(fn, "__name__", "") in _MUTATORS
