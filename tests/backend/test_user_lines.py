"""The line tables ``user_lines.relocate`` writes: read back by CPython, every instruction sits
at the user line its generated line maps to, and the bytecode is the original's."""

import random

from tograph.backend import user_lines

_SOURCE = """
def f(x, n):
    try:
        s = 0
        while s < n:
            s = s + x * 2 if s % 3 else s + 1
            t = [s, s + 1, s + 2]
        def inner(y):
            return y + s
        return inner(t[0])
    except Exception as exc:
        raise exc
"""


def _lines(code):
    return [(start, end, line) for start, end, line in code.co_lines()]


def test_relocated_code_reads_back_at_the_mapped_lines():
    code = compile(_SOURCE, "<generated>", "exec")
    rng = random.Random(0)
    # jumps both ways, short and long (varints of one to three bytes)
    mapping = {g: rng.choice([1, 5, 70, 3000, 200000]) for g in range(1, 13)}
    relocated = user_lines.relocate(code, "/user/model.py", 1, mapping)
    originals = user_lines.originals(code, relocated)
    todo = [relocated]
    while todo:
        new = todo.pop()
        old = originals[id(new)]
        assert new.co_code == old.co_code and new.co_filename == "/user/model.py"
        read = {o: line for s, e, line in _lines(new) for o in range(s, e, 2)}
        for start, end, line in _lines(old):
            for offset in range(start, end, 2):
                assert read[offset] == (None if line is None else mapping.get(line))
                assert user_lines.generated_line(old, offset) == line
        todo.extend(c for c in new.co_consts if type(c) is type(new))
    assert len(originals) == 3  # the module, f and inner


def test_a_relocated_function_runs_as_the_original():
    namespace_a, namespace_b = {}, {}
    code = compile(_SOURCE, "<generated>", "exec")
    exec(code, namespace_a)  # noqa: S102 - the test's own source
    exec(user_lines.relocate(code, "/user/model.py", 3, {}), namespace_b)  # noqa: S102
    assert namespace_a["f"](1.5, 7) == namespace_b["f"](1.5, 7)
