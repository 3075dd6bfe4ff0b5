"""Where a random draw takes its numbers from: the sources that ``ops.random`` equations name.

Stage: graph building and execution (params of the ``random`` primitive). Input: the object a
user's draw is called on. Output: a ``Source`` that finds that object each time the graph runs,
makes a throwaway generator of the same family for type probes, and saves and restores the
state of the object (so a graph that raises can be run again eagerly from where it started).

The sources:

* ``NumpyGlobal``: NumPy's legacy global state (``np.random.normal``, ``np.random.seed``);
* ``PythonGlobal``: the ``random`` module's global state (``random.random``, ``random.seed``);
* ``Caller``: a ``np.random.Generator``, ``RandomState`` or ``random.Random`` that exists outside
  the function (an argument, a global, a closure variable, an attribute): the graph holds the
  object itself and draws from it, so it advances exactly as the eager run would advance it;
* ``Local``: a generator the function makes (``np.random.default_rng(seed)``): an equation makes
  a new one each time the graph runs, kept per thread for the draws of that run.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import uuid
from typing import Any

import numpy as np

from tograph import errors

GENERATOR = "Generator"
RANDOM_STATE = "RandomState"
RANDOM = "Random"

_DISTRIBUTIONS = (
    "beta binomial chisquare dirichlet exponential f gamma geometric gumbel hypergeometric "
    "laplace logistic lognormal logseries multinomial multivariate_normal negative_binomial "
    "noncentral_chisquare noncentral_f normal pareto poisson power rayleigh standard_cauchy "
    "standard_exponential standard_gamma standard_normal standard_t triangular uniform vonmises "
    "wald weibull zipf"
).split()

# The methods a graph may call on each family: draws of numbers, seeding, and shuffle (which
# writes into its array argument, functionalised by ``ops.random``).
METHODS: dict[str, frozenset[str]] = {
    GENERATOR: frozenset(
        [*_DISTRIBUTIONS, "random", "integers", "choice", "permutation", "permuted", "shuffle"]
        + ["multivariate_hypergeometric"]
    ),
    RANDOM_STATE: frozenset(
        [*_DISTRIBUTIONS, "rand", "randn", "randint", "random_integers", "random_sample"]
        + ["random", "choice", "permutation", "shuffle", "seed"]
    ),
    RANDOM: frozenset(
        "random uniform triangular randint randrange gauss normalvariate lognormvariate "
        "expovariate vonmisesvariate gammavariate betavariate paretovariate weibullvariate "
        "binomialvariate choice seed".split()
    ),
}


class Source:
    """Where draws come from; see module docstring."""

    label: str
    family: str

    def target(self) -> Any:
        """The object whose methods draw, now (a module for the global states)."""
        raise NotImplementedError

    def probe_key(self) -> tuple[str, Any]:
        """What a throwaway generator of the same family is made from (hashable)."""
        return (self.family, None)

    def get_state(self) -> Any:
        """The state of the source now (None for a generator the function makes)."""
        return None

    def set_state(self, state: Any) -> None:
        """Puts back a state ``get_state`` returned."""


@dataclasses.dataclass(frozen=True)
class NumpyGlobal(Source):
    """NumPy's legacy global ``RandomState`` (``np.random.rand`` and its siblings)."""

    label = "np.random"
    family = RANDOM_STATE

    def target(self) -> Any:
        return np.random

    def get_state(self) -> Any:
        return np.random.get_state()

    def set_state(self, state: Any) -> None:
        np.random.set_state(state)


@dataclasses.dataclass(frozen=True)
class PythonGlobal(Source):
    """The ``random`` module's global generator."""

    label = "random"
    family = RANDOM

    def target(self) -> Any:
        return random

    def get_state(self) -> Any:
        return random.getstate()

    def set_state(self, state: Any) -> None:
        random.setstate(state)


