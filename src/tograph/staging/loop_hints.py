"""What a loop over tensors learned about its state, handed to the same loop when a retrace of
the loop around it meets it again.

Stage: staging. A ``while_loop`` traces its body until it knows what it carries: arrays from
outside that the body writes in place (cells), array variables that enter as themselves or are
carried as values, identity tags (``staging.control_flow``). Each fact costs a trace of the body,
and every trace of an outer loop's body traces the inner loop again from nothing: the traces
multiplied level by level. A loop that ends records its facts by the display paths of its state;
met again in the next trace of the enclosing loop (the same site, the same occurrence), it starts
from them and usually needs one trace. Hints only start the search: every trace is still checked
for state to carry, and a hint whose array is gone is dropped.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from tograph.staging import carried
from tograph.trace import builder as builder_mod
from tograph.trace import functional, tensor


@dataclasses.dataclass(frozen=True)
class Learned:
    """A loop's facts by the paths of its state's leaves: the leaves kept as themselves
    (``promoted``), those carried as values though they have a storage (``rebound``), those with
    identity tags, and its cells, each the path of the leaf whose array it is, or the storage;
    and the kinds its state had when it ran its first iteration by itself (``peel``:
    ``control_flow.PeelFirst``), which it does again when met with the same kinds."""

    promoted: frozenset[str]
    rebound: frozenset[str]
    tag_paths: frozenset[str]
    cells: tuple[str | functional.Storage, ...]
    peel: tuple[Any, ...] | None = None


def key(parent: builder_mod.GraphBuilder, site: Any, names: Sequence[str]) -> Any:
    """The key of a loop at ``site`` met now, tracing in ``parent``: the enclosing loop's key
    and which of its traces (body or test) met it, and how often that trace met the site before."""
    enclosing = _enclosing(parent)
    count = enclosing.loops_met.get(site, 0)
    enclosing.loops_met[site] = count + 1
    return (enclosing.loop_key, site, tuple(names), count)


def recall(parent: builder_mod.GraphBuilder, loop_key: Any) -> Learned | None:
    """The facts a loop of ``loop_key`` learned in an earlier trace of the enclosing loop."""
    learned: Learned | None = parent.root().loop_hints.get(loop_key)
    return learned


def remember(parent: builder_mod.GraphBuilder, loop_key: Any, learned: Learned) -> None:
    """Notes what the loop of ``loop_key`` learned (and still when it peels, if it did)."""
    hints = parent.root().loop_hints
    previous = hints.get(loop_key)
    if previous is not None and previous.peel is not None:
        learned = dataclasses.replace(learned, peel=previous.peel)
    hints[loop_key] = learned


def peeled(parent: builder_mod.GraphBuilder, loop_key: Any, kinds: tuple[Any, ...]) -> None:
    """Notes that the loop of ``loop_key``, its state of ``kinds`` (``kinds_of``), runs its
    first iteration by itself: the loop over the rest that follows is met as the same loop,
    under the same key. Running the first iteration of a loop that surely runs by itself is
    exact whatever the body does, so a hint to do so is safe."""
    enclosing = _enclosing(parent)
    enclosing.loops_met[loop_key[1]] -= 1
    hints = parent.root().loop_hints
    previous = hints.get(loop_key)
    if previous is None:
        previous = Learned(frozenset(), frozenset(), frozenset(), ())
    hints[loop_key] = dataclasses.replace(previous, peel=kinds)


@contextlib.contextmanager
def first_iteration(builder: builder_mod.GraphBuilder, loop_key: Any) -> Iterator[None]:
    """While the first iteration of the loop of ``loop_key`` runs by itself in ``builder``, the
    loops it meets have the keys they had in a trace of that loop's body, whose hints they take."""
    saved = builder.loop_key, builder.loops_met
    builder.loop_key, builder.loops_met = (loop_key, "body"), {}
    try:
        yield
    finally:
        builder.loop_key, builder.loops_met = saved


def kinds_of(leaves: Sequence[Any]) -> tuple[Any, ...]:
    """What a body's change of kind depends on: each leaf's Python type and graph type."""
    return tuple(
        (type(leaf), carried.type_of(leaf) if carried.is_tensor_like(leaf) else None)
        for leaf in leaves
    )


def learn(
    paths: Sequence[str],
    leaves: Sequence[Any],
    cells: Sequence[functional.Storage],
    promoted: set[int],
    rebound: set[int],
    tag_paths: set[str],
) -> Learned:
    """The facts of a loop whose state's leaves (``paths``, ``leaves``) ended as ``promoted``
    and ``rebound`` (by ``id``), with ``cells`` and ``tag_paths``."""
    owner = {}
    for path, leaf in zip(paths, leaves):
        if isinstance(leaf, tensor.SymbolicTensor) and leaf._storage is not None:
            owner.setdefault(id(leaf._storage), path)
    return Learned(
        frozenset(p for p, leaf in zip(paths, leaves) if id(leaf) in promoted),
        frozenset(p for p, leaf in zip(paths, leaves) if id(leaf) in rebound),
        frozenset(tag_paths),
        tuple(owner.get(id(storage), storage) for storage in cells),
    )


def apply(
    learned: Learned,
    parent: builder_mod.GraphBuilder,
    paths: Sequence[str],
    leaves: Sequence[Any],
) -> tuple[set[int], set[int], set[str], list[functional.Storage]]:
    """``learned`` for the state's leaves now: the ``promoted`` and ``rebound`` leaves (by
    ``id``), the tag paths, and the cells whose arrays are still reachable from ``parent``."""
    arrays = {
        path: leaf
        for path, leaf in zip(paths, leaves)
        if isinstance(leaf, tensor.SymbolicTensor) and leaf.is_array
    }
    promoted = {id(arrays[p]) for p in learned.promoted if p in arrays}
    rebound = {id(arrays[p]) for p in learned.rebound if p in arrays} - promoted
    cells: list[functional.Storage] = []
    for cell in learned.cells:
        if isinstance(cell, str):
            leaf = arrays.get(cell)
            if leaf is None or not (leaf._storage is not None or id(leaf) in promoted):
                continue
            storage = functional.storage_of(leaf)
        else:
            storage = cell
            if not _reachable(storage, parent):
                continue
        if all(storage is not known for known in cells):
            cells.append(storage)
    return promoted, rebound, set(learned.tag_paths), cells


def _reachable(storage: functional.Storage, parent: builder_mod.GraphBuilder) -> bool:
    """Whether ``storage`` was made in ``parent`` or a builder around it (not in a trace that
    was thrown away)."""
    builder: builder_mod.GraphBuilder | None = parent
    while builder is not None:
        if builder is storage.born:
            return True
        builder = builder.parent
    return False


def _enclosing(builder: builder_mod.GraphBuilder) -> builder_mod.GraphBuilder:
    """The trace of the innermost loop ``builder`` is in (its body or test), or the root."""
    while builder.loop_key is None and builder.parent is not None:
        builder = builder.parent
    return builder
