"""Python lists and dicts whose identity matters: the caller's, and those with two names.

Stage: trace. The function is traced on copies of the caller's lists and dicts (holding tensors
where the caller's hold arrays); what it leaves in a copy at the end is written into the
caller's container after each call (``staging.build_graph``). That is exact for changes made
where the code runs once per call. Inside an ``if`` or loop over tensors, a branch or loop body
gets copies of the variables it carries as its state, and its results are their values after
it (a dict of the caller's is refilled with them: ``staging.control_flow``): an item assignment
to such a copy of a dict is that state changing, which a ``cond`` or ``while_loop`` carries. The
control flow carries lists as tensor lists: a push or item assignment to the one standing for a
list that a parameter of the function holds (``register_parameter``; or an attribute of the
call's objects, whose cell carries the tensor list: ``staging.attribute_lists``) is its state
changing too (``check_list_change``), and the last version of it (``note_version``) holds the
contents the caller's list is given (``grown_lists``). Any other change there would happen on
some paths or some number of times only, which a Python container cannot record: a list
reached otherwise (through ``*args``, another container), a key deleted. It
is refused (``check_write``) and the function runs eagerly; so is every change there of a list
or dict bound to two names (``b = a``), where a change through one name must show through the
other (or through a list, dict or tuple that holds it: ``d = {"k": p}``). A list, dict or set
from before a tensor ``if`` or loop that its body reaches through its closure rather than as a
carried variable (``d["k"].append(v)``, ``lst.pop()``) would be changed once, while the body is
traced, so changing it there is refused too (``enter_trace``), but for an item assignment to a
dict, whose entry the op then carries (``staging.dict_items``). A variable that holds the
caller's container on some paths of an ``if`` or loop over tensors and another on others is
``freeze``-d: a later change of it falls back. Branches and loop bodies read such
a container as a copy that is marked too (``register_copies``), and a tensor list made from one
(to be read by tensor indices) remembers it (``SymbolicList.stands_for``).
"""

from __future__ import annotations

import collections
import types
from typing import Any

from tograph import errors, origin
from tograph.trace import context

_MUTATORS = frozenset(
    "append extend insert pop remove clear sort reverse update setdefault popitem "
    "__setitem__ __delitem__ __iadd__ __imul__ __ior__ add discard difference_update "
    "intersection_update symmetric_difference_update appendleft popleft extendleft rotate".split()
)
_CONTAINERS = (list, dict, set, collections.deque)


def _registry(builder: Any) -> dict[int, Any]:
    """The root builder's registry of the caller's containers."""
    found: dict[int, Any] = builder.root().containers
    return found


def register(container: Any) -> None:
    """Marks ``container`` (a list or dict) as one whose identity matters, in the graph being
    built."""
    builder = context.current()
    if builder is not None:
        _registry(builder)[id(container)] = container


def register_copies(originals: Any, copies: Any) -> None:
    """Marks the lists and dicts in ``copies`` (a pytree rebuilt from ``originals``, as a branch
    or loop body gets its variables) whose counterparts in ``originals`` are marked (as the
    caller's, or two-named), and those of them that are the body's state (``_carried``)."""
    builder = context.current()
    if builder is None:
        return
    registry = _registry(builder)
    if not registry:
        return
    shared = builder.root().shared_containers
    copied_from = builder.root().copied_from
    pending = [(originals, copies)]
    while pending:
        original, copy = pending.pop()
        if type(original) is not type(copy) or not isinstance(original, (list, tuple, dict)):
            continue
        if type(original) in (list, dict) and id(original) in registry:
            registry[id(copy)] = copy
            if copy is not original:
                copied_from[id(copy)] = (copy, original)
            if id(original) in shared:
                shared[id(copy)] = copy
        if isinstance(original, dict):
            pending.extend((original[k], copy[k]) for k in original if k in copy)
        else:
            pending.extend(zip(original, copy))
    for copy in _carried(originals, copies, registry):
        builder.carried_containers[id(copy)] = copy


def _carried(originals: Any, copies: Any, registry: dict[int, Any]) -> list[Any]:
    """The copies of the caller's dicts that are variables of the body's state: each the value
    of a variable itself (a nested one is written back only with its holder), its original
    found nowhere else in the state (two copies of one dict would part)."""
    if not isinstance(originals, (list, tuple)) or not isinstance(copies, (list, tuple)):
        return []
    counts: dict[int, int] = {}
    pending = list(originals)
    while pending:
        node = pending.pop()
        if isinstance(node, (list, tuple, dict)):
            counts[id(node)] = counts.get(id(node), 0) + 1
            pending.extend(node.values() if isinstance(node, dict) else node)
    return [
        copy
        for original, copy in zip(originals, copies)
        if type(original) is dict
        and type(copy) is dict
        and id(original) in registry
        and counts[id(original)] == 1
    ]


