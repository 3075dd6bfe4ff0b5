"""Which NumPy callables may run inside a graph as host calls, and why the others may not.

Stage: graph building (the ``numpy_call`` primitive, ``ops.host_call``) and the coverage table.
Input: a NumPy callable, or the name under which NumPy's own namespaces (``np``, ``np.linalg``,
``np.fft``) hold it. Output: its name, whether it is pure, and if not the reason.

A host call runs the NumPy function itself each time the graph runs, so only functions whose
result depends on their arguments alone may take that path. The lists here were made by reading
NumPy's API reference, function by function: ``IMPURE`` names every public callable of those
namespaces that reads or writes files, prints, changes process-wide state, writes into its
arguments, calls back into Python, returns its argument or a view of it, answers a question
about memory that a graph does not keep, or makes objects other than numeric arrays (iterators,
matrices, strings); every ufunc is pure (its ``at`` method, which writes in
place, never takes this path). ``DATA_SHAPED`` names the pure functions whose result's length
depends on the values (its dims are unknown until the graph runs, whatever a probe finds);
``STATIC_QUERIES`` those whose answer depends on dtypes alone, ``SHAPE_QUERIES`` those whose
answer depends on dtypes and shapes alone (both answered while the graph is built, from stand-ins
of the tensors' types), and ``BUILD_TIME`` those that take shapes, dtypes and callables rather
than array values: converted code evaluates them while the graph is built (a tensor argument,
a value known only when the graph runs, makes them fall back). Random draws are never host
calls: ``ops.random`` makes them effects.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np

SPACES: dict[str, types.ModuleType] = {"": np, "linalg": np.linalg, "fft": np.fft}

_IO = "reads or writes files"
_TEXT = "formats text or prints (no array result to compute)"
_STATE = "reads or changes process-wide settings"
_DATETIME = "works on datetime64 values, which tograph does not carry"
_WRITES = "writes into its argument in place"
_CALLBACK_PER_ELEMENT = "calls a Python function once per element, on NumPy scalars"
_CALLBACK = "calls back into a Python function"
_ALIAS = "returns its argument itself or a view of it, which a host call cannot track"
_MEMORY = "asks about memory layout or sharing (storage, not values), which a graph does not keep"
_ITERATOR = "makes an iterator over the array's memory or its elements"
_MATRIX = "makes an np.matrix, whose operators differ from an array's"
_BUFFER = "reads the memory of a buffer or a foreign array"
_DTYPE_BY_VALUE = "its result's dtype depends on the values (real or complex)"
_POLY1D = "makes a poly1d object, which a graph cannot carry"
_NOT_NUMERIC = "makes strings, bytes, records or Python objects, which a graph cannot carry"

# name (as ``SPACES`` reaches it) -> why the function never runs as a host call.
IMPURE: dict[str, str] = {
    **dict.fromkeys(
        "load save savez savez_compressed loadtxt savetxt genfromtxt fromfile fromregex "
        "memmap DataSource".split(),
        _IO,
    ),
    **dict.fromkeys(
        "array2string array_repr array_str format_float_positional format_float_scientific "
        "base_repr binary_repr typename set_printoptions get_printoptions printoptions info "
        "show_config show_runtime get_include test linalg.test fft.test".split(),
        _TEXT,
    ),
    **dict.fromkeys(
        "seterr geterr seterrcall geterrcall errstate setbufsize getbufsize".split(), _STATE
    ),
    **dict.fromkeys(
        "busday_count busday_offset is_busday datetime_as_string datetime_data isnat "
        "busdaycalendar datetime64 timedelta64".split(),
        _DATETIME,
    ),
    **dict.fromkeys("place put putmask copyto fill_diagonal put_along_axis".split(), _WRITES),
    **dict.fromkeys(
        "apply_along_axis apply_over_axes piecewise fromfunction fromiter mask_indices".split(),
        _CALLBACK,
    ),
    **dict.fromkeys("vectorize frompyfunc".split(), _CALLBACK_PER_ELEMENT),
    **dict.fromkeys(
        "asarray asanyarray ascontiguousarray asfortranarray asarray_chkfinite require "
        "rollaxis rot90 dsplit unstack linalg.diagonal linalg.matrix_transpose broadcast_to "
        "ravel squeeze transpose moveaxis swapaxes expand_dims reshape matrix_transpose "
        "permute_dims trim_zeros".split(),
        _ALIAS,
    ),
    **dict.fromkeys("asmatrix bmat matrix".split(), _MATRIX),
    **dict.fromkeys("frombuffer from_dlpack".split(), _BUFFER),
    **dict.fromkeys("real_if_close roots".split(), _DTYPE_BY_VALUE),
    "poly1d": _POLY1D,
    **dict.fromkeys("bytes_ str_ void object_ record recarray".split(), _NOT_NUMERIC),
    **dict.fromkeys("may_share_memory shares_memory isfortran".split(), _MEMORY),
    **dict.fromkeys("nditer nested_iters ndenumerate broadcast flatiter".split(), _ITERATOR),
}

# Pure functions whose result has dims that depend on the values, not only on the shapes.
DATA_SHAPED = frozenset(
    "bincount polyadd polysub polymul polydiv unique unique_all unique_counts "
    "unique_inverse unique_values setdiff1d intersect1d union1d setxor1d argwhere flatnonzero "
    "nonzero extract compress".split()
)

# Pure functions whose answer depends only on their arguments' dtypes (and Python scalars).
STATIC_QUERIES = frozenset(
    "iscomplexobj isrealobj result_type common_type can_cast min_scalar_type".split()
)

# Pure functions whose answer depends only on their arguments' dtypes and shapes (np.dtype of
# an array raises, of a NumPy scalar gives its dtype).
SHAPE_QUERIES = frozenset({"einsum_path", "dtype"})

# Functions of shapes, counts and callables, evaluated while the graph is built.
BUILD_TIME = frozenset({"ndindex", "mintypecode"})

STATIC = STATIC_QUERIES | SHAPE_QUERIES | BUILD_TIME


def name_of(fn: Any) -> str | None:
    """The name under which ``SPACES`` holds ``fn`` (``"median"``, ``"linalg.norm"``), if any."""
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str) or name.startswith("_"):
        return None
    for space, module in SPACES.items():
        if getattr(module, name, None) is fn:
            return f"{space}.{name}" if space else name
    return None


def resolve(path: str) -> Any:
    """The callable ``path`` names in NumPy's own namespaces (None if there is none)."""
    space, _, name = path.rpartition(".")
    module = SPACES.get(space)
    if module is None or not name.isidentifier() or name.startswith("_"):
        return None
    found = getattr(module, name, None)
    return found if callable(found) else None


def why_impure(path: str) -> str | None:
    """Why the NumPy callable named ``path`` may not be a host call; None when it may."""
    fn = resolve(path)
    if fn is None:
        return "is not a public callable of np, np.linalg or np.fft"
    if isinstance(fn, np.ufunc):
        return _DATETIME if path == "isnat" else None
    if path in STATIC:
        return None
    if path in IMPURE:
        return IMPURE[path]
    if isinstance(fn, type):
        return "is a type: calling it converts or constructs"
    return None


def is_pure(fn: Any) -> bool:
    """Whether ``fn`` is a NumPy callable that may run as a host call."""
    path = name_of(fn)
    return path is not None and why_impure(path) is None


def public_callables() -> dict[str, Any]:
    """Every public callable of ``np``, ``np.linalg`` and ``np.fft``, by name, classes included
    (the coverage table's rows)."""
    found: dict[str, Any] = {}
    for space, module in SPACES.items():
        for name in sorted(dir(module)):
            value = getattr(module, name)
            if name.startswith("_") or isinstance(value, types.ModuleType) or not callable(value):
                continue
            found[f"{space}.{name}" if space else name] = value
    return found
