"""What the ONNX converters share: their signature and the types and operands of an equation.

Stage: export (ONNX). Input: an equation. Output: its operand and result types, and its operands
as ONNX names cast to a dtype (through ``export.onnx``'s ``Writer``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tograph.ir import core, types

if TYPE_CHECKING:
    from tograph.export.onnx import Writer

Convert = Callable[["Writer", core.Eqn, Sequence[str]], list[str]]


def out_type(eqn: core.Eqn, k: int = 0) -> types.TensorType:
    """The type of the equation's ``k``-th result."""
    return types.tensor_type(eqn.outputs[k].type)


def in_type(eqn: core.Eqn, k: int) -> types.TensorType:
    """The type of the equation's ``k``-th operand."""
    return types.tensor_type(eqn.inputs[k].type)


def operands(w: Writer, eqn: core.Eqn, dtype: Any) -> list[str]:
    """Every operand of the equation, as ``dtype``."""
    return [w.operand(a, dtype) for a in eqn.inputs]
