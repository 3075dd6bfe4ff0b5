"""The workloads in PaddlePaddle, compiled with ``paddle.jit.to_static(full_graph=True)``.

Stage: benchmark peer. Input: a ``Variant`` (its NumPy inputs). Output: its contenders. The AST
mode (``full_graph=True``, dy2static) is used: like tograph and AutoGraph it converts Python
control flow into graph ops (the default SOT mode would break the graph at each data-dependent
branch). Loops run over a tensor bound (``paddle.shape(xs)[0]``, a tensor ``n``) so that they
become ``while`` ops, as tograph's do, except in W2's forward+backward (see ``rnn_unrolled``).
Gradients (W2, W5) use ``paddle.grad`` on the converted function's result. The executor runs
serially (``FLAGS_new_executor_serial_run``): one thread.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

os.environ.setdefault("FLAGS_new_executor_serial_run", "1")
os.environ.setdefault("GLOG_minloglevel", "2")

import paddle

from tograph.bench import timing
from tograph.bench.workloads import Variant, conversion

NAME = "paddle.jit.to_static"
LEARNING_RATE = 0.1


def setup(threads: int) -> str:
    """Selects the CPU and dynamic mode (threads come from FLAGS_paddle_num_threads); returns
    the version."""
    paddle.set_device("cpu")
    paddle.disable_static()
    return paddle.__version__


def _to_numpy(value: Any) -> Any:
    return value.numpy() if isinstance(value, paddle.Tensor) else value


def _compile(fn: Callable[..., Any]) -> Callable[..., Any]:
    return paddle.jit.to_static(fn, full_graph=True)


def _contender(
    fn: Callable[..., Any], variant: Variant, trainable: tuple[int, ...] = ()
) -> timing.Contender:
    args = tuple(
        paddle.to_tensor(a, stop_gradient=i not in trainable) for i, a in enumerate(variant.inputs)
    )
    return timing.Contender(NAME, fn, args, _to_numpy)


def w1(x: Any) -> Any:
    n = paddle.zeros([], "int64")
    while x > 1.0:
        x = x * 0.995
        n = n + 1
    return x, n


def w3(x: Any, n: Any) -> Any:
    for _ in range(n):
        if paddle.mean(x) > 0.0:
            x = paddle.sin(x) - 0.3
        else:
            x = paddle.cos(x) * 0.9
    return x


def w4(a: Any, b: Any, c: Any) -> Any:
    return paddle.tanh(a * b + c) * 0.5 + a * paddle.exp(-(b * b))


def rnn(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> Any:
    h = h0
    for t in range(paddle.shape(xs)[0]):
        h = paddle.tanh(xs[t] @ wx + h @ wh + b)
    return paddle.sum(h * h)


def rnn_unrolled(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> Any:
    # paddle 3.3 drops the gradients of a loop over a tensor bound (paddle.grad: "input does not
    # appear in the backward graph"); over the static ``xs.shape[0]`` the loop is unrolled.
    h = h0
    for t in range(xs.shape[0]):
        h = paddle.tanh(xs[t] @ wx + h @ wh + b)
    return paddle.sum(h * h)


def mlp_loss(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
    h = paddle.maximum(x @ w1 + b1, paddle.zeros([], x.dtype))
    logits = h @ w2 + b2
    z = logits - paddle.max(logits, axis=1, keepdim=True)
    log_p = z - paddle.log(paddle.sum(paddle.exp(z), axis=1, keepdim=True))
    return -paddle.sum(y * log_p) / x.shape[0]


def mlp_forward(x: Any, w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any) -> Any:
    h = paddle.nn.functional.relu(x @ w1 + b1)
    h = paddle.nn.functional.relu(h @ w2 + b2)
    return h @ w3 + b3


def _rnn_value_and_grad(compiled: Callable[..., Any]) -> Callable[..., Any]:
    def value_and_grad(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> Any:
        loss = compiled(xs, h0, wx, wh, b)
        return loss, tuple(paddle.grad(loss, [wx, wh, b]))

    return value_and_grad


def _sgd_step(compiled: Callable[..., Any]) -> Callable[..., Any]:
    def step(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
        params = [w1, b1, w2, b2]
        loss = compiled(w1, b1, w2, b2, x, y)
        grads = paddle.grad(loss, params)
        with paddle.no_grad():
            return (loss, *(p - LEARNING_RATE * g for p, g in zip(params, grads)))

    return step


def contenders(variant: Variant) -> list[timing.Contender]:
    """Paddle's contenders for ``variant``."""
    key = variant.key
    if key == "W1":
        return [_contender(_compile(w1), variant)]
    if key == "W2.fwd":
        return [_contender(_compile(rnn), variant)]
    if key == "W2.fwd+bwd":
        return [
            _contender(_rnn_value_and_grad(_compile(rnn_unrolled)), variant, trainable=(2, 3, 4))
        ]
    if key == "W3":
        return [_contender(_compile(w3), variant)]
    if key == "W4":
        return [_contender(_compile(w4), variant)]
    if key == "W5":
        return [_contender(_sgd_step(_compile(mlp_loss)), variant, trainable=(0, 1, 2, 3))]
    if variant.workload == "W6":
        args = tuple(paddle.to_tensor(a) for a in variant.inputs)
        compile_fn = functools.partial(paddle.jit.to_static, full_graph=True)
        return [conversion.first_call(NAME, variant.param, compile_fn, args, paddle, _to_numpy)]
    if key == "W7":
        return [_contender(_compile(mlp_forward), variant)]
    raise KeyError(key)
