"""Data-dependent loops: Collatz steps and Newton's square root, compiled by tograph.

python examples/collatz.py
"""

import numpy as np

import tograph as tg


@tg.to_static
def collatz_steps(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@tg.to_static
def newton_sqrt(a, tol=1e-12):
    x = a
    iterations = 0
    while np.max(np.abs(x * x - a)) > tol:
        x = 0.5 * (x + a / x)
        iterations += 1
    return x, iterations


def main():
    for n in (6, 27, 97):
        print(f"collatz_steps({n}) = {collatz_steps(np.int64(n))}")
    a = np.array([2.0, 9.0, 1e6])
    root, its = newton_sqrt(a)
    print(f"newton_sqrt({a.tolist()}) = {root.tolist()} after {its} iterations")
    cf = collatz_steps.concrete(np.int64(27))
    print("\nThe compiled graph of collatz_steps:")
    print(cf.graph)


if __name__ == "__main__":
    main()
