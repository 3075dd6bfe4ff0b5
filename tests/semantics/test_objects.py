"""Objects under to_static: attributes read each call (arrays as graph inputs, Python values as
guards), attributes set after each call, arrays held by attributes written in place, methods
and properties run on the traced view; a trace that is abandoned leaves the objects as they
were. Each case compared with its eager run over several calls (``eager_oracle``)."""

import copy
import fractions
import warnings

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, same

import tograph as tg


class Adam:
    def __init__(self, n):
        self.m, self.v, self.t = np.zeros(n), np.zeros(n), 0
        self.beta1, self.beta2, self.lr = 0.9, 0.999, 0.1


def adam_step(opt, w, g):
    opt.t += 1
    opt.m = opt.beta1 * opt.m + (1 - opt.beta1) * g
    opt.v = opt.beta2 * opt.v + (1 - opt.beta2) * g * g
    mhat = opt.m / (1 - opt.beta1**opt.t)
    vhat = opt.v / (1 - opt.beta2**opt.t)
    w -= opt.lr * mhat / (np.sqrt(vhat) + 1e-8)
    return w


class Kalman:
    def __init__(self):
        self.x, self.P = np.zeros(2), np.eye(2)
        self.F = np.array([[1.0, 1.0], [0.0, 1.0]])
        self.H, self.R, self.Q = np.array([[1.0, 0.0]]), 0.5, 0.01 * np.eye(2)

    def predict(self):
        self.x = self.F @ self.x
        self.P = self.F @ self.P @ self.F.T + self.Q

    def update(self, z):
        y = z - self.H @ self.x
        gain = self.P @ self.H.T / (self.H @ self.P @ self.H.T + self.R)
        if np.abs(y).sum() < 10:  # a gate on the innovation: a cond over tensors
            self.x = self.x + (gain * y).ravel()
        self.P = (np.eye(2) - gain @ self.H) @ self.P
        return self.x


def kalman_step(kf, z):
    kf.predict()
    return kf.update(z)


class Buffer:
    def __init__(self):
        self.step, self.data, self.seen, self.big = 0, np.zeros(3), [], False


def write_into_attribute_array(buf, x):
    buf.step += 1
    buf.data[0] = x.sum()
    if x.sum() > 0:
        buf.data[1] += 1.0
    return x * 2


def count_in_a_branch(buf, x):
    if x.sum() > 0:
        buf.step = buf.step + 1
    if buf.step > 2:
        buf.big = True
    return buf.step


def append_to_attribute_list(buf, x):
    buf.seen.append(x.sum())
    return len(buf.seen)


class Layer:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        return np.tanh(x @ self.w)


class Net:
    def __init__(self):
        self.layers = [Layer(np.eye(2)), Layer(np.ones((2, 2)) * 0.5)]
        self.calls = 0

    @property
    def depth(self):
        return len(self.layers)

    def forward(self, x):
        self.calls += 1
        for layer in self.layers:
            x = layer(x)
        return x * self.depth


def run_net(net, x):
    return net.forward(x)


def isinstance_of_self(buf, x):
    return x * 2 if isinstance(buf, Buffer) else x


VEC = np.array([0.5, -0.25, 1.0])
CASES = [
    (adam_step, lambda: (Adam(3), np.ones(3), np.array([0.1, -0.2, 0.3]))),
    (kalman_step, lambda: (Kalman(), np.array([1.0]))),
    (write_into_attribute_array, lambda: (Buffer(), VEC)),
    (count_in_a_branch, lambda: (Buffer(), VEC)),
    (count_in_a_branch, lambda: (Buffer(), -VEC)),
    (append_to_attribute_list, lambda: (Buffer(), VEC)),
    (run_net, lambda: (Net(), np.ones(2))),
    (isinstance_of_self, lambda: (Buffer(), VEC)),
]


