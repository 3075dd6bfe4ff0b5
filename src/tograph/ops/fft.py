"""Discrete Fourier transforms: ``np.fft.fft``, ``ifft``, ``fft2``, ``ifft2``, ``rfft``, ``irfft``,
``fftshift``, ``ifftshift``, ``fftfreq`` and ``rfftfreq``.

Stage: build (ops). Input: calls on tensors with static ``n`` / ``s``, ``axis`` / ``axes`` and
``norm``. Output: a ``fft_resize`` equation per axis whose length ``n`` changes (NumPy crops or
zero-pads the input first), then one transform: ``fft`` (complex to complex, over one axis or
several, ``inverse`` for ``ifft``), ``rfft`` (real to half spectrum) or ``irfft`` (half spectrum
to ``n`` real values; with no ``n`` and a run-time length, ``n = 2 (m - 1)`` at run time). Kernels
and dtypes are NumPy 2's (``float32`` transforms to ``complex64``). ``fftfreq(n)`` with a static
``n`` is NumPy's own constant; with a tensor ``n`` it is an ``fftfreq`` equation.

Gradients (``tograph.autodiff.fft_rules``) follow tograph's convention for complex values,
JAX's: for a real loss ``L`` of ``z = x + iy`` the cotangent is ``dL/dx - i dL/dy``
(``tograph.autodiff.complex_rules``), so the gradient of a real loss with respect to a real
signal through its spectrum is real, and with respect to a complex input is ``dL/dx - i dL/dy``.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common
from tograph.trace import dispatch, tensor

_NORMS = ("backward", "ortho", "forward")


def norm_param(norm: Any) -> str:
    """``norm`` as one of NumPy's three names (None is ``'backward'``)."""
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')
    return str(norm)


def _points(n: Any, op: str) -> int:
    if tensor.is_tensor(n):
        raise dispatch.unsupported(f"np.fft.{op} with a tensor n or s")
    points = operator.index(n)
    if points < 1:
        raise ValueError(f"Invalid number of FFT data points ({points}) specified.")
    return points


def _check_length(op: str, x: types.TensorType, axes: tuple[int, ...]) -> None:
    for axis in axes:
        if x.shape[axis] == 0:
            raise errors.ShapeError(
                f"{op}: invalid number of FFT data points (0) along axis {axis} of shape "
                f"{common.fmt(x.shape)}"
            )


# ---- cropping and zero-padding -----------------------------------------------------------


def _resize_impl(x: Any, *dims: Any, axis: int, size: int | None) -> Any:
    n = int(dims[0]) if size is None else size
    m = x.shape[axis]
    if n <= m:
        return x[(slice(None),) * axis + (slice(0, n),)]
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, n - m)
    return np.pad(x, pad)


def _resize_rule(
    x: types.TensorType, *dims: types.TensorType, axis: int, size: int | None
) -> types.TensorType:
    common.check_dim_types(dims, "fft_resize")
    return x.strong().with_shape(x.shape[:axis] + (size,) + x.shape[axis + 1 :])


resize_p = primitives.Primitive("fft_resize", _resize_impl, _resize_rule)


def resize(x: Any, axis: int, n: Any) -> Any:
    """``x`` cropped or zero-padded to length ``n`` along ``axis`` (``n`` may be a tensor)."""
    if tensor.is_tensor(n):
        return resize_p.bind(x, n, axis=axis, size=None)
    if common.operand_type(x).shape[axis] == n:
        return x
    return resize_p.bind(x, axis=axis, size=int(n))


# ---- transforms --------------------------------------------------------------------------


def _fft_impl(x: Any, *, axes: tuple[int, ...], norm: str, inverse: bool) -> Any:
    if len(axes) == 1:
        return (np.fft.ifft if inverse else np.fft.fft)(x, axis=axes[0], norm=norm)
    return (np.fft.ifftn if inverse else np.fft.fftn)(x, axes=axes, norm=norm)


def _fft_rule(
    x: types.TensorType, *, axes: tuple[int, ...], norm: str, inverse: bool
) -> types.TensorType:
    _check_length("fft", x, axes)
    return types.TensorType(common.probe_dtype("fft", np.fft.fft, (x,)), x.shape)


def _rfft_impl(x: Any, *, axis: int, norm: str) -> Any:
    return np.fft.rfft(x, axis=axis, norm=norm)


def _rfft_rule(x: types.TensorType, *, axis: int, norm: str) -> types.TensorType:
    _check_length("rfft", x, (axis,))
    n = x.shape[axis]
    half = None if n is None else n // 2 + 1
    dtype = common.probe_dtype("rfft", np.fft.rfft, (x,))
    return types.TensorType(dtype, x.shape[:axis] + (half,) + x.shape[axis + 1 :])


def _irfft_impl(x: Any, *, n: int | None, axis: int, norm: str) -> Any:
    return np.fft.irfft(x, n=n, axis=axis, norm=norm)


def _irfft_rule(x: types.TensorType, *, n: int | None, axis: int, norm: str) -> types.TensorType:
    _check_length("irfft", x, (axis,))
    dtype = common.probe_dtype("irfft", np.fft.irfft, (x,), n=2)
    return types.TensorType(dtype, x.shape[:axis] + (n,) + x.shape[axis + 1 :])


fft_p = primitives.Primitive("fft", _fft_impl, _fft_rule)
rfft_p = primitives.Primitive("rfft", _rfft_impl, _rfft_rule)
irfft_p = primitives.Primitive("irfft", _irfft_impl, _irfft_rule)


