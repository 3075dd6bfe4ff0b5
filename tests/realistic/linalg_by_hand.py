"""Linear algebra as numerical-analysis homework writes it: LU with partial pivoting that
records the swaps and the determinant's sign, forward and back substitution, modified
Gram-Schmidt, Givens rotations for least squares, the QR algorithm for eigenvalues of a
symmetric matrix, a Rayleigh-quotient iteration, and the condition number by power iteration
on A^T A and its inverse."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("linalg")

S3 = np.array([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]])
N3 = np.array([[0.0, 2.0, 1.0], [1.0, 1.0, 1.0], [2.0, 1.0, 0.0]])
TALL = np.array([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0], [1.0, 4.0]])
RHS = np.array([6.0, 5.0, 7.0, 10.0])


@CASES.case(args=[(N3,), (S3,), (S3.astype(np.float32),), (np.array([[1.0, 2.0], [2.0, 4.0]]),)])
def lu_partial_pivoting_det(A):
    """PA = LU by Doolittle with row swaps, the permutation as a list, the determinant from
    the pivots and the swap parity; a zero pivot means a singular matrix (det 0.0)."""
    U = A.astype(float)
    n = U.shape[0]
    L = np.eye(n)
    perm = list(range(n))
    sign = 1
    for k in range(n - 1):
        p = k + int(np.argmax(np.abs(U[k:, k])))
        if U[p, k] == 0:
            return L, U, perm, 0.0
        if p != k:
            U[[k, p]] = U[[p, k]]
            L[[k, p], :k] = L[[p, k], :k]
            perm[k], perm[p] = perm[p], perm[k]
            sign = -sign
        for i in range(k + 1, n):
            L[i, k] = U[i, k] / U[k, k]
            U[i, k:] -= L[i, k] * U[k, k:]
    return L, U, perm, sign * np.prod(np.diag(U))


@CASES.case(args=[(np.tril(S3), np.array([1.0, 2.0, 3.0])), (np.triu(N3) + np.eye(3), np.ones(3))])
def triangular_solves(T, b):
    """Forward substitution when T is lower triangular, back substitution when upper, checked
    with np.allclose against the triangle itself."""
    n = len(b)
    x = np.zeros(n)
    if np.allclose(T, np.tril(T)):
        for i in range(n):
            x[i] = (b[i] - T[i, :i] @ x[:i]) / T[i, i]
    else:
        for i in range(n - 1, -1, -1):
            x[i] = (b[i] - T[i, i + 1 :] @ x[i + 1 :]) / T[i, i]
    return x


@CASES.case(args=[(TALL,), (S3,), (np.array([[1.0, 1.0], [1e-8, 0.0], [0.0, 1e-8]]),)])
def modified_gram_schmidt(A):
    """Modified Gram-Schmidt: each new column is orthogonalised against the finished ones one
    at a time; returns Q, R and the loss of orthogonality ||Q^T Q - I||."""
    m, n = A.shape
    Q = A.astype(float).copy()
    R = np.zeros((n, n))
    for j in range(n):
        R[j, j] = np.linalg.norm(Q[:, j])
        Q[:, j] /= R[j, j]
        for k in range(j + 1, n):
            R[j, k] = Q[:, j] @ Q[:, k]
            Q[:, k] -= R[j, k] * Q[:, j]
    return Q, R, np.linalg.norm(Q.T @ Q - np.eye(n))


@CASES.case(args=[(TALL, RHS), (TALL[:3], RHS[:3]), (S3, np.array([1.0, 0.0, 0.0]))])
def givens_least_squares(A, b):
    """Least squares by Givens rotations zeroing below the diagonal (math.hypot for r), then a
    back substitution on the square top; the residual norm is what is left in the tail."""
    R = A.astype(float).copy()
    y = b.astype(float).copy()
    m, n = R.shape
    for j in range(n):
        for i in range(m - 1, j, -1):
            a, c_ = R[i - 1, j], R[i, j]
            if c_ == 0:
                continue
            r = math.hypot(a, c_)
            c, s = a / r, c_ / r
            G = np.array([[c, s], [-s, c]])
            R[[i - 1, i], j:] = G @ R[[i - 1, i], j:]
            y[[i - 1, i]] = G @ y[[i - 1, i]]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - R[i, i + 1 : n] @ x[i + 1 :]) / R[i, i]
    return x, float(np.linalg.norm(y[n:]))


@CASES.case(
    args=[(S3, 60), (np.diag([3.0, 1.0, 2.0]), 5), (np.array([[2.0, 1.0], [1.0, 2.0]]), 30)]
)
def qr_algorithm_symmetric(A, iters):
    """Unshifted QR iterations A <- RQ until the off-diagonal part is tiny; the eigenvalues
    sorted descending and the number of iterations used."""
    Ak = A.copy()
    for k in range(iters):
        off = np.sqrt(np.sum(np.tril(Ak, -1) ** 2))
        if off < 1e-12:
            return np.sort(np.diag(Ak))[::-1], k
        Q, R = np.linalg.qr(Ak)
        Ak = R @ Q
    return np.sort(np.diag(Ak))[::-1], iters


@CASES.case(
    args=[
        (S3, np.array([1.0, 0.0, 0.0])),
        (S3, np.array([0.0, 1.0, 1.0])),
        (np.eye(2) * 2, np.array([1.0, 1.0])),
    ]
)
def rayleigh_quotient_iteration(A, v):
    """Rayleigh quotient iteration: solve with the shifted matrix, normalise, update the shift;
    stops when the residual is small or the shifted matrix is singular (exact eigenvalue)."""
    v = v / np.linalg.norm(v)
    mu = v @ A @ v
    n = len(v)
    for it in range(20):
        M = A - mu * np.eye(n)
        if abs(np.linalg.det(M)) < 1e-14:
            return mu, v, it
        w = np.linalg.solve(M, v)
        v = w / np.linalg.norm(w)
        mu = v @ A @ v
        if np.linalg.norm(A @ v - mu * v) < 1e-12:
            return mu, v, it + 1
    return mu, v, 20


@CASES.case(args=[(S3, 40), (TALL, 40), (np.diag([1.0, 1e-3]), 10)])
def condition_by_power_iteration(A, iters):
    """The 2-norm condition number: the largest singular value by power iteration on A^T A, the
    smallest by power iteration on its inverse (solves, not an inverse)."""
    B = A.T @ A
    n = B.shape[0]
    v = np.ones(n) / math.sqrt(n)
    w = v.copy()
    big = small = 0.0
    for _ in range(iters):
        v = B @ v
        big = np.linalg.norm(v)
        v /= big
        w = np.linalg.solve(B, w)
        small = np.linalg.norm(w)
        w /= small
    return math.sqrt(big * small), math.sqrt(big), 1 / math.sqrt(small)
