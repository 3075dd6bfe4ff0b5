"""NumPy's own float64 kernels, called from numba code: matrix products by the BLAS ``dgemm``
NumPy's ``matmul`` calls, and ``tanh``, ``exp``, ``log`` and their kin by the inner loop NumPy's
ufunc runs on this CPU.

Stage: execute (imported by the numba modules ``numba_code`` writes for graphs using one, and by
``numba_exec``, which checks them first with ``agrees``; imports numba). Output: the helpers
``matmul_f64`` and ``<name>_f64``, and their ``_into`` forms writing into a given array.

Why: numba has no bit-exact copy of OpenBLAS's kernels nor of NumPy's SIMD ones, but it can call
them. A compiled loop making the very calls eager NumPy makes gets the very bits, without an
interpreter trip per operation (W2, an RNN of small matrices, spends most of its time in them).

What NumPy calls (NumPy 2.x: ``umath/matmul.c.src`` and the ufunc loop tables):

* ``a @ b`` of C-contiguous float64 matrices of shapes ``(m, n)`` and ``(n, p)`` with ``m``,
  ``n`` and ``p`` all at least 2 calls the BLAS it links once, as ``dgemm(RowMajor, NoTrans,
  NoTrans, m, p, n, 1.0, a, n, b, p, 0.0, out, p)`` into a fresh C-contiguous ``out``. A
  dimension of 1 takes ``gemv`` or a dot, of 0 a plain loop; other layouts are copied or passed
  transposed (and ``a @ a.T`` takes ``syrk``). ``matmul_f64`` makes the same call and raises for
  anything else, which sends the call to the NumPy executor. The BLAS is found as NumPy's own
  extension module resolves it (``dlsym`` on that module, so the library it links), under the
  64-bit-integer names NumPy's wheels use (``scipy_cblas_dgemm64_``); another BLAS build keeps
  matrix products on NumPy.
* a unary float64 ufunc on a contiguous array calls the first ``d->d`` loop of its table once
  over the whole array, ``loop(args, dimensions, steps, data)``; the table holds the SIMD kernel
  NumPy chose for this CPU when it loaded. ``<name>_f64`` calls that loop the same way; its
  pointer is read from the ufunc object (``PyUFuncObject``: ``functions``, ``data``, ``types``),
  after checking the fields read back the ufunc's own name, arity and type list. A loop that
  needs its ``data`` pointer is not used (compiled code keeps no process addresses).

Floating-point flags: a compiled graph reports the flags raised while it ran (``numba_kernels``),
and NumPy clears them before each ufunc call and reads them after, but some of its loops clear
them too (on the benchmark machine, ``tanh``'s drops an overflow raised before it). So each
helper reads the flags a graph reports that were raised so far, makes its call, and raises them
again if there were any: the graph ends with every flag NumPy would have seen in one of its
calls. (Clearing them first, as NumPy does, would change nothing the graph reports, and clearing
and raising the inexact flag at every call cost W2 a tenth of its time.)

Destination: ``<name>_f64_into(..., out)`` writes into ``out`` when it has the result's shape
(else into a new array) and returns the array written. ``numba_code`` passes a buffer a loop
reuses from one step to the next where the value it held is dead by then: W2 spent a sixth of
its time allocating its steps' matrices.

The compiled code calls them by symbol names registered with LLVM when this module is imported,
so numba's on-disk cache keeps no addresses and serves later processes. ``agrees(name)`` checks,
once per process, that the found functions give NumPy's bits: each unary loop on 25,000 probe
values (``numba_libm.probe_values``), whole and in short runs at every alignment, and ``dgemm``
against ``np.matmul`` on random matrices of several shapes, and of each static shape a graph
multiplies (``matmul_agrees``). A kernel of another lineage differs
on a share of such values, so a disagreement keeps the graph on NumPy.
"""

from __future__ import annotations

import ctypes
import functools
import sysconfig
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
from llvmlite import binding
from numba import types

from tograph.backend import numba_code, numba_kernels, numba_libm

UNARY = numba_code.NUMPY_UNARY
_DGEMM_NAMES = ("scipy_cblas_dgemm64_", "cblas_dgemm64_")
_ROW_MAJOR, _NO_TRANS = 101, 111
_ITEM = 8


class _UFuncHead(ctypes.Structure):
    """The leading fields of NumPy's ``PyUFuncObject``."""

    _fields_ = [
        ("ob_refcnt", ctypes.c_ssize_t),
        ("ob_type", ctypes.c_void_p),
        ("nin", ctypes.c_int),
        ("nout", ctypes.c_int),
        ("nargs", ctypes.c_int),
        ("identity", ctypes.c_int),
        ("functions", ctypes.POINTER(ctypes.c_void_p)),
        ("data", ctypes.POINTER(ctypes.c_void_p)),
        ("ntypes", ctypes.c_int),
        ("reserved1", ctypes.c_int),
        ("name", ctypes.c_char_p),
        ("types", ctypes.POINTER(ctypes.c_ubyte)),
    ]


