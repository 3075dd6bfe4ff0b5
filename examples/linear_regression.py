"""Linear regression trained by minibatch SGD, with gradients from ``tg.value_and_grad``.

    python examples/linear_regression.py

The loss is a compiled (``@tg.to_static``) function; ``tg.value_and_grad`` turns its graph into
one gradient graph that computes the loss and the gradients of the weights and bias together.
The data are synthetic: y = x @ w_true + b_true + noise.
"""

import numpy as np

import tograph as tg

FEATURES, SAMPLES, BATCH, EPOCHS, LEARNING_RATE = 8, 2048, 64, 10, 0.01


@tg.to_static
def mse(w, b, x, y):
    """Mean squared error of the linear model ``x @ w + b``."""
    residual = x @ w + b - y
    return np.mean(residual * residual)


def make_data(rng):
    w_true = rng.normal(size=FEATURES)
    b_true = 0.7
    x = rng.normal(size=(SAMPLES, FEATURES))
    y = x @ w_true + b_true + 0.1 * rng.normal(size=SAMPLES)
    return x, y, w_true, b_true


def main():
    rng = np.random.default_rng(0)
    x, y, w_true, b_true = make_data(rng)
    w, b = np.zeros(FEATURES), np.float64(0.0)
    step = tg.value_and_grad(mse, argnums=(0, 1))
    print(f"initial loss {mse(w, b, x, y):.4f}")
    for epoch in range(EPOCHS):
        order = rng.permutation(SAMPLES)
        for start in range(0, SAMPLES, BATCH):
            batch = order[start : start + BATCH]
            loss, (grad_w, grad_b) = step(w, b, x[batch], y[batch])
            w = w - LEARNING_RATE * grad_w
            b = b - LEARNING_RATE * grad_b
        print(f"epoch {epoch + 1:2d}  loss {mse(w, b, x, y):.4f}  last batch {loss:.4f}")
    print(f"|w - w_true| = {np.linalg.norm(w - w_true):.4f}, b = {float(b):.3f} (true {b_true})")
    print("\nthe gradient graph:")
    print(step.concrete(w, b, x[:BATCH], y[:BATCH]).graph)


if __name__ == "__main__":
    main()
