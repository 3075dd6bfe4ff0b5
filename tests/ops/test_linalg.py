"""Linear algebra: matmul, dot, inner, outer, tensordot, einsum, norm, trace, diag against NumPy."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import check, out_type, trace

from tograph import errors
from tograph.ir import types

DTYPES = [
    np.bool_,
    np.int8,
    np.int32,
    np.int64,
    np.uint16,
    np.float16,
    np.float32,
    np.float64,
    np.complex64,
]


def T(dtype, *dims):
    return types.TensorType(dtype, dims)


def sample(shape, dtype, seed=0):
    values = np.random.default_rng(seed).integers(0, 3, size=shape)
    return values.astype(dtype)


@st.composite
def matmul_shapes(draw):
    """Operand shapes that matmul accepts: 1-D or batched 2-D, with broadcastable batch dims."""
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    a_batch = tuple(d if draw(st.booleans()) else 1 for d in batch)[
        draw(st.integers(0, len(batch))) :
    ]
    a = draw(st.sampled_from([(k,), a_batch + (n, k)]))
    b = draw(st.sampled_from([(k,), batch + (k, m)]))
    return a, b


@settings(max_examples=200, deadline=None)
@given(matmul_shapes(), st.sampled_from(DTYPES), st.sampled_from(DTYPES))
def test_matmul_matches_numpy(shapes, da, db):
    a, b = sample(shapes[0], da), sample(shapes[1], db, seed=1)
    graph = check(lambda a, b: (a @ b, np.matmul(a, b)), a, b)
    assert str(graph).splitlines()[1].split(" = ")[1].startswith("matmul ")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(1, 3), max_size=3),
    st.lists(st.integers(1, 3), max_size=3),
    st.sampled_from(DTYPES),
    st.sampled_from(DTYPES),
)
def test_dot_inner_outer_match_numpy(sa, sb, da, db):
    sa, sb = tuple(sa), tuple(sb)
    a, b = sample(sa, da), sample(sb, db, seed=1)
    check(lambda a, b: np.outer(a, b), a, b)
    if sa and sb:
        b_dot = sample(sb[:-2] + (sa[-1],) + sb[-1:] if len(sb) > 1 else (sa[-1],), db, seed=2)
        check(lambda a, b: np.dot(a, b), a, b_dot)
        check(lambda a, b: np.inner(a, b), a, sample(sb[:-1] + (sa[-1],), db, seed=3))
    else:
        check(lambda a, b: (np.dot(a, b), np.inner(a, b)), a, b)


@pytest.mark.parametrize("scalar", [2, 1.5, True, np.float32(2.0)])
def test_products_with_scalars(scalar):
    x = sample((2, 3), np.float32)
    check(
        lambda s, x: (np.dot(s, x), np.dot(x, s), np.inner(s, x), np.inner(x, s), np.outer(s, x)),
        scalar,
        x,
    )


@pytest.mark.parametrize(
    "sa, sb, axes",
    [
        ((2, 3, 4), (3, 4, 5), 2),
        ((2, 3), (3, 2), 1),
        ((2, 3), (4,), 0),
        ((2, 3, 4), (4, 2, 3), ([1, 2], [2, 0])),
        ((2, 3), (2, 3), ((0, 1), (0, 1))),
        ((3, 4), (4, 3), (-1, 0)),
    ],
)
def test_tensordot(sa, sb, axes):
    check(
        lambda a, b: np.tensordot(a, b, axes), sample(sa, np.float64), sample(sb, np.int32, seed=1)
    )


@pytest.mark.parametrize(
    "subscripts, shapes",
    [
        ("ij,jk->ik", [(2, 3), (3, 4)]),
        ("ij,jk", [(2, 3), (3, 4)]),
        ("ii", [(3, 3)]),
        ("ii->i", [(3, 3)]),
        ("ij->ji", [(2, 3)]),
        ("i,i", [(3,), (3,)]),
        ("i,j->ij", [(2,), (3,)]),
        ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
        ("...j,j->...", [(2, 3, 4), (4,)]),
        ("...ij,...jk", [(5, 2, 3), (3, 4)]),
        ("ij", [(2, 3)]),
        ("ba", [(2, 3)]),
        (" i j , j ", [(2, 3), (3,)]),
        ("i,i", [(1,), (3,)]),
        ("Ab,bA->", [(2, 3), (3, 2)]),
        ("", [()]),
    ],
)
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_einsum(subscripts, shapes, dtype):
    operands = [sample(s, dtype, seed=i) for i, s in enumerate(shapes)]
    check(lambda *xs: np.einsum(subscripts, *xs), *operands)


def test_einsum_mixed_dtypes_and_subscripts_param():
    graph = check(
        lambda a, b: np.einsum("ij,j", a, b), sample((2, 3), np.float32), sample((3,), np.int64)
    )
    assert graph.eqns[0].params == {"subscripts": "ij,j->i"}


@pytest.mark.parametrize("ord", [None, 1, 2, -1, math.inf, -math.inf, 0, 3, 0.5])
def test_vector_norms(ord):
    v = np.array([3.0, -4.0, 1.0, 0.5])
    check(
        lambda v: (
            np.linalg.norm(v, ord),
            np.linalg.norm(v.astype(np.float32), ord, keepdims=True),
        ),
        v,
    )
    check(lambda m: np.linalg.norm(m, ord, axis=1), v.reshape(2, 2))


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
def test_matrix_norms(ord):
    m = sample((3, 3), np.float64) - 1.0
    check(lambda m: (np.linalg.norm(m, ord), np.linalg.norm(m, ord, axis=(1, 0), keepdims=True)), m)
    check(lambda m: np.linalg.norm(m, ord, axis=(2, 0)), sample((2, 3, 2), np.complex64))


def test_norm_of_integers_and_whole_arrays():
    check(
        lambda x: (np.linalg.norm(x), np.linalg.norm(x, axis=-1), np.linalg.norm(x, keepdims=True)),
        sample((2, 3, 4), np.int32),
    )
    check(lambda s: np.linalg.norm(s), -2.5)


def test_trace_and_diag():
    m = sample((3, 4), np.int8)
    check(lambda m: (np.trace(m), np.trace(m, 1), np.trace(m, -1, dtype=np.float32)), m)
    check(
        lambda x: (np.trace(x, axis1=2, axis2=0), np.trace(x, 0, -1, -2)),
        sample((2, 3, 2), np.float16),
    )
    check(
        lambda m: (
            np.diag(m),
            np.diag(m, 2),
            np.diag(m, -2),
            np.diag(m, 5),
            np.diag(m[0]),
            np.diag(m[0], -1),
        ),
        m,
    )
    check(lambda m: (np.diagflat(m), np.diagflat(m, -2), np.diagflat(m[0, 1], 1)), m)


def test_unknown_dims():
    assert out_type(lambda a, b: a @ b, T(np.float32, None, 3), T(np.float32, 3, None)) == T(
        np.float32, None, None
    )
    assert out_type(lambda a, b: a @ b, T(np.float64, 5, None, 4), T(np.float64, 4)) == T(
        np.float64, 5, None
    )
    assert out_type(lambda a, b: a @ b, T(np.float64, None), T(np.float64, 2, 4, 3)) == T(
        np.float64, 2, 3
    )
    assert out_type(
        lambda a, b: np.dot(a, b), T(np.float64, None, 3), T(np.float64, 2, 3, None)
    ) == T(np.float64, None, 2, None)
    assert out_type(lambda a, b: np.outer(a, b), T(np.float64, None, 2), T(np.int8, 3)) == T(
        np.float64, None, 3
    )
    assert out_type(lambda a: np.einsum("ij,jk->ki", a, a), T(np.float64, None, None)) == T(
        np.float64, None, None
    )
    assert out_type(lambda a: np.diag(a), T(np.float64, None)) == T(np.float64, None, None)
    assert out_type(lambda a: np.trace(a), T(np.int32, None, None, 4)) == T(np.int64, 4)
    check(
        lambda a, b: a @ b,
        sample((2, 3), np.float64),
        sample((3, 4), np.float64),
        unknown={0: (0, 1), 1: (1,)},
    )


def test_matmul_errors_name_both_shapes():
    with pytest.raises(
        errors.ShapeError,
        match=r"^matmul: shapes \(3, 4\) and \(5, 2\) are not aligned \(4 != 5\)$",
    ):
        out_type(lambda a, b: a @ b, T(np.float64, 3, 4), T(np.float64, 5, 2))
    with pytest.raises(
        errors.ShapeError, match=r"matmul: shapes \(3,\) and \(2, 3\) are not aligned \(3 != 2\)"
    ):
        out_type(lambda a, b: np.matmul(a, b), T(np.float64, 3), T(np.float64, 2, 3))
    with pytest.raises(
        errors.ShapeError, match=r"batch dimensions of shapes \(2, 3, 4\) and \(5, 4, 2\)"
    ):
        out_type(lambda a, b: a @ b, T(np.float64, 2, 3, 4), T(np.float64, 5, 4, 2))
    with pytest.raises(errors.ShapeError, match=r"scalar operands are not allowed"):
        out_type(lambda a: a @ np.ones(3), T(np.float64))


def test_other_shape_errors():
    f3, f45 = T(np.float64, 3), T(np.float64, 4, 5)
    with pytest.raises(
        errors.ShapeError, match=r"dot: shapes \(3,\) and \(4, 5\) are not aligned \(3 != 4\)"
    ):
        out_type(lambda a, b: np.dot(a, b), f3, f45)
    with pytest.raises(
        errors.ShapeError,
        match=r"tensordot over axes \(0,\) and \(1,\): "
        r"shapes \(3,\) and \(4, 5\) are not aligned \(3 != 5\)",
    ):
        out_type(lambda a, b: np.inner(a, b), f3, f45)
    with pytest.raises(
        errors.ShapeError, match=r"einsum: operands of shapes \(3,\), \(4, 5\) disagree"
    ):
        out_type(lambda a, b: np.einsum("i,ij", a, b), f3, f45)
    with pytest.raises(errors.ShapeError, match=r"are for 1 operands, got 2"):
        out_type(lambda a, b: np.einsum("i", a, b), f3, f45)
    with pytest.raises(errors.ShapeError, match=r"does not fit subscripts 'ijk'"):
        out_type(lambda a: np.einsum("ijk", a), f45)
    with pytest.raises(errors.ShapeError, match=r"invalid output subscripts 'z'"):
        out_type(lambda a: np.einsum("ij->z", a), f45)
    with pytest.raises(errors.ShapeError, match=r"invalid norm order 'fro' for vectors"):
        out_type(lambda a: np.linalg.norm(a, "fro"), f3)
    with pytest.raises(errors.ShapeError, match=r"invalid norm order 3 for matrices"):
        out_type(lambda a: np.linalg.norm(a, 3), f45)
    with pytest.raises(errors.ShapeError, match=r"needs one or two axes, got shape \(2, 3, 4\)"):
        out_type(lambda a: np.linalg.norm(a, 1), T(np.float64, 2, 3, 4))
    with pytest.raises(
        errors.ShapeError, match=r"trace: array must be at least 2-d, got shape \(3,\)"
    ):
        out_type(lambda a: np.trace(a), f3)
    with pytest.raises(errors.ShapeError, match=r"diag: input must be 1-d or 2-d, got shape \(\)"):
        out_type(lambda a: np.diag(a), T(np.float64))


def test_matmul_emits_operator():
    graph = trace(lambda a, b: a @ b, T(np.float64, 2, 3), T(np.float64, 3))
    (eqn,) = graph.eqns
    assert eqn.prim.emit(None, eqn, ["a", "b"]) == "(a @ b)"


def _spd(n, batch=()):
    rng = np.random.default_rng(7)
    m = rng.standard_normal(batch + (n, n))
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("batch", [(), (2,)], ids=str)
def test_inv_det_solve_match_numpy(dtype, batch):
    a = _spd(3, batch).astype(dtype)
    b_vec = np.arange(3.0).astype(dtype)
    b_mat = np.arange(6.0).reshape(3, 2).astype(dtype)
    check(np.linalg.inv, a)
    check(np.linalg.det, a)
    check(np.linalg.solve, a, b_mat)
    if not batch:
        check(np.linalg.solve, a, b_vec)


def test_solvers_reject_non_square_naming_the_shape():
    with pytest.raises(
        errors.ShapeError,
        match=r"inv: expected square matrices \(\.\.\., n, n\), got shape \(2, 3\)",
    ):
        out_type(np.linalg.inv, types.TensorType(np.float64, (2, 3)))
    with pytest.raises(
        errors.ShapeError, match=r"solve: a of shape \(3, 3\) and b of shape \(4,\) do not match"
    ):
        out_type(
            np.linalg.solve,
            types.TensorType(np.float64, (3, 3)),
            types.TensorType(np.float64, (4,)),
        )
