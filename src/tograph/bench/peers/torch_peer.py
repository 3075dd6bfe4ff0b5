"""The workloads in PyTorch, compiled with ``torch.jit.script`` (and W7 also eager).

Stage: benchmark peer. Input: a ``Variant`` (its NumPy inputs). Output: its contenders. Each
function is scripted (TorchScript keeps ``while``/``for``/``if`` as graph control flow);
gradients (W2, W5) are ``torch.autograd.grad`` through the scripted function, the SGD update a
functional update under ``torch.no_grad``. W7 also times the eager module-free forward pass
("torch eager"). Threads: ``torch.set_num_threads(1)`` and ``set_num_interop_threads(1)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from tograph.bench import timing
from tograph.bench.workloads import Variant, conversion

NAME = "torch.jit.script"
EAGER = "torch eager"
LEARNING_RATE = 0.1


def setup(threads: int) -> str:
    """``threads`` intra-op and inter-op threads; returns the version."""
    torch.set_num_threads(threads)
    torch.set_num_interop_threads(threads)
    return torch.__version__


def _to_numpy(value: Any) -> Any:
    return value.detach().numpy() if isinstance(value, torch.Tensor) else value


def _contender(
    fn: Callable[..., Any], variant: Variant, trainable: tuple[int, ...] = (), name: str = NAME
) -> timing.Contender:
    args = tuple(
        torch.tensor(a, requires_grad=i in trainable) for i, a in enumerate(variant.inputs)
    )
    return timing.Contender(name, fn, args, _to_numpy)


def w1(x: torch.Tensor) -> tuple[torch.Tensor, int]:
    n = 0
    while bool(x > 1.0):
        x = x * 0.995
        n = n + 1
    return x, n


def w3(x: torch.Tensor, n: torch.Tensor) -> torch.Tensor:
    for _ in range(int(n)):
        if bool(torch.mean(x) > 0.0):
            x = torch.sin(x) - 0.3
        else:
            x = torch.cos(x) * 0.9
    return x


def w4(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    return torch.tanh(a * b + c) * 0.5 + a * torch.exp(-(b * b))


def rnn(
    xs: torch.Tensor, h0: torch.Tensor, wx: torch.Tensor, wh: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    h = h0
    for t in range(xs.size(0)):
        h = torch.tanh(xs[t] @ wx + h @ wh + b)
    return torch.sum(h * h)


def mlp_loss(
    w1: torch.Tensor,
    b1: torch.Tensor,
    w2: torch.Tensor,
    b2: torch.Tensor,
    x: torch.Tensor,
    y: torch.Tensor,
) -> torch.Tensor:
    h = torch.relu(x @ w1 + b1)
    logits = h @ w2 + b2
    z = logits - torch.max(logits, dim=1, keepdim=True)[0]
    log_p = z - torch.log(torch.sum(torch.exp(z), dim=1, keepdim=True))
    return -torch.sum(y * log_p) / x.size(0)


def mlp_forward(
    x: torch.Tensor,
    w1: torch.Tensor,
    b1: torch.Tensor,
    w2: torch.Tensor,
    b2: torch.Tensor,
    w3: torch.Tensor,
    b3: torch.Tensor,
) -> torch.Tensor:
    h = torch.relu(x @ w1 + b1)
    h = torch.relu(h @ w2 + b2)
    return h @ w3 + b3


def two_chains(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, d: torch.Tensor) -> torch.Tensor:
    x = torch.tanh(torch.tanh(a @ b) @ b)
    y = torch.tanh(torch.tanh(c @ d) @ d)
    return x + y


def _rnn_value_and_grad(scripted: Callable[..., Any]) -> Callable[..., Any]:
    def value_and_grad(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> Any:
        loss = scripted(xs, h0, wx, wh, b)
        return loss, torch.autograd.grad(loss, (wx, wh, b))

    return value_and_grad


def _sgd_step(scripted: Callable[..., Any]) -> Callable[..., Any]:
    def step(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
        params = (w1, b1, w2, b2)
        loss = scripted(w1, b1, w2, b2, x, y)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            return (loss, *(p - LEARNING_RATE * g for p, g in zip(params, grads)))

    return step


def contenders(variant: Variant) -> list[timing.Contender]:
    """PyTorch's contenders for ``variant``."""
    key, script = variant.key, torch.jit.script
    if key == "W1":
        return [_contender(script(w1), variant)]
    if key == "W2.fwd":
        return [_contender(script(rnn), variant)]
    if key == "W2.fwd+bwd":
        return [_contender(_rnn_value_and_grad(script(rnn)), variant, trainable=(2, 3, 4))]
    if key == "W3":
        return [_contender(script(w3), variant)]
    if key == "W4":
        return [_contender(script(w4), variant)]
    if key == "W5":
        return [_contender(_sgd_step(script(mlp_loss)), variant, trainable=(0, 1, 2, 3))]
    if variant.workload == "W6":
        args = tuple(torch.tensor(a) for a in variant.inputs)
        return [conversion.first_call(NAME, variant.param, script, args, torch, _to_numpy)]
    if key == "W7":
        return [
            _contender(script(mlp_forward), variant),
            _contender(mlp_forward, variant, name=EAGER),
        ]
    if key == "W8":
        return [_contender(script(two_chains), variant)]
    raise KeyError(key)
