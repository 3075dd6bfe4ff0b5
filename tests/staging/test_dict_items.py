"""Entries of a dict from before a tensor ``if`` or loop, set inside it through a name the op does
not carry (``staging.dict_items``): the compiled function against its eager run, values, kinds,
the caller's dict afterwards and which of its arrays are still the caller's own."""

import copy

import numpy as np
import pytest
from tests.semantics import eager_oracle

import tograph as tg


def add_entry(d, key, v):
    d[key] += v
    return d[key]


def add_if_positive(d, key, v):
    if v > 0:
        d[key] += v
    return d[key]


def put(d, key, v):
    d[key] = v


def call_in_if(x, d):
    if x.sum() > 0:
        add_entry(d, "a", float(x[0]))
        add_entry(d, "v", 1.0)
    return x + 1


def call_in_while(x, d):
    c = 0
    while c < 3 and x.sum() > c:
        c += 1
        add_entry(d, "a", x[0])
        add_entry(d, "n", 1)
    return d["a"]


def callee_branches(x, d):
    return add_if_positive(d, "a", x[0])


def local_dict(x):
    d = {"a": 1.0, "v": x * 0}
    if x.sum() > 0:
        add_if_positive(d, "a", x[0])
        add_entry(d, "v", x)
    return d


def new_key_on_both_paths(x, d):
    if x.sum() > 0:
        put(d, "k", x * 2)
    else:
        put(d, "k", x - 1)
    return d["k"].sum()


def rebinds_array_entry(x, d):
    if x[0] > 0:
        put(d, "v", d["v"] * 2)
    return d


def nested_ifs(x, d):
    if x.sum() > 0:
        if x[0] > 0:
            add_entry(d, "a", 2)
        add_entry(d, "n", 1)
    return d["n"]


CASES = [
    call_in_if,
    call_in_while,
    callee_branches,
    local_dict,
    new_key_on_both_paths,
    rebinds_array_entry,
    nested_ifs,
]


def _dict_arg():
    return {"a": 0.5, "n": 3, "v": np.array([1.0, -2.0, 3.0])}


def _outcome(fn, x, d, takes_dict):
    arrays = {k: v for k, v in d.items() if isinstance(v, np.ndarray)}
    args = (x, d) if takes_dict else (x,)
    result = fn(*args)
    kept = {k: d.get(k) is v for k, v in arrays.items()}
    return result, d, kept


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_compiles_as_eager(fn, sign):
    x = sign * np.array([1.0, 2.0, 0.5])
    takes_dict = fn is not local_dict
    eager = _outcome(fn, x.copy(), _dict_arg(), takes_dict)
    static = tg.to_static(fn)
    compiled = _outcome(static, x.copy(), _dict_arg(), takes_dict)
    assert eager_oracle.same(eager[0], compiled[0]), (eager[0], compiled[0])
    assert eager_oracle.same(eager[1], compiled[1]), (eager[1], compiled[1])
    assert eager[2] == compiled[2], "which of the caller's arrays the dict still holds"
    args = (x, _dict_arg()) if takes_dict else (x,)
    assert static.concrete(*copy.deepcopy(args)).fallback is None


def new_key_on_one_path(x, d):
    if x.sum() > 0:
        put(d, "k", x * 2)
    return x


def test_key_set_on_some_paths_falls_back_naming_it():
    cf = eager_oracle.assert_matches_eager(
        new_key_on_one_path, np.ones(3), _dict_arg(), compiles=False
    )
    assert "key 'k'" in str(cf.fallback) and "some paths only" in str(cf.fallback)
