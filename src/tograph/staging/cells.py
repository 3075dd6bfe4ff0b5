"""The cells a nested function shares with the converted function: copied in and out around calls.

Stage: staging (the runtime ``_t`` calls these). A function ``g`` defined in the converted ``f``
that declares ``nonlocal`` names sets ``f``'s variables through closure cells; a branch or loop
body of ``f``, lowered to a function of its own, holds those variables as its locals instead.
``lowering.nonlocals`` brackets each call of ``g`` with ``store_cells`` (the block's values into
``g``'s cells) and ``load_cells`` (what ``g`` left there, back into the block's locals).
"""

from __future__ import annotations

from typing import Any


def _cell(fn: Any, name: str) -> Any:
    return fn.__closure__[fn.__code__.co_freevars.index(name)]


def store_cells(fn: Any, names: tuple[str, ...], values: tuple[Any, ...]) -> None:
    """Sets the variables ``names`` that ``fn`` shares with its enclosing function to ``values``."""
    for name, value in zip(names, values, strict=True):
        _cell(fn, name).cell_contents = value


def load_cells(fn: Any, names: tuple[str, ...]) -> tuple[Any, ...]:
    """The values of the variables ``names`` that ``fn`` shares with its enclosing function."""
    return tuple(_cell(fn, name).cell_contents for name in names)
