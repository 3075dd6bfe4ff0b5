"""The tograph quickstart: compile a function with a data-dependent loop and branch, look at every
stage the compiler produced, and see what happens with code it cannot convert.

    python examples/quickstart.py
"""

import warnings

import numpy as np

import tograph as tg


@tg.to_static
def newton_sqrt(a, tol=1e-10):
    """Square roots by Newton's method: the trip count depends on the data."""
    x = a
    steps = 0
    while np.max(np.abs(x * x - a)) > tol:
        x = 0.5 * (x + a / x)
        steps += 1
    if steps > 8:
        print("slow convergence:", steps, "steps, largest residual", np.max(np.abs(x * x - a)))
    return x, steps


@tg.to_static
def int_sum_or_zero(x):
    try:
        return int(x.sum())  # int() of a NaN raises ValueError, of an infinity OverflowError
    except (ValueError, OverflowError):
        return 0


def main():
    a = np.array([2.0, 9.0, 1e4])
    root, steps = newton_sqrt(a)
    print(f"newton_sqrt({a.tolist()}) = {root} in {steps} steps")

    cf = newton_sqrt.concrete(a)
    print("\n# cf.code: the converted Python source")
    print(cf.code)
    print("# cf.ssa: SSA form with phi nodes")
    print(cf.ssa)
    print("\n# cf.types: the inferred type of every SSA value")
    for name, t in cf.types.items():
        print(f"{name:>10}: {t}")
    print("\n# cf.graph: the optimised graph")
    print(cf.graph)
    print("\n# op counts:", cf.op_counts())

    print("\n# code tograph cannot convert exactly runs eagerly, with a warning:")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print("int_sum_or_zero ->", int_sum_or_zero(np.arange(4.0)))
    for w in caught:
        print(f"{w.category.__name__}: {w.message}")


if __name__ == "__main__":
    main()
