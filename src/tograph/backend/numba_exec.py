"""The numba executor: a graph's numba module compiled once per signature, cached on disk.

Stage: execute. Input: a ``Graph`` and the function running it with NumPy (the fallback).
Output: ``compile_graph`` returns a function ``f(*inputs) -> tuple of outputs`` equal to the
NumPy executor's (values, dtypes, scalar kinds), or raises ``numba_code.Unsupported``.

``numba_code`` writes the module; it is saved under the cache directory with a name that is the
hash of its source (``TOGRAPH_CACHE_DIR``, else ``~/.cache/tograph``), imported, and compiled
for the graph's own input types with ``cache=True``: numba keeps the machine code beside the
file, so a later process loads it instead of compiling (about 1 ms against 100-300 ms).

A call runs the compiled function unless NumPy would do something it cannot, and then the NumPy
executor runs the call instead. That is the case for an argument the signature does not take
(a 0-d array, a non-contiguous or read-only array: numba refuses the call), a floating-point
flag NumPy reports (overflow, invalid, division by zero, and underflow when ``np.errstate``
watches it), a checked int64 operation that would wrap or divide by zero (``Bail``), and any
exception (an index out of range): the graph has no effects, so running it again is safe, and
the NumPy executor, given the very arguments of the call (NumPy scalars stay NumPy scalars),
gives NumPy's warning, error or value.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import pathlib
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph.backend import numba_code
from tograph.ir import core, types

INSTALL_HINT = 'numba is not installed: pip install "tograph[numba]"'


def available() -> bool:
    """Whether numba can be imported."""
    return importlib.util.find_spec("numba") is not None


def cache_dir() -> pathlib.Path:
    """Where generated modules and numba's compiled code are kept."""
    root = os.environ.get("TOGRAPH_CACHE_DIR") or pathlib.Path.home() / ".cache" / "tograph"
    return pathlib.Path(root) / "numba"


def compile_graph(graph: core.Graph, fallback: Callable[..., tuple[Any, ...]]) -> Any:
    """The numba-compiled function of ``graph`` (see module docstring).

    Args:
      graph: the graph to run.
      fallback: runs ``graph`` with NumPy; called for what numba cannot do as NumPy does.

    Raises:
      Unsupported: the graph has no exact numba form, or numba cannot type it.
      ImportError: numba is not installed.
    """
    if not available():
        raise ImportError(INSTALL_HINT)
    generated = numba_code.generate(graph)  # first: a graph numba cannot run imports no numba
    from tograph.backend import numba_kernels, numba_libm, numba_numpy

    for name in sorted(generated.libm):
        if not numba_libm.agrees(name):
            raise numba_code.Unsupported(
                f"{name}: NumPy's float64 {name} is not the C library's numba calls here"
            )
    for name in sorted(generated.numpy_kernels):
        if not numba_numpy.agrees(name):
            raise numba_code.Unsupported(
                f"{name}: NumPy's own float64 {name} kernel is not found or not callable here"
            )
    for m, n, p in sorted(generated.matmul_shapes):
        if not numba_numpy.matmul_agrees(m, n, p):
            raise numba_code.Unsupported(
                f"matmul: the dgemm found differs from np.matmul on ({m}, {n}) @ ({n}, {p}) here"
            )

    dispatcher = _load(generated)
    sig = _signature(graph, generated)
    if sig not in dispatcher.overloads:  # graphs with the same source share the module
        try:
            dispatcher.compile(sig)
        except Exception as exc:  # noqa: BLE001 - numba cannot type it: the graph stays on NumPy
            text = str(exc).strip()
            first = text.splitlines()[0] if text else type(exc).__name__
            raise numba_code.Unsupported(f"numba cannot compile it ({first[:200]})") from exc
    # The one signature: other argument kinds (a 0-d, non-contiguous or read-only array) make
    # numba raise TypeError, and the call goes to NumPy, instead of compiling another one.
    dispatcher.disable_compile()
    return _runner(graph, generated, dispatcher, fallback, numba_kernels)


