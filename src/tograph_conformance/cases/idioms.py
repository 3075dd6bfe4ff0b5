"""Conformance cases: everyday Python idioms around control flow: a best-so-far starting at
``None``, builtins (``any``, ``all``, ``sum``, ``max``, ``round``, ``abs``) over tensors and
generator expressions, bool arithmetic, late-binding closures, names that shadow builtins,
attribute state on objects, chained assignment, loop indices read after the loop."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("idioms")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
POS = np.array([1.0, 2.0, 3.0])


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def best_so_far_starts_as_none(x):
    best = None
    for v in x:
        if best is None or v > best:
            best = v
    return best


@CASES.case(args=[(VEC,), (POS,)])
def any_over_generator(x):
    if any(v < 0 for v in x):
        x = np.abs(x)
    return x


@CASES.case(args=[(VEC,), (POS,)])
def all_over_generator(x):
    return all(v > 0 for v in x)


@CASES.case(args=[(VEC,)])
def sum_of_generator_expression(x):
    return sum(v * v for v in x)


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"while_loop"})
def bool_added_to_counter(x):
    count = 0
    for v in x:
        count += v > 0
    return count


@CASES.case(args=[(np.int64(7),), (np.int64(0),)], expect_ops={"while_loop"})
def python_int_division_in_loop(n):
    total = 0
    count = 0
    for i in range(n):
        total += i
        count += 1
    return total / max(count, 1)


@CASES.case(args=[(np.int64(6),)], expect_ops={"while_loop"})
def builtin_max_of_weak_ints(n):
    best = 0
    for i in range(n):
        best = max(best, (i * 7) % 5)
    return best


@CASES.case(args=[(f64(2.4),), (f64(-3.6),)])
def round_and_abs_of_tensor(x):
    steps = round(abs(x) * 10)
    return steps, int(x)


# Loop bodies become functions, so a closure made in one would see its own iteration's `i`, not
# the final one Python's late binding gives: tograph runs such functions eagerly instead.
@CASES.case(
    args=[(VEC,)], expect="fallback", error="closure over variable 'i'", at="lambda v: v * i"
)
def late_binding_closures(x):
    scalers = []
    for i in range(3):
        scalers.append(lambda v: v * i)
    return scalers[0](x) + scalers[1](x)


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def default_argument_binds_early(x):
    scalers = []
    for i in range(3):
        scalers.append(lambda v, k=i: v * k)
    return scalers[0](x) + scalers[2](x)


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def names_shadowing_builtins(x):
    sum = 0.0 * x[0]
    max = x[0]
    for v in x:
        sum = sum + v
        if v > max:
            max = v
    return sum, max


class Accumulator:
    def __init__(self):
        self.total = 0.0
        self.calls = 0

    def add(self, x):
        for v in x:
            if v > 0:
                self.total = self.total + v
        self.calls += 1
        return self.total


# The attributes of an object made in the function that a tensor loop sets are carried by the
# loop, as a variable is: the object holds afterwards what eager code leaves in it.
@CASES.case(args=[(VEC,)])
def object_attribute_state(x):
    acc = Accumulator()
    acc.add(x)
    acc.add(x * 2)
    return acc.total, acc.calls


@CASES.case(args=[(VEC,)])
def chained_assignment(x):
    a = b = x * 2
    a = a + 1
    return a, b


@CASES.case(args=[(VEC, np.int64(3)), (VEC, np.int64(0))], expect_ops={"while_loop"})
def loop_index_read_after_loop(x, n):
    i = -1
    for i in range(n):
        x = x + i
    return x, i


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def iterated_tensor_reassigned_in_body(x):
    total = 0.0 * x[0]
    for v in x:
        x = x * 2
        total = total + v
    return total, x


@CASES.case(args=[(VEC, 3)], forbid_ops={"while_loop"})
def range_bound_evaluated_once(x, n):
    for _ in range(n):
        n = n + 1
        x = x * 0.5
    return x, n


@CASES.case(args=[(np.arange(6.0).reshape(2, 3),)])
def zip_star_transposes(m):
    col_sums = []
    for col in zip(*m):
        col_sums.append(sum(col))
    return np.array(col_sums)


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def static_list_of_tuples(x):
    for name, weight in [("scale", 2.0), ("shift", 0.5), ("scale", -1.0)]:
        if name == "scale":
            x = x * weight
        else:
            x = x + weight
    return x


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def print_without_newline_in_loop(x):
    for v in x:
        print(v, end=" ")
    print()
    return x.sum()


@CASES.case(args=[(f64(16.0),), (f64(-1.0),)], expect_ops={"while_loop", "assert"})
def assert_in_while(x):
    steps = 0
    while x > 1:
        assert steps < 10, "too many steps"
        x = np.sqrt(x)
        steps += 1
    return x, steps


@CASES.case(args=[(VEC, {"scale": 2.0, "shift": 1.0})])
def kwargs_from_dict(x, options):
    def transform(v, scale=1.0, shift=0.0):
        if scale > 1:
            v = v * scale
        return v + shift

    return transform(x, **options)


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"cond"})
def conditional_expression_with_call(x):
    total = np.sum(x)
    return np.log(total) if total > 5 else np.exp(total)


@CASES.case(args=[(np.array([[1.0, -2.0], [3.0, 4.0]]), np.int64(1), np.int64(0))])
def chained_indexing_with_tensor_indices(m, i, j):
    return m[i][j] + m[j][i]


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def reverse_static_index_loop(x):
    out = np.zeros_like(x)
    carry = 0.0
    for i in range(x.shape[0] - 1, -1, -1):
        carry = carry + x[i]
        out[i] = carry
    return out
