"""lowering.nonlocals: the copies around calls of a function that sets ``nonlocal`` variables,
seen in the lowered code (``cf.code``); their effect is checked against eager runs in
tests/semantics/test_nonlocal.py."""

import numpy as np

import tograph as tg


def counted(x):
    n = 0

    def step():
        nonlocal n
        n += 1

    step()
    if x[0] > 0:
        step()
    return x * n, n


def test_calls_in_blocks_copy_the_variables_in_and_out_and_the_block_carries_them():
    cf = tg.to_static(counted).concrete(np.ones(2))
    code = cf.code
    assert code.count("_t.store_cells, step, ('n',), (n,)") == 2
    assert code.count("n, = _t.load_cells(step, ('n',))") == 2
    assert "def if_body_1(n):" in code  # the branch takes and returns n: a cond output
    for x in (np.ones(2), -np.ones(2)):
        got, want = tg.to_static(counted)(x), counted(x)
        np.testing.assert_array_equal(got[0], want[0])
        assert got[1] == want[1] and type(got[1]) is type(want[1])


def reads_in_the_calling_statement(x):
    n = 1

    def grow():
        nonlocal n
        n *= 3
        return n

    return x * grow() + n


def test_a_top_level_statement_reading_what_the_call_sets_gets_no_copies():
    cf = tg.to_static(reads_in_the_calling_statement).concrete(np.ones(2))
    assert "store_cells" not in cf.code and "load_cells" not in cf.code
    x = np.arange(2.0)
    np.testing.assert_array_equal(
        tg.to_static(reads_in_the_calling_statement)(x), reads_in_the_calling_statement(x)
    )
