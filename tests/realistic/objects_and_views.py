"""Python object features that numeric code leans on, mixed with NumPy views: small vector
classes with ``__add__`` and ``__mul__``, properties, class attributes and classmethods,
inheritance with ``super()``, dataclasses with methods, ``__len__``/``__getitem__``/``__iter__``
containers, closures with ``nonlocal`` counters, and views of the arguments (``x[::2]``,
``reshape``, ``.T``, ``ravel``) written through, returned, or aliased by two names."""

import dataclasses
import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("dynamic")

P = np.array([1.0, -2.0, 0.5, 3.0, -1.5, 2.5])


class Vec2:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec2(self.x + other.x, self.y + other.y)

    def __sub__(self, other):
        return Vec2(self.x - other.x, self.y - other.y)

    def __mul__(self, k):
        return Vec2(self.x * k, self.y * k)

    __rmul__ = __mul__

    def norm(self):
        return math.hypot(self.x, self.y)


@CASES.case(args=[(1.0, 0.0, 0.1, 20), (0.5, 0.5, 0.05, 5)])
def orbit_with_vector_class(x0, vy0, dt, steps):
    """Semi-implicit Euler of a unit orbit with a Vec2 class and overloaded operators."""
    pos = Vec2(x0, 0.0)
    vel = Vec2(0.0, vy0)
    for _ in range(steps):
        r = pos.norm()
        acc = pos * (-1.0 / r**3)
        vel = vel + dt * acc
        pos = pos + vel * dt
    return pos.x, pos.y, vel.norm()


@CASES.case(args=[(P, 2), (P[:3], 1)])
def vec2_from_array_pairs(flat, scale):
    """Vec2 objects made from NumPy scalars; the sum of their norms."""
    total = 0.0
    for i in range(0, len(flat) - 1, 2):
        v = Vec2(flat[i], flat[i + 1]) * scale
        total += v.norm()
    return total


class Temperature:
    unit = "C"
    count = 0

    def __init__(self, celsius):
        self._c = celsius

    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32

    @fahrenheit.setter
    def fahrenheit(self, f):
        self._c = (f - 32) * 5 / 9

    @classmethod
    def from_kelvin(cls, k):
        return cls(k - 273.15)


@CASES.case(args=[(np.array([20.0, 37.5, -40.0]),), (np.array([300.0]),)])
def property_and_classmethod(readings):
    """Reads a property, sets through a property setter and builds with a classmethod."""
    out = np.zeros(len(readings))
    for i, r in enumerate(readings):
        t = Temperature.from_kelvin(r) if r > 200 else Temperature(r)
        t.fahrenheit = t.fahrenheit + 1.8
        out[i] = t._c
    return out, Temperature.unit


class Smoother:
    def __init__(self, alpha):
        self.alpha = alpha
        self.state = None

    def __call__(self, x):
        self.state = x if self.state is None else self.alpha * x + (1 - self.alpha) * self.state
        return self.state


class ClippedSmoother(Smoother):
    def __init__(self, alpha, limit):
        super().__init__(alpha)
        self.limit = limit

    def __call__(self, x):
        return min(max(super().__call__(x), -self.limit), self.limit)


@CASES.case(args=[(P, 0.5, 1.0), (P[:2], 0.9, 10.0)])
def subclass_with_super(xs, alpha, limit):
    """A subclass whose __init__ and __call__ extend the parent's through super()."""
    f = ClippedSmoother(alpha, limit)
    return np.array([f(x) for x in xs]), f.state


@dataclasses.dataclass
class Portfolio:
    weights: np.ndarray
    cash: float = 0.0

    def value(self, prices):
        return float(self.weights @ prices) + self.cash

    def rebalance(self, target, prices):
        total = self.value(prices)
        self.weights = target * total / prices
        self.cash = 0.0


@CASES.case(
    args=[
        (np.array([1.0, 2.0]), np.array([10.0, 20.0]), np.array([0.5, 0.5])),
        (np.array([0.0, 3.0]), np.array([5.0, 1.0]), np.array([1.0, 0.0])),
    ]
)
def dataclass_with_methods(w, prices, target):
    """A dataclass made here with cash, valued, rebalanced and valued at moved prices."""
    pf = Portfolio(w, cash=5.0)
    before = pf.value(prices)
    pf.rebalance(target, prices)
    after = pf.value(prices * 1.1)
    return before, after, pf.weights


class Series:
    """A tiny series container: len, indexing, iteration."""

    def __init__(self, values):
        self.values = np.asarray(values, dtype=float)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i]

    def __iter__(self):
        return iter(self.values)


@CASES.case(args=[([1.0, 4.0, 2.0, 8.0],), (P,)])
def container_protocols(values):
    """len(), indexing and iteration of a user container."""
    s = Series(values)
    best = s[0]
    for v in s:
        if v > best:
            best = v
    return len(s), best, s[-1]


@CASES.case(args=[(P, 0.5), (np.array([1.0]), 2.0)])
def closure_with_nonlocal_counter(xs, step):
    """A closure that counts its calls with nonlocal and accumulates a total."""
    calls = 0
    total = 0.0

    def add(v):
        nonlocal calls, total
        calls += 1
        total += v * step

    for v in xs:
        if v > 0:
            add(v)
    return calls, total


@CASES.case(args=[(P.copy(),), (np.arange(4.0),)])
def write_through_strided_view(x):
    """Negates every other element through a strided view and doubles the tail through a
    second view; the argument changes."""
    evens = x[::2]
    evens *= -1
    tail = x[len(x) // 2 :]
    tail += tail
    return evens.sum()


@CASES.case(args=[(np.arange(6.0),), (np.arange(12.0),)])
def reshape_view_and_transpose_write(x):
    """Writes a column through reshape(...).T of the argument; returns the view too."""
    m = x.reshape(-1, 2)
    t = m.T
    t[0] = 0.0
    return m, x


@CASES.case(args=[(np.ones((2, 3)),), (np.arange(4.0).reshape(2, 2),)])
def ravel_view_in_place(m):
    """ravel() of a contiguous array is a view: writing it changes the argument."""
    flat = m.ravel()
    flat[::2] = 7.0
    return m.sum(), flat


@CASES.case(args=[(P.copy(),), (np.array([2.0, 2.0]),)])
def alias_then_rebind(x):
    """b aliases x, b += 1 writes x, then b = b * 2 makes a new array that x does not see."""
    b = x
    b += 1
    b = b * 2
    b[0] = -1.0
    return x, b


@CASES.case(args=[(P.copy(), 1.0), (np.zeros(3), 0.5)])
def return_view_of_argument(x, v):
    """Returns a slice view of the argument after writing through it."""
    head = x[:2]
    head[:] = v
    return head


@CASES.case(args=[(np.array([[1.0, 2.0], [3.0, 4.0]]),), (np.eye(3),)])
def diagonal_of_copy_written(m):
    """np.diag of a copy made writable, versus the argument left as it was."""
    c = m.copy()
    d = np.diag(c).copy()
    d += 10
    np.fill_diagonal(c, d)
    return c, m


class Counter:
    def __init__(self):
        self.counts = {}

    def add(self, key):
        self.counts[key] = self.counts.get(key, 0) + 1


@CASES.case(args=[(np.array([1, 2, 2, 3, 3, 3]),), (np.array([], dtype=int),)])
def counter_object_with_dict(xs):
    """An object holding a dict of counts, keyed by Python ints."""
    c = Counter()
    for v in xs.tolist():
        c.add(v)
    return c.counts
