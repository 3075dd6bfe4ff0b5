"""Nested Python containers (tuples, lists, dicts) flattened to leaves and rebuilt.

Used to pass structured arguments and results through graphs: ``flatten`` gives the leaves and a
``TreeDef`` that ``unflatten`` uses to rebuild the same nesting (namedtuples keep their class).
A class that defines ``__tree_children__()`` and a classmethod ``__tree_build__(children)`` is a
node too (a value made of parts that a graph carries separately), whose leaves share its path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any


@dataclasses.dataclass(frozen=True)
class TreeDef:
    """The shape of a nested container: its kind, keys and children; ``None`` kind is a leaf."""

    kind: Any
    meta: Any = None
    children: tuple[TreeDef, ...] = ()

    def describe(self) -> str:
        """How error messages name this structure: ``a single value``, ``a list of 3``; a custom
        node names itself by its class's ``__tree_describe__``, if it has one."""
        if self.kind is None:
            return "a single value"
        named = getattr(self.kind, "__tree_describe__", None)
        if isinstance(named, str):
            return named
        return f"a {self.kind.__name__} of {len(self.children)}"

    def paths(self, root: str) -> list[str]:
        """Display paths of the leaves in order: ``root``, ``root[0]``, ``root['k'][1]``."""
        if self.kind is None:
            return [root]
        if _is_custom(self.kind):
            return [path for child in self.children for path in child.paths(root)]
        keys = self.meta if self.kind is dict else range(len(self.children))
        label = repr if self.kind is dict else str
        return [
            path
            for key, child in zip(keys, self.children)
            for path in child.paths(f"{root}[{label(key)}]")
        ]

    def key_paths(self) -> list[tuple[Any, ...]]:
        """The keys (indices and dict keys) leading to each leaf, in order."""
        if self.kind is None:
            return [()]
        keys = self.meta if self.kind is dict else range(len(self.children))
        return [
            (key, *rest) for key, child in zip(keys, self.children) for rest in child.key_paths()
        ]

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
        if _is_custom(self.kind):
            return self.kind.__tree_build__(values)
        return self.kind(*values)  # namedtuple


LEAF = TreeDef(None)


def _is_custom(kind: type) -> bool:
    return hasattr(kind, "__tree_children__")


def is_node(value: Any) -> bool:
    """Whether ``value`` is a container that ``flatten`` descends into."""
    kind = type(value)
    return (
        kind in (tuple, list, dict)
        or (isinstance(value, tuple) and hasattr(value, "_fields"))
        or _is_custom(kind)
    )


def _children(tree: Any) -> Any:
    return tree.__tree_children__() if _is_custom(type(tree)) else tree


def rebuild(like: Any, items: list[Any]) -> Any:
    """A container of ``like``'s kind (tuple, list, namedtuple, custom node) holding ``items``."""
    if _is_custom(type(like)):
        return type(like).__tree_build__(items)
    return type(like)(*items) if hasattr(like, "_fields") else type(like)(items)


def flatten(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> tuple[list[Any], TreeDef]:
    """The leaves of ``tree`` in order and its structure; containers for which ``is_leaf`` says
    so are leaves themselves."""
    leaves: list[Any] = []
    return leaves, _flatten(tree, leaves, is_leaf)


def _flatten(tree: Any, leaves: list[Any], is_leaf: Callable[[Any], bool] | None) -> TreeDef:
    if not is_node(tree) or (is_leaf is not None and is_leaf(tree)):
        leaves.append(tree)
        return LEAF
    if type(tree) is dict:
        keys = tuple(tree)  # insertion order, which the rebuilt dict keeps
        return TreeDef(dict, keys, tuple(_flatten(tree[k], leaves, is_leaf) for k in keys))
    children = _children(tree)
    return TreeDef(type(tree), None, tuple(_flatten(v, leaves, is_leaf) for v in children))


def nodes(tree: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every container in ``tree`` (``tree`` first) with its path of keys from ``tree``."""
    if not is_node(tree):
        return
    yield path, tree
    items = tree.items() if type(tree) is dict else enumerate(_children(tree))
    for key, value in items:
        yield from nodes(value, (*path, key))