@dataclasses.dataclass(frozen=True, eq=False)
class Caller(Source):
    """A generator object from outside the function, held by the graph (compared by identity)."""

    obj: Any
    family: str  # type: ignore[misc]

    @property
    def label(self) -> str:  # type: ignore[override]
        return {GENERATOR: "rng", RANDOM_STATE: "random_state", RANDOM: "py_random"}[self.family]

    def target(self) -> Any:
        return self.obj

    def probe_key(self) -> tuple[str, Any]:
        if self.family == GENERATOR:
            return (GENERATOR, type(self.obj.bit_generator))
        return (self.family, None)

    def get_state(self) -> Any:
        if self.family == GENERATOR:
            return self.obj.bit_generator.state
        if self.family == RANDOM_STATE:
            return self.obj.get_state()
        return self.obj.getstate()

    def set_state(self, state: Any) -> None:
        if self.family == GENERATOR:
            self.obj.bit_generator.state = state
        elif self.family == RANDOM_STATE:
            self.obj.set_state(state)
        else:
            self.obj.setstate(state)


MAKERS = {
    GENERATOR: np.random.default_rng,
    RANDOM_STATE: np.random.RandomState,
    RANDOM: random.Random,
}
MAKER_NAMES = {GENERATOR: "default_rng", RANDOM_STATE: "RandomState", RANDOM: "Random"}


@dataclasses.dataclass(frozen=True)
class Local(Source):
    """A generator the function makes from a static seed: made anew on each run of the graph
    (by the equation that ``make`` runs), one per thread, so calls never share it. The equations
    that make and draw from one generator name the same ``token`` (a loaded graph's too)."""

    family: str  # type: ignore[misc]
    seed: Any
    token: str = dataclasses.field(default_factory=lambda: uuid.uuid4().hex, repr=False)

    @property
    def label(self) -> str:  # type: ignore[override]
        seed = "" if self.seed is None else repr(self.seed)
        return f"{MAKER_NAMES[self.family]}({seed})"

    @property
    def _slot(self) -> threading.local:
        return _SLOTS.setdefault(self.token, threading.local())

    def make(self) -> None:
        """Makes this run's generator."""
        self._slot.generator = MAKERS[self.family](self.seed)

    def target(self) -> Any:
        generator = getattr(self._slot, "generator", None)
        if generator is None:
            raise errors.InternalError(f"{self.label} drew before it was made. This is a bug")
        return generator


_SLOTS: dict[str, threading.local] = {}


# NumPy's module functions that are other names of the global state's methods.
ALIASES = {"ranf": "random_sample", "sample": "random_sample"}


def source_of(fn: Any) -> Source | None:
    """The source a bound method or ``np.random`` function draws from, None for anything else.

    Only NumPy's and Python's own generator classes count (a subclass may override a method
    with one the probes would not describe): their instances are never user objects.
    """
    owner = getattr(fn, "__self__", None)
    name = getattr(fn, "__name__", "")
    if owner is np.random.mtrand._rand or (owner is None and getattr(np.random, name, None) is fn):
        return NumpyGlobal()  # np.random.seed, ranf and sample are functions, not methods
    if owner is getattr(random, "_inst", None):
        return PythonGlobal()
    family = {np.random.Generator: GENERATOR, np.random.RandomState: RANDOM_STATE}.get(
        type(owner), RANDOM if type(owner) is random.Random else None
    )
    return None if family is None else Caller(owner, family)


def is_generator(obj: Any) -> bool:
    """Whether ``obj`` holds random state: a generator of any class, or a bit generator."""
    return isinstance(
        obj, (np.random.Generator, np.random.RandomState, np.random.BitGenerator, random.Random)
    )


def throwaway(key: tuple[str, Any]) -> Any:
    """A new generator of the family ``key`` names, seeded, for probing types only."""
    family, bit_generator = key
    if family != GENERATOR:
        return MAKERS[family](0)
    try:
        return np.random.Generator(bit_generator(0))
    except Exception:  # noqa: BLE001 - a bit generator we cannot seed: the default one
        return np.random.default_rng(0)
