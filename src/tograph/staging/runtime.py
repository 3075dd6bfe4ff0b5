"""The runtime of lowered code (``_t`` in ``cf.code``): decides, while a graph is built, what each
statement becomes.

A condition that is a tensor makes ``if_stmt`` a ``cond`` op and ``while_stmt``/``for_stmt`` a
``while_loop`` op; a Python condition runs as Python, so static code is evaluated (and loops over
Python ranges unrolled) exactly as the plain function would run. ``call`` converts user functions
on the fly, lets builtins and NumPy constructors accept tensors, makes random draws equations
(``ops.random``), and runs NumPy's functions that call back into Python
(``staging.numpy_callbacks``) with the callback converted too.
Requires: lowering.control_flow (the code calling these functions), staging.control_flow.
"""

from __future__ import annotations

import collections
import functools
import operator
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.analysis import mutation, values
from tograph.ops import array_lists, creation, effects, elementwise, indexing, join, lists
from tograph.ops import random as random_draws
from tograph.staging import (
    attribute_lists,
    builtin_calls,
    calls,
    carried,
    cells,
    choices,
    control_flow,
    dict_items,
    errstates,
    identity,
    iterables,
    kind_rules,
    loop_hints,
    made_objects,
    numpy_callbacks,
    objects,
    optional,
    ordering,
    reads,
    subtrace,
    text,
    tries,
)
from tograph.trace import builder as builder_mod
from tograph.trace import containers, dispatch, tensor

# an operation on a number whose kind depends on the path follows ``staging.kind_rules``
builder_mod.set_kind_rule(kind_rules.propagate)

Undefined = carried.Undefined
Placeholder = carried.Placeholder
formatted = text.formatted
read = reads.read
store_cells = cells.store_cells
load_cells = cells.load_cells
errstate = errstates.errstate
errstate_end = errstates.errstate_end
is_none = reads.is_none
is_not_none = reads.is_not_none
fstring = text.fstring
percent_format = text.percent_format
try_begin = tries.try_begin
try_body_end = tries.try_body_end
try_caught = tries.try_caught
try_end = tries.try_end
State = tuple[Any, ...]


def _check_defined(value: Any, what: str) -> None:
    if isinstance(value, Undefined):
        raise errors.ConversionError(
            f"variable '{value.name}' is used in {what} before it is assigned",
            loc=origin.current_location(),
        )


# ---- statements -----------------------------------------------------------------------------


def user_truth(value: Any) -> Any:
    """``value``'s truth as Python's ``bool`` finds it when ``value`` is a user object (one made
    in the function or reached from the arguments): its class's ``__bool__``, else its
    ``__len__`` compared with 0, called as converted code (its prints and tensor tests happen
    when the graph runs, not once while it is built); True when it defines neither. Any other
    value is returned as it is, for the caller to test."""
    if type(value) is objects.TracedObject:
        cls: type = type(value._tg_obj)

        def invoke(name: str) -> Any:
            return value._tg_state.call_method(value, name, (), {})

    elif tensor.is_user_object(value):
        cls = type(value)

        def invoke(name: str) -> Any:
            return call(getattr(value, name))

    else:
        return value
    if getattr(cls, "__bool__", None) is not None:
        result = invoke("__bool__")
        if not tensor.is_symbolic(result) and type(result) is not bool:
            raise TypeError(f"__bool__ should return bool, returned {type(result).__name__}")
        return result
    if getattr(cls, "__len__", None) is not None:
        length = invoke("__len__")
        return length != 0 if tensor.is_symbolic(length) else bool(operator.index(length))
    return True


def if_stmt(
    test: Any,
    body: Callable[..., State],
    orelse: Callable[..., State],
    state: State,
    names: Sequence[str],
    outputs: Sequence[str],
) -> State:
    """``if test: body else: orelse`` over the variables ``names``; returns those in ``outputs``.

    The branches take and return the values of all of ``names``; only ``outputs`` are live after.
    """
    _check_defined(test, "an if condition")
    test = lists.truth(user_truth(test))
    if tensor.is_symbolic(test):
        body, orelse = reads.refine(test, body, orelse, state)
        values = control_flow.cond(test, body, orelse, _tensor_lists(state), tuple(names))
    else:
        values = body(*state) if test else orelse(*state)
    if len(outputs) == len(names):
        return tuple(values)
    return tuple(values[names.index(name)] for name in outputs)


def while_stmt(
    test: Callable[..., Any], body: Callable[..., State], state: State, names: Sequence[str]
) -> State:
    """``while test: body``: Python iterations until the condition is a tensor, then a loop op;
    after ``UNROLL_LIMIT`` Python iterations, a loop op too, its Python numbers carried as
    tensors (a graph of one body, not thousands)."""
    for _ in range(values.UNROLL_LIMIT):
        mark = _mark()
        cond = test(*state)
        _check_defined(cond, "a while condition")
        cond = lists.truth(user_truth(cond))
        if tensor.is_symbolic(cond):
            _retract_test_since(mark)
            break
        if not cond:
            return state
        state = body(*state)
    return control_flow.while_loop(
        test, body, _tensor_lists(state), tuple(names), site=getattr(body, "__code__", body)
    )


