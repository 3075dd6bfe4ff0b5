"""VJP rules of the Fourier transforms, the FFT's crop/pad, and ``fftshift``.

Stage: autodiff. Input and output as in ``rules``.

Convention (``complex_rules``, JAX's): for a real loss ``L`` the cotangent of a complex value
``z = x + iy`` is ``dL/dx - i dL/dy``; a real input's cotangent is the real part of the complex
one. Under it the rule of a linear map is its plain transpose, with no conjugation:

- ``fft`` and ``ifft``: the DFT matrix (scaled by ``norm``) is symmetric, so the cotangent is the
  same transform of ``g``, with the same ``norm``.
- ``rfft``: the first ``n // 2 + 1`` rows of the DFT; its transpose is the DFT of ``g``
  zero-padded to ``n``, and the input being real, its real part.
- ``irfft``: ``y = scale * (Re X_0 + 2 sum_k Re(X_k e^{2 pi i k t / n}) [+ Re X_{n/2} (-1)^t])``
  reads each ``X_k`` once except the ends, so ``ct(X_k) = w_k conj(rfft(g))_k`` at the matching
  scale, with ``w_k = 2`` but 1 at ``k = 0`` and (``n`` even) ``k = n / 2``. The imaginary parts
  of those two ends get no gradient, as they do not change ``y``.
- ``fft_resize`` (crop or zero-pad): its transpose pads or crops back.
- ``fftshift``: a permutation; its transpose is the opposite shift.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph.autodiff.matrix_calculus import arange, dtype_of
from tograph.autodiff.rules import defvjp, shape_of, zero
from tograph.ops import complex_parts
from tograph.ops import fft as fft_ops

# The rfft norm whose scale is irfft's for a given norm (irfft 'backward' divides by n).
_MATCHING_NORM = {"backward": "forward", "ortho": "ortho", "forward": "backward"}

defvjp(fft_ops.fftfreq_p)(zero)


@defvjp(fft_ops.fft_p)
def _fft(
    g: Any, x: Any, *, out: Any, axes: tuple[int, ...], norm: str, inverse: bool
) -> tuple[Any, ...]:
    return (fft_ops.fft_p.bind(g, axes=axes, norm=norm, inverse=inverse),)


@defvjp(fft_ops.resize_p)
def _resize(g: Any, x: Any, *dims: Any, out: Any, axis: int, size: int | None) -> tuple[Any, ...]:
    return (fft_ops.resize(g, axis, shape_of(x)[axis]),) + (None,) * len(dims)


@defvjp(fft_ops.rfft_p)
def _rfft(g: Any, x: Any, *, out: Any, axis: int, norm: str) -> tuple[Any, ...]:
    padded = fft_ops.resize(g, axis, shape_of(x)[axis])
    spectrum = fft_ops.fft_p.bind(padded, axes=(axis,), norm=norm, inverse=False)
    return (complex_parts.real(spectrum),)


@defvjp(fft_ops.irfft_p)
def _irfft(g: Any, x: Any, *, out: Any, n: int | None, axis: int, norm: str) -> tuple[Any, ...]:
    half = fft_ops.rfft_p.bind(g, axis=axis, norm=_MATCHING_NORM[norm])
    k = arange(shape_of(x)[axis])
    length = shape_of(out)[axis]
    ends = (k == 0) | ((length % 2 == 0) & (k == length // 2))
    weights = np.where(ends, 1.0, 2.0)
    trailing = np.ndim(x) - axis - 1
    weights = np.expand_dims(weights, tuple(range(1, trailing + 1))) if trailing else weights
    return (np.astype(weights, np.finfo(dtype_of(half)).dtype) * complex_parts.conj(half),)


@defvjp(fft_ops.fftshift_p)
def _fftshift(
    g: Any, x: Any, *, out: Any, axes: tuple[int, ...] | None, inverse: bool
) -> tuple[Any, ...]:
    return (fft_ops.fftshift_p.bind(g, axes=axes, inverse=not inverse),)