def _transform(a: Any, s: Any, axes: Any, norm: Any, out: Any, op: str, inverse: bool) -> Any:
    if out is not None:
        raise dispatch.unsupported(f"np.fft.{op} with out=")
    t = common.operand_type(a)
    axes = common.axis_sequence(axes, t, op)
    if s is not None:
        if len(s) != len(axes):
            raise ValueError("Shape and axes have different lengths.")
        for axis, n in zip(axes, s):
            a = resize(a, axis, _points(n, op))
    return fft_p.bind(a, axes=axes, norm=norm_param(norm), inverse=inverse)


@dispatch.implements(np.fft.fft)
def fft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    """``np.fft.fft``: the discrete Fourier transform along ``axis``."""
    return _transform(a, None if n is None else (n,), (axis,), norm, out, "fft", False)


@dispatch.implements(np.fft.ifft)
def ifft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    """``np.fft.ifft``: the inverse discrete Fourier transform along ``axis``."""
    return _transform(a, None if n is None else (n,), (axis,), norm, out, "ifft", True)


@dispatch.implements(np.fft.fft2)
def fft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: Any = None, out: Any = None) -> Any:
    """``np.fft.fft2``: the transform over two axes."""
    return _transform(a, s, axes, norm, out, "fft2", False)


@dispatch.implements(np.fft.ifft2)
def ifft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: Any = None, out: Any = None) -> Any:
    """``np.fft.ifft2``: the inverse transform over two axes."""
    return _transform(a, s, axes, norm, out, "ifft2", True)


@dispatch.implements(np.fft.rfft)
def rfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    """``np.fft.rfft``: the non-negative frequencies of a real signal's transform."""
    if out is not None:
        raise dispatch.unsupported("np.fft.rfft with out=")
    axis = common.normalize_axis(axis, common.operand_type(a), "rfft")
    if n is not None:
        a = resize(a, axis, _points(n, "rfft"))
    return rfft_p.bind(a, axis=axis, norm=norm_param(norm))


@dispatch.implements(np.fft.irfft)
def irfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    """``np.fft.irfft``: ``n`` real values (default ``2 (m - 1)``) from a half spectrum."""
    if out is not None:
        raise dispatch.unsupported("np.fft.irfft with out=")
    t = common.operand_type(a)
    axis = common.normalize_axis(axis, t, "irfft")
    if n is None:
        m = t.shape[axis]
        points = None if m is None else _points(2 * (m - 1), "irfft")
    else:
        points = _points(n, "irfft")
        a = resize(a, axis, points // 2 + 1)
    return irfft_p.bind(a, n=points, axis=axis, norm=norm_param(norm))


# ---- shifts and frequencies --------------------------------------------------------------


def _shift_impl(x: Any, *, axes: tuple[int, ...] | None, inverse: bool) -> Any:
    return (np.fft.ifftshift if inverse else np.fft.fftshift)(x, axes=axes)


def _shift_rule(
    x: types.TensorType, *, axes: tuple[int, ...] | None, inverse: bool
) -> types.TensorType:
    return x.strong()


fftshift_p = primitives.Primitive("fftshift", _shift_impl, _shift_rule)


@dispatch.implements(np.fft.fftshift)
def fftshift(x: Any, axes: Any = None) -> Any:
    """``np.fft.fftshift``: the zero frequency moved to the middle."""
    axes = None if axes is None else common.axis_sequence(axes, common.operand_type(x), "fftshift")
    return fftshift_p.bind(x, axes=axes, inverse=False)


@dispatch.implements(np.fft.ifftshift)
def ifftshift(x: Any, axes: Any = None) -> Any:
    """``np.fft.ifftshift``: the inverse of ``fftshift``."""
    t = common.operand_type(x)
    axes = None if axes is None else common.axis_sequence(axes, t, "ifftshift")
    return fftshift_p.bind(x, axes=axes, inverse=True)


def _freq_impl(n: Any, *, d: float, real: bool) -> Any:
    return (np.fft.rfftfreq if real else np.fft.fftfreq)(int(n), d)


def _freq_rule(n: types.TensorType, *, d: float, real: bool) -> types.TensorType:
    common.check_dim_types((n,), "fftfreq")
    return types.TensorType(np.dtype(np.float64), (None,))


fftfreq_p = primitives.Primitive("fftfreq", _freq_impl, _freq_rule)


def _frequencies(n: Any, d: Any, device: Any, real: bool) -> Any:
    name = "rfftfreq" if real else "fftfreq"
    if device not in (None, "cpu"):
        raise dispatch.unsupported(f"np.fft.{name} with device={device!r}")
    if not tensor.is_tensor(n):
        base = (np.fft.rfftfreq if real else np.fft.fftfreq)(n)
        return base if not tensor.is_tensor(d) else base / d
    if tensor.is_tensor(d):
        return fftfreq_p.bind(n, d=1.0, real=real) / d
    return fftfreq_p.bind(n, d=float(d), real=real)


@dispatch.overrides(np.fft.fftfreq)
def fftfreq(n: Any, d: Any = 1.0, device: Any = None) -> Any:
    """``np.fft.fftfreq`` with a tensor ``n`` (or ``d``): the sample frequencies."""
    return _frequencies(n, d, device, real=False)


@dispatch.overrides(np.fft.rfftfreq)
def rfftfreq(n: Any, d: Any = 1.0, device: Any = None) -> Any:
    """``np.fft.rfftfreq`` with a tensor ``n`` (or ``d``): the non-negative frequencies."""
    return _frequencies(n, d, device, real=True)