def _mark() -> tuple[Any, int, int]:
    """Where the graph being built is now: its builder, equation count and count of writes."""
    current = builder_mod.current()
    return current, len(current.eqns) if current else 0, len(current.writes) if current else 0


def _retract_test_since(mark: tuple[Any, int, int]) -> None:
    """Retracts what a while condition emitted before it turned out to be a tensor
    (``GraphBuilder.retract``): the loop's own trace evaluates the condition again, so its
    effects (a print, a random draw) and its NumPy warnings (an operation that may raise stays
    in the graph though unused) would otherwise happen once more, before the loop. A condition
    that also wrote in place cannot be taken back: with effects it falls back, without them it
    stays (the loop refuses such a write)."""
    current, count, writes = mark
    if current is None or len(current.eqns) == count:
        return
    if len(current.writes) != writes:
        if any(_has_effects(e) for e in current.eqns[count:]):
            raise errors.UnsupportedError(
                "a while condition over tensors both writes in place and has effects (a print, "
                "a random draw)",
                loc=origin.current_location(),
                construct="while condition with effects",
            )
        return
    current.retract(current.eqns[count:])


def _has_effects(eqn: Any) -> bool:
    return any(e.prim.effectful for e in (eqn, *(i for g in eqn.subgraphs() for i in g.walk())))


def for_stmt(
    iterable: Any,
    extra_test: Callable[..., Any] | None,
    body: Callable[..., State],
    state: State,
    names: Sequence[str],
) -> State:
    """``for item in iterable: body``; a while_loop when the iterable is a tensor or a range
    too long to unroll (``analysis.values.rolled``), else unrolled."""
    _check_defined(iterable, "a for loop")
    loop = iterables.as_tensor_iterable(iterable)
    if loop is None and values.rolled(iterable):
        loop = iterables.TensorRange(iterable.start, iterable.stop, iterable.step)
    if loop is not None:
        return _tensor_for(loop, extra_test, body, state, names)
    items = iter(iterable)
    position = 0
    while True:
        # the break flag is tested before the next item is taken: Python takes none after a break
        if extra_test is not None:
            keep_going = extra_test(*state)
            if tensor.is_symbolic(keep_going):
                rest = iterables.remaining(iterable, items, position)
                return _guarded_for(rest, keep_going, extra_test, body, state, names)
            if not keep_going:
                break
        item = next(items, _END)
        if item is _END:
            break
        after = body(item, *state)
        if isinstance(iterable, list) and _made_tensor_list(iterable, state, after):
            raise errors.UnsupportedError(
                "a loop over a list that its body changes under a tensor condition: how many "
                "items the loop takes would be known only when the graph runs",
                loc=origin.current_location(),
                construct="list changed by a loop over it",
            )
        state = after
        position += 1
    return state


def _made_tensor_list(iterated: list[Any], before: State, after: State) -> bool:
    """Whether a loop body turned the list the loop walks into a tensor list (it appended to it
    in tensor control flow): Python's loop would see the items it gained, the walk would not."""
    return any(
        old is iterated and isinstance(new, lists.SymbolicList) for old, new in zip(before, after)
    )


_END = object()  # what next() gives once a Python loop's items run out


def _guarded_for(
    rest: Any,
    keep_going: Any,
    extra_test: Callable[..., Any],
    body: Callable[..., State],
    state: State,
    names: Sequence[str],
) -> State:
    """The rest of a Python loop whose break flag became a tensor: a while_loop over a range, else
    each remaining iteration under a cond on the flag."""
    if isinstance(rest, iterables.TensorIterable):
        return _tensor_for(rest, extra_test, body, state, names)
    for item in rest:
        state = control_flow.cond(
            keep_going,
            functools.partial(body, item),
            lambda *s: s,
            _tensor_lists(state),
            tuple(names),
        )
        keep_going = extra_test(*state)
    return state


def _tensor_lists(state: State) -> State:
    """State entering tensor control flow: its Python lists become tensor lists (they may grow);
    one made from an argument list remembers it (``trace.containers``). A list whose items no
    one tensor list can hold (arrays of two ranks or dtypes) stays a Python list, carried item by
    item: changing its length there then falls back, as its two paths' lengths differ."""
    return tuple(
        _tensor_list(v) if isinstance(v, list) and lists.one_item_type(v) else v for v in state
    )


def _tensor_list(value: list[Any]) -> Any:
    made = lists.as_list(value)
    if containers.is_registered(value):
        made.stands_for = value
        containers.note_version(made)
    return made


