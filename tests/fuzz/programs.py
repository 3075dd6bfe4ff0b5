"""Whole random programs: a module holding the function ``f``, the helpers it may call, and
``make_args(variant)``, which builds fresh arguments for input set ``variant`` (so a program file
is a self-contained reproducer).

``f`` takes ``x`` and a random choice of the other arguments: arrays of several dtypes, an int and
a float that are Python or NumPy scalars, an array of a small or unusual dtype (``q``, under
``dtypes``: int8, uint8, int32, float16, complex128 or bool), a list, a dict, a tuple or list of
arrays (``tuple_args``) and a ``Box`` object (with a list attribute under ``object_lists``); with
``overlapping_args`` two array arguments may share memory, and with ``same_args`` the argument
``w`` is on one input set the very array passed as ``x`` (another array on the other). Every
choice comes from ``random.Random(seed)``, so a seed and a feature set name one program.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

from . import idioms, statements
from .expressions import Scope

HEADER = '''\
import numpy as np


class Box:
    """A small object whose attributes the program reads and writes."""

    def __init__(self, w, n, hist=None):
        self.w = w
        self.n = n
        if hist is not None:
            self.hist = hist

    def bump(self, v):
        self.w += v
        self.n += 1
        return self.n


def scale_into(a, c):
    a *= c
    return a


def head(a):
    return a[:2]


def record(o, v):
    o.hist.append(v)
    return len(o.hist)


def add_entry(d, key, v):
    d[key] += v
    return d[key]


def first_items(items, c):
    for a in items:
        a[0] = c
    return len(items)
'''
# The arguments ``f`` may take besides arrays and scalars, and whether two may share memory.
ARGUMENT_FEATURES = frozenset(
    "list_args dict_args object_args overlapping_args tuple_args object_lists same_args".split()
)
ALL_FEATURES = (
    statements.STATEMENT_FEATURES
    | statements.RISKY_FEATURES
    | statements.IDIOM_FEATURES
    | ARGUMENT_FEATURES
)
CI_FEATURES = ALL_FEATURES - statements.RISKY_FEATURES - statements.FALLBACK_FEATURES
VARIANTS = 2  # input sets per program


@dataclasses.dataclass(frozen=True)
class Program:
    """A generated program: its module source, and what made it."""

    source: str
    seed: int
    features: frozenset[str]


def _floats(rng: random.Random, count: int) -> list[float]:
    return [rng.randrange(-6, 7) / 2 for _ in range(count)]


def _array(rng: random.Random, shape: tuple[int, ...], dtype: str) -> str:
    size = int(np.prod(shape))
    values: list[Any] = _floats(rng, size)
    if dtype.startswith(("int", "uint")):
        values = [abs(int(v)) if dtype.startswith("u") else int(v) for v in values]
    nested = np.array(values, dtype=object).reshape(shape).tolist()
    suffix = "" if dtype in ("float64", "int64") else f", dtype=np.{dtype}"
    return f"np.array({nested}{suffix})"


@dataclasses.dataclass(frozen=True)
class _Parameter:
    """An argument ``f`` may take: its probe and the source of its value per variant."""

    name: str
    probe: Any
    values: tuple[str, ...]


def _parameters(rng: random.Random, features: frozenset[str]) -> list[_Parameter]:
    def each(make: Any) -> tuple[str, ...]:
        return tuple(make() for _ in range(VARIANTS))

    y_dtype = rng.choice(["float64", "float32", "int64", "int32"])
    m_dtype = rng.choice(["float64", "float32"])
    k_numpy, s_type = rng.random() < 0.6, rng.choice(["float", "np.float64", "np.float32"])
    k_make = (
        (lambda: f"np.int64({rng.randrange(5)})") if k_numpy else (lambda: str(rng.randrange(5)))
    )
    # ``m`` is C-contiguous, or the transpose of a (4, 3) array (its layout is Fortran's)
    m_probe, m_make = np.ones((3, 4), m_dtype), lambda: _array(rng, (3, 4), m_dtype)
    if rng.random() < 0.3:
        m_probe, m_make = np.ones((4, 3), m_dtype).T, lambda: _array(rng, (4, 3), m_dtype) + ".T"
    candidates = [
        _Parameter("x", np.ones(4), each(lambda: _array(rng, (4,), "float64"))),
        _Parameter("y", np.ones(3, y_dtype), each(lambda: _array(rng, (3,), y_dtype))),
        _Parameter("m", m_probe, each(m_make)),
        _Parameter("k", np.int64(1) if k_numpy else 1, each(k_make)),
        _Parameter("s", eval(f"{s_type}(1.5)"), each(lambda: f"{s_type}({_floats(rng, 1)[0]})")),
        _Parameter("z", np.array(1.5), each(lambda: f"np.array({_floats(rng, 1)[0]})")),
        _Parameter("b", np.ones(3, bool), each(lambda: _array(rng, (3,), "bool"))),
        _Parameter("e", np.zeros(0), each(lambda: "np.zeros(0)")),
    ]
    if "same_args" in features:
        candidates.append(_Parameter("w", np.ones(4), each(lambda: _array(rng, (4,), "float64"))))
    if "list_args" in features:
        candidates.append(_Parameter("lst", [1.5, 1.5], each(lambda: str(_floats(rng, 2)))))
    if "dict_args" in features:
        candidates.append(
            _Parameter(
                "d",
                {"a": 1.5, "n": 1, "v": np.ones(2)},
                each(
                    lambda: (
                        f'{{"a": {_floats(rng, 1)[0]}, "n": {rng.randrange(4)}, '
                        f'"v": {_array(rng, (2,), "float64")}}}'
                    )
                ),
            )
        )
    if "dtypes" in features:
        q_dtype = rng.choice(idioms.SMALL_DTYPES)
        candidates.append(
            _Parameter("q", np.ones(4, q_dtype), each(lambda: _array(rng, (4,), q_dtype)))
        )
    if "tuple_args" in features:
        t_dtype = rng.choice(["float64", "float64", "int64", "float32"])
        opening, closing = ("(", ")") if rng.random() < 0.7 else ("[", "]")
        probe = (np.ones(3), np.ones((2, 2), t_dtype))
        candidates.append(
            _Parameter(
                "ts",
                probe if opening == "(" else list(probe),
                each(
                    lambda: (
                        f"{opening}{_array(rng, (3,), 'float64')}, "
                        f"{_array(rng, (2, 2), t_dtype)}{closing}"
                    )
                ),
            )
        )
    chosen = [candidates[0]] + [c for c in candidates[1:] if rng.random() < 0.55]
    if "object_args" in features and rng.random() < 0.4:
        w = each(lambda: _array(rng, (3,), "float64"))
        n = each(lambda: str(rng.randrange(4)))
        hist: tuple[str | None, ...] = (None,) * VARIANTS
        if "object_lists" in features and rng.random() < 0.6:
            hist = each(lambda: str(_floats(rng, rng.randrange(1, 3))))
        values = tuple(
            f"Box({a}, {b})" if h is None else f"Box({a}, {b}, {h})" for a, b, h in zip(w, n, hist)
        )
        chosen.append(_Parameter("o", ("box", np.ones(3), 1, hist[0] and [1.5]), values))
    return chosen


def _args_source(rng: random.Random, params: list[_Parameter], features: frozenset[str]) -> str:
    """``make_args``: one ``return`` per variant; ``y`` may be a view of ``x``'s memory, and
    ``w`` may be ``x`` itself on the first input set."""
    overlap = "overlapping_args" in features and rng.random() < 0.1
    same = "same_args" in features and rng.random() < 0.6
    lines = ["def make_args(variant):"]
    for variant in range(VARIANTS):
        values = [p.values[variant] for p in params]
        body = "    " if variant == VARIANTS - 1 else "        "
        if variant < VARIANTS - 1:
            lines.append(f"    if variant == {variant}:")
        names = [p.name for p in params]
        if overlap and "y" in names and params[names.index("y")].probe.dtype == np.float64:
            lines.append(f"{body}base = {values[0]}")
            values[0], values[names.index("y")] = "base", "base[1:]"
        if same and variant == 0 and "w" in names:
            lines.append(f"{body}same = {values[0]}")
            values[0], values[names.index("w")] = "same", "same"
        lines.append(f"{body}return ({', '.join(values)},)")
    return "\n".join(lines) + "\n"


def _probes(params: list[_Parameter], env: dict[str, Any]) -> dict[str, Any]:
    probes = {}
    for p in params:
        probes[p.name] = env["Box"](*p.probe[1:]) if p.name == "o" else p.probe
    return probes


def _argument_arrays(probes: dict[str, Any]) -> list[np.ndarray]:
    """The arrays the arguments hold: the array arguments, the dict's, the tuple's and the
    object's."""
    found = []
    for value in probes.values():
        values = value.values() if isinstance(value, dict) else [value]
        if isinstance(value, (tuple, list)):
            values = value
        if hasattr(value, "__dict__") and not isinstance(value, np.ndarray):
            values = vars(value).values()
        found += [v for v in values if isinstance(v, np.ndarray)]
    return found


def generate(seed: int, features: frozenset[str] = CI_FEATURES) -> Program:
    """The program of ``seed`` using only ``features``."""
    rng = random.Random(seed)
    env: dict[str, Any] = {}
    exec(HEADER, env)  # noqa: S102 - the helpers the probes call
    params = _parameters(rng, features)
    probes = _probes(params, env)
    scope = Scope(env, probes, {}, _argument_arrays(probes))
    writer = statements.Writer(rng, scope, features)
    writer.block(statements.Flow(), rng.randint(3, 9))
    if not writer.lines[-1].strip().startswith("return"):
        extras = ()
        if not writer.returned_early and "lists" in features:
            lists = [
                n
                for n, v in scope.names.items()
                if isinstance(v, list) and not (v and isinstance(v[0], np.ndarray))
            ]
            extras = tuple(f"len({n})" for n in lists[:1]) + tuple(
                f"np.array({n})" for n in lists[1:2]
            )
        writer.emit_return(writer.returned_early, extras)
    signature = ", ".join(p.name for p in params)
    source = "\n".join(
        [
            HEADER,
            "",
            f"def f({signature}):",
            *writer.lines,
            "",
            "",
            _args_source(rng, params, features),
        ]
    )
    return Program(source, seed, frozenset(features))
