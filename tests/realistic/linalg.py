"""Linear algebra by loops as people write it: Gaussian elimination with partial pivoting and back
substitution, Doolittle LU, Cholesky, the Thomas algorithm, Jacobi and Gauss-Seidel sweeps, power
iteration with a Rayleigh quotient, Gram-Schmidt, and a determinant by elimination."""

import math

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import A3, B3, PERMUTED

CASES = Registry("linalg")

DOMINANT = np.array(
    [
        [10.0, -1.0, 2.0, 0.0],
        [-1.0, 11.0, -1.0, 3.0],
        [2.0, -1.0, 10.0, -1.0],
        [0.0, 3.0, -1.0, 8.0],
    ]
)
B4 = np.array([6.0, 25.0, -11.0, 15.0])


@CASES.case(args=[(A3,), (PERMUTED,), (np.eye(2, dtype=np.int64),)])
def determinant_by_elimination(m):
    """The determinant from row reduction, tracking the sign of row swaps."""
    a = np.array(m, dtype=float)
    n = a.shape[0]
    det = 1.0
    for col in range(n):
        pivot = col
        for row in range(col + 1, n):
            if abs(a[row, col]) > abs(a[pivot, col]):
                pivot = row
        if a[pivot, col] == 0:
            return 0.0
        if pivot != col:
            a[[col, pivot]] = a[[pivot, col]]
            det = -det
        det *= a[col, col]
        a[col + 1 :] -= np.outer(a[col + 1 :, col] / a[col, col], a[col])
    return det


@CASES.case(args=[(A3,), (DOMINANT,), (np.array([[2.0]]),)])
def doolittle_lu(a):
    n = a.shape[0]
    lower = np.eye(n)
    upper = np.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            total = 0.0
            for j in range(i):
                total += lower[i, j] * upper[j, k]
            upper[i, k] = a[i, k] - total
        for k in range(i + 1, n):
            total = 0.0
            for j in range(i):
                total += lower[k, j] * upper[j, i]
            lower[k, i] = (a[k, i] - total) / upper[i, i]
    return lower, upper


@CASES.case(args=[(A3,), (DOMINANT,), (-A3,)])
def cholesky_loops(a):
    """Cholesky-Banachiewicz row by row with ``math.sqrt``: a matrix that is not positive definite
    raises ``ValueError`` (math domain error) as it would in the plain function."""
    n = len(a)
    chol = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            s = sum(chol[i][k] * chol[j][k] for k in range(j))
            if i == j:
                chol[i][j] = math.sqrt(a[i][i] - s)
            else:
                chol[i][j] = 1.0 / chol[j][j] * (a[i][j] - s)
    return np.array(chol)


@CASES.case(
    args=[
        (np.array([0.0, 1.0, 1.0]), np.array([4.0, 4.0, 4.0]), np.array([1.0, 1.0, 0.0]), B3),
        (np.zeros(1), np.array([2.0]), np.zeros(1), np.array([3.0])),
    ]
)
def thomas(lower, diag, upper, rhs):
    """The tridiagonal solve; ``lower[0]`` and ``upper[-1]`` are unused."""
    n = len(diag)
    c = np.zeros(n)
    d = np.zeros(n)
    c[0] = upper[0] / diag[0]
    d[0] = rhs[0] / diag[0]
    for i in range(1, n):
        m = diag[i] - lower[i] * c[i - 1]
        c[i] = upper[i] / m
        d[i] = (rhs[i] - lower[i] * d[i - 1]) / m
    x = np.zeros(n)
    x[-1] = d[-1]
    for i in reversed(range(n - 1)):
        x[i] = d[i] - c[i] * x[i + 1]
    return x


@CASES.case(args=[(DOMINANT, B4), (DOMINANT, B4, 1e-3), (np.eye(2), np.array([1.0, 2.0]))])
def jacobi(a, b, tol=1e-10, max_iter=200):
    x = np.zeros_like(b)
    diag = np.diag(a)
    rest = a - np.diagflat(diag)
    for it in range(max_iter):
        x_new = (b - rest @ x) / diag
        if np.linalg.norm(x_new - x, ord=np.inf) < tol:
            return x_new, it + 1
        x = x_new
    return x, max_iter


@CASES.case(args=[(DOMINANT, B4.copy(), 12), (A3, B3.copy(), 5)])
def gauss_seidel(a, b, sweeps=25):
    """Gauss-Seidel sweeps written element by element; prints the residual every 10 sweeps."""
    n = len(b)
    x = np.zeros(n)
    for sweep in range(sweeps):
        for i in range(n):
            s = 0.0
            for j in range(n):
                if j != i:
                    s += a[i, j] * x[j]
            x[i] = (b[i] - s) / a[i, i]
        if sweep % 10 == 0:
            residual = np.linalg.norm(a @ x - b)
            print(f"sweep {sweep:3d}  residual {residual:.3e}")
    return x