def _tensor_for(
    loop: iterables.TensorIterable,
    extra_test: Callable[..., Any] | None,
    body: Callable[..., State],
    state: State,
    names: Sequence[str],
    start: int = 0,
) -> State:
    if isinstance(loop.length, int) and loop.length <= start:
        return state  # no item left, as the loop's static length says
    surely_runs = _surely_runs(loop, extra_test, state, start)
    if surely_runs and any(v is None for v in state):
        # A variable starting as None (``best = None``) takes its tensor type in the first
        # iteration, which runs here in Python; the rest of the loop is a while_loop.
        return _peeled(loop, extra_test, body, state, names, start)

    def test(index: Any, *carried: Any) -> Any:
        more = loop.has_next(index)
        if extra_test is None:
            return more
        return np.logical_and(more, extra_test(*carried))

    def step(index: Any, *carried: Any) -> State:
        return (index + 1, *body(loop.item(index), *carried))

    try:
        final = control_flow.while_loop(
            test,
            step,
            (start, *_tensor_lists(state)),
            ("loop index", *names),
            peelable=surely_runs and start < _PEELED_AT_MOST,
            site=getattr(body, "__code__", body),
        )
    except control_flow.PeelFirst as peel:
        # A variable that starts as a Python number and becomes a NumPy scalar (``total = 0.0``
        # summing float32 items) has its NumPy kind from the first iteration on: run that one
        # here, and the loop carries one kind. One that takes another's earlier value
        # (``s2 = s1`` in a Goertzel or IIR recurrence) changes kind an iteration later.
        return _peeled(loop, extra_test, body, state, names, start, peel.key)
    return tuple(final[1:])


# the iterations a loop that surely runs may run before its while_loop, one by one, while a
# variable's kind changes in them (``s2, s1 = s1, x + c * s1 - s2`` from ``0.0``: two)
_PEELED_AT_MOST = 3


def _peeled(
    loop: iterables.TensorIterable,
    extra_test: Callable[..., Any] | None,
    body: Callable[..., State],
    state: State,
    names: Sequence[str],
    start: int,
    key: Any = None,
) -> State:
    """Iteration ``start`` run here, then the rest of the loop; ``key`` is the loop's, when a
    trace of it found the first iteration must run by itself (``staging.loop_hints``)."""
    current = builder_mod.current()
    if key is None or current is None:
        state = body(loop.item(start), *state)
    else:
        with loop_hints.first_iteration(current, key):
            state = body(loop.item(start), *state)
    return _tensor_for(loop, extra_test, body, state, names, start + 1)


def _surely_runs(
    loop: iterables.TensorIterable, extra_test: Callable[..., Any] | None, state: State, start: int
) -> bool:
    """Whether iteration ``start`` surely runs: the loop's static length says so, and no break
    can have ended it yet."""
    if not (isinstance(loop.length, int) and start < loop.length):
        return False
    return extra_test is None or extra_test(*state) is True


# ---- expressions ----------------------------------------------------------------------------


def _select(test: Any, body: Callable[[], Any], orelse: Callable[[], Any]) -> Any:
    """``body() if test else orelse()`` for a tensor ``test``: a cond with one result."""
    body, orelse = reads.refine(test, body, orelse, ())
    result = Undefined("expression value")
    then_fn, else_fn = (lambda _: (body(),)), (lambda _: (orelse(),))
    return control_flow.cond(test, then_fn, else_fn, (result,), ("expression value",))[0]


def and_(left: Callable[[], Any], right: Callable[[], Any], condition: bool = False) -> Any:
    """``left() and right()``; a cond when the left value is a tensor, so right stays lazy.
    ``condition``: the value is only tested for truth (an ``if`` or ``while`` test), so tensor
    operands are their truths, which merge where the operands themselves may not (a flag and an
    array of one element)."""
    value = left()
    if _has_user_truth(value):
        truth = _user_truth_of(value, condition, "and")
        if not tensor.is_symbolic(truth):
            return right() if truth else value
        value, right = truth, _truth_after(right)
    if tensor.is_symbolic(value):
        if condition:
            value, right = _truth_of(value), _truth_after(right)
        result = _select(value, right, lambda: value)
        reads.implies(value, result, conjunction=True)
        return result
    return value and right()


def or_(left: Callable[[], Any], right: Callable[[], Any], condition: bool = False) -> Any:
    """``left() or right()``, lazily as in Python, also for tensors (``condition`` as for
    ``and_``)."""
    value = left()
    if _has_user_truth(value):
        truth = _user_truth_of(value, condition, "or")
        if not tensor.is_symbolic(truth):
            return value if truth else right()
        value, right = truth, _truth_after(right)
    if tensor.is_symbolic(value):
        if condition:
            value, right = _truth_of(value), _truth_after(right)
        result = _select(value, lambda: value, right)
        reads.implies(value, result, conjunction=False)
        return result
    return value or right()


def _has_user_truth(value: Any) -> bool:
    return type(value) is objects.TracedObject or (
        not tensor.is_tensor(value) and tensor.is_user_object(value)
    )


def _user_truth_of(value: Any, condition: bool, op: str) -> Any:
    """The truth of a user object operand of ``and``/``or`` (``user_truth``); one known only
    when the graph runs is refused where the expression's value is the object itself."""
    truth = user_truth(value)
    if tensor.is_symbolic(truth) and not condition:
        raise errors.UnsupportedError(
            f"'{op}' with a user object whose truth is a tensor, as a value",
            loc=origin.current_location(),
            construct=f"'{op}' on a user object with a tensor truth",
        )
    return truth


