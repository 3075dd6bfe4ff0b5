"""Reverse-mode automatic differentiation of graphs and of eager tapes.

``grad`` and ``value_and_grad`` (``tograph.autodiff.api``) differentiate compiled functions by
transforming their graphs (``vjp``), and functions that run eagerly by replaying their tape
(``tape``); both use the VJP rules that the modules imported here register on the primitives.
"""

from tograph.autodiff import (
    array_rules,  # noqa: F401  (registers the rules)
    control_flow,  # noqa: F401
    rules,  # noqa: F401
)
from tograph.autodiff.api import GradFunction, grad, value_and_grad

__all__ = ["GradFunction", "grad", "value_and_grad"]