@CASES.case(args=[(A3,), (DOMINANT, 1e-12, 500), (np.diag([2.0, -3.0]),)])
def power_iteration(a, tol=1e-9, max_iter=1000):
    """The dominant eigenpair by power iteration, normalised each step."""
    v = np.ones(a.shape[0]) / math.sqrt(a.shape[0])
    eig = 0.0
    for _ in range(max_iter):
        w = a @ v
        norm = np.linalg.norm(w)
        if norm == 0:
            break
        v = w / norm
        new_eig = v @ a @ v
        if abs(new_eig - eig) < tol:
            eig = new_eig
            break
        eig = new_eig
    return eig, v


# ---- round 3 ------------------------------------------------------------------------------------


@CASES.case(args=[(A3,), (PERMUTED,), (np.array([[3.0, 1.0], [4.0, 2.0], [0.0, 5.0]]),)])
def householder_qr(a):
    """QR by Householder reflections applied in place to a copy; Q accumulated explicitly."""
    m, n = a.shape
    r = a.astype(float)
    q = np.eye(m)
    for k in range(min(m - 1, n)):
        x = r[k:, k]
        alpha = -math.copysign(np.linalg.norm(x), x[0])
        v = x.copy()
        v[0] -= alpha
        vnorm = np.linalg.norm(v)
        if vnorm == 0:
            continue
        v /= vnorm
        r[k:, :] -= 2.0 * np.outer(v, v @ r[k:, :])
        q[:, k:] -= 2.0 * np.outer(q[:, k:] @ v, v)
    return q, r


@CASES.case(args=[(A3, 1.0), (A3, 7.0), (np.diag([1.0, 2.0, 5.0]), 2.2)])
def inverse_iteration(a, shift, tol=1e-10, max_iter=100):
    """Shifted inverse iteration: the eigenpair nearest the shift, solving with an LU each step."""
    n = len(a)
    m = a - shift * np.eye(n)
    v = np.ones(n) / math.sqrt(n)
    lam = shift
    for it in range(1, max_iter + 1):
        w = np.linalg.solve(m, v)
        v_new = w / np.linalg.norm(w)
        lam_new = float(v_new @ a @ v_new)
        if abs(lam_new - lam) < tol:
            return lam_new, v_new, it
        v, lam = v_new, lam_new
    return lam, v, max_iter


@CASES.case(args=[(A3, B3), (A3, B3, 1.5), (A3, B3, 0.5, 1e-4)])
def sor_solve(a, b, omega=1.25, tol=1e-10, max_sweeps=500):
    """Successive over-relaxation sweeps until the residual norm is below tol."""
    n = len(b)
    x = np.zeros(n)
    for sweep in range(max_sweeps):
        for i in range(n):
            sigma = 0.0
            for j in range(n):
                if j != i:
                    sigma += a[i][j] * x[j]
            x[i] = (1 - omega) * x[i] + omega * (b[i] - sigma) / a[i][i]
        residual = np.linalg.norm(a @ x - b)
        if residual < tol:
            break
    return x, sweep + 1, residual


@CASES.case(
    args=[
        (A3.copy(), B3.copy()),
        (PERMUTED.copy(), np.array([1.0, 2.0, 3.0])),
        (np.array([[1.0, 2.0, 0.0], [2.0, 4.0, 1.0], [3.0, 6.0, 5.0]]), np.ones(3)),
    ]
)
def gauss_jordan_inplace(a, b):
    """Gauss-Jordan elimination with row swaps by fancy indexing, overwriting a and b; a zero
    pivot column raises after the earlier columns were eliminated."""
    n = len(b)
    for col in range(n):
        pivot = col + int(np.argmax(np.abs(a[col:, col])))
        if a[pivot, col] == 0:
            raise np.linalg.LinAlgError(f"singular at column {col}")
        if pivot != col:
            a[[col, pivot]] = a[[pivot, col]]
            b[[col, pivot]] = b[[pivot, col]]
        scale = a[col, col]
        a[col] /= scale
        b[col] /= scale
        for row in range(n):
            if row != col:
                factor = a[row, col]
                a[row] -= factor * a[col]
                b[row] -= factor * b[col]
    return b


@CASES.case(args=[(np.array([[4.0, 1.0], [2.0, 3.0]]), 3), (A3.copy(), 2)])
def matrix_power_by_squaring(m, k):
    """M**k by repeated squaring, with the running result and base rebound each step."""
    result = np.eye(len(m))
    base = m
    while k > 0:
        if k & 1:
            result = result @ base
        base = base @ base
        k >>= 1
    return result