def _truth_of(value: Any) -> Any:
    """A tensor's truth as a condition has it (``subtrace.truth``); any other value as it is,
    for the statement to test as Python does."""
    return subtrace.truth(value, "a condition") if tensor.is_symbolic(value) else value


def _truth_after(operand: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: _truth_of(operand())


def not_(value: Any) -> Any:
    """``not value``: a Python bool, also of a tensor (a weak bool computed when the graph runs)
    or a tensor list (whether it is empty: ``lists.truth``)."""
    value = lists.truth(user_truth(value))
    if tensor.is_symbolic(value):
        return elementwise.python_not(value)
    return not value


def in_(item: Any, container: Any) -> Any:
    """``item in container``; in a list or tuple of tensor values, decided when the graph runs
    (``staging.ordering``)."""
    if isinstance(item, choices.Choice):
        return choices.within(item, container)
    return ordering.contains(container, item)


def not_in(item: Any, container: Any) -> Any:
    """``item not in container``."""
    return not_(in_(item, container))


def if_exp(test: Any, body: Callable[[], Any], orelse: Callable[[], Any]) -> Any:
    """``body() if test else orelse()``."""
    _check_defined(test, "a conditional expression")
    test = lists.truth(user_truth(test))
    if tensor.is_symbolic(test):
        return _select(test, body, orelse)
    return body() if test else orelse()


def compare_chain(first: Callable[[], Any], *rest: Callable[..., Any]) -> Any:
    """``a < b < c`` from ``first`` (``a``) then pairs of a comparison and an operand: each
    operand evaluated once, and only while the comparisons before it hold (lazily, as ``and_``
    is, when they are tensors)."""
    left, compare, operand = first(), rest[0], rest[1]
    right = operand()
    result = compare(left, right)
    if len(rest) == 2:
        return result
    return and_(lambda: result, lambda: compare_chain(lambda: right, *rest[2:]))


def is_(left: Any, right: Any) -> Any:
    """``left is right``. A tensor that is a Python bool in eager code (a weak bool) is the
    ``True`` or ``False`` its value is, so it compares by value with them and with another such
    tensor; a weak number compared with a number is refused (its identity is CPython's small-int
    cache). NumPy values compare by which arrays they are (``_same_array``), with each other and
    with an array read from outside (which control flow may have made a graph value); otherwise
    a tensor is never None nor a Python value of another kind."""
    if isinstance(left, choices.Choice) or isinstance(right, choices.Choice):
        return choices.identical(left, right)
    tensors = [v for v in (left, right) if tensor.is_tensor(v)]
    if not tensors or left is right:
        return left is right
    numpy_values = [v for v in tensors if not v.type.weak]
    if len(numpy_values) == 2 or (
        numpy_values and any(type(v) is np.ndarray for v in (left, right))
    ):
        return _same_array(left, right)
    if numpy_values:
        return False  # a NumPy value is never a Python number nor a Python object
    if all(_weak_bool(v) for v in (left, right)):
        return builtin_calls.as_weak(np.equal(left, right))
    if all(_weak_number(v) for v in (left, right)):
        raise errors.UnsupportedError(
            "'is' between numbers compares their identity, which CPython's caching decides",
            loc=origin.current_location(),
            construct="'is' on numbers",
            hint="use ==",
        )
    return False


def _same_array(left: Any, right: Any) -> Any:
    """``left is right`` for two NumPy values held by distinct tensors (``identity.same_array``);
    falls back where their identity is not followed."""
    same = None
    if all(isinstance(v, tensor.SymbolicTensor) and v.is_array for v in (left, right)):
        same = identity.same_array(left, right)
    if same is None:
        raise errors.UnsupportedError(
            "'is' between these arrays depends on which arrays the caller passed, or which "
            "array a path left in a variable, and a compiled function does not follow that",
            loc=origin.current_location(),
            construct="'is' on arrays",
        )
    return same if isinstance(same, bool) else builtin_calls.as_weak(same)


def is_not(left: Any, right: Any) -> Any:
    """``left is not right``; see ``is_``."""
    return not_(is_(left, right))


def _weak_bool(value: Any) -> bool:
    if tensor.is_tensor(value):
        return bool(value.type.weak and value.dtype == np.bool_)
    return isinstance(value, bool)


def _weak_number(value: Any) -> bool:
    if tensor.is_tensor(value):
        return bool(value.type.weak)
    return tensor.is_number(value) and not isinstance(value, np.ndarray)


def getitem(value: Any, index: Any) -> Any:
    """``value[index]``. A NumPy array made while the graph is built (a global lookup table, one
    computed from static values) or a Python list or tuple of numbers of one type, indexed by a
    tensor, becomes a constant of the graph first, where the result is a copy (one element, or
    an index array): a view would share memory with the array eager code indexes. A list or
    tuple of scalar tensors of one kind (``sorted(x)``) is stacked and picked from the same way.
    An index out of a list's range raises Python's IndexError (``list index out of range``), not
    NumPy's."""
    if not tensor.contains_symbolic(index):
        return value[index]
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        if _copying_index(index, value.ndim):
            return creation.constant(value, frozen=_TABLE_FROZEN)[index]
    elif type(value) in (list, tuple) and value and _integer(index):
        if iterables.numbers_of_one_type(value):
            table = creation.constant(np.array(value), frozen=_TABLE_FROZEN)
            return builtin_calls.as_weak(_list_item(table, index, value))
        kind = _scalar_kind(value)
        if kind is not None:
            picked = _list_item(join.as_array(value), index, value)
            return builtin_calls.as_weak(picked) if kind[1] else picked
    return value[index]


def _list_item(table: Any, index: Any, items: Any) -> Any:
    """``table[index]`` where ``table`` stacks ``items``, a list or tuple: Python's IndexError
    (``list index out of range``) when the index is outside it."""
    n = len(items)
    outside = np.logical_or(index < -n, index >= n)
    effects.raise_if(outside, IndexError(f"{type(items).__name__} index out of range"))
    return table[index]


def _scalar_kind(items: Any) -> tuple[np.dtype, bool] | None:
    """The dtype and weakness that every item of ``items`` shares when each is a scalar tensor
    of the same kind (all NumPy scalars of one dtype, as ``sorted(x)`` gives, or all Python
    numbers of one type); None otherwise. An item stacked and picked back by a tensor index is
    then of its own kind (a 0-d array, or a value whose kind depends on the path, is not)."""
    kinds = set()
    for item in items:
        if not isinstance(item, tensor.SymbolicTensor) or item.ndim != 0:
            return None
        if item.array0d or item.kind_tag is not None:
            return None
        kinds.add((item.dtype, bool(item.type.weak)))
    return kinds.pop() if len(kinds) == 1 else None


_TABLE_FROZEN = "an array made while converting, indexed by a tensor, is read only"


def _copying_index(index: Any, ndim: int) -> bool:
    """Whether NumPy's ``x[index]`` for an ``x`` of rank ``ndim`` is a copy: an integer for every
    axis, or an array among the index items."""
    items = index if isinstance(index, tuple) else (index,)
    if any(
        getattr(item, "ndim", 0) > 0 or isinstance(item, list) or indexing.is_integer_list(item)
        for item in items
    ):
        return True
    return all(_integer(item) for item in items) and len(items) == ndim


def _integer(item: Any) -> bool:
    """Whether ``item`` is one integer (a Python or NumPy int or an integer 0-d tensor)."""
    if tensor.is_tensor(item):
        return item.ndim == 0 and item.dtype.kind in "iu"
    return isinstance(item, (int, np.integer)) and not isinstance(item, bool)


def setitem(target: Any, index: Any, value: Any) -> Any:
    """``target[index] = value``, in place as Python does it; returns ``target``.

    A tensor is written through ``trace.functional``. A Python container is written as it is:
    inside tensor control flow the lowered code binds the variable to the result, so a branch or
    loop body writes its own copy of the container (its state); a dict from before it that it
    does not carry is written through its entries' cells (``staging.dict_items``). A concrete
    NumPy array is never written: one made in the function is a tensor already
    (``analysis.mutation``), and writing one from outside once, while the graph is built, would
    be wrong.
    """
    _check_defined(target, "an item assignment")
    if tensor.is_tensor(target):
        target[optional.used(index)] = optional.used(value)
        return target
    if isinstance(target, lists.SymbolicList):
        _refuse_shared_tensor_list(target)
        return lists.set_item(target, optional.used(index), optional.used(value))
    if isinstance(target, np.ndarray):
        raise errors.UnsupportedError(
            "an item assignment writes in place into a NumPy array that tograph does not track "
            "(one read from a global, say): writing it once, while the graph is built, would be "
            "wrong",
            loc=origin.current_location(),
            construct="in-place update of a NumPy array",
        )
    if type(target) in (list, dict) and _holds(target, index, value):
        return target  # the item it holds already (``x[i] += v`` of an array): nothing changes
    if dict_items.through_cell(target):
        dict_items.set_item(target, index, value)
        return target
    containers.check_write(target, "an item assignment", item=True)
    target[index] = value
    return target


def write_back(target: Any, index: Any, written: Any) -> Any:
    """The outer step of ``x[i][j] = v`` once ``x[i]`` (``written``) was written in place:
    ``x[i] = written`` for a container holding it. Nothing for an array whose view shares its
    storage (the write reached ``x`` already) or whose advanced index (``x[[0]]``, a mask) gave a
    copy (eager never sees that write in ``x``); any other array item is written back."""
    if isinstance(target, tensor.SymbolicTensor) and isinstance(written, tensor.SymbolicTensor):
        shared = written._storage is not None and written._storage is target._storage
        if shared or _advanced(index):
            return target
    if type(target) in (tuple, list, dict) and _holds(target, index, written):
        return target  # Python set no item: the write went into the very array it holds
    if isinstance(target, lists.SymbolicList):
        raise errors.UnsupportedError(
            "an in-place write into an item of a list that grows in a loop over tensors (a "
            "tensor list): the item is an array other names may share",
            loc=origin.current_location(),
            construct="in-place write into an item of a tensor list",
        )
    return setitem(target, index, written)


def _holds(container: Any, index: Any, item: Any) -> bool:
    """Whether the tuple, list or dict ``container`` holds ``item`` itself at the static
    ``index``."""
    if type(index) not in (int, str):
        return False
    try:
        return container[index] is item
    except (IndexError, KeyError):
        return False


def _advanced(index: Any) -> bool:
    """Whether NumPy indexes with ``index`` by copy: a list, a boolean or an array index."""
    items = index if isinstance(index, tuple) else (index,)
    for item in items:
        if isinstance(item, list):
            return True
        if isinstance(item, (np.ndarray, tensor.TensorBase)) and (
            item.ndim > 0 or item.dtype == np.bool_
        ):
            return True
    return False


def delitem(target: Any, index: Any) -> None:
    """``del target[index]``, refused for an argument list or dict inside tensor control flow."""
    _check_defined(target, "a del statement")
    containers.check_write(target, "a del statement")
    del target[index]


def setitem_outside(target: Any, index: Any, value: Any) -> None:
    """``target[index] = value`` where ``target`` is reached from outside the function (a global,
    an attribute): a tensor is written; other objects would be changed once, while the graph is
    built, instead of on every call, so the compiler falls back."""
    _check_defined(target, "an item assignment")
    if not tensor.is_tensor(target):
        raise errors.UnsupportedError(
            f"an item assignment to a {type(target).__name__} from outside the function (a "
            "global, a closure variable or an attribute) changes state that outlives the call",
            loc=origin.current_location(),
            construct="write to state outside the function",
        )
    target[index] = value


def aug_setitem(target: Any, index: Any, op: str, value: Any) -> Any:
    """``target[index] op= value``: Python's read, in-place operator and write back."""
    _check_defined(target, "an item assignment")
    return setitem(target, index, getattr(operator, op)(target[index], value))


def aug_setitem_outside(target: Any, index: Any, op: str, value: Any) -> None:
    """``aug_setitem`` of a ``target`` reached from outside the function (see
    ``setitem_outside``)."""
    _check_defined(target, "an item assignment")
    setitem_outside(target, index, getattr(operator, op)(target[index], value))


def fresh(value: Any) -> Any:
    """A value made here that may be written in place later (``analysis.mutation``): a concrete
    NumPy array becomes a tensor now, so its writes are traced like any tensor's."""
    if isinstance(value, np.ndarray) and tensor.is_array_value(value):
        return creation.constant(value)
    if type(value) is list:
        value[:] = [fresh(v) for v in value]
    elif type(value) is dict:
        value.update({k: fresh(v) for k, v in value.items()})
    elif type(value) is tuple:
        return tuple(fresh(v) for v in value)
    return value


def shared(value: Any) -> Any:
    """``value``, about to have two names: a list or dict is marked as one whose identity
    matters (``trace.containers``), since tensor control flow copies the lists it carries."""
    if type(value) in (list, dict) or isinstance(value, lists.SymbolicList):
        containers.register_shared(value)
    return value


def _refuse_shared_tensor_list(target: Any) -> None:
    """A tensor list is a value: changed after it was given a second name (``b = a``, stored in
    a tuple or dict), the change would not reach the other name."""
    if containers.is_shared(target):
        raise errors.UnsupportedError(
            "a list that grows in a loop or branch over tensors (a tensor list) is given a "
            "second name (b = a, or stored in a tuple, list or dict) and changed in place "
            "through one of them: the change would not reach the other name",
            loc=origin.current_location(),
            construct="tensor list known by two names",
        )


def list_append(target: Any, value: Any) -> Any:
    """``target.append(value)``: a push onto a tensor list, or Python's append."""
    _check_defined(target, "an append")
    if isinstance(target, lists.SymbolicList):
        _refuse_shared_tensor_list(target)
        if isinstance(value, text.TensorText):
            raise value.refuse("an item of a list that grows in a loop over tensors")
        return lists.push(target, optional.used(value))
    try:
        containers.check_write(target, "an append")
    except errors.UnsupportedError:
        if type(target) is list and not lists.one_item_type(target):
            raise errors.UnsupportedError(
                "an append inside an if or loop over tensors to a list from before it whose "
                "items are arrays of two ranks or dtypes: no tensor list holds them, so how "
                "many items the list ends with cannot be known when the graph runs",
                loc=origin.current_location(),
                construct="change of a list of mixed arrays inside tensor control flow",
            ) from None
        raise
    target.append(value)
    return target


setattr_local = made_objects.set_attribute


def setattr_outside(owner: Any, name: str, value: Any) -> None:
    """``owner.name = value`` for an ``owner`` from outside the function (a global, a closure
    variable): it would be set once, while the graph is built, instead of on every call, so the
    compiler falls back."""
    raise errors.UnsupportedError(
        f"assignment to attribute '{name}' of a {type(owner).__name__} from outside the function "
        "(a global or a closure variable), state that outlives the call",
        loc=origin.current_location(),
        construct="write to state outside the function",
    )


def call_outside(owner: Any, name: str, *args: Any, **kwargs: Any) -> Any:
    """``owner.name(*args)``, a method that changes a list, dict or set in place, called on a
    value from outside the function (a global, a closure variable, an attribute): such a
    container would be changed once, while the graph is built, instead of on every call, so
    the compiler falls back. Other owners (a tensor's ``sort``), and the copies of the lists and
    dicts of arguments and attributes (``trace.containers``), are called as usual."""
    if name == "append" and len(args) == 1 and not kwargs:
        done = attribute_lists.append(owner, args[0])
        if done is not attribute_lists.NOT_HANDLED:
            return done
    if isinstance(owner, (list, dict, set, collections.deque)) and not containers.is_registered(
        owner
    ):
        raise errors.UnsupportedError(
            f"{name}() changes a {type(owner).__name__} from outside the function (a global, a "
            "closure variable or an attribute), state that outlives the call",
            loc=origin.current_location(),
            construct="write to state outside the function",
        )
    return call(getattr(owner, name), *args, **kwargs)


def assert_(test: Any, message: Callable[[], Any]) -> None:
    """``assert test, message``: checked when the graph runs if the test is a tensor."""
    test = lists.truth(user_truth(test))
    if tensor.is_symbolic(test):
        effects.assert_(test, *text.message_parts(message()))
        return
    if not test:
        msg = message()
        raise AssertionError(*(() if msg is None else (msg,)))


def raise_(exception: Any) -> None:
    """``raise exception``: now, or when the graph runs if it is inside tensor control flow."""
    if isinstance(exception, type) and issubclass(exception, BaseException):
        exception = exception()
    args = getattr(exception, "args", ())
    texts = [arg for arg in args if isinstance(arg, text.TensorText)]
    if not texts and tensor.contains_symbolic(args):
        raise errors.UnsupportedError(
            f"{type(exception).__name__} made from a tensor value, whose message and args exist "
            "only when the graph runs",
            loc=origin.current_location(),
            hint="format the value into the message with an f-string",
            construct="exception made from a tensor",
        )
    if not texts and tries.observed():
        raise exception  # a try's handlers catch it while tracing, on a path the graph takes
    if not texts:
        effects.raise_(exception)
    elif len(args) == 1 and _rebuilt_from_message(exception) and effects.in_branch():
        effects.raise_(type(exception)(""), texts[0].parts)
    else:
        raise texts[0].refuse("an exception's message")


def _rebuilt_from_message(exception: BaseException) -> bool:
    """Whether ``type(exception)(text)`` is the exception made from its one message (a built-in
    exception class, which keeps nothing else)."""
    return type(exception).__module__ == "builtins" and not vars(exception)


# ---- calls ----------------------------------------------------------------------------------


# NumPy functions joining a sequence of arrays refuse an empty one (np.array([]) they accept)
_EMPTY_SEQUENCE_ERRORS = {
    np.stack: "need at least one array to stack",
    np.concatenate: "need at least one array to concatenate",
    np.vstack: "need at least one array to concatenate",
    np.hstack: "need at least one array to concatenate",
    np.dstack: "need at least one array to concatenate",
    np.column_stack: "need at least one array to concatenate",
    np.block: "List at arrays cannot be empty",
}


def _numpy_argument(fn: Any, lst: Any) -> Any:
    """A tensor list passed to a NumPy function: the array NumPy makes of it first; when ``fn``
    joins arrays, an empty list raises NumPy's ValueError when the graph runs instead."""
    message = _EMPTY_SEQUENCE_ERRORS.get(fn) if dispatch.hashable(fn) else None
    return lists.stack(lst, like_array=True, empty_error=message)


def _copied_list(lst: Any) -> Any:
    """``list(lst)`` of a tensor list, whose length is known only when the graph runs: a new
    tensor list holding the same items, pushed one by one in a loop over ``lst`` (the graph's
    list holds eager's very objects, as a shallow copy does)."""

    def body(item: Any, copy: Any) -> State:
        return (lists.push(copy, item),)

    (copy,) = for_stmt(lst, None, body, (lists.new(lst.type.elem),), ("list(...)",))
    return copy


def method(receiver: Any, name: str) -> Any:
    """``receiver.name`` for a call of a method named like an array method (``x.mean()``): a
    tensor's, an array's or a builtin value's as it is; a user object's (a running-statistics
    class's ``mean``) goes through ``call``, which converts it, so that its prints and tensor
    tests happen when the graph runs."""
    tensor.check_number_attribute(receiver, name)  # ``n.sum()`` where eager's ``n`` is an int
    bound = getattr(receiver, name)
    if type(receiver) is objects.TracedObject:  # an argument object's method: converted too
        return functools.partial(call, bound)
    if tensor.is_tensor(receiver) or not tensor.is_user_object(receiver):
        return bound
    return functools.partial(call, bound)


def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Calls ``fn`` as converted code should: see module docstring."""
    _check_writes(fn, args, kwargs)
    choices.refuse_call(fn, args, kwargs, calls.converts)
    if containers.is_mutator(fn):
        containers.check_write(fn.__self__, f"{fn.__name__}()")
    if any(isinstance(a, lists.SymbolicList) for a in args) and dispatch.is_numpy(fn):
        # NumPy makes an array of a list first: an empty one is float64 whatever it would hold
        args = tuple(
            _numpy_argument(fn, a) if isinstance(a, lists.SymbolicList) else a for a in args
        )
    if fn is list and len(args) == 1 and not kwargs and isinstance(args[0], lists.SymbolicList):
        return _copied_list(args[0])
    hashable = dispatch.hashable(fn)
    if hashable and fn in ordering.HANDLERS:
        return ordering.HANDLERS[fn](sys.modules[__name__], *args, **kwargs)
    if type(getattr(fn, "__self__", None)) is list and fn.__name__ in ordering.LIST_METHODS:
        return ordering.LIST_METHODS[fn.__name__](
            sys.modules[__name__], fn.__self__, *args, **kwargs
        )
    if fn is bool and len(args) == 1 and not kwargs and _has_user_truth(args[0]):
        args = (user_truth(args[0]),)  # its __bool__ (or __len__), converted
    handler = builtin_calls.HANDLERS.get(fn) if hashable else None
    if handler is not None:
        return handler(*args, **kwargs)
    if text.is_str_format(fn) and tensor.contains_symbolic((args, kwargs)):
        return text.str_format(fn.__self__, args, kwargs)
    if isinstance(fn, np.vectorize) and tensor.contains_symbolic((args, kwargs)):
        raise numpy_callbacks.refuse("vectorize", numpy_callbacks.PER_ELEMENT)
    if hashable and fn in numpy_callbacks.HANDLERS:
        return numpy_callbacks.HANDLERS[fn](sys.modules[__name__], *args, **kwargs)
    if hashable and fn in dispatch.OVERRIDES and tensor.contains_symbolic((args, kwargs)):
        return dispatch.OVERRIDES[fn](*args, **kwargs)
    drawing = random_draws.handler(fn)
    if drawing is not None:
        return drawing(*args, **kwargs)
    if hashable and dispatch.is_numpy(fn) and tensor.contains_symbolic((args, kwargs)):
        return array_lists.call(fn, args, kwargs)
    if isinstance(fn, type) and tensor.computes_attributes(fn):
        raise errors.UnsupportedError(
            f"an object of class {fn.__name__} made in the function: its class computes "
            "attributes (__getattr__ or __getattribute__), which would run once, while the "
            "graph is built",
            loc=origin.current_location(),
            construct="object of a class with __getattr__",
        )
    result = calls.call_user(fn, args, kwargs, sys.modules[__name__])
    if isinstance(fn, type):
        made_objects.note_made(result)
    return result


def _check_writes(fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Falls back when a call would write a concrete NumPy array in place (an ``out=``, an
    in-place method, ``np.copyto`` and the like): writing it once while tracing would be wrong
    for an array that outlives the call (arrays made in the function are tensors already)."""
    written: list[Any] = []
    out = kwargs.get("out")
    written.extend(out if isinstance(out, tuple) else [out])
    owner = getattr(fn, "__self__", None)
    if getattr(fn, "__name__", "") in mutation.IN_PLACE_METHODS:
        written.append(owner)
    if isinstance(owner, np.ufunc) and fn.__name__ == "at" and args:
        written.append(args[0])  # np.add.at(a, ...) writes a
    if dispatch.hashable(fn) and fn in mutation.WRITERS and args:
        written.append(args[0])
    if any(isinstance(w, np.ndarray) for w in written):
        name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", repr(fn))
        raise errors.UnsupportedError(
            f"{name} writes in place into a NumPy array that tograph does not track (one read "
            "from a global, say): writing it once, while the graph is built, would be wrong",
            loc=origin.current_location(),
            construct="in-place update of a NumPy array",
        )


def iop(op: str, target: Any, value: Any) -> Any:
    """``target op= value`` (``op`` an ``operator`` in-place function name, ``"iadd"``) for a
    name that may hold a concrete array from outside: writing that in place is refused."""
    if isinstance(target, np.ndarray):
        raise errors.UnsupportedError(
            "an augmented assignment writes in place into a NumPy array that tograph does not "
            "track (one read from a global, or made by code that runs unconverted): writing it "
            "once, while the graph is built, would be wrong",
            loc=origin.current_location(),
            construct="in-place update of a NumPy array",
        )
    return getattr(operator, op)(target, value)


# what eager raises reaches a try's handlers through these (``staging.tries``)
tries.allow_frames(
    call,
    calls.call_user,
    if_stmt,
    getitem,
    assert_,
    raise_,
    effects.raise_,
    and_,
    or_,
    if_exp,
    compare_chain,
    builtin_calls.HANDLERS[float],  # int(), float(), bool(), complex() of a static value
)
