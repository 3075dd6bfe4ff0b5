"""Execution of graphs: generated Python over NumPy kernels (``codegen``), and an interpreter.

Importing this package registers the kernels of ``cond`` and ``while_loop``, which run nested
graphs and so belong to the executor rather than to ``tograph.ops``.
"""

from tograph.backend import codegen  # noqa: F401  (registers the control-flow kernels)
