"""Random programs whose values exist on some paths only: one-sided bindings read guarded and
unguarded, ``None`` until a hit, numbers whose kind depends on the path (in ifs, for and while
loops, printed and returned), made from a fixed seed. Each runs eagerly and under to_static on
several inputs: the outcomes (values, dtypes, kinds, exceptions, printed text) must match, no
compiler error may show as a fallback, and nearly all must compile (a value that is None on one
path and a tagged number on another still runs eagerly)."""

import importlib.util
import random
import sys

import numpy as np
import pytest
from test_optional_values import matches_eager

import tograph as tg

PROGRAMS = 40
INPUTS = [
    np.array([1.5, -2.0, 3.0, 0.5]),
    np.array([-1.0, -2.0, -3.0, -0.5]),
    np.array([4.0, 2.0, -1.0, 5.0]),
]


def _test(rng: random.Random) -> str:
    return f"x[{rng.randrange(4)}] > {rng.choice([-1.5, 0.0, 1.0, 2.5])}"


def _block(rng: random.Random, out: list[str]) -> None:
    """Appends one statement that binds a variable on some paths only."""
    kind = rng.randrange(7)
    if kind == 5:
        out += ["n = 0", "while n < 4 and x[n] < 1:", "    k = x[n] + 0.5", "    n += 1"]
    elif kind == 6:
        out += ["for v in x:", "    if v < -1:", "        k = v.astype(np.float32)"]
        out += ["        z = v"]
    elif kind == 0:
        out += [f"if {_test(rng)}:", f"    y = x[{rng.randrange(4)}] * {rng.randrange(1, 4)}"]
    elif kind == 1:
        out += [f"if {_test(rng)}:", f"    res = x[{rng.randrange(4)}]"]
    elif kind == 2:
        limit = rng.choice([0.0, 2.0, 4.5])
        out += ["for v in x:", f"    if v > {limit}:", "        res = v"]
    elif kind == 3:
        out += [f"if {_test(rng)}:", f"    k = np.int32({rng.randrange(9)})"]
    else:
        out += [f"if {_test(rng)}:", "    y = x[0] + 1", "else:", "    z = x[1] - 1"]


def _result(rng: random.Random, out: list[str]) -> None:
    """Appends reads of those variables: guarded, unguarded, tested against None."""
    kind = rng.randrange(6)
    if kind == 5:
        out += ["print('k', k, 'res', res is None)", "return k"]
    elif kind == 0:
        out += ["return y"]
    elif kind == 1:
        test = _test(rng)
        out += [f"if {test}:", f"    y = x[{rng.randrange(4)}]", f"if {test}:", "    return y * 2"]
        out += ["return x[0]"]
    elif kind == 2:
        out += ["if res is None:", "    return k", "return res * 2 + k"]
    elif kind == 3:
        out += ["return res, k, res is not None"]
    else:
        out += [
            "if res is not None and res > 1:",
            "    return res",
            "return z if z is not None else k",
        ]


def program(seed: int) -> str:
    rng = random.Random(seed)
    body = ["res = None", "k = 0", "z = None", f"if {_test(rng)}:", "    y = x[2]"]
    for _ in range(rng.randrange(1, 4)):
        _block(rng, body)
    _result(rng, body)
    return "import numpy as np\n\n\ndef prog(x):\n" + "".join(f"    {line}\n" for line in body)


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("random_paths")
    made = []
    for seed in range(PROGRAMS):
        path = folder / f"prog_{seed}.py"
        path.write_text(program(seed))
        spec = importlib.util.spec_from_file_location(f"random_paths_{seed}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        made.append(module.prog)
    return made


def _printed(fn, x, capsys):
    """What ``fn(x)`` prints (it may raise: the oracle compares that)."""
    try:
        fn(x)
    except UnboundLocalError:
        pass
    return capsys.readouterr().out


@pytest.mark.parametrize("seed", range(PROGRAMS))
def test_random_program_matches_eager_and_compiles(programs, seed, capsys):
    static = tg.to_static(programs[seed])
    for x in INPUTS:
        assert _printed(static, x, capsys) == _printed(programs[seed], x, capsys)
        cf = matches_eager(programs[seed], x, compiles=False)
        capsys.readouterr()
        assert cf.fallback is None or "tracing raised" not in cf.fallback, cf.fallback


def test_nearly_all_random_programs_compile(programs):
    compiled = [tg.to_static(fn).concrete(INPUTS[0]).fallback is None for fn in programs]
    assert sum(compiled) >= 0.9 * PROGRAMS
