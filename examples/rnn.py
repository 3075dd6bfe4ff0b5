"""An Elman RNN over a sequence: a for loop over a tensor's rows becomes a while_loop, and its
gradient (backpropagation through time) is a reverse while_loop over saved hidden states.

    python examples/rnn.py
"""

import time

import numpy as np

import tograph as tg


@tg.to_static
def rnn_loss(W, U, b, xs, target):
    """Runs a tanh RNN over ``xs`` (T, batch, input) and scores its last state."""
    h = np.zeros((xs.shape[1], W.shape[0]))
    for x in xs:
        h = np.tanh(h @ W + x @ U + b)
    return np.mean((h - target) ** 2)


def main():
    rng = np.random.default_rng(0)
    T, B, D, H = 50, 8, 4, 16
    W = rng.standard_normal((H, H)) * 0.3
    U = rng.standard_normal((D, H)) * 0.3
    b = np.zeros(H)
    xs = rng.standard_normal((T, B, D))
    target = np.tanh(rng.standard_normal((B, H)))
    step = tg.value_and_grad(rnn_loss, argnums=(0, 1, 2))
    start = time.perf_counter()
    for it in range(201):
        loss, (gW, gU, gb) = step(W, U, b, xs, target)
        W, U, b = W - 0.5 * gW, U - 0.5 * gU, b - 0.5 * gb
        if it % 50 == 0:
            print(f"step {it:3d}  loss {loss:.4f}")
    print(
        f"201 steps of value_and_grad through a {T}-step loop "
        f"in {time.perf_counter() - start:.2f} s"
    )
    print("ops in the gradient graph:", step.concrete(W, U, b, xs, target).graph.op_counts())


if __name__ == "__main__":
    main()