def derives_from(value: Any, container: Any) -> bool:
    """Whether ``value`` is ``container`` or a copy of it made by ``register_copies`` (a body's
    result rebuilt with its values tagged, say), at any remove."""
    builder = context.current()
    copied_from = builder.root().copied_from if builder is not None else {}
    seen: set[int] = set()
    while value is not container:
        entry = copied_from.get(id(value))
        if id(value) in seen or entry is None or entry[0] is not value:
            return False
        seen.add(id(value))
        value = entry[1]
    return True


def note_changed(container: Any) -> None:
    """Notes that ``container``, a copy the current body carries, was changed (refilled after a
    nested ``if`` or loop), so that ``check_returned`` holds the body to handing it back."""
    builder = context.current()
    if builder is not None and builder.carried_containers.get(id(container)) is container:
        builder.changed_containers[id(container)] = container


def check_returned(copy: Any, after: Any, name: str) -> None:
    """Refuses a body that changed ``copy``, its state's copy of the caller's dict, and ends
    with the variable holding another value (``after``): the change would not reach the caller."""
    builder = context.current()
    if builder is None or builder.changed_containers.get(id(copy)) is not copy:
        return
    if not derives_from(after, copy):
        raise errors.UnsupportedError(
            f"'{name}' is the caller's dict, changed inside an if or loop over tensors and then "
            "bound to another value there: the change would not reach the caller",
            loc=origin.current_location(),
            construct="change of an argument list or dict inside tensor control flow",
        )


def register_shared(container: Any) -> None:
    """Marks ``container`` (a list or dict, or a tensor list) as bound to two names: no change
    inside tensor control flow may reach it, since the copies the control flow carries are one
    per name (a tensor list is a value: no change at all, ``runtime.shared``)."""
    builder = context.current()
    if builder is not None:
        if type(container) in (list, dict):
            _registry(builder)[id(container)] = container
        builder.root().shared_containers[id(container)] = container


def is_shared(value: Any) -> bool:
    """Whether ``value`` was given a second name (``register_shared``)."""
    builder = context.current()
    if builder is None:
        return False
    return builder.root().shared_containers.get(id(value)) is value


def is_registered(value: Any) -> bool:
    """Whether ``value`` is a list or dict whose identity matters (``register``)."""
    builder = context.current()
    return builder is not None and id(value) in _registry(builder)


def freeze(container: Any, reason: str) -> None:
    """Refuses every later change of ``container`` (a list or dict) for ``reason``."""
    builder = context.current()
    if builder is not None:
        builder.root().frozen_containers[id(container)] = (container, reason)


def enter_trace(fn: Any) -> None:
    """Marks, in the current builder (a branch's or loop body's), the lists, dicts, sets and
    deques that ``fn``, about to be traced there, reaches through its closure (and the closures
    of the functions there): they exist before the ``if`` or loop over tensors, and the trace
    runs once however often eager would change them, so ``check_write`` refuses changing one."""
    builder = context.current()
    if builder is None:
        return
    found = builder.outer_containers
    pending: list[Any] = [fn]
    seen: set[int] = set()
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, types.FunctionType):
            pending.extend(cell.cell_contents for cell in value.__closure__ or () if _full(cell))
        elif type(value) in _CONTAINERS or type(value) is tuple:
            if type(value) is not tuple:
                found[id(value)] = value
            pending.extend(value.values() if type(value) is dict else value)


