"""Reverse-mode automatic differentiation of graphs and of eager tapes.

Graphs are differentiated by transforming them (``vjp``), eager code by replaying its tape
(``tape``); both use the VJP rules that the modules imported here register on the primitives.
The public ``grad`` and ``value_and_grad`` live in ``tograph.gradients``.
"""

from tograph.autodiff import (
    array_rules,  # noqa: F401  (registers the rules)
    complex_rules,  # noqa: F401
    control_flow,  # noqa: F401
    cumulative_rules,  # noqa: F401
    decomposition_rules,  # noqa: F401
    fft_rules,  # noqa: F401
    index_rules,  # noqa: F401
    math_rules,  # noqa: F401
    matrix_function_rules,  # noqa: F401
    norm_rules,  # noqa: F401
    rearrange_rules,  # noqa: F401
    rules,  # noqa: F401
    scatter_rules,  # noqa: F401
    signal_rules,  # noqa: F401
    ufunc_method_rules,  # noqa: F401
)
