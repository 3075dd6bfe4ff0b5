"""Conformance cases for NumPy's breadth: functions with no primitive of their own (host calls),
NumPy calls on Python lists that hold tensors, ndarray methods, Python scalars taken from tensors
and random draws, in the numeric code people write, inside tensor control flow."""

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
