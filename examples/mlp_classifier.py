"""A two-layer ReLU network classifying three interleaved spirals, trained by SGD.

    python examples/mlp_classifier.py

The loss (softmax cross-entropy plus weight decay) is a compiled function; one training step
calls ``tg.value_and_grad`` of it for the loss and the gradients of all parameters, which are
passed as one dict (the gradients come back as a dict of the same shape). float32 throughout.
"""

import numpy as np

import tograph as tg

CLASSES, PER_CLASS, HIDDEN = 3, 200, 64
STEPS, LEARNING_RATE, DECAY = 1500, 0.5, 1e-4


@tg.to_static
def loss_fn(params, x, labels):
    """Softmax cross-entropy of the network on ``x`` (one-hot ``labels``) plus weight decay."""
    hidden = np.maximum(x @ params["w1"] + params["b1"], 0.0)
    logits = hidden @ params["w2"] + params["b2"]
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_p = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    decay = 0.0
    for name in ("w1", "w2"):
        decay = decay + np.sum(params[name] * params[name])
    return -np.mean(np.sum(labels * log_p, axis=1)) + DECAY * decay


@tg.to_static
def accuracy(params, x, labels):
    hidden = np.maximum(x @ params["w1"] + params["b1"], 0.0)
    logits = hidden @ params["w2"] + params["b2"]
    return np.mean(np.argmax(logits, axis=1) == np.argmax(labels, axis=1))


def spirals(rng):
    """Three spiral arms in the plane, with noise; float32 points and one-hot labels."""
    radius = np.tile(np.linspace(0.05, 1.0, PER_CLASS), CLASSES)
    arm = np.repeat(np.arange(CLASSES), PER_CLASS)
    angle = arm * 2 * np.pi / CLASSES + radius * 4.0 + rng.normal(scale=0.15, size=radius.shape)
    x = np.stack([radius * np.sin(angle), radius * np.cos(angle)], axis=1)
    return x.astype(np.float32), np.eye(CLASSES, dtype=np.float32)[arm]


def init_params(rng):
    def weights(rows, cols):
        return (rng.normal(size=(rows, cols)) * np.sqrt(2.0 / rows)).astype(np.float32)

    return {
        "w1": weights(2, HIDDEN),
        "b1": np.zeros(HIDDEN, np.float32),
        "w2": weights(HIDDEN, CLASSES),
        "b2": np.zeros(CLASSES, np.float32),
    }


def main():
    rng = np.random.default_rng(0)
    x, labels = spirals(rng)
    params = init_params(rng)
    step = tg.value_and_grad(loss_fn)
    for k in range(STEPS + 1):
        loss, grads = step(params, x, labels)
        params = {name: value - LEARNING_RATE * grads[name] for name, value in params.items()}
        if k % 150 == 0:
            print(
                f"step {k:4d}  loss {float(loss):.4f}  "
                f"accuracy {float(accuracy(params, x, labels)):.3f}"
            )
    assert grads["w1"].dtype == np.float32
    print(f"final accuracy {float(accuracy(params, x, labels)):.3f} on {len(x)} points")


if __name__ == "__main__":
    main()
