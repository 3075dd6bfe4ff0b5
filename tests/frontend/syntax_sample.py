"""Source text using most of Python's syntax, for tests that compare tree walks and translations
with gast's own (``test_nodes``, ``test_translate``). It is parsed, never imported."""

SOURCE = '''
import os.path as osp, sys
from collections import OrderedDict as OD
x: int = 1
y = z = [1, 2.5, 3j, "s", b"b", None, True, ...]
a, *b = c = (1, 2)
del y[0], z
global_name = {k: v for k, v in zip("ab", range(2)) if k if v}
s = {i for i in range(3)}
g = (i * 2 for i in range(3) for j in range(i))
f = f"{x!r:>{y}} and {z=}" "tail"
w = x if (n := len(s)) > 2 else -x
q = not a and b or c
r = a < b <= c is not d in e not in f
t = lambda p, /, q=1, *r, s, t=2, **u: p + q
sl = a[1:2, ::3, ...]
a.b.c += 1
a @= b

@decorator(arg)
def function(p: int, q: "str" = "d", *args: float, key=None, **kw) -> None:
    """Docstring."""
    global g
    nonlocal_like = 1
    while p > 0:
        p -= 1
        if p == 3:
            continue
        elif p == 2:
            break
    else:
        pass
    for i, j in enumerate(range(3)):
        print(i, j, sep="", end="\\n")
    try:
        raise ValueError("x") from None
    except (ValueError, TypeError) as exc:
        assert exc, "message"
    except Exception:
        raise
    else:
        pass
    finally:
        del nonlocal_like
    with open(osp.join("a", "b")) as handle, open("c"):
        yield handle
    yield from range(2)
    return [*args, *kw]

async def coroutine():
    async with lock:
        await thing()
    async for item in stream():
        print(item)

class Klass(Base, metaclass=Meta):
    attribute: int
    def method(self):
        def inner():
            nonlocal self
            return self
        return inner

match command:
    case [x, y, *rest] if x > 0:
        pass
    case {"key": value, **others}:
        pass
    case Point(x=0, y=yy) | None:
        pass
    case str() as text:
        pass
    case _:
        pass

try:
    pass
except* ValueError:
    pass
'''
