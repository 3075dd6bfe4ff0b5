"""np.real, np.imag, np.conj and the .real, .imag, .conj() attributes against NumPy."""

import numpy as np
import pytest
from op_harness import check, trace
from static_harness import assert_compiled_matches

from tograph.ir import types

Z = np.array([[1 + 2j, -0.5j], [3.0, 2 - 1j]])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32, np.int32, np.bool_])
def test_parts_match_numpy(dtype):
    z = Z.astype(dtype) if np.dtype(dtype).kind == "c" else Z.real.astype(dtype)
    check(lambda z: (np.real(z), np.imag(z), np.conj(z), np.conjugate(z)), z)
    check(lambda z: (z.real, z.imag, z.conj(), z.conjugate()), z)
    check(lambda z: (np.real(z[0, 0]), np.abs(z), z * z.conj()), z)


def test_real_operands_need_no_equation():
    graph = trace(lambda x: (np.real(x), np.conj(x)), types.TensorType(np.float64, (3,)))
    assert graph.eqns == ()


def test_compiled_in_control_flow():
    assert_compiled_matches(lambda z: (np.real(z), np.imag(z), np.conj(z)), Z)
    assert_compiled_matches(lambda z: z.real * 2 + z.imag, Z.astype(np.complex64))
