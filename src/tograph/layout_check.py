"""A call that repeats an argument layout already seen, checked by generated code.

The fast paths of ``to_static`` and ``grad`` find the compiled runner of a call of positional
arrays by a key of each array's type, dtype and shape. Building that key costs about 0.1 us per
argument, which is most of what a call of a small model costs beyond its kernels. A loop calling
with one layout again and again meets instead a function generated for that layout: it compares
each argument with the layout inline (``type(a0) is T0 and a0.dtype is D0 and a0.shape == S0``)
and runs the runner, or returns ``MISS`` for the keyed path to decide. A dtype equal to the
layout's but another object misses too, and the keyed path (which compares by equality) serves it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

MISS: Any = object()
Check = Callable[[tuple[Any, ...]], Any]


def never(args: tuple[Any, ...]) -> Any:
    """The check before any layout is known: every call misses."""
    return MISS


def for_layout(args: Sequence[Any], runner: Callable[[tuple[Any, ...]], Any]) -> Check:
    """A check that calls ``runner(args)`` when the call's arguments have the types, dtypes and
    shapes of ``args`` (arrays, or NumPy scalars), else returns ``MISS``."""
    names = [f"a{i}" for i in range(len(args))]
    env: dict[str, Any] = {"_runner": runner, "_MISS": MISS}
    tests = [f"len(args) == {len(args)}"]
    for i, (name, a) in enumerate(zip(names, args)):
        env[f"_T{i}"], env[f"_D{i}"], env[f"_S{i}"] = type(a), a.dtype, a.shape
        tests.append(f"type({name}) is _T{i} and {name}.dtype is _D{i} and {name}.shape == _S{i}")
    unpack = f"{', '.join(names)}, = args" if names else "pass"
    source = (
        "def repeated_layout(args):\n"
        f"    if {tests[0]}:\n"
        f"        {unpack}\n"
        f"        if {' and '.join(tests[1:]) or 'True'}:\n"
        "            return _runner(args)\n"
        "    return _MISS\n"
    )
    exec(compile(source, "<tograph layout check>", "exec"), env)  # noqa: S102 - generated above
    check: Check = env["repeated_layout"]
    return check
