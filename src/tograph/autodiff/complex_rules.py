"""VJP rules of ``real``, ``imag`` and ``conj``, and tograph's convention for complex cotangents.

Stage: autodiff. Input and output as in ``rules``.

The convention is JAX's. For a real loss ``L`` and a complex value ``z = x + iy``, the cotangent of
``z`` is

    ct(z) = dL/dx - i dL/dy

so ``grad`` of a real function with respect to a complex argument returns ``dL/dx - i dL/dy``: the
conjugate of the direction of steepest ascent (``dL/dx + i dL/dy``, which is what PyTorch
returns). With this convention the rule of a holomorphic operation is the plain transpose of its
derivative, with no conjugation: ``multiply``'s is ``g * y``, ``matmul``'s ``g @ b.T``, an FFT's
the FFT of the cotangent. A rule conjugates only where its operation does (``conj``, ``abs``,
``vdot``, ``np.correlate``), and the cotangent of a real value that became complex is the real part
of the complex cotangent (``vjp.fit`` takes it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph.autodiff.rules import defvjp
from tograph.ops import complex_parts


@defvjp(complex_parts.real_p)
def _real(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    # L(Re z): dL/dx = g, dL/dy = 0
    return (g,)


@defvjp(complex_parts.imag_p)
def _imag(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    # L(Im z): dL/dx = 0, dL/dy = g, so ct = -i g
    return (g * np.complex64(-1j),)


@defvjp(complex_parts.conj_p)
def _conj(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (complex_parts.conj_p.bind(g),)