def _load(generated: numba_code.Generated) -> Any:
    """Writes the module (once: its name is its hash) and imports it."""
    from tograph.backend import numba_kernels, numba_numpy

    helpers = inspect.getsource(numba_kernels) + inspect.getsource(numba_numpy)
    digest = hashlib.sha1((generated.source + helpers).encode()).hexdigest()[:20]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"g_{digest}.py"
    if not path.exists():
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(generated.source)
        partial.replace(path)  # atomic: another process may write the same file
    name = f"tograph_numba_{digest}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return getattr(module, generated.name)


def _numba_type(t: types.TensorType) -> Any:
    from numba import types as nt
    from numba.np import numpy_support

    scalar = numpy_support.from_dtype(t.dtype)
    if t.shape == ():
        return scalar
    return nt.Array(scalar, t.ndim, "C")


def _signature(graph: core.Graph, generated: numba_code.Generated) -> tuple[Any, ...]:
    ins = [_numba_type(types.tensor_type(v.type)) for v in graph.inputs]
    consts = [_numba_type(types.type_of(c)) for c in generated.consts]
    return tuple(ins + consts)


def _runner(
    graph: core.Graph,
    generated: numba_code.Generated,
    jitted: Any,
    fallback: Callable[..., tuple[Any, ...]],
    kernels: Any,
) -> Callable[..., tuple[Any, ...]]:
    """A Python function calling ``jitted`` and boxing its results as NumPy's executor does,
    written out for speed (the call costs about 0.3 us more than numba's own dispatch)."""
    n = len(graph.inputs)
    params = [f"a{k}" for k in range(n)]
    # numba's arguments: the Python numbers of scalar inputs; the fallback gets the originals
    passed = [f"u{k}" if _is_unboxed(v) else f"a{k}" for k, v in enumerate(graph.inputs)]
    args = ", ".join(passed + [f"c{k}" for k in range(len(generated.consts))])
    namespace: dict[str, Any] = {
        "jitted": jitted,
        "fallback": fallback,
        "REPORTED": kernels.REPORTED,
        "under_ignored": _underflow_ignored,
    }
    namespace.update({f"c{k}": c for k, c in enumerate(generated.consts)})
    results = []
    for kind, value in generated.outputs:
        if kind == "const":
            name = f"k{len(namespace)}"
            namespace[name] = value
            results.append(name)
            continue
        box, dtype = generated.kinds[value]
        item = f"outs[{value}]"
        if box == "scalar":
            namespace[f"box_{dtype.name}"] = dtype.type
            item = f"box_{dtype.name}({item})"
        results.append(item)
    call = ", ".join(params)
    checks = []
    for k, v in enumerate(graph.inputs):
        if _is_unboxed(v):
            # numba types a Python number faster than a NumPy scalar; a 0-d array goes to NumPy
            t = types.tensor_type(v.type)
            namespace[f"t{k}"] = t.dtype.type
            checks.append(f"    if type(a{k}) is not t{k}:")
            checks.append(f"        return fallback({call})")
            checks.append(f"    u{k} = {_PYTHON[t.dtype.name]}(a{k})")
    source = "\n".join(
        [
            f"def run({call}):",
            *checks,
            "    try:",
            f"        outs, flags = jitted({args})",
            "    except Exception:",
            f"        return fallback({call})",
            "    if flags and (flags & REPORTED or not under_ignored()):",
            f"        return fallback({call})",
            f"    return ({', '.join(results)}{',' if len(results) == 1 else ''})",
        ]
    )
    exec(compile(source, f"<tograph numba {graph.name}>", "exec"), namespace)  # noqa: S102
    run: Callable[..., tuple[Any, ...]] = namespace["run"]
    return run


_PYTHON = {"float64": "float", "int64": "int", "bool": "bool"}


def _is_unboxed(var: core.Var) -> bool:
    """Whether the input ``var`` (a strong float64, int64 or bool scalar) is handed to numba as
    a Python number."""
    t = types.tensor_type(var.type)
    return t.shape == () and not t.weak and t.dtype.name in _PYTHON


def _underflow_ignored() -> bool:
    return np.geterr()["under"] == "ignore"
