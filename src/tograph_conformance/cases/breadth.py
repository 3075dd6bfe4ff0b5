"""Conformance cases for NumPy's breadth: functions with no primitive of their own (host calls),
NumPy calls on Python lists that hold tensors, ndarray methods, Python scalars taken from tensors
and random draws, in the numeric code people write, inside tensor control flow."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("breadth")

VEC = np.array([0.5, 1.5, 2.0, 3.25])
SYM = np.array([[2.0, 1.0], [1.0, 3.0]])


@CASES.case(args=[(VEC,)], expect_ops={"numpy_call"})
def hermitian_spectrum(x):
    spectrum = np.fft.hfft(x)
    return np.abs(spectrum)


@CASES.case(args=[(SYM,)], expect_ops={"numpy_call", "cond"})
def tensor_inverse_branch(a):
    inverse = np.linalg.tensorinv(a, ind=1)
    if inverse[0, 0] > inverse[1, 1]:
        return inverse[0, 0], inverse[:, 0]
    return inverse[1, 1], inverse[:, 1]


@CASES.case(args=[(np.stack([SYM, SYM * 2]),)], expect_ops={"numpy_call", "while_loop"})
def tensor_solve_in_loop(mats):
    largest = 0.0 * mats[0, 0, 0]
    for m in mats:
        largest = np.maximum(largest, np.linalg.tensorsolve(m, m[0])[-1])
    return largest


@CASES.case(args=[(VEC,), (VEC[::-1] * 4,)], expect_ops={"cond"})
def python_scalars_from_tensors(x):
    total = float(np.sum(x))
    first = x[0].item()
    steps = int(total) // 2
    if total > 10.0:
        return math.sqrt(total) + first, steps, round(first), x.tolist()
    return math.log(total) - first, steps, math.floor(first), x[::-1].tolist()


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def lists_of_tensors_and_numbers(x):
    best = np.max([x[0], 0.75])
    while best < 40.0:
        best = np.max([best * 3, x[1] * 0.5, 1])
    return np.sum([1, best * best, 2]), np.array([[best, 0], [0, best]])


@CASES.case(args=[(np.array([[3.0, 1.0, 2.0], [0.5, 4.0, 1.5]]),)], expect_ops={"numpy_call"})
def ndarray_methods(m):
    ordered = m.copy()
    ordered.partition(1, axis=1)
    spread = m.max(axis=1) - m.min(axis=1)
    return (
        m.swapaxes(0, 1).std(axis=0),
        m.any(axis=0),
        m.argpartition(1).shape,
        ordered[:, 1],
        spread.nbytes,
        m.mT.flat[2],
        m.var(ddof=1),
    )