def _loop_address(name: str) -> int | None:
    """The address of ``np.<name>``'s float64 loop, or None when the ufunc object does not read
    back as expected or the loop needs its data pointer."""
    ufunc = getattr(np, name)
    if sysconfig.get_config_var("Py_GIL_DISABLED"):  # another object header
        return None
    head = _UFuncHead.from_address(id(ufunc))
    if head.ob_type != id(np.ufunc):  # the header is not where it is read: read no pointer
        return None
    if (head.nin, head.nout, head.nargs) != (1, 1, 2) or head.ntypes != len(ufunc.types):
        return None
    if head.name != name.encode():
        return None
    codes = [head.types[k] for k in range(2 * head.ntypes)]
    expected = [np.dtype(c).num for sig in ufunc.types for c in sig.split("->")]
    if codes != expected or "d->d" not in ufunc.types:
        return None
    k = ufunc.types.index("d->d")
    if head.data[k] or not head.functions[k]:
        return None
    return int(head.functions[k])


def _dgemm_address() -> int | None:
    """The address of the ILP64 ``cblas_dgemm`` NumPy's extension module links, or None."""
    from numpy._core import _multiarray_umath

    library = ctypes.CDLL(_multiarray_umath.__file__)
    for symbol in _DGEMM_NAMES:
        try:
            return int(ctypes.cast(getattr(library, symbol), ctypes.c_void_p).value or 0) or None
        except AttributeError:
            continue
    return None


def _symbol(name: str) -> str:
    return f"tograph_numpy_{name}"


_LOOP_SIGNATURE = types.void(types.intp, types.intp, types.intp, types.intp)
_DGEMM_SIGNATURE = types.void(
    *(types.int32, types.int32, types.int32, types.int64, types.int64, types.int64),
    *(types.float64, types.intp, types.int64, types.intp, types.int64),
    *(types.float64, types.intp, types.int64),
)
_LOOP_CTYPE = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * 4)
_DGEMM_CTYPE = ctypes.CFUNCTYPE(
    None,
    *(ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64),
    *(ctypes.c_double, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64),
    *(ctypes.c_double, ctypes.c_void_p, ctypes.c_int64),
)

ADDRESSES: dict[str, int] = {}
for _name in UNARY:
    _address = _loop_address(_name)
    if _address is not None:
        ADDRESSES[_name] = _address
_address = _dgemm_address()
if _address is not None:
    ADDRESSES["matmul"] = _address
for _name, _address in ADDRESSES.items():
    binding.add_symbol(_symbol(_name), _address)


