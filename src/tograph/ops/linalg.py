"""Linear-algebra primitives: matmul, dot, tensordot, einsum, norm, trace and diag.

Stage: graph building. Input: ``a @ b`` and NumPy linear-algebra calls on tensors. Output: one
equation per call (``np.outer`` becomes two reshapes and a multiply; ``np.inner`` a tensordot, or a
multiply for scalars). Type rules check that contracted dimensions agree, naming both shapes:
``matmul: shapes (3, 4) and (5, 2) are not aligned (4 != 5)``. Result dtypes are NumPy's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, elementwise, indexing, shape
from tograph.trace import dispatch


def _check_aligned(
    op: str, a: types.TensorType, b: types.TensorType, ka: types.Dim, kb: types.Dim
) -> None:
    if ka is not None and kb is not None and ka != kb:
        raise errors.ShapeError(
            f"{op}: shapes {common.fmt(a.shape)} and {common.fmt(b.shape)} are not aligned "
            f"({ka} != {kb})"
        )


# ---- matmul, dot, tensordot --------------------------------------------------------------


def _matmul_rule(a: types.TensorType, b: types.TensorType) -> types.TensorType:
    shapes = f"{common.fmt(a.shape)} and {common.fmt(b.shape)}"
    if a.ndim == 0 or b.ndim == 0:
        raise errors.ShapeError(
            f"matmul: scalar operands are not allowed, use '*' instead (shapes {shapes})"
        )
    a2 = a.shape if a.ndim > 1 else (1,) + a.shape
    b2 = b.shape if b.ndim > 1 else b.shape + (1,)
    _check_aligned("matmul", a, b, a2[-1], b2[-2])
    try:
        batch = types.broadcast_shapes(a2[:-2], b2[:-2])
    except errors.ShapeError:
        raise errors.ShapeError(
            f"matmul: batch dimensions of shapes {shapes} cannot be broadcast together"
        ) from None
    rows = a2[-2:-1] if a.ndim > 1 else ()
    cols = b2[-1:] if b.ndim > 1 else ()
    return types.TensorType(common.probe_dtype("matmul", np.matmul, (a, b)), batch + rows + cols)


def _dot_rule(a: types.TensorType, b: types.TensorType) -> types.TensorType:
    dtype = common.probe_dtype("dot", np.dot, (a, b))
    if a.ndim == 0 or b.ndim == 0:
        return types.TensorType(dtype, (b if a.ndim == 0 else a).shape)
    k = 0 if b.ndim == 1 else b.ndim - 2
    _check_aligned("dot", a, b, a.shape[-1], b.shape[k])
    return types.TensorType(dtype, a.shape[:-1] + b.shape[:k] + b.shape[k + 1 :])


def _tensordot_rule(
    a: types.TensorType, b: types.TensorType, *, axes: tuple[tuple[int, ...], tuple[int, ...]]
) -> types.TensorType:
    a_axes = common.axis_sequence(axes[0], a, "tensordot")
    b_axes = common.axis_sequence(axes[1], b, "tensordot")
    if len(a_axes) != len(b_axes):
        raise errors.ShapeError(f"tensordot: axes {a_axes} and {b_axes} differ in length")
    for i, j in zip(a_axes, b_axes):
        _check_aligned(f"tensordot over axes {a_axes} and {b_axes}", a, b, a.shape[i], b.shape[j])
    dtype = common.probe_dtype("tensordot", np.tensordot, (a, b), axes=(a_axes, b_axes))
    free_a = tuple(d for i, d in enumerate(a.shape) if i not in a_axes)
    free_b = tuple(d for j, d in enumerate(b.shape) if j not in b_axes)
    return types.TensorType(dtype, free_a + free_b)


matmul_p = primitives.Primitive(
    "matmul",
    np.matmul,
    _matmul_rule,
    emit=lambda ctx, eqn, args: f"({args[0]} @ {args[1]})",
    layout="C",
)
dot_p = primitives.Primitive("dot", np.dot, _dot_rule, layout="C")
tensordot_p = primitives.Primitive("tensordot", np.tensordot, _tensordot_rule)


@dispatch.implements(np.matmul)
def matmul(a: Any, b: Any, **kwargs: Any) -> Any:
    """``np.matmul`` (the ``@`` operator binds ``matmul_p`` directly)."""
    kwargs.pop("out", None)
    if kwargs:
        raise dispatch.unsupported(f"np.matmul with {', '.join(f'{k}=' for k in sorted(kwargs))}")
    return matmul_p.bind(a, b)


@dispatch.implements(np.dot)
def dot(a: Any, b: Any, out: Any = None) -> Any:
    """``np.dot``: a product for scalars, else a sum over the last axis of ``a`` and the
    second-to-last of ``b`` (the only axis of a 1-D ``b``)."""
    if out is not None:
        raise dispatch.unsupported("np.dot with out=")
    return dot_p.bind(a, b)


@dispatch.implements(np.tensordot)
def tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    """``np.tensordot``; ``axes`` is n (last n axes of ``a`` with first n of ``b``) or two lists."""
    ta, tb = common.operand_type(a), common.operand_type(b)
    if isinstance(axes, (int, np.integer)):
        if not 0 <= axes <= min(ta.ndim, tb.ndim):
            raise errors.ShapeError(
                f"tensordot: cannot sum over {axes} axes of shapes {common.fmt(ta.shape)} "
                f"and {common.fmt(tb.shape)}"
            )
        pair = (tuple(range(ta.ndim - axes, ta.ndim)), tuple(range(axes)))
    else:
        pair = (
            common.axis_sequence(axes[0], ta, "tensordot"),
            common.axis_sequence(axes[1], tb, "tensordot"),
        )
    return tensordot_p.bind(a, b, axes=pair)


@dispatch.implements(np.inner)
def inner(a: Any, b: Any) -> Any:
    """``np.inner``: a sum over the last axes, or a product if either operand is a scalar."""
    ta, tb = common.operand_type(a), common.operand_type(b)
    if ta.ndim == 0 or tb.ndim == 0:
        # NumPy converts both operands to arrays first, so Python scalars are not weak here.
        strong = [
            elementwise.astype_p.bind(v, dtype=t.dtype, weak=False) if t.weak else v
            for v, t in ((a, ta), (b, tb))
        ]
        return elementwise.multiply_p.bind(*strong)
    product = tensordot_p.bind(a, b, axes=((ta.ndim - 1,), (tb.ndim - 1,)))
    # np.tensordot of two vectors is a 0-d array, np.inner's a NumPy scalar
    return indexing.element(product) if ta.ndim == tb.ndim == 1 else product


@dispatch.implements(np.outer)
def outer(a: Any, b: Any, out: Any = None) -> Any:
    """``np.outer`` of the flattened operands: ``a.reshape(-1, 1) * b.reshape(1, -1)``."""
    if out is not None:
        raise dispatch.unsupported("np.outer with out=")
    return elementwise.multiply_p.bind(
        shape.reshape_p.bind(a, shape=(-1, 1)), shape.reshape_p.bind(b, shape=(1, -1))
    )


# ---- einsum ------------------------------------------------------------------------------


def _einsum_terms(subscripts: str, xs: Sequence[types.TensorType]) -> tuple[list[str], str]:
    """The input terms and the output term of ``subscripts`` (the implicit output made explicit)."""
    lhs, arrow, rhs = subscripts.replace(" ", "").partition("->")
    terms = lhs.split(",")
    if len(terms) != len(xs):
        raise errors.ShapeError(
            f"einsum: subscripts {subscripts!r} are for {len(terms)} operands, got {len(xs)}"
        )
    for term in terms + [rhs]:
        if not term.replace("...", "", 1).isalpha() and term.replace("...", "", 1):
            raise errors.ShapeError(
                f"einsum: invalid subscripts {subscripts!r}: use letters and one '...' per term"
            )
    if not arrow:
        once = sorted(c for c in set(lhs) if c.isalpha() and lhs.count(c) == 1)
        rhs = ("..." if "..." in lhs else "") + "".join(once)
    return terms, rhs


def _einsum_shape(subscripts: str, xs: Sequence[types.TensorType]) -> types.Shape:
    terms, rhs = _einsum_terms(subscripts, xs)
    sizes: dict[str, list[types.Dim]] = {}
    ellipses: list[types.Shape] = []
    for term, x in zip(terms, xs):
        pre, dots, post = term.partition("...")
        n_dots = x.ndim - len(pre) - len(post)
        if n_dots < 0 or (n_dots and not dots):
            raise errors.ShapeError(
                f"einsum: operand of shape {common.fmt(x.shape)} does not fit subscripts {term!r}"
            )
        ellipses.append(x.shape[len(pre) : len(pre) + n_dots])
        for label, dim in zip(pre + post, x.shape[: len(pre)] + x.shape[len(pre) + n_dots :]):
            sizes.setdefault(label, []).append(dim)
    try:
        dims = {c: types.broadcast_shapes(*((d,) for d in ds))[0] for c, ds in sizes.items()}
        dotted = types.broadcast_shapes(*ellipses)
    except errors.ShapeError:
        shapes = ", ".join(common.fmt(x.shape) for x in xs)
        raise errors.ShapeError(
            f"einsum: operands of shapes {shapes} disagree on a dimension of {subscripts!r}"
        ) from None
    pre, dots, post = rhs.partition("...")
    if any(c not in dims for c in pre + post) or len(set(pre + post)) != len(pre + post):
        raise errors.ShapeError(
            f"einsum: invalid output subscripts {rhs!r} for inputs {','.join(terms)!r}"
        )
    if dotted and not dots:
        raise errors.ShapeError(
            f"einsum: the output of {subscripts!r} needs '...' for the broadcast dimensions"
        )
    return tuple(dims[c] for c in pre) + (dotted if dots else ()) + tuple(dims[c] for c in post)


def _einsum_impl(*operands: Any, subscripts: str) -> Any:
    return np.einsum(subscripts, *operands)


def _einsum_rule(*xs: types.TensorType, subscripts: str) -> types.TensorType:
    out_shape = _einsum_shape(subscripts, xs)
    return types.TensorType(
        common.probe_dtype("einsum", _einsum_impl, xs, subscripts=subscripts), out_shape
    )


einsum_p = primitives.Primitive("einsum", _einsum_impl, _einsum_rule, views=True)


@dispatch.implements(np.einsum)
def einsum(*operands: Any, out: Any = None, **kwargs: Any) -> Any:
    """``np.einsum`` with static subscripts (``"ij,jk->ik"``); ``optimize=`` is ignored."""
    kwargs.pop("optimize", None)
    if out is not None or kwargs or not isinstance(operands[0], str):
        raise dispatch.unsupported("np.einsum with out=, dtype=, casting= or subscripts as lists")
    subscripts, *arrays = operands
    terms, rhs = _einsum_terms(subscripts, [common.operand_type(a) for a in arrays])
    return einsum_p.bind(*arrays, subscripts=f"{','.join(terms)}->{rhs}")


# ---- norm, trace, diag -------------------------------------------------------------------

_MATRIX_ORDS = (None, "fro", "nuc", math.inf, -math.inf, 1, -1, 2, -2)


def _norm_rule(
    x: types.TensorType, *, ord: Any, axis: tuple[int, ...] | None, keepdims: bool
) -> types.TensorType:
    axes = tuple(range(x.ndim)) if axis is None else common.axis_sequence(axis, x, "norm")
    if (axis is not None or ord is not None) and len(axes) not in (1, 2):
        raise errors.ShapeError(
            f"norm: ord={ord!r} needs one or two axes, got shape {common.fmt(x.shape)} "
            f"and axis={axis}"
        )
    if len(axes) == 1 and ord is not None and isinstance(ord, str):
        raise errors.ShapeError(f"norm: invalid norm order {ord!r} for vectors")
    if len(axes) == 2 and ord not in _MATRIX_ORDS:
        raise errors.ShapeError(f"norm: invalid norm order {ord!r} for matrices")
    dtype = common.probe_dtype("norm", np.linalg.norm, (x,), ord=ord, axis=axis, keepdims=keepdims)
    return types.TensorType(dtype, common.reduced_shape(x, tuple(sorted(axes)), keepdims))


def _trace_rule(
    x: types.TensorType, *, offset: int, axis1: int, axis2: int, dtype: np.dtype | None
) -> types.TensorType:
    if x.ndim < 2:
        raise errors.ShapeError(
            f"trace: array must be at least 2-d, got shape {common.fmt(x.shape)}"
        )
    i, j = (common.normalize_axis(a, x, "trace") for a in (axis1, axis2))
    if i == j:
        raise errors.ShapeError(f"trace: axis1 and axis2 cannot be the same (both {i})")
    out_dtype = common.probe_dtype(
        "trace", np.trace, (x,), offset=offset, axis1=i, axis2=j, dtype=dtype
    )
    return types.TensorType(out_dtype, tuple(d for k, d in enumerate(x.shape) if k not in (i, j)))


def _diag_rule(v: types.TensorType, *, k: int) -> types.TensorType:
    if v.ndim == 1:
        n = v.shape[0]
        return v.with_shape((None, None) if n is None else (n + abs(k),) * 2).strong()
    if v.ndim != 2:
        raise errors.ShapeError(f"diag: input must be 1-d or 2-d, got shape {common.fmt(v.shape)}")
    rows, cols = v.shape
    if rows is None or cols is None:
        return v.with_shape((None,))
    return v.with_shape((max(0, min(rows, cols - k) if k >= 0 else min(rows + k, cols)),))


norm_p = primitives.Primitive("norm", np.linalg.norm, _norm_rule)
trace_p = primitives.Primitive("trace", np.trace, _trace_rule)


def _diag_impl(v: Any, k: int = 0) -> Any:
    """``np.diag``, a new array: the diagonal of a 2-d array (which ``np.diagonal``'s view
    primitive takes now) only from a graph saved before, copied as the graph expects."""
    out = np.diag(v, k)
    return out.copy() if np.ndim(v) == 2 else out


diag_p = primitives.Primitive("diag", _diag_impl, _diag_rule)


@dispatch.implements(np.linalg.norm)
def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    """``np.linalg.norm`` for vector and matrix orders (None, 'fro', 'nuc', inf, -inf, ints)."""
    if axis is not None:
        axis = common.axis_sequence(axis, common.operand_type(x), "norm")
    return norm_p.bind(x, ord=ord, axis=axis, keepdims=bool(keepdims))


@dispatch.implements(np.trace)
def trace(
    a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None
) -> Any:
    """``np.trace``: the sum along a diagonal."""
    if out is not None:
        raise dispatch.unsupported("np.trace with out=")
    return trace_p.bind(
        a,
        offset=int(offset),
        axis1=int(axis1),
        axis2=int(axis2),
        dtype=None if dtype is None else np.dtype(dtype),
    )


@dispatch.implements(np.diag)
def diag(v: Any, k: int = 0) -> Any:
    """``np.diag``: the k-th diagonal of a 2-d array (NumPy's ``diagonal``, a read-only view),
    or a new 2-d array with ``v`` on it."""
    if common.operand_type(v).ndim == 2:
        return np.diagonal(v, k)
    return diag_p.bind(v, k=int(k))


@dispatch.implements(np.diagflat)
def diagflat(v: Any, k: int = 0) -> Any:
    """``np.diagflat``: a 2-d array with ``v``, flattened, on its k-th diagonal (what NumPy
    builds is ``np.diag`` of the flattened values)."""
    return diag_p.bind(shape.ravel(v), k=int(k))
