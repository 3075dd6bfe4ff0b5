"""Array attributes and methods of a value that is a Python number in eager code (a counter a
tensor loop carries): eager raises ``AttributeError`` (``'int' object has no attribute 'T'``),
so the compiled function must too, where the graph would have answered for its tensor."""

import numpy as np
import pytest

import tograph as tg


def _count_positive(x):
    n = 0
    for v in x:
        if v > 0:
            n += 1
    return n


def transposed(x):
    return _count_positive(x).T


def shape_of(x):
    n = 0.5
    while x.sum() > n:
        n += 1.0
    return n.shape


def dtype_of(x):
    return (_count_positive(x) * 2).dtype


def summed(x):
    return _count_positive(x).sum()


def cast(x):
    n = 0.0
    for v in x:
        n += float(v)
    return n.astype(np.int32)


def kept_number_attributes(x):
    n = _count_positive(x)
    return n.real, n.imag, n.conjugate()


@pytest.mark.parametrize("fn", [transposed, shape_of, dtype_of, summed, cast])
def test_an_array_attribute_of_a_python_number_raises_as_eager(fn):
    x = np.array([1.0, -2.0, 3.0])
    with pytest.raises(AttributeError) as eager:
        fn(x)
    with pytest.raises(AttributeError, match=str(eager.value)):
        tg.to_static(fn)(x)


def test_attributes_python_numbers_have_still_compile():
    x = np.array([1.0, -2.0, 3.0])
    static = tg.to_static(kept_number_attributes, fallback="error")
    got, want = static(x), kept_number_attributes(x)
    assert got == want and [type(v) for v in got] == [type(v) for v in want]
