"""The workloads in TensorFlow, compiled with ``tf.function`` (AutoGraph).

Stage: benchmark peer. Input: a ``Variant`` (its NumPy inputs). Output: its contenders. AutoGraph
converts the Python ``while``/``for``/``if`` on tensors into ``tf.while_loop``/``tf.cond``; the
loops run over ``tf.range`` of a tensor bound, so they stay loops (a Python ``range`` of a static
int would be unrolled), as tograph's do. Gradients use ``tf.GradientTape`` inside the
``tf.function``. Threads: ``tf.config.threading`` intra-op and inter-op parallelism 1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf

from tograph.bench import timing
from tograph.bench.workloads import Variant, conversion

NAME = "tf.function"
LEARNING_RATE = 0.1


def setup(threads: int) -> str:
    """``threads`` intra-op and inter-op threads; returns the version."""
    tf.config.threading.set_intra_op_parallelism_threads(threads)
    tf.config.threading.set_inter_op_parallelism_threads(threads)
    return tf.__version__


def _to_numpy(value: Any) -> Any:
    return value.numpy() if isinstance(value, tf.Tensor) else value


def _contender(fn: Callable[..., Any], variant: Variant) -> timing.Contender:
    return timing.Contender(
        NAME, tf.function(fn), tuple(tf.constant(a) for a in variant.inputs), _to_numpy
    )


def w1(x: Any) -> Any:
    n = tf.constant(0, tf.int64)
    while x > 1.0:
        x = x * 0.995
        n = n + 1
    return x, n


def w3(x: Any, n: Any) -> Any:
    for _ in tf.range(n):
        if tf.reduce_mean(x) > 0.0:
            x = tf.sin(x) - 0.3
        else:
            x = tf.cos(x) * 0.9
    return x


def w4(a: Any, b: Any, c: Any) -> Any:
    return tf.tanh(a * b + c) * 0.5 + a * tf.exp(-(b * b))


def rnn(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> Any:
    h = h0
    for t in tf.range(tf.shape(xs)[0]):
        h = tf.tanh(xs[t] @ wx + h @ wh + b)
    return tf.reduce_sum(h * h)


def rnn_value_and_grad(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> Any:
    with tf.GradientTape() as tape:
        tape.watch([wx, wh, b])
        loss = rnn(xs, h0, wx, wh, b)
    return loss, tuple(tape.gradient(loss, [wx, wh, b]))


def mlp_loss(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
    h = tf.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    z = logits - tf.reduce_max(logits, axis=1, keepdims=True)
    log_p = z - tf.math.log(tf.reduce_sum(tf.exp(z), axis=1, keepdims=True))
    return -tf.reduce_sum(y * log_p) / tf.cast(tf.shape(x)[0], x.dtype)


def sgd_step(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
    params = [w1, b1, w2, b2]
    with tf.GradientTape() as tape:
        tape.watch(params)
        loss = mlp_loss(w1, b1, w2, b2, x, y)
    grads = tape.gradient(loss, params)
    return (loss, *(p - LEARNING_RATE * g for p, g in zip(params, grads)))


def mlp_forward(x: Any, w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any) -> Any:
    h = tf.nn.relu(x @ w1 + b1)
    h = tf.nn.relu(h @ w2 + b2)
    return h @ w3 + b3


_FUNCTIONS = {
    "W1": w1,
    "W2.fwd": rnn,
    "W2.fwd+bwd": rnn_value_and_grad,
    "W3": w3,
    "W4": w4,
    "W5": sgd_step,
    "W7": mlp_forward,
}


def contenders(variant: Variant) -> list[timing.Contender]:
    """TensorFlow's contenders for ``variant``."""
    if variant.workload == "W6":
        args = tuple(tf.constant(a) for a in variant.inputs)
        return [conversion.first_call(NAME, variant.param, tf.function, args, tf, _to_numpy)]
    return [_contender(_FUNCTIONS[variant.key], variant)]