def _unary(name: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The numba helpers applying ``np.<name>``'s float64 loop to a C-contiguous array: into a
    new array, and into a given one (``<name>_f64_into``, see ``matmul_f64_into``)."""
    loop = types.ExternalFunction(_symbol(name), _LOOP_SIGNATURE)

    # no disk cache: one source line for every function; written into each caller, where the
    # test of ``out``'s shape costs nothing (called, a tenth of W2's time)
    @numba.njit(error_model="numpy", inline="always")
    def apply_into(x: np.ndarray, out: np.ndarray) -> np.ndarray:
        if out.shape != x.shape:
            out = np.empty_like(x)
        # args[0:2], dimensions[2:3], steps[3:5], as NumPy passes them for contiguous arrays
        frame = np.empty(5, np.intp)
        frame[0], frame[1], frame[2] = x.ctypes.data, out.ctypes.data, x.size
        frame[3], frame[4] = _ITEM, _ITEM
        at = frame.ctypes.data
        raised = _enter()
        loop(at, at + _ITEM * 2, at + _ITEM * 3, 0)
        _leave(raised)
        return out

    @numba.njit(error_model="numpy")
    def apply(x: np.ndarray) -> np.ndarray:
        return apply_into(x, np.empty_like(x))

    return apply, apply_into


_dgemm = types.ExternalFunction(_symbol("matmul"), _DGEMM_SIGNATURE)
_fetestexcept = types.ExternalFunction("fetestexcept", types.int32(types.int32))
_feraiseexcept = types.ExternalFunction("feraiseexcept", types.int32(types.int32))


@numba.njit(inline="always")
def _enter() -> int:
    """The flags a graph reports that were raised so far: some of NumPy's loops clear them."""
    return _fetestexcept(numba_kernels.WATCHED)


@numba.njit(inline="always")
def _leave(raised: int) -> None:
    """Raises again the flags of before the call, if any."""
    if raised:
        _feraiseexcept(raised)


@numba.njit(cache=True, error_model="numpy", inline="always")  # as ``apply_into``
def matmul_f64_into(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``a @ b`` of float64 matrices by NumPy's BLAS call, written into ``out`` when it has the
    product's shape and into a new array otherwise; returns the array written. Raises where
    NumPy would not make the call."""
    m, n = a.shape
    p = b.shape[1]
    if b.shape[0] != n or m < 2 or n < 2 or p < 2:
        raise ValueError("matmul: shapes NumPy does not pass to dgemm")
    if not (a.flags.c_contiguous and b.flags.c_contiguous):
        raise ValueError("matmul: layouts NumPy does not pass to dgemm as they are")
    if out.shape != (m, p):
        out = np.empty((m, p), np.float64)
    raised = _enter()
    _dgemm(
        _ROW_MAJOR, _NO_TRANS, _NO_TRANS, m, p, n,
        1.0, a.ctypes.data, n, b.ctypes.data, p, 0.0, out.ctypes.data, p,
    )  # fmt: skip
    _leave(raised)
    return out


@numba.njit(cache=True, error_model="numpy")
def matmul_f64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` of float64 matrices into a new array (``matmul_f64_into``)."""
    return matmul_f64_into(a, b, np.empty((a.shape[0], b.shape[1]), np.float64))


tanh_f64, tanh_f64_into = _unary("tanh")
exp_f64, exp_f64_into = _unary("exp")
log_f64, log_f64_into = _unary("log")
expm1_f64, expm1_f64_into = _unary("expm1")
log1p_f64, log1p_f64_into = _unary("log1p")
sinh_f64, sinh_f64_into = _unary("sinh")
cosh_f64, cosh_f64_into = _unary("cosh")
arctan_f64, arctan_f64_into = _unary("arctan")
log2_f64, log2_f64_into = _unary("log2")
log10_f64, log10_f64_into = _unary("log10")


def helper(name: str) -> str:
    """The name of the helper computing ``name`` ("matmul" or one of ``UNARY``) into a new
    array; the one writing into a given array adds ``_into``."""
    return f"{name}_f64"


@functools.cache
def agrees(name: str) -> bool:
    """Whether the function found for ``name`` gives ``np.<name>``'s bits here (see module
    docstring)."""
    address = ADDRESSES.get(name)
    if address is None:
        return False
    with np.errstate(all="ignore"):
        if name == "matmul":
            return _dgemm_agrees(_DGEMM_CTYPE(address), _PROBE_SHAPES)
        return _loop_agrees(getattr(np, name), _LOOP_CTYPE(address))


def _loop_agrees(ufunc: np.ufunc, loop: Any) -> bool:
    x = numba_libm.probe_values()
    runs = [(0, x.size)] + [(start, length) for start in range(8) for length in range(1, 18)]
    for start, length in runs:
        part = np.ascontiguousarray(x[start : start + length])
        out = np.empty_like(part)
        frame = np.array([part.ctypes.data, out.ctypes.data, part.size, _ITEM, _ITEM], np.intp)
        at = frame.ctypes.data
        loop(at, at + _ITEM * 2, at + _ITEM * 3, None)
        if out.tobytes() != ufunc(part).tobytes():
            return False
    return True


@functools.cache
def matmul_agrees(m: int, n: int, p: int) -> bool:
    """Whether the ``dgemm`` found gives ``np.matmul``'s bits for ``(m, n) @ (n, p)`` here."""
    address = ADDRESSES.get("matmul")
    if address is None:
        return False
    with np.errstate(all="ignore"):
        return _dgemm_agrees(_DGEMM_CTYPE(address), [(m, n, p)])


_PROBE_SHAPES = [(2, 2, 2), (16, 32, 64), (16, 64, 64), (5, 3, 7), (33, 17, 65), (64, 96, 80)]


def _dgemm_agrees(dgemm: Any, shapes: list[tuple[int, int, int]]) -> bool:
    rng = np.random.default_rng(7)
    for m, n, p in shapes:
        for scale in (1.0, 1e-150, 1e150):
            a, b = rng.normal(size=(m, n)) * scale, rng.normal(size=(n, p))
            out = np.empty((m, p))
            dgemm(
                *(_ROW_MAJOR, _NO_TRANS, _NO_TRANS, m, p, n),
                *(1.0, a.ctypes.data, n, b.ctypes.data, p, 0.0, out.ctypes.data, p),
            )
            if out.tobytes() != (a @ b).tobytes():
                return False
    return True
