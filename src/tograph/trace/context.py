"""Which graph is being built: the stack of active ``GraphBuilder``s, per thread.

Stage: trace. Symbolic tensors ask ``current()`` where to emit an equation; builders push
themselves with ``push``/``pop`` (``GraphBuilder.active``). Kept apart from the builder so that
tensors and builders depend on it, not on each other.
"""

from __future__ import annotations

import threading
from typing import Any

_state = threading.local()


def _stack() -> list[Any]:
    if not hasattr(_state, "stack"):
        _state.stack = []
    return _state.stack


def current() -> Any:
    """The builder that new equations go to (a ``GraphBuilder``), or None outside graph building."""
    stack = _stack()
    return stack[-1] if stack else None


def push(builder: Any) -> None:
    _stack().append(builder)


def pop() -> None:
    _stack().pop()
