"""``stop_gradient``: a value that differentiation treats as a constant.

Stage: ops. ``stop_gradient(x)`` has ``x``'s value and type (a weak scalar stays weak; an array
is copied, so writing one never writes the other), and no cotangent flows back through it: its
VJP rule (``tograph.autodiff.rules``) gives none, in compiled graphs and on eager tapes alike, as
``tf.stop_gradient`` and ``jax.lax.stop_gradient`` do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph.ir import primitives, types


def _impl(x: Any) -> Any:
    return x.copy() if isinstance(x, np.ndarray) else x


def _rule(x: types.TensorType) -> types.TensorType:
    return x


stop_gradient_p = primitives.Primitive("stop_gradient", _impl, _rule, layout="K")


def stop_gradient(x: Any) -> Any:
    """``x``, as a constant to differentiation: no gradient flows back through it.

    Args:
      x: an array, a NumPy or Python number, or a tensor (in a compiled function, or computed
        on a ``GradientTape``).

    Returns:
      A value equal to ``x``, of the same type (an array is a copy).
    """
    return stop_gradient_p.bind(x)
