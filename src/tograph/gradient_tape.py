"""``GradientTape``: gradients of plain NumPy code run eagerly, define-by-run.

Stage: autodiff (public API). Usage, as with ``tf.GradientTape``::

    with tg.GradientTape() as tape:
        w = tape.watch(w)            # the tensor to compute with (any structure of arrays)
        loss = model(w, x)           # ordinary NumPy code, any Python control flow
    dw = tape.gradient(loss, w)      # NumPy arrays shaped like ``w``

``watch`` returns eager tensors (``tograph.eager``): NumPy functions and operators on them run at
once and are recorded on the tape; ``gradient`` replays the records backwards through the same
VJP rules as compiled graphs (``tograph.autodiff.tape``). A persistent tape gives any number of
gradients; an enclosing tape records a gradient's computation, so nested tapes give higher
derivatives. ``float(t)`` of a watched tensor is a constant (the value as a number, for printing
and decisions: no gradient flows through it, as in TensorFlow); ``int(t)`` and ``bool(t)`` lose
nothing (their derivative is zero); ``tograph.stop_gradient`` makes a constant of a tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff import tape as tape_grad
from tograph.eager import recording
from tograph.eager import tape as eager_tape
from tograph.eager import tensor as eager_tensor
from tograph.ir import pytree, types


class _Recorder(eager_tape.Tape):
    """The eager tape under a ``GradientTape``: lenient about ``float()`` (see module docstring)."""

    strict = False


class GradientTape:
    """Records NumPy computations on watched values, for ``gradient``; a context manager.

    Args:
      persistent: whether ``gradient`` may be called more than once (the records are kept until
        the tape is dropped); a tape that is not persistent lets them go after one call.
    """

    def __init__(self, persistent: bool = False):
        self.persistent = persistent
        self._recorder: _Recorder | None = _Recorder()

    def __enter__(self) -> GradientTape:
        self._live().__enter__()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._live().__exit__(*exc_info)

    def watch(self, value: Any) -> Any:
        """Starts recording computations on ``value``; returns what to compute with.

        Args:
          value: a float or complex array or NumPy scalar, a Python float (made a NumPy float, as
            ``tg.grad`` does), a tensor from an enclosing tape, or a nested list, tuple or dict
            of them.

        Returns:
          ``value`` with each leaf an eager tensor this tape watches (the same structure).

        Raises:
          DTypeError: a leaf is not a float or complex value.
        """
        leaves, tree = pytree.flatten(value)
        recorder = self._live()
        return tree.unflatten(
            [
                recorder.watch(_watchable(leaf, path))
                for leaf, path in zip(leaves, tree.paths("value"))
            ]
        )

    def gradient(self, target: Any, sources: Any) -> Any:
        """The gradient of the scalar ``target`` with respect to each of ``sources``.

        Args:
          target: a float scalar computed on this tape from watched values.
          sources: a value ``watch`` returned, or a nested list, tuple or dict of them.

        Returns:
          ``sources``' structure of gradients, each with its source's dtype and shape (zeros
          where the target does not depend on a source): NumPy values, or eager tensors where an
          enclosing tape recorded their computation (for a higher derivative).

        Raises:
          RuntimeError: the tape is not persistent and gave a gradient already.
          ToGraphError: ``target`` is not a tensor computed on this tape, or a source is not a
            value it watches.
          ShapeError, DTypeError: ``target`` is not a float scalar.
        """
        recorder = self._live()
        leaves, tree = pytree.flatten(sources)
        for leaf, path in zip(leaves, tree.paths("sources")):
            _check_source(recorder, leaf, path)
        _check_target(recorder, target)
        if not self.persistent:
            self._recorder = None
        grads = tape_grad.backward(recorder, target, leaves)
        return tree.unflatten([_result(g, leaf) for g, leaf in zip(grads, leaves)])

    def _live(self) -> _Recorder:
        if self._recorder is None:
            raise RuntimeError(
                "a GradientTape that is not persistent gives one gradient only; make it with "
                "GradientTape(persistent=True) to call gradient again"
            )
        return self._recorder


def _watchable(leaf: Any, path: str) -> Any:
    """``leaf`` as a value to watch: a Python float as a NumPy float; refuses what has no
    gradient."""
    if isinstance(leaf, float) and not isinstance(leaf, np.floating):
        leaf = np.float64(leaf)
    elif isinstance(leaf, complex) and not isinstance(leaf, np.complexfloating):
        leaf = np.complex128(leaf)
    kind = _type(leaf)
    if kind is None or kind.dtype.kind not in "fc":
        described = str(kind) if kind is not None else type(leaf).__name__
        raise errors.DTypeError(
            f"GradientTape.watch: {path} is {described}: gradients are defined for float and "
            "complex values only",
            hint=f"watch {path} as floats (np.asarray(..., float)), or leave it unwatched",
        )
    return leaf


def _type(value: Any) -> types.TensorType | None:
    if isinstance(value, eager_tensor.EagerTensor):
        return value.type
    if isinstance(value, (bool, int)) or not isinstance(value, (np.ndarray, np.generic)):
        return None
    return types.type_of(value)


def _check_source(recorder: _Recorder, leaf: Any, path: str) -> None:
    if isinstance(leaf, eager_tensor.EagerTensor) and recorder.is_watched(leaf):
        return
    if isinstance(leaf, eager_tensor.EagerTensor):
        what = "a tensor this tape does not watch"
    else:
        kind = {np.ndarray: "a NumPy array"}.get(type(leaf), f"a {type(leaf).__name__}")
        what = f"{kind}, not a tensor this tape watches"
    raise errors.ToGraphError(
        f"GradientTape.gradient: {path} is {what}",
        hint="differentiate with respect to what watch returned: x = tape.watch(x)",
    )


def _check_target(recorder: _Recorder, target: Any) -> None:
    if not isinstance(target, eager_tensor.EagerTensor):
        raise errors.ToGraphError(
            f"GradientTape.gradient: the target is a {type(target).__name__}, not a tensor "
            "computed on this tape, so it has no gradient",
            hint="compute it from the values watch returned (x = tape.watch(x)), and keep it a "
            "tensor: float() of one is a constant",
        )
    t = target.type
    if t.shape != ():
        raise errors.ShapeError(
            f"GradientTape.gradient: the target must be a scalar, but it is a {t} array",
            hint="reduce it first, e.g. with np.sum(...) or np.mean(...)",
        )
    if t.dtype.kind != "f":
        raise errors.DTypeError(f"GradientTape.gradient: the target must be a float, not {t}")


def _result(grad: Any, source: Any) -> Any:
    """A gradient as the caller gets it: a NumPy value of the source's kind, or an eager tensor
    an enclosing tape recorded (see ``GradientTape.gradient``)."""
    if isinstance(grad, eager_tensor.EagerTensor) and recording.watched_by_active_tape([grad]):
        return grad
    value, like = eager_tensor.unwrap(grad), source.value
    if isinstance(like, np.ndarray):
        return np.asarray(value, dtype=like.dtype).reshape(like.shape)
    return type(like)(value) if types.is_python_scalar(like) else like.dtype.type(value)
