"""Type inference: static values, tensors with dtype/shape, weak values, phis decided by tensors."""

import numpy as np

import tograph as tg


def loop_over_rows(x, scale):
    total = np.zeros(x.shape[1], dtype=x.dtype)
    count = 0
    for row in x:
        if row.sum() > 0:
            total = total + row * scale
        count += 1
    return total / count


def static_branch(x, mode):
    if mode == "double":
        y = x * 2
    else:
        y = x
    return y


def types_of(fn, *args):
    return tg.to_static(fn, fallback="error").concrete(*args).types


def test_tensor_loop_types_follow_numpy_and_weak_counters():
    t = types_of(loop_over_rows, np.ones((4, 3), np.float32), 2.0)
    assert t["x"] == "f32[4,3]" and t["scale"] == "float (static)"
    assert t["total"] == "f32[3] (constant)"  # np.zeros of a static shape is folded while tracing
    assert t["row"] == "f32[3]" and t["total_1"] == "f32[3]"
    assert t["count"] == "int (static)" and t["count_1"] == t["count_2"] == "i64[]~"
    assert t["total_3"] == "f32[3]"  # the phi after the tensor if


def test_static_condition_keeps_values_static():
    t = types_of(static_branch, np.ones(2), "double")
    assert t["mode"] == "str (static)"
    assert t["y"] == t["y_1"] == t["y_2"] == "f64[2]"