def _full(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def _from_before(builder: Any, container: Any) -> bool:
    """Whether ``container`` existed before one of the tensor ``if``s or loops being traced."""
    while builder is not None:
        if reached_from_before(builder, container):
            return True
        builder = builder.parent
    return False


def reached_from_before(builder: Any, container: Any) -> bool:
    """Whether the function traced in ``builder`` (a branch's or loop body's) reaches
    ``container``, made before it, through its closure (``enter_trace``)."""
    return builder.outer_containers.get(id(container)) is container


def check_frozen(container: Any, what: str) -> None:
    """Refuses ``what``, an in-place change of ``container``, if it is frozen (``freeze``)."""
    builder = context.current()
    if builder is None:
        return
    frozen = builder.root().frozen_containers.get(id(container))
    if frozen is not None and frozen[0] is container:
        raise errors.UnsupportedError(
            f"{what}: {frozen[1]}",
            loc=origin.current_location(),
            construct="change of an argument list or dict rebound on some paths",
        )


def check_write(container: Any, what: str, item: bool = False) -> None:
    """Refuses ``what``, an in-place change of ``container``, if it is frozen, if it is the
    caller's and the code runs inside control flow over tensors (but for an ``item`` assignment
    to a dict the current body carries as its state), or if it was made before that control
    flow and reached through a closure rather than carried (see module docstring)."""
    builder = context.current()
    if builder is None:
        return
    check_frozen(container, what)
    if builder.parent is None:
        return
    if id(container) not in _registry(builder):
        if _from_before(builder, container):
            raise errors.UnsupportedError(
                f"{what} changes a {type(container).__name__} made before an if or loop over "
                "tensors, inside it, through another list, dict or name than a variable the if "
                "or loop carries: whether (or how often) it happens is known only when the graph "
                "runs",
                loc=origin.current_location(),
                construct="change of an outer list or dict inside tensor control flow",
            )
        return
    if (
        item
        and type(container) is dict
        and builder.carried_containers.get(id(container)) is container
        and id(container) not in builder.root().shared_containers
    ):
        builder.changed_containers[id(container)] = container
        return
    raise errors.UnsupportedError(
        f"{what} changes a {type(container).__name__} passed to the function or known by two "
        "names, inside an if or loop over tensors: whether (or how often) it happens is known "
        "only when the graph runs",
        loc=origin.current_location(),
        construct="change of an argument list or dict inside tensor control flow",
    )


def register_parameter(container: Any) -> None:
    """Marks ``container``, the copy of a caller's list, as the value of one of the function's
    own parameters (not reached through ``*args`` or another container), or of an attribute
    whose cell carries it (``staging.attribute_lists``): changed inside tensor control flow as
    a tensor list, its contents are written back after the run."""
    builder = context.current()
    if builder is not None and type(container) is list:
        builder.root().parameter_lists[id(container)] = container


def _parameter_list(container: Any) -> bool:
    """Whether ``container`` is a parameter's list (``register_parameter``) bound to no second
    name."""
    builder = context.current()
    if builder is None:
        return False
    root = builder.root()
    return (
        root.parameter_lists.get(id(container)) is container
        and id(container) not in root.shared_containers
    )


def check_list_change(lst: Any, what: str) -> None:
    """Refuses ``what``, a push or item assignment of ``lst``, a tensor list standing for a
    caller's list, as ``check_write`` refuses it for that list; but inside tensor control flow a
    change to the tensor list the current branch or body carries is allowed when it stands for
    a parameter's list: the tensor list's final value is that list's contents
    (``note_version``, ``grown_lists``)."""
    builder = context.current()
    container = lst.stands_for
    if builder is None:
        return
    followed = _parameter_list(container)
    # an attribute's list is carried through the attribute's cell, from whichever builder
    held = id(container) in builder.root().attribute_lists
    if builder.parent is None or (lst.builder is not builder and not held) or not followed:
        check_write(container, what)
    elif id(container) in builder.root().frozen_containers:
        check_write(container, what)  # refused, with the reason it was frozen for
    if followed:
        builder.root().grown_lists.add(id(container))


def note_version(lst: Any) -> None:
    """Records ``lst``, a tensor list made in the current builder that stands for a parameter's
    list, as holding that list's latest contents there (in the root builder: after the run)."""
    builder = context.current()
    container = lst.stands_for
    if builder is None or not _parameter_list(container):
        return
    builder.list_versions[id(container)] = (container, lst)


def latest_version(lst: Any) -> Any:
    """The latest version made in the current builder of the tensor list ``lst`` stands for the
    same parameter's list, else ``lst``: a branch or body whose code drops the result of a
    nested ``if`` (its variable is not read again) hands back the list that ``if`` changed."""
    builder = context.current()
    container = getattr(lst, "stands_for", None)
    if builder is None or container is None:
        return lst
    found = builder.list_versions.get(id(container))
    return lst if found is None else found[1]


def grown_lists() -> list[tuple[Any, Any]]:
    """The parameters' lists changed as tensor lists, each with the tensor list holding its
    final contents."""
    builder = context.current()
    if builder is None:
        return []
    root = builder.root()
    for key in root.grown_lists:
        if key not in root.list_versions:
            raise errors.UnsupportedError(
                "a list passed to the function is changed inside an if or loop over tensors "
                "where the compiler cannot follow its final contents",
                loc=origin.current_location(),
                construct="change of an argument list or dict inside tensor control flow",
            )
    return [root.list_versions[key] for key in sorted(root.grown_lists)]


def is_mutator(fn: Any) -> bool:
    """Whether ``fn`` is a bound method of a list, dict, set or deque that changes it in place."""
    owner = getattr(fn, "__self__", None)
    return type(owner) in _CONTAINERS and getattr(fn, "__name__", "") in _MUTATORS
