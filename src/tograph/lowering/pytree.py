"""Nested Python containers (tuples, lists, dicts) flattened to leaves and rebuilt.

Used to pass structured arguments and results through graphs: ``flatten`` gives the leaves and a
``TreeDef`` that ``unflatten`` uses to rebuild the same nesting (namedtuples keep their class).
"""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class TreeDef:
    """The shape of a nested container: its kind, keys and children; ``None`` kind is a leaf."""

    kind: Any
    meta: Any = None
    children: tuple[TreeDef, ...] = ()

    @property
    def num_leaves(self) -> int:
        return 1 if self.kind is None else sum(c.num_leaves for c in self.children)

    def unflatten(self, leaves: list[Any]) -> Any:
        it = iter(leaves)
        return self._build(it)

    def _build(self, it: Any) -> Any:
        if self.kind is None:
            return next(it)
        values = [c._build(it) for c in self.children]
        if self.kind is dict:
            return dict(zip(self.meta, values))
        if self.kind is tuple or self.kind is list:
            return self.kind(values)
        return self.kind(*values)  # namedtuple


LEAF = TreeDef(None)


def flatten(tree: Any) -> tuple[list[Any], TreeDef]:
    """The leaves of ``tree`` in order and its structure."""
    leaves: list[Any] = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree: Any, leaves: list[Any]) -> TreeDef:
    if isinstance(tree, dict):
        keys = tuple(tree)
        return TreeDef(dict, keys, tuple(_flatten(tree[k], leaves) for k in keys))
    if isinstance(tree, (tuple, list)):
        kind = type(tree) if type(tree) in (tuple, list) or hasattr(tree, "_fields") else None
        if kind is not None:
            return TreeDef(kind, None, tuple(_flatten(v, leaves) for v in tree))
    leaves.append(tree)
    return LEAF