@pytest.mark.parametrize("fn, make", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_objects_end_as_eagerly_over_calls(fn, make):
    eager_args, static_args = make(), make()
    static = tg.to_static(fn, fallback="error")
    for call in range(4):
        expected = fn(*eager_args)
        actual = static(*static_args)
        assert same(expected, actual), f"call {call}: eager {expected!r}, compiled {actual!r}"
        assert same(eager_args, static_args), f"call {call}: the objects differ afterwards"
    assert all(cf.fallback is None for cf in static.concrete_functions)


def test_a_counter_attribute_is_one_graph_for_every_value():
    opt = Adam(3)
    static = tg.to_static(adam_step, fallback="error")
    w = np.ones(3)
    for _ in range(5):
        w = static(opt, w, np.array([0.1, -0.2, 0.3]))
    assert opt.t == 5 and type(opt.t) is int
    assert len(static.concrete_functions) == 1


def test_an_attribute_array_written_in_place_is_the_same_array():
    buf = Buffer()
    held = buf.data
    tg.to_static(write_into_attribute_array, fallback="error")(buf, VEC)
    assert buf.data is held and held[0] == VEC.sum() and held[1] == 1.0


def test_attributes_are_read_at_every_call():
    class Model:
        def __init__(self):
            self.w, self.scale = np.eye(2), 1.0

    def predict(model, x):
        return x @ model.w * model.scale

    model, x = Model(), np.array([1.0, 2.0])
    static = tg.to_static(predict)
    static(model, x)
    model.w = model.w * 3  # a new array: read as the graph's input on the next call
    np.testing.assert_array_equal(static(model, x), predict(model, x))
    model.scale = 0.5  # a static value changed: another graph
    np.testing.assert_array_equal(static(model, x), predict(model, x))
    model.w = np.ones((3, 2))  # another shape: another graph
    with pytest.raises(ValueError):
        predict(model, x)
    with pytest.raises(ValueError):
        static(model, x)  # the error the plain function raises, from its eager run
    assert [cf.fallback is None for cf in static.concrete_functions] == [True, True, False]


class Stepper:
    def __init__(self):
        self.step = 0

    def advance(self, x):
        self.step += 1
        with open(__file__):  # a with statement: the compiler falls back
            pass
        return x


def test_an_abandoned_trace_leaves_the_object_as_it_was():
    stepper = Stepper()
    with pytest.warns(tg.FallbackWarning, match="with statement"):
        tg.to_static(Stepper.advance)(stepper, VEC)
    assert stepper.step == 1  # the eager run's step only


class Settings:
    count = 0


SETTINGS = Settings()


def sets_a_global_object(x):
    SETTINGS.count += 1
    return x


class Made:
    pass


def returns_an_object_made_here(x):
    made = Made()
    made.value = x * 2
    return made


class Slotted:
    __slots__ = ("value",)


def returns_a_slotted_object_made_here(x):
    made = Slotted()
    made.value = x * 2
    return made


@pytest.mark.parametrize("fn", [sets_a_global_object, returns_an_object_made_here])
def test_objects_a_graph_cannot_hold_run_eagerly(fn):
    expected = fn(copy.deepcopy(VEC))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        actual = tg.to_static(fn)(copy.deepcopy(VEC))
    assert same(expected, actual)
    assert any(issubclass(w.category, tg.FallbackWarning) for w in caught)
    assert SETTINGS.count in (0, 2)  # once per call, never while tracing


def test_gradients_through_object_attributes_use_the_tape():
    class Scaler:
        def __init__(self):
            self.k = np.array(2.0)

    def loss(scaler, x):
        return np.sum(x * scaler.k**2)

    x = np.array([1.0, -2.0])
    np.testing.assert_allclose(tg.grad(tg.to_static(loss), 1)(Scaler(), x), [4.0, 4.0])


def test_a_static_object_with_slots_is_returned_as_it_is():
    """A Fraction keeps its state in slots: a static result, not an object holding tensors."""

    def scaled(x):
        return fractions.Fraction(3, 4) * 2, x * 2

    expected = scaled(VEC.copy())
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        actual = tg.to_static(scaled)(VEC.copy())
    assert same(expected, actual)


def test_an_object_with_slots_made_here_runs_eagerly_and_says_why():
    static = tg.to_static(returns_a_slotted_object_made_here)
    with pytest.warns(tg.FallbackWarning, match="Slotted made in the function"):
        made = static(VEC.copy())
    assert same(returns_a_slotted_object_made_here(VEC.copy()).value, made.value)


class Stopper:
    def __init__(self):
        self.best, self.bad = np.inf, 0

    def check(self, loss):
        if loss < self.best:
            self.best = loss
            self.bad = 0
        else:
            self.bad += 1
        return self.bad >= 2


def early_stopping_made_here(w):
    """An object made in the function, changed by a method inside a tensor if (it was changed on
    both paths while the graph was built, and the graph always returned the else-branch's)."""
    stopper = Stopper()
    stopper.check(np.float64(3.0))
    stopper.check(float(w @ w))
    return stopper.best, stopper.bad


def attribute_set_in_a_tensor_if(x):
    made = Made()
    made.value = 0.0
    if x[0] > 0:
        made.value = 1.0
    return made.value


def attribute_set_in_a_tensor_loop(x):
    made = Made()
    made.total = 0.0
    for v in x:
        made.total += v
    return made.total


def object_made_inside_the_loop_body(x):
    total = 0.0
    for v in x:
        made = Made()
        made.value = v * 2
        total = total + made.value
    return total


@pytest.mark.parametrize(
    "fn", [early_stopping_made_here, attribute_set_in_a_tensor_if, attribute_set_in_a_tensor_loop]
)
@pytest.mark.parametrize("x", [np.array([1.0, -2.0, 0.5]), np.array([-1.0, 0.5, 0.25])])
def test_an_object_made_before_tensor_control_flow_and_changed_in_it_compiles(fn, x):
    """The op carries the attributes it sets (``staging.made_objects``)."""
    assert_matches_eager(fn, x)


def test_an_object_made_inside_a_tensor_loop_body_and_changed_there_compiles():
    x = np.array([1.0, -2.0, 0.5])
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        actual = tg.to_static(object_made_inside_the_loop_body)(x.copy())
    assert same(object_made_inside_the_loop_body(x.copy()), actual)


class Velocity:
    def __init__(self, n):
        self.v = np.zeros(n)  # stored on the object: any method may write it in place

    def step(self, g):
        self.v *= 0.5
        self.v += g
        return self.v


def velocity_made_here(g):
    vel = Velocity(len(g))
    vel.step(g)
    return vel.step(g).copy()


class BinCounter:
    def __init__(self, n):
        self.counts = np.zeros(n, dtype=np.int64)
        self.outside = 0

    def add(self, b):
        if 0 <= b < len(self.counts):
            self.counts[b] += 1
        else:
            self.outside += 1


def count_bins(xs):
    h = BinCounter(3)
    for x in xs:
        h.add(int(x))
    return h.counts, h.outside


def test_an_array_made_by_init_and_written_in_place_by_a_method_compiles():
    """``__init__`` is converted and an array it stores on the object is a tensor, which the
    methods' in-place writes update (it was a concrete array, whose writes fell back)."""
    assert_matches_eager(velocity_made_here, VEC)


@pytest.mark.parametrize("xs", [np.array([0.5, 2.2, 7.0, 2.9]), np.array([-1.0])])
def test_an_array_made_by_init_written_at_a_tensor_index_under_a_tensor_test_compiles(xs):
    """It fell back: the concrete array could not be read at a tensor index."""
    assert_matches_eager(count_bins, xs)


class Tally:
    def __init__(self):
        self.total = np.float64(0.0)
        self.n = 0

    def add(self, x):
        self.total += x
        self.n += 1

    def mean(self):
        print("mean of", self.n)
        if self.total > 0:
            return self.total / self.n
        return -self.total


def tally_mean(xs):
    t = Tally()
    for x in xs:
        t.add(x)
    return t.mean(), t.sum() if hasattr(t, "sum") else xs.sum()


@pytest.mark.parametrize("xs", [np.array([1.0, 2.5]), np.array([-3.0, 1.0, -0.5])])
def test_a_user_method_named_like_an_array_method_is_converted(xs, capsys):
    """``t.mean()`` of a user object ran as it is (converted code leaves array-method calls as
    written): its print happened once, while the graph was built, and its tensor test fell
    back; it is converted now, and the array's own ``xs.sum()`` stays the array's."""
    assert_matches_eager(tally_mean, xs)
    static = tg.to_static(tally_mean)
    static(xs.copy())
    capsys.readouterr()
    static(xs.copy())
    assert capsys.readouterr().out == f"mean of {len(xs)}\n"


class _Named:
    def __init__(self):
        self.w = 2.0

    def label(self):
        return type(self).__name__


def _type_of_a_given_object(p, x):
    print(type(p).__name__, p.label())
    k = type(p)
    return x * p.w, k is _Named, k.__name__


def test_type_of_an_object_passed_in_is_its_class():
    # the compiler sees the object through a view; type() must still give the object's class
    assert_matches_eager(_type_of_a_given_object, _Named(), np.ones(2))


class _Holder:
    def __init__(self, items):
        self.items = items


def _grow_both(x, holder, items):
    holder.items.append(x[0])
    items.append(x[1])
    return len(items), len(holder.items)


def _grow_two_holders(x, a, b):
    a.items.append(x[0])
    b.items.append(x[1])
    return len(a.items)


@pytest.mark.parametrize(
    ("fn", "make"),
    [
        (_grow_both, lambda items: (_Holder(items), items)),
        (_grow_two_holders, lambda items: (_Holder(items), _Holder(items))),
    ],
)
def test_one_list_reached_through_an_argument_and_an_attribute_matches_eager(fn, make):
    # the graph copies each list it is given: one list reached two ways must fall back
    eager_items, static_items = [1.0], [1.0]
    expected = fn(np.ones(2), *make(eager_items))
    with pytest.warns(tg.FallbackWarning, match="held by an argument's attribute"):
        got = tg.to_static(fn)(np.ones(2), *make(static_items))
    assert got == expected and static_items == eager_items
