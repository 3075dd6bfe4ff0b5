"""Reverse-mode automatic differentiation of graphs and of eager tapes.

Graphs are differentiated by transforming them (``vjp``), eager code by replaying its tape
(``tape``); both use the VJP rules that the modules imported here register on the primitives.
The public ``grad`` and ``value_and_grad`` live in ``tograph.gradients``.
"""

from tograph.autodiff import (
    array_rules,  # noqa: F401  (registers the rules)
    control_flow,  # noqa: F401
    cumulative_rules,  # noqa: F401
    index_rules,  # noqa: F401
    rearrange_rules,  # noqa: F401
    rules,  # noqa: F401
    scatter_rules,  # noqa: F401
    ufunc_method_rules,  # noqa: F401
)
