"""``LRU``: a bounded memo table that keeps its most recently used entries.

The compiler memoises per function, per signature and per call layout; a program that makes new
functions or passes ever new static values would otherwise grow these tables without bound.
"""

from __future__ import annotations

import collections
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A mapping of at most ``limit`` entries; adding one more drops the least recently used.

    ``get`` and ``setdefault`` count as uses.
    """

    def __init__(self, limit: int):
        self.limit = limit
        self._data: collections.OrderedDict[K, V] = collections.OrderedDict()

    def get(self, key: K, default: V | None = None) -> V | None:
        try:
            value = self._data[key]
        except KeyError:
            return default
        self._data.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        if len(self._data) > self.limit:
            self._data.popitem(last=False)

    def setdefault(self, key: K, default: V) -> V:
        found = self.get(key)
        if found is None:
            self[key] = found = default
        return found

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[K]:
        return iter(list(self._data))

    def values(self) -> list[V]:
        return list(self._data.values())
