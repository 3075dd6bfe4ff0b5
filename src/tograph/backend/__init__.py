"""Execution of graphs: generated Python over NumPy kernels (``codegen``), an interpreter, and
the Dask backend for ``dask.array`` arguments (``dask_exec``, with the chunked forms of the
primitives in ``dask_ops``; dask itself is imported only when a call gets a dask array).

Importing this package registers the kernels of ``cond`` and ``while_loop``, which run nested
graphs and so belong to the executor rather than to ``tograph.ops``.
"""

from tograph.backend import codegen  # noqa: F401  (registers the control-flow kernels)
